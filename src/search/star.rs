//! *-minimax controllers (placeholder until they land).
