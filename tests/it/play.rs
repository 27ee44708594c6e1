//! `evomcts play` at the terminal, its moves piped in: a whole Connect Four game against a
//! seeded UCT is recorded as a league's game, which `replay` reproduces (the person's moves
//! from the record, the controller's searched again) and shows move for move, and `report`
//! turns into its page; bad input is answered and asked again; the end of the input leaves
//! nothing on disk; a league refuses to play a person.

use crate::support::{evomcts, evomcts_ok, scratch};
use evomcts::arena::PlayedGame;
use evomcts::league::{read_records, record_path, LeagueSpec};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The controller of the tests: UCT at a small budget.
const UCT: &str = "Mcts(sims: 50)";

/// `evomcts play ARGS` with `input` on its standard input.
fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before all the input is read: a closed pipe is no failure here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The moves `play` printed (`… plays 3`), in order.
fn moves_played(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(") plays ").map(|(_, mv)| mv.to_string()))
        .collect()
}

/// The moves `replay --game K` shows (`step 3 — you (player 1): 0`), in order.
fn moves_replayed(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("step "))
        .filter_map(|l| l.rsplit_once("): ").map(|(_, mv)| mv.to_string()))
        .collect()
}

/// The recorded game's moves, as the history holds them.
fn moves_recorded(dir: &Path) -> Vec<String> {
    let games = read_records(&record_path(dir)).unwrap().games;
    assert_eq!(games.len(), 1, "one game is recorded");
    let PlayedGame::History(record) = &games[0].game else {
        panic!("Connect Four is recorded by its history");
    };
    record.moves.iter().map(|m| m.to_string()).collect()
}

/// Always the first legal move (the leftmost open column), more often than any game needs.
fn leftmost() -> String {
    "a\n".repeat(50)
}

