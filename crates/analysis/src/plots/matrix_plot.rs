//! A portfolio's generalisation matrix (`evomcts portfolio`) as heat maps, one per budget: row =
//! the game whose champion plays (source), column = the game it plays (target), colour = its
//! win rate against the target's tuned UCT (white at one half, blue above, red below, as the
//! league's match matrix), the value and its Wilson interval printed in each cell, `*` and a
//! heavy frame where the Holm-adjusted p is below 0.05, and the diagonal (each game's own
//! validation) framed twice.
//!
//! The numbers come from the portfolio's result files through `portfolio::read_results` and
//! `outputs::matrix_cells`, the same that write `matrix.csv` and `portfolio.md`, so a figure
//! never disagrees with them. A diagonal cell's mark reads the dataset's Holm p (across the
//! games' own validations), as `portfolio.md` marks it.

use super::chart::{self, DrawResult, Figure};
use super::{PlotError, Written, WrittenFigure};
use evomcts_league::report::TextTable;
use evomcts_portfolio::outputs::{dataset, matrix_cells, GameResult, MatrixColumn};
use evomcts_portfolio::{read_results, PortfolioSpec, PORTFOLIO_RON};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use std::path::Path;

/// A cell is marked when its Holm-adjusted p is below this.
pub const ALPHA: f64 = 0.05;

/// One cell as the figure shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownCell {
    pub win_rate: f64,
    pub win_low: f64,
    pub win_high: f64,
    pub games: usize,
    /// Holm-adjusted p: across the matrix's off-diagonal cells, or on the diagonal across the
    /// games' own validations (the dataset's).
    pub holm_p: f64,
}

impl ShownCell {
    /// Whether the cell is marked significant.
    pub fn significant(&self) -> bool {
        self.holm_p < ALPHA
    }

    /// The value printed in the cell: the win rate to two decimals, `*` when significant (as
    /// `portfolio.md` prints it).
    pub fn value_text(&self) -> String {
        format!(
            "{:.2}{}",
            self.win_rate,
            if self.significant() { "*" } else { "" }
        )
    }
}

/// The matrix at one budget.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixFigure {
    /// The portfolio's name.
    pub portfolio: String,
    pub budget: u32,
    /// The games in the spec's order: rows (sources) and columns (targets) alike.
    pub labels: Vec<String>,
    /// `cells[source][target]`, `None` where the cell is not played (yet).
    pub cells: Vec<Vec<Option<ShownCell>>>,
}

/// The matrices of a portfolio, one per budget (in increasing order), from its finished
/// results; none before any column of the matrix is written.
pub fn matrix_figures(
    portfolio: &str,
    games: &[GameResult],
    columns: &[MatrixColumn],
) -> Vec<MatrixFigure> {
    if columns.is_empty() {
        return Vec::new();
    }
    let labels: Vec<String> = games.iter().map(|g| g.label.clone()).collect();
    let index = |label: &str| labels.iter().position(|l| l == label);
    let own_holm: Vec<(String, u32, f64)> = dataset(games)
        .into_iter()
        .map(|(g, r, h)| (g.label.clone(), r.budget, h))
        .collect();
    let mut figures: Vec<MatrixFigure> = Vec::new();
    for (cell, holm) in matrix_cells(games, columns) {
        let (Some(source), Some(target)) = (index(&cell.source), index(&cell.target)) else {
            continue;
        };
        let holm_p = holm.unwrap_or_else(|| {
            own_holm
                .iter()
                .find(|(l, b, _)| *l == cell.source && *b == cell.budget)
                .map_or(1.0, |(_, _, h)| *h)
        });
        if figures.last().is_none_or(|f| f.budget != cell.budget) {
            figures.push(MatrixFigure {
                portfolio: portfolio.to_string(),
                budget: cell.budget,
                labels: labels.clone(),
                cells: vec![vec![None; labels.len()]; labels.len()],
            });
        }
        let v = &cell.validation;
        figures.last_mut().expect("pushed above").cells[source][target] = Some(ShownCell {
            win_rate: v.win_rate,
            win_low: v.win_low,
            win_high: v.win_high,
            games: v.games,
            holm_p,
        });
    }
    figures
}

