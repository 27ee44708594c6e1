//! Leagues: fair tournaments between controllers, as the main paper ran them.
//!
//! `spec` reads a league from RON; `schedule` lists its games with their seeds (both seatings
//! of a pair share tile sequences); `run` plays them on all cores into an append-only record
//! that survives interruption; `person` keeps a game a person played against a controller
//! as a league's; `standings` turns records into the paper's tables, ratings
//! and a row per game; `stats` holds the tests and the rating fit; `report` prints and writes
//! the tables (docs/outputs.md describes every file).

pub mod analyse;
pub mod divergence;
pub mod load;
pub mod person;
pub mod records;
pub mod report;
pub mod run;
pub mod schedule;
pub mod spec;
pub mod standings;
/// The statistics live below `league` and `evolve`, which both use them.
pub use evomcts_records::stats;

pub use divergence::divergence;
pub use load::{load_runs, LoadError, MergeReport};
pub use person::{replay_league_game, PERSON};
pub use records::{
    es_decisions_of, read_records, record_path, EsDecisionSummary, LeagueGame, SearchDecision,
};
pub use run::{
    play_league_game, play_league_game_with, run_league, run_league_until, run_league_with_tables,
    LeagueError, RunOptions, RunOutcome, Shard,
};
pub use schedule::{schedule, GameId, GameJob};
pub use spec::{BonusRules, Entrant, EsDetail, LeagueSpec, SearchDetail};
pub use standings::{
    match_records, GameRow, MatchRecord, MatchResult, Rating, Ratings, Standing, Tables,
};
