//! Reading the records of one or more run folders of the same league, merged into one set.
//!
//! A league may be run in pieces (on several machines, or resumed into separate folders); the
//! tables and plots are functions of the set of games, so every consumer merges the same way:
//! all folders must hold the same spec (by hash), a game recorded twice (in two folders, or
//! twice in one) must be recorded identically and counts once, and games are returned in
//! schedule order so that "game K" means the same game to every command.

use super::records::{read_records, record_path, LeagueGame, RecordError};
use super::schedule::{schedule, GameId};
use super::spec::{LeagueSpec, SpecFileError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no run folder given")]
    NoRuns,
    #[error("{dir} is not a league run folder: {source}")]
    NotARun { dir: String, source: SpecFileError },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("{first} and {other} hold different leagues (spec hashes {first_hash} and {other_hash}); only runs of one spec merge")]
    DifferentSpecs {
        first: String,
        other: String,
        first_hash: String,
        other_hash: String,
    },
    #[error("{dir}: game {game} was recorded under another spec")]
    ForeignRecord { dir: String, game: GameId },
    #[error("game {game} is recorded differently in {first} and {other}: the runs are not of the same code or seeds")]
    Conflict {
        game: GameId,
        first: String,
        other: String,
    },
}

/// What merging found besides the games, for the caller to report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeReport {
    /// Folders whose last record was cut off mid-write (not counted).
    pub torn: Vec<PathBuf>,
    /// Games recorded (identically) in more than one folder, counted once.
    pub duplicates: usize,
    /// Scheduled games recorded in no folder, in schedule order.
    pub missing: Vec<GameId>,
    /// Games the schedule holds.
    pub scheduled: usize,
}

impl MergeReport {
    /// One line per notable finding, for stderr; empty when the runs are complete and clean.
    pub fn warnings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .torn
            .iter()
            .map(|d| {
                format!(
                    "{}: the last game was cut off mid-write and is not counted",
                    d.display()
                )
            })
            .collect();
        if self.duplicates > 0 {
            out.push(format!(
                "{} games were recorded in more than one run (identically) and are counted once",
                self.duplicates
            ));
        }
        if !self.missing.is_empty() {
            out.push(format!(
                "{} of {} games are missing, e.g. {}; the results cover the {} recorded games",
                self.missing.len(),
                self.scheduled,
                self.missing[..self.missing.len().min(3)]
                    .iter()
                    .map(|id| format!("game {id}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.scheduled - self.missing.len()
            ));
        }
        out
    }
}

fn shown(dir: &Path) -> String {
    dir.display().to_string()
}

/// The games recorded so far, keyed by game, with the folder each came from.
pub type Merged = BTreeMap<GameId, (LeagueGame, PathBuf)>;

/// Adds the games of one folder (`dir`, recorded under spec hash `hash`) to `merged`: a game
/// recorded again identically counts once (the count of such duplicates is returned), a game
/// recorded differently is refused. Every command that reads records (`league --resume`,
/// `table`, `replay`, the plots) merges through here, so they count the same games.
pub fn merge_games(
    merged: &mut Merged,
    games: Vec<LeagueGame>,
    dir: &Path,
    hash: &str,
) -> Result<usize, LoadError> {
    let mut duplicates = 0;
    for g in games {
        if g.spec_hash != hash {
            return Err(LoadError::ForeignRecord {
                dir: shown(dir),
                game: g.id(),
            });
        }
        match merged.get(&g.id()) {
            Some((known, known_dir)) if *known != g => {
                return Err(LoadError::Conflict {
                    game: g.id(),
                    first: shown(known_dir),
                    other: shown(dir),
                })
            }
            Some(_) => duplicates += 1,
            None => {
                merged.insert(g.id(), (g, dir.to_path_buf()));
            }
        }
    }
    Ok(duplicates)
}

/// Reads a run folder's stored `spec.ron` as it was written (the files it once named are not
/// read again: a spec stored by this version holds their content).
pub fn read_stored_spec(dir: &Path) -> Result<LeagueSpec, SpecFileError> {
    let path = dir.join("spec.ron");
    LeagueSpec::from_ron(
        &crate::runfs::read_spec_text(&path)?,
        &path.display().to_string(),
    )
}

/// Reads `spec.ron` and `games.jsonl` of every folder and merges the games (schedule order).
pub fn load_runs(
    dirs: &[PathBuf],
) -> Result<(LeagueSpec, Vec<LeagueGame>, MergeReport), LoadError> {
    let mut spec: Option<(LeagueSpec, String, &PathBuf)> = None;
    let mut games = Merged::new();
    let mut report = MergeReport::default();
    for dir in dirs {
        let this = read_stored_spec(dir).map_err(|source| LoadError::NotARun {
            dir: shown(dir),
            source,
        })?;
        let hash = this.hash();
        match &spec {
            Some((_, first_hash, first_dir)) if *first_hash != hash => {
                return Err(LoadError::DifferentSpecs {
                    first: shown(first_dir),
                    other: shown(dir),
                    first_hash: first_hash.clone(),
                    other_hash: hash,
                })
            }
            Some(_) => {}
            None => spec = Some((this, hash.clone(), dir)),
        }
        let read = read_records(&record_path(dir))?;
        if read.torn_tail {
            report.torn.push(dir.clone());
        }
        report.duplicates += merge_games(&mut games, read.games, dir, &hash)?;
    }
    let (spec, _, _) = spec.ok_or(LoadError::NoRuns)?;
    let order = schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    report.scheduled = order.len();
    let mut in_order = Vec::with_capacity(games.len());
    for job in &order {
        match games.remove(&job.id) {
            Some((g, _)) => in_order.push(g),
            None => report.missing.push(job.id),
        }
    }
    // Records outside the schedule cannot pass the hash check, but keep any rather than drop
    // data silently.
    in_order.extend(games.into_values().map(|(g, _)| g));
    Ok((spec, in_order, report))
}
