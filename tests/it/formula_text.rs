//! Text form: printing then parsing gives the same formula; errors say where and what.

use crate::formula_common::{arb_expr, arb_formula};
use evomcts::formula::{Expr, Formula, ParseError};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn print_then_parse_is_identity(formula in arb_formula()) {
        let text = formula.to_string();
        let parsed: Formula = text.parse().map_err(|e: ParseError| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&parsed, &formula, "text {}", text);
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn serde_goes_through_text(formula in arb_formula()) {
        let ron_text = ron::to_string(&formula).unwrap();
        let back: Formula = ron::from_str(&ron_text).unwrap();
        prop_assert_eq!(back, formula);
    }

    #[test]
    fn expressions_round_trip(expr in arb_expr()) {
        let text = expr.to_string();
        let parsed: Expr = text.parse().unwrap();
        prop_assert_eq!(parsed, expr);
    }
}

#[test]
fn uct_prints_as_the_paper_writes_it() {
    assert_eq!(Formula::uct().to_string(), "Q + 2*C*sqrt(2*ln(N)/n)");
    assert_eq!(
        Formula::parse("Q + 2*C*sqrt(2*ln(N)/n)").unwrap(),
        Formula::uct()
    );
    assert_eq!(
        Formula::parse("Q+2×C·sqrt(2*log(N)÷n)").unwrap(),
        Formula::uct()
    );
}

#[test]
fn grouping_is_kept() {
    for text in [
        "Q - (N - n)",
        "Q/(N*n)",
        "Q/N*n",
        "(Q + N)*n",
        "(-2)*Q",
        "Q - (-0.5)",
        "min(Q, N + n)*max(1e-7, 2.5e20)",
        "Q + 2*C*sqrt(2*ln(N)/n) [C=0.25]",
        "0 - Q",
    ] {
        assert_eq!(Formula::parse(text).unwrap().to_string(), text);
    }
    assert_eq!(Formula::parse("-Q").unwrap().to_string(), "0 - Q");
    assert_eq!(Formula::parse("((Q))").unwrap().to_string(), "Q");
    assert_eq!(
        Formula::parse("Q [ C = 3 ]").unwrap(),
        Formula::parse("Q").unwrap().with_c_e(Some(3.0))
    );
}

fn error(text: &str) -> ParseError {
    Formula::parse(text).expect_err(text)
}

#[test]
fn errors_say_where_and_what() {
    let e = error("Q + 2*C*sqrt(2*ln(N)/n");
    assert_eq!(e.column, 23);
    assert_eq!(e.expected, "`)`");
    assert_eq!(e.found, "end of input");

    let e = error("Q + * N");
    assert_eq!(e.column, 5);
    assert!(e.expected.contains("a terminal"), "{e}");
    assert_eq!(e.found, "`*`");

    let e = error("Q + x");
    assert_eq!(e.column, 5);
    assert!(e.found.contains("unknown name `x`"), "{e}");

    let e = error("foo(Q)");
    assert_eq!(e.column, 1);

    let e = error("Q N");
    assert_eq!(e.column, 3);
    assert!(e.expected.contains("operator"), "{e}");

    let e = error("min(Q)");
    assert_eq!(e.expected, "`,`");

    let e = error("1e999");
    assert_eq!(e.expected, "a finite number");

    let e = error("");
    assert_eq!((e.column, e.found.as_str()), (1, "end of input"));

    let e = error("Q [C=2] + N");
    assert_eq!(e.column, 9);

    assert_eq!(e.to_string(), "column 9: expected end of input, found `+`");
    assert_eq!(
        error("Q +").render("Q +"),
        "Q +\n   ^\ncolumn 4: expected a number, a terminal (Q, N, n, C, V, P, K, H, p, G, O, M, F, R, L, T), a function (ln, log, sqrt, min, max), `-` or `(`, found end of input"
    );
}
