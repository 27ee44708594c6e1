//! What the binary cannot do it says (issue 43, causes 11 and 12): it has no OpenSpiel, so
//! `replay` of an OpenSpiel league refuses to replay (never "0 reproduced, 120 diverged") and
//! `slurm` refuses to write jobs that could only fail; both name `python -m evomcts`.

use crate::reliability_paths::{s, stderr};
use crate::support::{evomcts, scratch};
use std::path::Path;

const RUN: &str = "runs/open-spiel/connect-four";

// Cause 11.
#[test]
fn the_binary_refuses_to_replay_an_open_spiel_league_and_names_the_python_entry_point() {
    for args in [
        vec!["replay", RUN, "--quiet"],
        vec!["replay", RUN, "--game", "0"],
    ] {
        let out = evomcts(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot be replayed by this program") && err.contains("python -m evomcts"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("reproduce") && !err.contains("diverged"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Listing needs no game.
    assert!(evomcts(&["replay", RUN, "--list"]).status.success());
}

// Cause 12: for a league (a job array) and for an evolution (one driver), nothing is written.
#[test]
fn the_binary_refuses_to_write_slurm_jobs_for_an_open_spiel_game() {
    let dir = scratch("rbin", "slurm");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("jobs");
    for args in [
        vec!["slurm", "runs/open-spiel/connect-four.ron", "--tasks", "2"],
        vec![
            "slurm",
            "runs/open-spiel/evolve/connect-four.ron",
            "--kind",
            "evolve",
            "--tasks",
            "2",
        ],
    ] {
        let mut args = args;
        args.extend(["--out", s(&out)]);
        let result = evomcts(&args);
        let err = stderr(&result);
        assert_eq!(result.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("game:") && err.contains("python -m evomcts"),
            "{args:?}: {err}"
        );
        assert!(
            !Path::new(&out).exists(),
            "{args:?} wrote {}",
            out.display()
        );
    }
}
