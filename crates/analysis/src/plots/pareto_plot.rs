//! The front between simple and strong of an evolution run, from its `pareto.csv` (written by
//! `evolve::pareto`): every candidate judged at its complexity (nodes after simplification)
//! with its fitness and 95% interval on the front's fresh samples; front members in colour,
//! joined simplest first, the candidates off the front in grey. Which candidate is on the front
//! is the file's verdict (Holm-adjusted paired tests), not something the figure decides.

use super::chart::{self, DrawResult, Figure};
use super::evolution_plots::{legend, series_range};
use super::{PlotError, WrittenFigure};
use evomcts_evolve::pareto::{self, Row, Verdict};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// The front of one run.
pub struct ParetoFigure {
    pub run: String,
    pub y_label: &'static str,
    pub rows: Vec<Row>,
}

impl ParetoFigure {
    /// The front of the run in `dir`, `None` when it has no `pareto.csv`.
    pub fn read(
        dir: &Path,
        run: &str,
        y_label: &'static str,
    ) -> Result<Option<ParetoFigure>, PlotError> {
        let Some((_, rows)) = pareto::read(dir)? else {
            return Ok(None);
        };
        Ok(Some(ParetoFigure {
            run: run.to_string(),
            y_label,
            rows,
        }))
    }

    /// Writes the figure `pareto_front` (PNG and SVG) into `dir`.
    pub fn write(&self, dir: &Path) -> Result<WrittenFigure, PlotError> {
        chart::save_in(self, dir, "pareto_front")
    }
}

impl Figure for ParetoFigure {
    fn size(&self) -> (u32, u32) {
        (1100, 700)
    }

    fn title(&self) -> String {
        format!(
            "Evolution {}: the front between simple and strong",
            self.run
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let rows = &self.rows;
        let y = series_range(rows.iter().flat_map(|r| [r.low, r.high]));
        let most = rows.iter().map(|r| r.complexity).max().unwrap_or(1);
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!("{} (95% intervals, fresh samples)", self.title()),
                chart::text(20.0),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..most as f64 + 1.0, y)?;
        ch.configure_mesh()
            .x_desc("complexity (nodes after simplification)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc(self.y_label)
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .draw()?;
        let front_colour = chart::colour(0);
        let grey = RGBColor(150, 150, 150);
        for (on_front, colour, name) in [
            (false, grey, "off the front"),
            (true, front_colour, "front"),
        ] {
            let chosen: Vec<&Row> = rows
                .iter()
                .filter(|r| (r.verdict == Verdict::Front) == on_front)
                .collect();
            if chosen.is_empty() {
                continue;
            }
            // Candidates of one complexity side by side, so their whiskers do not hide each other.
            let x = |r: &Row| {
                let same: Vec<usize> = rows
                    .iter()
                    .filter(|o| o.complexity == r.complexity)
                    .map(|o| o.id)
                    .collect();
                let k = same.iter().position(|&id| id == r.id).unwrap_or(0) as f64;
                r.complexity as f64 + (k - (same.len() as f64 - 1.0) / 2.0) * 0.12
            };
            let whiskers = chosen.iter().flat_map(|r| {
                let at = x(r);
                [
                    vec![(at, r.low), (at, r.high)],
                    vec![(at - 0.05, r.low), (at + 0.05, r.low)],
                    vec![(at - 0.05, r.high), (at + 0.05, r.high)],
                ]
            });
            ch.draw_series(whiskers.map(|w| PathElement::new(w, colour.stroke_width(2))))?;
            let style = colour.filled();
            ch.draw_series(chosen.iter().map(|r| Circle::new((x(r), r.mean), 5, style)))?
                .label(name)
                .legend(move |(x, y)| Circle::new((x + 12, y), 5, style));
            if on_front {
                let line: Vec<(f64, f64)> = chosen.iter().map(|r| (x(r), r.mean)).collect();
                ch.draw_series(LineSeries::new(line, front_colour.stroke_width(2)))?;
            }
        }
        legend(&mut ch, SeriesLabelPosition::LowerRight)
    }
}
