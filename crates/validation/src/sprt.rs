//! A validation's sequential test (`evomcts_records::sequential`): while it plays, and from the records
//! of one already played.
//!
//! - While it plays (`sequential: Some(..)` in the spec): the test runs over the complete
//!   sequences in seed order after every chunk of games ([`stop_rule`]); once it decides, no
//!   chunk past the deciding sequence is started. The decision is the first crossing in seed
//!   order, so it does not depend on threads, chunks or resumes; games of the deciding chunk
//!   past it are recorded and count in the fixed-N statistics, never in the decision.
//!   [`write_outcome`] writes `sequential.csv` (the path of the LLR) and the summary's section.
//! - From records ([`from_records`], `evomcts validate sequential RUN…`): the same test walked
//!   over a finished validation's `games.csv` (read by the checked reader, in its schedule),
//!   reporting where it would have stopped beside the fixed-N verdict of all the games.

use super::{
    check_schedule, p_text, read_rows, summarise, GameRow, PairingSummary, ValidateError,
    ValidateSpec,
};
use evomcts_records::runfs::{FileError, SpecFile};
use evomcts_records::sequential::{self, Decision, Hypotheses, Outcome, PairDiffs, SprtSpec};
use serde::Serialize;
use std::path::Path;

/// The hypotheses used for a game when nothing names them: the score test (δ = 0 against
/// δ = 2 points a game) for Carcassonne, scored by points; the pentanomial test (normalised
/// Elo 0 against 30) for every other game, won, drawn or lost. docs/evolution.md says why.
pub fn default_hypotheses(game: evomcts_arena::GameChoice) -> Hypotheses {
    if game.is_carcassonne() {
        Hypotheses::Score {
            delta0: 0.0,
            delta1: 2.0,
        }
    } else {
        Hypotheses::Elo {
            elo0: 0.0,
            elo1: 30.0,
        }
    }
}

/// The candidate's score difference in each seating of every complete sequence, in seed
/// order (the rows of one pairing, in their schedule).
pub fn seed_pairs(rows: &[GameRow]) -> impl Iterator<Item = PairDiffs> + '_ {
    rows.chunks_exact(2).map(|pair| {
        [
            pair[0].candidate_score - pair[0].other_score,
            pair[1].candidate_score - pair[1].other_score,
        ]
    })
}

/// The test over `rows` with at most `cap` sequences.
pub fn outcome(test: SprtSpec, rows: &[GameRow], cap: usize) -> Outcome {
    sequential::run(test, seed_pairs(rows), cap)
}

/// The stop rule of a validation under `test`: the sequences that decide it, once they have.
pub fn stop_rule(test: SprtSpec) -> impl Fn(&[GameRow]) -> Option<usize> {
    move |rows: &[GameRow]| {
        let out = outcome(test, rows, usize::MAX);
        (out.decision() != Decision::Continue).then(|| out.pairs())
    }
}

/// The header of `sequential.csv`.
pub const CSV_HEADER: &str = "sequences,games,estimate,llr,lower,upper,decision";

/// `sequential.csv`: one row per sequence of the test's path.
pub fn csv_text(out: &Outcome) -> String {
    let mut text = format!("{CSV_HEADER}\n");
    for s in &out.path {
        let finite = |x: f64| {
            if x.is_finite() {
                x.to_string()
            } else {
                String::new()
            }
        };
        text.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            s.pairs,
            2 * s.pairs,
            finite(s.estimate),
            finite(s.llr),
            out.lower,
            out.upper,
            s.decision.as_str()
        ));
    }
    text
}

/// The decision in words, with the games it took.
pub fn decision_text(out: &Outcome) -> String {
    let games = 2 * out.pairs();
    match out.decision() {
        Decision::H1 => format!("H1 after {games} games"),
        Decision::H0 => format!("H0 after {games} games"),
        Decision::Undecided => format!("undecided at the cap ({games} games)"),
        Decision::Continue => format!("not yet decided ({games} games so far)"),
    }
}

