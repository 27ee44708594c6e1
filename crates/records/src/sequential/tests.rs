//! The tests' hand-computable cases, the maximum-likelihood solutions' optimality, and the
//! error rates by simulation on synthetic pairs of known effect.

use super::*;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Normal};
use rand_pcg::Pcg64Mcg;

fn elo(elo0: f64, elo1: f64) -> SprtSpec {
    SprtSpec {
        alpha: 0.05,
        beta: 0.05,
        hypotheses: Hypotheses::Elo { elo0, elo1 },
    }
}

fn score(delta0: f64, delta1: f64) -> SprtSpec {
    SprtSpec {
        alpha: 0.05,
        beta: 0.05,
        hypotheses: Hypotheses::Score { delta0, delta1 },
    }
}

#[test]
fn wald_bounds_at_five_percent_are_plus_minus_2_94() {
    let (lower, upper) = bounds(0.05, 0.05);
    assert!((lower + 2.944_438_979).abs() < 1e-8, "{lower}");
    assert!((upper - 2.944_438_979).abs() < 1e-8, "{upper}");
    let (lower, upper) = bounds(0.1, 0.02);
    assert!((lower - (0.02f64 / 0.9).ln()).abs() < 1e-12);
    assert!((upper - (0.98f64 / 0.1).ln()).abs() < 1e-12);
}

#[test]
fn the_score_llr_matches_a_hand_computed_case() {
    // Pair means 1 and 3: mean 2, variance (divisor n) 1. Against δ0 = 0: 1 + 4 = 5; against
    // δ1 = 2: 1 + 0 = 1; LLR = (2/2)·ln(5/1).
    let mut sprt = Sprt::new(score(0.0, 2.0));
    sprt.add([0.0, 2.0]);
    sprt.add([4.0, 2.0]);
    assert!((sprt.llr() - 5f64.ln()).abs() < 1e-12, "{}", sprt.llr());
    assert_eq!(sprt.estimate(), 2.0);
    // Swapped hypotheses give minus the LLR... with δ0 < δ1 kept: (1, 3) against (2, 4).
    let mut sprt = Sprt::new(score(2.0, 4.0));
    sprt.add([1.0, 1.0]);
    sprt.add([3.0, 3.0]);
    // Against 2: 1 + 0; against 4: 1 + 4; LLR = ln(1/5).
    assert!((sprt.llr() + 5f64.ln()).abs() < 1e-12, "{}", sprt.llr());
}

/// A pair whose two games score `total` points in halves: 0 (two losses) to 4 (two wins).
fn pair_of_total(total: usize) -> PairDiffs {
    [
        [-1.0, -1.0],
        [-1.0, 0.0],
        [1.0, -1.0],
        [1.0, 0.0],
        [1.0, 1.0],
    ][total]
}

#[test]
fn pentanomial_counts_follow_the_pair_totals() {
    let mut sprt = Sprt::new(elo(-5.0, 5.0));
    for (total, times) in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)] {
        for _ in 0..times {
            sprt.add(pair_of_total(total));
        }
    }
    assert_eq!(sprt.counts, [1.0, 2.0, 3.0, 4.0, 5.0]);
    // A draw and a win total 1½; a win and a loss 1, in either order.
    let mut sprt = Sprt::new(elo(-5.0, 5.0));
    sprt.add([0.0, 3.0]);
    sprt.add([-2.0, 7.0]);
    assert_eq!(sprt.counts, [0.0, 0.0, 1.0, 1.0, 0.0]);
}

#[test]
fn a_symmetric_sample_gives_zero_llr_between_symmetric_hypotheses() {
    let mut sprt = Sprt::new(elo(-10.0, 10.0));
    for (total, times) in [(0, 3), (1, 7), (2, 20), (3, 7), (4, 3)] {
        for _ in 0..times {
            sprt.add(pair_of_total(total));
        }
    }
    assert!(sprt.llr().abs() < 1e-9, "{}", sprt.llr());
    assert!(sprt.estimate().abs() < 1e-9);
}

