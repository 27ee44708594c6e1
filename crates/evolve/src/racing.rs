//! Racing: spend a generation's fitness games where they decide something.
//!
//! Every candidate of a generation plays the same sample seeds in the same order (common
//! random numbers), so two candidates can be compared game by game. The race plays the
//! seeds in batches. After each batch, once `min_samples` seeds are played, the current
//! best is the alive candidate with the highest mean over this generation's seeds, and any
//! other alive candidate whose paired differences to it (over the seeds both have played:
//! all of the loser's, since the best is alive) have an upper 1-sided bound
//! `mean + t·se < 0` (Student t at the level of the spec's `z`) is dropped: it is significantly worse than the best on shared games.
//! Dropped candidates play no more seeds.
//!
//! The generation's budget is `samples × candidates`. Every alive candidate plays at least
//! `samples` seeds; the games saved by dropping go to the contenders, batch by batch, while
//! the budget allows a whole batch for every alive candidate, up to `max_samples` seeds each.
//! With one candidate left, the race ends.
//!
//! The race only decides how many seeds each candidate plays; the samples come from a
//! caller-supplied function of (candidates, seeds), so the race is deterministic whenever
//! that function is (the evolution's is, whatever the thread count).

use serde::{Deserialize, Serialize};

/// How a generation's evaluations are raced (`noise.racing` in an evolution spec).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RacingSpec {
    /// Seeds played by every alive candidate between two comparisons.
    pub batch: usize,
    /// No candidate is dropped before it has played this many seeds this generation.
    pub min_samples: usize,
    /// A candidate is dropped when mean + t·se of its paired differences to the best is
    /// below 0, t the Student quantile at the one-sided level of the normal quantile z
    /// (z = 2.326: one-sided 1% per look).
    pub z: f64,
    /// The most seeds one candidate plays in a generation, saved games included.
    pub max_samples: usize,
}

impl Default for RacingSpec {
    fn default() -> Self {
        RacingSpec {
            batch: 4,
            min_samples: 8,
            z: 2.326,
            max_samples: 64,
        }
    }
}

impl RacingSpec {
    /// The first problem, as (field below `noise.racing`, message); `samples` is the
    /// nominal number of seeds per candidate.
    pub fn validate(&self, samples: usize) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((format!("noise.racing.{f}"), m));
        if self.batch == 0 || self.batch > 10_000 {
            return err(
                "batch",
                format!("must be between 1 and 10000, got {}", self.batch),
            );
        }
        if self.min_samples < 2 {
            return err(
                "min_samples",
                format!(
                    "must be at least 2 to give a paired interval, got {}",
                    self.min_samples
                ),
            );
        }
        if !self.z.is_finite() || self.z <= 0.0 {
            return err("z", format!("must be a finite number > 0, got {}", self.z));
        }
        if self.max_samples < samples || self.max_samples > 1_000_000 {
            return err(
                "max_samples",
                format!(
                    "must be between noise.samples ({samples}) and 10^6, got {}",
                    self.max_samples
                ),
            );
        }
        Ok(())
    }
}

/// Where a race stands after a batch, for progress lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceProgress {
    /// Samples spent so far in this race.
    pub spent: u64,
    /// The race's budget (`samples × candidates`).
    pub budget: u64,
    pub alive: usize,
    pub candidates: usize,
}

/// The outcome of a race.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceOutcome {
    /// Every candidate's samples, in seed order (a prefix of the seeds).
    pub samples: Vec<Vec<f64>>,
    /// For dropped candidates, the number of seeds they had played when dropped.
    pub dropped_after: Vec<Option<u64>>,
    /// Samples spent (sum of the lengths of `samples`).
    pub spent: u64,
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The one-sided Student t quantile with `df` degrees of freedom at the level whose normal
/// quantile is `z` (Cornish–Fisher expansion; within 0.01 of the exact value for df ≥ 3 at
/// z ≤ 3): the variance of a few paired differences is itself estimated, so the normal `z`
/// alone would drop too eagerly on small samples.
pub fn t_quantile(z: f64, df: f64) -> f64 {
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
}

/// Whether `x` is significantly worse than `best` on their first `len` samples:
/// mean + t·se of the paired differences below 0, t the Student quantile for `len − 1`
/// degrees of freedom at the one-sided level of the normal quantile `z`.
pub fn significantly_worse(x: &[f64], best: &[f64], z: f64) -> bool {
    let len = x.len().min(best.len());
    if len < 2 {
        return false;
    }
    let d: Vec<f64> = (0..len).map(|j| x[j] - best[j]).collect();
    let m = mean(&d);
    let var = d.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (len as f64 - 1.0);
    let se = (var / len as f64).sqrt();
    m + t_quantile(z, len as f64 - 1.0) * se < 0.0
}

