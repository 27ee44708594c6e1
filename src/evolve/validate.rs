//! Measuring an evolved formula where evolution's selection noise cannot help it.
//!
//! - `ValidateSpec`: the formula's MCTS against a baseline (MCTS-UCT at its best constant)
//!   on tile sequences of the validation namespace (see `namespace`), which evolution never
//!   plays, both seatings of every sequence. Reported: win rate with its Wilson 95% interval,
//!   the mean score difference per sequence (the mean of its two seatings) with a 95%
//!   interval, and the Wilcoxon signed-rank p of those per-sequence differences (the pair of
//!   seatings is the unit of independence).
//! - the sweep (`super::sweep`) that tunes a baseline's constants on sweep sequences
//!   (evolution's namespace, never validation's), so the validation baseline is chosen
//!   without looking at validation games, plays through [`play_pairings`] too.
//! - `bandit_baselines`: UCB1 at its best c (chosen on sweep runs), UCB1-Tuned and Thompson
//!   sampling beside a bandit champion, all on the same fresh runs.
//!
//! Games are written to `games.csv` in chunks as they finish; a run resumes after the last
//! complete chunk and writes the same bytes as an uninterrupted one. Every game's seeds come
//! from its tile seed and seat, so results do not depend on the thread count.

use super::bandit::{self, BanditScratch};
use super::fitness::play_both_seatings;
use super::namespace::validation_tile_seed;
use super::population::write_atomically;
use super::spec::BanditSpec;
use crate::formula::{CompiledFormula, Formula};
use crate::game::{GameRng, Rules};
use crate::runfs::derive_seed;
use crate::search::mcts::{MctsSettings, Selection};
use crate::search::ControllerSpec;
use crate::stats::{wilcoxon_signed_rank, wilson_interval};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::runfs::SpecFileError;
use crate::runfs::{resolve_controller, SpecFile};

/// A formula against tuned UCT on unseen tile sequences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateSpec {
    /// Names the output folder: `runs/validate/<name>/` unless `--out` says otherwise.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed of the validation sequences.
    pub seed: u64,
    /// Tile sequences; each is played twice, once per seating.
    pub sequences: usize,
    /// The controller under test (MCTS with `selection: Formula(..)` or `FormulaFile(..)`).
    pub candidate: ControllerSpec,
    /// What it is measured against: MCTS-UCT at the constant the sweep chose.
    pub baseline: ControllerSpec,
    #[serde(default)]
    pub rules: Rules,
}

const MAX_SEQUENCES: usize = 1_000_000;

pub(super) fn check_name(name: &str) -> Result<(), (String, String)> {
    crate::runfs::check_plain_name("the name", name).map_err(|m| ("name".into(), m))
}

pub(super) fn check_sequences(n: usize) -> Result<(), (String, String)> {
    if !(2..=MAX_SEQUENCES).contains(&n) {
        return Err((
            "sequences".into(),
            format!("must be between 2 and {MAX_SEQUENCES}, got {n}"),
        ));
    }
    Ok(())
}

impl SpecFile for ValidateSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        for (name, controller) in [
            ("candidate", &mut self.candidate),
            ("baseline", &mut self.baseline),
        ] {
            resolve_controller(controller, base)
                .map_err(|(field, message)| (format!("{name}.{field}"), message))?;
        }
        Ok(())
    }
}

impl ValidateSpec {
    pub fn validate(&self) -> Result<(), (String, String)> {
        check_name(&self.name)?;
        check_sequences(self.sequences)?;
        self.candidate
            .validate()
            .map_err(|e| ("candidate".to_string(), e.to_string()))?;
        self.baseline
            .validate()
            .map_err(|e| ("baseline".to_string(), e.to_string()))?;
        Ok(())
    }

    /// The tile seeds played, all in the validation namespace.
    pub fn tile_seeds(&self) -> Vec<u64> {
        (0..self.sequences as u64)
            .map(|j| validation_tile_seed(self.seed, j))
            .collect()
    }
}

