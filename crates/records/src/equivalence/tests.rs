//! The t distribution against closed forms and high-precision values, TOST on a hand-checked
//! sample and its edge cases, and its size and power by simulation.

use super::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Relative (or, near 0, absolute) closeness.
fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(1e-300) || (a - b).abs() <= tolerance * 1e-3
}

#[test]
fn student_t_matches_closed_forms_for_one_and_two_degrees_of_freedom() {
    // df = 1 (Cauchy): F(t) = 1/2 + atan(t)/π; df = 2: F(t) = 1/2 + t/(2√(2 + t²)).
    for i in -60..=60 {
        let t = f64::from(i) / 4.0;
        let cauchy = 0.5 + t.atan() / std::f64::consts::PI;
        let two = 0.5 + t / (2.0 * (2.0 + t * t).sqrt());
        assert!(close(student_t_cdf(t, 1.0), cauchy, 1e-12), "t {t}");
        assert!(close(student_t_cdf(t, 2.0), two, 1e-12), "t {t}");
    }
}

#[test]
fn student_t_matches_table_values() {
    // Upper tails, by mpmath's betainc at 30 digits (the first is the textbook 0.036694).
    let upper = [
        (2.0, 10.0, 0.036_694_017_385_370_18),
        (3.5, 4.0, 0.012_448_081_730_111_376),
        (40.0, 3.0, 1.719_034_039_457_926_4e-5),
        (0.3, 1e6, 0.382_088_608_989_497_1),
        (5.0, 200.0, 6.250_990_638_857_697e-7),
        (1.0, 0.5, 0.301_121_610_841_322_1),
        (0.1, 30.0, 0.460_504_805_895_135_6),
    ];
    for (t, df, p) in upper {
        assert!(
            close(student_t_sf(t, df), p, 1e-9),
            "t {t} df {df}: {}",
            student_t_sf(t, df)
        );
    }
    assert!(close(
        student_t_cdf(-1.3, 7.5),
        1.0 - 0.883_936_610_592_195_6,
        1e-9
    ));
    assert!(close(
        student_t_sf(-1.3, 7.5),
        0.883_936_610_592_195_6,
        1e-12
    ));
    let quantiles = [
        (0.975, 10.0, 2.228_138_851_986_274_2),
        (0.95, 10.0, 1.812_461_122_811_675_9),
        (0.95, 399.0, 1.648_681_533_555_425_2),
        (0.975, 30.0, 2.042_272_456_301_237_9),
    ];
    for (p, df, t) in quantiles {
        let q = student_t_quantile(p, df);
        assert!(close(q, t, 1e-9), "p {p} df {df}: {q}");
        assert!(close(student_t_quantile(1.0 - p, df), -t, 1e-9));
    }
    assert_eq!(student_t_quantile(0.5, 3.0), 0.0);
    assert_eq!(student_t_sf(f64::INFINITY, 3.0), 0.0);
    assert_eq!(student_t_cdf(f64::INFINITY, 3.0), 1.0);
}

#[test]
fn tost_matches_a_hand_checked_sample() {
    // Computed with mpmath at 30 digits from the formulas of the module comment.
    let d = [0.1, -0.05, 0.2, 0.0, 0.05, 0.15, -0.1, 0.1];
    let r = tost(&d, 0.2, 0.05).unwrap();
    assert_eq!(r.n, 8);
    assert!(close(r.mean, 0.056_25, 1e-12));
    assert!(close(r.sd, 0.101_550_480_057_949_5, 1e-12));
    assert!(close(r.p_lower, 9.372_468_438_345_944e-5, 1e-8), "{r:?}");
    assert!(close(r.p_upper, 0.002_582_483_434_403_678_3, 1e-8), "{r:?}");
    assert_eq!(r.p_tost, r.p_upper);
    assert!(close(r.p_two_sided, 0.161_168_495_281_463_5, 1e-8), "{r:?}");
    assert!(close(r.low, -0.011_772_034_285_813_622, 1e-8), "{r:?}");
    assert!(close(r.high, 0.124_272_034_285_813_62, 1e-8), "{r:?}");
    assert_eq!(r.verdict, Verdict::Equivalent);
    // A margin the interval reaches past: not equivalent, and not different either.
    let r = tost(&d, 0.1, 0.05).unwrap();
    assert_eq!(r.verdict, Verdict::Undecided);
    // Shifted well away from 0, with the same spread: different.
    let shifted: Vec<f64> = d.iter().map(|x| x + 0.3).collect();
    assert_eq!(
        tost(&shifted, 0.1, 0.05).unwrap().verdict,
        Verdict::Different
    );
    // A small but real difference inside a wide margin is equivalent, and says it is real.
    let r = tost(&shifted, 1.0, 0.05).unwrap();
    assert_eq!(r.verdict, Verdict::Equivalent);
    assert!(r.p_two_sided < 0.05);
}

#[test]
fn equivalence_is_the_interval_strictly_inside_the_margin() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for case in 0..500 {
        let n = rng.gen_range(2..40);
        let shift = rng.gen_range(-0.3..0.3);
        let d: Vec<f64> = (0..n).map(|_| shift + rng.gen_range(-0.5..0.5)).collect();
        let margin = rng.gen_range(0.01..0.5);
        let r = tost(&d, margin, 0.05).unwrap();
        let inside = r.low > -margin && r.high < margin;
        // Away from the boundary (where rounding may decide), the two rules agree.
        let clear = (r.low + margin).abs() > 1e-9 && (r.high - margin).abs() > 1e-9;
        if clear {
            assert_eq!(
                r.verdict == Verdict::Equivalent,
                inside,
                "case {case}: {r:?}"
            );
        }
        assert!(r.p_lower <= 1.0 && r.p_upper <= 1.0 && r.p_tost == r.p_lower.max(r.p_upper));
    }
}

