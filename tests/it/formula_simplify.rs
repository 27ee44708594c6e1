//! Simplification keeps choices: on random formulas (proptest trees that hit the protected
//! edges, and the grammars' own random trees and mutation walks) the simplified formula picks
//! the same child as the original in every sibling set of the committed fingerprint bank and of
//! random sibling sets, evaluates to the same value, never has more nodes than the canonical
//! form, and is idempotent. Every committed champion simplifies under the same checks.

use crate::formula_common::{arb_formula, arb_inputs};
use evomcts::evolve::hashing::parse_bank;
use evomcts::formula::{choices, mutate, random_formula, Formula, Grammar, SiblingSets};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The committed bank of Carcassonne sibling sets (real situations of a run), loaded once.
fn bank() -> &'static SiblingSets {
    static BANK: OnceLock<SiblingSets> = OnceLock::new();
    BANK.get_or_init(|| {
        let file = root().join("populations/carcassonne-knowledge100-hashed/fingerprint-bank.csv");
        parse_bank(&std::fs::read_to_string(&file).unwrap(), "bank").unwrap()
    })
}

/// The first `sets` sets of the bank.
fn bank_prefix(sets: usize) -> SiblingSets {
    let mut out = bank().clone();
    out.truncate(sets);
    out
}

/// Why `simplified` is not a faithful simplification of `formula` on `sets`, if it is not:
/// a child chosen differently, or a value that differs (the original's values are always
/// finite; `==` ignores only the sign of zero).
fn disagreement(formula: &Formula, simplified: &Formula, sets: &SiblingSets) -> Option<String> {
    let before = choices(&formula.compile().unwrap(), sets);
    let after = choices(&simplified.compile().unwrap(), sets);
    if let Some(i) = (0..before.len()).find(|&i| before[i] != after[i]) {
        return Some(format!(
            "{formula} picks child {} of set {i} but {simplified} picks {}",
            before[i], after[i]
        ));
    }
    sets.iter().flatten().find_map(|inputs| {
        let (a, b) = (formula.eval(inputs), simplified.eval(inputs));
        (!a.is_finite() || a != b)
            .then(|| format!("{formula} = {a} but {simplified} = {b} on {inputs:?}"))
    })
}

fn check(formula: &Formula, sets: &SiblingSets) -> Formula {
    let simplified = formula.simplify();
    if let Some(why) = disagreement(formula, &simplified, sets) {
        panic!("{why}");
    }
    assert!(
        simplified.size() <= formula.canonical().size(),
        "{simplified} is larger than the canonical {}",
        formula.canonical()
    );
    simplified
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn simplify_keeps_values_and_choices(
        formula in arb_formula(),
        random_sets in prop::collection::vec(prop::collection::vec(arb_inputs(), 1..6), 6),
    ) {
        let mut sets = bank_prefix(40);
        for set in random_sets {
            sets.push_set(set);
        }
        let simplified = formula.simplify();
        prop_assert!(disagreement(&formula, &simplified, &sets).is_none(), "{:?}", disagreement(&formula, &simplified, &sets));
        prop_assert!(simplified.size() <= formula.canonical().size());
        prop_assert_eq!(simplified.simplify(), simplified.clone());
        prop_assert_eq!(Formula::parse(&simplified.to_string()).unwrap(), simplified);
    }
}

/// The grammars' random trees and mutation walks, the formulas evolution actually makes. The
/// walk must reach the range rewrites (formulas the canonical form leaves larger), or the test
/// would prove nothing beyond the canonical form's own tests.
#[test]
fn simplify_keeps_choices_on_the_grammars_formulas() {
    let sets = bank_prefix(100);
    let mut beyond_canonical = 0;
    for (seed, name) in ["paper", "carcassonne_knowledge", "carcassonne_features"]
        .into_iter()
        .enumerate()
    {
        let file = root().join(format!("grammars/{name}.ron"));
        let grammar = Grammar::from_ron(&std::fs::read_to_string(&file).unwrap(), name).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(seed as u64);
        let mut formula = Formula::uct();
        for i in 0..100 {
            if i % 20 == 0 {
                let depth = rng.gen_range(0..=grammar.depth_cap());
                formula = random_formula(&grammar, depth, &mut rng);
            }
            let simplified = check(&formula, &sets);
            beyond_canonical += usize::from(simplified.size() < formula.canonical().size());
            formula = mutate(&formula, &grammar, &mut rng);
        }
    }
    assert!(
        beyond_canonical >= 5,
        "only {beyond_canonical} of 300 formulas simplified beyond the canonical form"
    );
}

