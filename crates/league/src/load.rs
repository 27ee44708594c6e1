//! Reading the records of one or more run folders of the same league, merged into one set.
//!
//! A league may be run in pieces (on several machines, or resumed into separate folders); the
//! tables and plots are functions of the set of games, so every consumer merges the same way:
//! all folders must hold the same spec (by hash), a game recorded twice (in two folders, or
//! twice in one) must be recorded identically and counts once, and games are returned in
//! schedule order so that "game K" means the same game to every command.

use super::records::{read_records, record_path, LeagueGame, ReadRecords, RecordError};
use super::schedule::{schedule, GameId, GameJob};
use super::spec::{LeagueSpec, SpecFileError};
use evomcts_arena::GameChoice;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no run folder given")]
    NoRuns,
    #[error("{dir} is not a league run folder: {source}")]
    NotARun { dir: String, source: SpecFileError },
    #[error("{dir} holds {holds}, not a league: only a league's folders are read as its games")]
    OtherKind { dir: String, holds: String },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("{first} and {other} hold different leagues (spec hashes {first_hash} and {other_hash}); only runs of one spec merge")]
    DifferentSpecs {
        first: String,
        other: String,
        first_hash: String,
        other_hash: String,
    },
    #[error("{file}:{line}: game {game} was recorded under another spec (spec_hash {found}, expected {expected})")]
    ForeignRecord {
        file: String,
        line: usize,
        game: GameId,
        found: String,
        expected: String,
    },
    #[error("{file}:{line}: job.id: game {game} is not part of this run's schedule (or of its --shard): {entrants} entrants play {games_per_match} games per ordered pair of two different entrants; keep a copy and remove that line")]
    OutsideSchedule {
        file: String,
        line: usize,
        game: GameId,
        entrants: usize,
        games_per_match: u32,
    },
    #[error("{file}:{line}: game {game}: {field} is not what the league's spec gives ({message}); keep a copy and remove that line")]
    NotAsScheduled {
        file: String,
        line: usize,
        game: GameId,
        field: &'static str,
        message: String,
    },
    #[error("{file}:{line}: game {game}: game.final_scores: {message}; keep a copy and remove that line")]
    ImpossibleResult {
        file: String,
        line: usize,
        game: GameId,
        message: String,
    },
    #[error("game {game} is recorded differently in {first} and {other}: the runs are not of the same code or seeds")]
    Conflict {
        game: GameId,
        first: String,
        other: String,
    },
}

/// Refuses a folder that holds another kind of run than a league, naming what it holds.
fn check_league_folder(dir: &Path) -> Result<(), LoadError> {
    use evomcts_records::runfs::{folder_kind, RunKind};
    let Some(found) = folder_kind(dir) else {
        return Ok(());
    };
    if found.kind.is_some_and(|k| k != RunKind::League) {
        return Err(LoadError::OtherKind {
            dir: shown(dir),
            holds: found.describe(),
        });
    }
    Ok(())
}

