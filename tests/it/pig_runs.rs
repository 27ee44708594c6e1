//! Leagues, evolution runs and validations of a game other than Carcassonne (Pig): specs that
//! name the game, records that replay, runs that resume byte for byte, and Carcassonne specs
//! and records left exactly as they were.

use crate::support::{opts, scratch};
use evomcts::arena::{replay_pig, GameChoice, PlayedGame};
use evomcts::evolve::{run_evolution, EvolveSpec};
use evomcts::games::pig::PigRules;
use evomcts::league::{read_records, record_path, run_league, LeagueSpec};
use evomcts::runfs::SpecFile;
use evomcts::validation::{run_validation, ValidateSpec};
use std::path::Path;

const LEAGUE: &str = r#"(
    name: "pig-tiny",
    games_per_match: 3,
    seed: 11,
    game: Pig(target: 30),
    controllers: [
        (name: "Random", spec: Random),
        (name: "UCT", spec: Mcts(sims: 40, c_e: 1.0)),
        (name: "Star2", spec: Star(depth: 2)),
    ],
)"#;

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    crate::evolve_resume::files(dir)
}

/// The records of a run, by game, as written.
fn record_lines(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(record_path(dir)).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.sort();
    lines
}

#[test]
fn a_pig_league_plays_replays_and_resumes_byte_identically() {
    let spec = LeagueSpec::from_ron(LEAGUE, "pig.ron").unwrap();
    assert_eq!(spec.game, GameChoice::Pig(PigRules::new(30).unwrap()));
    assert!(spec.to_ron().contains("game: Pig("), "{}", spec.to_ron());
    let whole = scratch("pig", "league-whole");
    run_league(&spec, &opts(&whole, false, 2, None)).unwrap();
    let games = read_records(&record_path(&whole)).unwrap().games;
    assert_eq!(games.len(), 18);
    for g in &games {
        let PlayedGame::Pig(record) = &g.game else {
            panic!("a Carcassonne record in a Pig league");
        };
        assert_eq!(record.dice_seed, g.job.seed);
        let end = replay_pig(record).unwrap();
        assert_eq!(end.winner(), g.game.winner());
        assert_eq!(
            record
                .moves
                .iter()
                .filter(|m| **m == evomcts::games::pig::PigMove::Roll)
                .count(),
            record.rolls.len()
        );
        assert!(g.game.final_scores().iter().any(|&s| s >= 30));
    }
    // The two seatings of every game of a pairing share their dice seed, so they meet the
    // same stream of rolls.
    for g in &games {
        let mirror = games
            .iter()
            .find(|h| {
                (h.job.id.first, h.job.id.second, h.job.id.index)
                    == (g.job.id.second, g.job.id.first, g.job.id.index)
            })
            .unwrap();
        assert_eq!(g.game.seed(), mirror.game.seed(), "{}", g.id());
    }

    // Interrupted after 5 games on one thread, resumed on two: the same records and tables.
    let split = scratch("pig", "league-split");
    run_league(&spec, &opts(&split, false, 1, Some(5))).unwrap();
    assert_eq!(read_records(&record_path(&split)).unwrap().games.len(), 5);
    run_league(&spec, &opts(&split, true, 2, None)).unwrap();
    assert_eq!(record_lines(&whole), record_lines(&split));
    let tables = |d: &Path| {
        files(d)
            .into_iter()
            .filter(|(n, _)| n.ends_with(".csv") || n.ends_with(".json") || n == "spec.ron")
            .collect::<Vec<_>>()
    };
    assert_eq!(tables(&whole), tables(&split));

    // `replay` plays every game again and finds the same records; the report shows each game
    // as a table.
    let run = whole.to_str().unwrap();
    let (out, _) = crate::support::evomcts_ok(&["replay", run, "--quiet"]);
    assert!(
        out.contains("18 games replayed, 18 reproduced, 0 diverged"),
        "{out}"
    );
    let (shown, _) = crate::support::evomcts_ok(&["replay", run, "--game", "0"]);
    assert!(
        shown.contains("Pig to 30") && shown.contains("decision 1 "),
        "{shown}"
    );
    let report = scratch("pig", "league-report");
    crate::support::evomcts_ok(&["report", run, "--out", report.to_str().unwrap()]);
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(
        index.contains("dice seed"),
        "the games table names the dice seed"
    );
    let page = std::fs::read_to_string(report.join("games/game-0.html")).unwrap();
    assert!(
        page.contains("Pig to 30") && page.contains("what followed"),
        "{page}"
    );
    assert!(
        page.contains("reaches 30 and wins") || page.contains("banks"),
        "{page}"
    );
    for d in [whole, split, report] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn game_specific_settings_of_another_game_are_refused_with_their_field() {
    let refused = |text: String, field: &str| {
        let msg = LeagueSpec::from_ron(&text, "pig.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.contains(field), "{msg}");
    };
    refused(
        LEAGUE.replace(
            "seed: 11,",
            "seed: 11, rules: (unplaceable: BottomOfStack),",
        ),
        "rules",
    );
    refused(
        LEAGUE.replace("seed: 11,", "seed: 11, search_detail: RootChildren(3),"),
        "search_detail",
    );
    refused(
        LEAGUE.replace("Star(depth: 2)", "Star(depth: 2, evaluation: Heyden)"),
        "controllers[2].spec (Star2)",
    );
    refused(LEAGUE.replace("target: 30", "target: 0"), "pig.ron");
    // A record of the wrong game under the right spec hash is refused by the merge.
    let spec = LeagueSpec::from_ron(LEAGUE, "pig.ron").unwrap();
    let dir = scratch("pig", "league-foreign");
    run_league(&spec, &opts(&dir, false, 1, Some(1))).unwrap();
    let text = std::fs::read_to_string(record_path(&dir)).unwrap();
    let edited = text.replace("\"pig\":{\"target\":30}", "\"pig\":{\"target\":31}");
    assert_ne!(text, edited);
    std::fs::write(record_path(&dir), edited).unwrap();
    let err = run_league(&spec, &opts(&dir, true, 1, None))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("Pig to 31") && err.contains("Pig to 30"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn carcassonne_specs_do_not_name_the_game_and_keep_their_hashes() {
    let text = LEAGUE
        .replace("    game: Pig(target: 30),\n", "")
        .replace("Star(depth: 2)", "Star(depth: 1)");
    let spec = LeagueSpec::from_ron(&text, "c.ron").unwrap();
    assert_eq!(spec.game, GameChoice::Carcassonne);
    assert!(!spec.to_ron().contains("game:"), "{}", spec.to_ron());
    let named = text.replace("seed: 11,", "seed: 11, game: Carcassonne,");
    assert_eq!(
        LeagueSpec::from_ron(&named, "c.ron").unwrap().hash(),
        spec.hash()
    );
    // Every committed league's stored spec reads and writes back to the same text.
    for dir in [
        "runs/replication/reward/seed-2021",
        "runs/replication/star/seed-2021",
    ] {
        let stored = std::fs::read_to_string(Path::new(dir).join("spec.ron")).unwrap();
        let spec = LeagueSpec::from_ron(&stored, dir).unwrap();
        assert_eq!(spec.to_ron(), stored, "{dir}");
    }
    // So does every committed evolution run's that holds its files' content (older ones name
    // a grammar file by path): its fitness is still written `Carcassonne(..)`.
    let mut checked = 0;
    for entry in std::fs::read_dir("populations").unwrap() {
        let path = entry.unwrap().path().join("spec.ron");
        let Ok(stored) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Ok(spec) = EvolveSpec::from_ron(&stored, &path.display().to_string()) {
            assert_eq!(spec.to_ron(), stored, "{}", path.display());
            checked += 1;
        }
    }
    assert!(
        checked >= 3,
        "only {checked} committed evolution specs read"
    );
}

const EVOLVE: &str = r#"(
    name: "pig-evolve",
    seed: 5,
    strategy: (mu: 2, lambda: 3, generations: 3, plus: true),
    noise: (samples: 3, elites: 1, elite_samples: 3),
    fitness: Games(
        game: Pig(target: 20),
        candidate: (sims: 30, reward: WinLoss),
        baseline: Mcts(sims: 30, c_e: 1.0, reward: WinLoss),
        score: WinRate,
    ),
)"#;

use crate::support::evolve_opts as evolve_options;

#[test]
fn a_short_evolution_on_pig_resumes_byte_identically() {
    let spec = EvolveSpec::from_ron(EVOLVE, "pig-evolve.ron").unwrap();
    let stored = spec.to_ron();
    assert!(
        stored.contains("Games(") && !stored.contains("Carcassonne"),
        "{stored}"
    );
    assert_eq!(EvolveSpec::from_ron(&stored, "again.ron").unwrap(), spec);
    let whole = scratch("pig", "evolve-whole");
    let out = run_evolution(&spec, &evolve_options(&whole, 1, false, None)).unwrap();
    assert_eq!(out.last.generation, 3);
    let split = scratch("pig", "evolve-split");
    run_evolution(&spec, &evolve_options(&split, 2, false, Some(1))).unwrap();
    assert!(!split.join("gen-002.ron").exists());
    run_evolution(&spec, &evolve_options(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));
    // Win rates are shares of games won.
    let gen = std::fs::read_to_string(whole.join("gen-003.ron")).unwrap();
    assert!(gen.contains("mean"), "{gen}");
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
    // Functional hashing reads Carcassonne searches, and Carcassonne's rules mean nothing on
    // Pig: both refused, naming the field.
    for (from, to, field) in [
        (
            "elite_samples: 3)",
            "elite_samples: 3, functional_hashing: ())",
            "noise.functional_hashing",
        ),
        (
            "score: WinRate,",
            "score: WinRate, rules: (unplaceable: BottomOfStack),",
            "fitness.rules",
        ),
    ] {
        let msg = EvolveSpec::from_ron(&EVOLVE.replace(from, to), "e.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.contains(field), "{msg}");
    }
}

const VALIDATE: &str = r#"(
    name: "pig-validate",
    seed: 3,
    sequences: 6,
    game: Pig(target: 20),
    candidate: Mcts(sims: 30, reward: WinLoss, selection: Formula("Q + 2*C*sqrt(2*ln(N)/n)"), c_e: 1.0),
    baseline: Mcts(sims: 30, reward: WinLoss, c_e: 1.0),
)"#;

#[test]
fn a_pig_validation_of_a_formula_equal_to_its_baseline_is_even_and_thread_independent() {
    let spec = ValidateSpec::from_ron(VALIDATE, "v.ron").unwrap();
    let play = |dir: &Path, threads: usize, stop: Option<usize>, resume: bool| {
        crate::support::validate_opts(dir, resume, threads, stop)
    };
    let one = scratch("pig", "validate-one");
    let a = run_validation(&spec, &play(&one, 1, None, false)).unwrap();
    // The same controller in both seats of mirrored games: every pair of seatings is even.
    assert_eq!(a.sequences, 6);
    assert!((a.win_rate - 0.5).abs() < 1e-12, "{a:?}");
    let two = scratch("pig", "validate-two");
    run_validation(&spec, &play(&two, 2, Some(2), false)).unwrap();
    let b = run_validation(&spec, &play(&two, 2, None, true)).unwrap();
    assert_eq!(a, b);
    assert_eq!(
        std::fs::read(one.join("games.csv")).unwrap(),
        std::fs::read(two.join("games.csv")).unwrap()
    );
    for d in [one, two] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn the_end_of_an_evolution_on_games_says_whether_the_champion_beat_the_reference_and_prints_its_controller(
) {
    let dir = scratch("pig", "evolve-ending");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("pig-evolve.ron");
    std::fs::write(&spec, EVOLVE).unwrap();
    let out = dir.join("run");
    let (stdout, _) = crate::support::evomcts_ok(&[
        "evolve",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    // Generations counted as the report counts them: four files, the first population and
    // three of evolution.
    assert!(
        stdout.contains("4 generations (gen-000 to gen-003: the first population and 3 of"),
        "{stdout}"
    );
    let verdicts = [
        "the champion beat the reference",
        "the champion did NOT beat the reference",
        "the champion is not shown to beat the reference",
        "the champion is the reference itself",
    ];
    assert_eq!(
        verdicts.iter().filter(|v| stdout.contains(*v)).count(),
        1,
        "{stdout}"
    );
    // The controller, pasted as it is printed, is the candidate it was evolved as with the
    // champion's formula.
    let line = stdout
        .lines()
        .skip_while(|l| !l.contains("the controller it was evolved as (Pig to 20"))
        .nth(1)
        .unwrap_or_else(|| panic!("no controller line: {stdout}"));
    let pasted: evomcts::search::ControllerSpec = evomcts::runfs::ron_options()
        .from_str(line.trim())
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let evomcts::search::ControllerSpec::Mcts(settings) = pasted else {
        panic!("{line}")
    };
    let champion = std::fs::read_to_string(out.join("champion.txt")).unwrap();
    assert_eq!(settings.sims, 30);
    assert_eq!(
        settings.reward,
        Some(evomcts::search::mcts::Reward::WinLoss)
    );
    assert_eq!(
        settings.selection,
        evomcts::search::mcts::Selection::Formula(champion.trim().to_string())
    );
    std::fs::remove_dir_all(dir).unwrap();
}
