//! Bandit baselines: UCB1 at its best c (chosen on sweep runs), UCB1-Tuned and Thompson
//! sampling beside a bandit champion, all on the same fresh runs.

use super::p_text;
use evomcts_evolve::bandit::{self, BanditScratch};
use evomcts_evolve::spec::BanditSpec;
use evomcts_formula::{CompiledFormula, Formula};
use evomcts_games::GameRng;
use evomcts_records::runfs::derive_seed;
use evomcts_records::stats::wilcoxon_signed_rank;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

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
    let max = evomcts_evolve::spec::MAX_RUN_PULLS;
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
            format!(
                "UCB1, best c = {} (sweep)",
                evomcts_records::escape::number(best_c)
            ),
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
        let c = evomcts_records::escape::number(*c);
        out.push_str(&format!("| {c} | {m:.1} [{lo:.1}, {hi:.1}] |\n"));
    }
    out.push_str(&format!("\nBest c: {}\n\n| policy | formula | runs | regret [95% CI] | champion − policy [95% CI] | Wilcoxon p |\n|---|---|---|---|---|---|\n", evomcts_records::escape::number(b.best_c)));
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
