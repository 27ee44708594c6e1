//! Runs of evomcts and what they leave on disk: one game between two controllers (`arena`),
//! run folders and spec files (`runfs`), what a spec or a flag may ask to run (`bounds`),
//! paired statistics (`stats`), tournaments (`league`), offline evolution (`evolve`) and the
//! validation and sweeps that measure its formulas (`validation`) and the tuning of a
//! controller's constants (`tune`), on one machine or on a Slurm cluster (`slurm`: job arrays
//! and job steps); `escape` makes names safe for every output and `progress` reports live work;
//! `frame` holds what every run kind shares (its options, its worker pool).
//!
//! Layers, lowest first: `escape`, `progress` → `runfs`, `stats` → `bounds`, `arena` →
//! `league` → `slurm`, `frame` → `evolve` → `validation` → `tune`; within `slurm`, only the scripts and
//! the gathering of a league's slices use `league`, and `evolve` uses only the job steps.
//!
//! Architecture invariant: this crate uses `evomcts-games`, `evomcts-formula` and
//! `evomcts-search`, and never the analysis crate or the command line; none of those three
//! uses it.

pub mod arena;
pub mod bounds;
pub mod escape;
pub mod evolve;
pub mod frame;
pub mod league;
pub mod portfolio;
pub mod progress;
pub mod runfs;
pub mod sequential;
pub mod slurm;
pub mod stats;
pub mod study;
pub mod tune;
pub mod validation;
