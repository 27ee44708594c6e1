//! `tune.csv`: every evaluation of a tuning run, one row per (step, point, sequence), with the
//! point's values in natural units and both seatings' scores.
//!
//! Columns: `step,side,<parameter names in lowercase…>,tile_seed,candidate_seat0,
//! opponent_seat0,candidate_seat1,opponent_seat1`; `side` is `plus` or `minus` (the two points
//! of SPSA's step); the tile seed is quoted, as every 64-bit seed of a run's CSV files. Numbers are written in Rust's shortest round-trip form, so a value read back is the
//! value played. Reading checks each row could have been played (a final score of the game, a
//! known side); whether it is the row the schedule expects is the run's check on resume.

use super::TuneError;
use evomcts_arena::{GameChoice, SeatingScores};
use evomcts_records::runfs::FileError;
use std::path::Path;

/// The file's name in the run folder.
pub const TUNE_CSV: &str = evomcts_records::runfs::kind::TUNE_CSV;

/// Which point of a step a row evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Plus,
    Minus,
}

impl Side {
    pub fn word(self) -> &'static str {
        match self {
            Side::Plus => "plus",
            Side::Minus => "minus",
        }
    }
}

/// One evaluation: a point of a step on one sequence, both seatings.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub step: usize,
    pub side: Side,
    /// The point's values, natural units, in the parameters' order.
    pub values: Vec<f64>,
    pub tile_seed: u64,
    /// (candidate, opponent) in the seating where the candidate moves first, then second.
    pub scores: SeatingScores,
}

impl Row {
    /// The candidate's mean score difference over the two seatings.
    pub fn difference(&self) -> f64 {
        self.scores.iter().map(|(c, o)| c - o).sum::<f64>() / 2.0
    }
}

/// The header for parameters named `names` (each column the name in lowercase: `c_e`, `w1`).
pub fn header(names: &[&str]) -> String {
    format!(
        "step,side,{},tile_seed,candidate_seat0,opponent_seat0,candidate_seat1,opponent_seat1",
        columns(names)
    )
}

/// The parameters' columns: their names in lowercase, comma-separated.
pub fn columns(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| n.to_lowercase())
        .collect::<Vec<_>>()
        .join(",")
}

/// A row as the file holds it, with its line break.
pub fn row_text(r: &Row) -> String {
    let values: Vec<String> = r.values.iter().map(|v| v.to_string()).collect();
    format!(
        "{},{},{},\"{}\",{},{},{},{}\n",
        r.step,
        r.side.word(),
        values.join(","),
        r.tile_seed,
        r.scores[0].0,
        r.scores[0].1,
        r.scores[1].0,
        r.scores[1].1
    )
}

/// The rows of `path` (none when it does not exist), each checked to be a row a game of
/// `game` could produce; a bad one is refused with its line.
pub fn read_rows(path: &Path, names: &[&str], game: GameChoice) -> Result<Vec<Row>, TuneError> {
    let read = evomcts_records::runfs::read_capped_text(
        path,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a tuning run's evaluations",
    );
    let text = match read {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(super::io_error(path, e)),
    };
    let expected = header(names);
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let corrupt = |message: String| TuneError::from(FileError::corrupt(path, i + 1, message));
        if i == 0 {
            if line != expected {
                return Err(corrupt(format!("expected the header `{expected}`")));
            }
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let width = names.len() + 7;
        if f.len() != width {
            return Err(corrupt(format!("expected {width} fields, got {}", f.len())));
        }
        let number = |k: usize| {
            f[k].parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    corrupt(format!(
                        "field {}: expected a number, got {:?}",
                        k + 1,
                        f[k]
                    ))
                })
        };
        let score = |k: usize| -> Result<f64, TuneError> {
            let v = number(k)?;
            game.check_final_score(v)
                .map_err(|m| corrupt(format!("field {}: {m}", k + 1)))?;
            Ok(v)
        };
        let step = f[0]
            .parse::<usize>()
            .map_err(|e| corrupt(format!("field 1: {e}")))?;
        let side = match f[1] {
            "plus" => Side::Plus,
            "minus" => Side::Minus,
            other => {
                return Err(corrupt(format!(
                    "field 2: expected plus or minus, got {other:?}"
                )))
            }
        };
        let values = (0..names.len())
            .map(|k| number(2 + k))
            .collect::<Result<_, _>>()?;
        let at = 2 + names.len();
        let tile_seed = f[at]
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or("not quoted")
            .parse::<u64>()
            .map_err(|e| corrupt(format!("field {}: {e}", at + 1)))?;
        rows.push(Row {
            step,
            side,
            values,
            tile_seed,
            scores: [
                (score(at + 1)?, score(at + 2)?),
                (score(at + 3)?, score(at + 4)?),
            ],
        });
    }
    Ok(rows)
}
