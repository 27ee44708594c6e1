//! `evomcts report` and `evomcts plot all` on a portfolio folder: a tiny real portfolio made
//! with the binary (two games, two budgets) reports its dataset, one heat map per budget whose
//! cells hold `matrix.csv`'s values in place (marked by Holm p, the diagonal framed), what the
//! champions share, `portfolio.md`, its studies with the command that reports each, and its
//! spec; a portfolio with no matrix reports without heat maps and says why; docs/outputs.md
//! names every file of the folder and every column of its CSV files.

use evomcts::escape;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const LABELS: [&str; 2] = ["connect-four", "pig"];
const BUDGETS: [u32; 2] = [10, 20];

fn spec(matrix_games: usize) -> String {
    format!(
        r#"(
    name: "smoke",
    seed: 3,
    budgets: [10, 20],
    tune: (games: 40, reestimate_sequences: 10),
    evolve: (generations: 2, mu: 2, lambda: 4, samples: 4),
    validate: (games_cap: 40),
    games: [
        (label: "connect-four", game: ConnectFour),
        (label: "pig", game: Pig(target: 20)),
    ],
    matrix: (games: {matrix_games}),
)"#
    )
}

/// A portfolio of the tiny spec with `matrix_games` a cell, made by the binary in a fixture
/// folder of its own.
fn make_portfolio(name: &str, matrix_games: usize) -> PathBuf {
    let dir = crate::support::fixture_dir("analysis", name);
    std::fs::create_dir_all(&dir).unwrap();
    let spec_file = dir.join("smoke.ron");
    std::fs::write(&spec_file, spec(matrix_games)).unwrap();
    let out = dir.join("portfolio");
    crate::support::evomcts_ok(&[
        "portfolio",
        &spec_file.display().to_string(),
        "--out",
        &out.display().to_string(),
        "--jobs",
        "2",
        "--quiet",
    ]);
    out
}

/// The portfolio with its matrix (20 games a cell), shared by the tests of this file.
fn full() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| make_portfolio("report-portfolio", 20))
}

/// `evomcts report DIR`; the page's text.
fn report(dir: &Path) -> String {
    let (stdout, _) = crate::support::evomcts_ok(&["report", &dir.display().to_string()]);
    let index = dir.join("report/index.html");
    assert_eq!(stdout.trim(), escape::path(&index));
    std::fs::read_to_string(index).unwrap()
}

/// A CSV file of the folder as (header, rows).
fn csv(dir: &Path, name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let path = dir.join(name);
    let table =
        evomcts::csv::Table::parse_any(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    (table.columns().to_vec(), table.into_rows())
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

/// The texts of an SVG document's `<text>` elements, in drawing order.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            body.trim().to_string()
        })
        .collect()
}

/// What the heat map of `budget` must print, row by row: each row's label, then each cell's
/// value (win rate to two decimals, `*` when its Holm p is below 0.05: `matrix.csv`'s, or on
/// the diagonal the dataset's from `portfolio.csv`), interval and games, from the CSV files.
fn expected_cells(dir: &Path, budget: u32) -> Vec<String> {
    let (mh, matrix) = csv(dir, "matrix.csv");
    let (ph, dataset) = csv(dir, "portfolio.csv");
    let get = |row: &[String], h: &[String], name: &str| row[column(h, name)].clone();
    let number = |text: String| text.parse::<f64>().unwrap();
    let mut out = Vec::new();
    for source in LABELS {
        out.push(source.to_string());
        for target in LABELS {
            let row = matrix
                .iter()
                .find(|r| {
                    get(r, &mh, "budget") == budget.to_string()
                        && get(r, &mh, "source") == source
                        && get(r, &mh, "target") == target
                })
                .unwrap_or_else(|| panic!("matrix.csv has no cell {source} on {target}"));
            let holm = match get(row, &mh, "holm_p") {
                own if own.is_empty() => {
                    assert_eq!(source, target, "only the diagonal has no holm_p");
                    let own = dataset
                        .iter()
                        .find(|r| {
                            get(r, &ph, "label") == source
                                && get(r, &ph, "budget") == budget.to_string()
                        })
                        .unwrap();
                    number(get(own, &ph, "holm_p"))
                }
                p => number(p),
            };
            let win = number(get(row, &mh, "win_rate"));
            out.push(format!("{win:.2}{}", if holm < 0.05 { "*" } else { "" }));
            out.push(format!(
                "[{:.2}, {:.2}]",
                number(get(row, &mh, "win_low")),
                number(get(row, &mh, "win_high"))
            ));
            let games = get(row, &mh, "games");
            out.push(if source == target {
                format!("own, {games} games")
            } else {
                format!("{games} games")
            });
        }
    }
    out
}