/// Every committed champion (the files docs/evolution.md's table is made from).
#[test]
fn every_committed_champion_simplifies_faithfully() {
    let sets = bank_prefix(400);
    let mut champions = Vec::new();
    collect_champions(&root().join("populations"), &mut champions);
    assert!(champions.len() >= 20, "{champions:?}");
    for file in champions {
        let text = std::fs::read_to_string(&file).unwrap();
        let formula = Formula::parse(text.trim()).unwrap();
        check(&formula, &sets);
    }
}

fn collect_champions(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_champions(&path, out);
        } else if path.file_name().is_some_and(|n| n == "champion.txt") {
            out.push(path);
        }
    }
}

#[test]
fn the_connect_four_champion_loses_its_constant_logarithm() {
    let formula = Formula::parse("Q + 2*C*sqrt(2*(ln(2 - 2)/(C/N - (2 + C)))/n)").unwrap();
    let simplified = formula.simplify();
    assert_eq!(
        simplified.to_string(),
        "Q + 2*C*sqrt(2*((-6.907755278982137)/(C/N - (2 + C)))/n)"
    );
    assert_eq!((formula.size(), simplified.size()), (23, 20));
}

#[test]
fn formula_simplify_prints_both_forms_with_their_node_counts() {
    let out = crate::support::evomcts(&["formula", "simplify", "Q + 2*C*sqrt(2*C)", "--c", "0.5"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "original:   Q + 2*C*sqrt(2*C) [C=0.5]  (10 nodes)\nsimplified: 1 + Q  (3 nodes)\n\
         behaviour:  agrees with greedy Q, first child on ties on 99.8% of sets  (bank \
         populations/carcassonne-knowledge100-hashed/fingerprint-bank.csv, 2000 sets)\n"
    );
    let out = crate::support::evomcts(&["formula", "simplify", "Q +"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// docs/evolution.md's table of simplified champions is what `formula simplify` prints today,
/// for every committed champion, at any C_E and at the run's C_E (a `c_e` of its spec).
#[test]
fn the_documented_table_of_simplified_champions_is_current() {
    let doc = std::fs::read_to_string(root().join("docs/evolution.md")).unwrap();
    let start = doc.find("## The committed champions, simplified").unwrap();
    let end = start + doc[start..].find("What it shows.").unwrap();
    let code = |cell: &str| cell.trim().trim_matches('`').to_string();
    let mut rows = 0;
    for line in doc[start..end]
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains('`'))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (run, original, n0, simplified, n1, c_e, at_c_e, nc) = (
            cells[1],
            code(cells[2]),
            cells[3],
            code(cells[4]),
            cells[5],
            cells[6],
            code(cells[7]),
            cells[8],
        );
        let dir = root().join("populations").join(run);
        let champion = std::fs::read_to_string(dir.join("champion.txt")).unwrap();
        assert_eq!(champion.trim(), original, "{run}");
        let formula = Formula::parse(&original).unwrap();
        let s = formula.simplify();
        assert_eq!(
            (s.to_string(), s.size().to_string()),
            (simplified, n1.to_string()),
            "{run}"
        );
        assert_eq!(formula.size().to_string(), n0, "{run}");
        let spec = std::fs::read_to_string(dir.join("spec.ron")).unwrap();
        assert!(spec.contains(&format!("c_e: {c_e},")), "{run}: c_e {c_e}");
        let at = formula.with_c_e(Some(c_e.parse().unwrap())).simplify();
        assert_eq!(
            (at.to_string(), at.size().to_string()),
            (at_c_e, nc.to_string()),
            "{run}"
        );
        rows += 1;
    }
    let mut champions = Vec::new();
    collect_champions(&root().join("populations"), &mut champions);
    assert_eq!(rows, champions.len());
}
