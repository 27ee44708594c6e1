//! The simulated comparison of tuners: synthetic win-probability landscapes with known optima,
//! games as seeded random outcomes, and the regret of each method's recommendation at an equal
//! number of games.
//!
//! - A [`Problem`] is p(x), the expected score of a game at x ∈ [0, 1]^d, with its optimum's
//!   value; a game scores 1, ½ or 0: a draw with probability min(draws, 2p, 2(1 − p)), else a
//!   win with the probability that makes the expected score exactly p.
//! - The regret of a recommendation r is p(x*) − p(r), in expected score per game.
//! - The methods ([`Method`]) each get the same number of games: CLOP ([`crate::clop`]) with
//!   its default settings; SPSA as `evomcts tune` runs it (`spsa::Spsa`, two one-game
//!   evaluations per step scored as the tune crate scores them, the score difference 2s − 1;
//!   gains a = 0.1, c = 0.1, A a tenth of the steps, Spall's exponents; start at the centre),
//!   recommending either its last iterate or the tune crate's pessimistic choice
//!   (`recommend::recommend`, four blocks); and a grid of 11 points per dimension (0, 0.1 … 1),
//!   the games dealt round-robin, recommending the point of best mean score (the first in
//!   order on ties).
//!
//! Guarantees: a run is a pure function of the method, the problem, the games and the seed (the
//! outcomes come from one `Pcg64Mcg` derived from the seed, the optimiser's own randomness from
//! the seed itself); no file I/O, no games played.

use crate::clop::{Clop, Settings};
use crate::recommend::recommend;
use crate::spsa::{Gains, Spsa};
use evomcts_records::runfs::derive_seed;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Domain tag of the simulated games' outcomes ("regretgm" in ASCII).
const GAMES_DOMAIN: u64 = 0x7265_6772_6574_676d;

/// Points per dimension of the grid.
pub const GRID_POINTS: usize = 11;

/// A synthetic landscape.
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    pub name: &'static str,
    pub dims: usize,
    /// p(x), the expected score at x.
    pub p: fn(&[f64]) -> f64,
    /// p(x*), the optimum's value.
    pub best: f64,
    /// The share of games drawn (where p allows it).
    pub draws: f64,
}

fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

fn logistic(q: f64) -> f64 {
    1.0 / (1.0 + (-q).exp())
}

fn flat(_: &[f64]) -> f64 {
    0.5
}

/// Optimum of `sharp`, off the grid's points (0.03 from 0.4).
pub const SHARP_OPTIMUM: f64 = 0.37;

fn sharp(x: &[f64]) -> f64 {
    logistic(logit(0.6) - 50.0 * (x[0] - SHARP_OPTIMUM).powi(2))
}

fn bound(x: &[f64]) -> f64 {
    0.4 + 0.2 * x[0]
}

/// Optimum of `tilted`.
pub const TILTED_OPTIMUM: [f64; 2] = [0.7, 0.25];

fn tilted(x: &[f64]) -> f64 {
    let (u, v) = (x[0] - TILTED_OPTIMUM[0], x[1] - TILTED_OPTIMUM[1]);
    logistic(logit(0.6) - 8.0 * u * u - 16.0 * v * v + 6.0 * u * v)
}

fn broad(x: &[f64]) -> f64 {
    logistic(logit(0.56) - 6.0 * (x[0] - 0.82).powi(2))
}

fn low_bound(x: &[f64]) -> f64 {
    0.62 - 0.25 * x[0]
}

fn cusp(x: &[f64]) -> f64 {
    0.5 + 0.08 * (-((x[0] - 0.3).abs() + (x[1] - 0.6).abs()) / 0.25).exp()
}

/// Problems written after CLOP's settings were chosen on [`PROBLEMS`], and used to choose
/// nothing until CLOP lost on (a): the recommendation in a region cut by a bound was then
/// changed (the model's peak, `Clop::best_along`) with these problems in view, so they are
/// held out no longer, and [`HELD_OUT_2`] was written. (a) A broad peak near the top of the
/// range, log-odds logit(0.56) − 6 (x − 0.82)², 30% draws; (b) the optimum at the lower bound,
/// p = 0.62 − 0.25 x, 20% draws; (c) a cusp in two dimensions that no quadratic fits,
/// p = 0.5 + 0.08 exp(−(|x − 0.3| + |y − 0.6|)/0.25).
pub const HELD_OUT: [Problem; 3] = [
    Problem {
        name: "broad (held out)",
        dims: 1,
        p: broad,
        best: 0.56,
        draws: 0.3,
    },
    Problem {
        name: "low bound (held out)",
        dims: 1,
        p: low_bound,
        best: 0.62,
        draws: 0.2,
    },
    Problem {
        name: "cusp-2d (held out)",
        dims: 2,
        p: cusp,
        best: 0.58,
        draws: 0.0,
    },
];

