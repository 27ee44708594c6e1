//! Arithmetic and sizes (issue 23, D2, D3, D4, D5, D8): every number a flag or spec gives is
//! checked (finite, in range), every product of them that is work has an upper bound the
//! message states, and every file is read with a size cap.

use crate::support::evomcts;
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
