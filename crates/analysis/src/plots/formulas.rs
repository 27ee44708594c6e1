//! Which selection formulas the ES controllers chose: over every recorded decision of each ES
//! controller, the number of formulas, how many are different (by canonical form) and the most
//! frequent ones with their counts — Table XI of the main paper — as tables and bar charts.
//!
//! Formulas are counted by the canonical text the league recorded, so `n + Q` and `Q + n`
//! count as one. Labels are typeset for reading (`√`, `·`, `ln(…)`, constants shortened to
//! four significant digits); the CSV keeps the exact canonical text and a LaTeX form.
//!
//! The *drift* measure counts the chosen formulas that cannot be a sensible selection rule:
//! those that ignore the child's value `Q`, ignore its visits `n`, or read no statistic at
//! all (a constant, possibly of `C`). UCT's own count is listed beside it.

use super::chart::{self, DrawResult, Figure};
use super::{PlotError, Written};
use evomcts_formula::typeset::{latex, pretty};
use evomcts_formula::{Formula, Terminal};
use evomcts_league::report::TextTable;
use evomcts_league::stats::wilson_interval;
use evomcts_league::{es_decisions_of, LeagueGame};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;
use std::path::Path;

/// One distinct formula (by canonical form) and how often it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct FormulaCount {
    pub canonical: String,
    pub count: usize,
}

/// The formulas one ES controller chose over all its recorded decisions.
#[derive(Clone, Debug, PartialEq)]
pub struct ControllerFormulas {
    pub controller: String,
    /// Recorded ES decisions.
    pub decisions: usize,
    /// Decisions that chose a formula (the paper's "Total").
    pub total: usize,
    /// Decisions where the ES did not run (too few simulations), so UCT selected.
    pub not_run: usize,
    /// Every distinct formula, most frequent first (ties by canonical text).
    pub counts: Vec<FormulaCount>,
}

impl ControllerFormulas {
    /// Distinct formulas (the paper's "Unique").
    pub fn unique(&self) -> usize {
        self.counts.len()
    }

    pub fn top(&self, k: usize) -> &[FormulaCount] {
        &self.counts[..k.min(self.counts.len())]
    }
}

/// Counts the formulas of every controller that made ES decisions, in the order of `names`
/// (controllers named in `only`, when it is not empty).
pub fn count_formulas(
    names: &[String],
    games: &[LeagueGame],
    only: &[String],
) -> Vec<ControllerFormulas> {
    let mut out = Vec::new();
    for name in names {
        if !only.is_empty() && !only.contains(name) {
            continue;
        }
        let mut decisions = 0;
        let mut not_run = 0;
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for d in es_decisions_of(games, name) {
            decisions += 1;
            match d.canonical.as_deref().or(d.formula.as_deref()) {
                Some(c) => *counts.entry(c).or_default() += 1,
                None => not_run += 1,
            }
        }
        if decisions == 0 {
            continue;
        }
        let mut counts: Vec<FormulaCount> = counts
            .into_iter()
            .map(|(canonical, count)| FormulaCount {
                canonical: canonical.to_string(),
                count,
            })
            .collect();
        counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.canonical.cmp(&b.canonical)));
        out.push(ControllerFormulas {
            controller: name.clone(),
            decisions,
            total: decisions - not_run,
            not_run,
            counts,
        });
    }
    out
}

// ------------------------------------------------------------------ drift

/// How many of one controller's chosen formulas drifted away from a selection rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Drift {
    pub controller: String,
    /// Decisions that chose a formula.
    pub total: usize,
    pub ignores_q: usize,
    pub ignores_n: usize,
    /// No statistic at all: no `Q`, `N`, `n`, `V`, `P` or `K`.
    pub constant: usize,
    /// Ignores `Q` or `n` (constants included): the drift measure.
    pub drifted: usize,
    /// Exactly UCT (by canonical form).
    pub uct: usize,
}

