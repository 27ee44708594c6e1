//! `evomcts table`: recomputes the tables from the records of one or more runs of one league.

use anyhow::{bail, Context, Result};
use clap::Args;
use evomcts::league::{
    read_records, record_path, report, schedule, LeagueGame, LeagueSpec, Tables,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Args)]
pub struct TableArgs {
    /// Run folders (each with spec.ron and games.jsonl) of the same league.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Where to write the merged tables [default: the run folder, when there is one run].
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: TableArgs) -> Result<()> {
    let mut spec: Option<(LeagueSpec, PathBuf)> = None;
    let mut games: BTreeMap<_, (LeagueGame, PathBuf)> = BTreeMap::new();
    let mut duplicates = 0;
    for dir in &args.runs {
        let this = LeagueSpec::from_file(dir.join("spec.ron"))
            .with_context(|| format!("{} is not a league run folder", dir.display()))?;
        match &spec {
            Some((first, first_dir)) if first.hash() != this.hash() => bail!(
                "{} and {} hold different leagues (spec hashes {} and {}); only runs of one spec merge",
                first_dir.display(),
                dir.display(),
                first.hash(),
                this.hash()
            ),
            Some(_) => {}
            None => spec = Some((this.clone(), dir.clone())),
        }
        let read = read_records(&record_path(dir))?;
        if read.torn_tail {
            eprintln!(
                "{}: the last game was cut off mid-write and is not counted",
                dir.display()
            );
        }
        for g in read.games {
            if g.spec_hash != this.hash() {
                bail!(
                    "{}: game {:?} was recorded under another spec",
                    dir.display(),
                    g.id()
                );
            }
            match games.get(&g.id()) {
                Some((known, known_dir)) if known != &g => bail!(
                    "game {:?} is recorded differently in {} and {}: the runs are not of the same code or seeds",
                    g.id(),
                    known_dir.display(),
                    dir.display()
                ),
                Some(_) => duplicates += 1,
                None => {
                    games.insert(g.id(), (g, dir.clone()));
                }
            }
        }
    }
    let (spec, first_dir) = spec.expect("at least one run");
    let all = schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    let missing: Vec<_> = all
        .iter()
        .filter(|j| !games.contains_key(&j.id))
        .map(|j| j.id)
        .collect();
    if duplicates > 0 {
        eprintln!("{duplicates} games were recorded in more than one run (identically) and are counted once");
    }
    if !missing.is_empty() {
        eprintln!(
            "{} of {} games are missing, e.g. {:?}; the tables cover the {} recorded games",
            missing.len(),
            all.len(),
            &missing[..missing.len().min(3)],
            games.len()
        );
    }
    let games: Vec<LeagueGame> = games.into_values().map(|(g, _)| g).collect();
    let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, &games);
    print!("{}", report::to_text(&tables));
    let out = args
        .out
        .or_else(|| (args.runs.len() == 1).then_some(first_dir));
    if let Some(out) = out {
        report::write_tables(&tables, &out)
            .with_context(|| format!("writing tables to {}", out.display()))?;
        eprintln!("tables written to {}", out.display());
    }
    Ok(())
}
