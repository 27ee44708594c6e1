//! Arithmetic and sizes (issue 23, D2, D3, D4, D5, D8): every number a flag or spec gives is
//! checked (finite, in range), every product of them that is work has an upper bound the
//! message states, and every file is read with a size cap.

use crate::support::evomcts;
use evomcts::league::LeagueSpec;
use std::process::Output;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `evomcts ARGS` is refused with status 2 and a message holding every one of `words`.
fn refused(args: &[&str], words: &[&str]) {
    let out = evomcts(args);
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
    for w in words {
        assert!(message.contains(w), "{args:?}: `{w}` not in {message}");
    }
    assert!(!message.contains("panicked"), "{args:?}: {message}");
}

// D4: a file that never ends is refused at its cap, not read into memory.
#[test]
fn every_file_is_read_with_a_size_cap() {
    refused(&["formula", "grammar", "/dev/zero"], &["/dev/zero", "larger than"]);
    refused(
        &["formula", "mutate", "Q", "--grammar", "/dev/zero"],
        &["/dev/zero", "larger than"],
    );
}

const TINY: &str = r#"(
    name: "tiny",
    games_per_match: 2,
    seed: 5,
    controllers: [
        (name: "A", spec: Random),
        (name: "B", spec: Random),
    ],
)"#;

/// The error of reading `TINY` with `from` replaced by `to`.
fn league_error(from: &str, to: &str) -> String {
    assert!(TINY.contains(from), "{from}");
    LeagueSpec::from_ron(&TINY.replacen(from, to, 1), "tiny.ron")
        .err()
        .unwrap_or_else(|| panic!("{to} was accepted"))
        .to_string()
}

// D8: match points are bounded, so no standing can overflow.
#[test]
fn match_points_are_bounded() {
    for field in ["win_points", "draw_points", "loss_points"] {
        for value in ["4294967295", "2147483648", "1001"] {
            let err = league_error("seed: 5,", &format!("seed: 5, bonus: ({field}: {value}),"));
            assert!(
                err.contains(&format!("bonus.{field}")) && err.contains("at most 1000"),
                "{err}"
            );
        }
    }
    let spec = LeagueSpec::from_ron(
        &TINY.replace("seed: 5,", "seed: 5, bonus: (win_points: 1000),"),
        "tiny.ron",
    )
    .unwrap();
    assert_eq!(spec.bonus.win_points, 1000);
}
