//! Grammar files: the built-in grammars match the files on disk, and every kind of
//! error names file, line, column and what was expected.

use evomcts::formula::{Formula, Function, Grammar, GrammarError, RonSyntaxError, Terminal};

const VALID: &str = r#"Grammar(
    name: "test",
    functions: ["+", "-", "*", "/", "ln", "sqrt"],
    terminals: ["Q", "N", "n", "C"],
    constants: [2.0],
    c_e_values: [0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0],
    depth_cap: 8,
    subtree_depth: (min: 1, max: 3),
    internal_node_probability: 0.9,
)
"#;

fn load(text: &str) -> Result<Grammar, GrammarError> {
    Grammar::from_ron(text, "test.ron")
}

fn error_with(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from}");
    load(&VALID.replace(from, to)).expect_err(to).to_string()
}

#[test]
fn paper_grammar_is_the_paper() {
    let grammar = Grammar::paper();
    assert_eq!(
        grammar,
        evomcts::runfs::read_grammar("grammars/paper.ron").unwrap()
    );
    assert_eq!(grammar.functions().len(), 6);
    assert_eq!(
        grammar.terminals(),
        &[
            Terminal::Q,
            Terminal::ParentVisits,
            Terminal::ChildVisits,
            Terminal::ExplorationConstant
        ]
    );
    assert_eq!(
        grammar.c_e_values(),
        &[0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0]
    );
    assert_eq!(grammar.depth_cap(), 8);
    assert_eq!(
        (grammar.subtree_depth().min, grammar.subtree_depth().max),
        (1, 3)
    );
    assert_eq!(grammar.internal_node_probability(), 0.9);
    assert_eq!(grammar.admits(&Formula::uct()), Ok(()));
    assert_eq!(load(VALID).unwrap().functions(), grammar.functions());
}

#[test]
fn ucb1_tuned_grammar_can_express_ucb1_tuned() {
    let grammar = Grammar::ucb1_tuned();
    assert_eq!(
        grammar,
        evomcts::runfs::read_grammar("grammars/ucb1_tuned.ron").unwrap()
    );
    assert!(grammar
        .functions()
        .contains(&Function::from_symbol("min").unwrap()));
    let ucb1_tuned = Formula::parse("Q + sqrt(ln(N)/n*min(0.25, V + sqrt(2*ln(N)/n)))").unwrap();
    assert_eq!(grammar.admits(&ucb1_tuned), Ok(()));
    assert!(Grammar::paper().admits(&ucb1_tuned).is_err());
}

#[test]
fn to_ron_round_trips() {
    for grammar in [Grammar::paper(), Grammar::ucb1_tuned()] {
        assert_eq!(load(&grammar.to_ron()).unwrap(), grammar);
    }
}

#[test]
fn quotes_and_backslashes_in_text_print_plainly_and_round_trip() {
    let paper = Grammar::paper();
    assert!(paper.description().contains('\''));
    let printed = paper.to_ron();
    assert!(!printed.contains("\\'"), "{printed}");
    assert!(printed.contains("authors' group"), "{printed}");
    let tricky = VALID.replace(
        "name: \"test\",",
        "name: \"test\", description: \"it's a back\\\\slash \\\\' and \\\" quote; \",",
    );
    let grammar = load(&tricky).unwrap();
    assert!(grammar
        .description()
        .starts_with("it's a back\\slash \\' and \" quote; "));
    assert_eq!(load(&grammar.to_ron()).unwrap(), grammar);
}

