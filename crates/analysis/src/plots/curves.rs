//! How games unfolded and how the ES behaved: the mean virtual score after every turn of each
//! controller of a pairing (as in Ameneyro et al.'s figures), the ES fitness per generation
//! averaged over decisions, and the sizes and depths of the chosen formulas.
//!
//! A score curve averages every game of the pairing at every turn: a game that has ended keeps
//! its final score for the turns after its end, so the last point of each curve is the mean
//! final score the title states, and games shortened by discards neither pull the tail
//! towards zero nor drop out of it. The fitness curve averages, at each generation, the
//! decisions whose ES ran that many generations. The CSVs carry the count behind every mean.
//! Score curves are drawn from Carcassonne games (whose records keep the virtual scores after
//! every turn); a league of another game has none.

use super::chart::{self, DrawResult, Figure};
use super::{PlotError, Written};
use evomcts_formula::Formula;
use evomcts_games::carcassonne::GameRecord;
use evomcts_league::report::TextTable;
use evomcts_league::{es_decisions_of, LeagueGame};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// Mean score per turn of the two controllers of one pairing, over both seatings.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingCurves {
    /// Entrant indices and names, lower index first.
    pub entrants: [usize; 2],
    pub names: [String; 2],
    pub games: usize,
    /// `mean[side][t]`: mean score of side after turn `t + 1` over every game of the pairing:
    /// the virtual score while the game runs, its final score from its last turn on.
    pub mean: [Vec<f64>; 2],
    /// Games still running after turn `t + 1` (lasted at least `t + 1` turns).
    pub reached: Vec<usize>,
    pub final_mean: [f64; 2],
}

/// One curve per pairing that played, in entrant order.
pub fn score_curves(names: &[String], games: &[LeagueGame]) -> Vec<PairingCurves> {
    let n = names.len();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let pairing: Vec<(&GameRecord, usize)> = games
                .iter()
                .filter_map(|g| {
                    let record = g.game.carcassonne()?;
                    match (g.job.id.first, g.job.id.second) {
                        (f, s) if (f, s) == (a, b) => Some((record, 0)),
                        (f, s) if (f, s) == (b, a) => Some((record, 1)),
                        _ => None,
                    }
                })
                .collect();
            if pairing.is_empty() {
                continue;
            }
            let turns = pairing
                .iter()
                .map(|(g, _)| g.virtual_scores.len())
                .max()
                .unwrap_or(0);
            let mut sums: [Vec<f64>; 2] = [vec![0.0; turns], vec![0.0; turns]];
            let mut reached = vec![0; turns];
            let mut finals = [0.0; 2];
            for (g, seat_of_a) in &pairing {
                let seats = [*seat_of_a, 1 - seat_of_a];
                let played = g.virtual_scores.len();
                for t in 0..turns {
                    // From its last turn on a game counts with its final score, so every turn
                    // averages the same games and the curve ends at the mean final score.
                    let score = if t + 1 >= played {
                        g.final_scores
                    } else {
                        g.virtual_scores[t]
                    };
                    reached[t] += usize::from(t < played);
                    for side in 0..2 {
                        sums[side][t] += score[seats[side]] as f64;
                    }
                }
                for side in 0..2 {
                    finals[side] += g.final_scores[seats[side]] as f64;
                }
            }
            let count = pairing.len();
            let mean = sums.map(|s| s.iter().map(|v| v / count as f64).collect());
            out.push(PairingCurves {
                entrants: [a, b],
                names: [names[a].clone(), names[b].clone()],
                games: count,
                mean,
                reached,
                final_mean: finals.map(|f| f / count as f64),
            });
        }
    }
    out
}

/// ES fitness per generation of one controller, averaged over its decisions.
#[derive(Clone, Debug, PartialEq)]
pub struct FitnessCurve {
    pub controller: String,
    pub decisions: usize,
    /// Mean over decisions of the generation's best and mean candidate fitness.
    pub best: Vec<f64>,
    pub mean: Vec<f64>,
    /// Decisions that ran generation `g + 1`.
    pub reached: Vec<usize>,
}

