//! `tune.csv`: every evaluation of a tuning run, one row per (step, point, sequence), with the
//! point's values in natural units and both seatings' scores.
//!
//! Columns: `step,side,<parameter names in lowercase…>,tile_seed,candidate_seat0,
//! opponent_seat0,candidate_seat1,opponent_seat1`; `side` is `plus` or `minus` (the two points
//! of SPSA's step) or `point` (CLOP's one point, `clop_steps`); the tile seed is quoted, as every 64-bit seed of a run's CSV files. Numbers are written in Rust's shortest round-trip form, so a value read back is the
//! value played. Reading checks each row could have been played (a final score of the game, a
//! known side); whether it is the row the schedule expects is the run's check on resume.

use super::TuneError;
use evomcts_arena::{GameChoice, SeatingScores};
use evomcts_records::csv::{CsvError, Table};
use evomcts_records::runfs::FileError;
use std::path::Path;

/// The file's name in the run folder.
pub const TUNE_CSV: &str = evomcts_records::runfs::kind::TUNE_CSV;

/// Which point of a step a row evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Plus,
    Minus,
    /// The one point of a CLOP evaluation (`clop_steps`).
    Point,
}

impl Side {
    pub fn word(self) -> &'static str {
        match self {
            Side::Plus => "plus",
            Side::Minus => "minus",
            Side::Point => "point",
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
    let Some(table) =
        Table::read(path, &header(names), "a tuning run's evaluations").map_err(FileError::from)?
    else {
        return Ok(Vec::new());
    };
    let corrupt = |e: CsvError| TuneError::from(FileError::from(e));
    let mut rows = Vec::new();
    for row in table.rows() {
        let score = |k: usize| -> Result<f64, TuneError> {
            let v = row.number(k).map_err(corrupt)?;
            game.check_final_score(v)
                .map_err(|m| corrupt(row.field_error(k, m)))?;
            Ok(v)
        };
        let step = row
            .parse::<usize>(0, "a step (a whole number)")
            .map_err(corrupt)?;
        let side = match row.get(1) {
            "plus" => Side::Plus,
            "minus" => Side::Minus,
            "point" => Side::Point,
            other => {
                return Err(corrupt(row.field_error(
                    1,
                    format!("expected plus, minus or point, found {other:?}"),
                )))
            }
        };
        let values = (0..names.len())
            .map(|k| row.number(2 + k).map_err(corrupt))
            .collect::<Result<_, _>>()?;
        let at = 2 + names.len();
        let tile_seed = row
            .parse::<u64>(at, "a tile seed (a whole number)")
            .map_err(corrupt)?;
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
