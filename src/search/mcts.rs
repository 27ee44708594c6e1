//! MCTS controllers (placeholder until they land).
