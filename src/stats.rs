//! Statistics for paired game results (leagues, validation, replication): the Wilcoxon signed-rank test (exact for up to 25 non-zero
//! pairs, normal approximation with tie and continuity corrections beyond), the rank-biserial
//! effect size, and Wilson score intervals for win rates.

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
        let j = sorted[i..].iter().take_while(|v| **v == sorted[i]).count();
        tie_term += (j * j * j - j) as f64;
        i += j;
    }
    let var = (n * (n + 1) * (2 * n + 1)) as f64 / 24.0 - tie_term / 48.0;
    let diff = w_plus - mean;
    let z = (diff.abs() - 0.5).max(0.0) / var.sqrt();
    let p_value = (2.0 * (1.0 - normal_cdf(z))).min(1.0);
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn wilson_interval_contains_the_rate_and_narrows() {
        let (lo, hi) = wilson_interval(50.0, 100.0);
        assert!(lo < 0.5 && hi > 0.5 && (hi - lo - 0.19).abs() < 0.01);
        let (lo2, hi2) = wilson_interval(500.0, 1000.0);
        assert!(hi2 - lo2 < hi - lo);
        assert_eq!(wilson_interval(0.0, 10.0).0, 0.0);
    }
}
