//! The `evomcts` command line: a thin layer over the library's modules (`evomcts::cli`).

fn main() {
    std::process::exit(evomcts::cli::command::main(std::env::args_os()));
}