impl Drift {
    pub fn new(r: &ControllerFormulas) -> Result<Drift, PlotError> {
        let uct = Formula::uct().canonical().to_string();
        let mut d = Drift {
            controller: r.controller.clone(),
            total: r.total,
            ignores_q: 0,
            ignores_n: 0,
            constant: 0,
            drifted: 0,
            uct: 0,
        };
        for c in &r.counts {
            let formula = parse(&c.canonical)?;
            let has = |t: Terminal| formula.expr().contains_terminal(t);
            let (q, n) = (has(Terminal::Q), has(Terminal::ChildVisits));
            let statistic = Terminal::ALL
                .into_iter()
                .any(|t| t != Terminal::ExplorationConstant && has(t));
            d.ignores_q += c.count * usize::from(!q);
            d.ignores_n += c.count * usize::from(!n);
            d.constant += c.count * usize::from(!statistic);
            d.drifted += c.count * usize::from(!q || !n);
            d.uct += c.count * usize::from(c.canonical == uct);
        }
        Ok(d)
    }

    /// The drifted share and its 95% Wilson interval.
    pub fn share(&self) -> (f64, f64, f64) {
        let n = self.total as f64;
        let (low, high) = wilson_interval(self.drifted as f64, n);
        (self.drifted as f64 / n.max(1.0), low, high)
    }
}

/// The drift of every controller.
pub fn drift_table(drifts: &[Drift]) -> TextTable {
    let pct = |k: usize, n: usize| format!("{:.1}%", 100.0 * k as f64 / n.max(1) as f64);
    TextTable::new(
        "Drift: chosen formulas that ignore Q or n (or read no statistic), with 95% Wilson intervals",
        &[
            "Controller",
            "Formulas",
            "Drifted",
            "Share",
            "95% interval",
            "Ignore Q",
            "Ignore n",
            "Constant",
            "UCT",
        ],
        drift_rows(
            drifts,
            |d| {
                let (_, low, high) = d.share();
                vec![
                    pct(d.drifted, d.total),
                    format!("[{:.1}%, {:.1}%]", 100.0 * low, 100.0 * high),
                ]
            },
            pct,
        ),
    )
}

/// The rows of a drift table: controller, formulas, drifted, the cells `share` makes of a
/// drift's drifted share and its interval, then how many ignore Q, ignore n, are constant and are UCT,
/// each written by `part(count, formulas)`.
fn drift_rows(
    drifts: &[Drift],
    share: impl Fn(&Drift) -> Vec<String>,
    part: impl Fn(usize, usize) -> String,
) -> Vec<Vec<String>> {
    drifts
        .iter()
        .map(|d| {
            let mut row = vec![
                d.controller.clone(),
                d.total.to_string(),
                d.drifted.to_string(),
            ];
            row.extend(share(d));
            row.extend([d.ignores_q, d.ignores_n, d.constant, d.uct].map(|k| part(k, d.total)));
            row
        })
        .collect()
}

/// A bar chart of one controller's drift, drawn like the formula charts.
pub fn drift_chart(d: &Drift) -> FormulaChart {
    let keeps = d.total - d.drifted;
    FormulaChart {
        title: format!("Drift of {}", d.controller),
        subtitle: format!(
            "{} chosen formulas; drifted (ignore Q or n) {}",
            d.total, d.drifted
        ),
        bars: vec![
            (vec!["ignores Q".into()], d.ignores_q),
            (vec!["ignores n".into()], d.ignores_n),
            (vec!["constant (no statistic)".into()], d.constant),
            (vec!["keeps Q and n".into()], keeps),
            (vec!["UCT".into()], d.uct),
        ],
        total: d.total,
    }
}

fn parse(text: &str) -> Result<Formula, PlotError> {
    text.parse::<Formula>().map_err(|e| {
        PlotError::Data(format!(
            "recorded formula `{text}` does not parse ({e}); the records are damaged or from another version"
        ))
    })
}

