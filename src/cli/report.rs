//! `evomcts report RUN… [--out DIR]`: HTML pages of a league (tables, figures, every game with
//! a turn-by-turn viewer) or of an evolution run (logbook, fitness, hall of fame, lineage),
//! opened straight from disk.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::analysis::report::{write_report, RunKind};
use evomcts::{escape, runfs};
use std::path::PathBuf;

#[derive(Args)]
pub struct ReportArgs {
    /// Run folders: the runs of one league (merged, as in `evomcts table`) or evolution runs
    /// (each reported on its own).
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Folder for the report [default: RUN/report, of the first run for a league].
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> Result<()> {
    let evolution_runs = args
        .runs
        .iter()
        .map(|r| RunKind::of(r))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|k| *k == RunKind::Evolution)
        .count();
    // Evolution runs are reported one by one, each into its own folder.
    let jobs: Vec<Vec<PathBuf>> = if evolution_runs > 1 && evolution_runs == args.runs.len() {
        if args.out.is_some() {
            bail!("--out names one folder: report one evolution run at a time with --out, or leave it out to write RUN/report for each");
        }
        args.runs.iter().map(|r| vec![r.clone()]).collect()
    } else {
        vec![args.runs.clone()]
    };
    for runs in jobs {
        let out = match &args.out {
            Some(out) => {
                runfs::check_output_folder(out, &runs).map_err(anyhow::Error::msg)?;
                out.clone()
            }
            None => runs[0].join("report"),
        };
        let written = write_report(&runs, &out)?;
        for w in &written.warnings {
            evomcts::note!("{w}");
        }
        let bytes: u64 = written
            .files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum();
        let games = if written.game_pages > 0 {
            format!(
                ", {} game pages (largest {:.1} KB)",
                written.game_pages,
                written.largest_game_page as f64 / 1024.0
            )
        } else {
            String::new()
        };
        evomcts::note!(
            "wrote {} files ({:.1} KB){games}",
            written.files.len(),
            bytes as f64 / 1024.0
        );
        outln!("{}", escape::path(&written.index))?;
    }
    Ok(())
}
