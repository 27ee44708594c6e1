//! One file per subcommand; each parses its arguments and calls into the library.

pub mod analyse;
pub mod bench;
pub mod check_fingerprints;
pub mod evolve;
pub mod exact;
pub mod formula;
pub mod league;
pub mod play;
pub mod plot;
pub mod replay;
pub mod replicate;
pub mod report;
pub mod run_args;
pub mod slurm;
pub mod step_worker;
pub mod table;
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