fn broad_low(x: &[f64]) -> f64 {
    0.5 + 0.06 * (-((x[0] - 0.15) / 0.4).powi(2)).exp()
}

fn skewed(x: &[f64]) -> f64 {
    let width = if x[0] < 0.6 { 0.25 } else { 0.08 };
    0.5 + 0.07 * (-(x[0] - 0.6).powi(2) / (2.0 * width * width)).exp()
}

fn ridge(x: &[f64]) -> f64 {
    let (u, v) = (x[0] - 0.6, x[1] - 0.5);
    0.5 + 0.08 * (-(12.0 * (u - v).powi(2) + 1.5 * (u + v).powi(2))).exp()
}

/// Problems written after CLOP's recommendation was changed to fix its regret on the held-out
/// broad peak (once [`HELD_OUT`] had been looked at), before the changed CLOP was run on them,
/// and used for nothing else; none is a quadratic in log-odds, the model's own family:
/// (a) a broad peak near the lower bound, p = 0.5 + 0.06 exp(−((x − 0.15)/0.4)²), 25% draws;
/// (b) a skewed peak, p = 0.5 + 0.07 exp(−(x − 0.6)²/2σ²) with σ = 0.25 below 0.6 and 0.08
/// above, 20% draws; (c) a broad ridge in two dimensions along the diagonal through
/// (0.6, 0.5), p = 0.5 + 0.08 exp(−(12 (u − v)² + 1.5 (u + v)²)) with u = x − 0.6,
/// v = y − 0.5, 10% draws.
pub const HELD_OUT_2: [Problem; 3] = [
    Problem {
        name: "broad low (held out 2)",
        dims: 1,
        p: broad_low,
        best: 0.56,
        draws: 0.25,
    },
    Problem {
        name: "skewed (held out 2)",
        dims: 1,
        p: skewed,
        best: 0.57,
        draws: 0.2,
    },
    Problem {
        name: "ridge-2d (held out 2)",
        dims: 2,
        p: ridge,
        best: 0.58,
        draws: 0.1,
    },
];

/// The problems of the comparison: (a) flat, p = ½ everywhere; (b) a sharp peak, log-odds
/// logit(0.6) − 50 (x − 0.37)², 10% draws; (c) the optimum at the bound, p = 0.4 + 0.2 x;
/// (d) a tilted two-dimensional peak at (0.7, 0.25), log-odds logit(0.6) − 8u² − 16v² + 6uv.
pub const PROBLEMS: [Problem; 4] = [
    Problem {
        name: "flat",
        dims: 1,
        p: flat,
        best: 0.5,
        draws: 0.0,
    },
    Problem {
        name: "sharp",
        dims: 1,
        p: sharp,
        best: 0.6,
        draws: 0.1,
    },
    Problem {
        name: "bound",
        dims: 1,
        p: bound,
        best: 0.6,
        draws: 0.0,
    },
    Problem {
        name: "tilted-2d",
        dims: 2,
        p: tilted,
        best: 0.6,
        draws: 0.0,
    },
];

impl Problem {
    /// One game's score at `x`.
    pub fn play(&self, x: &[f64], rng: &mut Pcg64Mcg) -> f64 {
        let p = (self.p)(x);
        let draw = self.draws.min(2.0 * p).min(2.0 * (1.0 - p));
        let u = rng.gen::<f64>();
        if u < draw {
            0.5
        } else if u < draw + (p - draw / 2.0) {
            1.0
        } else {
            0.0
        }
    }

    /// p(x*) − p(r).
    pub fn regret(&self, r: &[f64]) -> f64 {
        self.best - (self.p)(r)
    }
}

/// A tuner compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Clop,
    /// SPSA's last iterate.
    SpsaLast,
    /// SPSA with the tune crate's pessimistic recommendation.
    SpsaRecommended,
    Grid,
}

/// Every method, in the order of the report.
pub const METHODS: [Method; 4] = [
    Method::Clop,
    Method::SpsaLast,
    Method::SpsaRecommended,
    Method::Grid,
];

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Clop => "CLOP",
            Method::SpsaLast => "SPSA (last iterate)",
            Method::SpsaRecommended => "SPSA (tune's recommendation)",
            Method::Grid => "grid (11 points per dimension)",
        }
    }
}