/// One pairing of a set of games: a candidate against another controller.
#[derive(Clone, Debug)]
pub struct Pairing {
    pub label: String,
    pub candidate: ControllerSpec,
    pub other: ControllerSpec,
}

/// One played game as `games.csv` holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub pairing: usize,
    pub sequence: usize,
    pub tile_seed: u64,
    pub candidate_seat: usize,
    pub candidate_score: f64,
    pub other_score: f64,
}

const HEADER: &str = "pairing,sequence,tile_seed,candidate_seat,candidate_score,other_score";

fn row_text(r: &GameRow) -> String {
    format!(
        "{},{},{},{},{},{}\n",
        r.pairing, r.sequence, r.tile_seed, r.candidate_seat, r.candidate_score, r.other_score
    )
}

#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}:{line}: {message} (left untouched; remove the folder to start again)")]
    Corrupt {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{dir} holds games of a different spec; resume it with its own spec ({dir}/spec.ron) or choose another --out")]
    SpecChanged { dir: String },
    #[error("{dir} already holds games; pass --resume to continue, or choose another --out")]
    AlreadyStarted { dir: String },
    #[error("sequence {sequence} (tile seed {tile_seed}) of `{pairing}`: {message}")]
    Game {
        pairing: String,
        sequence: usize,
        tile_seed: u64,
        message: String,
    },
    #[error("--threads must be at least 1")]
    NoThreads,
}

pub(super) fn io_error(file: &Path, e: impl std::fmt::Display) -> ValidateError {
    ValidateError::Io {
        file: file.display().to_string(),
        message: e.to_string(),
    }
}

fn read_rows(path: &Path) -> Result<Vec<GameRow>, ValidateError> {
    let read = crate::runfs::read_capped_text(
        path,
        crate::runfs::MAX_DATA_FILE_BYTES,
        "a validation's games",
    );
    let text = match read {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(path, e)),
    };
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            if line != HEADER {
                return Err(ValidateError::Corrupt {
                    file: path.display().to_string(),
                    line: 1,
                    message: format!("expected the header `{HEADER}`"),
                });
            }
            continue;
        }
        let corrupt = |message: String| ValidateError::Corrupt {
            file: path.display().to_string(),
            line: i + 1,
            message,
        };
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 6 {
            return Err(corrupt(format!("expected 6 fields, got {}", f.len())));
        }
        let int = |k: usize| {
            f[k].parse::<u64>()
                .map_err(|e| corrupt(format!("field {}: {e}", k + 1)))
        };
        let num = |k: usize| {
            f[k].parse::<f64>()
                .map_err(|e| corrupt(format!("field {}: {e}", k + 1)))
        };
        rows.push(GameRow {
            pairing: int(0)? as usize,
            sequence: int(1)? as usize,
            tile_seed: int(2)?,
            candidate_seat: int(3)? as usize,
            candidate_score: num(4)?,
            other_score: num(5)?,
        });
    }
    Ok(rows)
}

/// How a set of games is run.
pub struct PlayOptions {
    pub out_dir: PathBuf,
    pub resume: bool,
    pub threads: Option<usize>,
    pub progress: bool,
    /// Stop after this many tasks (pairing × sequence) are written (to test resume).
    pub stop_after: Option<usize>,
}

/// Tasks written per chunk.
const CHUNK: usize = 16;