/// One row of the top-k listing with every form of the formula.
pub struct TopRow {
    pub controller: String,
    pub rank: usize,
    pub count: usize,
    pub share: f64,
    /// The controller's chosen formulas, of which `count` are this one.
    pub total: usize,
    pub canonical: String,
    pub pretty: String,
    pub latex: String,
    pub size: usize,
    pub depth: usize,
}

pub fn top_rows(results: &[ControllerFormulas], k: usize) -> Result<Vec<TopRow>, PlotError> {
    let mut rows = Vec::new();
    for r in results {
        for (i, c) in r.top(k).iter().enumerate() {
            let f = parse(&c.canonical)?;
            rows.push(TopRow {
                controller: r.controller.clone(),
                rank: i + 1,
                count: c.count,
                share: c.count as f64 / r.total.max(1) as f64,
                total: r.total,
                canonical: c.canonical.clone(),
                pretty: pretty(&f),
                latex: latex(&f),
                size: f.size(),
                depth: f.depth(),
            });
        }
    }
    Ok(rows)
}

const SUMMARY_TITLE: &str =
    "Formulas chosen by the ES over all recorded decisions (unique by canonical form)";

pub fn summary_table(results: &[ControllerFormulas]) -> TextTable {
    summary_with_headers(
        SUMMARY_TITLE,
        &["Controller", "Decisions", "Total", "Unique", "ES not run"],
        results,
    )
}

/// One row per controller: its decisions, chosen formulas, unique formulas and decisions
/// without an ES run.
fn summary_with_headers(
    title: &str,
    headers: &[&str],
    results: &[ControllerFormulas],
) -> TextTable {
    let rows = results
        .iter()
        .map(|r| {
            vec![
                r.controller.clone(),
                r.decisions.to_string(),
                r.total.to_string(),
                r.unique().to_string(),
                r.not_run.to_string(),
            ]
        })
        .collect();
    TextTable::new(title, headers, rows)
}

/// The cells a top-k row shares between the terminal table and `formulas.csv`: controller,
/// rank, count, the share as `share` writes it, and the typeset formula.
fn top_cells(r: &TopRow, share: impl Fn(f64) -> String) -> Vec<String> {
    vec![
        r.controller.clone(),
        r.rank.to_string(),
        r.count.to_string(),
        share(r.share),
        r.pretty.clone(),
    ]
}

/// The top-k table for the terminal.
pub fn top_table(rows: &[TopRow], k: usize) -> TextTable {
    TextTable::new(
        format!("The {k} most frequent formulas of each ES controller"),
        &["Controller", "Rank", "Count", "Share", "Formula"],
        rows.iter()
            .map(|r| top_cells(r, |share| format!("{:.1}%", 100.0 * share)))
            .collect(),
    )
}

/// The columns of `formulas.csv`, one row per listed formula: `share` is a fraction of the
/// controller's chosen formulas (0 to 1, full precision); `canonical` is the text the parser
/// reads back; `pretty` and `latex` are for people.
pub const CSV_HEADERS: [&str; 10] = [
    "controller",
    "rank",
    "count",
    "share",
    "pretty",
    "canonical",
    "latex",
    "size",
    "depth",
    "total",
];

/// `formulas.csv`: snake_case headers, plain numbers (no "%").
pub fn csv_table(rows: &[TopRow]) -> TextTable {
    TextTable::new(
        "",
        &CSV_HEADERS,
        rows.iter()
            .map(|r| {
                let mut cells = top_cells(r, |share| share.to_string());
                cells.extend([
                    r.canonical.clone(),
                    r.latex.clone(),
                    r.size.to_string(),
                    r.depth.to_string(),
                    r.total.to_string(),
                ]);
                cells
            })
            .collect(),
    )
}

/// `formulas_summary.csv`.
pub fn summary_csv(results: &[ControllerFormulas]) -> TextTable {
    summary_with_headers(
        SUMMARY_TITLE,
        &["controller", "decisions", "total", "unique", "es_not_run"],
        results,
    )
}