pub fn fitness_curves(names: &[String], games: &[LeagueGame]) -> Vec<FitnessCurve> {
    let mut out = Vec::new();
    for name in names {
        let mut best: Vec<f64> = Vec::new();
        let mut mean: Vec<f64> = Vec::new();
        let mut reached: Vec<usize> = Vec::new();
        let mut decisions = 0;
        for d in es_decisions_of(games, name) {
            decisions += 1;
            for (i, (b, m)) in d.best_fitness.iter().zip(&d.mean_fitness).enumerate() {
                if reached.len() <= i {
                    reached.push(0);
                    best.push(0.0);
                    mean.push(0.0);
                }
                reached[i] += 1;
                best[i] += b;
                mean[i] += m;
            }
        }
        if reached.is_empty() {
            continue;
        }
        for i in 0..reached.len() {
            best[i] /= reached[i] as f64;
            mean[i] /= reached[i] as f64;
        }
        out.push(FitnessCurve {
            controller: name.clone(),
            decisions,
            best,
            mean,
            reached,
        });
    }
    out
}

/// Sizes (nodes) and depths (edges on the longest path) of one controller's chosen formulas.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeStats {
    pub controller: String,
    pub formulas: usize,
    /// `size_counts[s]`: formulas of size `s` as chosen (before simplification).
    pub size_counts: Vec<usize>,
    pub depth_counts: Vec<usize>,
    pub mean_size: f64,
    pub mean_depth: f64,
    /// The same means for the canonical (simplified) forms.
    pub mean_canonical_size: f64,
    pub mean_canonical_depth: f64,
}

fn parse(text: &str) -> Result<Formula, PlotError> {
    text.parse::<Formula>().map_err(|e| {
        PlotError::Data(format!(
            "recorded formula `{text}` does not parse ({e}); the records are damaged or from another version"
        ))
    })
}

pub fn shape_stats(names: &[String], games: &[LeagueGame]) -> Result<Vec<ShapeStats>, PlotError> {
    let mut out = Vec::new();
    for name in names {
        let mut sizes = Vec::new();
        let mut depths = Vec::new();
        let mut canonical = (0usize, 0usize);
        for d in es_decisions_of(games, name) {
            let Some(text) = &d.formula else { continue };
            let f = parse(text)?;
            sizes.push(f.size());
            depths.push(f.depth());
            let c = match &d.canonical {
                Some(c) => parse(c)?,
                None => f.canonical(),
            };
            canonical.0 += c.size();
            canonical.1 += c.depth();
        }
        if sizes.is_empty() {
            continue;
        }
        let histogram = |v: &[usize]| {
            let mut h = vec![0; v.iter().max().copied().unwrap_or(0) + 1];
            for &x in v {
                h[x] += 1;
            }
            h
        };
        let n = sizes.len() as f64;
        out.push(ShapeStats {
            controller: name.clone(),
            formulas: sizes.len(),
            size_counts: histogram(&sizes),
            depth_counts: histogram(&depths),
            mean_size: sizes.iter().sum::<usize>() as f64 / n,
            mean_depth: depths.iter().sum::<usize>() as f64 / n,
            mean_canonical_size: canonical.0 as f64 / n,
            mean_canonical_depth: canonical.1 as f64 / n,
        });
    }
    Ok(out)
}

// ------------------------------------------------------------------ figures

fn legend_box<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> DrawResult<DB> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(160, 160, 160))
        .label_font(chart::text(15.0))
        .draw()
}

fn y_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(0.5);
    (lo.min(0.0) - if lo < 0.0 { pad } else { 0.0 }, hi + pad)
}

pub struct ScoreFigure<'a> {
    pub curves: &'a PairingCurves,
}

impl Figure for ScoreFigure<'_> {
    fn title(&self) -> String {
        format!(
            "Mean score per turn: {} vs {}",
            self.curves.names[0], self.curves.names[1]
        )
    }

    fn size(&self) -> (u32, u32) {
        (1100, 700)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let c = self.curves;
        let turns = c.reached.len().max(1);
        let (lo, hi) = y_range(c.mean.iter().flatten().copied());
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!(
                    "Mean score per turn: {} vs {} ({} games; final {:.1} – {:.1})",
                    c.names[0], c.names[1], c.games, c.final_mean[0], c.final_mean[1]
                ),
                chart::text(20.0),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(1f64..turns as f64, lo..hi)?;
        ch.configure_mesh()
            .x_desc("turn (both players' moves)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc("mean score (virtual while a game runs, then final)")
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .draw()?;
        for side in 0..2 {
            let colour = chart::colour(c.entrants[side]);
            ch.draw_series(LineSeries::new(
                c.mean[side]
                    .iter()
                    .enumerate()
                    .map(|(t, v)| ((t + 1) as f64, *v)),
                colour.stroke_width(3),
            ))?
            .label(c.names[side].clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3))
            });
        }
        legend_box(&mut ch, SeriesLabelPosition::UpperLeft)
    }
}

