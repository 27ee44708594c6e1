//! Racing many candidates down to a few by successive halving, then a final race against the
//! seed with a stated family-wise error rate: the race an enumeration of formulas by behaviour
//! needs (one representative per class, hundreds of classes, a fixed budget of games).
//!
//! **Successive halving** (Karnin, Koren & Somekh, *Almost Optimal Exploration in Multi-Armed
//! Bandits*, ICML 2013): with K candidates, a budget of B samples and `keep` finalists, the race
//! has R = ⌈log₂(K / keep)⌉ rounds; round r gives every candidate still in the race samples up to
//! t_r = t_{r−1} + ⌊B / (R · |S_r|)⌋ (so each round spends about B / R), then keeps the better
//! half (⌈|S_r| / 2⌉, never fewer than `keep`) by the mean of all their samples. Every candidate
//! plays the same sample seeds in the same order (common random numbers): sample i of every
//! candidate is seed i, so the means of the candidates still in the race are over the same seeds
//! and their comparison is paired. Equal means keep the candidate listed first (the enumerator
//! lists the simplest first). The race spends at most B samples; it guarantees no error rate
//! (Karnin et al. bound the probability of losing the best arm by
//! 3·log₂K·exp(−B / (8·H₂·log₂K)), H₂ a measure of the gaps): its finalists are suggestions.
//!
//! **The final race** is what a finding rests on: the finalists and the seed formula play fresh
//! seeds no round has played (the caller's samples), each finalist's paired differences to the
//! seed are tested by the Wilcoxon signed-rank test, one-sided in the finalist's favour, and the
//! p-values are adjusted by Holm's method over the finalists, so the probability of declaring any
//! finalist better than the seed when none is stays at most α (Holm, *A Simple Sequentially
//! Rejective Multiple Test Procedure*, Scandinavian Journal of Statistics 6(2), 1979). Fixed
//! samples, no optional stopping, so the p-values are what they claim.
//!
//! Both are pure: the samples come from a caller-supplied function of (candidates, seeds), so
//! the race is deterministic whenever that function is.

use evomcts_records::stats::{holm, wilcoxon_signed_rank};

/// The halving race's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalvingSpec {
    /// Samples the race may spend over every candidate and round.
    pub budget: usize,
    /// Candidates left at the end.
    pub keep: usize,
}

/// One round: who played, and how many samples each had after it.
#[derive(Clone, Debug, PartialEq)]
pub struct HalvingRound {
    /// Candidates in the round, as indices into the caller's list.
    pub alive: Vec<usize>,
    /// Samples each of them had played after the round.
    pub samples: usize,
    /// Their means over those samples, in the order of `alive`.
    pub means: Vec<f64>,
}

/// A finished race.
#[derive(Clone, Debug, PartialEq)]
pub struct HalvingOutcome {
    pub rounds: Vec<HalvingRound>,
    /// The candidates left, best first.
    pub finalists: Vec<usize>,
    /// Samples spent in all.
    pub spent: usize,
}

/// What stops a race before it starts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HalvingError {
    #[error("a race needs at least one candidate and keeps at least one")]
    Empty,
    #[error("a budget of {budget} samples gives the {candidates} candidates not one sample each in each of the {rounds} rounds: at least {needed} are needed")]
    Budget {
        budget: usize,
        candidates: usize,
        rounds: usize,
        needed: usize,
    },
}

/// The number of rounds that take `candidates` down to `keep`.
pub fn rounds(candidates: usize, keep: usize) -> usize {
    let mut alive = candidates;
    let mut rounds = 0;
    while alive > keep {
        alive = alive.div_ceil(2).max(keep);
        rounds += 1;
    }
    rounds
}

/// Races `candidates` down to `spec.keep` finalists. `sample(alive, seeds)` returns, for each
/// candidate of `alive` in order, its values on the sample seeds `seeds` (the same seeds for
/// every candidate), or the error that stops the race. With no more candidates than `keep`,
/// nothing is played.
pub fn successive_halving<E: From<HalvingError>>(
    candidates: usize,
    spec: &HalvingSpec,
    mut sample: impl FnMut(&[usize], std::ops::Range<usize>) -> Result<Vec<Vec<f64>>, E>,
) -> Result<HalvingOutcome, E> {
    if candidates == 0 || spec.keep == 0 {
        return Err(HalvingError::Empty.into());
    }
    let total = rounds(candidates, spec.keep);
    let mut alive: Vec<usize> = (0..candidates).collect();
    let mut sums = vec![0.0; candidates];
    let mut played = 0;
    let mut spent = 0;
    let mut out = Vec::with_capacity(total);
    for _ in 0..total {
        let more = spec.budget / (total * alive.len());
        if more == 0 {
            return Err(HalvingError::Budget {
                budget: spec.budget,
                candidates,
                rounds: total,
                needed: needed_budget(candidates, spec.keep),
            }
            .into());
        }
        let values = sample(&alive, played..played + more)?;
        debug_assert_eq!(values.len(), alive.len());
        for (&candidate, values) in alive.iter().zip(&values) {
            debug_assert_eq!(values.len(), more);
            sums[candidate] += values.iter().sum::<f64>();
        }
        played += more;
        spent += more * alive.len();
        let means: Vec<f64> = alive.iter().map(|&c| sums[c] / played as f64).collect();
        out.push(HalvingRound {
            alive: alive.clone(),
            samples: played,
            means,
        });
        alive = best_first(&alive, &sums);
        alive.truncate(alive.len().div_ceil(2).max(spec.keep));
    }
    let finalists = best_first(&alive, &sums);
    Ok(HalvingOutcome {
        rounds: out,
        finalists,
        spent,
    })
}

