//! Names (of controllers, runs, leagues) made safe for the outputs they reach: a terminal,
//! Markdown tables, CSV files opened in a spreadsheet and HTML pages. (Spec validation refuses control
//! characters in names, and the SVG backend escapes XML's markup characters, so the figures
//! stay valid XML.)
//!
//! A name is whatever a spec file says, so it can hold a `|` that would split a Markdown row, a
//! newline, an ESC that would drive the terminal, a `<` or a NUL that makes an SVG invalid, or a
//! leading `=` that a spreadsheet runs as a formula.

use std::fmt::Write;

/// Control characters (and the Unicode line and paragraph separators) shown as Rust-style
/// escapes, e.g. `\n`, `\u{1b}`; everything else as it is.
pub fn terminal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            let _ = write!(out, "{}", c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A Markdown table cell: control characters escaped as for the terminal (so no line break
/// ends the row) and `|` escaped (so no cell splits); other markup (code spans, LaTeX) is kept,
/// as tables use it on purpose.
pub fn markdown(text: &str) -> String {
    terminal(text).replace('|', "\\|")
}

/// A CSV field: a cell that a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return) gets a leading `'`, unless it is a plain number; fields with
/// a comma, quote or line break are quoted.
pub fn csv(text: &str) -> String {
    let is_number = text.parse::<f64>().is_ok();
    let mut field = if !is_number && text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if field.contains([',', '"', '\n', '\r']) {
        field = format!("\"{}\"", field.replace('"', "\"\""));
    }
    field
}

/// A number as a CSV field: at full precision (the shortest text that reads back as the same
/// `f64`), and empty when it is not finite, so every reader parses the column as numbers.
pub fn csv_number(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

/// HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as character references, so
/// a name can neither open a tag nor leave its attribute; control characters escaped as for the
/// terminal, so none reaches the page unseen.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in terminal(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_keeps_hostile_names_inert() {
        let name = "a|b\n\u{1b}[31m<x>&\0";
        assert_eq!(terminal(name), "a|b\\n\\u{1b}[31m<x>&\\u{0}");
        assert_eq!(markdown(name), "a\\|b\\n\\u{1b}[31m<x>&\\u{0}");
        assert!(!markdown(name).contains('\n'));
        assert_eq!(csv("=1+2"), "'=1+2");
        assert_eq!(csv("-3.5"), "-3.5");
        assert_eq!(csv("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(csv_number(f64::NEG_INFINITY), "");
        assert_eq!(csv("a,b"), "\"a,b\"");
        assert_eq!(csv("+x,\"y\""), "\"'+x,\"\"y\"\"\"");
        assert_eq!(html("<b>&\"x'\n"), "&lt;b&gt;&amp;&quot;x&#39;\\n");
    }
}
