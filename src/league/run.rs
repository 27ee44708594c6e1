//! Running a league: plays the scheduled games not yet recorded on all cores, appending each
//! finished game to the run's record at once.
//!
//! A run's folder holds `spec.ron` (the spec it was started with, with the content of every file
//! it named) and `games.jsonl`. One process at a time works in a folder (an OS file lock, see
//! `runfs::RunLock`). Resuming under a different spec is refused; starting afresh in a folder
//! that already holds games is refused too, so results on disk are never overwritten. Records
//! are read through the same merge as `table`: a game recorded twice identically counts once, a
//! game recorded twice differently is refused. Games are independent and every seed
//! comes from the schedule, so the set of records does not depend on the thread count or on
//! where a run was interrupted; lines are written in the order games finish.

use super::load::{merge_games, read_stored_spec, LoadError, Merged};
use super::records::{
    read_records, record_path, EsDecisionSummary, LeagueGame, RecordError, RecordWriter,
};
use super::schedule::{schedule, GameJob};
use super::spec::{EsDetail, LeagueSpec, SpecFileError};
use crate::game::{play_game, GameError};
use crate::runfs::{LockError, RunLock};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

#[derive(Debug, thiserror::Error)]
pub enum LeagueError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("{dir}: cannot create the run folder: {source}")]
    Io { dir: String, source: std::io::Error },
    #[error("{dir} was started with a different spec (hash {old}, now {new}); resume it with its own spec ({dir}/spec.ron) or choose another --out")]
    SpecChanged {
        dir: String,
        old: String,
        new: String,
    },
    #[error("{dir} already holds {games} recorded games; pass --resume to continue it (or to show a finished run's tables), or choose another --out")]
    AlreadyStarted { dir: String, games: usize },
    #[error("{file}: record of game {game:?} has spec hash {found}, expected {expected}")]
    ForeignRecord {
        file: String,
        game: super::schedule::GameId,
        found: String,
        expected: String,
    },
    #[error("{file}: game {game:?} is not part of this run's schedule (or of its --shard)")]
    OutsideSchedule {
        file: String,
        game: super::schedule::GameId,
    },
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{0}")]
    Threads(String),
    #[error("controller `{name}` could not be built: {message}")]
    Controller { name: String, message: String },
    #[error("game {game:?}: {source}")]
    Game {
        game: super::schedule::GameId,
        source: GameError,
    },
}

pub struct RunOptions {
    pub out_dir: PathBuf,
    pub resume: bool,
    /// Worker threads; `None` = all cores.
    pub threads: Option<usize>,
    pub progress: bool,
    /// Play at most this many of the pending games (for tests of interrupted runs).
    pub max_games: Option<usize>,
    /// Play only this slice of the schedule (one task of a Slurm job array).
    pub shard: Option<Shard>,
}

