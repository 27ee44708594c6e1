//! The lists of terminals that cannot be derived from the table `formula::TERMINALS` at
//! compile time agree with it: the Python stub's keywords, the fingerprint bank's columns,
//! and what `formula eval`'s flags set.

use evomcts::evolve::hashing::bank_csv;
use evomcts::formula::{SiblingSets, TerminalClass, TERMINALS};

use crate::support::evomcts_ok;

/// The keyword-only parameters of `Formula.eval` in the stub, as (name, default) in order.
fn stub_eval_keywords(stub: &str) -> Vec<(String, f64)> {
    let formula = stub
        .split("\nclass Formula:")
        .nth(1)
        .and_then(|rest| rest.split("\nclass ").next())
        .expect("the stub declares class Formula");
    let signature = formula
        .split("    def eval(")
        .nth(1)
        .and_then(|rest| rest.split(") -> float:").next())
        .expect("Formula declares eval(...) -> float");
    let keywords = signature
        .split("*,")
        .nth(1)
        .expect("eval's parameters are keyword-only");
    keywords
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (name, default) = p
                .split_once(": float =")
                .unwrap_or_else(|| panic!("`{p}` is not `name: float = default`"));
            (name.trim().to_string(), default.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn the_python_stub_lists_every_keyword_of_formula_eval_with_its_default() {
    let stub = include_str!("../../python/evomcts/_evomcts.pyi");
    let table: Vec<(String, f64)> = TERMINALS
        .iter()
        .map(|t| (t.keyword.to_string(), t.default))
        .collect();
    assert_eq!(
        stub_eval_keywords(stub),
        table,
        "python/evomcts/_evomcts.pyi: Formula.eval's keywords are not the terminals' of \
         formula::TERMINALS"
    );
}

#[test]
fn the_stub_check_sees_a_missing_keyword() {
    let stub = include_str!("../../python/evomcts/_evomcts.pyi");
    let without_turn = stub.replacen("        turn: float = 0.0,\n", "", 1);
    assert_ne!(without_turn, stub, "the stub has the keyword `turn`");
    assert_eq!(stub_eval_keywords(&without_turn).len(), TERMINALS.len() - 1);
}

#[test]
fn the_fingerprint_bank_stores_the_tables_bank_columns_in_order() {
    let csv = bank_csv(&SiblingSets::new());
    let header = csv.lines().next().unwrap();
    let columns: Vec<&str> = TERMINALS.iter().filter_map(|t| t.bank_column).collect();
    assert_eq!(header, format!("set,{}", columns.join(",")));
    // The bank carries the statistics and H, p; no move feature.
    for t in TERMINALS {
        let banked = t.bank_column.is_some();
        assert_eq!(
            banked,
            t.class != TerminalClass::MoveFeature,
            "{}",
            t.symbol
        );
    }
}

#[test]
fn each_flag_of_formula_eval_sets_its_terminal() {
    for t in TERMINALS {
        let flag = format!("--{}", t.flag);
        let (out, _) = evomcts_ok(&["formula", "eval", t.symbol, &flag, "3.5"]);
        assert_eq!(out.trim(), "3.5", "{flag} sets {}", t.symbol);
        let (out, _) = evomcts_ok(&["formula", "eval", t.symbol]);
        assert_eq!(
            out.trim().parse::<f64>().unwrap(),
            t.default,
            "{}'s default",
            t.symbol
        );
    }
    let (help, _) = evomcts_ok(&["formula", "show", "--help"]);
    for t in TERMINALS {
        assert!(
            help.contains(t.meaning),
            "`formula show --help` names {}",
            t.symbol
        );
    }
}