#[test]
fn the_pentanomial_llr_agrees_with_its_normal_approximation_on_many_pairs() {
    // For small t-values the GSPRT's LLR is N·(t1 − t0)·(2t̂ − t0 − t1)/2 to first order, with
    // t̂ = (μ̂ − ½)/σ̂ of the frequencies (by hand below) and t = √2·nElo/C per pair.
    let counts = [500.0, 2000.0, 4000.0, 2500.0, 1000.0];
    let n: f64 = counts.iter().sum();
    let mu = (0.25 * 2000.0 + 0.5 * 4000.0 + 0.75 * 2500.0 + 1000.0) / n;
    assert!((mu - 0.5375).abs() < 1e-12);
    let var = counts
        .iter()
        .zip([0.0, 0.25, 0.5, 0.75, 1.0])
        .map(|(c, a)| c / n * (a - mu) * (a - mu))
        .sum::<f64>();
    let t_hat = (mu - 0.5) / var.sqrt();
    let (e0, e1) = (0.0, 10.0);
    let to_t = |e: f64| std::f64::consts::SQRT_2 * e / (800.0 / std::f64::consts::LN_10);
    let (t0, t1) = (to_t(e0), to_t(e1));
    let approx = n * (t1 - t0) * (2.0 * t_hat - t0 - t1) / 2.0;
    let exact = pentanomial_llr(counts, t0, t1);
    assert!(
        (exact - approx).abs() < 0.02 * approx.abs(),
        "{exact} vs {approx}"
    );
    // The estimate is the frequencies' normalised Elo: C·t̂/√2.
    let mut sprt = Sprt::new(elo(e0, e1));
    for (total, c) in counts.iter().enumerate() {
        for _ in 0..*c as usize {
            sprt.add(pair_of_total(total));
        }
    }
    assert!((sprt.llr() - exact).abs() < 1e-9);
    assert!((sprt.estimate() - t_hat / to_t(1.0)).abs() < 1e-9);
}

/// ∂t/∂qᵢ of t(q) = (μ − ½)/σ with σ² = Σ qa² − μ².
fn t_gradient(q: &[f64; 5]) -> [f64; 5] {
    let (mu, sigma) = mean_sd(q);
    SCORES.map(|a| a / sigma - (mu - 0.5) * (a * a - 2.0 * mu * a) / (2.0 * sigma.powi(3)))
}

#[test]
fn the_constrained_maximum_meets_its_constraint_and_the_first_order_conditions() {
    // Random frequencies (some zero, so regularised) and every t-value the spec allows: the
    // solution has that t-value and pᵢ/qᵢ = λ + ν·∂t/∂qᵢ for all five classes (λ, ν fitted on
    // the outer two, checked on the inner three).
    let mut rng = Pcg64Mcg::seed_from_u64(42);
    let max_t = std::f64::consts::SQRT_2 * MAX_NELO / NELO_PER_T;
    for case in 0..2000 {
        let counts: [f64; 5] = std::array::from_fn(|_| {
            if rng.gen_bool(0.2) {
                0.0
            } else {
                rng.gen_range(0..50) as f64
            }
        });
        let (_, p) = regularised(counts);
        let t = rng.gen_range(-max_t..=max_t);
        let q = mle_with_t(&p, t);
        assert!(
            (t_value(&q) - t).abs() < 1e-9,
            "case {case}: {counts:?} t {t}: {q:?}"
        );
        assert!(
            (q.iter().sum::<f64>() - 1.0).abs() < 1e-10,
            "case {case}: {counts:?} t {t}: sum {}",
            q.iter().sum::<f64>()
        );
        let g = t_gradient(&q);
        let r: [f64; 5] = std::array::from_fn(|i| p[i] / q[i]);
        let nu = (r[4] - r[0]) / (g[4] - g[0]);
        let lambda = r[0] - nu * g[0];
        for i in 1..4 {
            assert!(
                (r[i] - lambda - nu * g[i]).abs() < 1e-6 * r[i].abs().max(1.0),
                "case {case}: {counts:?} t {t}: class {i}"
            );
        }
    }
}

