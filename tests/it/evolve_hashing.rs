//! Functional hashing and the champion rule: monotone transforms share a fingerprint,
//! fingerprint-equal candidates share their samples and inherit their class's estimate, a
//! hashed run resumed is byte-identical to one never stopped, a damaged bank is named, the
//! new options leave old specs' hashes alone, and `HighestLowerBound` crowns the elite with the
//! highest lower end of its interval. The bank: any native game's and a mix's are recorded to
//! size, per seed, and read back bit for bit; Carcassonne's is the committed one, byte for
//! byte; a bank of the move-feature grammar carries the features, and they tell formulas
//! apart; a file without the features' columns reads as before.

use crate::evolve_resume::files;
use evomcts::evolve::hashing::{
    bank_csv, carries_move_features, check_fingerprints, parse_bank, play_shared, record_bank,
    Hashing,
};
use evomcts::evolve::ChampionRule;
use evomcts::evolve::{run_evolution, Estimate, EvolveError, EvolveSpec, Member, RunOptions};
use evomcts::formula::{fingerprint, CompiledFormula, SiblingSets, Terminal, TERMINALS};
use std::path::Path;

const SPEC: &str = r#"(
    name: "tiny-hashing",
    seed: 11,
    strategy: (mu: 2, lambda: 3, generations: 2, plus: true, initial: Seed),
    noise: (samples: 2, elites: 1, elite_samples: 2, functional_hashing: (situations: 60)),
    fitness: Carcassonne(candidate: (sims: 16), baseline: Mcts(sims: 8), score: ScoreDiff),
)"#;

fn spec() -> EvolveSpec {
    EvolveSpec::from_ron(SPEC, "tiny.ron").unwrap()
}

fn options(dir: &Path, stop_after: Option<usize>, resume: bool) -> RunOptions {
    RunOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(2),
        progress: false,
        stop_after,
        srun: None,
    }
}

fn compiled(text: &str) -> CompiledFormula {
    CompiledFormula::new(&text.parse().unwrap()).unwrap()
}

fn member(id: usize, formula: &str, samples: &[f64]) -> Member {
    let mut m = Member::new(id, 0, Some(0), formula.parse().unwrap());
    m.fitness = Estimate::from_samples(samples);
    m
}

#[test]
fn monotone_transforms_share_a_fingerprint_and_the_bank_reads_back_bit_for_bit() {
    let bank = record_bank(&spec(), 60).unwrap();
    assert_eq!(bank.len(), 60);
    let uct = "Q + 2*C*sqrt(2*ln(N)/n)";
    let fp = |text: &str| fingerprint(&compiled(text), &bank);
    assert_eq!(fp(uct), fp(&format!("2*({uct})")));
    assert_eq!(fp("Q + C/n"), fp("2*(Q + C/n)"));
    // A term that never decides changes nothing either; a different rule does.
    assert_eq!(fp(uct), fp(&format!("{uct} + 0*V")));
    assert_ne!(fp(uct), fp("0 - Q"));

    let text = bank_csv(&bank);
    assert_eq!(parse_bank(&text, "bank.csv").unwrap(), bank);
    let damaged = text.replacen(",", ";", 12);
    let err = parse_bank(&damaged, "bank.csv").unwrap_err().to_string();
    assert!(err.starts_with("bank.csv:"), "{err}");
}

