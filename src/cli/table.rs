//! `evomcts table`: recomputes the tables from the records of one or more runs of one league
//! (for example the slices of a Slurm job array), reporting missing and duplicated games. The
//! files it writes, and each of their columns, are described in docs/outputs.md.

use anyhow::{Context, Result};
use clap::Args;
use evomcts::league::{load_runs, report, Tables};
use evomcts::{escape, runfs};
use std::path::PathBuf;

#[derive(Args)]
pub struct TableArgs {
    /// Run folders (each with spec.ron and games.jsonl) of the same league.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Where to write the merged tables (CSV files, tables.md, tables.json; see
    /// docs/outputs.md) [default: the run folder, when there is one run]. Another run's folder
    /// is refused, and so is a folder another evomcts process (a league) is working in.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: TableArgs) -> Result<()> {
    let (spec, games, merge) = load_runs(&args.runs)?;
    for warning in merge.warnings() {
        evomcts::note!("{warning}");
    }
    let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, &games);
    if let Some(out) = &args.out {
        runfs::check_output_folder(out, &args.runs).map_err(anyhow::Error::msg)?;
    }
    let out = args
        .out
        .or_else(|| (args.runs.len() == 1).then(|| args.runs[0].clone()));
    // Written before printing: a reader that stops early (`| head`) ends the process at the
    // next print, and the files must not depend on it.
    if let Some(out) = &out {
        // The lock keeps `table` from writing a folder a league is writing (the league would
        // then rewrite its tables from fewer records, or find its files renamed away): the
        // folder's files have one writer at a time.
        evomcts::runfs::create_folder(out)
            .with_context(|| format!("creating {}", out.display()))?;
        let _lock = runfs::RunLock::acquire(out, None, "table")?;
        report::write_tables(&tables, out)
            .with_context(|| format!("writing tables to {}", out.display()))?;
    }
    out!("{}", report::to_text(&tables))?;
    if let Some(out) = out {
        evomcts::note!("tables written to {}", escape::path(&out));
    }
    Ok(())
}
