//! Results a game cannot end in (issue 43, causes 1 and 2): every reader of results (a league's
//! records, a validation's rows, a job step's values) checks each pair of final scores against
//! what the game allows, through `GameChoice::check_result`: each score in the game's range,
//! and the pair one its rules give (Connect Four: one winner at most; Pig: exactly one player
//! at the target; a zero-sum game's scores sum to 0).

use crate::reliability_paths::s;
use crate::reliability_records::{edit_first, every_reader_refuses};
use crate::support::{evomcts_within, opts, scratch};
use evomcts::arena::{GameChoice, PlayedGame};
use evomcts::games::pig::PigRules;
use evomcts::league::{load_runs, run_league, LeagueSpec};
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    let dir = scratch("rres", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A finished league of two random players on `game`, 3 games a match.
fn league(dir: &Path, game: &str) -> LeagueSpec {
    let text = format!(
        r#"(name: "r", games_per_match: 3, seed: 5, game: {game},
            controllers: [(name: "A", spec: Random), (name: "B", spec: Random)])"#
    );
    let spec = LeagueSpec::from_ron(&text, "r.ron").unwrap();
    run_league(&spec, &opts(dir, false, 1, None)).unwrap();
    spec
}

/// A validation of Connect Four between two random players, 4 seeds.
const VALIDATION: &str =
    r#"(name:"v",seed:3,sequences:4,game:ConnectFour,candidate:Random,baseline:Random)"#;

/// `validate KIND SPEC --stop-after 0` in `dir` on a spec of `text`: its stdout and folder.
fn validate_no_games(dir: &Path, kind: &str, text: &str) -> (String, PathBuf) {
    let spec = dir.join(format!("{kind}.ron"));
    std::fs::write(&spec, text).unwrap();
    let out = dir.join(kind);
    let args = [
        "validate",
        kind,
        s(&spec),
        "--out",
        s(&out),
        "--stop-after",
        "0",
    ];
    (crate::support::evomcts_ok(&args).0, out)
}

fn set_scores(g: &mut PlayedGame, scores: [i32; 2]) {
    match g {
        PlayedGame::History(r) => r.final_scores = scores,
        PlayedGame::Pig(r) => r.final_scores = scores,
        PlayedGame::Carcassonne(r) => r.final_scores = scores,
    }
}

// Cause 1: a league record's scores are checked against the game's range, as a validation
// row's are: `[2, 0]` and `[i32::MAX, 0]` in Connect Four are refused by every reader.
// Cause 2: the pair is checked as a result: both players winning Connect Four, or neither
// reaching Pig's target, is refused too.
#[test]
fn a_league_record_with_a_result_the_game_cannot_end_in_is_refused_by_every_reader() {
    for (game, bad) in [
        ("ConnectFour", [2, 0]),
        ("ConnectFour", [i32::MAX, 0]),
        ("ConnectFour", [1, 1]),
        ("Pig(target: 12)", [11, 10]),
        ("Pig(target: 12)", [12, 14]),
    ] {
        let dir = folder(&format!("league-{}-{}", bad[0], bad[1]));
        league(&dir, game);
        let clean = std::fs::read(dir.join("games.jsonl")).unwrap();
        edit_first(&dir, |g| set_scores(&mut g.game, bad));
        let err = load_runs(std::slice::from_ref(&dir))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("games.jsonl:1:") && err.contains("game.final_scores"),
            "{game} {bad:?}: {err}"
        );
        every_reader_refuses(&dir, "game.final_scores");
        std::fs::write(dir.join("games.jsonl"), clean).unwrap();
        assert_eq!(load_runs(std::slice::from_ref(&dir)).unwrap().1.len(), 6);
    }
}

/// The check itself, game by game: what each game can and cannot end in.
#[test]
fn each_game_says_which_results_it_can_end_in() {
    let c4 = GameChoice::ConnectFour;
    for ok in [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]] {
        assert_eq!(c4.check_result(ok), Ok(()), "{ok:?}");
    }
    let both = c4.check_result([1.0, 1.0]).unwrap_err();
    assert!(both.contains("one winner at most"), "{both}");
    assert!(c4.check_result([2.0, 0.0]).is_err());
    let pig = GameChoice::Pig(PigRules::new(20).unwrap());
    assert_eq!(pig.check_result([20.0, 19.0]), Ok(()));
    assert_eq!(pig.check_result([0.0, 25.0]), Ok(()));
    for bad in [[19.0, 19.0], [20.0, 20.0], [26.0, 0.0]] {
        assert!(pig.check_result(bad).is_err(), "{bad:?}");
    }
    // Carcassonne: any pair in range.
    assert_eq!(GameChoice::Carcassonne.check_result([90.0, 90.0]), Ok(()));
    assert!(GameChoice::Carcassonne.check_result([-1.0, 3.0]).is_err());
}