#[test]
fn few_pairs_and_identical_pairs_give_defined_answers() {
    for d in [&[][..], &[0.01]] {
        let r = tost(d, 0.1, 0.05).unwrap();
        assert_eq!(
            (r.verdict, r.p_tost, r.p_two_sided),
            (Verdict::Undecided, 1.0, 1.0)
        );
        assert!(r.low == f64::NEG_INFINITY && r.high == f64::INFINITY && r.sd == 0.0);
    }
    // Zero variance: equivalent iff strictly within the margin, else different.
    let constant = |c: f64| tost(&[c; 5], 0.1, 0.05).unwrap();
    let r = constant(0.05);
    assert_eq!(
        (r.verdict, r.p_tost, r.low, r.high),
        (Verdict::Equivalent, 0.0, 0.05, 0.05)
    );
    assert_eq!(constant(0.0).verdict, Verdict::Equivalent);
    assert_eq!(constant(0.0).p_two_sided, 1.0);
    assert_eq!(constant(0.1).verdict, Verdict::Different);
    assert_eq!(constant(-0.1).verdict, Verdict::Different);
    assert_eq!(constant(-0.3).verdict, Verdict::Different);
    assert_eq!(constant(0.1).p_upper, 1.0);
    for c in [0.0, 0.05, 0.1, -0.3] {
        let r = constant(c);
        for v in [
            r.mean,
            r.sd,
            r.p_lower,
            r.p_upper,
            r.p_two_sided,
            r.low,
            r.high,
        ] {
            assert!(!v.is_nan(), "{r:?}");
        }
    }
}

#[test]
fn bad_arguments_are_refused_by_name() {
    assert_eq!(tost(&[0.0, 1.0], 0.0, 0.05), Err(TostError::Margin(0.0)));
    assert!(matches!(
        tost(&[0.0, 1.0], f64::NAN, 0.05),
        Err(TostError::Margin(_))
    ));
    assert_eq!(tost(&[0.0, 1.0], 0.1, 0.5), Err(TostError::Alpha(0.5)));
    assert_eq!(tost(&[0.0, 1.0], 0.1, 0.0), Err(TostError::Alpha(0.0)));
    assert!(matches!(
        tost(&[0.0, f64::INFINITY], 0.1, 0.05),
        Err(TostError::Difference { index: 1, .. })
    ));
    assert_eq!(
        tost(&[1e308, 1e308, -1e308], 0.1, 0.05),
        Err(TostError::Overflow)
    );
    let message = tost(&[0.0, f64::NAN], 0.1, 0.05).unwrap_err().to_string();
    assert!(
        message.contains("difference 1") && message.contains("finite"),
        "{message}"
    );
}

/// The mean of two independent games, each won, drawn or lost (difference 1, 0, −1) with
/// probabilities `win`, `draw` and the rest: a seed pair's difference when the two seatings
/// do not share more than chance.
pub(crate) fn pair_of_games(rng: &mut Pcg64Mcg, win: f64, draw: f64) -> f64 {
    let mut game = || {
        let u: f64 = rng.gen();
        if u < win {
            1.0
        } else if u < win + draw {
            0.0
        } else {
            -1.0
        }
    };
    (game() + game()) / 2.0
}

/// The fraction of `runs` samples of `n` pairs on which `tost` says `Equivalent`, and the
/// fraction on which the two-sided test fails to reject (what "no significant difference"
/// would call a tie).
fn equivalence_rates(seed: u64, runs: usize, n: usize, win: f64, draw: f64) -> (f64, f64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let (mut equivalent, mut not_different) = (0, 0);
    let mut d = vec![0.0; n];
    for _ in 0..runs {
        d.iter_mut()
            .for_each(|x| *x = pair_of_games(&mut rng, win, draw));
        let r = tost(&d, 0.1, 0.05).unwrap();
        equivalent += usize::from(r.verdict == Verdict::Equivalent);
        not_different += usize::from(r.p_two_sided >= 0.05);
    }
    (
        equivalent as f64 / runs as f64,
        not_different as f64 / runs as f64,
    )
}

#[test]
fn tost_has_power_at_zero_and_size_alpha_at_the_margin() {
    // 2000 runs; 3 standard errors of a rate of 0.05 over them is 0.0146.
    let runs = 2000;
    let slack = 3.0 * (0.05f64 * 0.95 / runs as f64).sqrt();
    // True mean 0 (each game uniform on win, draw, loss), margin 0.1, 400 pairs.
    let (power, _) = equivalence_rates(1, runs, 400, 1.0 / 3.0, 1.0 / 3.0);
    crate::note!("TOST power at mean 0, margin 0.1, 400 pairs: {power} over {runs} runs");
    assert!(power > 0.8, "{power}");
    // True mean at the margin (win 0.4, draw 0.3, loss 0.3: mean 0.1): at most α equivalent.
    for n in [50, 400] {
        let (size, tie) = equivalence_rates(2 + n as u64, runs, n, 0.4, 0.3);
        crate::note!(
            "TOST at mean = margin 0.1, {n} pairs: equivalent {size}, not different {tie}"
        );
        assert!(size <= 0.05 + slack, "{n} pairs: {size}");
        // Reading "no significant difference" as a tie would call these equal most of the
        // time with 50 pairs, though they differ by the whole margin.
        if n == 50 {
            assert!(tie > 0.5, "{tie}");
        }
    }
}
