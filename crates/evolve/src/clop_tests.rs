//! CLOP's tests: the model's fit, the seeded path, the bounds and the recommendation.

use super::*;

/// `n` games at uniform points of [0, 1]^dims scored from the model `truth`, a tenth of
/// them draws (the expected score stays P(win | x)): (points, scores).
fn simulate(truth: &Quadratic, n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let d = truth.dims;
    let (mut points, mut scores) = (Vec::with_capacity(n * d), Vec::with_capacity(n));
    for _ in 0..n {
        let x: Vec<f64> = (0..d).map(|_| rng.gen::<f64>()).collect();
        let p = truth.probability(&x);
        let draw = 0.1f64.min(2.0 * p).min(2.0 * (1.0 - p));
        let u = rng.gen::<f64>();
        scores.push(if u < draw {
            0.5
        } else if u < draw + p - draw / 2.0 {
            1.0
        } else {
            0.0
        });
        points.extend(x);
    }
    (points, scores)
}

/// From 40,000 simulated games (10% draws), the fit recovers the coefficients of a 1-D and
/// a 2-D quadratic logistic model to within 0.15 each (several standard errors; a sign
/// flipped in the gradient or the Hessian sends the fit elsewhere).
#[test]
fn the_regression_recovers_known_coefficients() {
    let cases: [&[f64]; 2] = [&[0.3, -0.8, -1.5], &[0.2, 0.5, -0.4, -1.2, 0.6, -0.9]];
    for (i, beta) in cases.iter().enumerate() {
        let truth = Quadratic::new(i + 1, beta).unwrap();
        let n = 40_000;
        let (points, scores) = simulate(&truth, n, 11 + i as u64);
        let fit = Quadratic::fit(i + 1, &points, &scores, &vec![1.0; n], 0.01).unwrap();
        for (k, (b, f)) in beta.iter().zip(fit.coefficients()).enumerate() {
            assert!(
                (b - f).abs() < 0.15,
                "dims {}, coefficient {k}: fitted {f}, true {b} ({:?})",
                i + 1,
                fit.coefficients()
            );
        }
    }
}

/// Without a ridge, games all at one point leave the quadratic unidentified: the fit says
/// so, and CLOP neither panics nor moves its recommendation off that point.
#[test]
fn a_singular_design_is_refused_and_survived() {
    let n = 100;
    let points = vec![0.25; n];
    let scores: Vec<f64> = (0..n).map(|i| (i % 2) as f64).collect();
    assert_eq!(
        Quadratic::fit(1, &points, &scores, &vec![1.0; n], 0.0),
        None
    );
    let settings = Settings {
        ridge: 0.0,
        ..Settings::default()
    };
    let mut clop = Clop::new(1, 5, settings).unwrap();
    for (x, s) in points.iter().zip(&scores) {
        clop.observe(&[*x], *s);
    }
    assert!(clop.model().is_none());
    assert_eq!(clop.recommend(), vec![0.25]);
    let x = clop.next_point();
    assert!((0.0..=1.0).contains(&x[0]));
}

/// 400 games on a peaked landscape: the points played and the recommendation.
fn path(seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
    let truth = Quadratic::new(2, &[0.2, 0.5, -0.4, -3.0, 0.6, -2.0]).unwrap();
    let mut games = Pcg64Mcg::seed_from_u64(99);
    let mut clop = Clop::new(2, seed, Settings::default()).unwrap();
    let mut points = Vec::new();
    for _ in 0..400 {
        let x = clop.next_point();
        let win = games.gen::<f64>() < truth.probability(&x);
        clop.observe(&x, if win { 1.0 } else { 0.0 });
        points.push(x);
    }
    (points, clop.recommend())
}

/// The same seed and outcomes give the same points and recommendation; another seed
/// other points.
#[test]
fn the_same_seed_gives_the_same_path() {
    let (a, b, c) = (path(7), path(7), path(8));
    assert_eq!(a, b);
    assert_ne!(a.0, c.0);
    assert!(a.0.iter().flatten().all(|x| (0.0..=1.0).contains(x)));
}

/// On a broad peak at 0.82 (log-odds logit(0.56) − 6 (x − 0.82)²), after 2,000 games the
/// upper bound cuts the region of full weight in at least 6 of 8 runs, and in those the
/// recommendation (the model's peak there) loses less log-odds in all than the weighted
/// mean, which the part of the region missing beyond the bound pulls towards the middle.
#[test]
fn a_region_cut_by_a_bound_is_recentred_on_the_models_peak() {
    // In z = 2x − 1: −6 ((z + 1)/2 − 0.82)² = −1.5 z² + 1.92 z − 0.6144.
    let truth = Quadratic::new(1, &[(0.56f64 / 0.44).ln() - 0.6144, 1.92, -1.5]).unwrap();
    let loss = |x: f64| truth.value(&[0.82]) - truth.value(&[x]);
    let (mut recommended, mut mean, mut cut) = (0.0, 0.0, 0);
    for seed in 1..9 {
        let mut games = Pcg64Mcg::seed_from_u64(100 + seed);
        let mut clop = Clop::new(1, seed, Settings::default()).unwrap();
        for _ in 0..2_000 {
            let x = clop.next_point();
            let win = games.gen::<f64>() < truth.probability(&x);
            clop.observe(&x, if win { 1.0 } else { 0.0 });
        }
        let m = clop.weighted_mean(|x| x[0]);
        match clop.cut_by(&[m], 0) {
            Some(Bound::High) => {
                cut += 1;
                recommended += loss(clop.recommend()[0]);
                mean += loss(m);
            }
            None => assert_eq!(clop.recommend(), vec![m]),
            Some(Bound::Low) => panic!("seed {seed}: cut by the lower bound"),
        }
    }
    assert!(cut >= 6, "{cut} of 8 runs cut by the upper bound");
    assert!(
        recommended < mean,
        "log-odds lost: recommended {recommended}, weighted mean {mean}"
    );
}

/// Outside 1 to 4 parameters CLOP refuses, naming the count.
#[test]
fn dimensions_outside_one_to_four_are_refused() {
    for d in [0, 5] {
        let e = Clop::new(d, 1, Settings::default()).unwrap_err();
        assert_eq!(e, ClopError::Dims(d));
        assert!(e.to_string().contains(&d.to_string()));
    }
    assert!(Clop::new(4, 1, Settings::default()).is_ok());
}