/// Slice `index` (0-based) of `count` disjoint slices of a league's schedule: the games whose
/// position in the schedule is `index` modulo `count`. Round-robin spreads every match, and so
/// every expensive controller, evenly over the slices; the games keep their seeds, so the
/// slices together are exactly the whole league.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Parses `I/K` with 0 ≤ I < K (Slurm's `$SLURM_ARRAY_TASK_ID/K`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, k) = text
            .split_once('/')
            .ok_or_else(|| format!("--shard {text}: expected I/K, e.g. 0/4"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("--shard {text}: I must be a whole number"))?;
        let count: usize = k
            .trim()
            .parse()
            .map_err(|_| format!("--shard {text}: K must be a whole number"))?;
        if count == 0 || index >= count {
            return Err(format!(
                "--shard {text}: need 0 <= I < K (slices are numbered from 0)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The part of `jobs` (in schedule order) that belongs to this slice.
    pub fn select(&self, jobs: &[GameJob]) -> Vec<GameJob> {
        jobs.iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index)
            .map(|(_, j)| *j)
            .collect()
    }
}

pub struct RunOutcome {
    /// Every recorded game of the run, in schedule order.
    pub games: Vec<LeagueGame>,
    pub played_now: usize,
    pub already_recorded: usize,
    /// Whether a torn last line (a game cut off mid-write) was dropped to be played again.
    pub dropped_torn_line: bool,
    /// Games recorded more than once (identically), counted once.
    pub duplicates: usize,
}

/// Plays one scheduled game.
pub fn play_league_game(
    spec: &LeagueSpec,
    job: &GameJob,
    spec_hash: &str,
) -> Result<LeagueGame, LeagueError> {
    let entrant = |i: usize, seat: usize| {
        let e = &spec.controllers[i];
        e.spec
            .build(job.controller_seeds[seat])
            .map_err(|err| LeagueError::Controller {
                name: e.name.clone(),
                message: err.to_string(),
            })
    };
    let mut first = entrant(job.id.first, 0)?;
    let mut second = entrant(job.id.second, 1)?;
    let (_, record) = play_game(spec.rules, job.tile_seed, [first.as_mut(), second.as_mut()])
        .map_err(|source| LeagueError::Game {
            game: job.id,
            source,
        })?;
    let keep_full = spec.es_detail == EsDetail::Full;
    let summarise = |records: Vec<_>| -> Vec<EsDecisionSummary> {
        records
            .into_iter()
            .map(|r| EsDecisionSummary::new(r, keep_full))
            .collect()
    };
    Ok(LeagueGame {
        spec_hash: spec_hash.to_string(),
        job: *job,
        names: [
            spec.controllers[job.id.first].name.clone(),
            spec.controllers[job.id.second].name.clone(),
        ],
        game: record,
        es: [
            summarise(first.take_decision_records()),
            summarise(second.take_decision_records()),
        ],
    })
}

fn write_spec_atomically(dir: &Path, spec: &LeagueSpec) -> std::io::Result<()> {
    crate::runfs::write_atomically(&dir.join("spec.ron"), spec.to_ron().as_bytes())
}

/// Whether `stored`, a spec stored before specs carried the content of the files they name
/// (paths then were relative to the working directory), names files that now hold what
/// `spec` holds and what was played: the files must resolve to `spec`, and for every entrant
/// that names a file, its first recorded game must replay identically under `spec`.
fn names_the_same_files(stored: &LeagueSpec, spec: &LeagueSpec, games: &[LeagueGame]) -> bool {
    let mut resolved = stored.clone();
    let resolves = crate::runfs::SpecFile::resolve_files(&mut resolved, Path::new("")).is_ok()
        && resolved != *stored
        && resolved.hash() == spec.hash();
    if !resolves {
        return false;
    }
    let old = stored.hash();
    (0..stored.controllers.len())
        .filter(|&i| stored.controllers[i] != resolved.controllers[i])
        .filter_map(|i| {
            games
                .iter()
                .find(|g| g.id().first == i || g.id().second == i)
        })
        .all(|g| play_league_game(spec, &g.job, &old).is_ok_and(|again| again.game == g.game))
}

/// Runs (or resumes) a league into `opts.out_dir`.
pub fn run_league(spec: &LeagueSpec, opts: &RunOptions) -> Result<RunOutcome, LeagueError> {
    crate::runfs::check_threads(opts.threads).map_err(LeagueError::Threads)?;
    // Every controller is built once before the disk is touched, so a spec that cannot be
    // played leaves no run folder behind.
    for e in &spec.controllers {
        e.spec.build(0).map_err(|err| LeagueError::Controller {
            name: e.name.clone(),
            message: err.to_string(),
        })?;
    }
    let dir = &opts.out_dir;
    let dir_name = dir.display().to_string();
    let io = |source| LeagueError::Io {
        dir: dir_name.clone(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let _lock = RunLock::acquire(dir, &format!("league `{}`", spec.name))?;
    let mut hash = spec.hash();
    let spec_file = dir.join("spec.ron");
    let path = record_path(dir);
    let existing = read_records(&path)?;
    if spec_file.exists() {
        let stored = read_stored_spec(dir)?;
        let old = stored.hash();
        if old != hash {
            if existing.games.is_empty() {
                // No game was played under the old spec: nothing on disk depends on it.
                write_spec_atomically(dir, spec).map_err(io)?;
            } else if names_the_same_files(&stored, spec, &existing.games) {
                // A run begun before specs carried the files they name: its records and its
                // `spec.ron` keep the hash they were written with, so every command still
                // reads them as one run.
                hash = old;
            } else {
                return Err(LeagueError::SpecChanged {
                    dir: dir_name,
                    old,
                    new: hash,
                });
            }
        }
    } else {
        write_spec_atomically(dir, spec).map_err(io)?;
    }
    if !opts.resume && !existing.games.is_empty() {
        return Err(LeagueError::AlreadyStarted {
            dir: dir_name,
            games: existing.games.len(),
        });
    }
    let mut jobs = schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    if let Some(shard) = opts.shard {
        jobs = shard.select(&jobs);
    }
    for g in &existing.games {
        if !jobs.iter().any(|j| j.id == g.id()) {
            return Err(LeagueError::OutsideSchedule {
                file: path.display().to_string(),
                game: g.id(),
            });
        }
        if g.spec_hash != hash {
            return Err(LeagueError::ForeignRecord {
                file: path.display().to_string(),
                game: g.id(),
                found: g.spec_hash.clone(),
                expected: hash,
            });
        }
    }
    let mut merged = Merged::new();
    let duplicates = merge_games(&mut merged, existing.games, dir, &hash)?;
    let recorded: Vec<LeagueGame> = merged.into_values().map(|(g, _)| g).collect();
    let done: HashSet<_> = recorded.iter().map(|g| g.id()).collect();
    let mut pending: Vec<GameJob> = jobs
        .iter()
        .filter(|j| !done.contains(&j.id))
        .copied()
        .collect();
    if let Some(n) = opts.max_games {
        pending.truncate(n);
    }

    let mut writer = RecordWriter::open(&path, existing.valid_len)?;
    let bar = if opts.progress {
        let bar = ProgressBar::new(jobs.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games ({per_sec}, {eta} left) {msg}",
            )
            .expect("valid template"),
        );
        bar.set_position(done.len() as u64);
        bar.reset_eta();
        bar
    } else {
        ProgressBar::hidden()
    };

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .expect("a thread pool");
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<LeagueGame, LeagueError>>();
    let mut fresh = Vec::with_capacity(pending.len());
    let mut first_error = None;
    std::thread::scope(|scope| {
        let (pending, stop) = (&pending, &stop);
        let hash = &hash;
        scope.spawn(move || {
            pool.install(|| {
                pending.par_iter().for_each_with(tx, |tx, job| {
                    if !stop.load(Ordering::Relaxed) {
                        let _ = tx.send(play_league_game(spec, job, hash));
                    }
                })
            })
        });
        for result in rx {
            match result.and_then(|g| writer.append(&g).map(|_| g).map_err(Into::into)) {
                Ok(game) => {
                    bar.inc(1);
                    fresh.push(game);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = first_error {
        return Err(e);
    }
    let played_now = fresh.len();
    let already_recorded = recorded.len();
    let mut games = recorded;
    games.extend(fresh);
    let order: std::collections::HashMap<_, _> =
        jobs.iter().enumerate().map(|(i, j)| (j.id, i)).collect();
    games.sort_by_key(|g| order.get(&g.id()).copied().unwrap_or(usize::MAX));
    Ok(RunOutcome {
        games,
        played_now,
        already_recorded,
        dropped_torn_line: existing.torn_tail,
        duplicates,
    })
}
