//! League figures: the match matrix as a heat map, the standings with their bonus points, and
//! game win rates with 95% Wilson intervals — the paper's Tables V–X at a glance.
//!
//! All three are drawn from `league::Tables`, the same numbers `evomcts table` prints, so a
//! figure never disagrees with its table.

use super::chart::{self, DrawResult, Figure, RowAxes};
use super::{PlotError, WrittenFigure};
use evomcts_league::{Standing, Tables};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use std::path::Path;

/// The match matrix: row = controller playing first, column = second; each cell shows the
/// first player's wins of the match and is coloured by its share of the games (draws half).
pub struct MatrixHeatmap<'a> {
    pub tables: &'a Tables,
    pub title: String,
}

const CELL: i32 = chart::MATRIX_CELL;
/// The narrowest column of row names; longer names widen it.
const MIN_NAME_AREA: i32 = 190;
/// Room right of the matrix for the colour bar and its scale.
const COLOUR_BAR_AREA: i32 = 150;
const NAME_SIZE: f64 = 15.0;

impl MatrixHeatmap<'_> {
    /// Pixel x where the matrix starts: right of the widest row name.
    pub fn name_area(&self) -> i32 {
        (chart::widest(&self.tables.names, NAME_SIZE) + 30).max(MIN_NAME_AREA)
    }

    fn subtitle(&self) -> String {
        format!(
            "Games won by the row controller playing first, of {} per match; colour: its share of the match (draws count ½)",
            self.tables.games_per_match
        )
    }
}

impl Figure for MatrixHeatmap<'_> {
    fn title(&self) -> String {
        self.title.clone()
    }

    fn size(&self) -> (u32, u32) {
        let n = self.tables.names.len() as i32;
        let matrix = self.name_area() + n * CELL + COLOUR_BAR_AREA;
        let subtitle = 20 + chart::text_width(&self.subtitle(), 15.0) + 20;
        let title = 20 + chart::text_width(&self.title, 24.0) + 20;
        (
            matrix.max(subtitle).max(title).max(760) as u32,
            (150 + n.max(2) * CELL + 80) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let t = self.tables;
        let n = t.names.len();
        chart::titles(root, &self.title, &self.subtitle())?;
        let (x0, y0) = (self.name_area(), 150);
        self.colour_bar(root, x0 + n as i32 * CELL + 40, y0)?;
        chart::matrix_frame(
            root,
            &t.names,
            (x0, y0),
            [("second →", 28), ("first ↓", 10)],
            NAME_SIZE,
            |a, y| {
                for b in 0..n {
                    let x = x0 + b as i32 * CELL;
                    let cell = [(x, y), (x + CELL, y + CELL)];
                    let m = t.match_result(a, b).filter(|m| m.games > 0);
                    let fill = match m {
                        _ if a == b => RGBColor(200, 200, 200),
                        Some(m) => chart::share_colour(
                            (m.first_wins as f64 + m.draws as f64 / 2.0) / m.games as f64,
                        ),
                        None => RGBColor(245, 245, 245),
                    };
                    root.draw(&Rectangle::new(cell, fill.filled()))?;
                    root.draw(&Rectangle::new(cell, RGBColor(120, 120, 120)))?;
                    let centre = (x + CELL / 2, y + CELL / 2);
                    let (big, small) = match m {
                        _ if a == b => ("–".to_string(), String::new()),
                        Some(m) => (
                            format!("{}/{}", m.first_wins, m.games),
                            format!("diff {:+.1}", m.average_difference()),
                        ),
                        None => ("·".to_string(), "no games".to_string()),
                    };
                    chart::draw_label(
                        root,
                        big,
                        (centre.0, centre.1 - 8),
                        24.0,
                        BLACK,
                        (HPos::Center, VPos::Center),
                    )?;
                    chart::draw_label(
                        root,
                        small,
                        (centre.0, centre.1 + 22),
                        13.0,
                        RGBColor(40, 40, 40),
                        (HPos::Center, VPos::Center),
                    )?;
                }
                Ok(())
            },
        )
    }
}

impl MatrixHeatmap<'_> {
    /// The colour scale: the row controller's share of the match from 0 (bottom, red) to 1
    /// (top, blue), with its ticks, at `(x, top)`.
    fn colour_bar<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        x: i32,
        top: i32,
    ) -> DrawResult<DB> {
        let height = (self.tables.names.len().max(2) as i32 * CELL).min(360);
        chart::share_colour_bar(root, x, top, height, "share")
    }
}

const ROW: i32 = 46;
/// The narrowest column of row labels; longer labels widen it.
const MIN_LEFT: i32 = 200;
/// Width of the bars' axis.
const BAR_AREA: i32 = 540;

