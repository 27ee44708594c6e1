//! The report of a portfolio (`evomcts portfolio`): the dataset (`portfolio.csv`) as a table,
//! the generalisation matrix as a heat map per budget (`plots::matrix_plot`) and as its CSV,
//! what the champions share (`shared.csv`, `correlations.csv`), `portfolio.md` as written, the
//! games' study folders (each reported on its own by `evomcts report FOLDER`), the jobs' wall
//! times and the spec. A portfolio not finished yet is reported as far as it went, each
//! missing part saying why.

use super::evolution::csv_table;
use super::html::{inline_svg, link};
use super::{write_sectioned_page, ReportError, WrittenReport};
use crate::plots::matrix_plot::{matrix_figures, matrix_note, read_portfolio};
use crate::plots::PlotError;
use evomcts_portfolio::{
    result_file, Part, PortfolioSpec, CORRELATIONS_CSV, MATRIX_CSV, MATRIX_CSV_HEADER,
    PORTFOLIO_CSV, PORTFOLIO_CSV_HEADER, PORTFOLIO_MD, PORTFOLIO_RON, SHARED_CSV, STUDIES_DIR,
    TIMINGS_CSV,
};
use evomcts_records::escape;
use std::path::{Path, PathBuf};

/// The folder of the report that holds the heat maps.
const FIGURES: &str = "figures";

/// The headers `evomcts_portfolio` writes `shared.csv`, `correlations.csv` and `timings.csv`
/// with (it names no constant for them; tests/it/report_portfolio.rs reads a portfolio's own
/// files with them, so a change to a writer fails there).
pub const SHARED_CSV_HEADER: &str = "budget,kind,item,count,champions,labels";
pub const CORRELATIONS_CSV_HEADER: &str = "budget,terminal,property,spearman_rho,n";
pub const TIMINGS_CSV_HEADER: &str = "label,part,seconds,finished_utc";

/// A file of the portfolio as preformatted text, its lines kept apart, or a note that it is
/// not written (yet).
fn portfolio_text(dir: &Path, name: &str, missing: &str) -> String {
    match evomcts_records::runfs::read_capped_text(
        &dir.join(name),
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a portfolio's file",
    ) {
        Ok(text) => format!("<pre>{}</pre>\n", escape::html_lines(&text)),
        Err(_) => format!("<p class=\"warning\">{}</p>\n", escape::html(missing)),
    }
}

fn warning(text: &str) -> String {
    format!("<p class=\"warning\">{}</p>\n", escape::html(text))
}

/// A CSV file of the portfolio, read against its `header`, as a table, or `missing` when it
/// is not written.
fn table_or(
    dir: &Path,
    name: &str,
    header: &str,
    title: &str,
    missing: &str,
) -> Result<String, ReportError> {
    if dir.join(name).exists() {
        csv_table(dir, name, header, title)
    } else {
        Ok(warning(missing))
    }
}

/// The heat maps, drawn into `out/figures`, each inlined with links to its files, then
/// `matrix.csv`; or why there is no matrix. A portfolio whose results do not read gets the
/// reason on the page and in `warnings`.
fn matrix_section(
    dir: &Path,
    out: &Path,
    files: &mut Vec<PathBuf>,
    warnings: &mut Vec<String>,
) -> Result<String, ReportError> {
    let (spec, games, columns) = match read_portfolio(dir) {
        Ok(read) => read,
        Err(PlotError::Data(message)) => {
            let text = format!("The generalisation matrix cannot be drawn: {message}");
            warnings.push(text.clone());
            return Ok(warning(&text));
        }
        Err(e) => return Err(e.into()),
    };
    let mut content = String::new();
    if let Some(note) = matrix_note(&spec, &games, &columns) {
        content.push_str(&warning(&note));
    }
    // The table is read (and refused if damaged) before any heat map is drawn.
    let table = if columns.is_empty() {
        String::new()
    } else {
        table_or(
            dir,
            MATRIX_CSV,
            MATRIX_CSV_HEADER,
            "Every cell of the matrix, the diagonal each game's own validation (empty holm_p)",
            "matrix.csv is not written yet: the driver writes it once its jobs are done (resume the portfolio with --resume).",
        )?
    };
    let figures_dir = out.join(FIGURES);
    for figure in matrix_figures(&spec.name, &games, &columns) {
        let written = figure.write(&figures_dir)?;
        let svg = evomcts_records::runfs::read_capped_text(
            &written.svg,
            evomcts_records::runfs::MAX_DATA_FILE_BYTES,
            "a figure",
        )
        .map_err(|source| ReportError::Io {
            path: written.svg.display().to_string(),
            source,
        })?;
        let stem = figure.stem();
        content.push_str(&format!(
            "<h3>{}</h3>\n<p class=\"note\">{} · {}</p>\n",
            escape::html(&written.title),
            link(&format!("{FIGURES}/{stem}.png"), "PNG"),
            link(&format!("{FIGURES}/{stem}.svg"), "SVG"),
        ));
        content.push_str(&inline_svg(&svg));
        files.extend([written.png, written.svg]);
    }
    content.push_str(&table);
    Ok(content)
}

