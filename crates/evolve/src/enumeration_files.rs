//! The files of an enumeration run (`enumeration`), each written whole or not at all: the
//! classes it raced, every sample of the race and of the constants' fit (what a resumed run
//! replays instead of playing again), the final race and a summary.
//!
//! Numbers are written in Rust's shortest round-trip form, so a value read back is the value
//! written, bit for bit, and a resumed run computes what a run never stopped computes.

use super::error::EvolveError;
use super::fitness::Estimate;
use super::halving::{FinalRow, HalvingRound};
use super::population::{write_atomically, PopulationError};
use evomcts_formula::Formula;
use evomcts_records::csv::{CsvError, Table};
use evomcts_records::escape::csv_number;
use std::path::Path;

/// Every class and its representative.
pub const CLASSES_CSV: &str = "enumeration-classes.csv";
/// Every candidate (a class at one value), whether it raced.
pub const CANDIDATES_CSV: &str = "enumeration-candidates.csv";
/// Every sample of the race: round, class, sample index, value.
pub const RACE_CSV: &str = "enumeration-race.csv";
/// Every sample of the constants' fit: class, game, the point in [0, 1]^d, value.
pub const FIT_CSV: &str = "enumeration-fit.csv";
/// The final race: the seed and each finalist on fresh samples, tested against the seed.
pub const FINAL_CSV: &str = "enumeration-final.csv";
/// What the run did, for reading.
pub const SUMMARY_MD: &str = "enumeration.md";

pub const CLASSES_HEADER: &str = "class,members,nodes,placeholders,fingerprint,representative";
pub const CANDIDATES_HEADER: &str = "candidate,class,value,raced,formula";
pub const RACE_HEADER: &str = "round,candidate,sample,value";
pub const FIT_HEADER: &str = "candidate,game,x1,x2,x3,x4,value";
pub const FINAL_HEADER: &str = "entrant,candidate,class,formula,samples,mean,low,high,\
mean_difference,p_value,p_holm,better,champion";

/// One entrant of the race: a class's representative with its placeholders at one value.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The class (its row in `enumeration-classes.csv`).
    pub class: usize,
    /// The value every placeholder takes.
    pub value: f64,
    pub formula: Formula,
}

/// A finalist after the fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Finalist {
    /// The candidate (its row in `enumeration-candidates.csv`).
    pub candidate: usize,
    /// Its class.
    pub class: usize,
    /// The representative as raced.
    pub raced: Formula,
    /// Its mean over the race's samples it played.
    pub race_mean: f64,
    /// The formula the final race plays: the fitted constants, or the race's values.
    pub formula: Formula,
    /// Whether CLOP fitted its constants.
    pub fitted: bool,
}

/// What an enumeration run found.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumerationOutcome {
    /// Trees of at most `max_nodes` nodes the grammar writes.
    pub written: u128,
    /// Unique forms.
    pub forms: usize,
    /// Classes of forms alike on the bank.
    pub classes: usize,
    /// Candidates: classes at each value, alike ones once.
    pub candidates: usize,
    /// Candidates raced (all, or the sample).
    pub raced: usize,
    /// The race's rounds, entrants as rows of `enumeration-candidates.csv`.
    pub rounds: Vec<HalvingRound>,
    pub finalists: Vec<Finalist>,
    /// The seed formula's estimate in the final race.
    pub seed: Estimate,
    /// Each finalist's estimate in the final race and its test against the seed.
    pub finals: Vec<FinalEntry>,
    /// The crowned formula: a finalist Holm declares better than the seed, else the seed.
    pub champion: Formula,
    /// Samples spent: the race's, the fits', the final race's.
    pub samples: [u64; 3],
    /// Whether the run found samples written by an earlier call.
    pub resumed: bool,
}

impl EnumerationOutcome {
    pub fn total_samples(&self) -> u64 {
        self.samples.iter().sum()
    }
}

/// A finalist's estimate in the final race and its test against the seed.
pub type FinalEntry = (Estimate, FinalRow);

/// One sample of the race, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceSample {
    pub round: usize,
    pub candidate: usize,
    pub sample: usize,
    pub value: f64,
}

/// One game of a fit, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSample {
    pub candidate: usize,
    pub game: usize,
    pub point: Vec<f64>,
    pub value: f64,
}

fn corrupt(file: &Path) -> impl Fn(CsvError) -> PopulationError + '_ {
    move |e| match e {
        CsvError::Io { file, message } => PopulationError::Inconsistent { file, message },
        e => PopulationError::Corrupt {
            file: file.display().to_string(),
            line: e.line().unwrap_or(1),
            column: 1,
            message: e.detail(),
        },
    }
}

/// The race's samples stored in `dir`, in file order (none when there is no file).
pub fn read_race(dir: &Path) -> Result<Vec<RaceSample>, EvolveError> {
    let path = dir.join(RACE_CSV);
    let bad = corrupt(&path);
    let Some(table) = Table::read(&path, RACE_HEADER, "an enumeration's race").map_err(&bad)?
    else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(table.len());
    for row in table.rows() {
        out.push(RaceSample {
            round: row.parse(0, "a round number").map_err(&bad)?,
            candidate: row.parse(1, "a candidate number").map_err(&bad)?,
            sample: row.parse(2, "a sample index").map_err(&bad)?,
            value: row.number(3).map_err(&bad)?,
        });
    }
    Ok(out)
}

pub fn write_race(dir: &Path, samples: &[RaceSample]) -> Result<(), EvolveError> {
    let mut text = String::with_capacity(24 * samples.len() + 32);
    text.push_str(RACE_HEADER);
    text.push('\n');
    for s in samples {
        text.push_str(&format!(
            "{},{},{},{}\n",
            s.round,
            s.candidate,
            s.sample,
            csv_number(s.value)
        ));
    }
    Ok(write_atomically(&dir.join(RACE_CSV), &text)?)
}

/// The fit's games stored in `dir`, in file order.
pub fn read_fit(dir: &Path) -> Result<Vec<FitSample>, EvolveError> {
    let path = dir.join(FIT_CSV);
    let bad = corrupt(&path);
    let Some(table) = Table::read(&path, FIT_HEADER, "an enumeration's fit").map_err(&bad)? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(table.len());
    for row in table.rows() {
        let mut point = Vec::new();
        for k in 2..6 {
            if !row.get(k).is_empty() {
                point.push(row.number(k).map_err(&bad)?);
            }
        }
        out.push(FitSample {
            candidate: row.parse(0, "a candidate number").map_err(&bad)?,
            game: row.parse(1, "a game index").map_err(&bad)?,
            point,
            value: row.number(6).map_err(&bad)?,
        });
    }
    Ok(out)
}

pub fn write_fit(dir: &Path, samples: &[FitSample]) -> Result<(), EvolveError> {
    let mut text = String::with_capacity(64 * samples.len() + 32);
    text.push_str(FIT_HEADER);
    text.push('\n');
    for s in samples {
        let mut x: Vec<String> = s.point.iter().map(|&v| csv_number(v)).collect();
        x.resize(4, String::new());
        text.push_str(&format!(
            "{},{},{},{}\n",
            s.candidate,
            s.game,
            x.join(","),
            csv_number(s.value)
        ));
    }
    Ok(write_atomically(&dir.join(FIT_CSV), &text)?)
}

/// A CSV line of fields already escaped.
pub fn line(fields: &[String]) -> String {
    let mut out = fields.join(",");
    out.push('\n');
    out
}
