//! Statistics for paired game results (leagues, validation, replication, tournaments, evolution's
//! front): Holm's adjustment of a family of p-values, the Wilcoxon signed-rank test (exact for up to 25 non-zero
//! pairs, normal approximation with tie and continuity corrections beyond), the rank-biserial
//! effect size, Wilson score intervals for win rates, and Bradley–Terry ratings with 95%
//! intervals.

use serde::Serialize;

/// The outcome of a Wilcoxon signed-rank test on paired differences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wilcoxon {
    /// Pairs with a non-zero difference (zeros are dropped, Wilcoxon's convention).
    pub n: usize,
    /// Sum of the ranks of positive differences.
    pub w_plus: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// Matched-pairs rank-biserial correlation, (W+ − W−) / (W+ + W−), in [−1, 1].
    pub effect_size: f64,
    pub exact: bool,
}

/// Holm's step-down adjustment of a family of p-values (same order as given).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let m = p.len();
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Standard normal CDF via erfc (Numerical Recipes' Chebyshev fit, |error| < 1.2e-7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// Average ranks (1-based) of `values`, ties sharing the mean of their positions.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut r = vec![0.0; values.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

/// Wilcoxon signed-rank test of whether paired differences are centred on zero.
pub fn wilcoxon_signed_rank(differences: &[f64]) -> Wilcoxon {
    let nonzero: Vec<f64> = differences.iter().copied().filter(|d| *d != 0.0).collect();
    let n = nonzero.len();
    if n == 0 {
        return Wilcoxon {
            n,
            w_plus: 0.0,
            p_value: 1.0,
            effect_size: 0.0,
            exact: true,
        };
    }
    let abs: Vec<f64> = nonzero.iter().map(|d| d.abs()).collect();
    let r = ranks(&abs);
    let w_plus: f64 = r
        .iter()
        .zip(&nonzero)
        .filter(|(_, d)| **d > 0.0)
        .map(|(r, _)| r)
        .sum();
    let total = (n * (n + 1)) as f64 / 2.0;
    let effect_size = (2.0 * w_plus - total) / total;
    if n <= 25 {
        // Exact null distribution: each rank's sign is a fair coin. Ranks are multiples of
        // one half, so count subsets by doubled rank sums.
        let doubled: Vec<usize> = r.iter().map(|x| (2.0 * x).round() as usize).collect();
        let max: usize = doubled.iter().sum();
        let mut counts = vec![0f64; max + 1];
        counts[0] = 1.0;
        for &d in &doubled {
            for s in (d..=max).rev() {
                counts[s] += counts[s - d];
            }
        }
        let all = 2f64.powi(n as i32);
        let observed = (2.0 * w_plus).round() as usize;
        let mirrored = max - observed;
        let (lo, hi) = (observed.min(mirrored), observed.max(mirrored));
        let tail: f64 = counts[..=lo].iter().sum::<f64>() + counts[hi..].iter().sum::<f64>();
        let p_value = if lo == hi { 1.0 } else { (tail / all).min(1.0) };
        return Wilcoxon {
            n,
            w_plus,
            p_value,
            effect_size,
            exact: true,
        };
    }
    let mean = total / 2.0;
    let mut tie_term = 0.0;
    let mut sorted = abs.clone();
    sorted.sort_by(f64::total_cmp);
    let mut i = 0;
    while i < sorted.len() {
        // Ties by `total_cmp`, under which a NaN equals itself: with `==` a NaN would tie
        // with nothing, not even itself, and `i` would never move on.
        let j = sorted[i..]
            .iter()
            .take_while(|v| v.total_cmp(&sorted[i]).is_eq())
            .count();
        tie_term += (j * j * j - j) as f64;
        i += j;
    }
    let var = (n * (n + 1) * (2 * n + 1)) as f64 / 24.0 - tie_term / 48.0;
    let diff = w_plus - mean;
    let z = (diff.abs() - 0.5).max(0.0) / var.sqrt();
    // The upper tail directly: 1 − Φ(z) cancels to 0 beyond z ≈ 8, so a CSV would print p = 0.
    let p_value = (2.0 * normal_cdf(-z)).min(1.0);
    Wilcoxon {
        n,
        w_plus,
        p_value,
        effect_size,
        exact: false,
    }
}

/// Wilson score interval at 95% for `successes` out of `n` (successes may be fractional: a
/// draw counts one half).
pub fn wilson_interval(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054;
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo points per natural-log unit of Bradley–Terry strength: ratings are 400·log10(π).
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Bradley–Terry ratings of `players` fitted to a set of games.
///
/// The model: player i scores against j with probability π_i / (π_i + π_j); a draw counts one
/// half to each side. Strengths are fitted by maximum likelihood (Newton's method with step
/// halving on the concave log-likelihood) and shown on the Elo scale, 400·log10(π), shifted so
/// that the players' mean rating is 0: a rating reads as "points above the average entrant".
///
/// Intervals are 95% Wald intervals of each rating's difference from that mean, from the
/// observed Fisher information (the inverse of the log-likelihood's Hessian restricted to
/// ratings that sum to zero).
///
/// Finite maximum-likelihood strengths exist exactly when every group of players has scored
/// at least once against the others (the directed graph "i scored against j" is strongly
/// connected; Zermelo 1929, Ford 1957). When they do not (a player won or lost every game,
/// or some players never met), every player gets one virtual draw against a fixed reference
/// player of strength 1, a weak prior that keeps every rating and interval finite;
/// `with_prior` says so.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BradleyTerry {
    /// Ratings on the Elo scale, mean 0.
    pub ratings: Vec<f64>,
    /// 95% interval of each rating.
    pub low: Vec<f64>,
    pub high: Vec<f64>,
    /// Whether the virtual draws were added (the data alone had no finite fit).
    pub with_prior: bool,
    /// The reference player's rating on the same scale, when the virtual draws were added.
    pub reference: Option<f64>,
}

/// The expected score of a player rated `rating` against one rated `opponent` (Elo scale).
pub fn expected_score(rating: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + ((opponent - rating) / ELO_PER_NAT).exp())
}

