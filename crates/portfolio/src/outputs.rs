//! What a portfolio writes from its jobs' result files: `portfolio.csv` (the dataset: per game
//! and budget its properties, tuned constant, champion and validation, with the p-values
//! Holm-adjusted across the portfolio), `matrix.csv` (each champion on every game, Holm across
//! the matrix's off-diagonal cells), `shared.csv` and `correlations.csv` (what the champions
//! share: terminals and sub-expressions, and each terminal's rank correlation with the games'
//! properties), and `portfolio.md`, the same as tables with the method.

use super::properties::Properties;
use super::shared::{correlations, shared_items, Correlation, SharedItem};
use super::{write_file, PortfolioError, PortfolioSpec};
use evomcts_formula::Formula;
use evomcts_study::BudgetRow;
use evomcts_validation::{p_text, PairingSummary};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const PORTFOLIO_CSV: &str = "portfolio.csv";
pub const MATRIX_CSV: &str = "matrix.csv";
pub const SHARED_CSV: &str = "shared.csv";
pub const CORRELATIONS_CSV: &str = "correlations.csv";
pub const PORTFOLIO_MD: &str = "portfolio.md";

pub const PORTFOLIO_CSV_HEADER: &str = "label,game,budget,open_spiel,game_type,chance,branching,length,c_e_start,c_e_tuned,c_e,champion,champion_simplified,win_rate,win_low,win_high,diff_mean,diff_low,diff_high,wilcoxon_p,holm_p,sprt_decision,tune_games,evolve_games,validate_games";
pub const MATRIX_CSV_HEADER: &str = "budget,source,target,formula,games,win_rate,win_low,win_high,diff_mean,diff_low,diff_high,wilcoxon_p,holm_p";

/// A validation's numbers as the portfolio keeps them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Validation {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub win_rate: f64,
    pub win_low: f64,
    pub win_high: f64,
    pub diff_mean: f64,
    pub diff_low: f64,
    pub diff_high: f64,
    pub wilcoxon_p: f64,
}

impl Validation {
    /// Its cells of a Markdown table: `W-D-L | win rate [interval] | difference [interval] |
    /// Wilcoxon p` (no outer bars).
    pub fn markdown_cells(&self) -> String {
        format!(
            "{}-{}-{} | {:.3} [{:.3}, {:.3}] | {:+.3} [{:+.3}, {:+.3}] | {}",
            self.wins,
            self.draws,
            self.losses,
            self.win_rate,
            self.win_low,
            self.win_high,
            self.diff_mean,
            self.diff_low,
            self.diff_high,
            p_shown(self.wilcoxon_p)
        )
    }
}

impl From<&PairingSummary> for Validation {
    fn from(v: &PairingSummary) -> Self {
        Validation {
            games: v.games,
            wins: v.wins,
            draws: v.draws,
            losses: v.losses,
            win_rate: v.win_rate,
            win_low: v.win_low,
            win_high: v.win_high,
            diff_mean: v.diff_mean,
            diff_low: v.diff_low,
            diff_high: v.diff_high,
            wilcoxon_p: v.wilcoxon_p,
        }
    }
}

/// One budget of a game's study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyRow {
    pub budget: u32,
    pub c_e_start: f64,
    pub c_e_tuned: f64,
    /// The constant evolution, validation and the matrix play.
    pub c_e: f64,
    pub champion: Formula,
    pub simplified: Formula,
    pub validation: Validation,
    pub sprt_decision: String,
    /// Games of tuning, evolution and validation.
    pub games: [u64; 3],
}

impl From<&BudgetRow> for StudyRow {
    fn from(r: &BudgetRow) -> Self {
        StudyRow {
            budget: r.budget,
            c_e_start: r.c_e_start,
            c_e_tuned: r.c_e_tuned,
            c_e: r.c_e,
            champion: r.champion.clone(),
            simplified: r.simplified.clone(),
            validation: Validation::from(&r.validation),
            sprt_decision: r.sprt.as_ref().map_or(String::new(), |(d, _)| d.clone()),
            games: r.games,
        }
    }
}

/// A game's job result: `games/LABEL.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    pub label: String,
    /// The game's own label (`Connect Four`, `OpenSpiel's hex(board_size=5)`).
    pub game: String,
    pub open_spiel: bool,
    pub properties: Properties,
    pub rows: Vec<StudyRow>,
}

/// A cell of the matrix: `source`'s champion on `target`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellResult {
    pub budget: u32,
    pub source: String,
    pub target: String,
    pub formula: Formula,
    pub validation: Validation,
}

impl CellResult {
    pub fn new(
        budget: u32,
        source: &str,
        target: &str,
        formula: &Formula,
        v: &PairingSummary,
    ) -> CellResult {
        CellResult {
            budget,
            source: source.to_string(),
            target: target.to_string(),
            formula: formula.clone(),
            validation: Validation::from(v),
        }
    }
}