/// The games' random outcomes of run `seed`.
fn outcomes(seed: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(derive_seed(seed, &[GAMES_DOMAIN]))
}

/// CLOP's recommendation after `games` games.
pub fn run_clop(problem: &Problem, games: usize, seed: u64, settings: Settings) -> Clop {
    let mut rng = outcomes(seed);
    let mut clop = Clop::new(problem.dims, seed, settings).expect("a problem of 1 to 4 dimensions");
    for _ in 0..games {
        let x = clop.next_point();
        let s = problem.play(&x, &mut rng);
        clop.observe(&x, s);
    }
    clop
}

/// SPSA's (last iterate, tune's recommendation) after `games` games (two a step).
fn run_spsa(problem: &Problem, games: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = outcomes(seed);
    let steps = games / 2;
    let gains = Gains::spall(0.1, 0.1, steps as f64 / 10.0);
    let mut spsa = Spsa::new(gains, seed, vec![0.5; problem.dims]);
    let (mut iterates, mut values) = (Vec::with_capacity(steps), Vec::with_capacity(steps));
    for _ in 0..steps {
        let probe = spsa.probe();
        let plus = 2.0 * problem.play(&probe.plus, &mut rng) - 1.0;
        let minus = 2.0 * problem.play(&probe.minus, &mut rng) - 1.0;
        iterates.push(spsa.x.clone());
        values.push((plus + minus) / 2.0);
        spsa.update(&probe, plus, minus);
    }
    let (candidates, chosen) = recommend(&iterates, &values, 4);
    let recommended = candidates
        .get(chosen)
        .map_or_else(|| spsa.x.clone(), |c| c.x.clone());
    (spsa.x, recommended)
}

/// The grid's point `cell` (the first coordinate varying slowest).
fn grid_point(cell: usize, dims: usize) -> Vec<f64> {
    let step = 1.0 / (GRID_POINTS - 1) as f64;
    (0..dims)
        .map(|k| {
            let index = cell / GRID_POINTS.pow((dims - 1 - k) as u32) % GRID_POINTS;
            index as f64 * step
        })
        .collect()
}

/// The grid's recommendation after `games` games dealt round-robin.
fn run_grid(problem: &Problem, games: usize, seed: u64) -> Vec<f64> {
    let mut rng = outcomes(seed);
    let cells = GRID_POINTS.pow(problem.dims as u32);
    let points: Vec<Vec<f64>> = (0..cells).map(|c| grid_point(c, problem.dims)).collect();
    let mut totals = vec![(0.0, 0usize); cells];
    for g in 0..games {
        let t = &mut totals[g % cells];
        t.0 += problem.play(&points[g % cells], &mut rng);
        t.1 += 1;
    }
    let mean = |(sum, n): (f64, usize)| {
        if n == 0 {
            f64::NEG_INFINITY
        } else {
            sum / n as f64
        }
    };
    let mut best = 0;
    for c in 1..cells {
        if mean(totals[c]) > mean(totals[best]) {
            best = c;
        }
    }
    points[best].clone()
}

/// `method`'s recommendation on `problem` after `games` games of run `seed`.
pub fn recommendation(method: Method, problem: &Problem, games: usize, seed: u64) -> Vec<f64> {
    match method {
        Method::Clop => run_clop(problem, games, seed, Settings::default()).recommend(),
        Method::SpsaLast => run_spsa(problem, games, seed).0,
        Method::SpsaRecommended => run_spsa(problem, games, seed).1,
        Method::Grid => run_grid(problem, games, seed),
    }
}

/// A mean regret over runs, with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regret {
    pub mean: f64,
    pub se: f64,
    pub runs: usize,
}

impl Regret {
    /// The mean and standard error of `regrets`.
    pub fn of(regrets: &[f64]) -> Regret {
        let n = regrets.len();
        let mean = regrets.iter().sum::<f64>() / n.max(1) as f64;
        let var = regrets.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n.max(2) - 1) as f64;
        Regret {
            mean,
            se: (var / n.max(1) as f64).sqrt(),
            runs: n,
        }
    }
}