pub struct FitnessFigure<'a> {
    pub curves: &'a [FitnessCurve],
}

impl Figure for FitnessFigure<'_> {
    fn title(&self) -> String {
        "ES fitness per generation, averaged over decisions".to_string()
    }

    fn size(&self) -> (u32, u32) {
        (1100, 700)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let gens = self
            .curves
            .iter()
            .map(|c| c.reached.len())
            .max()
            .unwrap_or(1)
            .max(2);
        let (lo, hi) = y_range(
            self.curves
                .iter()
                .flat_map(|c| c.best.iter().chain(&c.mean))
                .copied(),
        );
        let mut ch = ChartBuilder::on(root)
            .caption(
                "ES fitness per generation, averaged over decisions (solid: best, dashed: mean)",
                chart::text(20.0),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(1f64..gens as f64, lo..hi)?;
        ch.configure_mesh()
            .x_desc("generation")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc("fitness")
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .x_labels(gens.min(20))
            .draw()?;
        for (i, c) in self.curves.iter().enumerate() {
            let colour = chart::colour(i);
            let points = |v: &[f64]| -> Vec<(f64, f64)> {
                v.iter()
                    .enumerate()
                    .map(|(g, f)| ((g + 1) as f64, *f))
                    .collect()
            };
            ch.draw_series(LineSeries::new(points(&c.best), colour.stroke_width(3)))?
                .label(format!("{} best ({} decisions)", c.controller, c.decisions))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3))
                });
            ch.draw_series(DashedLineSeries::new(
                points(&c.mean),
                10,
                6,
                colour.stroke_width(2),
            ))?
            .label(format!("{} mean", c.controller))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 10, y)], colour.stroke_width(2))
            });
        }
        legend_box(&mut ch, SeriesLabelPosition::LowerRight)
    }
}

pub struct ShapeFigure<'a> {
    pub stats: &'a [ShapeStats],
}

impl ShapeFigure<'_> {
    fn panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        title: &str,
        x_desc: &str,
        counts: impl Fn(&ShapeStats) -> &[usize],
    ) -> DrawResult<DB> {
        let max_x = self
            .stats
            .iter()
            .map(|s| counts(s).len())
            .max()
            .unwrap_or(1)
            .max(2);
        let share = |s: &ShapeStats, x: usize| counts(s)[x] as f64 / s.formulas.max(1) as f64;
        let max_y = self
            .stats
            .iter()
            .flat_map(|s| (0..counts(s).len()).map(move |x| (s, x)))
            .map(|(s, x)| share(s, x))
            .fold(0.0, f64::max)
            .max(0.05)
            * 1.1;
        let mut ch = ChartBuilder::on(area)
            .caption(title, chart::text(18.0))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..(max_x - 1) as f64, 0f64..max_y)?;
        ch.configure_mesh()
            .x_desc(x_desc)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc("share of decisions")
            .label_style(chart::text(13.0))
            .axis_desc_style(chart::text(14.0))
            .draw()?;
        for (i, s) in self.stats.iter().enumerate() {
            let colour = chart::colour(i);
            let pts: Vec<(f64, f64)> = (0..counts(s).len())
                .map(|x| (x as f64, share(s, x)))
                .collect();
            ch.draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))?
                .label(s.controller.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3))
                });
            ch.draw_series(
                pts.into_iter()
                    .map(move |p| Circle::new(p, 4, colour.filled())),
            )?;
        }
        legend_box(&mut ch, SeriesLabelPosition::UpperRight)
    }
}

impl Figure for ShapeFigure<'_> {
    fn title(&self) -> String {
        "Size and depth of the formulas the ES chose".to_string()
    }

    fn size(&self) -> (u32, u32) {
        (1400, 620)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (left, right) = root.split_horizontally(700);
        self.panel(&left, "Size of the chosen formulas", "size (nodes)", |s| {
            &s.size_counts
        })?;
        self.panel(
            &right,
            "Depth of the chosen formulas",
            "depth (edges on the longest path)",
            |s| &s.depth_counts,
        )
    }
}

// ------------------------------------------------------------------ tables and files