/// Fits Bradley–Terry ratings to `games`, each `(a, b, score of a)` with the score 1 for a
/// win of `a`, 0.5 for a draw and 0 for a loss. Players that appear in no game still get a
/// (prior-only) rating.
pub fn bradley_terry(players: usize, games: &[(usize, usize, f64)]) -> BradleyTerry {
    // Pairwise games and scores; the reference player of the prior is index `players`.
    let size = players + 1;
    let mut played = vec![0.0; size * size];
    let mut scored = vec![0.0; size * size];
    for &(a, b, score) in games {
        assert!(
            a < players && b < players && a != b,
            "game between {a} and {b}"
        );
        played[a * size + b] += 1.0;
        played[b * size + a] += 1.0;
        scored[a * size + b] += score;
        scored[b * size + a] += 1.0 - score;
    }
    let with_prior = !strongly_connected(players, |i, j| scored[i * size + j] > 0.0);
    if with_prior {
        for i in 0..players {
            played[i * size + players] = 1.0;
            scored[i * size + players] = 0.5;
        }
    }
    let total: Vec<f64> = (0..players)
        .map(|i| (0..size).map(|j| scored[i * size + j]).sum())
        .collect();
    // θ of the reference player stays 0; the others are fitted.
    let mut theta = vec![0.0; size];
    let log_likelihood = |theta: &[f64]| {
        let mut l = 0.0;
        for i in 0..players {
            for j in i + 1..size {
                let n = played[i * size + j];
                if n > 0.0 {
                    let (a, b) = (theta[i], theta[j]);
                    let log_sum = a.max(b) + (-(a - b).abs()).exp().ln_1p();
                    l += scored[i * size + j] * a + scored[j * size + i] * b - n * log_sum;
                }
            }
        }
        l
    };
    // The Hessian of −log L over the fitted players, and the gradient of log L.
    let derivatives = |theta: &[f64]| {
        let mut hessian = vec![0.0; players * players];
        let mut gradient = total.clone();
        for i in 0..players {
            for j in 0..size {
                let n = played[i * size + j];
                if j == i || n == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                gradient[i] -= n * p;
                let w = n * p * (1.0 - p);
                hessian[i * players + i] += w;
                if j < players {
                    hessian[i * players + j] -= w;
                }
            }
        }
        (hessian, gradient)
    };
    // Without the prior the likelihood ignores a common shift: fix it by adding the all-ones
    // matrix over n, which leaves the gradient's direction (it sums to zero) unchanged and makes
    // the system invertible (for a Laplacian L with null space the constants,
    // (L + J/n)⁻¹ = L⁺ + J/n).
    let shift_fixed = |mut hessian: Vec<f64>| {
        if !with_prior {
            for h in hessian.iter_mut() {
                *h += 1.0 / players as f64;
            }
        }
        hessian
    };
    let games_total = games.len() as f64 + if with_prior { players as f64 } else { 0.0 };
    for _ in 0..200 {
        let (hessian, gradient) = derivatives(&theta);
        if gradient
            .iter()
            .all(|g| g.abs() <= 1e-12 * games_total.max(1.0))
        {
            break;
        }
        let Some(step) = solve(shift_fixed(hessian), &gradient) else {
            break;
        };
        let before = log_likelihood(&theta);
        let mut scale = 1.0;
        loop {
            let trial: Vec<f64> = theta
                .iter()
                .enumerate()
                .map(|(i, t)| if i < players { t + scale * step[i] } else { *t })
                .collect();
            if log_likelihood(&trial) >= before || scale < 1e-12 {
                theta = trial;
                break;
            }
            scale /= 2.0;
        }
        if step.iter().all(|s| (scale * s).abs() < 1e-14) {
            break;
        }
    }
    let (hessian, _) = derivatives(&theta);
    let inverse = invert(shift_fixed(hessian)).unwrap_or_else(|| vec![0.0; players * players]);
    let covariance = |i: usize, j: usize| {
        inverse[i * players + j]
            - if with_prior {
                0.0
            } else {
                1.0 / players as f64
            }
    };
    let mean = theta[..players].iter().sum::<f64>() / players.max(1) as f64;
    let z = 1.959_963_984_540_054;
    let mut out = BradleyTerry {
        ratings: Vec::with_capacity(players),
        low: Vec::with_capacity(players),
        high: Vec::with_capacity(players),
        with_prior,
        reference: with_prior.then_some(-mean * ELO_PER_NAT),
    };
    let n = players as f64;
    let column_mean: Vec<f64> = (0..players)
        .map(|i| (0..players).map(|j| covariance(i, j)).sum::<f64>() / n)
        .collect();
    let grand_mean = column_mean.iter().sum::<f64>() / n.max(1.0);
    for i in 0..players {
        // Var(θ_i − mean θ) = Σ_ii − 2·mean_j Σ_ij + mean_jk Σ_jk.
        let variance = (covariance(i, i) - 2.0 * column_mean[i] + grand_mean).max(0.0);
        let rating = (theta[i] - mean) * ELO_PER_NAT;
        let half = z * variance.sqrt() * ELO_PER_NAT;
        out.ratings.push(rating);
        out.low.push(rating - half);
        out.high.push(rating + half);
    }
    out
}

