//! The Carcassonne fitness domain: the two seatings of a tile seed are paired (a formula
//! identical to the baseline scores exactly 0), a small run writes a champion that any
//! MCTS controller reads with `FormulaFile`, and the example league spec that uses the
//! committed champion builds.

use evomcts::evolve::bandit::BanditScratch;
use evomcts::evolve::fitness::sample;
use evomcts::evolve::{run_evolution, EvolveSpec, FitnessSpec, RunOptions};
use evomcts::formula::{CompiledFormula, Formula};
use evomcts::games::carcassonne::{play_game, Rules};
use evomcts::games::RandomController;
use evomcts::league::LeagueSpec;
use evomcts::search::mcts::{MctsSettings, Selection};
use evomcts::search::ControllerSpec;
use std::path::Path;

const SPEC: &str = r#"(
    name: "tiny-carcassonne",
    seed: 3,
    strategy: (mu: 1, lambda: 2, generations: 1, plus: true),
    noise: (samples: 2, elites: 1, elite_samples: 0),
    fitness: Carcassonne(candidate: (sims: 8), baseline: Mcts(sims: 8), score: ScoreDiff),
)"#;

fn fitness_with(score: &str) -> FitnessSpec {
    EvolveSpec::from_ron(&SPEC.replace("ScoreDiff", score), "tiny.ron")
        .unwrap()
        .fitness
}

fn one_sample(fitness: &FitnessSpec, text: &str, seed: u64) -> f64 {
    let formula: Formula = text.parse().unwrap();
    let compiled = CompiledFormula::new(&formula).unwrap();
    sample(
        fitness,
        &formula,
        &compiled,
        seed,
        &mut BanditScratch::default(),
    )
    .unwrap()
}

#[test]
fn a_formula_equal_to_the_baseline_scores_exactly_even() {
    let diff = fitness_with("ScoreDiff");
    let wins = fitness_with("WinRate");
    let uct = Formula::uct().to_string();
    for seed in [1, 2] {
        assert_eq!(one_sample(&diff, &uct, seed), 0.0);
        assert_eq!(one_sample(&wins, &uct, seed), 0.5);
    }
    // A different formula plays different games: not every pair comes out even.
    let greedy: Vec<f64> = (1..=3).map(|s| one_sample(&diff, "Q", s)).collect();
    assert!(greedy.iter().any(|&d| d != 0.0), "{greedy:?}");
    for s in 1..=3 {
        let w = one_sample(&wins, "Q", s);
        assert!([0.0, 0.25, 0.5, 0.75, 1.0].contains(&w), "{w}");
    }
}

#[test]
fn a_small_run_writes_a_champion_that_mcts_reads_from_its_file() {
    let spec = EvolveSpec::from_ron(SPEC, "tiny.ron").unwrap();
    let dir = crate::support::scratch("evolve", "carc");
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
    assert_eq!(out.last.generation, 1);
    // (1 + 2): 2 initial evaluations (parent, reference), then 2 offspring + 1 parent.
    assert_eq!(out.last.samples_spent, 2 * 2 + 3 * 2);
    let champion_file = dir.join("champion.txt");
    let text = std::fs::read_to_string(&champion_file).unwrap();
    assert_eq!(
        text.trim().parse::<Formula>().unwrap(),
        out.last.champion.formula
    );

    let settings = MctsSettings {
        sims: 8,
        selection: Selection::FormulaFile(champion_file.display().to_string()),
        ..MctsSettings::default()
    };
    // Reading a spec puts the file's formula in place; the search itself reads no file.
    let mut spec = ControllerSpec::Mcts(settings);
    assert!(
        spec.build::<evomcts::games::carcassonne::GameState>(5)
            .is_err(),
        "an unread formula file is refused"
    );
    evomcts::runfs::resolve_controller(&mut spec, Path::new("")).unwrap();
    let mut mcts = spec
        .build::<evomcts::games::carcassonne::GameState>(5)
        .unwrap();
    let mut random = RandomController::new(6);
    let (state, _) = play_game(Rules::default(), 9, [mcts.as_mut(), &mut random]).unwrap();
    assert!(state.is_over());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_example_league_uses_the_committed_champion() {
    // As written (`from_file` would put the champion's formula in place of its file).
    let text = std::fs::read_to_string("runs/champion_vs_uct.ron").unwrap();
    let spec = LeagueSpec::from_ron(&text, "runs/champion_vs_uct.ron").unwrap();
    let mut reads_champion = false;
    for entrant in &spec.controllers {
        if let ControllerSpec::Mcts(s) = &entrant.spec {
            if let Selection::FormulaFile(path) = &s.selection {
                assert!(path.starts_with("../populations/"), "{path}");
                let text = std::fs::read_to_string(Path::new("runs").join(path)).unwrap();
                text.trim().parse::<Formula>().unwrap();
                reads_champion = true;
            }
        }
    }
    assert!(reads_champion, "the league should read a champion file");
    for entrant in LeagueSpec::from_file("runs/champion_vs_uct.ron")
        .unwrap()
        .controllers
    {
        entrant
            .spec
            .build::<evomcts::games::carcassonne::GameState>(1)
            .unwrap();
    }
}
