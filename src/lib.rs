//! evomcts: evolving the selection formula of Monte Carlo Tree Search, measured on Carcassonne.
//!
//! Layers, lowest first; a lower layer never imports a higher one:
//! `game` → `formula` → `search` → `league` → `analysis`, with `cli` on top.
//! See ARCHITECTURE.md for the map.

pub mod analysis;
pub mod evolve;
pub mod formula;
pub mod game;
pub mod league;
pub mod search;