/// Pixel x where the bars start: right of the widest row label.
fn left_of(labels: &[String]) -> i32 {
    (chart::widest(labels, 15.0) + 30).max(MIN_LEFT)
}

/// The axes of a chart with one row per standing, labelled `labels`, from 0 to `max`, its
/// first row at `top`.
fn standing_axes(labels: &[String], rows: usize, top: i32, max: f64) -> RowAxes {
    let x0 = left_of(labels);
    RowAxes {
        x0,
        x1: x0 + BAR_AREA,
        top,
        row_height: ROW,
        rows,
        min: 0.0,
        max,
    }
}

/// The size of a chart with one row per standing: its axes, then each row's value label
/// (`value_label`) drawn `gap` pixels right of the axis, and at least as wide as its title.
fn standing_chart_size(
    axes: &RowAxes,
    gap: i32,
    tables: &Tables,
    value_label: fn(&Standing) -> String,
    title: &str,
) -> (u32, u32) {
    let values = chart::widest(tables.standings.iter().map(value_label), 14.0);
    let title = 20 + chart::text_width(title, 24.0) + 20;
    (
        (axes.x1 + gap + values + 30).max(title).max(1000) as u32,
        (axes.bottom() + 70) as u32,
    )
}

/// Standings as stacked bars: match points, then bonus-win and bonus-loss points.
pub struct StandingsChart<'a> {
    pub tables: &'a Tables,
    pub title: String,
}

impl StandingsChart<'_> {
    fn labels(&self) -> Vec<String> {
        self.tables
            .standings
            .iter()
            .map(|s| format!("{}. {}", s.position, s.name))
            .collect()
    }

    fn value_label(s: &Standing) -> String {
        format!(
            "{} (W{} L{} D{}, PD {:+.1})",
            s.points, s.wins, s.losses, s.draws, s.point_difference
        )
    }

    pub fn axes(&self) -> RowAxes {
        let max = self
            .tables
            .standings
            .iter()
            .map(|s| s.points)
            .max()
            .unwrap_or(0)
            .max(1) as f64;
        let step = super::chart::tick_step(max).max(1.0);
        standing_axes(
            &self.labels(),
            self.tables.standings.len(),
            110,
            (max / step).ceil() * step,
        )
    }
}

impl Figure for StandingsChart<'_> {
    fn title(&self) -> String {
        self.title.clone()
    }

    fn size(&self) -> (u32, u32) {
        standing_chart_size(&self.axes(), 0, self.tables, Self::value_label, &self.title)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let axes = self.axes();
        chart::titles(
            root,
            &self.title,
            "Points per controller: match points, bonus-win points (BWP) and bonus-loss points (BLP)",
        )?;
        let labels = self.labels();
        let step = super::chart::tick_step(axes.max).max(1.0);
        axes.draw(
            root,
            &labels,
            &chart::ticks(0.0, axes.max, step),
            |v| format!("{v}"),
            "points",
        )?;
        let parts = [
            ("match points", chart::colour(0)),
            ("bonus win", chart::colour(2)),
            ("bonus loss", chart::colour(1)),
        ];
        for (i, s) in self.tables.standings.iter().enumerate() {
            let (a, b) = axes.row(i);
            let base = s.points - s.bonus_win - s.bonus_loss;
            let mut from = 0.0;
            for (value, (_, colour)) in [base, s.bonus_win, s.bonus_loss].into_iter().zip(parts) {
                let to = from + value as f64;
                if value > 0 {
                    root.draw(&Rectangle::new(
                        [(axes.px(from), a + 8), (axes.px(to), b - 8)],
                        colour.filled(),
                    ))?;
                }
                from = to;
            }
            chart::draw_label(
                root,
                Self::value_label(s),
                (axes.px(from) + 6, (a + b) / 2),
                14.0,
                BLACK,
                (HPos::Left, VPos::Center),
            )?;
        }
        // Legend under the title.
        let mut x = axes.x0;
        for (name, colour) in parts {
            root.draw(&Rectangle::new([(x, 76), (x + 16, 92)], colour.filled()))?;
            chart::draw_label(
                root,
                name.to_string(),
                (x + 22, 84),
                14.0,
                BLACK,
                (HPos::Left, VPos::Center),
            )?;
            x += 150;
        }
        Ok(())
    }
}

/// Room between the win-rate axis and the value labels right of it.
const VALUE_GAP: i32 = 12;

/// Game win rates (draws count one half) with their 95% Wilson intervals.
pub struct WinRateChart<'a> {
    pub tables: &'a Tables,
    pub title: String,
}