#[test]
fn a_piped_game_of_connect_four_is_recorded_and_replay_and_report_read_it() {
    let dir = scratch("play", "whole");
    let out = play(
        &[
            "--opponent",
            UCT,
            "--seed",
            "7",
            "--out",
            dir.to_str().unwrap(),
        ],
        &leftmost(),
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("you (player 1) against UCT 50 (player 2)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("a: 0"),
        "the moves are listed under letters: {stdout}"
    );
    assert!(
        stdout.contains("UCT 50: 50 simulations, 7 legal moves"),
        "root statistics: {stdout}"
    );
    assert!(
        stdout.contains(&format!("recorded in {} as game 0", dir.display())),
        "{stdout}"
    );
    let played = moves_played(&stdout);
    assert!(played.len() >= 7, "{played:?}");
    assert_eq!(played[0], "0", "`a` is the leftmost column");
    assert_eq!(moves_recorded(&dir), played);

    let spec = LeagueSpec::from_ron(
        &std::fs::read_to_string(dir.join("spec.ron")).unwrap(),
        "spec.ron",
    )
    .unwrap();
    assert!(spec.controllers[0].person && !spec.controllers[1].person);

    let d = dir.to_str().unwrap();
    let (shown, _) = evomcts_ok(&["replay", d, "--game", "0"]);
    assert_eq!(moves_replayed(&shown), played, "{shown}");
    assert!(
        shown.contains("you (player 1) vs UCT 50 (player 2)"),
        "{shown}"
    );
    let (verified, _) = evomcts_ok(&["replay", d]);
    assert!(
        verified.contains("1 games replayed, 1 reproduced, 0 diverged"),
        "{verified}"
    );
    evomcts_ok(&["report", d]);
    let page = std::fs::read_to_string(dir.join("report/games/game-0.html")).unwrap();
    for mv in &played {
        assert!(
            page.contains(&format!("<td class=\"num\">{mv}</td>")),
            "move {mv} on the page"
        );
    }

    // The same seed, seat and moves give the same game.
    let again = scratch("play", "whole-again");
    let out = play(
        &[
            "--opponent",
            UCT,
            "--seed",
            "7",
            "--out",
            again.to_str().unwrap(),
        ],
        &leftmost(),
    );
    assert!(out.status.success());
    assert_eq!(moves_recorded(&again), played);
}

/// Carcassonne, recorded by its referee: the controller's root statistics are kept with each of
/// its decisions (as a league's `search_detail`), `replay` plays the person's moves again from
/// the record, and `analyse` repeats the controller's search but not the person's.
#[test]
fn a_piped_game_of_carcassonne_keeps_the_controllers_searches() {
    let dir = scratch("play", "carcassonne");
    let d = dir.to_str().unwrap();
    let args = [
        "--game",
        "Carcassonne",
        "--opponent",
        "Mcts(sims: 20)",
        "--top",
        "3",
    ];
    let out = play(&[&args[..], &["--out", d]].concat(), &"a\n".repeat(100));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("tile to place: "), "{stdout}");
    let games = read_records(&record_path(&dir)).unwrap().games;
    let PlayedGame::Carcassonne(record) = &games[0].game else {
        panic!("Carcassonne is recorded by its referee");
    };
    assert_eq!(moves_played(&stdout).len(), record.moves.len());
    assert!(games[0].search[0].is_empty(), "no search of the person's");
    assert_eq!(games[0].search[1].len(), usize::from(record.turns[1]));
    let (verified, _) = evomcts_ok(&["replay", d, "--quiet"]);
    assert!(
        verified.contains("1 games replayed, 1 reproduced"),
        "{verified}"
    );
    let (analysed, _) = evomcts_ok(&[
        "analyse",
        d,
        "--game",
        "0",
        "--turn",
        "2",
        "--controller",
        "UCT 20",
    ]);
    assert!(
        analysed.contains("the league's record of this decision holds the same numbers"),
        "{analysed}"
    );
    let refused = evomcts(&[
        "analyse",
        d,
        "--game",
        "0",
        "--turn",
        "1",
        "--controller",
        "you",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("`you` is a person"),
        "{}",
        text(&refused.stderr)
    );
}

#[test]
fn bad_input_is_answered_and_asked_again() {
    let dir = scratch("play", "bad-input");
    // Not a letter, blank, a column that is no move here, then notations and letters.
    let input = format!("zz\n\n9\n{}\n6\n{}", "x".repeat(5000), leftmost());
    let out = play(
        &[
            "--opponent",
            UCT,
            "--seat",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("you (player 2)"), "{stdout}");
    assert!(
        stdout.contains("`zz` is no legal move here: type a letter from a to g"),
        "{stdout}"
    );
    assert!(
        stdout.contains("type a move's letter or the move itself"),
        "{stdout}"
    );
    assert!(stdout.contains("`9` is no legal move here"), "{stdout}");
    assert!(stdout.contains("longer than 1024 bytes"), "{stdout}");
    let played = moves_played(&stdout);
    // The controller moves first; the person's first move is the column 6 typed.
    assert_eq!(played[1], "6", "{played:?}");
    assert_eq!(moves_recorded(&dir), played);
    assert!(!text(&out.stderr).contains("panicked"));
}

#[test]
fn the_end_of_the_input_leaves_the_game_unrecorded() {
    let dir = scratch("play", "eof");
    let out = play(
        &["--opponent", UCT, "--out", dir.to_str().unwrap()],
        "a\na\n",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("standard input ended before the game did")
            && stderr.contains("nothing is recorded"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(moves_played(&text(&out.stdout)).len(), 4, "two moves each");
    assert!(!dir.exists(), "nothing is written for an unfinished game");
}

#[test]
fn bad_flags_and_taken_folders_are_refused_before_the_game() {
    let refused = |args: &[&str], words: &[&str]| {
        let out = play(args, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        for w in words {
            assert!(stderr.contains(w), "{args:?}: `{w}` not in {stderr}");
        }
        assert!(
            !text(&out.stdout).contains("move>"),
            "{args:?}: no move is asked for"
        );
    };
    refused(&["--game", "Chess"], &["--game 'Chess'", "not a game"]);
    refused(&["--game", "Hex(size: 1)"], &["--game"]);
    refused(&["--opponent", "Mcts(sims: 0)"], &["--opponent"]);
    refused(
        &[
            "--opponent",
            "Mcts(selection: FormulaFile(\"no/such/file.txt\"))",
        ],
        &["--opponent", "no/such/file.txt"],
    );
    refused(&["--seat", "3"], &["--seat"]);
    refused(&["--top", "0"], &["--top"]);
    let taken = scratch("play", "taken");
    let out = play(
        &["--opponent", UCT, "--out", taken.to_str().unwrap()],
        &leftmost(),
    );
    assert!(out.status.success());
    refused(
        &["--out", taken.to_str().unwrap()],
        &["is the folder of another run"],
    );
}

#[test]
fn a_league_refuses_to_play_a_person() {
    let dir = scratch("play", "league");
    let out = play(
        &["--opponent", UCT, "--out", dir.to_str().unwrap()],
        &leftmost(),
    );
    assert!(out.status.success());
    let other = scratch("play", "league-other");
    let out = evomcts(&[
        "league",
        dir.join("spec.ron").to_str().unwrap(),
        "--out",
        other.to_str().unwrap(),
        "--quiet",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("entrant `you` is a person"), "{stderr}");
    assert!(!other.exists(), "a refused league leaves no folder");
}