#[test]
fn the_test_stops_at_the_first_crossing_and_not_before_min_pairs() {
    // Pair means alternating 3 and 1 against δ = 0 / 2: after n pairs (n even) the mean is 2
    // and the variance 1, so the LLR is (n/2)·ln 5, past the upper bound from 4 pairs; the
    // test waits for MIN_PAIRS.
    let alternating = (0..).map(|k| if k % 2 == 0 { [3.0, 3.0] } else { [1.0, 1.0] });
    let out = run(score(0.0, 2.0), alternating.clone(), 500);
    assert_eq!((out.decision(), out.pairs()), (Decision::H1, MIN_PAIRS));
    assert!(out.path[3].llr > out.upper);
    assert!(out.path[..MIN_PAIRS - 1]
        .iter()
        .all(|s| s.decision == Decision::Continue));
    let mirrored = alternating.map(|d| d.map(|x| -x));
    let out = run(score(-2.0, 0.0), mirrored, 500);
    assert_eq!((out.decision(), out.pairs()), (Decision::H0, MIN_PAIRS));
    // Two wins every pair: H1, the LLR rising pair by pair (the composite H0 explains a run
    // of wins worse and worse).
    let out = run(elo(0.0, 30.0), std::iter::repeat([1.0, 1.0]), 500);
    assert_eq!(out.decision(), Decision::H1);
    assert!(out.path.windows(2).all(|w| w[1].llr > w[0].llr));
    // Win-loss splits (a tie at 0 against 30) decide H0 in a number of pairs that does not
    // depend on what follows.
    let splits = vec![[1.0, -1.0]; 1000];
    let out = run(elo(0.0, 30.0), splits.iter().copied(), 1000);
    assert_eq!(out.decision(), Decision::H0);
    let mut then_wins = splits[..out.pairs()].to_vec();
    then_wins.extend(vec![[1.0, 1.0]; 100]);
    assert_eq!(run(elo(0.0, 30.0), then_wins, 1000), out);
    // A cap reached between the bounds is undecided; pairs that run out first, continue.
    let out = run(elo(0.0, 30.0), splits.iter().copied(), 20);
    assert_eq!((out.decision(), out.pairs()), (Decision::Undecided, 20));
    let out = run(elo(0.0, 30.0), splits[..20].iter().copied(), 500);
    assert_eq!((out.decision(), out.pairs()), (Decision::Continue, 20));
    assert_eq!(run(elo(0.0, 30.0), [], 0).decision(), Decision::Undecided);
}

#[test]
fn bad_fields_are_refused_by_name() {
    let field = |s: SprtSpec| s.check().unwrap_err().0;
    let good = elo(0.0, 30.0);
    assert!(good.check().is_ok() && score(0.0, 2.0).check().is_ok());
    assert_eq!(field(SprtSpec { alpha: 0.0, ..good }), "alpha");
    assert_eq!(
        field(SprtSpec {
            alpha: f64::NAN,
            ..good
        }),
        "alpha"
    );
    assert_eq!(field(SprtSpec { beta: 1.0, ..good }), "beta");
    assert_eq!(
        field(SprtSpec {
            alpha: 0.6,
            beta: 0.5,
            ..good
        }),
        "beta"
    );
    assert_eq!(field(elo(30.0, 0.0)), "hypotheses.elo1");
    assert_eq!(field(elo(5.0, 5.0)), "hypotheses.elo1");
    assert_eq!(field(elo(-1000.0, 5.0)), "hypotheses.elo0");
    assert_eq!(field(elo(0.0, f64::INFINITY)), "hypotheses.elo1");
    assert_eq!(field(score(2.0, 0.0)), "hypotheses.delta1");
    assert_eq!(field(score(f64::NAN, 0.0)), "hypotheses.delta0");
}

