//! The pieces every report page is built from: the page frame, tables and inline figures.
//! Every string that comes from a spec or a record goes through `escape::html` here or at the
//! caller, and nothing on a page points outside the report folder.

use evomcts_league::report::TextTable;
use evomcts_records::escape::html;

/// A whole page: `stylesheet` and `scripts` are paths relative to the page.
pub fn page(title: &str, stylesheet: &str, body: &str, scripts: &[&str]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<link rel=\"stylesheet\" href=\"{}\">\n</head>\n<body>\n",
        html(title),
        html(stylesheet)
    );
    out.push_str(body);
    for s in scripts {
        out.push_str(&format!("<script src=\"{}\"></script>\n", html(s)));
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// A section with a heading and an anchor.
pub fn section(id: &str, heading: &str, content: &str) -> String {
    format!(
        "<section id=\"{}\">\n<h2>{}</h2>\n{content}</section>\n",
        html(id),
        html(heading)
    )
}

/// Cells that hold a number are right-aligned, so columns of figures line up.
fn is_numeric(cell: &str) -> bool {
    let trimmed = cell.trim_start_matches(['<', '−', '-', '+']);
    !trimmed.is_empty() && trimmed.trim_end_matches('%').parse::<f64>().is_ok()
}

/// A table cell: HTML that is already escaped, right-aligned when it holds a number.
pub struct Cell {
    pub html: String,
    pub numeric: bool,
}

impl Cell {
    /// Plain text, escaped.
    pub fn text(text: &str) -> Cell {
        Cell {
            html: html(text),
            numeric: is_numeric(text),
        }
    }
}

/// A table of cells with its title as the caption; headers are plain text.
pub fn table_of_cells(title: &str, headers: &[String], rows: &[Vec<Cell>]) -> String {
    let mut out = format!(
        "<div class=\"table\"><table>\n<caption>{}</caption>\n<thead><tr>",
        html(title)
    );
    for h in headers {
        out.push_str(&format!("<th>{}</th>", html(h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for c in row {
            if c.numeric {
                out.push_str(&format!("<td class=\"num\">{}</td>", c.html));
            } else {
                out.push_str(&format!("<td>{}</td>", c.html));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

/// A table of plain strings, every cell escaped.
pub fn table(t: &TextTable) -> String {
    let rows: Vec<Vec<Cell>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| Cell::text(c)).collect())
        .collect();
    table_of_cells(&t.title, &t.headers, &rows)
}

/// An SVG document made fit to stand inside an HTML page: the XML declaration and the
/// namespace declarations go (the HTML parser puts `<svg>` in the SVG namespace itself), so
/// the page names no outside address; the picture scales down to the page's width.
pub fn inline_svg(svg: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    let body = body
        .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
        .replacen(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "", 1);
    format!("<div class=\"figure\">{}</div>\n", body.trim())
}

/// A link with escaped target and text.
pub fn link(href: &str, text: &str) -> String {
    format!("<a href=\"{}\">{}</a>", html(href), html(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_escape_every_cell_and_align_numbers() {
        let t = TextTable {
            title: "<t>".into(),
            headers: vec!["name".into(), "points".into()],
            rows: vec![vec!["<b>&\"x".into(), "-3.5".into()]],
        };
        let out = table(&t);
        assert!(out.contains("<caption>&lt;t&gt;</caption>"), "{out}");
        assert!(out.contains("<td>&lt;b&gt;&amp;&quot;x</td>"), "{out}");
        assert!(out.contains("<td class=\"num\">-3.5</td>"), "{out}");
        assert!(!out.contains("<b>"));
    }

    #[test]
    fn inline_svg_names_no_outside_address() {
        let svg = "<?xml version=\"1.0\"?>\n<svg width=\"10\" height=\"10\" xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>\n";
        let out = inline_svg(svg);
        assert!(!out.contains("http"), "{out}");
        assert!(
            out.contains("<svg width=\"10\" height=\"10\"><rect/></svg>"),
            "{out}"
        );
    }
}
