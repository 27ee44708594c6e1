//! The cheap fitness domain: a Bernoulli K-armed bandit played by a selection formula.
//!
//! Tuma's thesis (Table 5.1) tests policies on 10 arms, one paying with probability 0.5
//! and the others with 0.5 − ε. A formula becomes a bandit policy the way it is used in
//! MCTS selection at a node whose children are the arms: every arm is pulled once (in
//! index order), then each pull goes to the arm with the highest formula value, the first
//! on ties, with `Q` = the arm's mean reward, `N` = pulls so far in total, `n` = the
//! arm's pulls, `C` = C_E. The extras read `V` = Q(1 − Q) (the arm's reward variance),
//! `P` = the mean reward over all pulls and `K` = the number of arms.
//!
//! Because "first on ties" would favour arm 0, each run puts the best arm at a random
//! position. A run is scored by its pseudo-regret: the sum over pulls of
//! p_best − p_pulled, i.e. ε times the pulls of inferior arms. It has far less noise than
//! the realised regret and the same expectation.

use super::spec::BanditSpec;
use evomcts_formula::{CompiledFormula, Formula, SelectionInputs};
use evomcts_games::GameRng;
use rand::{Rng, SeedableRng};

/// UCB1 of Auer, Cesa-Bianchi and Fischer (2002): `Q + sqrt(2*ln(N)/n)`. It is the
/// paper's UCT seed `Q + 2*C*sqrt(2*ln(N)/n)` with C_E = 0.5; this text form has no `C`,
/// so it is UCB1 whatever C_E the domain sets.
pub const UCB1: &str = "Q + sqrt(2*ln(N)/n)";

/// The UCB1 formula (see [`UCB1`]).
pub fn ucb1() -> Formula {
    UCB1.parse().expect("UCB1 parses")
}

/// Reusable buffers for bandit runs, so repeated runs do not allocate.
#[derive(Default)]
pub struct BanditScratch {
    pulls: Vec<u32>,
    wins: Vec<u32>,
}

/// The pseudo-regret of one run of `formula` on the bandit of `spec`, with every random
/// choice (best arm's position, rewards) drawn from `seed`.
pub fn regret(
    formula: &CompiledFormula,
    spec: &BanditSpec,
    seed: u64,
    scratch: &mut BanditScratch,
) -> f64 {
    let arms = spec.arms;
    let mut rng = GameRng::seed_from_u64(seed);
    let best_arm = rng.gen_range(0..arms);
    let worse = spec.best - spec.epsilon;
    scratch.pulls.clear();
    scratch.pulls.resize(arms, 0);
    scratch.wins.clear();
    scratch.wins.resize(arms, 0);
    let (pulls, wins) = (&mut scratch.pulls, &mut scratch.wins);
    let mut inferior_pulls: u64 = 0;
    let mut total_wins: u64 = 0;
    for t in 0..spec.horizon {
        let arm = if (t as usize) < arms {
            t as usize
        } else {
            let total = t as f64;
            let parent_q = total_wins as f64 / total;
            let mut chosen = 0;
            let mut chosen_value = f64::NEG_INFINITY;
            for a in 0..arms {
                let n = pulls[a] as f64;
                let q = wins[a] as f64 / n;
                let value = formula.eval(&SelectionInputs {
                    q,
                    parent_visits: total,
                    child_visits: n,
                    c_e: spec.c_e,
                    reward_variance: q * (1.0 - q),
                    parent_q,
                    siblings: arms as f64,
                    // A bandit has no game knowledge.
                    ..SelectionInputs::default()
                });
                if value > chosen_value {
                    chosen = a;
                    chosen_value = value;
                }
            }
            chosen
        };
        let p = if arm == best_arm {
            spec.best
        } else {
            inferior_pulls += 1;
            worse
        };
        pulls[arm] += 1;
        if rng.gen_bool(p) {
            wins[arm] += 1;
            total_wins += 1;
        }
    }
    inferior_pulls as f64 * spec.epsilon
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(text: &str) -> CompiledFormula {
        CompiledFormula::new(&text.parse().unwrap()).unwrap()
    }

    #[test]
    fn round_robin_pulls_every_arm_equally() {
        // `-n` prefers the least pulled arm: with 10 arms and 1000 pulls every arm gets
        // exactly 100, so 900 inferior pulls whatever the rewards.
        let spec = BanditSpec::default();
        let mut scratch = BanditScratch::default();
        for seed in 0..5 {
            let r = regret(&compiled("0 - n"), &spec, seed, &mut scratch);
            assert!((r - 900.0 * spec.epsilon).abs() < 1e-9, "{r}");
        }
    }

    #[test]
    fn ties_do_not_favour_the_best_arm() {
        // A constant formula always pulls arm 0 after the first round; the best arm is
        // there in 1 run of K, so the mean regret is (K-1)ε + (T-K)ε(K-1)/K.
        let spec = BanditSpec {
            horizon: 200,
            ..BanditSpec::default()
        };
        let mut scratch = BanditScratch::default();
        let runs = 4000;
        let mean = (0..runs)
            .map(|s| regret(&compiled("2"), &spec, s, &mut scratch))
            .sum::<f64>()
            / runs as f64;
        let expected = 9.0 * 0.1 + 190.0 * 0.1 * 0.9;
        // Per-run regret is 0.9 or 19.9 (sd ~5.7): 4000 runs give se ~0.09.
        assert!((mean - expected).abs() < 0.5, "{mean} vs {expected}");
    }

    #[test]
    fn ucb1_regret_is_well_below_uniform_play() {
        let spec = BanditSpec {
            epsilon: 0.2,
            horizon: 2000,
            ..BanditSpec::default()
        };
        let mut scratch = BanditScratch::default();
        let mean = |text: &str, scratch: &mut BanditScratch| {
            let f = compiled(text);
            (0..300).map(|s| regret(&f, &spec, s, scratch)).sum::<f64>() / 300.0
        };
        let ucb = mean(UCB1, &mut scratch);
        let uniform = 0.9 * 2000.0 * 0.2;
        // UCB1 explores a lot (its regret is ~240 here), but clearly less than uniform play.
        assert!(
            ucb < 0.75 * uniform,
            "UCB1 regret {ucb} vs uniform {uniform}"
        );
    }
}
