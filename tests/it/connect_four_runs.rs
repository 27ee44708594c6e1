//! Leagues, evolution runs and validations of Connect Four, the game registered with nothing
//! but its own file and one arm of the registry: its games are recorded by their history,
//! which replays move for move, shows in `replay --game K` and the report with the game's text
//! of each position, and runs resume byte for byte.

use crate::support::{opts, scratch};
use evomcts::arena::{history_moves, replay_history, GameChoice, PlayedGame, ReplayError};
use evomcts::evolve::{run_evolution, EvolveSpec};
use evomcts::games::connect_four::ConnectFourState;
use evomcts::league::{read_records, record_path, run_league, LeagueSpec};
use evomcts::runfs::SpecFile;
use evomcts::validation::{run_validation, ValidateSpec};
use std::path::Path;

const LEAGUE: &str = r#"(
    name: "connect-four-tiny",
    games_per_match: 2,
    seed: 12,
    game: ConnectFour,
    controllers: [
        (name: "Random", spec: Random),
        (name: "UCT", spec: Mcts(sims: 60, c_e: 0.5, reward: WinLoss)),
        (name: "Star", spec: Star(depth: 2, lower: -1.0, upper: 1.0)),
    ],
)"#;

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    crate::evolve_resume::files(dir)
}

fn record_lines(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(record_path(dir)).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.sort();
    lines
}

