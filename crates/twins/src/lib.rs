//! Fifteen native games that are OpenSpiel's games move for move (issue 49), each a module
//! implementing `evomcts_games::Game` and `evomcts_games::open_spiel_twin::OpenSpielTwin`:
//! connection games (`tic_tac_toe`, `hex`, `y`, `gomoku`, `pentago`), capture games
//! (`othello`, `breakthrough`, `clobber`, `checkers`), mancala games (`mancala`, `oware`),
//! combinatorial games (`nim`, `dots_and_boxes`) and dice races (`maedn`, `backgammon`).
//! `python/tests/test_native_oracle.py` replays seeded random games of each in OpenSpiel
//! (`examples/oracle_trace.rs` prints them) and compares every step.
//!
//! A crate of its own beside `evomcts-games` (the interface and the games the project began
//! with), so that neither is past the size one crate should compile at, and the searches,
//! which need only the interface, compile while these do.
//!
//! Architecture invariant: each module imports only the interface (`evomcts_games::…`), its
//! own files and `bits`; no I/O.

pub mod backgammon;
mod bits;
pub mod breakthrough;
pub mod checkers;
pub mod clobber;
pub mod dots_and_boxes;
pub mod gomoku;
pub mod hex;
pub mod maedn;
pub mod mancala;
pub mod nim;
pub mod othello;
pub mod oware;
pub mod pentago;
pub mod tic_tac_toe;
pub mod y;