/// Plays both seatings of every (sequence, pairing) task, sequence-major, into
/// `<out>/games.csv`, resuming after the rows already there. `spec_text` is written to
/// `<out>/spec.ron` and must match on resume.
pub fn play_pairings(
    pairings: &[Pairing],
    tile_seeds: &[u64],
    rules: Rules,
    spec_text: &str,
    opts: &PlayOptions,
) -> Result<Vec<GameRow>, ValidateError> {
    if opts.threads == Some(0) {
        return Err(ValidateError::NoThreads);
    }
    let dir = &opts.out_dir;
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let spec_file = dir.join("spec.ron");
    let games_file = dir.join("games.csv");
    let dir_name = dir.display().to_string();
    match crate::runfs::read_capped_text(&spec_file, crate::runfs::MAX_SPEC_FILE_BYTES, "a spec") {
        Ok(old) if old != spec_text => return Err(ValidateError::SpecChanged { dir: dir_name }),
        Ok(_) if !opts.resume && games_file.exists() => {
            return Err(ValidateError::AlreadyStarted { dir: dir_name })
        }
        Ok(_) => {}
        Err(_) => {
            if games_file.exists() {
                return Err(ValidateError::SpecChanged { dir: dir_name });
            }
            write_atomically(&spec_file, spec_text).map_err(|e| io_error(&spec_file, e))?;
        }
    }
    let tasks: Vec<(usize, usize)> = (0..tile_seeds.len())
        .flat_map(|j| (0..pairings.len()).map(move |p| (p, j)))
        .collect();
    let mut rows = read_rows(&games_file)?;
    // Keep whole tasks only (a crash can leave half a chunk; chunks are written at once,
    // but be safe), and check the rows are the tasks they claim to be.
    let done = rows.len() / 2;
    rows.truncate(done * 2);
    for (k, r) in rows.iter().enumerate() {
        let (p, j) = tasks
            .get(k / 2)
            .copied()
            .unwrap_or((usize::MAX, usize::MAX));
        if r.pairing != p
            || r.sequence != j
            || r.tile_seed != tile_seeds[j.min(tile_seeds.len() - 1)]
        {
            return Err(ValidateError::Corrupt {
                file: games_file.display().to_string(),
                line: k + 2,
                message: "does not belong to this spec's schedule".into(),
            });
        }
    }
    {
        // Rewrite the kept rows, so an interrupted tail is gone before appending.
        let mut text = String::from(HEADER);
        text.push('\n');
        for r in &rows {
            text.push_str(&row_text(r));
        }
        write_atomically(&games_file, &text).map_err(|e| io_error(&games_file, e))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .expect("a thread pool");
    let started = Instant::now();
    let stop = opts.stop_after.unwrap_or(usize::MAX).min(tasks.len());
    let mut next = done;
    let mut file = crate::runfs::open_own(&games_file, std::fs::OpenOptions::new().append(true))
        .map_err(|e| io_error(&games_file, e))?;
    while next < stop {
        let end = (next + CHUNK).min(stop);
        let chunk = &tasks[next..end];
        let results: Vec<Result<[(f64, f64); 2], ValidateError>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&(p, j)| {
                    play_both_seatings(
                        rules,
                        &pairings[p].candidate,
                        &pairings[p].other,
                        tile_seeds[j],
                    )
                    .map_err(|message| ValidateError::Game {
                        pairing: pairings[p].label.clone(),
                        sequence: j,
                        tile_seed: tile_seeds[j],
                        message,
                    })
                })
                .collect()
        });
        let mut text = String::new();
        for (&(p, j), result) in chunk.iter().zip(results) {
            for (seat, (mine, theirs)) in result?.into_iter().enumerate() {
                let row = GameRow {
                    pairing: p,
                    sequence: j,
                    tile_seed: tile_seeds[j],
                    candidate_seat: seat,
                    candidate_score: mine,
                    other_score: theirs,
                };
                text.push_str(&row_text(&row));
                rows.push(row);
            }
        }
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_data())
            .map_err(|e| io_error(&games_file, e))?;
        next = end;
        if opts.progress {
            let elapsed = started.elapsed().as_secs_f64();
            let rate = (next - done) as f64 * 2.0 / elapsed.max(1e-9);
            let eta = (tasks.len() - next) as f64 * 2.0 / rate.max(1e-9);
            crate::note!(
                "{}/{} games, {}, {} in, ETA {}",
                next * 2,
                tasks.len() * 2,
                crate::progress::rate(rate, "games"),
                crate::progress::duration(elapsed),
                crate::progress::duration(eta)
            );
        }
    }
    Ok(rows)
}

