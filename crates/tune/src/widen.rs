//! Widening, simulated: CLOP tunes natural values in a range that grows when its
//! recommendation sits at a bound, so an optimum outside the range first given is still found.
//!
//! - Every `check_every` games, each dimension whose recommendation lies within the margin of
//!   a bound of its current range ([`Clop::at_bound`]) has that side moved out by half the
//!   range's width (never past the parameter's `limits`). The games played so far are kept:
//!   their natural values are re-expressed in the widened range ([`Clop::remapped`]), whose
//!   points are drawn from a seed derived from the run's seed and the widening's count.
//! - Ranges are linear here (a log range widens the same way on the logarithms).
//!
//! Guarantees: a pure function of the landscape, the settings and the seed; the range only
//! grows, so every game's natural value stays inside it.

use crate::clop::{Bound, Clop, Settings};
use crate::regret::Problem;
use evomcts_records::runfs::derive_seed;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Domain tag of the restarts' seeds ("widening" in ASCII, truncated).
const WIDEN_DOMAIN: u64 = 0x7769_6465_6e69_6e67;

/// A widening run's end: the recommendation in natural units and the final ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct Widened {
    pub recommendation: Vec<f64>,
    pub ranges: Vec<(f64, f64)>,
    pub widenings: usize,
}

/// CLOP for `games` games on `problem`, whose `p` takes natural values, starting from `ranges`
/// and widening within `limits` every `check_every` games (`check_every` 0: never).
pub fn run_widening(
    problem: &Problem,
    ranges: &[(f64, f64)],
    limits: &[(f64, f64)],
    games: usize,
    check_every: usize,
    seed: u64,
) -> Widened {
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed, &[WIDEN_DOMAIN]));
    let mut ranges = ranges.to_vec();
    let mut clop = Clop::new(problem.dims, seed, Settings::default()).expect("1 to 4 dimensions");
    let mut widenings = 0;
    for g in 1..=games {
        let x = clop.next_point();
        let v = natural(&ranges, &x);
        clop.observe(&x, problem.play(&v, &mut rng));
        if check_every > 0 && g % check_every == 0 && g < games {
            let wider = widened(&ranges, limits, &clop.at_bound());
            if wider != ranges {
                widenings += 1;
                let old = ranges.clone();
                let restart = derive_seed(seed, &[WIDEN_DOMAIN, widenings as u64]);
                clop = clop.remapped(restart, |x| scaled(&wider, &natural(&old, x)));
                ranges = wider;
            }
        }
    }
    Widened {
        recommendation: natural(&ranges, &clop.recommend()),
        ranges,
        widenings,
    }
}

/// The natural values of scaled `x` in `ranges`.
fn natural(ranges: &[(f64, f64)], x: &[f64]) -> Vec<f64> {
    ranges
        .iter()
        .zip(x)
        .map(|(&(lo, hi), x)| lo + x * (hi - lo))
        .collect()
}

/// The scaled positions of natural `v` in `ranges`.
fn scaled(ranges: &[(f64, f64)], v: &[f64]) -> Vec<f64> {
    ranges
        .iter()
        .zip(v)
        .map(|(&(lo, hi), v)| ((v - lo) / (hi - lo)).clamp(0.0, 1.0))
        .collect()
}

/// `ranges` with each side named by `at` moved out by half its range's width, within `limits`.
fn widened(ranges: &[(f64, f64)], limits: &[(f64, f64)], at: &[Option<Bound>]) -> Vec<(f64, f64)> {
    ranges
        .iter()
        .zip(limits)
        .zip(at)
        .map(|((&(lo, hi), &(min, max)), at)| {
            let half = (hi - lo) / 2.0;
            match at {
                Some(Bound::Low) => ((lo - half).max(min), hi),
                Some(Bound::High) => (lo, (hi + half).min(max)),
                None => (lo, hi),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beyond(v: &[f64]) -> f64 {
        let logit = (0.6f64 / 0.4).ln();
        1.0 / (1.0 + (4.0 * (v[0] - 1.4).powi(2) - logit).exp())
    }

    /// A peak at 1.4 outside the range [0, 1] first given (log-odds logit(0.6) − 4(v − 1.4)²):
    /// without widening CLOP recommends the bound 1 (regret 0.16, above 0.1); checking every
    /// 500 of 2,000 games, it widens at least once and ends within 0.15 of 1.4 with a regret
    /// below 0.02 (measured: 1.33 and 1.40, regrets at most 0.005), for each of two seeds.
    /// Limits hold: widening stops at 1.2.
    #[test]
    fn widening_finds_an_optimum_outside_the_first_range() {
        let problem = Problem {
            name: "beyond",
            dims: 1,
            p: beyond,
            best: 0.6,
            draws: 0.0,
        };
        let limits = [(-10.0, 10.0)];
        for seed in 1..3 {
            let fixed = run_widening(&problem, &[(0.0, 1.0)], &limits, 2_000, 0, seed);
            let regret = problem.regret(&fixed.recommendation);
            assert!(regret > 0.1, "seed {seed}: {fixed:?}, regret {regret}");
            let wide = run_widening(&problem, &[(0.0, 1.0)], &limits, 2_000, 500, seed);
            let regret = problem.regret(&wide.recommendation);
            assert!(wide.widenings >= 1, "seed {seed}: {wide:?}");
            assert!(
                (wide.recommendation[0] - 1.4).abs() < 0.15 && regret < 0.02,
                "seed {seed}: {wide:?}, regret {regret}"
            );
        }
        let capped = run_widening(&problem, &[(0.0, 1.0)], &[(0.0, 1.2)], 2_000, 500, 1);
        assert_eq!(capped.ranges, vec![(0.0, 1.2)]);
        assert!(capped.recommendation[0] <= 1.2);
    }
}