/// The stored spec, `None` when it does not read.
fn stored_spec(dir: &Path) -> Option<PortfolioSpec> {
    let text = evomcts_records::runfs::read_capped_text(
        &dir.join(PORTFOLIO_RON),
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a spec",
    )
    .ok()?;
    PortfolioSpec::from_ron(&text, PORTFOLIO_RON).ok()
}

/// The games' study folders, each with the command that reports it, from the stored spec.
fn studies_list(dir: &Path) -> String {
    let Some(spec) = stored_spec(dir) else {
        return warning("portfolio.ron does not read as a portfolio spec.");
    };
    let mut out = String::from("<ul>\n");
    for g in &spec.games {
        let folder = Path::new(STUDIES_DIR).join(&g.label);
        let state = if result_file(dir, &g.label, Part::Study).is_file() {
            "finished"
        } else if dir.join(&folder).is_dir() {
            "not finished"
        } else {
            "not started"
        };
        let command = if dir.join(&folder).is_dir() {
            format!(
                ": <code>evomcts report {}</code>",
                escape::html(&escape::path(&dir.join(&folder)))
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "<li>{} ({}), <code>{}</code>, {state}{command}</li>\n",
            escape::html(&g.label),
            escape::html(&g.game.label()),
            escape::html(&folder.display().to_string()),
        ));
    }
    out.push_str("</ul>\n");
    out
}

/// Writes the report of the portfolio in `dir` into `out`.
pub fn write_portfolio_report(dir: &Path, out: &Path) -> Result<WrittenReport, ReportError> {
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    let not_yet = |name: &str| {
        format!("{name} is not written yet: the driver writes it once its jobs are done (resume the portfolio with --resume).")
    };
    // Every table is read and checked before the heat maps are drawn: one that does not read
    // refuses the report with nothing on disk.
    let dataset = table_or(
        dir,
        PORTFOLIO_CSV,
        PORTFOLIO_CSV_HEADER,
        "One row per game and budget",
        &not_yet(PORTFOLIO_CSV),
    )?;
    let general = table_or(
        dir,
        evomcts_portfolio::general::GENERAL_CSV,
        evomcts_portfolio::general::GENERAL_CSV_HEADER,
        "The general formula on each held-out game, against its tuned UCT",
        "general.csv is not written: the spec has no `general` section, or its job has not finished.",
    )?;
    let shared = table_or(
        dir,
        SHARED_CSV,
        SHARED_CSV_HEADER,
        "Terminals and sub-expressions of the simplified champions",
        &not_yet(SHARED_CSV),
    )? + &table_or(
        dir,
        CORRELATIONS_CSV,
        CORRELATIONS_CSV_HEADER,
        "Spearman's rank correlation between a terminal's presence and a game property",
        &not_yet(CORRELATIONS_CSV),
    )?;
    // Wall times for people, which no result reads: one that does not read is said on the
    // page, not a refusal of the whole report.
    let timings = match table_or(
        dir,
        TIMINGS_CSV,
        TIMINGS_CSV_HEADER,
        "Wall time of each finished job, for people",
        "timings.csv is not written: no job has finished in this folder yet.",
    ) {
        Err(ReportError::Csv(e)) => {
            let text = format!("The wall times of the jobs do not read: {e}");
            warnings.push(text.clone());
            warning(&text)
        }
        other => other?,
    };
    let matrix = matrix_section(dir, out, &mut files, &mut warnings)?;
    let sections = [
        ("dataset", "Dataset", dataset),
        ("matrix", "Generalisation matrix", matrix),
        ("general", "One formula on games it never saw", general),
        ("shared", "What the champions share", shared),
        (
            "summary",
            "Summary",
            portfolio_text(dir, PORTFOLIO_MD, &not_yet(PORTFOLIO_MD)),
        ),
        ("studies", "Studies", studies_list(dir)),
        ("timings", "Timings", timings),
        (
            "spec",
            "Spec",
            portfolio_text(
                dir,
                PORTFOLIO_RON,
                "portfolio.ron is missing from the folder.",
            ),
        ),
    ];
    let name = stored_spec(dir).map_or_else(
        || {
            dir.file_name().map_or_else(
                || dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        },
        |spec| spec.name,
    );
    write_sectioned_page(out, "Portfolio", &name, &sections, files, warnings)
}
