//! Names (of controllers, runs, leagues) made safe for the outputs they reach: a terminal,
//! Markdown tables, CSV files opened in a spreadsheet and HTML pages. (Spec validation refuses control
//! characters in names, and the SVG backend escapes XML's markup characters, so the figures
//! stay valid XML.)
//!
//! A name is whatever a spec file says, so it can hold a `|` that would split a Markdown row, a
//! newline, an ESC that would drive the terminal, a `<` or a NUL that makes an SVG invalid, or a
//! leading `=` that a spreadsheet runs as a formula.

use std::fmt::Write;

/// A Slurm job or step name: letters, digits, `_`, `-`, `.`; anything else becomes `_`, at
/// most 64 characters, `fallback` when nothing is left.
pub fn slurm_job_name(name: &str, fallback: &str) -> String {
    let cleaned: String = name
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        fallback.to_string()
    } else {
        cleaned
    }
}

/// Whether `c` would act on the text around it or not be seen: control characters, the Unicode
/// line and paragraph separators, the bidirectional controls (U+202E shows the rest of a line
/// reversed) and the zero-width and other invisible format characters (U+200B makes two names
/// look alike).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00ad}' | '\u{034f}' | '\u{061c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
            | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
            | '\u{ffa0}' | '\u{fff0}'..='\u{fffb}' | '\u{e0000}'..='\u{e0fff}')
}

/// Hidden characters (see [`is_hidden`]) shown as Rust-style escapes, e.g. `\n`, `\u{1b}`,
/// `\u{202e}`; everything else as it is.
pub fn terminal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_hidden(c) {
            let _ = write!(out, "{}", c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A path as the terminal shows it: [`terminal`] of its text (lossy where it is not UTF-8).
pub fn path(path: &std::path::Path) -> String {
    terminal(&path.display().to_string())
}

/// One word for bash that a user can paste: single quotes, or `$'…'` with escapes when the text
/// holds hidden characters (see [`is_hidden`]), so the word is the text exactly, nothing in it
/// runs, and nothing in it is invisible on the screen.
pub fn shell(text: &str) -> String {
    if !text.chars().any(is_hidden) {
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in text.chars() {
        match c {
            '\\' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            c if is_hidden(c) => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A Markdown table cell: control characters escaped as for the terminal (so no line break
/// ends the row) and `|` escaped (so no cell splits); other markup (code spans, LaTeX) is kept,
/// as tables use it on purpose.
pub fn markdown(text: &str) -> String {
    terminal(text).replace('|', "\\|")
}

/// A CSV field: hidden characters escaped as for the terminal (a file opened in a terminal or
/// a spreadsheet shows what is there), a cell that a spreadsheet would run as a formula (starting
/// with `=`, `+`, `-` or `@`) gets a leading `'`, unless it is a plain number; fields with a
/// comma or quote are quoted.
pub fn csv(text: &str) -> String {
    let text = terminal(text);
    let is_number = text.parse::<f64>().is_ok();
    let mut field = if !is_number && text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text
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

/// `text` for a message: escaped as for the terminal and, when longer than `max` characters,
/// cut there with the length it had, so that a huge value given by mistake (a file's content
/// in a flag) does not bury the message.
pub fn abbreviated(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return terminal(text);
    }
    let start: String = text.chars().take(max).collect();
    format!("{}… ({count} characters)", terminal(&start))
}

/// Words with their first letter in upper case, for the start of a sentence or a column
/// heading: `tile seed` → `Tile seed`.
pub fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A number for a message or a table a person reads: as Rust writes it (the shortest text that
/// reads back as the same `f64`), except that very large or very small magnitudes are written
/// with an exponent (`1e308`, not 309 digits).
pub fn number(x: f64) -> String {
    let magnitude = x.abs();
    if x.is_finite() && x != 0.0 && !(1e-6..1e16).contains(&magnitude) {
        format!("{x:e}")
    } else {
        x.to_string()
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

/// Text of several lines for a `<pre>` block (a game's position, a spec file): each line as
/// [`html`] escapes it, the lines kept apart by real line breaks, so a board shows as a board
/// and nothing else hidden reaches the page unseen (a `\r` ending a line is dropped).
pub fn html_lines(text: &str) -> String {
    text.lines().map(html).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_for_html_keep_their_breaks_and_escape_the_rest() {
        assert_eq!(html_lines(".x.\n<o>\r\n\u{1b}"), ".x.\n&lt;o&gt;\n\\u{1b}");
        assert_eq!(html_lines("one"), html("one"));
    }

    #[test]
    fn numbers_for_people_are_short_and_usual_ones_unchanged() {
        assert_eq!(number(1e308), "1e308");
        assert_eq!(number(-2.5e-9), "-2.5e-9");
        for usual in [0.0, 0.003, 1.0, 2.5, 1234.5, 1e15] {
            assert_eq!(number(usual), usual.to_string());
        }
        assert_eq!(abbreviated("short", 10), "short");
        let long = "x".repeat(100_000);
        assert_eq!(abbreviated(&long, 3), "xxx… (100000 characters)");
    }

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
        assert_eq!(terminal("a\u{202e}b\u{200b}c"), "a\\u{202e}b\\u{200b}c");
        assert_eq!(csv("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert_eq!(csv("\t=1"), "\\t=1");
        assert_eq!(terminal("é ü 名前"), "é ü 名前");
    }

    #[test]
    fn shell_words_are_the_text_and_run_nothing() {
        assert_eq!(shell("it's"), r"'it'\''s'");
        assert_eq!(shell("a$(touch X)`b`"), "'a$(touch X)`b`'");
        assert_eq!(shell("a\u{202e}'\\"), r"$'a\U0000202e\'\\'");
    }
}
