//! `evomcts report`: a run folder as HTML pages that work offline, opened straight from disk.
//!
//! For a league: `index.html` with every table of `league::report::all_tables`, the figures
//! inlined as SVG, the ES formula table and a table of every game in schedule order, each
//! game linking to its viewer page `games/game-K.html` (the board turn by turn, see `viewer`).
//! For an evolution run: the logbook, fitness per generation with its intervals, the hall of
//! fame and the champion's lineage. For a tuning run: its summary, the parameters'
//! trajectories and its spec. For a study: `study.csv` as a table, `study.md`, its phases'
//! folders and its spec. For a portfolio: `portfolio.csv` as a table, the generalisation
//! matrix as a heat map per budget and as its CSV, `shared.csv` and `correlations.csv`,
//! `portfolio.md`, its games' study folders and its spec.
//!
//! Nothing on a page names an outside address: the style sheet and scripts are files of the
//! report folder (`report.css`, `viewer.js`, `tiles.js`) loaded by relative `<link>` and
//! `<script src>`, which browsers allow from `file://` (reading data with `fetch` they do
//! not). Every user string (controller names, formulas, specs) is escaped for HTML, or, in
//! the viewer's data, written as JSON with `<` escaped and shown by the script as text.
//!
//! Imports: the layers below analysis and `plots` (the figures it inlines, the tile drawings
//! of the viewer, the formula tables), never `studies`.

mod evolution;
pub mod history;
pub mod html;
mod league;
pub mod pig;
mod portfolio;
mod study;
mod tune;
pub mod viewer;

use crate::plots::run_figures::write_figures;
use crate::plots::{write_text, PlotError, RunFolder, DEFAULT_TOP};
use evomcts_evolve::population::{generations_on_disk, PopulationError};
use evomcts_league::LoadError;
use std::path::{Path, PathBuf};

pub use evolution::write_evolution_report;
pub use league::write_league_report;
pub use portfolio::{
    write_portfolio_report, CORRELATIONS_CSV_HEADER, SHARED_CSV_HEADER, TIMINGS_CSV_HEADER,
};
pub use study::write_study_report;
pub use tune::write_tune_report;

/// The report's style sheet, shared by every page.
pub const STYLESHEET: &str = include_str!("report.css");
/// The game viewer's script.
pub const VIEWER_SCRIPT: &str = include_str!("viewer.js");

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    #[error(transparent)]
    Population(#[from] PopulationError),
    /// A table of the run that does not read (`records::csv`): its file, line and field.
    #[error(transparent)]
    Csv(#[from] evomcts_records::csv::CsvError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Input(String),
}

/// What a run folder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// `spec.ron` and `games.jsonl` of a league.
    League,
    /// `gen-NNN.ron` files of `evomcts evolve`.
    Evolution,
    /// `tune.csv` of `evomcts tune`.
    Tune,
    /// `study.ron` of `evomcts study`.
    Study,
    /// `portfolio.ron` of `evomcts portfolio`.
    Portfolio,
}

impl RunKind {
    /// What the folder holds, as the one check of a folder's kind tells
    /// (`runfs::folder_kind`); a folder it cannot tell is an evolution run when it holds
    /// generation files, else read as a league, whose loader names what is missing. A kind
    /// with no report of its own is refused, naming where its results are.
    pub fn of(dir: &Path) -> Result<RunKind, ReportError> {
        use evomcts_records::runfs::{folder_kind, RunKind as Folder};
        if !dir.is_dir() {
            return Err(ReportError::Input(format!(
                "{}: not a folder (expected a league, evolution or tuning run folder, or a study's or a portfolio's)",
                dir.display()
            )));
        }
        let found = folder_kind(dir);
        let shown = dir.display();
        let holds = found.as_ref().map_or_else(String::new, |f| f.describe());
        let no_report = |instead: String| {
            Err(ReportError::Input(format!(
                "{shown} holds {holds}, which has no report of its own: {instead}"
            )))
        };
        match found.and_then(|f| f.kind) {
            Some(Folder::Portfolio) => Ok(RunKind::Portfolio),
            Some(Folder::Study) => Ok(RunKind::Study),
            Some(Folder::Tuning) => Ok(RunKind::Tune),
            Some(Folder::Evolution) => Ok(RunKind::Evolution),
            Some(Folder::League) => Ok(RunKind::League),
            Some(Folder::EvolutionRuns) => no_report(format!(
                "report each run ({shown}/run-1, …) on its own; the tournament's result is \
                 {shown}/tournament.md"
            )),
            Some(Folder::Validation) => no_report(format!("its result is {shown}/summary.md")),
            Some(Folder::Replication) => no_report(
                "`evomcts replicate --report-only` writes its report (--report)".to_string(),
            ),
            None if generations_on_disk(dir)?.is_empty() => Ok(RunKind::League),
            None => Ok(RunKind::Evolution),
        }
    }
}