/// A target game's column of the matrix: `matrix/LABEL.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixColumn {
    pub target: String,
    pub cells: Vec<CellResult>,
}

pub(crate) use evomcts_study::quoted;

/// A validation's numeric cells of a CSV row: win rate and interval, difference and interval,
/// Wilcoxon p.
pub fn validation_cells(v: &Validation) -> [String; 7] {
    [
        v.win_rate.to_string(),
        v.win_low.to_string(),
        v.win_high.to_string(),
        v.diff_mean.to_string(),
        v.diff_low.to_string(),
        v.diff_high.to_string(),
        v.wilcoxon_p.to_string(),
    ]
}

/// Every (game, budget) row of the dataset, in the spec's order, with its Holm-adjusted p.
pub fn dataset(games: &[GameResult]) -> Vec<(&GameResult, &StudyRow, f64)> {
    let rows: Vec<(&GameResult, &StudyRow)> = games
        .iter()
        .flat_map(|g| g.rows.iter().map(move |r| (g, r)))
        .collect();
    let p: Vec<f64> = rows.iter().map(|(_, r)| r.validation.wilcoxon_p).collect();
    let holm = evomcts_records::stats::holm(&p);
    rows.into_iter()
        .zip(holm)
        .map(|((g, r), h)| (g, r, h))
        .collect()
}

fn portfolio_csv(games: &[GameResult]) -> String {
    let mut csv = format!("{PORTFOLIO_CSV_HEADER}\n");
    for (g, r, holm) in dataset(games) {
        let p = &g.properties;
        let mut cells = vec![
            quoted(&g.label),
            quoted(&g.game),
            r.budget.to_string(),
            g.open_spiel.to_string(),
            quoted(&p.game_type),
            p.chance.to_string(),
            p.branching.to_string(),
            p.length.to_string(),
            r.c_e_start.to_string(),
            r.c_e_tuned.to_string(),
            r.c_e.to_string(),
            quoted(&r.champion.to_string()),
            quoted(&r.simplified.to_string()),
        ];
        cells.extend(validation_cells(&r.validation));
        cells.extend([
            holm.to_string(),
            r.sprt_decision.clone(),
            r.games[0].to_string(),
            r.games[1].to_string(),
            r.games[2].to_string(),
        ]);
        csv.push_str(&cells.join(","));
        csv.push('\n');
    }
    csv
}

/// The matrix's cells in order (budget, source, target), the diagonal being each game's own
/// validation, with Holm over the off-diagonal cells (the diagonal's p is the dataset's).
pub fn matrix_cells(
    games: &[GameResult],
    columns: &[MatrixColumn],
) -> Vec<(CellResult, Option<f64>)> {
    let mut cells: Vec<CellResult> = columns.iter().flat_map(|c| c.cells.clone()).collect();
    let off: Vec<f64> = cells.iter().map(|c| c.validation.wilcoxon_p).collect();
    let holm = evomcts_records::stats::holm(&off);
    let mut out: Vec<(CellResult, Option<f64>)> = cells
        .drain(..)
        .zip(holm)
        .map(|(c, h)| (c, Some(h)))
        .collect();
    for g in games {
        for r in &g.rows {
            out.push((
                CellResult {
                    budget: r.budget,
                    source: g.label.clone(),
                    target: g.label.clone(),
                    formula: r.champion.clone(),
                    validation: r.validation.clone(),
                },
                None,
            ));
        }
    }
    let order = |label: &str| {
        games
            .iter()
            .position(|g| g.label == label)
            .unwrap_or(usize::MAX)
    };
    out.sort_by_key(|(c, _)| (c.budget, order(&c.source), order(&c.target)));
    out
}

fn matrix_csv(games: &[GameResult], columns: &[MatrixColumn]) -> String {
    let mut csv = format!("{MATRIX_CSV_HEADER}\n");
    for (c, holm) in matrix_cells(games, columns) {
        let mut cells = vec![
            c.budget.to_string(),
            quoted(&c.source),
            quoted(&c.target),
            quoted(&c.formula.to_string()),
            c.validation.games.to_string(),
        ];
        cells.extend(validation_cells(&c.validation));
        cells.push(holm.map_or(String::new(), |h| h.to_string()));
        csv.push_str(&cells.join(","));
        csv.push('\n');
    }
    csv
}

fn shared_csv(items: &[SharedItem]) -> String {
    let mut csv = String::from("budget,kind,item,count,champions,labels\n");
    for s in items {
        csv.push_str(&format!(
            "{},{},{},{},{},{}\n",
            s.budget,
            s.kind,
            quoted(&s.item),
            s.count,
            s.champions,
            quoted(&s.labels.join(&super::spec::LIST_SEPARATOR.to_string()))
        ));
    }
    csv
}