#[test]
fn bad_ron_reports_line_and_column() {
    let err = load(&VALID.replace("depth_cap: 8,", "depth_cap: 8")).unwrap_err();
    // The missing comma is noticed where the next field starts.
    assert!(
        matches!(
            err,
            GrammarError::Syntax(RonSyntaxError {
                line: 8,
                column: 5,
                ..
            })
        ),
        "{err}"
    );
    let message = err.to_string();
    assert!(message.starts_with("test.ron:8:5:"), "{message}");

    let message = error_with("depth_cap: 8", "depth_cap: \"eight\"");
    assert!(message.starts_with("test.ron:7:"), "{message}");
    assert!(message.to_lowercase().contains("expected"), "{message}");

    let message = error_with("depth_cap", "depth_kap");
    assert!(message.starts_with("test.ron:7:"), "{message}");
    assert!(message.contains("depth_kap"), "{message}");

    let message = error_with("    internal_node_probability: 0.9,\n", "");
    assert!(message.contains("internal_node_probability"), "{message}");
}

#[test]
fn unknown_terminal_and_function_name_the_field_and_place() {
    let message = error_with(r#""Q", "N", "n", "C""#, r#""Q", "N", "X", "C""#);
    assert_eq!(
        message,
        "test.ron:4:27: field `terminals`: unknown terminal `X`; expected one of Q, N, n, C, V, P, K, H, p, G, O, M, F, R, L, T"
    );
    let message = error_with(r#""ln", "sqrt""#, r#""ln", "exp""#);
    assert!(message.starts_with("test.ron:3:"), "{message}");
    assert!(
        message.contains("field `functions`: unknown function `exp`"),
        "{message}"
    );
    assert!(
        message.contains("expected one of +, -, *, /, ln, sqrt, min, max"),
        "{message}"
    );
}

#[test]
fn impossible_depths_are_rejected() {
    let message = error_with(
        "subtree_depth: (min: 1, max: 3)",
        "subtree_depth: (min: 3, max: 1)",
    );
    assert!(
        message.starts_with("test.ron:8:5: field `subtree_depth`"),
        "{message}"
    );
    assert!(message.contains("min <= max"), "{message}");

    let message = error_with("depth_cap: 8", "depth_cap: 2");
    assert!(message.contains("field `subtree_depth`"), "{message}");
    assert!(message.contains("exceeds depth_cap 2"), "{message}");

    let message = error_with("depth_cap: 8", "depth_cap: 0");
    assert!(
        message.contains("field `depth_cap`: 0 is out of range; expected 1 to 16"),
        "{message}"
    );

    let message = error_with("depth_cap: 8", "depth_cap: 40");
    assert!(message.contains("field `depth_cap`"), "{message}");

    let message = error_with("(min: 1, max: 3)", "(min: 0, max: 3)");
    assert!(message.contains("field `subtree_depth`"), "{message}");
}

#[test]
fn other_semantic_errors_name_the_field() {
    let message = error_with("0.9,", "1.5,");
    assert!(
        message.contains("field `internal_node_probability`: 1.5 is not a probability"),
        "{message}"
    );
    let message = error_with("[0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0]", "[]");
    assert!(
        message.starts_with("test.ron:6:5: field `c_e_values`: is empty"),
        "{message}"
    );
    let message = error_with(r#"["+", "-", "*", "/", "ln", "sqrt"]"#, "[]");
    assert!(message.contains("field `functions`: is empty"), "{message}");
    let message = error_with(r#""Q", "N", "n", "C""#, r#""Q", "Q""#);
    assert!(message.contains("`Q` is listed twice"), "{message}");
    // Without C, an empty C_E set is fine.
    let grammar = load(
        &VALID
            .replace(r#", "C""#, "")
            .replace("[0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0]", "[]"),
    );
    assert!(grammar.is_ok(), "{grammar:?}");
}

#[test]
fn missing_file_is_reported() {
    let err = evomcts::runfs::read_grammar("grammars/does_not_exist.ron").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("grammars/does_not_exist.ron: cannot read"),
        "{err}"
    );
}

#[test]
fn a_researcher_can_lower_the_depth_cap() {
    let mut spec = Grammar::paper().to_spec();
    spec.depth_cap = 5;
    let grammar = Grammar::from_spec(spec).unwrap();
    assert_eq!(grammar.depth_cap(), 5);
    assert!(grammar.admits(&Formula::uct()).is_err(), "UCT has depth 6");
}