#[test]
fn fingerprint_equal_candidates_share_samples_and_inherit_estimates() {
    // Candidates 0 and 1 are one class, played by 0; when 0 is not playing, 1 plays for it.
    let calls = std::cell::RefCell::new(Vec::<Vec<usize>>::new());
    let play = |who: &[usize]| -> Result<Vec<Vec<f64>>, ()> {
        calls.borrow_mut().push(who.to_vec());
        Ok(who
            .iter()
            .map(|&i| vec![i as f64, 10.0 + i as f64])
            .collect())
    };
    let (samples, played) = play_shared(&[0, 1, 2], &[0, 0, 2], play).unwrap();
    assert_eq!(*calls.borrow(), [vec![0, 2]]);
    assert_eq!(played, 4);
    assert_eq!(samples, [vec![0.0, 10.0], vec![0.0, 10.0], vec![2.0, 12.0]]);
    let (samples, _) = play_shared(&[1, 2], &[0, 0, 2], play).unwrap();
    assert_eq!(calls.borrow()[1], [1, 2]);
    assert_eq!(samples[0], [1.0, 11.0]);

    // UCT and twice UCT fall into one class, Q + C/n into another.
    let bank = record_bank(&spec(), 60).unwrap();
    let mut hashing = Hashing::new(bank);
    let uct = "Q + 2*C*sqrt(2*ln(N)/n)";
    let scored = spec().seed_formula.canonical();
    let mut generation = evomcts::evolve::Generation {
        run: "r".into(),
        spec_hash: "h".into(),
        generation: 0,
        next_id: 3,
        samples_spent: 0,
        spent: 0,
        dropped: 0,
        hashing: None,
        best: 0.0,
        mean: 0.0,
        champion: member(1, uct, &[1.0, 2.0, 3.0]),
        reference: Member::new(0, 0, None, scored),
        parents: vec![member(1, uct, &[1.0, 2.0, 3.0])],
        offspring: vec![],
        fitting: vec![],
    };
    generation.reference.fitness = Estimate::from_samples(&[0.0, 1.0]);
    hashing.absorb(&generation);
    let mut born = [
        member(5, &format!("2*({uct})"), &[]),
        member(6, "Q + C/n", &[]),
        member(7, uct, &[]),
        member(8, "2*(Q + C/n)", &[]),
    ];
    let mut refs: Vec<&mut Member> = born.iter_mut().collect();
    let plan = hashing.plan(&mut refs, 4);
    assert_eq!(plan.classes, [0, 1, 0, 1]);
    assert_eq!(
        (
            plan.counts.exact_duplicates,
            plan.counts.fingerprint_duplicates,
            plan.counts.new_candidates
        ),
        (1, 2, 1)
    );
    // The class scored before passes on its most sampled estimate; the new class starts empty.
    assert_eq!(born[0].fitness, Estimate::from_samples(&[1.0, 2.0, 3.0]));
    assert_eq!(born[2].fitness, born[0].fitness);
    assert_eq!(born[1].fitness.samples, 0);
    assert_eq!(plan.counts.samples_inherited, 6);
}