/// Whether every player reaches every other along edges `i → j` where `edge(i, j)`.
fn strongly_connected(players: usize, edge: impl Fn(usize, usize) -> bool) -> bool {
    let reaches_all =
        |forward: bool| {
            let mut seen = vec![false; players];
            let mut stack = vec![0];
            while let Some(i) = stack.pop() {
                if std::mem::replace(&mut seen[i], true) {
                    continue;
                }
                stack.extend((0..players).filter(|&j| {
                    j != i && !seen[j] && if forward { edge(i, j) } else { edge(j, i) }
                }));
            }
            seen.iter().all(|s| *s)
        };
    players <= 1 || reaches_all(true) && reaches_all(false)
}

/// Solves `matrix · x = rhs` (row-major, n × n) by Gaussian elimination with partial
/// pivoting; `None` when the matrix is singular.
fn solve(mut matrix: Vec<f64>, rhs: &[f64]) -> Option<Vec<f64>> {
    let n = rhs.len();
    let mut x = rhs.to_vec();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| {
            matrix[a * n + col]
                .abs()
                .total_cmp(&matrix[b * n + col].abs())
        })?;
        if matrix[pivot * n + col].abs() < 1e-300 {
            return None;
        }
        for k in 0..n {
            matrix.swap(col * n + k, pivot * n + k);
        }
        x.swap(col, pivot);
        for row in 0..n {
            if row != col {
                let factor = matrix[row * n + col] / matrix[col * n + col];
                for k in col..n {
                    matrix[row * n + k] -= factor * matrix[col * n + k];
                }
                x[row] -= factor * x[col];
            }
        }
    }
    Some((0..n).map(|i| x[i] / matrix[i * n + i]).collect())
}