/// Results of one pairing over its sequences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingSummary {
    pub label: String,
    pub sequences: usize,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// (wins + draws/2) / games, with its Wilson 95% interval.
    pub win_rate: f64,
    pub win_low: f64,
    pub win_high: f64,
    /// Mean over sequences of the candidate's score minus the other's (mean of the two
    /// seatings), with mean ∓ 1.96·se over sequences.
    pub diff_mean: f64,
    pub diff_low: f64,
    pub diff_high: f64,
    /// Wilcoxon signed-rank test of the per-sequence differences.
    pub wilcoxon_n: usize,
    pub wilcoxon_p: f64,
    pub effect_size: f64,
}

/// The summary of pairing `p` from its complete sequences (both seatings played).
pub fn summarise(label: &str, rows: &[GameRow], p: usize) -> PairingSummary {
    let mut by_sequence: std::collections::BTreeMap<usize, Vec<&GameRow>> = Default::default();
    for r in rows.iter().filter(|r| r.pairing == p) {
        by_sequence.entry(r.sequence).or_default().push(r);
    }
    let complete: Vec<&Vec<&GameRow>> = by_sequence.values().filter(|g| g.len() == 2).collect();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut diffs = Vec::with_capacity(complete.len());
    for games in &complete {
        let mut d = 0.0;
        for g in games.iter() {
            d += g.candidate_score - g.other_score;
            if g.candidate_score > g.other_score {
                wins += 1;
            } else if g.candidate_score == g.other_score {
                draws += 1;
            } else {
                losses += 1;
            }
        }
        diffs.push(d / 2.0);
    }
    let games = wins + draws + losses;
    let points = wins as f64 + draws as f64 / 2.0;
    let (win_low, win_high) = wilson_interval(points, games as f64);
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n.max(1.0);
    let var = if diffs.len() > 1 {
        diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (var / n.max(1.0)).sqrt();
    let w = wilcoxon_signed_rank(&diffs);
    PairingSummary {
        label: label.to_string(),
        sequences: diffs.len(),
        games,
        wins,
        draws,
        losses,
        win_rate: if games > 0 {
            points / games as f64
        } else {
            0.0
        },
        win_low,
        win_high,
        diff_mean: mean,
        diff_low: mean - half,
        diff_high: mean + half,
        wilcoxon_n: w.n,
        wilcoxon_p: w.p_value,
        effect_size: w.effect_size,
    }
}

/// A p-value for tables: below 10⁻⁶ the normal approximation behind it is no longer
/// accurate (and may round to 0), so it is shown as a bound.
pub fn p_text(p: f64) -> String {
    if p < 1e-6 {
        "< 1e-6".into()
    } else {
        format!("{p:.2e}")
    }
}

pub fn summary_table(rows: &[PairingSummary]) -> String {
    let mut out = String::from(
        "| pairing | sequences | games | W-D-L | win rate [95% CI] | mean score diff [95% CI] | Wilcoxon p (n) |\n|---|---|---|---|---|---|---|\n",
    );
    for s in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {}-{}-{} | {:.3} [{:.3}, {:.3}] | {:+.2} [{:+.2}, {:+.2}] | {} ({}) |\n",
            s.label,
            s.sequences,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.win_rate,
            s.win_low,
            s.win_high,
            s.diff_mean,
            s.diff_low,
            s.diff_high,
            p_text(s.wilcoxon_p),
            s.wilcoxon_n
        ));
    }
    out
}

