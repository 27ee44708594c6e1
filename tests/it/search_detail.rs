//! `search_detail`: what a league records of each search decision, that records without it
//! still read with the same spec hash, and that `evomcts analyse` repeats a recorded decision's
//! search number for number.

use crate::support::{evomcts, evomcts_ok, opts, scratch};
use evomcts::league::analyse::{analyse_turn, Analyst};
use evomcts::league::{load_runs, run_league, LeagueGame, LeagueSpec};
use evomcts::search::SearchSummary;
use std::path::Path;

const SPEC: &str = r#"(
    name: "detail",
    games_per_match: 1,
    seed: 11,
    es_detail: Full,
    search_detail: RootChildren(4),
    controllers: [
        (name: "UCT", spec: Mcts(sims: 24)),
        (name: "Knowledge", spec: Mcts(sims: 24, selection: Formula("Q + H + C * sqrt(ln(N) / n)"))),
        (name: "ES", spec: Mcts(sims: 16, es: (generations: 2, lambda: 2, sims_per_fitness: 2))),
        (name: "Star", spec: Star(depth: 1, probing: 0)),
    ],
)"#;

fn detailed_league(name: &str) -> (std::path::PathBuf, LeagueSpec, Vec<LeagueGame>) {
    let dir = scratch("search-detail", name);
    let spec = LeagueSpec::from_ron(SPEC, "detail.ron").unwrap();
    run_league(&spec, &opts(&dir, false, 2, None)).unwrap();
    let (spec, games, _) = load_runs(std::slice::from_ref(&dir)).unwrap();
    (dir, spec, games)
}

#[test]
fn every_search_decision_is_recorded_bounded_and_most_visited_first() {
    let (dir, spec, games) = detailed_league("recorded");
    assert_eq!(games.len(), 12);
    for game in &games {
        for seat in 0..2 {
            let entrant = &game.names[seat];
            let turns: Vec<usize> = (0..game.game.carcassonne().unwrap().moves.len())
                .filter(|&t| {
                    // Players alternate, the first seat moving at even turns.
                    t % 2 == seat
                })
                .collect();
            let recorded: Vec<usize> = game.search[seat].iter().map(|d| d.turn).collect();
            assert_eq!(recorded, turns, "{entrant}: one record per decision");
            for decision in &game.search[seat] {
                match (&decision.search, entrant.as_str()) {
                    (SearchSummary::Mcts(root), "UCT" | "Knowledge" | "ES") => {
                        assert!(root.children.len() <= 4);
                        assert_eq!(root.children.len(), root.legal_moves.min(4));
                        assert!(root.children.windows(2).all(|w| w[0].visits >= w[1].visits));
                        let forced = root.legal_moves == 1;
                        let sims = if entrant == "ES" { 16 } else { 24 };
                        assert_eq!(root.simulations, if forced { 0 } else { sims });
                        assert!(root.children.iter().map(|c| c.visits as u64).sum::<u64>() <= sims);
                        let knows = root
                            .children
                            .iter()
                            .all(|c| c.heuristic.is_some() && c.prior.is_some());
                        assert_eq!(
                            knows,
                            entrant == "Knowledge",
                            "{entrant}: H and p when read"
                        );
                    }
                    (SearchSummary::Star { value, nodes }, "Star") => {
                        assert!(value.is_some() && *nodes >= 1);
                    }
                    (other, _) => panic!("{entrant} recorded {other:?}"),
                }
            }
        }
    }
    let line = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert!(line.contains("\"search\":[["), "the records hold the field");
    assert!(spec.to_ron().contains("search_detail: RootChildren(4)"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_league_without_search_detail_keeps_its_records_and_spec_hash() {
    // A committed run written before the field existed reads, with its stored spec's hash.
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/replication/star/seed-2021");
    let (spec, games, _) = load_runs(std::slice::from_ref(&committed)).unwrap();
    assert!(spec.search_detail.is_off());
    assert!(!spec.to_ron().contains("search_detail"));
    assert!(games.iter().all(|g| g.search.iter().all(Vec::is_empty)));
    assert!(games.iter().all(|g| g.spec_hash == spec.hash()));
    // Written again, a record without search decisions has no `search` field.
    let line = serde_json::to_string(&games[0]).unwrap();
    assert!(!line.contains("\"search\""), "{}", &line[..200]);
}

#[test]
fn analyse_repeats_every_recorded_decision_of_a_game() {
    let (dir, spec, games) = detailed_league("analyse");
    // Games with each MCTS entrant and Star as the mover.
    for pair in [("UCT", "ES"), ("Knowledge", "Star"), ("ES", "UCT")] {
        let game = games
            .iter()
            .find(|g| g.names[0] == pair.0 && g.names[1] == pair.1)
            .unwrap();
        for turn in 1..=game.game.carcassonne().unwrap().moves.len() {
            let seat = (turn - 1) % 2;
            let analysis = analyse_turn(
                &spec,
                game,
                turn,
                &Analyst::Entrant(game.names[seat].clone()),
                4,
            )
            .unwrap();
            assert!(analysis.repeats_decision);
            assert_eq!(
                analysis.chosen,
                game.game.carcassonne().unwrap().moves[turn - 1],
                "turn {turn}"
            );
            assert_eq!(analysis.search, analysis.recorded, "{pair:?} turn {turn}");
            assert_eq!(analysis.reproduces_record(), Some(true));
        }
    }
    // Another entrant searches afresh; the record stays what it compares with.
    let game = &games[0];
    let other = spec
        .names()
        .into_iter()
        .find(|n| *n != game.names[0])
        .unwrap();
    let analysis = analyse_turn(&spec, game, 1, &Analyst::Entrant(other), 4).unwrap();
    assert!(!analysis.repeats_decision);
    assert!(analysis.recorded.is_some());

    // The command prints the same numbers as JSON, and a table by default.
    let k = games
        .iter()
        .position(|g| g.names == ["UCT".to_string(), "ES".to_string()])
        .unwrap();
    let number = games[k]
        .id()
        .number(spec.controllers.len(), spec.games_per_match);
    let run = dir.display().to_string();
    let game_arg = number.to_string();
    let analyse = |extra: &[&str]| {
        let mut args = vec!["analyse", &run, "--game", &game_arg, "--turn", "5"];
        args.extend_from_slice(extra);
        evomcts_ok(&args).0
    };
    let json = analyse(&["--controller", "UCT", "--top", "4", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["search"], value["recorded"]);
    assert_eq!(value["repeats_decision"], true);
    let recorded = &games[k].search[0]
        .iter()
        .find(|d| d.turn == 4)
        .unwrap()
        .search;
    assert_eq!(value["recorded"], serde_json::to_value(recorded).unwrap());
    let table = analyse(&["--controller", "Mcts(sims: 50)"]);
    assert!(table.contains("a fresh search): 50 simulations"), "{table}");
    assert!(table.contains("recorded for UCT"), "{table}");

    // Bad input is an error naming what was wrong.
    for (args, wanted) in [
        (vec!["--turn", "0", "--controller", "UCT"], "--turn 0"),
        (vec!["--turn", "999", "--controller", "UCT"], "--turn 999"),
        (
            vec!["--turn", "3", "--controller", "Nobody("],
            "neither an entrant",
        ),
        (
            vec!["--turn", "3", "--controller", "Star", "--sims", "9"],
            "--sims 9",
        ),
    ] {
        let mut all = vec!["analyse", &run, "--game", "0"];
        all.extend(args);
        let out = evomcts(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(wanted),
            "{all:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
