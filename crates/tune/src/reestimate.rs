//! The recommendation measured where tuning never looked: the tuned values, and the starting
//! values, each against the opponent on fresh sweep sequences (indices from
//! [`REESTIMATE_FIRST`] of the sweep's derivation, which no step reaches), both seatings,
//! played through `validation::play_pairings` into `RUN/reestimate/` (its own `spec.ron` and
//! `games.csv`, resumed like a validation).
//!
//! Reported: each pairing's win rate with its Wilson interval, mean score difference with its
//! interval and Wilcoxon p (`validation::summarise`), and the paired difference tuned − start
//! per sequence (mean, 95% interval, Wilcoxon signed-rank p). When the opponent is the
//! controller at its starting values, the second pairing would be the start against itself:
//! it is not played, and the paired difference is the tuned pairing's own.

use super::{TuneError, TuneOptions, TuneSpec};
use evomcts_arena::Pairing;
use evomcts_evolve::namespace::sweep_tile_seed;
use evomcts_records::stats::wilcoxon_signed_rank;
use evomcts_search::ControllerSpec;
use evomcts_validation::{play_pairings, summarise, GameRow, PairingSummary, PlayOptions};
use serde::Serialize;

/// The folder of the re-estimate's games inside the run folder.
pub const REESTIMATE_FOLDER: &str = "reestimate";
/// The first sweep index the re-estimate plays: above every step's (a run's budget is capped
/// well below 2^48 games).
pub const REESTIMATE_FIRST: u64 = 1 << 48;

/// The re-estimate's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Reestimate {
    /// Tuned against the opponent, then (with a named opponent) start against it.
    pub summaries: Vec<PairingSummary>,
    pub sequences: usize,
    /// Tuned − start, per sequence: mean and 95% interval of the mean, Wilcoxon p.
    pub paired_mean: f64,
    pub paired_low: f64,
    pub paired_high: f64,
    pub paired_p: f64,
    pub paired_n: usize,
}

/// What `reestimate/spec.ron` records: the pairings and the sequences they play.
#[derive(Serialize)]
struct ReestimateSpec<'a> {
    tune: &'a str,
    pairings: &'a [Pairing],
    first_index: u64,
    sequences: usize,
    seed: u64,
}

/// Tile seed of re-estimate sequence `j`.
pub fn reestimate_seed(spec: &TuneSpec, j: usize) -> u64 {
    sweep_tile_seed(spec.seed, REESTIMATE_FIRST + j as u64)
}

/// Plays (or resumes) the re-estimate of `tuned` and summarises it.
pub fn reestimate(
    spec: &TuneSpec,
    tuned: &[f64],
    opts: &TuneOptions,
) -> Result<Reestimate, TuneError> {
    let opponent = spec.opponent();
    let mut pairings = vec![Pairing {
        label: "tuned vs opponent".into(),
        candidate: ControllerSpec::Mcts(spec.settings_at(tuned)),
        other: opponent.clone(),
    }];
    if spec.opponent.is_some() {
        pairings.push(Pairing {
            label: "start vs opponent".into(),
            candidate: ControllerSpec::Mcts(spec.settings_at(&spec.start())),
            other: opponent,
        });
    }
    let seeds: Vec<u64> = (0..spec.reestimate_sequences)
        .map(|j| reestimate_seed(spec, j))
        .collect();
    let record = ReestimateSpec {
        tune: &spec.name,
        pairings: &pairings,
        first_index: REESTIMATE_FIRST,
        sequences: spec.reestimate_sequences,
        seed: spec.seed,
    };
    let text = evomcts_records::runfs::ron_options()
        .to_string_pretty(&record, ron::ser::PrettyConfig::default())
        .expect("the re-estimate's record serialises");
    let rows = play_pairings(
        &pairings,
        &seeds,
        spec.game,
        spec.rules,
        &text,
        &PlayOptions {
            out_dir: opts.out_dir.join(REESTIMATE_FOLDER),
            // The tuning run's own folder already said whether to resume.
            resume: true,
            threads: opts.threads,
            progress: opts.progress,
            stop_after: None,
            srun: opts.srun.clone(),
        },
    )?;
    Ok(summarise_reestimate(
        &pairings,
        &rows,
        spec.reestimate_sequences,
    ))
}

/// Per-sequence mean score difference of pairing `p` (the mean of its two seatings).
fn differences(rows: &[GameRow], p: usize, sequences: usize) -> Vec<f64> {
    let mut d = vec![0.0; sequences];
    for r in rows.iter().filter(|r| r.pairing == p) {
        d[r.sequence] += (r.candidate_score - r.other_score) / 2.0;
    }
    d
}

fn summarise_reestimate(pairings: &[Pairing], rows: &[GameRow], sequences: usize) -> Reestimate {
    let summaries: Vec<PairingSummary> = pairings
        .iter()
        .enumerate()
        .map(|(p, pairing)| summarise(&pairing.label, rows, p))
        .collect();
    let tuned = differences(rows, 0, sequences);
    let paired: Vec<f64> = if pairings.len() > 1 {
        let start = differences(rows, 1, sequences);
        tuned.iter().zip(&start).map(|(t, s)| t - s).collect()
    } else {
        tuned
    };
    let n = paired.len() as f64;
    let mean = paired.iter().sum::<f64>() / n;
    let var = paired.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    let w = wilcoxon_signed_rank(&paired);
    Reestimate {
        summaries,
        sequences,
        paired_mean: mean,
        paired_low: mean - half,
        paired_high: mean + half,
        paired_p: w.p_value,
        paired_n: w.n,
    }
}