/// Runs (or resumes) a validation; writes `summary.md` and returns the summary.
pub fn run_validation(
    spec: &ValidateSpec,
    opts: &PlayOptions,
) -> Result<PairingSummary, ValidateError> {
    let pairing = Pairing {
        label: "candidate vs baseline".into(),
        candidate: spec.candidate.clone(),
        other: spec.baseline.clone(),
    };
    let rows = play_pairings(
        std::slice::from_ref(&pairing),
        &spec.tile_seeds(),
        spec.rules,
        &spec.to_ron(),
        opts,
    )?;
    let summary = summarise(&pairing.label, &rows, 0);
    // The spec holds the formula itself (files are read when the spec is), so the summary
    // says what was validated even if a champion file changes later.
    let formula = match &spec.candidate {
        ControllerSpec::Mcts(MctsSettings {
            selection: Selection::Formula(text),
            ..
        }) => format!("\n\nFormula: `{text}`"),
        _ => String::new(),
    };
    let text = format!(
        "# Validation `{}`\n\n{}\n\nCandidate: `{}`{formula}\n\nBaseline: `{}`\n\nTile sequences: {} from the validation namespace (tile seeds with the top bit set; evolution and the UCT sweep never play them), master seed {}, both seatings.\n\n{}\nWin rate: Wilson 95% interval over games (draws count one half). Score difference: per sequence the mean of its two seatings, mean ± 1.96·se over sequences; Wilcoxon signed-rank test on the same per-sequence differences.\n",
        spec.name,
        spec.description,
        serde_json::to_string(&spec.candidate).unwrap_or_default(),
        serde_json::to_string(&spec.baseline).unwrap_or_default(),
        spec.sequences,
        spec.seed,
        summary_table(std::slice::from_ref(&summary)),
    );
    let path = opts.out_dir.join("summary.md");
    write_atomically(&path, &text).map_err(|e| io_error(&path, e))?;
    Ok(summary)
}

// ---------------------------------------------------------------------------------------
// Bandit baselines.

/// Derivation tags of the bandit baseline runs; evolution's bandit seeds are derived with
/// paths of three numbers (stream, generation, index), these with two.
const BANDIT_SWEEP: u64 = 0x6273_7765_6570; // "bsweep"
const BANDIT_REPORT: u64 = 0x0062_7265_706f_7274; // "breport"

/// A bandit policy.
#[derive(Clone, Debug)]
pub enum BanditPolicy {
    Formula(Formula),
    /// Beta(1 + wins, 1 + losses) draws, the largest pulled (Thompson, 1933).
    Thompson,
}

/// The most runs of one policy the bandit baselines play (`--runs`, `--sweep-runs`).
pub const MAX_BANDIT_RUNS: usize = 1_000_000;
/// The most UCB1 weights one sweep tries (`--c`).
pub const MAX_BANDIT_WEIGHTS: usize = 100;
/// Policies the baselines measure on `--runs` runs besides the sweep (see `bandit_baselines`).
const BANDIT_POLICIES: u128 = 6;

/// The checks of `bandit_baselines`' inputs, named as the command's flags: weights finite and
/// non-negative, counts in range, and the whole work (arm pulls) bounded like an evolution
/// run's.
fn check_bandit_baselines(
    spec: &BanditSpec,
    c_values: &[f64],
    sweep_runs: usize,
    runs: usize,
) -> Result<(), String> {
    if let Some(c) = c_values.iter().find(|c| !(c.is_finite() && **c >= 0.0)) {
        return Err(format!(
            "--c: every weight must be a finite number >= 0, got {c}"
        ));
    }
    if c_values.is_empty() || c_values.len() > MAX_BANDIT_WEIGHTS {
        return Err(format!(
            "--c: give between 1 and {MAX_BANDIT_WEIGHTS} weights, got {}",
            c_values.len()
        ));
    }
    for (flag, value) in [("--runs", runs), ("--sweep-runs", sweep_runs)] {
        if !(2..=MAX_BANDIT_RUNS).contains(&value) {
            return Err(format!(
                "{flag} must be between 2 and {MAX_BANDIT_RUNS}, got {value}"
            ));
        }
    }
    let max = super::spec::MAX_RUN_PULLS;
    let pulls = (runs as u128 * BANDIT_POLICIES + sweep_runs as u128 * c_values.len() as u128)
        * u128::from(spec.horizon);
    if pulls > u128::from(max) {
        return Err(format!(
            "(--runs {runs} × {BANDIT_POLICIES} policies + --sweep-runs {sweep_runs} × {} \
             weights) × horizon {} = {pulls} arm pulls; at most {max}",
            c_values.len(),
            spec.horizon
        ));
    }
    Ok(())
}

