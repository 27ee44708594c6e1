//! Controllers that choose moves by search: MCTS and its variants (evolvable selection, RAVE,
//! Thompson sampling, ES-MCTS, ES-p-MCTS) and the *-minimax family (Star1, Star2, Star2.5).
//! Every controller implements `game::Controller` and sees only a `&GameState`: it samples
//! the hidden tiles, never reads the stack.

pub mod mcts;
pub mod star;

pub use crate::game::RandomController;
