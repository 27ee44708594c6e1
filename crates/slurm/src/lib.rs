//! Runs on a Slurm cluster, all of it in one place:
//!
//! - `scripts`: the batch scripts: a league as a job array of slices with a merge job after
//!   them, a set of leagues with one job after all of them (`evomcts slurm --kind replicate`),
//!   and the one driver job over an allocation of a run whose games are job steps (`evolve`,
//!   `validate … --srun`); every value is checked or quoted before any folder is made;
//! - `portfolio`: a portfolio's job arrays (each game's study, then each game's column of the
//!   matrix) and the job that writes its outputs (`evomcts slurm --kind portfolio`);
//! - `gather`: the slices of a league's job array merged into the league's own folder;
//! - `steps`: games played as job steps with the run folder as the only channel: the work,
//!   todo and results files of a step folder, a worker's share, the records read back and
//!   checked against the work;
//! - `launch`: the driver's side of a step: `srun`, waiting, the records read back.
//!
//! Layering: `scripts` and `gather` use `league`, which uses nothing here; `portfolio` uses
//! `evomcts_portfolio` (its spec and folder), which reaches `steps` and `launch` only through
//! `validation`. `steps` and `launch` use only `runfs`, `escape` and `progress` and know tasks
//! and values, not games, so `evolve` and `validation` run their games through them (what such
//! a step plays is `evolve::work::Work`) and nothing here uses either.

pub mod gather;
pub mod portfolio;
pub mod scripts;