/// UCB1 with exploration weight c: `Q + c*sqrt(2*ln(N)/n)` (c = 1 is Auer et al.'s UCB1).
pub fn ucb1_with(c: f64) -> Formula {
    format!("Q + {c}*sqrt(2*ln(N)/n)")
        .parse()
        .expect("UCB1 parses")
}

/// UCB1-Tuned (Auer et al., 2002) with V = the arm's empirical variance.
pub const UCB1_TUNED: &str = "Q + sqrt(ln(N)/n*min(0.25, V + sqrt(2*ln(N)/n)))";

/// Pseudo-regret of Thompson sampling on the bandit of `spec`: the environment (best arm's
/// position, rewards in pull order) is drawn from `seed` exactly as for formulas, the
/// posterior draws from a second stream.
pub fn thompson_regret(spec: &BanditSpec, seed: u64) -> f64 {
    use rand_distr::{Beta, Distribution};
    let arms = spec.arms;
    let mut rng = GameRng::seed_from_u64(seed);
    let mut draws = GameRng::seed_from_u64(derive_seed(seed, &[0x7468_6f6d]));
    let best_arm = rng.gen_range(0..arms);
    let worse = spec.best - spec.epsilon;
    let mut wins = vec![0u32; arms];
    let mut losses = vec![0u32; arms];
    let mut inferior = 0u64;
    for _ in 0..spec.horizon {
        let mut chosen = 0;
        let mut top = f64::NEG_INFINITY;
        for a in 0..arms {
            let beta = Beta::new(1.0 + wins[a] as f64, 1.0 + losses[a] as f64)
                .expect("positive parameters");
            let x = beta.sample(&mut draws);
            if x > top {
                top = x;
                chosen = a;
            }
        }
        let p = if chosen == best_arm {
            spec.best
        } else {
            inferior += 1;
            worse
        };
        if rng.gen_bool(p) {
            wins[chosen] += 1;
        } else {
            losses[chosen] += 1;
        }
    }
    inferior as f64 * spec.epsilon
}

/// Regret of `policy` on each seed, in seed order, in parallel.
pub fn bandit_regrets(
    policy: &BanditPolicy,
    spec: &BanditSpec,
    seeds: &[u64],
) -> Result<Vec<f64>, String> {
    match policy {
        BanditPolicy::Thompson => Ok(seeds
            .par_iter()
            .map(|&s| thompson_regret(spec, s))
            .collect()),
        BanditPolicy::Formula(f) => {
            let compiled = CompiledFormula::native(f).map_err(|e| e.to_string())?;
            Ok(seeds
                .par_iter()
                .map_init(BanditScratch::default, |scratch, &s| {
                    bandit::regret(&compiled, spec, s, scratch)
                })
                .collect())
        }
    }
}

/// One policy's line in the bandit baseline table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BanditLine {
    pub label: String,
    pub policy: String,
    pub runs: usize,
    pub regret: f64,
    pub low: f64,
    pub high: f64,
    /// The champion's regret minus this policy's, paired over the same runs, with its 95%
    /// interval and the Wilcoxon p (absent for the champion itself).
    pub champion_minus: Option<(f64, f64, f64, f64)>,
}

fn mean_interval(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    (m, m - half, m + half)
}

/// The bandit baselines beside `champion`: the UCB1 weight is chosen on `sweep_runs` runs
/// of their own; every policy is then measured on the same `runs` fresh runs.
pub struct BanditBaselines {
    pub sweep: Vec<(f64, f64, f64, f64)>,
    pub best_c: f64,
    pub lines: Vec<BanditLine>,
}