#[test]
fn a_connect_four_league_is_recorded_by_history_and_replays_and_resumes_byte_identically() {
    let spec = LeagueSpec::from_ron(LEAGUE, "c4.ron").unwrap();
    assert_eq!(spec.game, GameChoice::ConnectFour);
    assert!(
        spec.to_ron().contains("game: ConnectFour"),
        "{}",
        spec.to_ron()
    );
    let whole = scratch("connect-four", "league-whole");
    run_league(&spec, &opts(&whole, false, 2, None)).unwrap();
    let games = read_records(&record_path(&whole)).unwrap().games;
    assert_eq!(games.len(), 12);
    for g in &games {
        let PlayedGame::History(record) = &g.game else {
            panic!(
                "Connect Four has no record type of its own: {:?}",
                g.game.label()
            );
        };
        assert_eq!(record.game, GameChoice::ConnectFour);
        assert!(record.outcomes.is_empty(), "a game without chance");
        let end = replay_history(
            ConnectFourState::new(),
            history_moves::<ConnectFourState>(record),
            &record.outcomes,
            record.stated(),
            |_, _| {},
        )
        .unwrap();
        assert_eq!(end.winner(), g.game.winner());
        assert_eq!(
            usize::from(record.turns[0] + record.turns[1]),
            record.moves.len()
        );
    }
    // A record whose move is no legal move is refused, naming the move.
    let PlayedGame::History(mut tampered) = games[0].game.clone() else {
        unreachable!()
    };
    tampered.moves[0] = serde_json::json!(9);
    let refused = replay_history(
        ConnectFourState::new(),
        history_moves::<ConnectFourState>(&tampered),
        &tampered.outcomes,
        tampered.stated(),
        |_, _| {},
    )
    .unwrap_err();
    assert!(
        matches!(refused, ReplayError::Move { index: 0, .. }),
        "{refused}"
    );
    assert!(refused.to_string().contains("column 9"), "{refused}");

    // A record whose stated decisions per seat its moves contradict is refused by the replay.
    let PlayedGame::History(mut miscounted) = games[0].game.clone() else {
        unreachable!()
    };
    miscounted.turns = [1, 1];
    let refused = replay_history(
        ConnectFourState::new(),
        history_moves::<ConnectFourState>(&miscounted),
        &miscounted.outcomes,
        miscounted.stated(),
        |_, _| {},
    )
    .unwrap_err();
    assert!(
        matches!(
            refused,
            ReplayError::Turns {
                recorded: [1, 1],
                ..
            }
        ),
        "{refused}"
    );

    // Interrupted after 4 games on one thread, resumed on two: the same records and tables.
    let split = scratch("connect-four", "league-split");
    run_league(&spec, &opts(&split, false, 1, Some(4))).unwrap();
    run_league(&spec, &opts(&split, true, 2, None)).unwrap();
    assert_eq!(record_lines(&whole), record_lines(&split));
    let tables = |d: &Path| {
        files(d)
            .into_iter()
            .filter(|(n, _)| n.ends_with(".csv") || n.ends_with(".json") || n == "spec.ron")
            .collect::<Vec<_>>()
    };
    assert_eq!(tables(&whole), tables(&split));

    // `replay` plays every game again; `replay --game K` and the report show the positions.
    let run = whole.to_str().unwrap();
    let (out, _) = crate::support::evomcts_ok(&["replay", run, "--quiet"]);
    assert!(
        out.contains("12 games replayed, 12 reproduced, 0 diverged"),
        "{out}"
    );
    let (shown, _) = crate::support::evomcts_ok(&["replay", run, "--game", "0"]);
    assert!(
        shown.contains("Connect Four")
            && shown.contains("step 1 ")
            && shown.contains("    ......."),
        "{shown}"
    );
    let report = scratch("connect-four", "league-report");
    crate::support::evomcts_ok(&["report", run, "--out", report.to_str().unwrap()]);
    let page = std::fs::read_to_string(report.join("games").join("game-0.html")).unwrap();
    assert!(
        page.contains("Connect Four") && page.contains("<pre class=\"position\">"),
        "{page}"
    );
    // Connect Four has no bonus points of its own: the win rates lead the page.
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    let at = |id: &str| index.find(&format!("<section id=\"{id}\">")).unwrap();
    assert!(at("win_rates") < at("standings"));
    // The position is drawn as a board, a row per line: neither one line with `\n` escapes
    // (as the pages showed it) nor anything but the game's rows.
    let board = page
        .split("<pre class=\"position\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap();
    assert!(!board.contains("\\n"), "{board}");
    let rows: Vec<&str> = board.lines().collect();
    assert!(
        rows.len() == 6
            && rows
                .iter()
                .all(|r| r.len() == 7 && r.chars().all(|c| "xo.".contains(c))),
        "{board}"
    );
    for d in [whole, split, report] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// `report` on a league one of whose records states decision counts (`turns`) its moves
/// contradict: refused with status 2, naming the records file, the line and the field, and no
/// page written.
#[test]
fn report_refuses_a_record_whose_stated_turns_its_moves_contradict() {
    let spec = LeagueSpec::from_ron(LEAGUE, "c4.ron").unwrap();
    let dir = scratch("connect-four", "miscounted");
    run_league(&spec, &opts(&dir, false, 2, Some(3))).unwrap();
    let file = record_path(&dir);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines[1]
        .find("\"turns\":[")
        .expect("a history record states its turns");
    let end = at + lines[1][at..].find(']').unwrap() + 1;
    assert_ne!(&lines[1][at..end], "\"turns\":[1,1]");
    lines[1].replace_range(at..end, "\"turns\":[1,1]");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let report = dir.join("report");
    let out = crate::support::evomcts(&[
        "report",
        dir.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("games.jsonl:2:")
            && stderr.contains("`turns`")
            && stderr.contains("[1, 1]"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

const EVOLVE: &str = r#"(
    name: "connect-four-evolve",
    seed: 6,
    strategy: (mu: 2, lambda: 3, generations: 2, plus: true),
    noise: (samples: 3, elites: 1, elite_samples: 3),
    fitness: Games(
        game: ConnectFour,
        candidate: (sims: 30, c_e: 0.5, reward: WinLoss),
        baseline: Mcts(sims: 30, c_e: 0.5, reward: WinLoss),
        score: WinRate,
    ),
)"#;

#[test]
fn a_short_evolution_on_connect_four_resumes_byte_identically() {
    let spec = EvolveSpec::from_ron(EVOLVE, "c4-evolve.ron").unwrap();
    assert_eq!(
        EvolveSpec::from_ron(&spec.to_ron(), "again.ron").unwrap(),
        spec
    );
    let whole = scratch("connect-four", "evolve-whole");
    let out = run_evolution(&spec, &crate::support::evolve_opts(&whole, 1, false, None)).unwrap();
    assert_eq!(out.last.generation, 2);
    let split = scratch("connect-four", "evolve-split");
    run_evolution(
        &spec,
        &crate::support::evolve_opts(&split, 2, false, Some(1)),
    )
    .unwrap();
    run_evolution(&spec, &crate::support::evolve_opts(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

const VALIDATE: &str = r#"(
    name: "connect-four-validate",
    seed: 3,
    sequences: 4,
    game: ConnectFour,
    candidate: Mcts(sims: 30, reward: WinLoss, selection: Formula("Q + 2*C*sqrt(2*ln(N)/n)"), c_e: 0.5),
    baseline: Mcts(sims: 30, reward: WinLoss, c_e: 0.5),
)"#;

#[test]
fn a_connect_four_validation_of_a_formula_equal_to_its_baseline_is_even_and_thread_independent() {
    let spec = ValidateSpec::from_ron(VALIDATE, "v.ron").unwrap();
    let one = scratch("connect-four", "validate-one");
    let a = run_validation(&spec, &crate::support::validate_opts(&one, false, 1, None)).unwrap();
    assert_eq!(a.sequences, 4);
    assert!((a.win_rate - 0.5).abs() < 1e-12, "{a:?}");
    let two = scratch("connect-four", "validate-two");
    run_validation(
        &spec,
        &crate::support::validate_opts(&two, false, 2, Some(2)),
    )
    .unwrap();
    let b = run_validation(&spec, &crate::support::validate_opts(&two, true, 2, None)).unwrap();
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
fn bench_search_times_mcts_on_any_native_game_and_refuses_an_unknown_one() {
    for (game, label) in [
        ("ConnectFour", "Connect Four"),
        ("Pig(target: 30)", "Pig to 30"),
    ] {
        let (out, _) = crate::support::evomcts_ok(&[
            "bench",
            "search",
            "--game",
            game,
            "--positions",
            "2",
            "--repeats",
            "1",
            "--sims",
            "20",
            "--only",
            "mcts",
            "--json",
        ]);
        let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(report["game"], label, "{out}");
        assert!(report["mcts_decision_ms"].as_f64().unwrap() > 0.0, "{out}");
        assert!(report["playouts_per_sec"].as_f64().unwrap() > 0.0, "{out}");
        // The search grew a tree on the game's positions.
        assert!(report["mcts_nodes_median"].as_f64().unwrap() > 1.0, "{out}");
    }
    let bad = crate::support::evomcts(&["bench", "search", "--game", "Chess"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected a game as a spec names it"));
}
