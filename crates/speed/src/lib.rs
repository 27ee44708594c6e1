//! The speed measurements of `evomcts bench`: complete random games per second (`engine`),
//! MCTS decisions on positions from random games of any game (`search`), and Star decisions on
//! Carcassonne (`star`). The timed loops are here, in a crate of their own compiled like the
//! games and the searches, so the command line, which only reads the options and prints the
//! report, may be built at a cheaper optimisation level (Cargo.toml's `release` profile).

pub mod engine;
pub mod search;
pub mod star;

/// The median of `values` (sorted in place; not empty).
pub(crate) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// On-CPU time of this thread in ns (Linux scheduler statistics), to tell the cost of a
/// decision from the waiting that other processes on a shared machine cause.
pub(crate) fn thread_cpu_ns() -> Option<u64> {
    evomcts_records::runfs::read_capped_text(
        std::path::Path::new("/proc/thread-self/schedstat"),
        4096,
        "scheduler statistics",
    )
    .ok()?
    .split_whitespace()
    .next()?
    .parse()
    .ok()
}