// Cause 2: a validation row whose pair of scores no game gives (both players winning Connect
// Four) is refused by `validate --resume`, naming the line and both fields.
#[test]
fn a_validation_row_with_a_result_the_game_cannot_end_in_is_refused() {
    let dir = folder("rows");
    let spec = dir.join("v.ron");
    std::fs::write(&spec, VALIDATION).unwrap();
    let v = dir.join("v");
    let validate = |extra: &[&str]| {
        let mut args = vec![
            "validate",
            "carcassonne",
            s(&spec),
            "--out",
            s(&v),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        evomcts_within(&args, 60)
    };
    assert!(validate(&["--stop-after", "2"]).status.success());
    let rows = std::fs::read_to_string(v.join("games.csv")).unwrap();
    let second = rows.lines().nth(1).unwrap();
    let mut edited: Vec<&str> = second.split(',').collect();
    (edited[4], edited[5]) = ("1", "1");
    let text = rows.replacen(second, &edited.join(","), 1);
    std::fs::write(v.join("games.csv"), &text).unwrap();
    let out = validate(&["--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("games.csv:2: fields 5 and 6") && stderr.contains("one winner at most"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(v.join("games.csv")).unwrap(), text);
    std::fs::write(v.join("games.csv"), &rows).unwrap();
    assert!(validate(&["--resume"]).status.success());
}

// The regression of issue 43: `validate … --stop-after 0`, a sweep stopped before any game and
// a league with no recorded game say there is no result, instead of a win rate of 0.000
// [0.000, 1.000], a score difference of −0.00 and a Wilcoxon p of 1 over zero games.
#[test]
fn a_run_with_no_games_yet_says_there_is_no_result() {
    let dir = folder("no-games");
    let no_number = |what: &str, text: &str| {
        assert!(
            !text.contains("0.000") && !text.contains("1.000") && !text.contains("0.00 "),
            "{what}: {text}"
        );
    };
    let (stdout, v) = validate_no_games(&dir, "carcassonne", VALIDATION);
    assert!(stdout.contains("no games yet: no result"), "{stdout}");
    no_number("validate", &stdout);
    let summary = std::fs::read_to_string(v.join("summary.md")).unwrap();
    assert!(summary.contains("no games yet: no result"), "{summary}");
    let (stdout, sw) = validate_no_games(
        &dir,
        "sweep",
        r#"(name:"sw",seed:3,sequences:2,game:ConnectFour,settings:(sims:5),opponent:Random,c_values:[0.5,1.0])"#,
    );
    assert!(stdout.contains("best: none yet"), "{stdout}");
    no_number("sweep", &stdout);
    let csv = std::fs::read_to_string(sw.join("sweep.csv")).unwrap();
    assert!(csv.ends_with("\n1,0,,,,,,,\n"), "{csv}");

    let league = dir.join("l");
    std::fs::create_dir_all(&league).unwrap();
    std::fs::write(
        league.join("spec.ron"),
        r#"(name: "l", games_per_match: 2, seed: 5, game: ConnectFour,
            controllers: [(name: "A", spec: Random), (name: "B", spec: Random)])"#,
    )
    .unwrap();
    let (stdout, _) = crate::support::evomcts_ok(&["table", s(&league)]);
    assert!(
        stdout.starts_with("No games recorded yet, so no result"),
        "{stdout}"
    );
    no_number("table", &stdout);
    let tables = std::fs::read_to_string(league.join("tables.md")).unwrap();
    assert!(tables.contains("No games recorded yet"), "{tables}");
    no_number("tables.md", &tables);
}

// Issue 43, cause 4: `replay --game K` refuses a record whose moves are legal but which its
// seeds do not play (Connect Four's `turns` edited), status 2, as `replay` of the folder calls
// it diverged.
#[test]
fn showing_a_game_says_when_its_record_does_not_reproduce() {
    let dir = folder("reproduce");
    league(&dir, "ConnectFour");
    let (shown, _) = crate::support::evomcts_ok(&["replay", s(&dir), "--game", "0"]);
    assert!(shown.contains("final scores"), "{shown}");
    edit_first(&dir, |g| match &mut g.game {
        PlayedGame::History(r) => r.turns = [1, 1],
        other => panic!("a history record: {}", other.label()),
    });
    let out = crate::support::evomcts(&["replay", s(&dir), "--game", "0"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // The replay of its moves already contradicts the counts it states (issue 53, cause 13).
    assert!(
        stderr.contains("does not replay") && stderr.contains("field `turns`"),
        "{stderr}"
    );
    let out = crate::support::evomcts(&["replay", s(&dir), "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
}
