//! `evomcts table`: recomputes the tables from the records of one or more runs of one league
//! (for example the slices of a Slurm job array), reporting missing and duplicated games. The
//! files it writes, and each of their columns, are described in docs/outputs.md.

use anyhow::{Context, Result};
use clap::Args;
use evomcts::league::{load_runs, report, Tables};
use std::path::PathBuf;

#[derive(Args)]
pub struct TableArgs {
    /// Run folders (each with spec.ron and games.jsonl) of the same league.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Where to write the merged tables (CSV files, tables.md, tables.json; see
    /// docs/outputs.md) [default: the run folder, when there is one run].
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: TableArgs) -> Result<()> {
    let (spec, games, merge) = load_runs(&args.runs)?;
    for warning in merge.warnings() {
        evomcts::note!("{warning}");
    }
    let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, &games);
    let out = args
        .out
        .or_else(|| (args.runs.len() == 1).then(|| args.runs[0].clone()));
    // Written before printing: a reader that stops early (`| head`) ends the process at the
    // next print, and the files must not depend on it.
    if let Some(out) = &out {
        report::write_tables(&tables, out)
            .with_context(|| format!("writing tables to {}", out.display()))?;
    }
    print!("{}", report::to_text(&tables));
    if let Some(out) = out {
        evomcts::note!("tables written to {}", out.display());
    }
    Ok(())
}