/// Why a portfolio's report has no matrix or only part of it, for the reader; `None` when every
/// column is written.
pub fn matrix_note(
    spec: &PortfolioSpec,
    games: &[GameResult],
    columns: &[MatrixColumn],
) -> Option<String> {
    let n = spec.games.len();
    if spec.matrix.games == 0 {
        return Some(
            "No generalisation matrix: the spec plays none (matrix: (games: 0)), so each champion is validated on its own game only.".into(),
        );
    }
    if columns.is_empty() {
        return Some(if games.len() < n {
            format!(
                "The generalisation matrix is not played yet: it starts once every study is finished, and {} of {n} are (resume the portfolio with --resume).",
                games.len()
            )
        } else {
            format!("The generalisation matrix is not played yet: no column of the {n} is written (resume the portfolio with --resume).")
        });
    }
    (columns.len() < n).then(|| {
        format!(
            "Only {} of the {n} columns of the generalisation matrix are written; the cells of the others are marked \"not played\" (resume the portfolio with --resume).",
            columns.len()
        )
    })
}

/// Reads the portfolio in `dir`: its stored spec and its finished results.
pub fn read_portfolio(
    dir: &Path,
) -> Result<(PortfolioSpec, Vec<GameResult>, Vec<MatrixColumn>), PlotError> {
    let path = dir.join(PORTFOLIO_RON);
    let spec = evomcts_records::runfs::read_spec_text(&path)
        .and_then(|text| PortfolioSpec::from_ron(&text, &path.display().to_string()))
        .map_err(|e| PlotError::Data(e.to_string()))?;
    let (games, columns) = read_results(&spec, dir).map_err(|e| PlotError::Data(e.to_string()))?;
    Ok((spec, games, columns))
}

/// What [`write_matrix_figures`] wrote, and why it drew no matrix or part of one.
#[derive(Debug, Default)]
pub struct MatrixFigures {
    pub written: Written,
    pub note: Option<String>,
}

/// Draws the heat map of each budget of the portfolio in `dir` into `out` as
/// `portfolio_matrix_B.png` and `.svg`; the text holds the matrices as tables for the
/// terminal.
pub fn write_matrix_figures(dir: &Path, out: &Path) -> Result<MatrixFigures, PlotError> {
    let (spec, games, columns) = read_portfolio(dir)?;
    let mut written = Written::default();
    let mut texts = Vec::new();
    for figure in matrix_figures(&spec.name, &games, &columns) {
        written.figures.push(figure.write(out)?);
        texts.push(figure.table().to_text());
    }
    written.text = texts.join("\n");
    Ok(MatrixFigures {
        written,
        note: matrix_note(&spec, &games, &columns),
    })
}

const CELL: i32 = chart::MATRIX_CELL;
/// The narrowest column of row names; longer names widen it.
const MIN_NAME_AREA: i32 = 190;
/// Room right of the matrix for the colour bar and its scale.
const COLOUR_BAR_AREA: i32 = 150;
const NAME_SIZE: f64 = 15.0;
/// Pixel y of the matrix's top.
const TOP: i32 = 190;

impl MatrixFigure {
    /// The file name of the figure, without extension.
    pub fn stem(&self) -> String {
        format!("portfolio_matrix_{}", self.budget)
    }

    /// Writes the figure (PNG and SVG) into `dir`.
    pub fn write(&self, dir: &Path) -> Result<WrittenFigure, PlotError> {
        chart::save_in(self, dir, &self.stem())
    }

    /// The matrix as a table of printed values, for the terminal.
    pub fn table(&self) -> TextTable {
        let mut headers = vec!["champion of ↓ on →".to_string()];
        headers.extend(self.labels.iter().cloned());
        TextTable {
            title: format!(
                "{}, {} simulations: win rate against the target's tuned UCT (* Holm p < {ALPHA})",
                self.portfolio, self.budget
            ),
            headers,
            rows: self
                .labels
                .iter()
                .zip(&self.cells)
                .map(|(label, row)| {
                    std::iter::once(label.clone())
                        .chain(row.iter().map(|c| {
                            c.as_ref()
                                .map_or_else(|| "·".to_string(), ShownCell::value_text)
                        }))
                        .collect()
                })
                .collect(),
        }
    }

    /// Pixel x where the matrix starts: right of the widest row name.
    fn name_area(&self) -> i32 {
        (chart::widest(&self.labels, NAME_SIZE) + 30).max(MIN_NAME_AREA)
    }

    fn subtitles(&self) -> [String; 2] {
        [
            "Row game's champion on the column game at that game's tuned C_E, against its tuned UCT: win rate (draws count ½), 95% Wilson interval".to_string(),
            format!("* and heavy frame: Holm-adjusted p < {ALPHA}; double frame: the diagonal, each game's own validation (SPRT or cap); colour: the win rate"),
        ]
    }
}