/// What a report wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct WrittenReport {
    pub index: PathBuf,
    /// Game viewer pages (none for an evolution run).
    pub game_pages: usize,
    /// Bytes of the largest game viewer page.
    pub largest_game_page: u64,
    /// Every file written.
    pub files: Vec<PathBuf>,
    /// What the reader should know about the input (missing games or generations), also shown
    /// on the page; for stderr.
    pub warnings: Vec<String>,
}

/// A figure to inline: its title and the SVG document.
pub struct InlineFigure {
    pub title: String,
    pub svg: String,
}

/// The figures as HTML: each under its title, inlined.
fn figures_html(figures: &[InlineFigure]) -> String {
    let mut out = String::new();
    for f in figures {
        out.push_str(&format!(
            "<h3>{}</h3>\n",
            evomcts_records::escape::html(&f.title)
        ));
        out.push_str(&html::inline_svg(&f.svg));
    }
    out
}

/// Draws every figure the run folders support (`plots::run_figures::write_figures`, as `plot all` does)
/// into `dir` and returns them for inlining, in the order they were drawn.
fn run_figures(
    runs: &[PathBuf],
    dir: &Path,
    files: &mut Vec<PathBuf>,
) -> Result<Vec<InlineFigure>, ReportError> {
    let folder = RunFolder::read(runs)?;
    let written = write_figures(&folder, dir, DEFAULT_TOP)?;
    files.extend(written.tables.iter().cloned());
    let mut figures = Vec::new();
    for figure in written.figures {
        files.extend([figure.png.clone(), figure.svg.clone()]);
        let svg = evomcts_records::runfs::read_capped_text(
            &figure.svg,
            evomcts_records::runfs::MAX_DATA_FILE_BYTES,
            "a figure",
        )
        .map_err(|source| ReportError::Io {
            path: figure.svg.display().to_string(),
            source,
        })?;
        figures.push(InlineFigure {
            title: figure.title,
            svg,
        });
    }
    Ok(figures)
}

/// Writes `text` as `dir/name` (atomically) and notes the path in `files`.
fn write_file(
    dir: &Path,
    name: &str,
    text: &str,
    files: &mut Vec<PathBuf>,
) -> Result<u64, ReportError> {
    let path = write_text(dir, name, text)?;
    files.push(path);
    Ok(text.len() as u64)
}

/// A one-page report (a tuning run, a study, a portfolio): `index.html` titled `{kind} {name}`,
/// a navigation list of its sections (id, heading, content) and the sections, with the
/// stylesheet, into `out`; `files` already holds what the page's figures wrote.
fn write_sectioned_page(
    out: &Path,
    kind: &str,
    name: &str,
    sections: &[(&str, &str, String)],
    mut files: Vec<PathBuf>,
    warnings: Vec<String>,
) -> Result<WrittenReport, ReportError> {
    let mut body = format!(
        "<header>\n<h1>{kind} {}</h1>\n<nav><ul>\n",
        evomcts_records::escape::html(name)
    );
    for (id, heading, _) in sections {
        body.push_str(&format!(
            "<li>{}</li>\n",
            html::link(&format!("#{id}"), heading)
        ));
    }
    body.push_str("</ul></nav>\n</header>\n<main>\n");
    for (id, heading, content) in sections {
        body.push_str(&html::section(id, heading, content));
    }
    body.push_str("</main>\n");
    let page = html::page(&format!("{kind} {name}"), "report.css", &body, &[]);
    write_file(out, "report.css", STYLESHEET, &mut files)?;
    write_file(out, "index.html", &page, &mut files)?;
    Ok(WrittenReport {
        index: out.join("index.html"),
        game_pages: 0,
        largest_game_page: 0,
        files,
        warnings,
    })
}

/// The report of `runs` into `out`: the league runs merged into one report, or one evolution
/// run (several evolution runs are reported one by one, each into its own folder).
pub fn write_report(runs: &[PathBuf], out: &Path) -> Result<WrittenReport, ReportError> {
    let kinds = runs
        .iter()
        .map(|r| RunKind::of(r))
        .collect::<Result<Vec<_>, _>>()?;
    match kinds.as_slice() {
        [] => Err(ReportError::Input("no run folder given".into())),
        [RunKind::Evolution] => write_evolution_report(&runs[0], out),
        [RunKind::Tune] => write_tune_report(&runs[0], out),
        [RunKind::Study] => write_study_report(&runs[0], out),
        [RunKind::Portfolio] => write_portfolio_report(&runs[0], out),
        k if k.iter().all(|k| *k == RunKind::League) => write_league_report(runs, out),
        _ => Err(ReportError::Input(format!(
            "{}: one report covers the runs of one league or a single evolution run, tuning run, study or portfolio; report those one at a time",
            runs.iter()
                .map(|r| r.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