#[test]
fn a_hashed_run_shares_samples_and_resumes_byte_identically() {
    let spec = spec();
    let whole = crate::support::scratch("hashing", "whole");
    let out = run_evolution(&spec, &options(&whole, None, false)).unwrap();
    assert!(whole.join("fingerprint-bank.csv").exists());
    let gen0 = evomcts::evolve::Generation::read(&whole.join("gen-000.ron"), 0).unwrap();
    // `initial: Seed`: both parents are the seed formula, one plays for both.
    let counts = gen0.hashing.unwrap();
    assert_eq!((counts.exact_duplicates, counts.new_candidates), (1, 1));
    assert!(counts.samples_saved >= 2, "{counts:?}");
    assert_eq!(gen0.offspring[0].fitness, gen0.offspring[1].fitness);
    // Saved samples are not counted as spent: 2 parents + the reference (2 + 2) + 1 elite
    // (2), with one parent's 2 samples shared.
    assert_eq!(gen0.spent, 2 + 4 + 2);
    let logbook = std::fs::read_to_string(whole.join("logbook.csv")).unwrap();
    let row: Vec<&str> = logbook.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(&row[15..18], ["1", "0", "1"], "{logbook}");
    assert_eq!(out.last.generation, 2);

    let split = crate::support::scratch("hashing", "split");
    run_evolution(&spec, &options(&split, Some(0), false)).unwrap();
    run_evolution(&spec, &options(&split, Some(1), true)).unwrap();
    run_evolution(&spec, &options(&split, None, true)).unwrap();
    let (a, b) = (files(&whole), files(&split));
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }

    // A damaged bank stops a resume with the file's name, and is left alone.
    let bank = split.join("fingerprint-bank.csv");
    std::fs::write(&bank, "set,q\n0,1\n").unwrap();
    let mut longer = spec.clone();
    longer.strategy.generations = 3;
    let err = run_evolution(&longer, &options(&split, None, true))
        .err()
        .unwrap();
    assert!(
        matches!(err, EvolveError::Population(_))
            && err.to_string().contains("fingerprint-bank.csv"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&bank).unwrap(), "set,q\n0,1\n");
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_hashed_run_with_move_features_resumes_byte_identically_from_its_bank() {
    let file = std::fs::read_to_string("grammars/carcassonne_features.ron").unwrap();
    let grammar = &file[file.find("Grammar(").unwrap()..];
    let text = SPEC.replace("seed: 11,", &format!("seed: 11, grammar: {grammar:?},"));
    let spec = EvolveSpec::from_ron(&text, "features.ron").unwrap();
    let whole = crate::support::scratch("hashing", "features-whole");
    run_evolution(&spec, &options(&whole, None, false)).unwrap();
    let bank = std::fs::read_to_string(whole.join("fingerprint-bank.csv")).unwrap();
    let header = bank.lines().next().unwrap();
    assert!(header.ends_with(",mover_gain,opponent_gain,meeple,farmer,returned,supply,turn"));
    assert!(carries_move_features(
        &parse_bank(&bank, "bank.csv").unwrap()
    ));
    let split = crate::support::scratch("hashing", "features-split");
    run_evolution(&spec, &options(&split, Some(0), false)).unwrap();
    run_evolution(&spec, &options(&split, None, true)).unwrap();
    let (a, b) = (files(&whole), files(&split));
    assert_eq!(a.len(), b.len());
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn new_options_leave_old_specs_and_their_hashes_alone() {
    let old = SPEC.replace(", functional_hashing: (situations: 60)", "");
    let plain = EvolveSpec::from_ron(&old, "old.ron").unwrap();
    let explicit = EvolveSpec::from_ron(
        &old.replace(
            "elite_samples: 2)",
            "elite_samples: 2, champion: HighestMean)",
        ),
        "old.ron",
    )
    .unwrap();
    assert_eq!(plain.hash(), explicit.hash());
    let text = plain.to_ron();
    assert!(
        !text.contains("functional_hashing") && !text.contains("champion"),
        "{text}"
    );
    assert_ne!(plain.hash(), spec().hash());
    let by_bound = EvolveSpec::from_ron(
        &old.replace(
            "elite_samples: 2)",
            "elite_samples: 2, champion: HighestLowerBound)",
        ),
        "old.ron",
    )
    .unwrap();
    assert_ne!(plain.hash(), by_bound.hash());
    // Hashing needs searches to fingerprint on.
    let bandit = r#"(name: "b", seed: 1, strategy: (mu: 1, lambda: 1, generations: 1),
        noise: (samples: 2, functional_hashing: ()), fitness: Bandit())"#;
    let err = EvolveSpec::from_ron(bandit, "b.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("functional_hashing"), "{err}");
}

#[test]
fn the_lower_bound_rule_crowns_the_surest_elite() {
    // A: high mean on two spread samples; B: a little lower, on many close ones.
    let a = member(1, "Q", &[9.0, 1.0]);
    let b = member(2, "Q + C/n", &[4.0, 4.5, 3.5, 4.0, 4.2, 3.8, 4.1, 3.9]);
    let c = member(3, "Q + 2*C/n", &[4.0]);
    assert!(a.fitness.mean > b.fitness.mean && a.fitness.lower_bound() < b.fitness.lower_bound());
    let elites = [a, b, c];
    assert_eq!(ChampionRule::HighestMean.pick(&elites), Some(0));
    assert_eq!(ChampionRule::HighestLowerBound.pick(&elites), Some(1));
    assert_eq!(ChampionRule::HighestLowerBound.pick(&[]), None);

    // In a run whose elites are all the survivors, the champion is the survivor with the
    // highest lower bound after the extra samples.
    let text = r#"(
        name: "bound-bandit",
        seed: 9,
        strategy: (mu: 3, lambda: 4, generations: 3, plus: true),
        noise: (samples: 4, elites: 3, elite_samples: 4, champion: HighestLowerBound),
        fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 100, c_e: 0.5),
    )"#;
    let spec = EvolveSpec::from_ron(text, "bound.ron").unwrap();
    let dir = crate::support::scratch("hashing", "bound");
    run_evolution(&spec, &options(&dir, None, false)).unwrap();
    for g in 0..=3 {
        let generation =
            evomcts::evolve::Generation::read(&dir.join(format!("gen-{g:03}.ron")), g).unwrap();
        let best = generation
            .parents
            .iter()
            .map(|m| m.fitness.lower_bound())
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(generation.champion.fitness.lower_bound(), best, "gen {g}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_fingerprint_check_plays_pairs_of_distinct_formulas_with_one_fingerprint() {
    let text = r#"(
        name: "check",
        seed: 11,
        strategy: (mu: 3, lambda: 6, generations: 3, plus: true),
        noise: (samples: 2, elites: 1, elite_samples: 2, functional_hashing: (situations: 200)),
        fitness: Carcassonne(candidate: (sims: 30), baseline: Mcts(sims: 8), score: ScoreDiff),
    )"#;
    let spec = EvolveSpec::from_ron(text, "check.ron").unwrap();
    let dir = crate::support::scratch("hashing", "check");
    run_evolution(&spec, &options(&dir, None, false)).unwrap();
    let check = check_fingerprints(&dir, 2, 1).unwrap();
    assert_eq!(check.pairs.len(), 2, "{check:?}");
    let bank_file = dir.join("fingerprint-bank.csv");
    let bank = parse_bank(&std::fs::read_to_string(&bank_file).unwrap(), "bank").unwrap();
    for pair in &check.pairs {
        assert_ne!(pair.a.canonical(), pair.b.canonical());
        assert_eq!(
            fingerprint(&CompiledFormula::new(&pair.a).unwrap(), &bank),
            fingerprint(&CompiledFormula::new(&pair.b).unwrap(), &bank)
        );
        assert_eq!(pair.games, 2);
        assert!(pair.differing <= 2);
    }
    // A run without hashing has nothing to check.
    let plain = crate::support::scratch("hashing", "check-plain");
    let mut no_hashing = spec.clone();
    no_hashing.noise.functional_hashing = None;
    no_hashing.strategy.generations = 0;
    run_evolution(&no_hashing, &options(&plain, None, false)).unwrap();
    let err = check_fingerprints(&plain, 2, 1).unwrap_err().to_string();
    assert!(err.contains("functional_hashing"), "{err}");
    for d in [dir, plain] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// Every stored number of the bank, bit for bit, set by set.
fn bits(bank: &SiblingSets) -> Vec<Vec<u64>> {
    bank.iter()
        .map(|set| {
            set.iter()
                .flat_map(|x| TERMINALS.iter().map(|t| t.terminal.read(x).to_bits()))
                .collect()
        })
        .collect()
}

/// A spec of `fitness` with the paper's grammar and master seed `seed`.
fn games_spec(seed: u64, fitness: &str) -> EvolveSpec {
    let text = format!(
        r#"(name: "bank", seed: {seed}, strategy: (mu: 1, lambda: 1, generations: 1),
            noise: (samples: 2), fitness: {fitness})"#
    );
    EvolveSpec::from_ron(&text, "bank.ron").unwrap()
}

