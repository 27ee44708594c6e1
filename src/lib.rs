//! evomcts: evolving the selection formula of Monte Carlo Tree Search, measured on Carcassonne.
//!
//! Layers, lowest first; a lower layer never imports a higher one:
//! `game` → `formula` → `search` → `runfs` (run folders and spec files, shared by `league` and
//! `evolve`) → `league` → `analysis`, with `cli` on top; `escape` (names made safe for every
//! output) is used by all.
//! See ARCHITECTURE.md for the map.

pub mod analysis;
pub mod escape;
pub mod evolve;
pub mod formula;
pub mod game;
pub mod league;
pub mod runfs;
pub mod search;
