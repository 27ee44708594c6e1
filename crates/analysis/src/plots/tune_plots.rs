//! How a tuning run (`evomcts tune`) moved its constants: each parameter's iterate per step,
//! drawn on its position in its range (0 at `low`, 1 at `high`, geometric for a log range), so
//! parameters of different units share one axis; the legend gives each range. Data from the
//! run's `trajectory.csv` and `spec.ron`.

use super::chart::{self, DrawResult, Figure};
use super::{PlotError, Written};
use evomcts_league::report::TextTable;
use evomcts_records::runfs::SpecFile;
use evomcts_tune::{read_trajectory, TrajectoryPoint, TuneSpec};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// The trajectory figure of one tuning run.
pub struct TuneTrajectoryFigure {
    pub run: String,
    pub spec: TuneSpec,
    pub points: Vec<TrajectoryPoint>,
}

impl TuneTrajectoryFigure {
    /// Reads the run in `dir`: its stored spec and `trajectory.csv`.
    pub fn read(dir: &Path) -> Result<TuneTrajectoryFigure, PlotError> {
        let spec_path = dir.join("spec.ron");
        let spec = evomcts_records::runfs::read_spec_text(&spec_path)
            .and_then(|text| TuneSpec::from_ron(&text, &spec_path.display().to_string()))
            .map_err(|e| PlotError::Data(e.to_string()))?;
        let points = read_trajectory(dir, &spec).map_err(|e| PlotError::Data(e.to_string()))?;
        Ok(TuneTrajectoryFigure {
            run: spec.name.clone(),
            spec,
            points,
        })
    }

    /// The figure and `trajectory` table into `out`.
    pub fn write(&self, out: &Path) -> Result<Written, PlotError> {
        let figure = chart::save_in(self, out, "tune-trajectory")?;
        Ok(Written {
            figures: vec![figure],
            tables: Vec::new(),
            text: self.table().to_text(),
        })
    }

    /// The first and last iterate of each parameter, for the terminal.
    fn table(&self) -> TextTable {
        let (first, last) = (self.points.first(), self.points.last());
        TextTable {
            title: format!("Tuning {}: iterates (natural units)", self.run),
            headers: ["parameter", "range", "first", "last"]
                .map(String::from)
                .to_vec(),
            rows: self
                .spec
                .parameters
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let at = |point: Option<&TrajectoryPoint>| {
                        point.map_or(String::new(), |(_, v)| {
                            evomcts_records::escape::number(v[i])
                        })
                    };
                    vec![
                        p.name.clone(),
                        format!("[{}, {}]{}", p.low, p.high, if p.log { " log" } else { "" }),
                        at(first),
                        at(last),
                    ]
                })
                .collect(),
        }
    }
}

impl Figure for TuneTrajectoryFigure {
    fn size(&self) -> (u32, u32) {
        (1100, 650)
    }

    fn title(&self) -> String {
        format!("Tuning {}: each parameter's iterate per step", self.run)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let last = self.points.last().map_or(1, |(s, _)| (*s).max(1)) as f64;
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!("{} (position in its range)", self.title()),
                chart::text(20.0),
            )
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..last, -0.02f64..1.02)?;
        ch.configure_mesh()
            .x_desc("step")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc("position in range (0 = low, 1 = high)")
            .label_style(chart::text(14.0))
            .axis_desc_style(chart::text(15.0))
            .draw()?;
        for (i, p) in self.spec.parameters.iter().enumerate() {
            let colour = chart::colour(i);
            let line: Vec<(f64, f64)> = self
                .points
                .iter()
                .map(|(step, v)| (*step as f64, p.scaled(v[i])))
                .collect();
            let label = format!(
                "{} in [{}, {}]{}",
                p.name,
                evomcts_records::escape::number(p.low),
                evomcts_records::escape::number(p.high),
                if p.log { " (log)" } else { "" }
            );
            ch.draw_series(LineSeries::new(line, colour.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(2))
                });
        }
        ch.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .label_font(chart::text(15.0))
            .draw()
    }
}