/// The summary's section: the test, its bounds, the games it took, its LLR and decision.
pub fn section(out: &Outcome) -> String {
    let (h0, h1) = out.spec.hypotheses.describe();
    let last_llr = out.last().map_or(0.0, |s| s.llr);
    let estimate = out.last().map_or(0.0, |s| s.estimate);
    let unit = match out.spec.hypotheses {
        Hypotheses::Elo { .. } => "nElo",
        Hypotheses::Score { .. } => "points a game",
    };
    format!(
        "\n## Sequential test\n\n| test | H0 | H1 | alpha | beta | LLR bounds | cap (games) | LLR | estimate | decision |\n|---|---|---|---|---|---|---|---|---|---|\n| {} | {h0} | {h1} | {} | {} | [{:.3}, {:+.3}] | {} | {:+.3} | {:+.2} {unit} | {} |\n\nThe test is checked after every complete sequence in seed order (not before {} sequences); the decision is the first crossing. The table above gives the fixed-N statistics of every game played; once the test has stopped early they are estimates after a sequential stop (biased away from zero, their intervals not at their nominal level). Path: `sequential.csv`.\n",
        out.spec.hypotheses.test_name(),
        out.spec.alpha,
        out.spec.beta,
        out.lower,
        out.upper,
        2 * out.cap,
        last_llr,
        estimate,
        decision_text(out),
        sequential::MIN_PAIRS,
    )
}

/// Under a spec with a test: writes `sequential.csv` into `dir` and returns the summary's
/// section; without one, writes nothing and returns "".
pub(super) fn write_outcome(
    spec: &ValidateSpec,
    rows: &[GameRow],
    dir: &Path,
) -> Result<String, ValidateError> {
    let Some(test) = spec.sequential else {
        return Ok(String::new());
    };
    let out = outcome(test, rows, spec.sequences);
    super::write_file(&dir.join("sequential.csv"), &csv_text(&out))?;
    Ok(section(&out))
}

/// What the fixed-N statistics say of all the games: `better` or `worse` when the Wilcoxon
/// test's p is below 0.05 (by the sign of the mean difference), else `tie`.
pub fn fixed_verdict(s: &PairingSummary) -> &'static str {
    if s.wilcoxon_p < 0.05 && s.diff_mean > 0.0 {
        "better"
    } else if s.wilcoxon_p < 0.05 && s.diff_mean < 0.0 {
        "worse"
    } else {
        "tie"
    }
}

/// A played validation, tested from its records.
#[derive(Clone, Debug, Serialize)]
pub struct FromRecords {
    /// The folder.
    pub run: String,
    pub outcome: Outcome,
    /// The fixed-N statistics of every game recorded.
    pub fixed: PairingSummary,
}

impl FromRecords {
    /// The share of the recorded games the test did not need (0 when it did not decide).
    pub fn saving(&self) -> f64 {
        match self.outcome.decision() {
            Decision::H0 | Decision::H1 if self.fixed.games > 0 => {
                1.0 - (2 * self.outcome.pairs()) as f64 / self.fixed.games as f64
            }
            Decision::H0 | Decision::H1 | Decision::Continue | Decision::Undecided => 0.0,
        }
    }

    /// Whether the decision agrees with the fixed-N verdict (H1 with `better`, H0 with `tie`
    /// or `worse`); `None` when the test did not decide.
    pub fn agrees(&self) -> Option<bool> {
        let better = fixed_verdict(&self.fixed) == "better";
        match self.outcome.decision() {
            Decision::H1 => Some(better),
            Decision::H0 => Some(!better),
            Decision::Continue | Decision::Undecided => None,
        }
    }
}

/// What a command line may set of the test; the rest comes from the spec's own test, or
/// failing that from α = β = 0.05 and [`default_hypotheses`].
#[derive(Clone, Copy, Debug, Default)]
pub struct TestChoice {
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
    pub hypotheses: Option<Hypotheses>,
}

impl TestChoice {
    /// Checks the values given, each with the defaults for the rest: an error naming the
    /// flag (`--alpha`, `--elo1`, …).
    pub fn check_flags(&self) -> Result<(), String> {
        let test = SprtSpec {
            alpha: self.alpha.unwrap_or(0.05),
            beta: self.beta.unwrap_or(0.05),
            hypotheses: self
                .hypotheses
                .unwrap_or(default_hypotheses(Default::default())),
        };
        test.check().map_err(|(field, message)| {
            let flag = field.trim_start_matches("hypotheses.");
            format!("--{flag} {message}")
        })
    }

    /// The test for a validation of `spec`, checked: an error names the field
    /// (`alpha`, `beta`, `hypotheses.elo1`, …).
    pub fn for_spec(&self, spec: &ValidateSpec) -> Result<SprtSpec, (String, String)> {
        let base = spec.sequential.unwrap_or(SprtSpec {
            alpha: 0.05,
            beta: 0.05,
            hypotheses: default_hypotheses(spec.game),
        });
        let test = SprtSpec {
            alpha: self.alpha.unwrap_or(base.alpha),
            beta: self.beta.unwrap_or(base.beta),
            hypotheses: self.hypotheses.unwrap_or(base.hypotheses),
        };
        test.check()?;
        Ok(test)
    }
}

