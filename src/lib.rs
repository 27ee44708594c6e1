//! evomcts: evolving the selection formula of Monte Carlo Tree Search, measured on Carcassonne.
//!
//! Layers, lowest first; a lower layer never imports a higher one:
//! `games` (the game interface and Pig) with `game` (Carcassonne), and `formula`, independent
//! of the games → `search` → `arena` (one game between two controllers, its record and
//! replay), `runfs` (run folders and spec files) and `stats` (paired tests, intervals) →
//! `league` and `evolve` → `analysis`, with the binary's `cli` on top; `escape` (names made
//! safe for every output) and `progress` are used by all. See ARCHITECTURE.md for the map.

pub mod analysis;
pub mod arena;
pub mod escape;
pub mod evolve;
pub mod formula;
pub mod game;
pub mod games;
pub mod league;
pub mod progress;
pub mod runfs;
pub mod search;
pub mod stats;
