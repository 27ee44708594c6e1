//! The `evomcts` command line: a thin layer over the library's modules.

// The same modules the library holds under the feature `command-line` (for the Python
// package), compiled here so that the library the tests link stays small.
#[macro_use]
mod cli;

fn main() {
    std::process::exit(cli::command::main(std::env::args_os()));
}

/// Records, before Rust's runtime starts, whether the process was started with its standard
/// output closed (`evomcts table RUN >&-`). The runtime then opens the null device in its
/// place, so by `main` a closed stdout and one sent to `/dev/null` on purpose look the same,
/// and every write would "succeed" with the tables lost (README promises status 2). Linux
/// runs the functions of `.init_array` before the runtime's start-up, with the descriptors as
/// the parent left them. No `unsafe` is involved: the function only asks the kernel, through
/// `/proc`, whether descriptor 1 exists.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdout() {
    if std::fs::symlink_metadata("/proc/self/fd/1").is_err()
        && std::path::Path::new("/proc/self").exists()
    {
        cli::STDOUT_CLOSED_AT_START.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