impl Figure for MatrixFigure {
    fn title(&self) -> String {
        format!(
            "Portfolio {}: generalisation matrix at {} simulations",
            self.portfolio, self.budget
        )
    }

    fn size(&self) -> (u32, u32) {
        let n = self.labels.len() as i32;
        let matrix = self.name_area() + n * CELL + COLOUR_BAR_AREA;
        let subtitles = 20 + chart::widest(self.subtitles(), 15.0) + 20;
        let title = 20 + chart::text_width(&self.title(), 24.0) + 20;
        (
            matrix.max(subtitles).max(title).max(760) as u32,
            (TOP + n.max(3) * CELL + 40) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let n = self.labels.len();
        let [first, second] = self.subtitles();
        chart::titles(root, &self.title(), &first)?;
        chart::draw_label(
            root,
            second,
            (20, 72),
            15.0,
            RGBColor(80, 80, 80),
            (HPos::Left, VPos::Top),
        )?;
        let (x0, y0) = (self.name_area(), TOP);
        self.colour_bar(root, x0 + n as i32 * CELL + 40, y0)?;
        chart::matrix_frame(
            root,
            &self.labels,
            (x0, y0),
            [("played on →", 50), ("champion of ↓", 32)],
            NAME_SIZE,
            |a, y| {
                for (b, cell) in self.cells[a].iter().enumerate() {
                    let x = x0 + b as i32 * CELL;
                    draw_cell(root, (x, y), cell.as_ref(), a == b)?;
                }
                Ok(())
            },
        )
    }
}

/// One cell with its top left corner at `at`.
fn draw_cell<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    cell: Option<&ShownCell>,
    diagonal: bool,
) -> DrawResult<DB> {
    let (x, y) = at;
    let frame = [(x, y), (x + CELL, y + CELL)];
    let fill = cell.map_or(RGBColor(245, 245, 245), |c| chart::share_colour(c.win_rate));
    root.draw(&Rectangle::new(frame, fill.filled()))?;
    root.draw(&Rectangle::new(frame, RGBColor(120, 120, 120)))?;
    if diagonal {
        for inset in [4, 9] {
            root.draw(&Rectangle::new(
                [(x + inset, y + inset), (x + CELL - inset, y + CELL - inset)],
                RGBColor(50, 50, 50).stroke_width(2),
            ))?;
        }
    }
    if cell.is_some_and(ShownCell::significant) {
        root.draw(&Rectangle::new(
            [(x + 1, y + 1), (x + CELL - 1, y + CELL - 1)],
            BLACK.stroke_width(4),
        ))?;
    }
    let centre = (x + CELL / 2, y + CELL / 2);
    let (value, interval, games) = match cell {
        Some(c) => (
            c.value_text(),
            format!("[{:.2}, {:.2}]", c.win_low, c.win_high),
            if diagonal {
                format!("own, {} games", c.games)
            } else {
                format!("{} games", c.games)
            },
        ),
        None => ("·".to_string(), "not played".to_string(), String::new()),
    };
    let grey = RGBColor(40, 40, 40);
    for (text, dy, size, colour) in [
        (value, -16, 24.0, BLACK),
        (interval, 12, 13.0, grey),
        (games, 30, 12.0, grey),
    ] {
        chart::draw_label(
            root,
            text,
            (centre.0, centre.1 + dy),
            size,
            colour,
            (HPos::Center, VPos::Center),
        )?;
    }
    Ok(())
}