/// `formulas_drift.csv`: counts of chosen formulas, and the drifted share as a fraction with
/// its 95% Wilson interval in two columns.
pub fn drift_csv(drifts: &[Drift]) -> TextTable {
    TextTable::new(
        "",
        &[
            "controller",
            "formulas",
            "drifted",
            "share",
            "share_low",
            "share_high",
            "ignores_q",
            "ignores_n",
            "constant",
            "uct",
        ],
        drift_rows(
            drifts,
            |d| {
                let (share, low, high) = d.share();
                vec![share.to_string(), low.to_string(), high.to_string()]
            },
            |count, _| count.to_string(),
        ),
    )
}

/// Markdown with the summary and, per formula, its typeset form and its LaTeX.
pub fn markdown(results: &[ControllerFormulas], rows: &[TopRow], k: usize) -> String {
    let mut md = String::from("# Evolved selection formulas\n\n");
    md.push_str(&summary_table(results).to_markdown());
    md.push('\n');
    // The terminal's top-k table with the formula as code and its LaTeX beside it.
    let mut table = top_table(rows, k);
    table.headers.push("LaTeX".into());
    for (cells, r) in table.rows.iter_mut().zip(rows) {
        cells[4] = format!("`{}`", r.pretty);
        cells.push(format!("${}$", r.latex));
    }
    md.push_str(&table.to_markdown());
    md
}

// ------------------------------------------------------------------ chart

/// Horizontal bars of the most frequent formulas of one controller, labels wrapped.
pub struct FormulaChart {
    pub title: String,
    pub subtitle: String,
    /// (label lines, count) per bar, most frequent first.
    pub bars: Vec<(Vec<String>, usize)>,
    pub total: usize,
}

const LINE_HEIGHT: u32 = 19;
const TOP: u32 = 80;
const BOTTOM: u32 = 60;
const WIDTH: u32 = 1400;
const LABEL_SIZE: f64 = 15.0;
/// Room right of the longest bar for its count.
const COUNT_AREA: i32 = 130;

impl FormulaChart {
    pub fn new(r: &ControllerFormulas, rows: &[TopRow]) -> FormulaChart {
        let bars = rows
            .iter()
            .filter(|t| t.controller == r.controller)
            .map(|t| {
                let mut lines = chart::wrap(&t.pretty, 56);
                lines[0] = format!("{}. {}", t.rank, lines[0]);
                (lines, t.count)
            })
            .collect();
        FormulaChart {
            title: format!("Formulas chosen by {}", r.controller),
            subtitle: format!(
                "{} decisions: {} formulas, {} unique (canonical form), ES not run {}",
                r.decisions,
                r.total,
                r.unique(),
                r.not_run
            ),
            bars,
            total: r.total,
        }
    }

    fn bar_height(lines: usize) -> u32 {
        lines as u32 * LINE_HEIGHT + 16
    }

    /// Pixel x where the bars start: just right of the widest label line, so the bars take
    /// the rest of the width whatever the formulas' length.
    pub fn bars_left(&self) -> i32 {
        let widest = chart::widest(self.bars.iter().flat_map(|(l, _)| l), LABEL_SIZE);
        (widest + 40).clamp(160, WIDTH as i32 / 2)
    }

    /// Pixel x where the longest bar ends.
    pub fn bars_right(&self) -> i32 {
        self.size().0 as i32 - COUNT_AREA
    }
}

impl Figure for FormulaChart {
    fn title(&self) -> String {
        self.title.clone()
    }

