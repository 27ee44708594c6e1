//! How an evolution run went, from its generation files (read by `evolve::report`): fitness
//! per generation with 95% intervals — the best candidate evaluated, the mean of the
//! candidates, the champion and the seed formula (the reference) — the size of the formulas
//! per generation, and the fitness samples each generation spent and the candidates racing
//! dropped.
//!
//! Intervals: the best candidate's, the champion's and the reference's are those of their own
//! fitness estimates (as in `logbook.csv`); the mean's is the 95% interval of the mean over
//! the candidates evaluated that generation, so it shows how far the population is spread.

use super::chart::{self, DrawResult, Figure};
use super::{PlotError, Written};
use evomcts_evolve::{Estimate, EvolveSpec, FitnessSpec, Generation, Member};
use evomcts_league::report::TextTable;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    fn of(e: &Estimate) -> Interval {
        Interval {
            mean: e.mean,
            low: e.low,
            high: e.high,
        }
    }
}

/// One generation as the figures show it.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationPoint {
    pub generation: usize,
    /// The best candidate evaluated this generation (the logbook's `best`), with the
    /// interval of that candidate's estimate when it can be identified.
    pub best: Interval,
    /// The logbook's `mean`, with the interval of the mean over the candidates.
    pub mean: Interval,
    pub champion: Interval,
    pub reference: Interval,
    pub champion_size: usize,
    /// Mean size of the survivors (the parents of the next generation).
    pub population_size: f64,
    /// Mean size of the candidates born this generation.
    pub offspring_size: f64,
    /// Fitness samples spent this generation and candidates dropped by racing.
    pub samples: u64,
    pub dropped: usize,
}

/// The members whose estimates made a generation's `best` and `mean`: everything born that
/// generation, and the survivors too when the spec re-evaluates them (without a spec, the
/// newborn alone).
fn candidates<'a>(spec: Option<&EvolveSpec>, g: &'a Generation) -> Vec<&'a Member> {
    let reevaluated =
        g.generation > 0 && spec.is_some_and(|s| s.strategy.plus && s.noise.reevaluate_survivors);
    let mut out: Vec<&Member> = g.offspring.iter().collect();
    if reevaluated {
        out.extend(&g.parents);
    }
    out
}

fn mean_size(members: &[Member]) -> f64 {
    members.iter().map(|m| m.size as f64).sum::<f64>() / members.len().max(1) as f64
}

/// A line of a figure: its legend, colour and value at each generation.
type Series<T> = (&'static str, RGBColor, fn(&GenerationPoint) -> T);

/// The figures' data, one point per generation.
pub fn generation_points(spec: Option<&EvolveSpec>, gens: &[Generation]) -> Vec<GenerationPoint> {
    gens.iter()
        .map(|g| {
            let candidates = candidates(spec, g);
            let best = candidates
                .iter()
                .find(|m| m.fitness.rank() == g.best)
                .map(|m| Interval::of(&m.fitness))
                .unwrap_or(Interval {
                    mean: g.best,
                    low: g.best,
                    high: g.best,
                });
            let means: Vec<f64> = candidates
                .iter()
                .map(|m| m.fitness.rank())
                .filter(|v| v.is_finite())
                .collect();
            let half = Estimate::from_samples(&means).half_width();
            GenerationPoint {
                generation: g.generation,
                best,
                mean: Interval {
                    mean: g.mean,
                    low: g.mean - half,
                    high: g.mean + half,
                },
                champion: Interval::of(&g.champion.fitness),
                reference: Interval::of(&g.reference.fitness),
                champion_size: g.champion.size,
                population_size: mean_size(&g.parents),
                offspring_size: mean_size(&g.offspring),
                samples: g.spent,
                dropped: g.dropped,
            }
        })
        .collect()
}

fn fitness_name(spec: Option<&EvolveSpec>) -> &'static str {
    match spec.map(|s| &s.fitness) {
        Some(FitnessSpec::Bandit(_)) => "fitness (bandit reward)",
        Some(FitnessSpec::Planted(_)) => "fitness (win rate of the planted control)",
        Some(FitnessSpec::Games(_)) => "fitness (against the baseline)",
        Some(FitnessSpec::Mixed(_)) => "fitness (win rate against each game's baseline, mixed)",
        None => "fitness",
    }
}

fn x_range(points: &[GenerationPoint]) -> std::ops::Range<f64> {
    let last = points.last().map_or(1, |p| p.generation.max(1));
    -0.3..last as f64 + 0.3
}

