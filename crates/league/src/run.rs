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
//!
//! While games are played the folder's `standings.live.txt` holds the standings of the games
//! recorded so far, rewritten whole (`runfs::write_atomically`) after every tenth of the games
//! this call plays and at least every 10 seconds, and once more at the end, when it equals the
//! final standings; `watch cat runs/NAME/standings.live.txt` follows a run. With progress on,
//! the top of the same standings goes to stderr every tenth of the games (at least once a
//! minute). The progress bar's time left weighs every remaining game by its match's measured
//! cost (see `progress::weighted_eta`), since expensive matches are scheduled in no order that
//! a plain games-per-second rate would see.

use super::load::{merge_games, read_stored_spec, Expected, LoadError, Merged};
use super::records::{
    read_records, record_path, EsDecisionSummary, LeagueGame, RecordError, RecordWriter,
    SearchDecision,
};
use super::report::standings_table;
use super::schedule::{schedule, GameId, GameJob};
use super::spec::{EsDetail, LeagueSpec, SpecFileError};
use super::standings::Tables;
use evomcts_arena::{play_seated_with, MoveSource, NoSource, PlayError, Sitter};
use evomcts_records::progress::{weighted_eta, WorkGroup};
use evomcts_records::runfs::{LockError, RunKind, RunLock};
use evomcts_search::ControllerSpec;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{0}")]
    Threads(String),
    /// A folder a run may not be written in (another run's, or inside one).
    #[error("{0}")]
    Folder(String),
    #[error("controller `{name}` could not be built: {message}")]
    Controller { name: String, message: String },
    #[error("entrant `{name}` is a person, and none of their moves came before the game ended: a league plays controllers only; a person's game is played by `evomcts play` and played again with the moves of its record")]
    Unfinished { name: String },
    #[error("game {game}: {source}")]
    Game { game: GameId, source: PlayError },
    #[error("{file}: cannot write the live standings: {source}")]
    LiveStandings {
        file: String,
        source: std::io::Error,
    },
    #[error("writing tables to {dir}: {source}")]
    Tables { dir: String, source: std::io::Error },
    #[error("{dir}: interrupted after {recorded} of {scheduled} games; every finished game is recorded, continue with --resume")]
    Interrupted {
        dir: String,
        recorded: usize,
        scheduled: usize,
    },
}

pub struct RunOptions {
    pub out_dir: PathBuf,
    pub resume: bool,
    /// Worker threads; `None` = all cores (one for an OpenSpiel game).
    pub threads: Option<usize>,
    /// A progress bar and the top of the live standings on stderr.
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

/// The file in a run folder that holds the standings of the games recorded so far.
pub const LIVE_STANDINGS_FILE: &str = "standings.live.txt";

/// The live standings, as `standings.live.txt` holds them: a line saying how many games they
/// count, then the standings table as `evomcts table` prints it.
pub fn live_standings_text(
    spec: &LeagueSpec,
    tables: &Tables,
    recorded: usize,
    total: usize,
) -> String {
    format!(
        "standings of `{}` after {recorded} of {total} games\n{}",
        evomcts_records::escape::terminal(&spec.name),
        standings_table(tables).to_text()
    )
}

/// The top `rows` rows of the live standings, for stderr.
fn standings_top(tables: &Tables, recorded: usize, total: usize, rows: usize) -> String {
    let mut table = standings_table(tables);
    let hidden = table.rows.len().saturating_sub(rows);
    table.rows.truncate(rows);
    table.title = format!("standings after {recorded} of {total} games:");
    let mut text = format!("\n{}", table.to_text());
    if hidden > 0 {
        text.push_str(&format!("({hidden} more in {LIVE_STANDINGS_FILE})\n"));
    }
    text
}

/// One refresh of the live standings, handed to the observer of `run_league_observed`.
pub struct LiveUpdate<'a> {
    /// Games recorded in the folder (this call's and earlier ones).
    pub recorded: usize,
    /// Games of the schedule (of the shard, with `--shard`).
    pub total: usize,
    /// The file just written.
    pub file: &'a Path,
    pub tables: &'a Tables,
}

/// When the live standings are refreshed and printed.
struct LiveStandings {
    file: PathBuf,
    every_games: usize,
    since_refresh: usize,
    since_print: usize,
    last_refresh: Instant,
    last_print: Instant,
}

impl LiveStandings {
    const REFRESH: Duration = Duration::from_secs(10);
    const PRINT: Duration = Duration::from_secs(60);
    const PRINTED_ROWS: usize = 8;

