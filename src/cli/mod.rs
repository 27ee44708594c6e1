//! One file per subcommand; each parses its arguments and calls into the library.

pub mod bench;
pub mod check_fingerprints;
pub mod evolve;
pub mod formula;
pub mod league;
pub mod play;
pub mod plot;
pub mod replay;
pub mod replicate;
pub mod report;
pub mod run_args;
pub mod slurm;
pub mod table;
pub mod validate;
