//! OpenSpiel's games in a process without OpenSpiel (the binary): a spec naming one is read
//! (tables, reports) but refused to play, with the message naming the Python entry point. The
//! committed league `runs/open-spiel/connect-four` (played by `python -m evomcts`) is the
//! folder read; python/tests/test_open_spiel.py plays such games.

use crate::support::scratch;
use evomcts::arena::{GameChoice, OpenSpielGame, OpenSpielSpec, PlayedGame};
use evomcts::league::{load_runs, LeagueSpec};
use std::path::Path;
use std::process::Command;

const RUN: &str = "runs/open-spiel/connect-four";

fn evomcts(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn the_committed_open_spiel_league_reads_with_its_game_version_and_signed_scores() {
    let (spec, games, _) = load_runs(&[Path::new(RUN).to_path_buf()]).unwrap();
    let connect_four = OpenSpielGame::new(OpenSpielSpec {
        name: "connect_four".into(),
        params: Default::default(),
        modules: Vec::new(),
    });
    assert_eq!(spec.game, GameChoice::OpenSpiel(connect_four));
    assert_eq!(games.len(), 120);
    for game in &games {
        let PlayedGame::History(record) = &game.game else {
            panic!("an OpenSpiel game is recorded by its history");
        };
        assert_eq!(record.open_spiel.as_deref(), Some("2.0.2"));
        let [a, b] = record.final_scores;
        assert!(a + b == 0 && a.abs() <= 1, "{a} {b}");
        assert!(record.outcomes.is_empty() && !record.moves.is_empty());
    }
}

#[test]
fn the_binary_prints_plots_and_reports_an_open_spiel_league_without_positions() {
    let out = evomcts(&["table", RUN]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Evolved 200") && text.contains("UCT 200"),
        "{text}"
    );
    let dir = scratch("open-spiel", "report");
    let report = dir.join("report");
    let out = evomcts(&["report", RUN, "--out", report.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plots = dir.join("plots");
    let out = evomcts(&["plot", "league", RUN, "--out", plots.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(plots.join("league_win_rates.svg").exists());
    let page = std::fs::read_to_string(report.join("games/game-0.html")).unwrap();
    assert!(
        page.contains("python -m evomcts report RUN --out OUT"),
        "{page}"
    );
    assert!(page.contains("OpenSpiel&#39;s connect_four"), "{page}");
}

#[test]
fn the_binary_refuses_to_play_an_open_spiel_game_and_names_the_python_entry_point() {
    let dir = scratch("open-spiel", "refused");
    let out_dir = dir.join("league");
    let out = evomcts(&[
        "league",
        "runs/open-spiel/connect-four.ron",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`connect_four` is played from the Python package")
            && err.contains("python -m evomcts"),
        "{err}"
    );
    assert!(!out_dir.exists(), "a refused league leaves no folder");
    let out = evomcts(&["replay", RUN, "--quiet"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("played from the Python package"));
    let out = evomcts(&[
        "evolve",
        "runs/open-spiel/evolve/pig.ron",
        "--out",
        dir.join("evo").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("`pig(winscore=20)` is played from the Python package"));
}

#[test]
fn an_open_spiel_game_is_written_in_specs_as_openspiel_takes_it() {
    let spec = LeagueSpec::from_ron(
        r#"(name: "x", games_per_match: 2, seed: 1, game: OpenSpiel(name: "pig", params: {"winscore": 20, "piglet": false}),
            controllers: [(name: "A", spec: Random), (name: "B", spec: Random)])"#,
        "x.ron",
    )
    .unwrap();
    assert_eq!(
        spec.game.label(),
        "OpenSpiel's pig(piglet=false,winscore=20)"
    );
    let err = LeagueSpec::from_ron(
        r#"(name: "x", games_per_match: 2, seed: 1, game: OpenSpiel(name: "pig", rows: 3),
            controllers: [(name: "A", spec: Random), (name: "B", spec: Random)])"#,
        "x.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("rows"), "{err}");
}