/// The section `id` of a report page.
fn section<'a>(page: &'a str, id: &str) -> &'a str {
    let start = page
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &page[start..];
    &rest[..rest.find("</section>").unwrap()]
}

/// The cells' texts of a heat map: everything after its axis label.
fn drawn_cells(svg: &str) -> Vec<String> {
    let texts = svg_texts(svg);
    let from = texts.iter().position(|t| t == "champion of ↓").unwrap();
    texts[from + 1..].to_vec()
}

#[test]
fn a_portfolio_report_shows_its_dataset_heat_maps_tables_studies_and_spec() {
    let dir = full();
    let page = report(dir);
    // The dataset: a row per game and budget.
    let (_, dataset) = csv(dir, "portfolio.csv");
    assert_eq!(dataset.len(), LABELS.len() * BUDGETS.len());
    let table = section(&page, "dataset");
    assert!(table.contains("(portfolio.csv;"), "the dataset's table");
    for label in LABELS {
        assert_eq!(
            table.matches(&format!("<td>{label}</td>")).count(),
            BUDGETS.len(),
            "{label}"
        );
    }
    // One heat map per budget, on disk and on the page, each cell in place.
    for budget in BUDGETS {
        let stem = format!("figures/portfolio_matrix_{budget}");
        for ext in ["png", "svg"] {
            let file = dir.join("report").join(format!("{stem}.{ext}"));
            assert!(std::fs::metadata(&file).unwrap().len() > 1000, "{file:?}");
            assert!(
                page.contains(&format!("href=\"{stem}.{ext}\"")),
                "{stem}.{ext}"
            );
        }
        assert!(page.contains(&format!("generalisation matrix at {budget} simulations")));
        let svg = std::fs::read_to_string(dir.join(format!("report/{stem}.svg"))).unwrap();
        assert_eq!(
            drawn_cells(&svg),
            expected_cells(dir, budget),
            "{budget} simulations"
        );
        // The page inlines the same picture.
        let k = BUDGETS.iter().position(|b| *b == budget).unwrap();
        let inlined = page.split("<svg").nth(k + 1).unwrap();
        let inlined = inlined.split("</svg>").next().unwrap();
        assert_eq!(drawn_cells(inlined), expected_cells(dir, budget));
    }
    // matrix.csv, shared.csv and correlations.csv as tables, portfolio.md as written.
    for name in ["matrix.csv", "shared.csv", "correlations.csv"] {
        assert!(page.contains(&format!("({name};")), "{name}");
    }
    assert!(page.contains("<pre># Portfolio `smoke`\n\n"));
    // Each study with the command that reports it, and that command works.
    for label in LABELS {
        let study = dir.join("studies").join(label);
        let command = format!("evomcts report {}", escape::path(&study));
        assert!(
            page.contains(&format!("<code>{}</code>", escape::html(&command))),
            "{command}"
        );
    }
    let study = report(&dir.join("studies/pig"));
    assert!(study.contains("<h1>Study pig</h1>"));
    // The spec, escaped, its lines kept; nothing outside the report folder.
    assert!(page.contains("<h1>Portfolio smoke</h1>"));
    assert!(page.contains("<pre>(\n    name: &quot;smoke&quot;,\n"));
    assert!(!page.contains("http"), "the page names an outside address");
}

#[test]
fn plot_all_draws_a_portfolio_s_heat_maps_and_prints_its_matrices() {
    let dir = full();
    let out = crate::analysis_common::temp_dir("portfolio-plots");
    let (stdout, stderr) = crate::support::evomcts_ok(&[
        "plot",
        "all",
        &dir.display().to_string(),
        "--out",
        &out.display().to_string(),
    ]);
    for budget in BUDGETS {
        for ext in ["png", "svg"] {
            let file = out.join(format!("portfolio_matrix_{budget}.{ext}"));
            assert!(std::fs::metadata(&file).unwrap().len() > 1000, "{file:?}");
            assert!(stderr.contains(&escape::path(&file)), "{stderr}");
        }
        assert!(
            stdout.contains(&format!("smoke, {budget} simulations")),
            "{stdout}"
        );
    }
}