/// What merging found besides the games, for the caller to report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeReport {
    /// Folders whose last record was cut off mid-write (not counted).
    pub torn: Vec<PathBuf>,
    /// Games recorded (identically) more than once, counted once: in more than one folder, or
    /// repeated within one folder's records.
    pub duplicates: usize,
    /// Of [`Self::duplicates`], the records repeating a game of the same folder's records.
    pub repeated: usize,
    /// Scheduled games recorded in no folder, in schedule order.
    pub missing: Vec<GameId>,
    /// Games the schedule holds.
    pub scheduled: usize,
    /// The records file and line (from 1) of each game `load_runs` returns, in its order,
    /// for messages about a record.
    pub sources: Vec<(PathBuf, usize)>,
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
        let across = self.duplicates - self.repeated;
        if across > 0 {
            out.push(format!(
                "{across} games were recorded in more than one run (identically) and are counted once"
            ));
        }
        if self.repeated > 0 {
            out.push(format!(
                "{} records repeat a game recorded earlier in the same games.jsonl (identically); \
                 each game is counted once",
                self.repeated
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

/// The games recorded so far, keyed by game, with the folder each came from and its line in
/// that folder's records.
pub type Merged = BTreeMap<GameId, (LeagueGame, PathBuf, usize)>;

/// What every record of a run must agree with: the spec hash it was recorded under, and the
/// spec's schedule (or the slice of it a `--shard` plays) and entrants.
pub struct Expected {
    pub hash: String,
    pub jobs: HashMap<GameId, GameJob>,
    pub names: Vec<String>,
    pub games_per_match: u32,
    pub game: GameChoice,
}

impl Expected {
    /// A run of `spec` whose records carry `hash` and whose games are `jobs`.
    pub fn new(spec: &LeagueSpec, hash: String, jobs: &[GameJob]) -> Expected {
        Expected {
            hash,
            jobs: jobs.iter().map(|j| (j.id, *j)).collect(),
            names: spec.names(),
            games_per_match: spec.games_per_match,
            game: spec.game,
        }
    }

    /// Whether game `g`, line `line` of `file`, is one the spec schedules, as the spec
    /// schedules it: a hand-edited or foreign record is refused here, before any table, plot
    /// or replay indexes entrants or matches by it.
    fn check(&self, g: &LeagueGame, file: &Path, line: usize) -> Result<(), LoadError> {
        let file = shown(file);
        if g.spec_hash != self.hash {
            return Err(LoadError::ForeignRecord {
                file,
                line,
                game: g.id(),
                found: evomcts_records::escape::terminal(&g.spec_hash),
                expected: self.hash.clone(),
            });
        }
        let Some(job) = self.jobs.get(&g.id()) else {
            return Err(LoadError::OutsideSchedule {
                file,
                line,
                game: g.id(),
                entrants: self.names.len(),
                games_per_match: self.games_per_match,
            });
        };
        let differs = |field: &'static str, message: String| LoadError::NotAsScheduled {
            file: file.clone(),
            line,
            game: g.id(),
            field,
            message,
        };
        if g.job != *job {
            return Err(differs(
                "job",
                "its seeds differ from the schedule's".into(),
            ));
        }
        if g.game.choice() != self.game {
            return Err(differs(
                "game",
                format!(
                    "a game of {} in a league of {}",
                    g.game.label(),
                    self.game.label()
                ),
            ));
        }
        if g.game.seed() != job.seed {
            return Err(differs(
                g.game.seed_field(),
                format!("{} instead of {}", g.game.seed(), job.seed),
            ));
        }
        self.game
            .check_result(g.game.final_scores().map(f64::from))
            .map_err(|message| LoadError::ImpossibleResult {
                file: file.clone(),
                line,
                game: g.id(),
                message,
            })?;
        let names = [&self.names[g.id().first], &self.names[g.id().second]];
        if g.names[0] != *names[0] || g.names[1] != *names[1] {
            return Err(differs(
                "names",
                format!(
                    "{:?} instead of {:?}",
                    g.names
                        .each_ref()
                        .map(|n| evomcts_records::escape::terminal(n)),
                    names.map(|n| evomcts_records::escape::terminal(n))
                ),
            ));
        }
        Ok(())
    }
}

/// Adds the games of one folder (`dir`, its records read into `read`) to `merged` after
/// checking each against `expected`: a game recorded again identically counts once (the
/// count of such duplicates is returned, with how many of them repeat a game of the same
/// folder), a game recorded differently is refused, and so is a record the spec does not
/// schedule. Every command that reads records (`league --resume`,
/// `table`, `replay`, the plots, the report) merges through here, so they count the same
/// games and none indexes tables by a record it has not checked.
pub fn merge_games(
    merged: &mut Merged,
    read: ReadRecords,
    dir: &Path,
    expected: &Expected,
) -> Result<(usize, usize), LoadError> {
    let (mut duplicates, mut repeated) = (0, 0);
    let file = record_path(dir);
    for (g, line) in read.games.into_iter().zip(read.lines) {
        expected.check(&g, &file, line)?;
        match merged.get(&g.id()) {
            Some((known, known_dir, _)) if *known != g => {
                return Err(LoadError::Conflict {
                    game: g.id(),
                    first: shown(known_dir),
                    other: shown(dir),
                })
            }
            Some((_, known_dir, _)) => {
                duplicates += 1;
                repeated += usize::from(known_dir == dir);
            }
            None => {
                merged.insert(g.id(), (g, dir.to_path_buf(), line));
            }
        }
    }
    Ok((duplicates, repeated))
}

/// Reads a run folder's stored `spec.ron` as it was written (the files it once named are not
/// read again: a spec stored by this version holds their content).
pub fn read_stored_spec(dir: &Path) -> Result<LeagueSpec, SpecFileError> {
    let path = dir.join("spec.ron");
    LeagueSpec::from_ron(
        &evomcts_records::runfs::read_spec_text(&path)?,
        &path.display().to_string(),
    )
}

/// Reads `spec.ron` and `games.jsonl` of every folder and merges the games (schedule order).
pub fn load_runs(
    dirs: &[PathBuf],
) -> Result<(LeagueSpec, Vec<LeagueGame>, MergeReport), LoadError> {
    let mut spec: Option<(LeagueSpec, String, &PathBuf)> = None;
    let mut expected: Option<Expected> = None;
    let mut games = Merged::new();
    let mut report = MergeReport::default();
    for dir in dirs {
        check_league_folder(dir)?;
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
            None => {
                let order = schedule(this.seed, this.controllers.len(), this.games_per_match);
                expected = Some(Expected::new(&this, hash.clone(), &order));
                spec = Some((this, hash.clone(), dir));
            }
        }
        let read = read_records(&record_path(dir))?;
        if read.torn_tail {
            report.torn.push(dir.clone());
        }
        let expected = expected.as_ref().expect("set with the first spec");
        let (duplicates, repeated) = merge_games(&mut games, read, dir, expected)?;
        report.duplicates += duplicates;
        report.repeated += repeated;
    }
    let (spec, _, _) = spec.ok_or(LoadError::NoRuns)?;
    let order = schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    report.scheduled = order.len();
    let mut in_order = Vec::with_capacity(games.len());
    for job in &order {
        match games.remove(&job.id) {
            Some((g, dir, line)) => {
                in_order.push(g);
                report.sources.push((record_path(&dir), line));
            }
            None => report.missing.push(job.id),
        }
    }
    debug_assert!(games.is_empty(), "the merge admits scheduled games only");
    Ok((spec, in_order, report))
}
