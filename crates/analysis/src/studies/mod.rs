//! Studies that answer one question each and write their own tables: `exact` measures MCTS
//! and Star against Pig's exact solution (`evomcts exact`), `replication` sets the paper's
//! published tables beside K seeds of ours (`evomcts replicate`).
//!
//! Imports: the layers below analysis and `plots` (a study's figures are drawn like every
//! other), never `report`.

pub mod exact;
pub mod replication;