pub fn bandit_baselines(
    spec: &BanditSpec,
    master: u64,
    champion: &Formula,
    reference: &Formula,
    c_values: &[f64],
    sweep_runs: usize,
    runs: usize,
) -> Result<BanditBaselines, String> {
    check_bandit_baselines(spec, c_values, sweep_runs, runs)?;
    let sweep_seeds: Vec<u64> = (0..sweep_runs as u64)
        .map(|j| derive_seed(master, &[BANDIT_SWEEP, j]))
        .collect();
    let report_seeds: Vec<u64> = (0..runs as u64)
        .map(|j| derive_seed(master, &[BANDIT_REPORT, j]))
        .collect();
    let mut sweep = Vec::new();
    for &c in c_values {
        let r = bandit_regrets(&BanditPolicy::Formula(ucb1_with(c)), spec, &sweep_seeds)?;
        let (m, lo, hi) = mean_interval(&r);
        sweep.push((c, m, lo, hi));
    }
    let best_c = sweep
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)))
        .map(|s| s.0)
        .ok_or("no UCB1 weights to sweep")?;
    let policies: Vec<(String, BanditPolicy)> = vec![
        ("champion".into(), BanditPolicy::Formula(champion.clone())),
        (
            "seed formula (reference)".into(),
            BanditPolicy::Formula(reference.clone()),
        ),
        ("UCB1, c = 1".into(), BanditPolicy::Formula(ucb1_with(1.0))),
        (
            format!("UCB1, best c = {best_c} (sweep)"),
            BanditPolicy::Formula(ucb1_with(best_c)),
        ),
        (
            "UCB1-Tuned".into(),
            BanditPolicy::Formula(UCB1_TUNED.parse().expect("parses")),
        ),
        ("Thompson sampling".into(), BanditPolicy::Thompson),
    ];
    let regrets: Vec<Vec<f64>> = policies
        .iter()
        .map(|(_, p)| bandit_regrets(p, spec, &report_seeds))
        .collect::<Result<_, _>>()?;
    let lines = policies
        .iter()
        .zip(&regrets)
        .enumerate()
        .map(|(i, ((label, p), r))| {
            let (m, lo, hi) = mean_interval(r);
            let champion_minus = (i > 0).then(|| {
                let d: Vec<f64> = regrets[0].iter().zip(r).map(|(a, b)| a - b).collect();
                let (dm, dlo, dhi) = mean_interval(&d);
                (dm, dlo, dhi, wilcoxon_signed_rank(&d).p_value)
            });
            BanditLine {
                label: label.clone(),
                policy: match p {
                    BanditPolicy::Formula(f) => f.to_string(),
                    BanditPolicy::Thompson => "Beta(1 + S, 1 + F) draws".into(),
                },
                runs: r.len(),
                regret: m,
                low: lo,
                high: hi,
                champion_minus,
            }
        })
        .collect();
    Ok(BanditBaselines {
        sweep,
        best_c,
        lines,
    })
}

pub fn bandit_table(b: &BanditBaselines) -> String {
    let mut out = String::from("UCB1 weight sweep (`Q + c*sqrt(2*ln(N)/n)`), mean regret [95% CI]:\n\n| c | regret |\n|---|---|\n");
    for (c, m, lo, hi) in &b.sweep {
        out.push_str(&format!("| {c} | {m:.1} [{lo:.1}, {hi:.1}] |\n"));
    }
    out.push_str(&format!("\nBest c: {}\n\n| policy | formula | runs | regret [95% CI] | champion − policy [95% CI] | Wilcoxon p |\n|---|---|---|---|---|---|\n", b.best_c));
    for l in &b.lines {
        let (d, p) = match l.champion_minus {
            Some((m, lo, hi, p)) => (format!("{m:+.1} [{lo:+.1}, {hi:+.1}]"), p_text(p)),
            None => ("".into(), "".into()),
        };
        out.push_str(&format!(
            "| {} | `{}` | {} | {:.1} [{:.1}, {:.1}] | {} | {} |\n",
            l.label, l.policy, l.runs, l.regret, l.low, l.high, d, p
        ));
    }
    out
}