/// The inverse of an n × n row-major matrix, column by column.
fn invert(matrix: Vec<f64>) -> Option<Vec<f64>> {
    let n = (matrix.len() as f64).sqrt() as usize;
    let mut inverse = vec![0.0; n * n];
    for col in 0..n {
        let mut unit = vec![0.0; n];
        unit[col] = 1.0;
        let x = solve(matrix.clone(), &unit)?;
        for row in 0..n {
            inverse[row * n + col] = x[row];
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_among_many_differences_ends_the_wilcoxon_test() {
        // More than 25 differences take the normal approximation and its tie count.
        let mut differences: Vec<f64> = (1..=30).map(f64::from).collect();
        differences[3] = f64::NAN;
        let w = wilcoxon_signed_rank(&differences);
        assert_eq!(w.n, 30);
    }

    #[test]
    fn normal_cdf_matches_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
    }

    #[test]
    fn exact_wilcoxon_matches_hand_computed_values() {
        // 1..=6 all positive: W+ = 21, the most extreme of 64 sign patterns on each side.
        let w = wilcoxon_signed_rank(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(w.w_plus, 21.0);
        assert!((w.p_value - 2.0 / 64.0).abs() < 1e-12);
        assert_eq!(w.effect_size, 1.0);
        // Symmetric differences: no evidence at all.
        let w = wilcoxon_signed_rank(&[1.0, -1.0, 2.0, -2.0]);
        assert_eq!(w.p_value, 1.0);
        // Zeros are dropped.
        assert_eq!(wilcoxon_signed_rank(&[0.0, 0.0, 3.0]).n, 1);
        // W- = 11: 49 of the 256 sign patterns reach 11 or less, so p = 2 * 49 / 256.
        let w = wilcoxon_signed_rank(&[1.0, 2.0, -3.0, 4.0, 5.0, 6.0, 7.0, -8.0]);
        assert!((w.p_value - 0.382_812_5).abs() < 1e-9, "{}", w.p_value);
    }

    #[test]
    fn normal_approximation_agrees_with_exact_near_the_switch() {
        let d: Vec<f64> = (1..=25)
            .map(|i| if i % 3 == 0 { -(i as f64) } else { i as f64 })
            .collect();
        let exact = wilcoxon_signed_rank(&d);
        let mut more = d.clone();
        more.push(0.5); // 26 pairs: normal approximation
        let approx = wilcoxon_signed_rank(&more);
        assert!(exact.exact && !approx.exact);
        assert!(
            (exact.p_value - approx.p_value).abs() < 0.05,
            "{} vs {}",
            exact.p_value,
            approx.p_value
        );
    }

    #[test]
    fn a_far_tail_p_value_stays_positive_and_tiny() {
        // 200 differences all of one sign: z ≈ 12.3, p ≈ 1.4e-34, not 0.
        let d: Vec<f64> = (1..=200).map(|i| i as f64).collect();
        let w = wilcoxon_signed_rank(&d);
        assert!(!w.exact);
        assert!(w.p_value > 0.0 && w.p_value < 1e-30, "{}", w.p_value);
    }

    #[test]
    fn wilson_interval_contains_the_rate_and_narrows() {
        let (lo, hi) = wilson_interval(50.0, 100.0);
        assert!(lo < 0.5 && hi > 0.5 && (hi - lo - 0.19).abs() < 0.01);
        let (lo2, hi2) = wilson_interval(500.0, 1000.0);
        assert!(hi2 - lo2 < hi - lo);
        assert_eq!(wilson_interval(0.0, 10.0).0, 0.0);
    }

    /// Games `(a, b, score of a)`: `wins` wins of a over b, then `losses` losses.
    fn record(a: usize, b: usize, wins: usize, losses: usize) -> Vec<(usize, usize, f64)> {
        let mut games = vec![(a, b, 1.0); wins];
        games.extend(vec![(a, b, 0.0); losses]);
        games
    }

    #[test]
    fn bradley_terry_matches_hand_computed_ratings() {
        // Two players, 3 wins to 1: π_A / π_B = 3, a difference of 400·log10(3) ≈ 190.85.
        let bt = bradley_terry(2, &record(0, 1, 3, 1));
        assert!(!bt.with_prior);
        let difference = 400.0 * 3f64.log10();
        assert!((bt.ratings[0] - difference / 2.0).abs() < 1e-9, "{bt:?}");
        assert!((bt.ratings[1] + difference / 2.0).abs() < 1e-9, "{bt:?}");
        // The information of the difference d = θ_A − θ_B is 4 · (3/4)(1/4) = 3/4, and each
        // rating is ±d/2, of variance (4/3)/4 = 1/3 (in nats²).
        let half = 1.959_963_984_540_054 * (1.0f64 / 3.0).sqrt() * ELO_PER_NAT;
        assert!((bt.high[0] - bt.ratings[0] - half).abs() < 1e-6, "{bt:?}");
        assert!((bt.ratings[1] - bt.low[1] - half).abs() < 1e-6, "{bt:?}");
        // Three players whose results fit strengths 4 : 2 : 1 exactly: A scores 2 of 3 against
        // B, B 2 of 3 against C, A 4 of 5 against C. Each score equals its expectation, e.g.
        // A: 3·4/6 + 5·4/5 = 6 = 2 + 4, so those strengths are the maximum; on the Elo scale
        // they are 400·log10(2) ≈ 120.41 apart, the middle one at the mean.
        let mut games = record(0, 1, 2, 1);
        games.extend(record(1, 2, 2, 1));
        games.extend(record(0, 2, 4, 1));
        let bt = bradley_terry(3, &games);
        let step = 400.0 * 2f64.log10();
        for (rating, expected) in bt.ratings.iter().zip([step, 0.0, -step]) {
            assert!((rating - expected).abs() < 1e-9, "{bt:?}");
        }
        // Draws count one half: two draws and nothing else rate both players equally.
        let bt = bradley_terry(2, &[(0, 1, 0.5), (1, 0, 0.5)]);
        assert!(!bt.with_prior);
        assert!(bt.ratings.iter().all(|r| r.abs() < 1e-9), "{bt:?}");
    }

    #[test]
    fn a_player_that_won_every_game_gets_a_finite_rating_from_the_prior() {
        let bt = bradley_terry(
            3,
            &[record(0, 1, 4, 0), record(0, 2, 4, 0), record(1, 2, 2, 2)].concat(),
        );
        assert!(bt.with_prior && bt.reference.is_some());
        for v in [&bt.ratings, &bt.low, &bt.high] {
            assert!(v.iter().all(|r| r.is_finite()), "{bt:?}");
        }
        assert!(
            bt.ratings[0] > 0.0 && bt.ratings[0] > bt.ratings[1] + 100.0,
            "{bt:?}"
        );
        assert!((bt.ratings[1] - bt.ratings[2]).abs() < 1e-9, "{bt:?}");
        for i in 0..3 {
            assert!(
                bt.low[i] < bt.ratings[i] && bt.ratings[i] < bt.high[i],
                "{bt:?}"
            );
        }
        // No games at all, and a player that never played: all prior, all equal.
        let bt = bradley_terry(3, &record(0, 1, 1, 1));
        assert!(
            bt.with_prior && bt.ratings.iter().all(|r| r.abs() < 1e-9),
            "{bt:?}"
        );
        assert!(bt.high[2] - bt.low[2] > bt.high[0] - bt.low[0]);
        let bt = bradley_terry(2, &[]);
        assert!(bt
            .ratings
            .iter()
            .chain(&bt.low)
            .chain(&bt.high)
            .all(|r| r.is_finite()));
        let one = bradley_terry(1, &[]);
        assert_eq!((one.ratings[0], one.low[0], one.high[0]), (0.0, 0.0, 0.0));
    }

    proptest::proptest! {
        /// At the maximum of the likelihood every player's expected score (the sum over its
        /// games of the model's win probability) equals its actual score.
        #[test]
        fn the_fit_reproduces_every_players_score(
            outcomes in proptest::collection::vec((0usize..4, 0usize..3, 0u8..3), 1..60)
        ) {
            let games: Vec<(usize, usize, f64)> = outcomes
                .iter()
                .map(|&(a, d, s)| (a, (a + d + 1) % 4, f64::from(s) / 2.0))
                .collect();
            let bt = bradley_terry(4, &games);
            for player in 0..4 {
                // The virtual draw against the reference counts like any game.
                let (mut actual, mut expected) = match bt.reference {
                    Some(reference) => (0.5, expected_score(bt.ratings[player], reference)),
                    None => (0.0, 0.0),
                };
                for &(a, b, s) in &games {
                    if a == player {
                        actual += s;
                        expected += expected_score(bt.ratings[a], bt.ratings[b]);
                    } else if b == player {
                        actual += 1.0 - s;
                        expected += expected_score(bt.ratings[b], bt.ratings[a]);
                    }
                }
                proptest::prop_assert!(
                    (actual - expected).abs() < 1e-6,
                    "player {player}: {actual} vs {expected}, {bt:?}"
                );
                for v in [bt.ratings[player], bt.low[player], bt.high[player]] {
                    proptest::prop_assert!(v.is_finite());
                }
            }
        }
    }
}
