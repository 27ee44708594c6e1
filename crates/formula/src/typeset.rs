//! Formulas typeset for people: `Q + 2·C·√(2·ln(N)/n)` for tables and charts, and LaTeX
//! for papers. Unlike the infix form of `Display`, these do not parse back: constants are
//! shortened to four significant digits. Grouping follows the printer's precedence.

use super::tree::{precedence, BinaryOp, Expr, Formula, UnaryOp};

/// A constant with at most four significant digits, for reading (not for parsing back).
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    if !(1e-4..1e6).contains(&a) {
        return format!("{v:.3e}");
    }
    let decimals = (3 - a.log10().floor() as i32).clamp(0, 8) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    s.replace('-', "−")
}

/// The arguments of a two-argument call, `(a, b)`, each written by `write`.
fn arguments_into(a: &Expr, b: &Expr, out: &mut String, write: fn(&Expr, &mut String)) {
    out.push('(');
    write(a, out);
    out.push_str(", ");
    write(b, out);
    out.push(')');
}

fn pretty_into(expr: &Expr, out: &mut String) {
    match expr {
        Expr::Const(v) if *v < 0.0 => {
            out.push('(');
            out.push_str(&short_number(*v));
            out.push(')');
        }
        Expr::Const(v) => out.push_str(&short_number(*v)),
        Expr::Term(t) => out.push_str(t.symbol()),
        Expr::Unary(UnaryOp::Sqrt, x) => {
            out.push('√');
            let bare = matches!(**x, Expr::Term(_) | Expr::Unary(UnaryOp::Sqrt, _))
                || matches!(**x, Expr::Const(v) if v >= 0.0);
            if bare {
                pretty_into(x, out);
            } else {
                out.push('(');
                pretty_into(x, out);
                out.push(')');
            }
        }
        Expr::Unary(UnaryOp::Ln, x) => {
            out.push_str("ln(");
            pretty_into(x, out);
            out.push(')');
        }
        Expr::Binary(op, a, b) if op.is_call() => {
            out.push_str(op.symbol());
            arguments_into(a, b, out, pretty_into);
        }
        Expr::Binary(op, a, b) => {
            let own = precedence(expr);
            let operand = |e: &Expr, paren: bool, out: &mut String| {
                if paren {
                    out.push('(');
                    pretty_into(e, out);
                    out.push(')');
                } else {
                    pretty_into(e, out);
                }
            };
            operand(a, precedence(a) < own, out);
            out.push_str(match op {
                BinaryOp::Add => " + ",
                BinaryOp::Sub => " − ",
                BinaryOp::Mul => "·",
                _ => "/",
            });
            operand(b, precedence(b) <= own, out);
        }
    }
}

/// The formula typeset for reading: `Q + 2·C·√(2·ln(N)/n)`, with ` (C=3)` when it carries its
/// own C_E.
pub fn pretty(formula: &Formula) -> String {
    let mut out = match formula.expr() {
        // Alone, a negative constant needs no parentheses.
        Expr::Const(v) => short_number(*v),
        expr => {
            let mut out = String::new();
            pretty_into(expr, &mut out);
            out
        }
    };
    if let Some(c) = formula.c_e() {
        out.push_str(&format!(" (C={})", short_number(c)));
    }
    out
}

fn latex_into(expr: &Expr, out: &mut String) {
    let prec = |e: &Expr| match e {
        Expr::Binary(BinaryOp::Div, _, _) => 3,
        other => precedence(other),
    };
    match expr {
        Expr::Const(v) if *v < 0.0 => out.push_str(&format!("({})", short_number(*v))),
        Expr::Const(v) => out.push_str(&short_number(*v)),
        Expr::Term(t) => out.push_str(t.latex()),
        Expr::Unary(UnaryOp::Sqrt, x) => {
            out.push_str(r"\sqrt{");
            latex_into(x, out);
            out.push('}');
        }
        Expr::Unary(UnaryOp::Ln, x) => {
            out.push_str(r"\ln\left(");
            latex_into(x, out);
            out.push_str(r"\right)");
        }
        Expr::Binary(BinaryOp::Div, a, b) => {
            out.push_str(r"\frac{");
            latex_into(a, out);
            out.push_str("}{");
            latex_into(b, out);
            out.push('}');
        }
        Expr::Binary(op, a, b) if op.is_call() => {
            out.push_str(if *op == BinaryOp::Min {
                r"\min"
            } else {
                r"\max"
            });
            arguments_into(a, b, out, latex_into);
        }
        Expr::Binary(op, a, b) => {
            let own = prec(expr);
            for (i, e) in [a, b].into_iter().enumerate() {
                if i == 1 {
                    out.push_str(match op {
                        BinaryOp::Add => " + ",
                        BinaryOp::Sub => " - ",
                        _ => r" \cdot ",
                    });
                }
                let paren = if i == 0 {
                    prec(e) < own
                } else {
                    prec(e) <= own
                };
                if paren {
                    out.push_str(r"\left(");
                    latex_into(e, out);
                    out.push_str(r"\right)");
                } else {
                    latex_into(e, out);
                }
            }
        }
    }
    // Negative constants print with a Unicode minus for reading; LaTeX wants ASCII.
    if out.contains('−') {
        *out = out.replace('−', "-");
    }
}

/// The formula in LaTeX, in the paper's notation (`\bar{Q}_j`, `n_j`, `C_E`).
pub fn latex(formula: &Formula) -> String {
    let mut out = String::new();
    latex_into(formula.expr(), &mut out);
    if let Some(c) = formula.c_e() {
        out.push_str(&format!(
            r" \quad (C_E = {})",
            short_number(c).replace('−', "-")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uct_typesets_with_root_and_dots_and_parses_in_latex_notation() {
        let uct = Formula::uct();
        assert_eq!(pretty(&uct), "Q + 2·C·√(2·ln(N)/n)");
        assert_eq!(
            latex(&uct),
            r"\bar{Q}_j + 2 \cdot C_E \cdot \sqrt{\frac{2 \cdot \ln\left(N\right)}{n_j}}"
        );
    }

    #[test]
    fn pretty_keeps_the_grouping_of_the_tree() {
        let f: Formula = "(Q - n) - (N - sqrt(Q + n)) / (2 * n) [C=3]"
            .parse()
            .unwrap();
        assert_eq!(pretty(&f), "Q − n − (N − √(Q + n))/(2·n) (C=3)");
        let g: Formula = "sqrt(sqrt(N)) * (-0.5) + 1.189207115002721"
            .parse()
            .unwrap();
        assert_eq!(pretty(&g), "√√N·(−0.5) + 1.189");
        let lone: Formula = "-2".parse().unwrap();
        assert_eq!(pretty(&lone), "−2");
    }

    #[test]
    fn short_numbers_keep_four_significant_digits() {
        assert_eq!(short_number(2.0), "2");
        assert_eq!(short_number(0.123456), "0.1235");
        assert_eq!(short_number(1234.5678), "1235");
        assert_eq!(short_number(-0.5), "−0.5");
    }
}