fn correlations_csv(rows: &[Correlation]) -> String {
    let mut csv = String::from("budget,terminal,property,spearman_rho,n\n");
    for c in rows {
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            c.budget,
            quoted(&c.terminal),
            c.property,
            c.rho.map_or(String::new(), |r| r.to_string()),
            c.n
        ));
    }
    csv
}

/// Writes every output from the finished results (checked: [`super::check::read_checked`]).
pub fn write_outputs(
    dir: &Path,
    spec: &PortfolioSpec,
    results: &super::check::Results,
) -> Result<(), PortfolioError> {
    let (games, columns, general) = (&results.games, &results.columns, &results.general);
    let items = shared_items(games);
    let rhos = correlations(games);
    write_file(&dir.join(PORTFOLIO_CSV), &portfolio_csv(games))?;
    write_file(&dir.join(MATRIX_CSV), &matrix_csv(games, columns))?;
    write_file(&dir.join(SHARED_CSV), &shared_csv(&items))?;
    write_file(&dir.join(CORRELATIONS_CSV), &correlations_csv(&rhos))?;
    if let Some(g) = general {
        write_file(
            &dir.join(super::general::GENERAL_CSV),
            &super::general::general_csv(g),
        )?;
    }
    write_file(
        &dir.join(PORTFOLIO_MD),
        &super::markdown::markdown(spec, games, columns, &items, &rhos, general.as_ref()),
    )
}

/// `p` as the tables print it.
pub fn p_shown(p: f64) -> String {
    p_text(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::general::{general_csv, GeneralResult, GeneralRow};
    use crate::spec::check_label;

    /// The header and the rows of a CSV text, through the one CSV reader.
    fn parse_csv(text: &str) -> Vec<Vec<String>> {
        let table = evomcts_records::csv::Table::parse_any(std::path::Path::new("test.csv"), text)
            .expect("the writer's CSV reads back");
        let mut rows = vec![table.columns().to_vec()];
        rows.extend(table.into_rows());
        rows
    }

    /// `shared.csv`'s `labels` and `general.csv`'s `trained_on` list labels separated by `;`:
    /// every label the spec takes reads back from them, through the CSV reader and a split at
    /// `;`, as written, and the labels that would not (`a"b,c;d` reads back as two games) are
    /// refused by the spec (issue 53, cause 11).
    #[test]
    fn every_label_the_spec_takes_reads_back_from_the_lists_as_written() {
        let candidates = [
            "c4",
            "connect-four",
            "Tic_Tac_Toe-3",
            "-x",
            "x,y",
            "q\"r",
            "two words",
            "a'b $(touch pwned) `touch pwned`",
            "a\"b,c;d",
            "a;b",
            ";",
        ];
        let taken: Vec<String> = candidates
            .iter()
            .filter(|l| check_label(l).is_ok())
            .map(|l| l.to_string())
            .collect();
        assert_eq!(taken, candidates[..8]);
        for refused in &candidates[8..] {
            let message = check_label(refused).unwrap_err();
            assert!(message.contains("`;`"), "{message}");
        }

        let item = SharedItem {
            budget: 10,
            kind: "terminal",
            item: "Q".into(),
            count: taken.len(),
            champions: taken.len(),
            labels: taken.clone(),
        };
        let rows = parse_csv(&shared_csv(&[item]));
        let column = rows[0].iter().position(|h| h == "labels").unwrap();
        let read: Vec<&str> = rows[1][column].split(';').collect();
        assert_eq!(read, taken);

        let v = Validation {
            games: 4,
            wins: 2,
            draws: 0,
            losses: 2,
            win_rate: 0.5,
            win_low: 0.15,
            win_high: 0.85,
            diff_mean: 0.0,
            diff_low: 0.0,
            diff_high: 0.0,
            wilcoxon_p: 1.0,
        };
        let general = GeneralResult {
            rows: vec![GeneralRow {
                budget: 10,
                target: "held-out".into(),
                trained_on: taken.clone(),
                formula: Formula::uct(),
                validation: v,
            }],
        };
        let rows = parse_csv(&general_csv(&general));
        let column = rows[0].iter().position(|h| h == "trained_on").unwrap();
        let read: Vec<&str> = rows[1][column].split(';').collect();
        assert_eq!(read, taken);

        // What the old rule let through: written, it reads back as two labels.
        let old = SharedItem {
            budget: 10,
            kind: "terminal",
            item: "Q".into(),
            count: 1,
            champions: 1,
            labels: vec!["a\"b,c;d".into()],
        };
        let rows = parse_csv(&shared_csv(&[old]));
        assert_eq!(rows[1][column_of(&rows[0], "labels")].split(';').count(), 2);
    }

    fn column_of(header: &[String], name: &str) -> usize {
        header.iter().position(|h| h == name).unwrap()
    }
}