/// The pentanomial distribution of normalised Elo `nelo`: `base` tilted by exp(θ·a).
fn tilted(base: [f64; 5], nelo: f64) -> [f64; 5] {
    let target = std::f64::consts::SQRT_2 * nelo / NELO_PER_T;
    let at = |theta: f64| {
        let w: [f64; 5] = std::array::from_fn(|i| base[i] * (theta * SCORES[i]).exp());
        let total: f64 = w.iter().sum();
        w.map(|w| w / total)
    };
    let (mut lo, mut hi) = (-30.0, 30.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_value(&at(mid)) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at(0.5 * (lo + hi))
}

/// The share of `tests` simulated tests of `spec` (cap `cap` pairs) that ended in each of
/// H0, H1 and undecided, pairs drawn by `draw`.
fn simulate(
    spec: SprtSpec,
    tests: usize,
    cap: usize,
    seed: u64,
    mut draw: impl FnMut(&mut Pcg64Mcg) -> PairDiffs,
) -> [f64; 3] {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut ends = [0usize; 3];
    for _ in 0..tests {
        let mut sprt = Sprt::new(spec);
        let end = loop {
            sprt.add(draw(&mut rng));
            match sprt.decision() {
                Decision::H0 => break 0,
                Decision::H1 => break 1,
                _ if sprt.pairs() == cap => break 2,
                _ => {}
            }
        };
        ends[end] += 1;
    }
    ends.map(|e| e as f64 / tests as f64)
}

/// Draws a pair total from a pentanomial distribution.
fn draw_total(rng: &mut Pcg64Mcg, q: &[f64; 5]) -> PairDiffs {
    let u: f64 = rng.gen();
    let mut acc = 0.0;
    for (total, p) in q.iter().enumerate() {
        acc += p;
        if u < acc {
            return pair_of_total(total);
        }
    }
    pair_of_total(4)
}

/// The tolerance of a simulated error rate of nominal 0.05: from 0.02 (Wald's bounds are
/// conservative, a test overshoots its bound, so rates fall below nominal; far below would
/// mean a test that wastes games) to 0.07, about three Monte Carlo standard errors of a 5%
/// rate over 1,000 tests above it.
const TOLERATED: std::ops::RangeInclusive<f64> = 0.02..=0.07;

#[test]
fn error_rates_of_the_pentanomial_test_are_within_tolerance_of_alpha_and_beta() {
    // Two shapes of pair distribution: independent games without draws (Pig, Connect Four),
    // and pairs that split far more often than independence gives (a strong seat advantage),
    // each at nElo 0 (H0 true) and at nElo 60 (H1 true).
    let spec = elo(0.0, 60.0);
    let independent = [0.25, 0.0, 0.5, 0.0, 0.25];
    let split = [0.05, 0.1, 0.7, 0.1, 0.05];
    for (k, base) in [independent, split].into_iter().enumerate() {
        for (h, nelo) in [(0, 0.0), (1, 60.0)] {
            let q = tilted(base, nelo);
            let ends = simulate(spec, 1000, 5000, 7 + 2 * k as u64 + h, |rng| {
                draw_total(rng, &q)
            });
            let wrong = ends[1 - h as usize];
            assert!(
                TOLERATED.contains(&wrong),
                "shape {k}, nElo {nelo}: {ends:?}"
            );
            assert!(ends[2] == 0.0, "shape {k}, nElo {nelo}: {ends:?}");
        }
    }
}

#[test]
fn error_rates_of_the_score_test_are_within_tolerance_of_alpha_and_beta() {
    // Normal pair differences of standard deviation 1 (any scale: the test is invariant to
    // it), at δ = 0 (H0 true) and δ = 0.25 (H1 true); and Carcassonne-like ones: a mean of two
    // seatings of integer scores, standard deviation 15 points, at 0 and 2 points.
    for (k, (delta1, sd)) in [(0.25, 1.0), (2.0, 15.0)].into_iter().enumerate() {
        let spec = score(0.0, delta1);
        for (h, delta) in [(0usize, 0.0), (1, delta1)] {
            let normal = Normal::new(delta, sd).unwrap();
            let ends = simulate(spec, 1000, 20_000, 100 + 2 * k as u64 + h as u64, |rng| {
                if k == 0 {
                    let x = normal.sample(rng);
                    [x, x]
                } else {
                    [normal.sample(rng).round(), normal.sample(rng).round()]
                }
            });
            assert!(
                TOLERATED.contains(&ends[1 - h]),
                "δ1 {delta1}, δ {delta}: {ends:?}"
            );
            assert!(ends[2] == 0.0);
        }
    }
}
