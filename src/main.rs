//! The `evomcts` command line: a thin layer over the library's modules.

// The same modules the library holds under the feature `command-line` (for the Python
// package), compiled here so that the library the tests link stays small.
#[macro_use]
mod cli;

fn main() {
    std::process::exit(cli::command::main(std::env::args_os()));
}
