//! One file per subcommand; each parses its arguments and calls into the library.

/// Prints a command's product on stdout, as `print!` does, but returns an error instead of
/// panicking when stdout cannot take it (a full disk, `> /dev/full`, a closed pipe): the output
/// is the product of most commands, so failing to write it fails the command (status 2), or
/// ends it quietly when the reader has gone (`main` tells the two apart).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))
    };
}

/// [`out!`] with a line break, as `println!`.
macro_rules! outln {
    () => {
        $crate::cli::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub mod analyse;
pub mod bench;
pub mod budgets;
pub mod check_fingerprints;
pub mod command;
pub mod evolve;
pub mod exact;
pub mod formula;
pub mod league;
pub mod pareto;
pub mod play;
pub mod plot;
pub mod portfolio;
pub mod replay;
pub mod replicate;
pub mod report;
pub mod run_args;
pub mod slurm;
pub mod step_worker;
pub mod study;
pub mod table;
pub mod tune;
pub mod validate;

/// A count from a flag: between `min` and `max`, the message naming the flag and both bounds.
pub fn check_count(flag: &str, value: u64, min: u64, max: u64) -> anyhow::Result<()> {
    if !(min..=max).contains(&value) {
        anyhow::bail!("{flag} must be between {min} and {max}, got {value}");
    }
    Ok(())
}

/// The work flags multiply into (each flag alone may be in range while their product never
/// finishes): `product` names the factors, `unit` what is counted.
pub fn check_work(product: &str, work: u128, max: u64, unit: &str) -> anyhow::Result<()> {
    if work > u128::from(max) {
        anyhow::bail!("{product} = {work} {unit}, more than the {max} one command may run");
    }
    Ok(())
}

/// Set (by the binary, before Rust's runtime starts, on Linux) when the process was started with
/// its standard output closed: the runtime puts the null device there, so writes would
/// succeed and lose the output; `write_stdout` refuses them instead.
pub static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Writes `text` to stdout and flushes it, so that an error surfaces here, at the text that
/// was lost, and not when the process exits (where Rust ignores it). Architecture invariant:
/// the only writer of stdout (through `out!`/`outln!`).
pub fn write_stdout(text: std::fmt::Arguments) -> anyhow::Result<()> {
    use std::io::Write;
    if STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(anyhow::anyhow!(
            "writing to standard output: it was closed when evomcts started (`>&-`); \
             send it to a file, or to /dev/null to discard it"
        ));
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_fmt(text)
        .and_then(|()| stdout.flush())
        .map_err(|e| anyhow::Error::new(e).context("writing to standard output"))
}