/// Races `candidates` over `seeds` (at least `samples` of them; the race uses at most
/// `max_samples` when racing is on). `play(indices, seeds)` returns the samples of each
/// listed candidate on the given seeds, in order. Without racing every candidate plays
/// exactly the first `samples` seeds in one call.
pub fn race<E>(
    candidates: usize,
    seeds: &[u64],
    samples: usize,
    racing: Option<&RacingSpec>,
    mut play: impl FnMut(&[usize], &[u64]) -> Result<Vec<Vec<f64>>, E>,
    mut progress: impl FnMut(RaceProgress),
) -> Result<RaceOutcome, E> {
    let mut out = RaceOutcome {
        samples: vec![Vec::new(); candidates],
        dropped_after: vec![None; candidates],
        spent: 0,
    };
    let budget = (samples * candidates) as u64;
    if candidates == 0 || samples == 0 {
        return Ok(out);
    }
    let Some(r) = racing else {
        let all: Vec<usize> = (0..candidates).collect();
        let seeds = &seeds[..samples.min(seeds.len())];
        for (i, xs) in all.iter().zip(play(&all, seeds)?) {
            out.spent += xs.len() as u64;
            out.samples[*i] = xs;
        }
        progress(RaceProgress {
            spent: out.spent,
            budget,
            alive: candidates,
            candidates,
        });
        return Ok(out);
    };
    let max = r.max_samples.max(samples).min(seeds.len());
    let mut alive: Vec<usize> = (0..candidates).collect();
    let mut played = 0usize;
    loop {
        let target = if played < samples { samples } else { max };
        let b = r.batch.min(target.saturating_sub(played));
        if b == 0
            || (played >= samples
                && (alive.len() < 2 || out.spent + (alive.len() * b) as u64 > budget))
        {
            break;
        }
        let batch = &seeds[played..played + b];
        for (&i, xs) in alive.iter().zip(play(&alive, batch)?) {
            out.spent += xs.len() as u64;
            out.samples[i].extend(xs);
        }
        played += b;
        if played >= r.min_samples && alive.len() > 1 {
            // The current best: highest mean over this race's seeds; the first on ties.
            let best = *alive
                .iter()
                .max_by(|&&a, &&b| {
                    mean(&out.samples[a])
                        .total_cmp(&mean(&out.samples[b]))
                        .then(b.cmp(&a))
                })
                .expect("alive is not empty");
            let worse: Vec<usize> = alive
                .iter()
                .copied()
                .filter(|&i| {
                    i != best && significantly_worse(&out.samples[i], &out.samples[best], r.z)
                })
                .collect();
            for &i in &worse {
                out.dropped_after[i] = Some(played as u64);
            }
            alive.retain(|i| !worse.contains(i));
        }
        progress(RaceProgress {
            spent: out.spent,
            budget,
            alive: alive.len(),
            candidates,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_test_sees_a_constant_gap_that_unpaired_noise_would_hide() {
        // Large shared noise, a constant gap of 0.1: the paired differences have no variance.
        let best: Vec<f64> = (0..10).map(|j| (j as f64 * 7.3).sin() * 100.0).collect();
        let worse: Vec<f64> = best.iter().map(|x| x - 0.1).collect();
        assert!(significantly_worse(&worse, &best, 2.326));
        assert!(!significantly_worse(&best, &worse, 2.326));
        assert!(!significantly_worse(&best, &best, 2.326));
    }

    #[test]
    fn t_quantile_matches_tables() {
        // One-sided 1% (z = 2.326): t_7 = 2.998, t_15 = 2.602, t_30 = 2.457.
        for (df, t) in [(7.0, 2.998), (15.0, 2.602), (30.0, 2.457)] {
            assert!((t_quantile(2.326, df) - t).abs() < 0.01, "{df}");
        }
        // One-sided 5% (z = 1.645): t_3 = 2.353, t_10 = 1.812.
        assert!((t_quantile(1.645, 3.0) - 2.353).abs() < 0.03);
        assert!((t_quantile(1.645, 10.0) - 1.812).abs() < 0.01);
    }

    #[test]
    fn without_racing_everyone_plays_the_nominal_samples_in_one_call() {
        let seeds: Vec<u64> = (0..10).collect();
        let mut calls = 0;
        let out = race::<()>(
            3,
            &seeds,
            6,
            None,
            |idx, s| {
                calls += 1;
                Ok(idx
                    .iter()
                    .map(|&i| s.iter().map(|&x| (i as u64 * x) as f64).collect())
                    .collect())
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(calls, 1);
        assert_eq!(out.spent, 18);
        assert_eq!(out.samples[2], vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert!(out.dropped_after.iter().all(Option::is_none));
    }
}
