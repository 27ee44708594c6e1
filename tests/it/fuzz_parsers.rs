//! The spec and formula parsers on arbitrary input: an error or a value, never a panic, an
//! abort or a hang.

use evomcts::evolve::EvolveSpec;
use evomcts::formula::{Formula, Grammar};
use evomcts::league::LeagueSpec;
use proptest::prelude::*;

/// Text built from the pieces the parsers care about, so that deep nesting, long chains and
/// near-valid specs come up often, not only random bytes.
fn tokens() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("(".to_string()),
        Just(")".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just("-".to_string()),
        Just("+".to_string()),
        Just("*".to_string()),
        Just("/".to_string()),
        Just("Q".to_string()),
        Just("n".to_string()),
        Just("sqrt(".to_string()),
        Just("min(".to_string()),
        Just("[C=".to_string()),
        Just("1e308".to_string()),
        Just("0.5".to_string()),
        Just("name: \"x\",".to_string()),
        Just("controllers: [".to_string()),
        Just("Mcts(".to_string()),
        Just("selection: Formula(\"".to_string()),
        Just("games_per_match: 4294967295,".to_string()),
        Just("\"".to_string()),
        Just("\u{feff}".to_string()),
        Just("\u{1b}".to_string()),
        Just("\0".to_string()),
    ];
    prop::collection::vec(piece, 0..400).prop_map(|v| v.concat())
}

fn all_parsers(text: &str) {
    let _ = Formula::parse(text);
    let _ = text.parse::<evomcts::formula::Expr>();
    let _ = LeagueSpec::from_ron(text, "fuzz.ron");
    let _ = EvolveSpec::from_ron(text, "fuzz.ron");
    let _ = Grammar::from_ron(text, "fuzz.ron");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parser_shaped_text_never_panics(text in tokens()) {
        all_parsers(&text);
        // Inside a league spec's formula too.
        let spec = format!(
            "(name: \"f\", games_per_match: 1, seed: 1, controllers: [(name: \"a\", spec: Random), \
             (name: \"b\", spec: Mcts(selection: Formula({text:?})))])"
        );
        let _ = LeagueSpec::from_ron(&spec, "fuzz.ron");
    }
}

#[test]
fn deeply_nested_specs_are_refused_not_overflowed() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let league = format!("(name: \"d\", games_per_match: 1, seed: 1, controllers: {deep})");
    assert!(LeagueSpec::from_ron(&league, "deep.ron").is_err());
    assert!(Grammar::from_ron(&deep, "deep.ron").is_err());
    let formula = format!("{}Q{}", "min(".repeat(50_000), ",Q)".repeat(50_000));
    assert!(Formula::parse(&formula).is_err());
}