pub(super) fn series_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((hi - lo) * 0.08).max(1e-3);
    lo - pad..hi + pad
}

pub(super) fn legend<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    ch: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> DrawResult<DB> {
    ch.configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(160, 160, 160))
        .label_font(chart::text(15.0))
        .draw()
}

/// Fitness per generation with 95% intervals.
pub struct EvolutionFitnessFigure<'a> {
    pub run: &'a str,
    pub y_label: &'a str,
    pub points: &'a [GenerationPoint],
}

impl Figure for EvolutionFitnessFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 700)
    }

    fn title(&self) -> String {
        format!("Evolution {}: fitness per generation", self.run)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let pts = self.points;
        let y = series_range(pts.iter().flat_map(|p| {
            [p.best, p.mean, p.champion, p.reference]
                .into_iter()
                .flat_map(|i| [i.low, i.high])
        }));
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!("{} (95% intervals)", self.title()),
                chart::text(20.0),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x_range(pts), y)?;
        ch.configure_mesh()
            .x_desc("generation")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .x_labels(pts.len().clamp(2, 20))
            .y_desc(self.y_label)
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .draw()?;
        // Whiskers side by side, shifted off the generation, so they do not hide each other.
        let series: [(Series<Interval>, f64); 4] = [
            (("champion", chart::colour(0), |p| p.champion), 0.0),
            (("best candidate", chart::colour(1), |p| p.best), -0.12),
            (
                ("mean of the candidates", chart::colour(2), |p| p.mean),
                0.12,
            ),
            (
                ("seed formula", RGBColor(120, 120, 120), |p| p.reference),
                0.0,
            ),
        ];
        for ((name, colour, value), shift) in series {
            if name == "champion" {
                let mut band: Vec<(f64, f64)> = pts
                    .iter()
                    .map(|p| (p.generation as f64, value(p).high))
                    .collect();
                band.extend(
                    pts.iter()
                        .rev()
                        .map(|p| (p.generation as f64, value(p).low)),
                );
                ch.draw_series(std::iter::once(Polygon::new(
                    band,
                    colour.mix(0.18).filled(),
                )))?;
            } else {
                // Whiskers with caps: the interval of each generation's estimate.
                let whiskers = pts.iter().flat_map(|p| {
                    let (v, x) = (value(p), p.generation as f64 + shift);
                    [
                        vec![(x, v.low), (x, v.high)],
                        vec![(x - 0.05, v.low), (x + 0.05, v.low)],
                        vec![(x - 0.05, v.high), (x + 0.05, v.high)],
                    ]
                });
                ch.draw_series(whiskers.map(|w| PathElement::new(w, colour.stroke_width(2))))?;
            }
            let line: Vec<(f64, f64)> = pts
                .iter()
                .map(|p| (p.generation as f64 + shift, value(p).mean))
                .collect();
            let style = colour.stroke_width(if name == "champion" { 3 } else { 2 });
            ch.draw_series(LineSeries::new(line, style))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
        }
        legend(&mut ch, SeriesLabelPosition::LowerRight)
    }
}

/// Formula sizes per generation.
pub struct EvolutionSizeFigure<'a> {
    pub run: &'a str,
    pub points: &'a [GenerationPoint],
}

impl Figure for EvolutionSizeFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 600)
    }

    fn title(&self) -> String {
        format!("Evolution {}: formula size per generation", self.run)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let pts = self.points;
        let max = pts
            .iter()
            .map(|p| {
                (p.champion_size as f64)
                    .max(p.population_size)
                    .max(p.offspring_size)
            })
            .fold(1.0, f64::max);
        let mut ch = ChartBuilder::on(root)
            .caption(self.title(), chart::text(20.0))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x_range(pts), 0f64..max * 1.15)?;
        ch.configure_mesh()
            .x_desc("generation")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .x_labels(pts.len().clamp(2, 20))
            .y_desc("size (nodes)")
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .draw()?;
        let series: [Series<f64>; 3] = [
            ("champion", chart::colour(0), |p| p.champion_size as f64),
            ("survivors (mean)", chart::colour(2), |p| p.population_size),
            ("newborn candidates (mean)", chart::colour(1), |p| {
                p.offspring_size
            }),
        ];
        for (name, colour, value) in series {
            let line: Vec<(f64, f64)> = pts
                .iter()
                .map(|p| (p.generation as f64, value(p)))
                .collect();
            ch.draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(2))
                });
            ch.draw_series(line.into_iter().map(|p| Circle::new(p, 4, colour.filled())))?;
        }
        legend(&mut ch, SeriesLabelPosition::UpperLeft)
    }
}