    fn new(dir: &Path, to_play: usize) -> LiveStandings {
        let now = Instant::now();
        LiveStandings {
            file: dir.join(LIVE_STANDINGS_FILE),
            every_games: (to_play / 10).max(1),
            since_refresh: 0,
            since_print: 0,
            last_refresh: now,
            last_print: now,
        }
    }

    /// Counts a finished game (the last of `games`); refreshes when due.
    fn game_finished(
        &mut self,
        spec: &LeagueSpec,
        games: &[LeagueGame],
        total: usize,
        bar: &GameProgress,
        observer: &mut dyn FnMut(&LiveUpdate<'_>),
    ) -> Result<(), LeagueError> {
        self.since_refresh += 1;
        self.since_print += 1;
        let due = self.since_refresh >= self.every_games;
        if !(due || self.last_refresh.elapsed() >= Self::REFRESH) {
            return Ok(());
        }
        let tables = self.write(spec, games, total, observer)?;
        let final_standings = games.len() == total;
        if !final_standings
            && (self.since_print >= self.every_games || self.last_print.elapsed() >= Self::PRINT)
        {
            bar.println(&standings_top(
                &tables,
                games.len(),
                total,
                Self::PRINTED_ROWS,
            ));
            self.since_print = 0;
            self.last_print = Instant::now();
        }
        Ok(())
    }

    fn write(
        &mut self,
        spec: &LeagueSpec,
        games: &[LeagueGame],
        total: usize,
        observer: &mut dyn FnMut(&LiveUpdate<'_>),
    ) -> Result<Tables, LeagueError> {
        let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, games);
        let text = live_standings_text(spec, &tables, games.len(), total);
        evomcts_records::runfs::write_atomically(&self.file, text.as_bytes()).map_err(
            |source| LeagueError::LiveStandings {
                file: self.file.display().to_string(),
                source,
            },
        )?;
        self.since_refresh = 0;
        self.last_refresh = Instant::now();
        observer(&LiveUpdate {
            recorded: games.len(),
            total,
            file: &self.file,
            tables: &tables,
        });
        Ok(tables)
    }
}

/// A rough cost of one decision of `controller` in random playouts, the prior of a match's
/// cost before one of its games has finished (only ratios between controllers matter, and a
/// match's measured cost replaces it after its first game). MCTS pays a playout per
/// simulation and the ES's simulations on top; Star's expectimax multiplies its work by about
/// 600 (moves × tile types, at a fraction of a playout each) per ply below the root; a random
/// move costs a small part of one playout.
pub fn decision_cost_prior(controller: &ControllerSpec) -> f64 {
    match controller {
        ControllerSpec::Random => 0.03,
        ControllerSpec::Mcts(s) => {
            let es = s.es.as_ref().map_or(0.0, |es| {
                (es.generations * es.lambda) as f64 * f64::from(es.sims_per_fitness)
            });
            f64::from(s.sims) * f64::from(s.rollouts_per_leaf.max(1)) + es
        }
        ControllerSpec::Star(s) => 600f64.powi(s.depth.saturating_sub(1).min(4) as i32),
    }
}

/// Orders games by their match's expected cost (`decision_cost_prior` of both seats), most
/// expensive first, keeping schedule order among equals. Workers that take the next game as
/// they free up then end on short games, instead of one core waiting for a long game started
/// last. The order changes when games finish, never what they are.
pub fn order_longest_first(jobs: &mut [GameJob], spec: &LeagueSpec) {
    let prior: Vec<f64> = spec
        .controllers
        .iter()
        .map(|e| decision_cost_prior(&e.spec))
        .collect();
    let cost = |j: &GameJob| prior[j.id.first] + prior[j.id.second];
    jobs.sort_by(|a, b| cost(b).total_cmp(&cost(a)));
}

/// A progress bar over league games (played by `league`, played again by `replay`) whose time
/// left weighs each remaining game by its match's cost, measured or, before its first game,
/// estimated by `decision_cost_prior`.
pub struct GameProgress {
    bar: ProgressBar,
    show: bool,
    entrants: usize,
    /// One group per ordered pair, indexed `first * entrants + second`.
    matches: Vec<WorkGroup>,
    workers: usize,
    started: Instant,
    finished_now: usize,
}

impl GameProgress {
    /// Progress over `jobs` (all of the run's games in view, `done` among them already
    /// finished) on `workers` threads; hidden unless `show`.
    pub fn new(
        spec: &LeagueSpec,
        jobs: &[GameJob],
        done: &HashSet<GameId>,
        workers: usize,
        show: bool,
    ) -> GameProgress {
        let entrants = spec.controllers.len();
        let prior: Vec<f64> = spec
            .controllers
            .iter()
            .map(|e| decision_cost_prior(&e.spec))
            .collect();
        let mut matches = vec![WorkGroup::default(); entrants * entrants];
        for (i, m) in matches.iter_mut().enumerate() {
            m.prior_cost = prior[i / entrants] + prior[i % entrants];
        }
        for j in jobs.iter().filter(|j| !done.contains(&j.id)) {
            matches[j.id.first * entrants + j.id.second].remaining += 1;
        }
        let bar = if show {
            let bar = ProgressBar::new(jobs.len() as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games {msg}",
                )
                .expect("valid template"),
            );
            bar.set_position(done.len() as u64);
            bar.set_message("(time left: after the first game)");
            // Games of expensive controllers take minutes: keep the clock moving between them.
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        } else {
            ProgressBar::hidden()
        };
        GameProgress {
            bar,
            show,
            entrants,
            matches,
            workers: workers.max(1),
            started: Instant::now(),
            finished_now: 0,
        }
    }

