//! evomcts: evolving the selection formula of Monte Carlo Tree Search, measured on Carcassonne.
//!
//! Layers, lowest first; a lower layer never imports a higher one:
//! `game` and `formula` (independent of each other) → `search` → `league` and `evolve` →
//! `analysis`, with the binary's `cli` on top. See ARCHITECTURE.md for the map.

pub mod analysis;
pub mod evolve;
pub mod formula;
pub mod game;
pub mod league;
pub mod search;
