//! The record of a league run: one JSON line per finished game, appended and synced at once.
//!
//! JSON Lines rather than RON: a line is a record, so a run killed mid-write leaves at most one
//! torn last line, which is found (no newline) and dropped on resume, and any earlier line that
//! does not parse is reported with its line number instead of being skipped. serde_json also
//! reads and writes the ~5 KB records fast.

use super::schedule::{GameId, GameJob};
use evomcts_arena::PlayedGame;
use evomcts_search::mcts::EsDecisionRecord;
use evomcts_search::SearchSummary;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the league keeps of one ES decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsDecisionSummary {
    pub turn: usize,
    /// The formula that selected for the rest of the decision (printed and canonical), `None`
    /// when the ES did not run.
    pub formula: Option<String>,
    pub canonical: Option<String>,
    pub fitness: Option<f64>,
    pub es_simulations: u64,
    /// Best and mean candidate fitness of each generation.
    pub best_fitness: Vec<f64>,
    pub mean_fitness: Vec<f64>,
    /// Every candidate, when the spec asks for `es_detail: Full`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full: Option<EsDecisionRecord>,
}

impl EsDecisionSummary {
    pub fn new(record: EsDecisionRecord, keep_full: bool) -> Self {
        let stats = |f: fn(&[f64]) -> f64| {
            record
                .generations
                .iter()
                .map(|g| f(&g.candidates.iter().map(|c| c.fitness).collect::<Vec<_>>()))
                .collect()
        };
        EsDecisionSummary {
            turn: record.turn,
            formula: record.chosen.as_ref().map(|c| c.formula.clone()),
            canonical: record.chosen.as_ref().map(|c| c.canonical.clone()),
            fitness: record.chosen.as_ref().map(|c| c.fitness),
            es_simulations: record.es_simulations,
            best_fitness: stats(|v| v.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
            mean_fitness: stats(|v| v.iter().sum::<f64>() / v.len().max(1) as f64),
            full: keep_full.then_some(record),
        }
    }
}

/// Every ES decision that the entrant named `name` took in `games`, in game order, whichever
/// seat it played.
pub fn es_decisions_of<'a>(
    games: &'a [LeagueGame],
    name: &'a str,
) -> impl Iterator<Item = &'a EsDecisionSummary> + 'a {
    games.iter().flat_map(move |g| {
        (0..2)
            .filter(move |&seat| g.names[seat] == name)
            .flat_map(move |seat| g.es[seat].iter())
    })
}

/// What the search of one decision found, kept when the spec asks for `search_detail`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchDecision {
    /// Turns played before the decision (`GameState::turns_played`).
    pub turn: usize,
    pub search: SearchSummary<evomcts_games::carcassonne::Move>,
}

fn no_search_decisions(decisions: &[Vec<SearchDecision>; 2]) -> bool {
    decisions.iter().all(Vec::is_empty)
}

/// One finished league game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeagueGame {
    pub spec_hash: String,
    pub job: GameJob,
    /// Entrant names in seat order.
    pub names: [String; 2],
    pub game: PlayedGame,
    /// ES decisions of each seat, in turn order.
    pub es: [Vec<EsDecisionSummary>; 2],
    /// Each seat's search decisions in turn order, under `search_detail` (left out of records
    /// without them, and empty when read from such records).
    #[serde(default, skip_serializing_if = "no_search_decisions")]
    pub search: [Vec<SearchDecision>; 2],
}

impl LeagueGame {
    pub fn id(&self) -> GameId {
        self.job.id
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}:{line}: not a game record ({message}); the file is damaged — keep a copy and remove that line to go on")]
    Corrupt {
        file: String,
        line: usize,
        message: String,
    },
}

/// The games of a record file, and whether its last line was torn.
pub struct ReadRecords {
    pub games: Vec<LeagueGame>,
    /// The line number (from 1) of each game, for messages about it.
    pub lines: Vec<usize>,
    /// Bytes of the file up to the end of the last complete line.
    pub valid_len: u64,
    pub torn_tail: bool,
}

pub const RECORD_FILE: &str = evomcts_records::runfs::kind::RECORD_FILE;

pub fn record_path(dir: &Path) -> PathBuf {
    dir.join(RECORD_FILE)
}

/// Reads every complete record; a last line without its newline is reported as torn.
pub fn read_records(path: &Path) -> Result<ReadRecords, RecordError> {
    let file = path.display().to_string();
    let bytes = match evomcts_records::runfs::read_capped(
        path,
        evomcts_records::runfs::MAX_RECORD_FILE_BYTES,
        "a league's records",
    ) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(ReadRecords {
                games: Vec::new(),
                lines: Vec::new(),
                valid_len: 0,
                torn_tail: false,
            })
        }
        Err(source) => return Err(RecordError::Io { file, source }),
    };
    let valid_len = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    let mut games = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in bytes[..valid_len].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let game: LeagueGame = serde_json::from_slice(line).map_err(|e| RecordError::Corrupt {
            file: file.clone(),
            line: i + 1,
            message: e.to_string(),
        })?;
        games.push(game);
        lines.push(i + 1);
    }
    Ok(ReadRecords {
        games,
        lines,
        valid_len: valid_len as u64,
        torn_tail: valid_len < bytes.len(),
    })
}

/// One record as it is written: its JSON and a line break.
pub fn record_line(game: &LeagueGame) -> Vec<u8> {
    let mut line = serde_json::to_vec(game).expect("records serialise");
    line.push(b'\n');
    line
}

/// Appends records, each on its own line, flushed and synced before the next game counts as
/// done.
pub struct RecordWriter {
    file: File,
    path: PathBuf,
}

impl RecordWriter {
    /// Opens for appending after truncating to `valid_len` (dropping a torn last line).
    pub fn open(path: &Path, valid_len: u64) -> Result<RecordWriter, RecordError> {
        let io = |source| RecordError::Io {
            file: path.display().to_string(),
            source,
        };
        let file =
            evomcts_records::runfs::open_own(path, OpenOptions::new().create(true).append(true))
                .map_err(io)?;
        if file.metadata().map_err(io)?.len() > valid_len {
            file.set_len(valid_len).map_err(io)?;
        }
        Ok(RecordWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn append(&mut self, game: &LeagueGame) -> Result<(), RecordError> {
        let line = record_line(game);
        let io = |source| RecordError::Io {
            file: self.path.display().to_string(),
            source,
        };
        self.file.write_all(&line).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        self.check()
    }

    /// Checks the records are still written to the run's `games.jsonl`, not to a file that was
    /// removed or replaced under the run.
    pub fn check(&self) -> Result<(), RecordError> {
        evomcts_records::runfs::check_still_in_place(&self.file, &self.path).map_err(|source| {
            RecordError::Io {
                file: self.path.display().to_string(),
                source,
            }
        })
    }
}