impl MatrixFigure {
    /// The colour scale: the win rate from 0 (bottom, red) to 1 (top, blue), with its ticks,
    /// at `(x, top)`.
    fn colour_bar<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        x: i32,
        top: i32,
    ) -> DrawResult<DB> {
        let height = (self.labels.len().max(3) as i32 * CELL).min(360);
        chart::share_colour_bar(root, x, top, height, "win rate")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_formula::Formula;
    use evomcts_portfolio::outputs::{CellResult, StudyRow, Validation};
    use evomcts_portfolio::properties::Properties;

    fn validation(win_rate: f64, p: f64) -> Validation {
        Validation {
            games: 20,
            wins: (win_rate * 20.0) as usize,
            draws: 0,
            losses: 20 - (win_rate * 20.0) as usize,
            win_rate,
            win_low: win_rate - 0.2,
            win_high: win_rate + 0.1,
            diff_mean: 0.0,
            diff_low: -1.0,
            diff_high: 1.0,
            wilcoxon_p: p,
        }
    }

    fn game(label: &str, own: &[(u32, f64, f64)]) -> GameResult {
        let formula: Formula = "Q".parse().unwrap();
        GameResult {
            label: label.into(),
            game: label.into(),
            open_spiel: false,
            properties: Properties {
                chance: false,
                branching: 3.0,
                length: 10.0,
                chance_events: 0.0,
                games: 100,
                game_type: "native".into(),
            },
            rows: own
                .iter()
                .map(|&(budget, rate, p)| StudyRow {
                    budget,
                    c_e_start: 0.7,
                    c_e_tuned: 0.7,
                    c_e: 0.7,
                    champion: formula.clone(),
                    simplified: formula.clone(),
                    validation: validation(rate, p),
                    sprt_decision: String::new(),
                    games: [1, 2, 3],
                })
                .collect(),
        }
    }

    fn cell(budget: u32, source: &str, target: &str, rate: f64, p: f64) -> CellResult {
        CellResult {
            budget,
            source: source.into(),
            target: target.into(),
            formula: "Q".parse().unwrap(),
            validation: validation(rate, p),
        }
    }

    /// Two games at two budgets; the matrix's cells with one tiny p (significant after Holm
    /// over the four off-diagonal cells) and the diagonal's from the games' own validations.
    fn portfolio() -> (Vec<GameResult>, Vec<MatrixColumn>) {
        let games = vec![
            game("a", &[(10, 0.6, 0.001), (20, 0.55, 0.5)]),
            game("b", &[(10, 0.4, 0.9), (20, 0.7, 0.002)]),
        ];
        let columns = vec![
            MatrixColumn {
                target: "a".into(),
                cells: vec![
                    cell(10, "b", "a", 0.25, 0.0001),
                    cell(20, "b", "a", 0.5, 0.8),
                ],
            },
            MatrixColumn {
                target: "b".into(),
                cells: vec![cell(10, "a", "b", 0.8, 0.3), cell(20, "a", "b", 0.45, 0.6)],
            },
        ];
        (games, columns)
    }

    #[test]
    fn one_figure_per_budget_with_every_cell_in_place_and_marked_by_holm() {
        let (games, columns) = portfolio();
        let figures = matrix_figures("p", &games, &columns);
        assert_eq!(
            figures.iter().map(|f| f.budget).collect::<Vec<_>>(),
            [10, 20]
        );
        let shown = |f: &MatrixFigure| -> Vec<Vec<String>> {
            f.cells
                .iter()
                .map(|r| r.iter().map(|c| c.as_ref().unwrap().value_text()).collect())
                .collect()
        };
        // Off the diagonal: Holm over four p's makes 0.0001 0.0004 (marked), 0.3 stays
        // unmarked. On it: the dataset's Holm over the four own validations (0.004, 0.006).
        assert_eq!(shown(&figures[0]), [["0.60*", "0.80"], ["0.25*", "0.40"]]);
        assert_eq!(shown(&figures[1]), [["0.55", "0.45"], ["0.50", "0.70*"]]);
        let own = figures[1].cells[1][1].as_ref().unwrap();
        assert!((own.holm_p - 0.006).abs() < 1e-12, "{}", own.holm_p);
        assert_eq!(figures[0].table().rows[1], ["b", "0.25*", "0.40"]);
    }

    #[test]
    fn a_missing_column_leaves_its_cells_unplayed_and_no_column_draws_nothing() {
        let (games, mut columns) = portfolio();
        columns.remove(1);
        let figures = matrix_figures("p", &games, &columns);
        assert!(figures[0].cells[0][1].is_none());
        assert!(figures[0].cells[1][0].is_some());
        assert!(figures[0].table().to_text().contains('·'));
        assert!(matrix_figures("p", &games, &[]).is_empty());
    }

    #[test]
    fn the_figure_prints_each_value_in_row_order_and_frames_the_diagonal() {
        let (games, columns) = portfolio();
        let figure = &matrix_figures("p", &games, &columns)[0];
        let svg = chart::svg_text(figure).unwrap();
        let at = |text: &str| {
            svg.find(&format!(">\n{text}\n</text>"))
                .unwrap_or_else(|| panic!("{text} missing"))
        };
        assert!(at("0.60*") < at("0.80") && at("0.80") < at("0.25*") && at("0.25*") < at("0.40"));
        assert_eq!(svg.matches("own, 20 games").count(), 2);
        assert!(svg.contains("win rate"));
    }
}
