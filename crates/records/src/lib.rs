//! The records of evomcts's runs and the folders that hold them, the lowest floor of the run
//! crates: run folders and the files in them (`runfs`: atomic writes, capped reads, locks,
//! seeds, spec files), names made safe for every output (`escape`), live progress and notes on
//! stderr (`progress`, the `note!` macro), paired statistics (`stats`), sequential tests
//! (`sequential`), equivalence tests (`equivalence`: TOST and the t distribution), p-values
//! valid under optional stopping (`anytime`), the one reader of the CSV tables runs write
//! (`csv`), and what a spec or a flag may ask to run (`bounds`).
//!
//! Layers, lowest first: `escape`, `progress`, `stats`, `sequential`, `equivalence` →
//! `anytime` (uses `sequential`'s pair type; its tests use `equivalence` and `stats`) →
//! `runfs` (uses `escape`) → `csv` (uses `runfs` and `escape`), `bounds` (uses `runfs`).
//!
//! Architecture invariant: this crate uses `evomcts-formula` and `evomcts-search` (what
//! `bounds` checks) and no other evomcts crate; every crate of runs above it may use it.

pub mod anytime;
pub mod bounds;
pub mod csv;
pub mod equivalence;
pub mod escape;
pub mod progress;
pub mod runfs;
pub mod sequential;
pub mod stats;
