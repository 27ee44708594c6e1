//! Gathering the slices of a league played as a Slurm job array (`league --shard I/K`, in
//! `DIR/shard-I-of-K`) into the league's own folder `DIR`, so that `DIR` holds what a
//! one-machine run of the league writes there: `games.jsonl` with every game, and, once
//! `league --resume` (or `replicate`) has read it, `spec.ron` and the tables.
//!
//! The records go through the same checked merge as `table` (`load_runs`): every record must
//! be one the spec's schedule gives, a game recorded twice differently is refused. `DIR`'s own
//! records are merged too, so gathering again (a rerun of the job that gathers) changes nothing.
//! The merged records are written in schedule order, at once (`runfs::write_atomically`).

use evomcts_league::load::{load_runs, LoadError};
use evomcts_league::records::{record_line, record_path};
use evomcts_league::schedule::schedule;
use evomcts_league::spec::LeagueSpec;
use evomcts_records::runfs::{LockError, RunKind, RunLock};
use std::path::{Path, PathBuf};

/// The folder of slice `index` of `count`, as `evomcts slurm` names it.
pub fn slice_folder(dir: &Path, index: usize, count: usize) -> PathBuf {
    dir.join(format!("shard-{index}-of-{count}"))
}

/// What a gathering found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gathered {
    /// The slice folders that held a run.
    pub slices: usize,
    /// Games now in `DIR/games.jsonl`.
    pub games: usize,
    /// Games the league's schedule holds.
    pub scheduled: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum GatherError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{dir}: its slices were played under another spec (hash {found}) than the one given (hash {expected}); gather them with their own spec ({dir}/shard-0-of-K/spec.ron)")]
    OtherSpec {
        dir: String,
        found: String,
        expected: String,
    },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// Merges the records of `DIR` and of its `count` slices `DIR/shard-I-of-count` into
/// `DIR/games.jsonl`. Slices that do not exist (yet) are skipped; without any slice nothing is
/// written and `None` is returned.
pub fn gather_slices(
    spec: &LeagueSpec,
    dir: &Path,
    count: usize,
) -> Result<Option<Gathered>, GatherError> {
    let slices: Vec<PathBuf> = (0..count)
        .map(|i| slice_folder(dir, i, count))
        .filter(|s| s.join("spec.ron").is_file())
        .collect();
    if slices.is_empty() {
        return Ok(None);
    }
    let io = |path: &Path, source| GatherError::Io {
        path: path.display().to_string(),
        source,
    };
    let _lock = RunLock::open_run_folder(
        dir,
        RunKind::League,
        &format!("gathering the slices of `{}`", spec.name),
    )?;
    let mut runs = Vec::with_capacity(slices.len() + 1);
    if record_path(dir).is_file() && dir.join("spec.ron").is_file() {
        runs.push(dir.to_path_buf());
    }
    runs.extend(slices.iter().cloned());
    let (stored, games, _report) = load_runs(&runs)?;
    let (found, expected) = (stored.hash(), spec.hash());
    if found != expected {
        return Err(GatherError::OtherSpec {
            dir: dir.display().to_string(),
            found,
            expected,
        });
    }
    let text: Vec<u8> = games.iter().flat_map(record_line).collect();
    let records = record_path(dir);
    evomcts_records::runfs::write_atomically(&records, &text).map_err(|e| io(&records, e))?;
    Ok(Some(Gathered {
        slices: slices.len(),
        games: games.len(),
        scheduled: schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len(),
    }))
}