/// The mean regret of `method` on `problem` after `games` games, over runs of seeds `seeds`.
pub fn mean_regret(
    method: Method,
    problem: &Problem,
    games: usize,
    seeds: std::ops::Range<u64>,
) -> Regret {
    let regrets: Vec<f64> = seeds
        .map(|s| problem.regret(&recommendation(method, problem, games, s)))
        .collect();
    Regret::of(&regrets)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each method's mean regret on `problem` after `games` games, over seeds `seeds`.
    fn regrets(problem: &Problem, games: usize, seeds: std::ops::Range<u64>) -> Vec<Regret> {
        METHODS
            .iter()
            .map(|&m| mean_regret(m, problem, games, seeds.clone()))
            .collect()
    }

    /// Asserts CLOP's mean regret is at most every other method's on `problem` plus `margin`
    /// standard errors of the difference (√(se₁² + se₂²)), the numbers in the message.
    fn assert_clop_no_worse(
        problem: &Problem,
        games: usize,
        seeds: std::ops::Range<u64>,
        margin: f64,
    ) {
        let r = regrets(problem, games, seeds.clone());
        let table: Vec<String> = METHODS
            .iter()
            .zip(&r)
            .map(|(m, r)| format!("{}: {:.4} ± {:.4}", m.name(), r.mean, r.se))
            .collect();
        for (m, other) in METHODS.iter().zip(&r).skip(1) {
            assert!(
                r[0].mean <= other.mean + margin * r[0].se.hypot(other.se),
                "{}, {games} games, seeds {seeds:?}: CLOP's mean regret exceeds {}'s by more \
                 than {margin} standard errors ({})",
                problem.name,
                m.name(),
                table.join("; ")
            );
        }
    }

    /// On every problem of [`PROBLEMS`] and [`HELD_OUT`], CLOP's mean regret after 2,000 games
    /// over 8 seeds is at most SPSA's (either recommendation) and the grid's, within two
    /// standard errors of the difference: eight seeds cannot rank close means (at the bound
    /// CLOP's regret is heavy-tailed: most runs have none, a few miss by about 0.4), so this
    /// catches a tuner clearly worse (`a_tuner_recommending_the_worst_fails_the_comparison`),
    /// and `the_regret_table` ranks the means strictly over 100 seeds. On the flat problem
    /// every regret is 0.
    #[test]
    fn clop_regret_is_at_most_spsas_and_the_grids() {
        for problem in PROBLEMS.iter().chain(&HELD_OUT) {
            assert_clop_no_worse(problem, 2_000, 1..9, 2.0);
        }
    }

    fn inverted_sharp(x: &[f64]) -> f64 {
        1.0 - (PROBLEMS[1].p)(x)
    }

    /// The comparison above can fail: CLOP with the sign of its scores flipped (tuning on
    /// 1 − p, so it maximises losses: as a flipped sign in the fit or the weights would) has a
    /// larger regret on the sharp peak than SPSA and the grid by more than the two standard
    /// errors of the comparison, over 8 seeds.
    #[test]
    fn a_tuner_recommending_the_worst_fails_the_comparison() {
        let sharp = &PROBLEMS[1];
        let inverted = Problem {
            p: inverted_sharp,
            ..*sharp
        };
        let regrets: Vec<f64> = (1..9)
            .map(|s| sharp.regret(&run_clop(&inverted, 2_000, s, Settings::default()).recommend()))
            .collect();
        let broken = Regret::of(&regrets);
        for m in &METHODS[1..] {
            let other = mean_regret(*m, sharp, 2_000, 1..9);
            assert!(
                broken.mean > other.mean + 2.0 * broken.se.hypot(other.se),
                "the broken tuner's regret {:.4} is not above {}'s {:.4}",
                broken.mean,
                m.name(),
                other.mean
            );
        }
    }

    /// On a flat landscape (p = ½) every method's regret is exactly 0 and its recommendation
    /// stays in [0, 1]; CLOP's, the weighted mean of near-uniform samples, stays near the
    /// centre (within 0.2 of 0.5; its weights stay near 1 as no point is confidently worse).
    #[test]
    fn flat_landscapes_keep_the_recommendation_inside() {
        let flat = &PROBLEMS[0];
        for seed in 1..4 {
            for m in METHODS {
                let r = recommendation(m, flat, 1_000, seed);
                assert!(
                    r.iter().all(|x| (0.0..=1.0).contains(x)),
                    "{}: {r:?}",
                    m.name()
                );
                assert_eq!(flat.regret(&r), 0.0);
            }
            let r = recommendation(Method::Clop, flat, 1_000, seed);
            assert!(
                (r[0] - 0.5).abs() < 0.2,
                "seed {seed}: CLOP recommends {r:?}"
            );
        }
    }

    /// Each problem's `best` is its maximum: no point of a grid of 1,001 points a dimension (101
    /// in two) scores above it, and the best of them is within 1e-4 of it.
    #[test]
    fn each_problems_best_is_its_maximum() {
        for problem in PROBLEMS.iter().chain(&HELD_OUT).chain(&HELD_OUT_2) {
            let n: usize = if problem.dims == 1 { 1_001 } else { 101 };
            let top = (0..n.pow(problem.dims as u32))
                .map(|c| {
                    let x: Vec<f64> = (0..problem.dims)
                        .map(|k| (c / n.pow(k as u32) % n) as f64 / (n - 1) as f64)
                        .collect();
                    (problem.p)(&x)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                top <= problem.best + 1e-12 && top > problem.best - 1e-4,
                "{}: the grid's best {top}, the problem's {}",
                problem.name,
                problem.best
            );
        }
    }

    /// A game's expected score is p, draws or not: over 40,000 games at a point of the sharp
    /// problem (10% draws) the mean score is within 4 standard errors of p and about a tenth
    /// of the games are drawn.
    #[test]
    fn games_score_p_on_average() {
        let sharp = &PROBLEMS[1];
        let mut rng = outcomes(3);
        let x = [0.45];
        let n = 40_000;
        let scores: Vec<f64> = (0..n).map(|_| sharp.play(&x, &mut rng)).collect();
        let r = Regret::of(&scores);
        let p = (sharp.p)(&x);
        assert!((r.mean - p).abs() < 4.0 * r.se, "{} vs p = {p}", r.mean);
        let draws = scores.iter().filter(|&&s| s == 0.5).count();
        assert!((3_600..4_400).contains(&draws), "{draws} draws of {n}");
    }

    /// The full comparison: each method's mean regret after 2,000 games over 100 seeds, per
    /// problem of [`PROBLEMS`], [`HELD_OUT`] and [`HELD_OUT_2`], printed as a Markdown table;
    /// CLOP's is at most every other method's on [`PROBLEMS`] and [`HELD_OUT`]. Nothing is
    /// asserted on [`HELD_OUT_2`]: those problems are reported as they come out.
    #[test]
    #[ignore = "about 20 seconds in a release build: run with --release -- --ignored"]
    fn the_regret_table() {
        let (games, seeds) = (2_000, 1..101);
        print_table(
            &[&PROBLEMS[..], &HELD_OUT, &HELD_OUT_2].concat(),
            games,
            seeds.clone(),
        );
        for problem in PROBLEMS[1..].iter().chain(&HELD_OUT) {
            assert_clop_no_worse(problem, games, seeds.clone(), 0.0);
        }
    }

    /// Each method's mean regret on `problems`, a Markdown table on stdout.
    fn print_table(problems: &[Problem], games: usize, seeds: std::ops::Range<u64>) {
        evomcts_records::note!("| problem | {} |", METHODS.map(Method::name).join(" | "));
        evomcts_records::note!("|---|{}", "---|".repeat(METHODS.len()));
        for problem in problems {
            let r = regrets(problem, games, seeds.clone());
            let cells: Vec<String> = r
                .iter()
                .map(|r| format!("{:.4} ± {:.4}", r.mean, r.se))
                .collect();
            evomcts_records::note!("| {} | {} |", problem.name, cells.join(" | "));
        }
    }

    /// On a landscape rising to x = 1 (p = 0.4 + 0.2x), after 2,000 games `at_bound` reports
    /// the upper bound in at least 14 of 20 runs and the lower in none (the model's peak along
    /// the cut region can stop short of the bound: in 3 of seeds 1 to 20 it is below 0.95, and
    /// one run is not cut); on a peak at 0.37 the recommendation is within 0.05 of it and at
    /// neither bound.
    #[test]
    fn a_recommendation_at_a_bound_is_reported() {
        use crate::clop::Bound;
        let reports: Vec<Vec<Option<Bound>>> = (1..21)
            .map(|s| run_clop(&PROBLEMS[2], 2_000, s, Settings::default()).at_bound())
            .collect();
        let high = reports
            .iter()
            .filter(|r| r[..] == [Some(Bound::High)])
            .count();
        assert!(high >= 14, "{reports:?}");
        assert!(
            !reports.iter().any(|r| r[..] == [Some(Bound::Low)]),
            "{reports:?}"
        );
        let sharp = run_clop(&PROBLEMS[1], 1_000, 1, Settings::default());
        assert_eq!(sharp.at_bound(), vec![None], "{:?}", sharp.recommend());
        assert!((sharp.recommend()[0] - 0.37).abs() < 0.05);
    }
}