    /// Counts game `id`, which took `seconds` on its worker.
    pub fn finished(&mut self, id: GameId, seconds: f64) {
        let m = &mut self.matches[id.first * self.entrants + id.second];
        m.finished += 1;
        m.finished_seconds += seconds;
        m.remaining = m.remaining.saturating_sub(1);
        self.finished_now += 1;
        self.bar.inc(1);
        let games_per_second = self.finished_now as f64 / self.started.elapsed().as_secs_f64();
        let left = weighted_eta(&self.matches, self.workers)
            .map_or_else(|| "?".into(), evomcts_records::progress::duration);
        self.bar.set_message(format!(
            "({}, {left} left)",
            evomcts_records::progress::rate(games_per_second, "games")
        ));
    }

    /// Prints `text` on stderr above the bar, when progress is shown (also when stderr is
    /// not a terminal and the bar itself stays invisible, e.g. in a batch job's log).
    pub fn println(&self, text: &str) {
        if self.show {
            self.bar
                .suspend(|| evomcts_records::progress::note(format_args!("{text}")));
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
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
    play_league_game_with(spec, job, spec_hash, &mut NoSource)
}

/// [`play_league_game`] where the moves of a person's entrant ([`super::Entrant::person`])
/// come from `source` (a person, or the record of their game), which is told every move of
/// the controller with its search's summary.
pub fn play_league_game_with(
    spec: &LeagueSpec,
    job: &GameJob,
    spec_hash: &str,
    source: &mut dyn MoveSource,
) -> Result<LeagueGame, LeagueError> {
    let entrants = [job.id.first, job.id.second].map(|i| &spec.controllers[i]);
    let played = play_seated_with(
        spec.game,
        spec.rules,
        job.seed,
        entrants.map(|e| {
            if e.person {
                Sitter::Source
            } else {
                Sitter::Controller(&e.spec)
            }
        }),
        job.controller_seeds,
        spec.search_detail.root_children(),
        source,
    )
    .map_err(|err| match err {
        PlayError::Controller { seat, message } => LeagueError::Controller {
            name: entrants[seat].name.clone(),
            message,
        },
        PlayError::Unfinished { seat } => LeagueError::Unfinished {
            name: entrants[seat].name.clone(),
        },
        source => LeagueError::Game {
            game: job.id,
            source,
        },
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
        es: played.es.map(summarise),
        search: played.searches.map(|decisions| {
            decisions
                .into_iter()
                .map(|(turn, search)| SearchDecision { turn, search })
                .collect()
        }),
        game: played.game,
    })
}

pub(crate) fn write_spec_atomically(dir: &Path, spec: &LeagueSpec) -> std::io::Result<()> {
    evomcts_records::runfs::write_atomically(&dir.join("spec.ron"), spec.to_ron().as_bytes())
}

/// Whether `stored`, a spec stored before specs carried the content of the files they name
/// (paths then were relative to the working directory), names files that now hold what
/// `spec` holds and what was played: the files must resolve to `spec`, and for every entrant
/// that names a file, its first recorded game must replay identically under `spec`.
fn names_the_same_files(stored: &LeagueSpec, spec: &LeagueSpec, games: &[LeagueGame]) -> bool {
    let mut resolved = stored.clone();
    let resolves = evomcts_records::runfs::SpecFile::resolve_files(&mut resolved, Path::new(""))
        .is_ok()
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

/// Runs (or resumes) a league into `opts.out_dir`, stopping early once `cancel` is set (see
/// [`run_league_until`]), then writes its tables there: what `evomcts league` and the Python
/// module's `run_league` do.
pub fn run_league_with_tables(
    spec: &LeagueSpec,
    opts: &RunOptions,
    cancel: &AtomicBool,
) -> Result<(RunOutcome, Tables), LeagueError> {
    let outcome = run_league_until(spec, opts, &mut |_| {}, cancel)?;
    let tables = Tables::from_games(
        &spec.names(),
        spec.games_per_match,
        &spec.bonus,
        &outcome.games,
    );
    super::report::write_tables(&tables, &opts.out_dir).map_err(|source| LeagueError::Tables {
        dir: opts.out_dir.display().to_string(),
        source,
    })?;
    Ok((outcome, tables))
}

/// Runs (or resumes) a league into `opts.out_dir`.
pub fn run_league(spec: &LeagueSpec, opts: &RunOptions) -> Result<RunOutcome, LeagueError> {
    run_league_observed(spec, opts, &mut |_| {})
}

/// `run_league`, calling `observer` after every refresh of the live standings file.
pub fn run_league_observed(
    spec: &LeagueSpec,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&LiveUpdate<'_>),
) -> Result<RunOutcome, LeagueError> {
    run_league_until(spec, opts, observer, &AtomicBool::new(false))
}

/// `run_league_observed` that stops starting games once `cancel` is set (by another thread,
/// e.g. on Ctrl-C in the Python module): the games under way finish and are recorded, the run
/// ends with `LeagueError::Interrupted`, and `--resume` continues it as if never stopped.
pub fn run_league_until(
    spec: &LeagueSpec,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&LiveUpdate<'_>),
    cancel: &AtomicBool,
) -> Result<RunOutcome, LeagueError> {
    evomcts_records::bounds::check_threads(opts.threads).map_err(LeagueError::Threads)?;
    // Every controller is built once before the disk is touched, so a spec that cannot be
    // played leaves no run folder behind.
    for e in &spec.controllers {
        if e.person {
            return Err(LeagueError::Unfinished {
                name: e.name.clone(),
            });
        }
        spec.game
            .check_builds(&e.spec)
            .map_err(|message| LeagueError::Controller {
                name: e.name.clone(),
                message,
            })?;
    }
    let dir = &opts.out_dir;
    let dir_name = dir.display().to_string();
    let io = |source| LeagueError::Io {
        dir: dir_name.clone(),
        source,
    };
    let _lock = RunLock::open_run_folder(dir, RunKind::League, &format!("league `{}`", spec.name))?;
    let mut hash = spec.hash();
    let spec_file = dir.join("spec.ron");
    let path = record_path(dir);
    let existing = read_records(&path)?;
    // `spec.ron` is written only once every check below has passed: a refused run leaves the
    // folder as it was, so the right spec can still resume it.
    let mut write_spec = !spec_file.exists();
    if !write_spec {
        let stored = read_stored_spec(dir)?;
        let old = stored.hash();
        if old != hash {
            if existing.games.is_empty() {
                // No game was played under the old spec: nothing on disk depends on it.
                write_spec = true;
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
    let (valid_len, torn_tail) = (existing.valid_len, existing.torn_tail);
    let mut merged = Merged::new();
    let expected = Expected::new(spec, hash.clone(), &jobs);
    let (duplicates, _) = merge_games(&mut merged, existing, dir, &expected)?;
    if write_spec {
        write_spec_atomically(dir, spec).map_err(io)?;
    }
    let recorded: Vec<LeagueGame> = merged.into_values().map(|(g, _, _)| g).collect();
    let recorded_open_spiel = recorded.iter().find_map(|g| match &g.game {
        evomcts_arena::PlayedGame::History(r) => r.open_spiel.as_deref(),
        _ => None,
    });
    if let Some(warning) = evomcts_arena::open_spiel::version_warning(recorded_open_spiel) {
        evomcts_records::note!("warning: {warning}; the games played now join them");
    }
    let done: HashSet<_> = recorded.iter().map(|g| g.id()).collect();
    let mut pending: Vec<GameJob> = jobs
        .iter()
        .filter(|j| !done.contains(&j.id))
        .copied()
        .collect();
    if let Some(n) = opts.max_games {
        pending.truncate(n);
    }
    order_longest_first(&mut pending, spec);

    let mut writer = RecordWriter::open(&path, valid_len)?;
    let pool =
        evomcts_steps::frame::RunPool::new(opts.threads, Some(&spec.game)).expect("a thread pool");
    let mut progress = GameProgress::new(
        spec,
        &jobs,
        &done,
        pool.current_num_threads(),
        opts.progress,
    );
    let mut live = LiveStandings::new(dir, pending.len());
    let already_recorded = recorded.len();
    let mut games = recorded;
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(Result<LeagueGame, LeagueError>, f64)>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        let (pending, stop) = (&pending, &stop);
        let (hash, pool) = (&hash, &pool);
        // Each worker takes the next game of the list as it frees up, so the games run in the
        // order `order_longest_first` gave them and the last ones to finish are short.
        let next = AtomicUsize::new(0);
        scope.spawn(move || {
            pool.broadcast(|_| {
                while let Some(job) = pending.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let started = Instant::now();
                    let game = play_league_game(spec, job, hash);
                    let _ = tx.send((game, started.elapsed().as_secs_f64()));
                }
            });
            drop(tx);
        });
        for (result, seconds) in rx {
            let finished = result
                .and_then(|g| writer.append(&g).map(|_| g).map_err(Into::into))
                .and_then(|game| {
                    progress.finished(game.id(), seconds);
                    games.push(game);
                    live.game_finished(spec, &games, jobs.len(), &progress, observer)
                });
            if let Err(e) = finished {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
    });
    progress.finish();
    if let Some(e) = first_error {
        return Err(e);
    }
    // Before tables are made of them: the records of every game are still on disk.
    writer.check()?;
    if games.len() < jobs.len() && cancel.load(Ordering::Relaxed) {
        live.write(spec, &games, jobs.len(), observer)?;
        return Err(LeagueError::Interrupted {
            dir: dir_name,
            recorded: games.len(),
            scheduled: jobs.len(),
        });
    }
    // The last refresh: the live file equals the final standings of what is recorded.
    live.write(spec, &games, jobs.len(), observer)?;
    let played_now = games.len() - already_recorded;
    let order: std::collections::HashMap<_, _> =
        jobs.iter().enumerate().map(|(i, j)| (j.id, i)).collect();
    games.sort_by_key(|g| order.get(&g.id()).copied().unwrap_or(usize::MAX));
    Ok(RunOutcome {
        games,
        played_now,
        already_recorded,
        dropped_torn_line: torn_tail,
        duplicates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_ordered_most_expensive_match_first_keeping_schedule_order_among_equals() {
        let spec = LeagueSpec::from_ron(
            r#"(name: "o", games_per_match: 2, seed: 3, controllers: [
                (name: "r", spec: Random),
                (name: "big", spec: Mcts(sims: 400)),
                (name: "small", spec: Mcts(sims: 20)),
            ])"#,
            "o.ron",
        )
        .unwrap();
        let scheduled = schedule(spec.seed, 3, spec.games_per_match);
        let mut ordered = scheduled.clone();
        order_longest_first(&mut ordered, &spec);
        let cost = |j: &GameJob| {
            let p = |i: usize| decision_cost_prior(&spec.controllers[i].spec);
            p(j.id.first) + p(j.id.second)
        };
        assert!(ordered.windows(2).all(|w| cost(&w[0]) >= cost(&w[1])));
        // big vs small first, Random vs small last.
        assert_eq!((ordered[0].id.first, ordered[0].id.second), (1, 2));
        let last = ordered.last().unwrap().id;
        assert!(
            [(0, 2), (2, 0)].contains(&(last.first, last.second)),
            "{last:?}"
        );
        // Same games, and among equal costs the schedule's order.
        let mut ids: Vec<_> = ordered.iter().map(|j| j.id).collect();
        let position = |id: GameId| scheduled.iter().position(|j| j.id == id).unwrap();
        for w in ordered.windows(2) {
            if cost(&w[0]) == cost(&w[1]) {
                assert!(position(w[0].id) < position(w[1].id));
            }
        }
        ids.sort_by_key(|&id| position(id));
        assert_eq!(ids, scheduled.iter().map(|j| j.id).collect::<Vec<_>>());
    }

    fn prior(ron: &str) -> f64 {
        let spec: ControllerSpec = evomcts_records::runfs::ron_options().from_str(ron).unwrap();
        decision_cost_prior(&spec)
    }

    #[test]
    fn priors_rank_controllers_by_their_search_budgets() {
        let random = prior("Random");
        let mcts_50 = prior("Mcts(sims: 50)");
        let mcts_400 = prior("Mcts(sims: 400)");
        let es = prior("Mcts(sims: 400, es: (mode: Integrated, generations: 10))");
        let star = prior("Star(depth: 2, lower: -100.0, upper: 100.0, probing: 0)");
        assert!(random < mcts_50 && mcts_50 < mcts_400 && mcts_400 < es && mcts_400 < star);
        assert_eq!(mcts_400, 8.0 * mcts_50);
    }
}