impl WinRateChart<'_> {
    fn labels(&self) -> Vec<String> {
        self.tables
            .standings
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    fn value_label(s: &Standing) -> String {
        format!(
            "{:.3} [{:.3}, {:.3}]  {}/{} games",
            s.win_rate, s.win_rate_low, s.win_rate_high, s.game_wins, s.games
        )
    }

    pub fn axes(&self) -> RowAxes {
        standing_axes(&self.labels(), self.tables.standings.len(), 90, 1.0)
    }
}

impl Figure for WinRateChart<'_> {
    fn title(&self) -> String {
        self.title.clone()
    }

    fn size(&self) -> (u32, u32) {
        standing_chart_size(
            &self.axes(),
            VALUE_GAP,
            self.tables,
            Self::value_label,
            &self.title,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let axes = self.axes();
        chart::titles(
            root,
            &self.title,
            "Share of games won (draws count ½), with 95% Wilson intervals",
        )?;
        let labels = self.labels();
        axes.draw(
            root,
            &labels,
            &chart::ticks(0.0, 1.0, 0.1),
            |v| format!("{v:.1}"),
            "win rate",
        )?;
        let half = axes.px(0.5);
        root.draw(&PathElement::new(
            vec![(half, axes.top - 4), (half, axes.bottom())],
            RGBColor(150, 150, 150).stroke_width(2),
        ))?;
        for (i, s) in self.tables.standings.iter().enumerate() {
            let (a, b) = axes.row(i);
            let y = (a + b) / 2;
            let colour = chart::colour(s.entrant);
            let (lo, hi) = (axes.px(s.win_rate_low), axes.px(s.win_rate_high));
            root.draw(&PathElement::new(
                vec![(lo, y), (hi, y)],
                colour.stroke_width(3),
            ))?;
            for x in [lo, hi] {
                root.draw(&PathElement::new(
                    vec![(x, y - 8), (x, y + 8)],
                    colour.stroke_width(3),
                ))?;
            }
            root.draw(&Circle::new((axes.px(s.win_rate), y), 7, colour.filled()))?;
            chart::draw_label(
                root,
                Self::value_label(s),
                (axes.x1 + VALUE_GAP, y),
                14.0,
                BLACK,
                (HPos::Left, VPos::Center),
            )?;
        }
        Ok(())
    }
}

/// Writes `league_matrix`, `league_standings` and `league_win_rates` (PNG and SVG) into `dir`.
pub fn write_league_figures(
    tables: &Tables,
    league_name: &str,
    dir: &Path,
) -> Result<Vec<WrittenFigure>, PlotError> {
    let title = |what: &str| format!("League {league_name}: {what}");
    Ok(vec![
        chart::save_in(
            &MatrixHeatmap {
                tables,
                title: title("match matrix"),
            },
            dir,
            "league_matrix",
        )?,
        chart::save_in(
            &StandingsChart {
                tables,
                title: title("standings"),
            },
            dir,
            "league_standings",
        )?,
        chart::save_in(
            &WinRateChart {
                tables,
                title: title("game win rates"),
            },
            dir,
            "league_win_rates",
        )?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_league::BonusRules;

    #[test]
    fn long_names_fit_inside_every_league_figure() {
        let names: Vec<String> = [
            "MCTS with RAVE, C = 0.7071 and a very long descriptive name",
            "Random",
            "ES-p-MCTS (λ = 8, 4 generations, scaled grammar)",
        ]
        .map(String::from)
        .to_vec();
        let tables = Tables::from_games(&names, 2, &BonusRules::default(), &[]);
        let longest = &names[0];
        // Row labels are drawn right-aligned 10 pixels left of the axis.
        let heat = MatrixHeatmap {
            tables: &tables,
            title: "t".into(),
        };
        assert!(heat.name_area() - 10 - chart::text_width(longest, 15.0) >= 0);
        assert!(heat.size().0 as i32 > heat.name_area() + 3 * CELL);
        let standings = StandingsChart {
            tables: &tables,
            title: "t".into(),
        };
        let label = format!("1. {longest}");
        assert!(standings.axes().x0 - 10 - chart::text_width(&label, 15.0) >= 0);
        let rates = WinRateChart {
            tables: &tables,
            title: "t".into(),
        };
        assert!(rates.axes().x0 - 10 - chart::text_width(longest, 15.0) >= 0);
        for s in &tables.standings {
            let right =
                rates.axes().x1 + 12 + chart::text_width(&WinRateChart::value_label(s), 14.0);
            assert!(right < rates.size().0 as i32, "{right}");
        }
    }

    #[test]
    fn even_matches_are_white_and_one_sided_ones_saturated() {
        assert_eq!(chart::share_colour(0.5), RGBColor(255, 255, 255));
        assert_eq!(chart::share_colour(1.0), RGBColor(31, 119, 180));
        assert_eq!(chart::share_colour(0.0), RGBColor(214, 39, 40));
    }
}
