//! A command's printed product that cannot be written (issue 34, E1): a full stdout fails the
//! command with status 2 and one line on stderr, in every command, never a panic.

use crate::support::scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn folder(name: &str) -> PathBuf {
    let dir = scratch("routput", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `evomcts ARGS` in `dir` with stdout on `/dev/full`, where every write fails with ENOSPC.
fn into_full_device(dir: &Path, args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

// E1: printing is part of the product of most commands; a write error is an error.
#[test]
fn a_full_stdout_is_an_error_in_every_command_not_a_panic() {
    if !Path::new("/dev/full").exists() {
        // Linux and the BSDs have it; without it the promise is untested here, which CI (on
        // Linux) never accepts.
        assert!(
            std::env::var_os("CI").is_none(),
            "/dev/full is missing: the full-stdout promise goes untested"
        );
        println!("skipped: no /dev/full on this system");
        return;
    }
    let dir = folder("full");
    std::fs::write(dir.join("tiny.ron"), crate::reliability_hangs::TINY).unwrap();
    std::fs::write(dir.join("b.ron"), crate::reliability_paths::TINY_EVOLVE).unwrap();
    let commands: [&[&str]; 7] = [
        &["formula", "show", "Q"],
        &["formula", "mutate", "Q", "--count", "5"],
        &["play", "--seed", "1"],
        &["league", "tiny.ron", "--out", "r", "--quiet"],
        &["table", "r"],
        &["replay", "r", "--game", "1"],
        &["evolve", "b.ron", "--out", "pop", "--quiet"],
    ];
    for args in commands {
        let out = into_full_device(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let last = stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: writing to standard output"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // The files are the product of `league` and `evolve`, written before printing.
    assert!(dir.join("r/tables.md").is_file());
    assert!(dir.join("pop/gen-001.ron").is_file());
    let _ = std::fs::remove_dir_all(dir);
}

// E1, the class: stdout is written only through `out!`/`outln!`, which return the error;
// `print!` and `println!` would panic.
#[test]
fn nothing_prints_in_a_way_that_panics() {
    crate::support::assert_no_source_line("print through out!/outln! instead", |_, code| {
        (code.contains("println!(") || code.contains(" print!(") || code.starts_with("print!("))
            && !code.contains("eprint")
    });
}

// Issue 43, cause 17: a stdout closed when the command starts (`>&-`) is not success. Rust's
// runtime puts the null device in its place before `main`, so the binary notes it earlier.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_an_error_not_success() {
    let dir = folder("closed");
    for args in ["formula show Q", "play --seed 1"] {
        let out = Command::new("sh")
            .current_dir(&dir)
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >&-"))
            .arg(env!("CARGO_BIN_EXE_evomcts"))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {stderr}");
        assert!(
            stderr.contains("it was closed when evomcts started"),
            "{args}: {stderr}"
        );
    }
    // Sent to /dev/null on purpose, the output is discarded without an error.
    let out = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["formula", "show", "Q"])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