    fn size(&self) -> (u32, u32) {
        let bars: u32 = self
            .bars
            .iter()
            .map(|(l, _)| Self::bar_height(l.len()) + 8)
            .sum();
        (WIDTH, TOP + bars.max(40) + BOTTOM)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let h = self.size().1 as i32;
        chart::titles(root, &self.title, &self.subtitle)?;
        let (x0, x1) = (self.bars_left(), self.bars_right());
        let max = self.bars.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
        let step = chart::tick_step(max).max(1.0);
        let axis_max = (max / step).ceil() * step;
        let px = |v: f64| x0 + ((x1 - x0) as f64 * v / axis_max).round() as i32;
        let axis_y = h - BOTTOM as i32 + 4;
        // Grid and ticks first, so the bars sit on top of them.
        let mut t = 0.0;
        while t <= axis_max + 1e-9 {
            let x = px(t);
            root.draw(&PathElement::new(
                vec![(x, TOP as i32 - 6), (x, axis_y)],
                RGBColor(225, 225, 225),
            ))?;
            chart::draw_label(
                root,
                format!("{}", t),
                (x, axis_y + 8),
                14.0,
                BLACK,
                (HPos::Center, VPos::Top),
            )?;
            t += step;
        }
        root.draw(&PathElement::new(vec![(x0, axis_y), (x1, axis_y)], BLACK))?;
        chart::draw_label(
            root,
            "times chosen".to_string(),
            ((x0 + x1) / 2, axis_y + 30),
            15.0,
            BLACK,
            (HPos::Center, VPos::Top),
        )?;
        let mut y = TOP as i32;
        for (lines, count) in &self.bars {
            let bh = Self::bar_height(lines.len()) as i32;
            root.draw(&Rectangle::new(
                [(x0, y), (px(*count as f64), y + bh)],
                chart::colour(0).filled(),
            ))?;
            root.draw(&Text::new(
                format!(
                    "{count} ({:.1}%)",
                    100.0 * *count as f64 / self.total.max(1) as f64
                ),
                (px(*count as f64) + 6, y + bh / 2),
                chart::text(14.0)
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            // Each line centred on its own slot, the slots centred on the bar.
            let centre = y + bh / 2;
            let first = centre - (lines.len() as i32 - 1) * LINE_HEIGHT as i32 / 2;
            for (i, line) in lines.iter().enumerate() {
                chart::draw_label(
                    root,
                    line.clone(),
                    (x0 - 10, first + i as i32 * LINE_HEIGHT as i32),
                    LABEL_SIZE,
                    BLACK,
                    (HPos::Right, VPos::Center),
                )?;
            }
            y += bh + 8;
        }
        Ok(())
    }
}

/// Everything `plot formulas` produces.
pub struct FormulaReport {
    pub results: Vec<ControllerFormulas>,
    pub rows: Vec<TopRow>,
    pub k: usize,
}

impl FormulaReport {
    pub fn new(
        names: &[String],
        games: &[LeagueGame],
        only: &[String],
        k: usize,
    ) -> Result<FormulaReport, PlotError> {
        let results = count_formulas(names, games, only);
        let rows = top_rows(&results, k)?;
        Ok(FormulaReport { results, rows, k })
    }

    /// The drift of each controller.
    pub fn drifts(&self) -> Result<Vec<Drift>, PlotError> {
        self.results.iter().map(Drift::new).collect()
    }

    pub fn to_text(&self) -> String {
        // The terminal table right-aligns all but its first columns; padding the formulas to
        // one width keeps them left-aligned and readable.
        let mut top = top_table(&self.rows, self.k);
        let width = top
            .rows
            .iter()
            .chain(std::iter::once(&top.headers))
            .map(|r| r[4].chars().count())
            .max()
            .unwrap_or(0);
        for r in top.rows.iter_mut().chain(std::iter::once(&mut top.headers)) {
            let pad = width - r[4].chars().count();
            r[4].push_str(&" ".repeat(pad));
        }
        let drift = self
            .drifts()
            .map(|d| drift_table(&d).to_text())
            .unwrap_or_default();
        format!(
            "{}\n{}\n{}",
            summary_table(&self.results).to_text(),
            top.to_text(),
            drift
        )
    }

    /// Writes `formulas.csv` (top k, every form), `formulas_summary.csv`, `formulas.md`,
    /// `formulas_drift.csv`, a chart `formulas_<controller>.{png,svg}` and a drift chart
    /// `drift_<controller>.{png,svg}` per controller into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Written, PlotError> {
        let mut written = Written {
            tables: vec![
                super::write_text(dir, "formulas.csv", &csv_table(&self.rows).to_csv())?,
                super::write_text(
                    dir,
                    "formulas_summary.csv",
                    &summary_csv(&self.results).to_csv(),
                )?,
                super::write_text(
                    dir,
                    "formulas.md",
                    &markdown(&self.results, &self.rows, self.k),
                )?,
            ],
            figures: Vec::new(),
            text: self.to_text(),
        };
        for r in &self.results {
            let fig = FormulaChart::new(r, &self.rows);
            written.figures.push(chart::save_in(
                &fig,
                dir,
                &format!(
                    "formulas_{}",
                    evomcts_records::runfs::file_stem(&r.controller)
                ),
            )?);
        }
        let drifts = self.drifts()?;
        written.tables.push(super::write_text(
            dir,
            "formulas_drift.csv",
            &drift_csv(&drifts).to_csv(),
        )?);
        for d in &drifts {
            written.figures.push(chart::save_in(
                &drift_chart(d),
                dir,
                &format!("drift_{}", evomcts_records::runfs::file_stem(&d.controller)),
            )?);
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_counts_formulas_that_ignore_q_or_n() {
        let uct = Formula::uct().canonical().to_string();
        let counts = [
            ("Q", 3),
            ("n", 2),
            ("2", 1),
            ("C*C", 1),
            ("Q + n", 4),
            (&uct, 5),
        ];
        let r = ControllerFormulas {
            controller: "ES".into(),
            decisions: 17,
            total: 16,
            not_run: 1,
            counts: counts
                .iter()
                .map(|(c, k)| FormulaCount {
                    canonical: c.to_string(),
                    count: *k,
                })
                .collect(),
        };
        let d = Drift::new(&r).unwrap();
        assert_eq!(d.ignores_q, 2 + 1 + 1);
        assert_eq!(d.ignores_n, 3 + 1 + 1);
        assert_eq!(d.constant, 2);
        assert_eq!(d.drifted, 3 + 2 + 1 + 1);
        assert_eq!(d.uct, 5);
        let (share, low, high) = d.share();
        assert!((share - 7.0 / 16.0).abs() < 1e-12 && low < share && share < high);
        let table = drift_table(&[d]);
        assert_eq!(table.rows[0][2], "7");
        assert_eq!(drift_chart(&Drift::new(&r).unwrap()).bars[3].1, 16 - 7);
    }

    #[test]
    fn the_formula_chart_gives_short_labels_little_room_and_bars_the_rest() {
        let chart = FormulaChart {
            title: "t".into(),
            subtitle: "s".into(),
            bars: vec![(vec!["1. Q".into()], 5), (vec!["2. √N".into()], 3)],
            total: 8,
        };
        let (left, right) = (chart.bars_left(), chart.bars_right());
        assert!(left - 10 - chart::text_width("2. √N", LABEL_SIZE) >= 0);
        // The bars' axis spans most of the figure.
        assert!((right - left) as f64 > 0.7 * WIDTH as f64, "{left} {right}");
        let long = FormulaChart {
            bars: vec![(vec!["1. ".to_string() + &"Q + ".repeat(14)], 5)],
            ..chart
        };
        assert!(long.bars_left() - 10 >= chart::text_width(&long.bars[0].0[0], LABEL_SIZE));
    }

    #[test]
    fn the_text_view_pads_formulas_shorter_than_their_header() {
        let results = vec![ControllerFormulas {
            controller: "ES".into(),
            decisions: 2,
            total: 2,
            not_run: 0,
            counts: vec![FormulaCount {
                canonical: "Q".into(),
                count: 2,
            }],
        }];
        let rows = top_rows(&results, 5).unwrap();
        let text = FormulaReport {
            results,
            rows,
            k: 5,
        }
        .to_text();
        assert!(text.contains("Formula"), "{text}");
        assert!(text.contains("Drift"), "{text}");
    }
}
