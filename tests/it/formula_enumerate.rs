//! `evomcts formula enumerate` and the behaviour line of `formula simplify`: the counts and
//! classes printed for a grammar small enough to check by hand, on a bank written here; names
//! on the committed bank; clear errors for a bad bank and a size over the cap.

use evomcts::evolve::hashing::bank_csv;
use evomcts::formula::{SelectionInputs, SiblingSets};
use std::path::PathBuf;

/// Terminals Q and n, the function `+`, no constant.
const TINY: &str = r#"Grammar(
    name: "tiny",
    functions: ["+"],
    terminals: ["Q", "n"],
    constants: [],
    c_e_values: [],
    depth_cap: 8,
    subtree_depth: (min: 1, max: 2),
    internal_node_probability: 0.9,
)"#;

/// Two sets: in the first, Q favours child 0 and visits child 1; in the second Q ties and
/// the second child is the more visited.
fn bank() -> SiblingSets {
    let mut bank = SiblingSets::new();
    bank.push_set([
        SelectionInputs::new(0.9, 10.0, 1.0, 1.0),
        SelectionInputs::new(0.1, 10.0, 9.0, 1.0),
    ]);
    bank.push_set([
        SelectionInputs::new(0.5, 10.0, 3.0, 1.0),
        SelectionInputs::new(0.5, 10.0, 7.0, 1.0),
    ]);
    bank
}

fn files(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = crate::support::scratch("formula-enumerate", name);
    std::fs::create_dir_all(&dir).unwrap();
    let (grammar, bank_file) = (dir.join("tiny.ron"), dir.join("bank.csv"));
    std::fs::write(&grammar, TINY).unwrap();
    std::fs::write(&bank_file, bank_csv(&bank())).unwrap();
    (dir, grammar, bank_file)
}

#[test]
fn enumerate_prints_counts_and_one_line_per_class() {
    let (_dir, grammar, bank) = files("classes");
    let (grammar, bank) = (grammar.to_str().unwrap(), bank.to_str().unwrap());
    let (out, _) = crate::support::evomcts_ok(&[
        "formula",
        "enumerate",
        "--grammar",
        grammar,
        "--max-nodes",
        "3",
        "--bank",
        bank,
    ]);
    // Trees: Q, n, Q + Q, Q + n, n + Q, n + n (6); forms: Q, n, Q + n, {W1}*Q, {W1}*n (5).
    // On the bank: Q and {W1}*Q (at 1) pick children (0, 0); n, {W1}*n and Q + n (0.9 + 1 <
    // 0.1 + 9, 0.5 + 3 < 0.5 + 7) pick (1, 1): two classes.
    let expected = format!(
        "grammar:  tiny, 1 to 3 nodes\n\
         written:  6 trees (a constant is one leaf kind)\n\
         built:    6 trees, from the unique smaller forms\n\
         unique:   5 forms\n\
         bank:     {bank}, 2 sets; placeholders at 1\n\
         classes:  2\n\
         members  representative  behaviour\n      \
         2  Q               ranks as greedy Q, first child on ties\n      \
         3  n               ranks as most visited (argmax n)\n"
    );
    assert_eq!(out, expected);
    // Without a bank (none given, none under the working directory) only the counts.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args([
            "formula",
            "enumerate",
            "--grammar",
            grammar,
            "--max-nodes",
            "3",
        ])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("unique:   5 forms\nclasses:  need a bank of sibling sets (--bank FILE)\n"),
        "{text}"
    );
}

#[test]
fn simplify_names_the_formula_on_the_given_bank() {
    let (_dir, _, bank) = files("simplify");
    let bank = bank.to_str().unwrap();
    let line = |expr: &str| {
        let (out, _) = crate::support::evomcts_ok(&["formula", "simplify", expr, "--bank", bank]);
        out.lines().nth(2).unwrap().to_string()
    };
    assert_eq!(
        line("Q + 0.0001*n"),
        format!("behaviour:  ranks as greedy Q, more-visited on ties  (bank {bank}, 2 sets)")
    );
    assert_eq!(
        line("Q - n/10000"),
        format!("behaviour:  ranks as greedy Q, first child on ties  (bank {bank}, 2 sets)")
    );
}

#[test]
fn enumerate_refuses_a_size_over_the_cap_and_a_bad_bank() {
    let out = crate::support::evomcts(&["formula", "enumerate", "--max-nodes", "3", "--cap", "9"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("size 2: 10 candidate trees exceed the cap of 9"),
        "{err}"
    );
    let (dir, _, _) = files("bad");
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "set,q\n0,1\n").unwrap();
    let out =
        crate::support::evomcts(&["formula", "simplify", "Q", "--bank", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(bad.to_str().unwrap()), "{err}");
    assert!(out.stdout.is_empty(), "nothing printed before the error");
}