pub fn shape_table(stats: &[ShapeStats]) -> TextTable {
    TextTable {
        title: "Chosen formulas: mean size and depth as evolved, and after simplification".into(),
        headers: [
            "Controller",
            "Formulas",
            "Mean size",
            "Mean depth",
            "Canonical size",
            "Canonical depth",
            "Max size",
            "Max depth",
        ]
        .map(String::from)
        .to_vec(),
        rows: stats
            .iter()
            .map(|s| {
                vec![
                    s.controller.clone(),
                    s.formulas.to_string(),
                    format!("{:.2}", s.mean_size),
                    format!("{:.2}", s.mean_depth),
                    format!("{:.2}", s.mean_canonical_size),
                    format!("{:.2}", s.mean_canonical_depth),
                    (s.size_counts.len() - 1).to_string(),
                    (s.depth_counts.len() - 1).to_string(),
                ]
            })
            .collect(),
    }
}

/// `es_fitness.csv`: one row per controller and generation, full precision.
pub fn fitness_table(curves: &[FitnessCurve]) -> TextTable {
    TextTable {
        title: "ES fitness per generation, averaged over decisions".into(),
        headers: [
            "controller",
            "generation",
            "decisions",
            "mean_best",
            "mean_mean",
        ]
        .map(String::from)
        .to_vec(),
        rows: curves
            .iter()
            .flat_map(|c| {
                (0..c.reached.len()).map(move |g| {
                    vec![
                        c.controller.clone(),
                        (g + 1).to_string(),
                        c.reached[g].to_string(),
                        c.best[g].to_string(),
                        c.mean[g].to_string(),
                    ]
                })
            })
            .collect(),
    }
}

/// `scores_per_turn.csv`: one row per pairing, controller and turn; `games_running` counts
/// the games not yet over after the turn, `mean_score` averages all the pairing's games.
pub fn score_table(curves: &[PairingCurves]) -> TextTable {
    TextTable {
        title: "Mean score after each turn, per pairing".into(),
        headers: [
            "pairing",
            "controller",
            "turn",
            "games_running",
            "mean_score",
        ]
        .map(String::from)
        .to_vec(),
        rows: curves
            .iter()
            .flat_map(|c| {
                let pairing = format!("{} vs {}", c.names[0], c.names[1]);
                (0..2).flat_map(move |side| {
                    let pairing = pairing.clone();
                    (0..c.reached.len()).map(move |t| {
                        vec![
                            pairing.clone(),
                            c.names[side].clone(),
                            (t + 1).to_string(),
                            c.reached[t].to_string(),
                            c.mean[side][t].to_string(),
                        ]
                    })
                })
            })
            .collect(),
    }
}

/// `formula_shapes.csv`: the shape table with snake_case headers.
pub fn shape_csv(stats: &[ShapeStats]) -> TextTable {
    let mut table = shape_table(stats);
    // The display table rounds the means; the CSV keeps them at full precision.
    for (row, s) in table.rows.iter_mut().zip(stats) {
        row[2] = s.mean_size.to_string();
        row[3] = s.mean_depth.to_string();
        row[4] = s.mean_canonical_size.to_string();
        row[5] = s.mean_canonical_depth.to_string();
    }
    table.headers = [
        "controller",
        "formulas",
        "mean_size",
        "mean_depth",
        "mean_canonical_size",
        "mean_canonical_depth",
        "max_size",
        "max_depth",
    ]
    .map(String::from)
    .to_vec();
    table
}

/// Everything `plot games` produces.
pub struct GameCurves {
    pub scores: Vec<PairingCurves>,
    pub fitness: Vec<FitnessCurve>,
    pub shapes: Vec<ShapeStats>,
}

impl GameCurves {
    /// Curves of the controllers in `only` (all when empty); a pairing is kept when either
    /// side is selected.
    pub fn new(
        names: &[String],
        games: &[LeagueGame],
        only: &[String],
    ) -> Result<GameCurves, PlotError> {
        let keep = |n: &String| only.is_empty() || only.contains(n);
        let selected: Vec<String> = names.iter().filter(|n| keep(n)).cloned().collect();
        let scores = score_curves(names, games)
            .into_iter()
            .filter(|c| keep(&c.names[0]) || keep(&c.names[1]))
            .collect();
        Ok(GameCurves {
            scores,
            fitness: fitness_curves(&selected, games),
            shapes: shape_stats(&selected, games)?,
        })
    }

