//! Analysis of runs for people, by job:
//!
//! - `plots`: every figure (formula counts, league tables, game curves, boards, evolution
//!   runs) and what figures share, drawn as PNG and SVG with an embedded font, so plots
//!   render on a machine with no system fonts or libraries.
//! - `report`: the HTML report of a run folder and its game viewer.
//! - `studies`: searches measured against Pig's exact solution (`exact`) and the paper's
//!   tables beside ours (`replication`).
//!
//! Within the crate, `report` and `studies` may use `plots`; `plots` uses neither, and
//! neither uses the other.
//!
//! Layering: analysis reads league records and evolution runs and uses the game, formula,
//! league and evolve layers; nothing below it uses analysis.

pub mod plots;
pub mod report;
pub mod studies;