/// Fitness samples spent per generation, and the candidates racing dropped.
pub struct EvolutionEffortFigure<'a> {
    pub run: &'a str,
    pub points: &'a [GenerationPoint],
}

impl Figure for EvolutionEffortFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 600)
    }

    fn title(&self) -> String {
        format!("Evolution {}: fitness samples per generation", self.run)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let pts = self.points;
        let max = pts.iter().map(|p| p.samples as f64).fold(1.0, f64::max);
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!("{} (labels: candidates dropped by racing)", self.title()),
                chart::text(20.0),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x_range(pts), 0f64..max * 1.15)?;
        ch.configure_mesh()
            .x_desc("generation")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .x_labels(pts.len().clamp(2, 20))
            .y_desc("fitness samples spent")
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .draw()?;
        let colour = chart::colour(0);
        ch.draw_series(pts.iter().map(|p| {
            let x = p.generation as f64;
            Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, p.samples as f64)],
                colour.filled(),
            )
        }))?;
        ch.draw_series(pts.iter().filter(|p| p.dropped > 0).map(|p| {
            Text::new(
                format!("{} dropped", p.dropped),
                (p.generation as f64 - 0.25, p.samples as f64 + max * 0.06),
                chart::text(13.0),
            )
        }))?;
        Ok(())
    }
}

/// `evolution.csv`: the figures' numbers, one row per generation.
pub fn points_table(points: &[GenerationPoint]) -> TextTable {
    TextTable {
        title: String::new(),
        headers: [
            "generation",
            "best",
            "best_low",
            "best_high",
            "mean",
            "mean_low",
            "mean_high",
            "champion",
            "champion_low",
            "champion_high",
            "reference",
            "reference_low",
            "reference_high",
            "champion_size",
            "survivors_mean_size",
            "offspring_mean_size",
            "samples_spent",
            "dropped",
        ]
        .map(String::from)
        .to_vec(),
        rows: points
            .iter()
            .map(|p| {
                let mut row = vec![p.generation.to_string()];
                for i in [p.best, p.mean, p.champion, p.reference] {
                    row.extend([i.mean, i.low, i.high].map(|v| v.to_string()));
                }
                row.extend([
                    p.champion_size.to_string(),
                    p.population_size.to_string(),
                    p.offspring_size.to_string(),
                    p.samples.to_string(),
                    p.dropped.to_string(),
                ]);
                row
            })
            .collect(),
    }
}

/// Everything drawn for an evolution run.
pub struct EvolutionFigures {
    pub run: String,
    pub y_label: &'static str,
    pub points: Vec<GenerationPoint>,
}

impl EvolutionFigures {
    pub fn new(
        spec: Option<&EvolveSpec>,
        gens: &[Generation],
    ) -> Result<EvolutionFigures, PlotError> {
        let Some(first) = gens.first() else {
            return Err(PlotError::Data(
                "the evolution run has no generation files (gen-NNN.ron) yet".into(),
            ));
        };
        Ok(EvolutionFigures {
            run: first.run.clone(),
            y_label: fitness_name(spec),
            points: generation_points(spec, gens),
        })
    }

    /// Writes `evolution.csv` and the figures `evolution_fitness`, `evolution_sizes` and
    /// `evolution_samples` (PNG and SVG) into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Written, PlotError> {
        let table = points_table(&self.points);
        let last = self.points.last().expect("at least one generation");
        let text = format!(
            "Evolution {}: {} generations; champion of generation {}: {:.4} [{:.4}, {:.4}], seed formula {:.4} [{:.4}, {:.4}]\n",
            self.run,
            self.points.len(),
            last.generation,
            last.champion.mean,
            last.champion.low,
            last.champion.high,
            last.reference.mean,
            last.reference.low,
            last.reference.high,
        );
        Ok(Written {
            tables: vec![super::write_text(dir, "evolution.csv", &table.to_csv())?],
            figures: vec![
                chart::save_in(
                    &EvolutionFitnessFigure {
                        run: &self.run,
                        y_label: self.y_label,
                        points: &self.points,
                    },
                    dir,
                    "evolution_fitness",
                )?,
                chart::save_in(
                    &EvolutionSizeFigure {
                        run: &self.run,
                        points: &self.points,
                    },
                    dir,
                    "evolution_sizes",
                )?,
                chart::save_in(
                    &EvolutionEffortFigure {
                        run: &self.run,
                        points: &self.points,
                    },
                    dir,
                    "evolution_samples",
                )?,
            ],
            text,
        })
    }
}