    pub fn to_text(&self) -> String {
        let finals = TextTable {
            title: "Mean final scores per pairing".into(),
            headers: ["Pairing", "Games", "Score A", "Score B"]
                .map(String::from)
                .to_vec(),
            rows: self
                .scores
                .iter()
                .map(|c| {
                    vec![
                        format!("{} vs {}", c.names[0], c.names[1]),
                        c.games.to_string(),
                        format!("{:.2}", c.final_mean[0]),
                        format!("{:.2}", c.final_mean[1]),
                    ]
                })
                .collect(),
        };
        let mut text = finals.to_text();
        if !self.shapes.is_empty() {
            text.push('\n');
            text.push_str(&shape_table(&self.shapes).to_text());
        }
        text
    }

    /// Writes `scores_<a>_vs_<b>`, `es_fitness` and `formula_shapes` figures (PNG and SVG;
    /// the last two only when some controller used the ES) and their CSVs into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Written, PlotError> {
        let mut out = Written {
            tables: vec![super::write_text(
                dir,
                "scores_per_turn.csv",
                &score_table(&self.scores).to_csv(),
            )?],
            figures: Vec::new(),
            text: self.to_text(),
        };
        for c in &self.scores {
            let stem = format!(
                "scores_{}_vs_{}",
                evomcts_records::runfs::file_stem(&c.names[0]),
                evomcts_records::runfs::file_stem(&c.names[1])
            );
            out.figures
                .push(chart::save_in(&ScoreFigure { curves: c }, dir, &stem)?);
        }
        if !self.fitness.is_empty() {
            out.tables.push(super::write_text(
                dir,
                "es_fitness.csv",
                &fitness_table(&self.fitness).to_csv(),
            )?);
            out.figures.push(chart::save_in(
                &FitnessFigure {
                    curves: &self.fitness,
                },
                dir,
                "es_fitness",
            )?);
        }
        if !self.shapes.is_empty() {
            out.tables.push(super::write_text(
                dir,
                "formula_shapes.csv",
                &shape_csv(&self.shapes).to_csv(),
            )?);
            out.figures.push(chart::save_in(
                &ShapeFigure {
                    stats: &self.shapes,
                },
                dir,
                "formula_shapes",
            )?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_arena::PlayedGame;
    use evomcts_games::carcassonne::{GameRecord, Rules};
    use evomcts_league::{GameId, GameJob};

    fn game(
        first: usize,
        second: usize,
        virtual_scores: Vec<[i32; 2]>,
        final_scores: [i32; 2],
    ) -> LeagueGame {
        LeagueGame {
            spec_hash: "hand".into(),
            job: GameJob {
                id: GameId {
                    first,
                    second,
                    index: 0,
                },
                seed: 1,
                controller_seeds: [2, 3],
            },
            names: ["A".to_string(), "B".to_string()],
            game: PlayedGame::Carcassonne(GameRecord {
                tile_seed: 1,
                rules: Rules::default(),
                draws: vec![],
                moves: vec![],
                virtual_scores,
                final_scores,
                score_by_kind: [[0; 4]; 2],
                meeples_played: [0; 2],
                turns_with_meeple_available: [0; 2],
                turns: [1, 1],
                discards: 0,
            }),
            es: [vec![], vec![]],
            search: Default::default(),
        }
    }

    #[test]
    fn curves_end_at_the_mean_final_score_when_games_differ_in_length() {
        let names = ["A", "B"].map(String::from).to_vec();
        // A long game with A first, a short one with B first whose last virtual score is not
        // yet its final score (end-of-game scoring adds to it).
        let games = vec![
            game(0, 1, vec![[1, 0], [2, 2], [4, 3], [10, 6]], [10, 6]),
            game(1, 0, vec![[0, 3], [5, 7]], [8, 9]),
        ];
        let curves = score_curves(&names, &games);
        assert_eq!(curves.len(), 1);
        let c = &curves[0];
        assert_eq!(c.final_mean, [(10.0 + 9.0) / 2.0, (6.0 + 8.0) / 2.0]);
        for side in 0..2 {
            assert_eq!(c.mean[side].len(), 4);
            assert_eq!(*c.mean[side].last().unwrap(), c.final_mean[side]);
        }
        // Turn 1 averages both games; turn 3 keeps the short game at its final score.
        assert_eq!(c.mean[0][0], (1.0 + 3.0) / 2.0);
        assert_eq!(c.mean[0][2], (4.0 + 9.0) / 2.0);
        assert_eq!(c.reached, vec![2, 2, 1, 1]);
    }
}