/// The test `choice` gives, walked over the records of the validation in `dir` (its
/// `spec.ron` and `games.csv`, read and checked as a resume reads them); the cap is the
/// spec's sequences.
pub fn from_records(dir: &Path, choice: &TestChoice) -> Result<FromRecords, ValidateError> {
    let spec_file = dir.join("spec.ron");
    let spec = ValidateSpec::from_file(&spec_file)?;
    let test = choice.for_spec(&spec).map_err(|(field, message)| {
        FileError::io(&spec_file, format!("the test's `{field}` {message}"))
    })?;
    let rows = records_of(dir, &spec)?;
    Ok(FromRecords {
        run: dir.display().to_string(),
        outcome: outcome(test, &rows, spec.sequences),
        fixed: summarise("candidate vs baseline", &rows, 0),
    })
}

/// The spec and the rows of the validation in `dir` (its `spec.ron` and `games.csv`), read and
/// checked as a resume reads them: what [`from_records`] tests, for a reader that needs the
/// rows alone (their [`summarise`](super::summarise)).
pub fn read_records(dir: &Path) -> Result<(ValidateSpec, Vec<GameRow>), ValidateError> {
    let spec = ValidateSpec::from_file(dir.join("spec.ron"))?;
    let rows = records_of(dir, &spec)?;
    Ok((spec, rows))
}

/// The rows of the validation of `spec` in `dir`, checked against its schedule.
fn records_of(dir: &Path, spec: &ValidateSpec) -> Result<Vec<GameRow>, ValidateError> {
    let games_file = dir.join("games.csv");
    if !games_file.is_file() {
        return Err(
            FileError::io(&games_file, "no games: a validation folder holds games.csv").into(),
        );
    }
    let rows = read_rows(&games_file, spec.game)?;
    let tasks: Vec<(usize, usize)> = (0..spec.sequences).map(|j| (0, j)).collect();
    check_schedule(&rows, &tasks, &spec.tile_seeds(), &games_file)?;
    Ok(rows)
}

/// The table of tests from records, one row per validation, and the mean saving.
pub fn records_table(runs: &[FromRecords]) -> String {
    let mut out = String::from(
        "| validation | test: H0 / H1 | games to decision (of) | LLR | SPRT decision | fixed N: win rate [95% CI] | mean score diff [95% CI] | Wilcoxon p | fixed-N verdict | agree |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in runs {
        let (h0, h1) = r.outcome.spec.hypotheses.describe();
        let s = &r.fixed;
        out.push_str(&format!(
            "| `{}` | {h0} / {h1} | {} ({}) | {:+.2} | {} | {:.3} [{:.3}, {:.3}] | {:+.2} [{:+.2}, {:+.2}] | {} | {} | {} |\n",
            evomcts_records::escape::terminal(&r.run),
            2 * r.outcome.pairs(),
            s.games,
            r.outcome.last().map_or(0.0, |st| st.llr),
            r.outcome.decision().as_str().to_uppercase(),
            s.win_rate,
            s.win_low,
            s.win_high,
            s.diff_mean,
            s.diff_low,
            s.diff_high,
            p_text(s.wilcoxon_p),
            fixed_verdict(s),
            r.agrees().map_or("–", |a| if a { "yes" } else { "no" }),
        ));
    }
    if !runs.is_empty() {
        let n = runs.len() as f64;
        let saving = runs.iter().map(FromRecords::saving).sum::<f64>() / n;
        let decided: Vec<bool> = runs.iter().filter_map(FromRecords::agrees).collect();
        let played: usize = runs.iter().map(|r| r.fixed.games).sum();
        let needed: usize = runs
            .iter()
            .map(|r| match r.outcome.decision() {
                Decision::H0 | Decision::H1 => 2 * r.outcome.pairs(),
                Decision::Continue | Decision::Undecided => r.fixed.games,
            })
            .sum();
        out.push_str(&format!(
            "\n{} validations: the test decided {} ({} agreeing with the fixed-N verdict) and needed {} of their {} games; mean saving {:.1}% of a validation's games (undecided ones save nothing).\n",
            runs.len(),
            decided.len(),
            decided.iter().filter(|a| **a).count(),
            needed,
            played,
            100.0 * saving,
        ));
    }
    out
}