#[test]
fn a_portfolio_without_a_matrix_reports_no_heat_map_and_says_why() {
    let dir = make_portfolio("report-portfolio-no-matrix", 0);
    let page = report(&dir);
    assert!(page.contains("No generalisation matrix: the spec plays none"));
    assert!(!page.contains("portfolio_matrix_"));
    assert!(!dir.join("report/figures").exists());
    let table = section(&page, "dataset");
    for label in LABELS {
        assert!(table.contains(&format!("<td>{label}</td>")), "{label}");
    }
}

/// The lines of docs/outputs.md's section on portfolio folders.
fn portfolio_section() -> String {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/outputs.md"))
            .unwrap();
    let start = doc.find("\n## A portfolio folder").expect("the section");
    let rest = &doc[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    rest[..end].to_string()
}

#[test]
fn docs_outputs_names_every_file_and_csv_column_of_a_portfolio_folder() {
    let doc = portfolio_section();
    let dir = full();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let shown = if entry.file_type().unwrap().is_dir() {
            format!("{name}/")
        } else {
            name.clone()
        };
        assert!(
            doc.contains(&format!("`{shown}`")),
            "the section does not name `{shown}`"
        );
        if name.ends_with(".csv") {
            let csv_name = name.as_str();
            let (header, _) = csv(dir, csv_name);
            let heading = format!("### `{csv_name}`");
            let table = &doc[doc.find(&heading).unwrap_or_else(|| panic!("{heading}"))..];
            let table = &table[heading.len()..];
            let table = &table[..table.find("\n#").unwrap_or(table.len())];
            let documented: Vec<&str> = table
                .lines()
                .filter_map(|l| l.strip_prefix("| `")?.split_once("` |").map(|(c, _)| c))
                .collect();
            assert_eq!(documented, header, "{csv_name}");
        }
    }
}

#[test]
fn report_refuses_a_damaged_table_of_a_portfolio_naming_the_file_and_line() {
    use crate::reliability_csv::{copy_folder, damages};
    let dir = full();
    let copy = crate::support::scratch("report_portfolio", "damaged");
    // The headers the report checks are the ones the portfolio writes.
    for (name, header) in [
        ("portfolio.csv", evomcts::portfolio::PORTFOLIO_CSV_HEADER),
        ("matrix.csv", evomcts::portfolio::MATRIX_CSV_HEADER),
        ("shared.csv", evomcts::analysis::report::SHARED_CSV_HEADER),
        (
            "correlations.csv",
            evomcts::analysis::report::CORRELATIONS_CSV_HEADER,
        ),
        ("timings.csv", evomcts::analysis::report::TIMINGS_CSV_HEADER),
    ] {
        assert_eq!(csv(dir, name).0.join(","), header, "{name}");
    }
    for name in [
        "portfolio.csv",
        "matrix.csv",
        "shared.csv",
        "correlations.csv",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        for (what, damaged, line) in damages(&text) {
            let _ = std::fs::remove_dir_all(&copy);
            copy_folder(dir, &copy);
            std::fs::write(copy.join(name), &damaged).unwrap();
            let out = crate::support::evomcts(&["report", &copy.display().to_string()]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}, {what}: {stderr}");
            let named = format!("{}:{line}:", copy.join(name).display());
            assert!(stderr.contains(&named), "{name}, {what}: {stderr}");
            assert!(
                !copy.join("report").exists(),
                "{name}, {what}: nothing written"
            );
        }
    }
    // The jobs' wall times are for people: a damaged timings.csv is said, not a refusal.
    let _ = std::fs::remove_dir_all(&copy);
    copy_folder(dir, &copy);
    std::fs::write(copy.join("timings.csv"), "garbage\n").unwrap();
    let (_, stderr) = crate::support::evomcts_ok(&["report", &copy.display().to_string()]);
    assert!(
        stderr.contains("timings.csv:1: found `garbage`"),
        "{stderr}"
    );
    let page = std::fs::read_to_string(copy.join("report/index.html")).unwrap();
    assert!(
        page.contains("The wall times of the jobs do not read"),
        "the page says so"
    );
}