const CONNECT_FOUR: &str = "(game: ConnectFour, candidate: (sims: 40, c_e: 0.5), \
    baseline: Random, score: WinRate)";
const PENTAGO: &str = "(game: Pentago, candidate: (sims: 60, c_e: 0.5, \
    unvisited: Ranked(q: ParentQ, n: 1.0)), baseline: Random, score: WinRate)";

#[test]
fn a_bank_of_another_game_has_its_size_follows_its_seed_and_reads_back_bit_for_bit() {
    for game in [CONNECT_FOUR, PENTAGO] {
        let fitness = format!("Games{game}");
        let bank = record_bank(&games_spec(3, &fitness), 150).unwrap();
        assert_eq!(bank.len(), 150, "{game}");
        let again = record_bank(&games_spec(3, &fitness), 150).unwrap();
        assert_eq!(bits(&again), bits(&bank), "{game}");
        let other = record_bank(&games_spec(4, &fitness), 150).unwrap();
        assert_ne!(bits(&other), bits(&bank), "{game}");
        // The sets are of the game: Connect Four never offers more than 7 moves.
        let widest = bank.iter().map(<[_]>::len).max().unwrap();
        if game == CONNECT_FOUR {
            assert!(widest <= 7, "{widest}");
        } else {
            assert!(widest > 7, "{widest}");
        }
        let text = bank_csv(&bank);
        let read = parse_bank(&text, "bank.csv").unwrap();
        assert_eq!(bits(&read), bits(&bank), "{game}");
        assert_eq!(bank_csv(&read), text);
        assert!(!carries_move_features(&bank));
    }
}

