//! Nothing waits forever on what it reads (issue 34, E3, E4): a FIFO or a device where a run
//! file is expected is refused without being opened for a blocking read, and a row no game
//! could have produced is refused with its line instead of being summarised or resumed.

use crate::support::{evomcts_ok, evomcts_within, scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

fn folder(name: &str) -> PathBuf {
    let dir = scratch("rhangs", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Replaces `path` by a FIFO nothing ever writes to.
fn plant_fifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// `evomcts ARGS` returns on its own within 20 s, refused (status 2) with a message naming
/// `file` and what it is.
fn refused_without_waiting(args: &[&str], file: &str) {
    let stderr = refused_at_once(args, file);
    assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
}

/// `evomcts ARGS` returns on its own within 20 s, refused (status 2) with a message naming
/// `file`; its stderr.
fn refused_at_once(args: &[&str], file: &str) -> String {
    let out = evomcts_within(args, 20);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(file), "{args:?}: {stderr}");
    stderr
}

pub const TINY: &str = r#"(name:"tiny",games_per_match:2,seed:7,controllers:[(name:"R",spec:Random),(name:"M",spec:Mcts(sims:10))])"#;

pub const VC: &str = r#"(name:"vc",seed:3,sequences:3,candidate:Mcts(sims:10,selection:Formula("Q + 2/n")),baseline:Mcts(sims:10))"#;

// E3: every reader of a league's records, and `league --resume`, refuses a FIFO at
// `games.jsonl`; a spec that is a FIFO is refused the same way.
#[test]
fn a_fifo_where_a_run_file_is_expected_is_refused_at_once() {
    let dir = folder("fifo");
    let spec = dir.join("tiny.ron");
    std::fs::write(&spec, TINY).unwrap();
    let run = dir.join("r");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    plant_fifo(&run.join("games.jsonl"));
    let elsewhere = dir.join("elsewhere");
    for args in [
        vec!["table", s(&run)],
        vec!["replay", s(&run), "--list"],
        vec!["report", s(&run), "--out", s(&elsewhere)],
        vec!["plot", "all", s(&run), "--out", s(&elsewhere)],
        vec!["league", s(&spec), "--out", s(&run), "--resume", "--quiet"],
    ] {
        refused_without_waiting(&args, "games.jsonl");
    }
    let fifo_spec = dir.join("fifo.ron");
    plant_fifo(&fifo_spec);
    refused_without_waiting(&["league", s(&fifo_spec), "--quiet"], "fifo.ron");
    refused_without_waiting(&["formula", "grammar", "/dev/zero"], "/dev/zero");
    let _ = std::fs::remove_dir_all(dir);
}

// README, Promises: a socket where a spec or a record is expected is refused at once, status 2,
// naming the file. Opening a socket fails by itself (ENXIO, "No such device or address"), so
// the message is the system's rather than "not a regular file" when the open comes first.
#[test]
fn a_socket_where_a_run_file_is_expected_is_refused_at_once() {
    use std::os::unix::net::UnixListener;
    let dir = folder("socket");
    let spec = dir.join("tiny.ron");
    std::fs::write(&spec, TINY).unwrap();
    let run = dir.join("r");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    std::fs::remove_file(run.join("games.jsonl")).unwrap();
    let _records = UnixListener::bind(run.join("games.jsonl")).unwrap();
    let socket_spec = dir.join("socket.ron");
    let _spec = UnixListener::bind(&socket_spec).unwrap();
    for args in [
        vec!["table", s(&run)],
        vec!["replay", s(&run), "--list"],
        vec!["league", s(&spec), "--out", s(&run), "--resume", "--quiet"],
    ] {
        refused_at_once(&args, "games.jsonl");
    }
    refused_at_once(&["league", s(&socket_spec), "--quiet"], "socket.ron");
    refused_at_once(&["evolve", s(&socket_spec), "--quiet"], "socket.ron");
    let _ = std::fs::remove_dir_all(dir);
}

// E3: generation files and validation rows are opened only if they are regular files.
#[test]
fn a_fifo_among_generation_files_or_validation_rows_is_refused_at_once() {
    let dir = folder("fifo-gens");
    let spec = dir.join("b.ron");
    std::fs::write(&spec, crate::reliability_paths::TINY_EVOLVE).unwrap();
    let pop = dir.join("pop");
    evomcts_ok(&["evolve", s(&spec), "--out", s(&pop), "--quiet"]);
    plant_fifo(&pop.join("gen-001.ron"));
    refused_without_waiting(
        &["evolve", s(&spec), "--out", s(&pop), "--resume", "--quiet"],
        "gen-001.ron",
    );

    let vc = dir.join("vc.ron");
    std::fs::write(&vc, VC).unwrap();
    let v = dir.join("v");
    evomcts_ok(&["validate", "carcassonne", s(&vc), "--out", s(&v), "--quiet"]);
    plant_fifo(&v.join("games.csv"));
    refused_without_waiting(
        &[
            "validate",
            "carcassonne",
            s(&vc),
            "--out",
            s(&v),
            "--resume",
            "--quiet",
        ],
        "games.csv",
    );
    let _ = std::fs::remove_dir_all(dir);
}

// E4: a validation row no game could have produced (`NaN`, out of range, not whole, a seat
// other than 0 or 1) is refused on resume with its line, not resumed or summarised.
#[test]
fn a_validation_row_no_game_could_produce_is_refused_with_its_line() {
    let dir = folder("rows");
    let vc = dir.join("vc.ron");
    std::fs::write(&vc, VC.replace("sequences:3", "sequences:30")).unwrap();
    let v = dir.join("v");
    let validate = |extra: &[&str]| {
        let mut args = vec!["validate", "carcassonne", s(&vc), "--out", s(&v), "--quiet"];
        args.extend_from_slice(extra);
        evomcts_within(&args, 60)
    };
    assert!(validate(&["--stop-after", "2"]).status.success());
    let rows = std::fs::read_to_string(v.join("games.csv")).unwrap();
    let second: Vec<&str> = rows.lines().nth(1).unwrap().split(',').collect();
    for (field, bad) in [
        (4, "NaN"),
        (5, "inf"),
        (4, "1e308"),
        (5, "-3"),
        (4, "2.5"),
        (3, "7"),
    ] {
        let mut edited = second.clone();
        edited[field] = bad;
        let text = rows.replacen(rows.lines().nth(1).unwrap(), &edited.join(","), 1);
        std::fs::write(v.join("games.csv"), &text).unwrap();
        let out = validate(&["--resume"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(
            stderr.contains(&format!("games.csv:2: field {}", field + 1)),
            "{bad}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(v.join("games.csv")).unwrap(), text);
    }
    std::fs::write(v.join("games.csv"), &rows).unwrap();
    assert!(validate(&["--resume"]).status.success());
    let _ = std::fs::remove_dir_all(dir);
}
