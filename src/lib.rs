//! evomcts: evolving the selection formula of Monte Carlo Tree Search, measured on Carcassonne.
//!
//! The library is a crate per layer, lowest first; a crate never depends on one above it, so
//! the compiler holds the layering:
//! - `evomcts-games` (`crates/games`): the game interface and every game;
//!   `evomcts-formula` (`crates/formula`): expression trees, grammars, mutation, the ES;
//!   neither knows the other, and neither does I/O;
//! - `evomcts-search` (`crates/search`): the searches, over any game; no I/O;
//! - the run crates, one per floor (`crates/records`, `arena`, `steps`, `league`, `evolve`,
//!   `validation`, `tune`, `study`, `portfolio`, `slurm`): run folders and statistics, one game
//!   between two controllers, job steps and worker pools, leagues, evolution, validation,
//!   tuning, studies, portfolios and Slurm jobs, re-exported here under their module names
//!   (`evomcts::league`, `evomcts::slurm::launch`, …);
//! - `evomcts-analysis` (`crates/analysis`): figures, the HTML report, the studies;
//!   `evomcts-speed` (`crates/speed`): the timed loops of `evomcts bench`.
//!
//! This crate is the command line (`src/cli`, compiled into the binary) and re-exports the
//! layers under one name, so `evomcts::search::…` reads the same from the binary, the tests
//! and the Python package. With the feature `command-line` the library holds the command line
//! too (`evomcts::cli`), for the Python package's `python -m evomcts`; without it, which is how
//! `cargo test` builds it, the integration tests need not wait for the command line to compile.
//! See ARCHITECTURE.md for the map.

// The command line's modules name the library `evomcts::…`, as the binary and tests do.
#[cfg(feature = "command-line")]
extern crate self as evomcts;

#[cfg(feature = "command-line")]
#[macro_use]
pub mod cli;

pub use evomcts_analysis as analysis;
pub use evomcts_arena as arena;
pub use evomcts_evolve as evolve;
pub use evomcts_formula as formula;
/// The game interface and every game: `evomcts-games` (the interface, Carcassonne, Pig, Connect
/// Four, OpenSpiel's through `external`) and `evomcts-twins` (the fifteen native games that are
/// OpenSpiel's), under one name.
pub mod games {
    pub use evomcts_games::*;
    pub use evomcts_twins::{
        backgammon, breakthrough, checkers, clobber, dots_and_boxes, gomoku, hex, maedn, mancala,
        nim, othello, oware, pentago, tic_tac_toe, y,
    };
}
pub use evomcts_league as league;
pub use evomcts_portfolio as portfolio;
pub use evomcts_records::{
    anytime, bounds, csv, equivalence, escape, note, progress, runfs, sequential, stats,
};
pub use evomcts_steps::frame;
pub use evomcts_study as study;
pub use evomcts_tune as tune;
pub use evomcts_validation as validation;

/// Runs on a Slurm cluster: the job steps and their launch (`evomcts-steps`, which local
/// workers share) and the batch scripts, job arrays and gathering (`evomcts-slurm`), under the
/// one name they had before the run crates were split.
pub mod slurm {
    pub use evomcts_slurm::{gather, portfolio, scripts};
    pub use evomcts_steps::{launch, steps};
}
pub use evomcts_search as search;
pub use evomcts_speed as speed;