#[test]
fn a_mix_records_its_games_in_turn() {
    let mix = games_spec(3, &format!("Mixed(games: [{CONNECT_FOUR}, {PENTAGO}])"));
    let bank = record_bank(&mix, 51).unwrap();
    assert_eq!(bank.len(), 51);
    // 26 sets of Connect Four, then 25 of Pentago.
    let widths: Vec<usize> = bank.iter().map(<[_]>::len).collect();
    assert!(widths[..26].iter().all(|&w| w <= 7), "{widths:?}");
    assert!(widths[26..].iter().any(|&w| w > 7), "{widths:?}");
    assert_eq!(bits(&record_bank(&mix, 51).unwrap()), bits(&bank));
}

const COMMITTED: &str = "populations/carcassonne-knowledge100-hashed";

#[test]
fn carcassonnes_bank_is_the_one_its_run_committed() {
    let spec = EvolveSpec::from_file(Path::new(COMMITTED).join("spec.ron")).unwrap();
    let committed =
        std::fs::read_to_string(Path::new(COMMITTED).join("fingerprint-bank.csv")).unwrap();
    let situations = spec.noise.functional_hashing.as_ref().unwrap().situations;
    let bank = record_bank(&spec, situations).unwrap();
    assert!(
        bank_csv(&bank) == committed,
        "the bank differs from {COMMITTED}'s"
    );
}

#[test]
fn a_bank_file_without_the_features_columns_reads_as_before() {
    let path = Path::new(COMMITTED).join("fingerprint-bank.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let bank = parse_bank(&text, "committed.csv").unwrap();
    assert_eq!(bank.len(), 2000);
    assert!(!carries_move_features(&bank));
    assert!(bank.iter().flatten().any(|x| x.prior != 0.0));
    assert_eq!(bank_csv(&bank), text);
}

#[test]
fn a_move_feature_bank_carries_the_features_and_they_tell_formulas_apart() {
    let spec = EvolveSpec::from_file("runs/evolve/carcassonne-features100.ron").unwrap();
    let bank = record_bank(&spec, 400).unwrap();
    assert_eq!(bank.len(), 400);
    assert!(carries_move_features(&bank));
    for (k, feature) in Terminal::MOVE_FEATURES.iter().enumerate() {
        assert!(
            bank.iter().flatten().any(|x| x.features[k] != 0.0),
            "no child shows {feature}"
        );
    }
    let text = bank_csv(&bank);
    assert!(
        text.lines().next().unwrap().ends_with(",turn"),
        "{}",
        &text[..300]
    );
    let read = parse_bank(&text, "bank.csv").unwrap();
    assert_eq!(bits(&read), bits(&bank));
    assert_eq!(bank_csv(&read), text);

    // Two formulas that differ in a move-feature term only: told apart on the bank (and on it
    // read back), one class once the features are dropped.
    let seed = "Q + 2*C*sqrt(2*ln(N)/n) + 30*H/(n + 1)";
    let (a, b) = (
        compiled(&format!("{seed} + 30*M/(n + 1)")),
        compiled(&format!("{seed} + 30*F/(n + 1)")),
    );
    assert_ne!(fingerprint(&a, &bank), fingerprint(&b, &bank));
    assert_eq!(fingerprint(&a, &read), fingerprint(&a, &bank));
    let mut plain = SiblingSets::new();
    for set in bank.iter() {
        plain.push_set(set.iter().map(|x| evomcts::formula::SelectionInputs {
            features: Default::default(),
            ..*x
        }));
    }
    assert_eq!(fingerprint(&a, &plain), fingerprint(&b, &plain));
}
