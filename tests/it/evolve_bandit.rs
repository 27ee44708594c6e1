//! On the Bernoulli bandit of Tuma's thesis, a short evolution from UCT finds another formula
//! (not its seed, and playing differently on most runs) that beats UCB1, or at least matches it
//! within noise, on held-out runs.
//!
//! UCB1 is `Q + sqrt(2*ln(N)/n)` (Auer et al. 2002): the seed `Q + 2*C*sqrt(2*ln(N)/n)`
//! with C = 0.5, the value the spec gives C. The champion and UCB1 are compared on the
//! same 1000 fresh bandit runs (paired), so the comparison is not the one selection
//! was made on.

use evomcts::evolve::bandit::{regret, ucb1, BanditScratch};
use evomcts::evolve::fitness::Z95;
use evomcts::evolve::{run_evolution, Estimate, EvolveSpec, FitnessSpec, RunOptions};
use evomcts::formula::{CompiledFormula, Formula};

const SPEC: &str = r#"(
    name: "bandit-test",
    seed: 2024,
    strategy: (mu: 4, lambda: 12, generations: 6, plus: true),
    noise: (samples: 30, reevaluate_survivors: true, elites: 2, elite_samples: 60),
    fitness: Bandit(arms: 10, best: 0.5, epsilon: 0.1, horizon: 1000, c_e: 0.5),
)"#;

#[test]
fn evolved_champion_beats_or_matches_ucb1_on_held_out_runs() {
    let spec = EvolveSpec::from_ron(SPEC, "bandit-test.ron").unwrap();
    let dir = crate::support::scratch("evolve", "bandit");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run_evolution(
        &spec,
        &RunOptions {
            out_dir: dir.clone(),
            resume: false,
            threads: None,
            progress: false,
            stop_after: None,
            srun: None,
        },
    )
    .unwrap();
    let FitnessSpec::Bandit(bandit) = &spec.fitness else {
        unreachable!()
    };
    // The reference is the UCT seed with C = 0.5, i.e. UCB1 itself.
    let uct_half = Formula::uct().to_string();
    assert_eq!(out.last.reference.formula.to_string(), uct_half);

    let champion = &out.last.champion.formula;
    let (champ, base) = (
        CompiledFormula::new(champion).unwrap(),
        CompiledFormula::new(&ucb1()).unwrap(),
    );
    let mut scratch = BanditScratch::default();
    let held_out = 1000u64;
    let (mut diffs, mut champ_fit, mut ucb_fit) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..held_out {
        let seed = 0xDEAD_0000 + run;
        let c = -regret(&champ, bandit, seed, &mut scratch);
        let u = -regret(&base, bandit, seed, &mut scratch);
        champ_fit.push(c);
        ucb_fit.push(u);
        diffs.push(c - u);
    }
    let (c, u, d) = (
        Estimate::from_samples(&champ_fit),
        Estimate::from_samples(&ucb_fit),
        Estimate::from_samples(&diffs),
    );
    eprintln!(
        "champion `{champion}`: fitness {c}; UCB1: {u}; champion - UCB1: {d} (run's estimate {})",
        out.last.champion.fitness
    );
    // An evolution that returned its seed would "match" UCB1 exactly: the champion must be
    // another formula and play differently from UCB1 on the held-out runs.
    assert_ne!(
        out.last.champion.id, out.last.reference.id,
        "the champion is the seed itself"
    );
    assert!(
        diffs.iter().filter(|x| **x != 0.0).count() > held_out as usize / 2,
        "the champion `{champion}` plays as UCB1 on most held-out runs: {d}"
    );
    // Beats, or matches within noise: the paired difference's 95% interval reaches 0 or above.
    assert!(
        d.mean + Z95 * d.standard_error() >= 0.0,
        "champion is significantly worse than UCB1: {d}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