/// The smallest budget that gives every candidate one sample in every round.
pub fn needed_budget(candidates: usize, keep: usize) -> usize {
    let total = rounds(candidates, keep);
    // The first round has the most candidates, and every round gets budget / total.
    total * candidates
}

/// `alive` by decreasing sum (all have played the same samples), earlier first among equals.
fn best_first(alive: &[usize], sums: &[f64]) -> Vec<usize> {
    let mut order = alive.to_vec();
    order.sort_by(|&a, &b| sums[b].total_cmp(&sums[a]).then(a.cmp(&b)));
    order
}

/// One finalist of the final race against the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct FinalRow {
    /// The finalist, as an index into the caller's list.
    pub candidate: usize,
    /// Mean paired difference finalist − seed over the fresh samples.
    pub mean_difference: f64,
    /// One-sided Wilcoxon p (the finalist better than the seed).
    pub p_value: f64,
    /// Holm-adjusted over the finalists.
    pub p_holm: f64,
    /// `p_holm < alpha`.
    pub better: bool,
}

/// The final race: each finalist's values and the seed's on the same fresh samples
/// (`finalists[i]` against `seed`), tested one-sided and adjusted by Holm at family-wise level
/// `alpha`.
pub fn final_race(finalists: &[(usize, Vec<f64>)], seed: &[f64], alpha: f64) -> Vec<FinalRow> {
    let tests: Vec<(f64, f64)> = finalists
        .iter()
        .map(|(_, values)| {
            debug_assert_eq!(values.len(), seed.len());
            let differences: Vec<f64> = values.iter().zip(seed).map(|(a, b)| a - b).collect();
            let mean = differences.iter().sum::<f64>() / differences.len().max(1) as f64;
            let two_sided = wilcoxon_signed_rank(&differences).p_value;
            // One-sided from the two-sided p of a symmetric test: half when the finalist leads.
            let p = if mean > 0.0 {
                two_sided / 2.0
            } else {
                1.0 - two_sided / 2.0
            };
            (mean, p)
        })
        .collect();
    let raw: Vec<f64> = tests.iter().map(|t| t.1).collect();
    let adjusted = holm(&raw);
    finalists
        .iter()
        .zip(tests.iter().zip(adjusted))
        .map(|((candidate, _), (&(mean, p), p_holm))| FinalRow {
            candidate: *candidate,
            mean_difference: mean,
            p_value: p,
            p_holm,
            better: p_holm < alpha,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_records::runfs::derive_seed;
    use rand::{Rng, SeedableRng};

    /// Candidates with true means `means`; the value of candidate c on seed s is its mean plus
    /// a noise shared by every candidate on that seed (the luck of the seed, which common random
    /// numbers cancel) plus its own noise, both drawn from seed s alone, so the same (c, s)
    /// always gives the same value.
    fn sampler(
        means: Vec<f64>,
        world: u64,
    ) -> impl FnMut(&[usize], std::ops::Range<usize>) -> Result<Vec<Vec<f64>>, HalvingError> {
        move |alive, seeds| {
            Ok(alive
                .iter()
                .map(|&c| {
                    seeds
                        .clone()
                        .map(|s| {
                            let seed = |who: u64| derive_seed(world, &[s as u64, who]);
                            let mut shared = evomcts_games::GameRng::seed_from_u64(seed(0));
                            let mut own = evomcts_games::GameRng::seed_from_u64(seed(c as u64 + 1));
                            let luck: f64 = shared.gen_range(-1.0..1.0);
                            let noise: f64 = own.gen_range(-1.0..1.0);
                            means[c] + luck + noise
                        })
                        .collect()
                })
                .collect())
        }
    }

    /// 64 candidates whose true means spread from -0.5 to 0 (as an enumeration's classes do:
    /// most formulas are far worse than the best), one of them placed 0.1 above the rest, at a
    /// different place in each world; noise sd about 0.58 of a candidate's own and a shared luck
    /// per seed. With 6,400 samples halving keeps the best among its 2 finalists more often than
    /// uniform allocation of the same budget (100 samples each) ranks it in its top 2, and in at
    /// least 90 of 100 worlds. Measured: halving 99, uniform 83 of 100.
    #[test]
    fn halving_finds_the_best_more_often_than_uniform_allocation() {
        let spec = HalvingSpec {
            budget: 6_400,
            keep: 2,
        };
        let worlds = 100;
        let (mut halving, mut uniform) = (0, 0);
        for world in 0..worlds {
            let best = (world as usize * 13) % 64;
            let means: Vec<f64> = (0..64)
                .map(|c| {
                    if c == best {
                        0.1
                    } else {
                        -0.5 * ((c * 37) % 64) as f64 / 63.0
                    }
                })
                .collect();
            let outcome = successive_halving(64, &spec, sampler(means.clone(), world)).unwrap();
            assert!(outcome.spent <= spec.budget, "{} spent", outcome.spent);
            assert_eq!(outcome.finalists.len(), 2);
            halving += usize::from(outcome.finalists.contains(&best));
            let all: Vec<usize> = (0..64).collect();
            let values = sampler(means, world)(&all, 0..spec.budget / 64).unwrap();
            let sums: Vec<f64> = values.iter().map(|v| v.iter().sum()).collect();
            uniform += usize::from(best_first(&all, &sums)[..2].contains(&best));
        }
        evomcts_records::note!("halving {halving}, uniform {uniform} of {worlds} worlds");
        assert!(
            halving > uniform && halving >= 90,
            "halving {halving}, uniform {uniform} of {worlds} worlds"
        );
    }

    #[test]
    fn rounds_halve_down_to_keep_and_the_budget_is_checked() {
        assert_eq!(rounds(64, 2), 5);
        assert_eq!(rounds(65, 2), 6);
        assert_eq!(rounds(3, 3), 0);
        assert_eq!(rounds(5, 1), 3);
        let outcome = successive_halving(
            5,
            &HalvingSpec {
                budget: 30,
                keep: 1,
            },
            sampler(vec![0.0, 0.5, 0.0, 0.0, 0.0], 1),
        )
        .unwrap();
        let alive: Vec<usize> = outcome.rounds.iter().map(|r| r.alive.len()).collect();
        assert_eq!(alive, [5, 3, 2]);
        // Round budgets: 30 / (3 rounds · 5) = 2, then 30 / 9 = 3, then 30 / 6 = 5 more.
        let samples: Vec<usize> = outcome.rounds.iter().map(|r| r.samples).collect();
        assert_eq!(samples, [2, 5, 10]);
        assert_eq!(outcome.spent, 2 * 5 + 3 * 3 + 5 * 2);
        assert_eq!(
            successive_halving(
                64,
                &HalvingSpec {
                    budget: 100,
                    keep: 2
                },
                sampler(vec![0.0; 64], 1)
            ),
            Err(HalvingError::Budget {
                budget: 100,
                candidates: 64,
                rounds: 5,
                needed: 320
            })
        );
    }

    #[test]
    fn the_same_samples_give_the_same_race() {
        let spec = HalvingSpec {
            budget: 2_000,
            keep: 3,
        };
        let means: Vec<f64> = (0..20).map(|c| c as f64 * 0.01).collect();
        let a = successive_halving(20, &spec, sampler(means.clone(), 4)).unwrap();
        let b = successive_halving(20, &spec, sampler(means, 4)).unwrap();
        assert_eq!(a, b);
    }

    /// Under the null (every finalist as good as the seed), Holm's final race declares some
    /// finalist better in at most α of races; with one finalist truly better by 0.3 it finds it.
    /// 400 races of 5 finalists on 60 samples at α = 0.05; measured: 14 of 400 (3.5%). Without
    /// Holm, five tests at 0.05 would declare one in about 23% of races.
    #[test]
    fn the_final_race_holds_its_family_wise_error_and_finds_a_real_gain() {
        let mut false_alarms = 0;
        let races = 400;
        for world in 0..races {
            let values = sampler(vec![0.0; 6], 1000 + world)(&[0, 1, 2, 3, 4, 5], 0..60).unwrap();
            let finalists: Vec<(usize, Vec<f64>)> =
                (1..6).map(|c| (c, values[c].clone())).collect();
            let rows = final_race(&finalists, &values[0], 0.05);
            false_alarms += usize::from(rows.iter().any(|r| r.better));
        }
        let rate = false_alarms as f64 / races as f64;
        evomcts_records::note!("{false_alarms} of {races} null races declared a finalist better");
        // 3 standard errors above 0.05.
        assert!(
            rate <= 0.05 + 3.0 * (0.05f64 * 0.95 / races as f64).sqrt(),
            "{rate}"
        );
        let values = sampler(vec![0.0, 0.3, 0.0], 7)(&[0, 1, 2], 0..200).unwrap();
        let rows = final_race(
            &[(1, values[1].clone()), (2, values[2].clone())],
            &values[0],
            0.05,
        );
        assert!(rows[0].better && !rows[1].better, "{rows:?}");
        assert!(rows[0].p_holm >= rows[0].p_value);
    }
}
