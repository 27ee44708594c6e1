//! Independent runs settled by a tournament (`evomcts evolve SPEC --runs K`): K runs of one
//! spec, each from a master seed of its own, into one folder, then the tournament of their
//! champions and the seed formula (`tournament`), which crowns one.
//!
//! - **Folder**: `OUT/run-1/ … OUT/run-K/`, each an ordinary evolution run folder (its own
//!   `spec.ron`, generations, champion, reports) that every command reading a run reads;
//!   `OUT/runs.ron` records K, the spec's hash and the tournament's settings; after the
//!   tournament `OUT/tournament.csv`, `OUT/tournament.md` and `OUT/champion.txt` (the crowned
//!   formula, what a league's `FormulaFile` reads).
//! - **Seed rule**: run i (1-based) is the spec with master seed `derive_seed(seed,
//!   [RUN_DOMAIN, i])` ([`run_seed`]) and name `<name>-run-<i>`; nothing else changes. The
//!   runs' seeds differ from each other and from the spec's own seed, so no run repeats
//!   another's or a single run's samples.
//! - **Resume**: the runs are resumed one by one as a single run is (each continues from its
//!   last generation written); the tournament is a function of the runs' champions, the spec
//!   and the settings, so one stopped anywhere is played again from its start. A folder is
//!   continued only with `resume`, and only by the spec (up to its number of generations), K
//!   and the settings it was begun with; otherwise it is refused before anything is written.
//!
//! Guarantees: spec, K and the tournament's settings determine every file, whatever the
//! thread count, the interruptions and the placement (this machine or job steps).

use super::error::EvolveError;
use super::fitness::{evaluate_all_observed, Request};
use super::population::{write_atomically, PopulationError};
use super::run::{run_evolution, RunOptions, RunOutcome};
use super::spec::{EvolveSpec, FitnessSpec, SpecFileError};
use super::tournament::{self, run_name, Crowned, TournamentSpec};
use super::work::play_fitness_steps;
use evomcts_formula::Formula;
use evomcts_records::runfs::{derive_seed, RunKind, RunLock};
use evomcts_steps::launch::{SrunOptions, StepRunner};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most independent runs one folder may hold.
pub const MAX_RUNS: usize = 64;
/// What an independent runs' folder records about itself.
pub const RUNS_FILE: &str = evomcts_records::runfs::kind::RUNS_FILE;
/// The crowned formula (one line), as a single run names its champion.
pub const CHAMPION_TXT: &str = "champion.txt";

/// The domain tag of the runs' master seeds ("indeprun" in ASCII).
const RUN_DOMAIN: u64 = 0x696e_6465_7072_756e;

/// The master seed of run `i` (1-based) of a spec whose master seed is `master`.
pub fn run_seed(master: u64, i: usize) -> u64 {
    derive_seed(master, &[RUN_DOMAIN, i as u64])
}

/// Run `i` (1-based) of `spec`: its own master seed and name, nothing else changed.
pub fn run_spec(spec: &EvolveSpec, i: usize) -> EvolveSpec {
    let mut run = spec.clone();
    run.seed = run_seed(spec.seed, i);
    run.name = format!("{}-{}", spec.name, run_name(i));
    run
}

/// The folder of run `i` (1-based) inside `out`.
pub fn run_folder(out: &Path, i: usize) -> PathBuf {
    out.join(run_name(i))
}

/// How the runs and the tournament are played.
pub struct IndependentOptions {
    /// The folder of the K runs and the tournament.
    pub out_dir: PathBuf,
    /// Continue the runs and the tournament found in `out_dir`.
    pub resume: bool,
    /// Worker threads (`None`: all cores; one for an OpenSpiel game). Results do not depend on it.
    pub threads: Option<usize>,
    /// Progress on stderr: each run's own lines and, between runs and during the tournament,
    /// the work done of the whole with an ETA.
    pub progress: bool,
    /// Stop every run once this generation is written (the tournament waits for all runs to
    /// reach the spec's last generation).
    pub stop_after: Option<usize>,
    /// Play the samples as job steps over a Slurm allocation, as a single run does.
    pub srun: Option<SrunOptions>,
    pub tournament: TournamentSpec,
}

/// What `runs.ron` holds: what the folder was begun with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunsRecord {
    name: String,
    /// The spec's hash (`EvolveSpec::hash`: everything but its number of generations).
    spec_hash: String,
    runs: usize,
    tournament: TournamentSpec,
}

/// What stops independent runs.
#[derive(Debug, thiserror::Error)]
pub enum IndependentError {
    #[error("--runs must be between 1 and {MAX_RUNS}, got {0}")]
    Runs(usize),
    #[error("{field}: {message}")]
    Settings { field: String, message: String },
    #[error("{file} records {found}, but this call asks for {asked}; resume the folder with what it was begun with, or choose another --out (nothing was changed)")]
    Changed {
        file: String,
        found: String,
        asked: String,
    },
    #[error("{dir} already holds independent runs ({RUNS_FILE}); pass --resume to continue them, or choose another --out")]
    AlreadyStarted { dir: String },
    #[error("run {run} ({dir}): {source}")]
    Run {
        run: usize,
        dir: String,
        source: EvolveError,
    },
    #[error(transparent)]
    Evolve(#[from] EvolveError),
}

impl From<PopulationError> for IndependentError {
    fn from(e: PopulationError) -> Self {
        IndependentError::Evolve(e.into())
    }
}

/// The K runs and, once all reached the spec's last generation, the tournament.
pub struct IndependentOutcome {
    /// Each run's outcome, in run order.
    pub runs: Vec<RunOutcome>,
    /// The tournament, when every run is finished.
    pub tournament: Option<Crowned>,
}

/// Runs (or resumes) `k` independent runs of `spec` into `opts.out_dir` and, once all are
/// finished, their tournament; the crowned formula goes to `champion.txt`.
pub fn run_independent(
    spec: &EvolveSpec,
    k: usize,
    opts: &IndependentOptions,
) -> Result<IndependentOutcome, IndependentError> {
    check(spec, k, opts)?;
    let dir = &opts.out_dir;
    let _lock = RunLock::open_run_folder(
        dir,
        RunKind::EvolutionRuns,
        &format!("evolve `{}` --runs {k}", spec.name),
    )
    .map_err(EvolveError::from)?;
    open_record(spec, k, opts)?;
    evomcts_steps::launch::clear_left_steps(dir, opts.srun.as_ref()).map_err(EvolveError::from)?;
    let mut eta = Eta::new(spec, k, opts);
    let mut runs = Vec::with_capacity(k);
    for i in 1..=k {
        let run = run_spec(spec, i);
        let folder = run_folder(dir, i);
        if opts.progress {
            evomcts_records::note!("run {i}/{k}: seed {} -> {}", run.seed, folder.display());
        }
        let outcome = run_evolution(
            &run,
            &RunOptions {
                out_dir: folder.clone(),
                resume: opts.resume,
                threads: opts.threads,
                progress: opts.progress,
                stop_after: opts.stop_after,
                srun: opts.srun.clone(),
            },
        )
        .map_err(|source| IndependentError::Run {
            run: i,
            dir: folder.display().to_string(),
            source,
        })?;
        eta.run_done(&outcome);
        runs.push(outcome);
    }
    let finished = runs
        .iter()
        .all(|r| r.last.generation == spec.strategy.generations);
    if !finished {
        return Ok(IndependentOutcome {
            runs,
            tournament: None,
        });
    }
    let champions: Vec<Formula> = runs.iter().map(|r| champion(r).clone()).collect();
    let crowned = play_tournament(spec, &champions, opts, &eta)?;
    write_tournament(spec, dir, &crowned)?;
    Ok(IndependentOutcome {
        runs,
        tournament: Some(crowned),
    })
}

/// A run's champion: the re-estimate's crowned one when the spec has a re-estimate, else its
/// last generation's (what its `champion.txt` names).
pub fn champion(run: &RunOutcome) -> &Formula {
    match &run.reestimated {
        Some((rows, crowned)) => &rows[*crowned].member.formula,
        None => &run.last.champion.formula,
    }
}

/// The checks of K, the settings and the spec, before the folder is touched.
fn check(spec: &EvolveSpec, k: usize, opts: &IndependentOptions) -> Result<(), IndependentError> {
    if k == 0 || k > MAX_RUNS {
        return Err(IndependentError::Runs(k));
    }
    opts.tournament
        .check()
        .map_err(|(field, message)| IndependentError::Settings { field, message })?;
    spec.validate().map_err(|(field, message)| {
        EvolveError::from(SpecFileError::Invalid {
            file: "<spec>".into(),
            field,
            message,
        })
    })?;
    Ok(())
}

/// Checks `runs.ron` against this call (refusing a folder begun otherwise, or begun at all
/// without `resume`) and writes it when new.
fn open_record(
    spec: &EvolveSpec,
    k: usize,
    opts: &IndependentOptions,
) -> Result<(), IndependentError> {
    let path = opts.out_dir.join(RUNS_FILE);
    let asked = RunsRecord {
        name: spec.name.clone(),
        spec_hash: spec.hash(),
        runs: k,
        tournament: opts.tournament.clone(),
    };
    let text = evomcts_records::runfs::ron_options()
        .to_string_pretty(&asked, ron::ser::PrettyConfig::default())
        .expect("the record serialises")
        + "\n";
    if !path.exists() {
        return Ok(write_atomically(&path, &text)?);
    }
    if !opts.resume {
        return Err(IndependentError::AlreadyStarted {
            dir: opts.out_dir.display().to_string(),
        });
    }
    let file = path.display().to_string();
    let stored = evomcts_records::runfs::read_spec_text(&path).map_err(EvolveError::from)?;
    let found: RunsRecord = evomcts_records::runfs::ron_options()
        .from_str(&stored)
        .map_err(|e| IndependentError::Changed {
            file: file.clone(),
            found: format!("something unreadable ({e})"),
            asked: "a record of independent runs".into(),
        })?;
    let differs = |what: &str, found: String, asked: String| IndependentError::Changed {
        file: file.clone(),
        found: format!("{what} {found}"),
        asked: format!("{what} {asked}"),
    };
    if found.spec_hash != asked.spec_hash {
        return Err(differs("the spec hash", found.spec_hash, asked.spec_hash));
    }
    if found.runs != k {
        return Err(differs("--runs", found.runs.to_string(), k.to_string()));
    }
    if found.tournament.samples != asked.tournament.samples {
        return Err(differs(
            "--tournament-samples",
            found.tournament.samples.to_string(),
            asked.tournament.samples.to_string(),
        ));
    }
    if found.tournament != asked.tournament {
        return Err(differs(
            "the tournament's racing",
            format!("{:?}", found.tournament.racing),
            format!("{:?}", asked.tournament.racing),
        ));
    }
    Ok(())
}

/// Games in one fitness sample: both seatings of a sequence, or one bandit run.
fn games_per_sample(spec: &EvolveSpec) -> u64 {
    spec.fitness.games_per_sample()
}

/// The tournament of the seed formula and `champions`, on this machine's threads or as job
/// steps in the folder.
fn play_tournament(
    spec: &EvolveSpec,
    champions: &[Formula],
    opts: &IndependentOptions,
    eta: &Eta,
) -> Result<Crowned, IndependentError> {
    let entrants = tournament::entrants(&spec.seed_formula, champions);
    if opts.progress {
        evomcts_records::note!(
            "tournament: {} entrants (the seed formula and {} champions), at least {} samples each",
            entrants.len(),
            champions.len(),
            opts.tournament.samples
        );
    }
    let pool = evomcts_steps::frame::RunPool::new(opts.threads, spec.fitness.pool_game().as_ref())
        .expect("a thread pool");
    let runner = opts.srun.clone().map(|o| {
        let r = StepRunner::new(&opts.out_dir, o);
        r.set_context("the tournament");
        r
    });
    let formulas: Vec<Formula> = entrants.iter().map(|e| e.formula.clone()).collect();
    let crowned = pool.install(|| {
        tournament::play_on(
            entrants,
            spec.fitness.sample_seeds(tournament::tournament_seeds(
                spec.seed,
                opts.tournament.seed_count(),
            )),
            &opts.tournament,
            games_per_sample(spec),
            |indices, seeds| {
                let requests: Vec<Request<'_>> = indices
                    .iter()
                    .map(|&i| Request {
                        formula: &formulas[i],
                        seeds,
                    })
                    .collect();
                play_samples(&spec.fitness, &requests, runner.as_ref())
            },
            |p| eta.tournament(p.spent, p.budget),
        )
    })?;
    if let Some(r) = &runner {
        r.clear().map_err(EvolveError::from)?;
    }
    if opts.progress {
        let spent: u64 = crowned.standings.iter().map(|s| s.fitness.samples).sum();
        evomcts_records::note!(
            "tournament: {spent} samples played; {}",
            eta.eta_text_after(spent, 0)
        );
    }
    Ok(crowned)
}

/// The samples of every request, in request order: on this machine's pool, or as one job step.
fn play_samples(
    fitness: &FitnessSpec,
    requests: &[Request<'_>],
    runner: Option<&StepRunner>,
) -> Result<Vec<Vec<f64>>, EvolveError> {
    let Some(runner) = runner else {
        return Ok(evaluate_all_observed(fitness, requests, &|| {})?);
    };
    Ok(play_fitness_steps(runner, fitness, requests, &|| {})?)
}

/// Writes `tournament.csv`, `tournament.md` and the crowned formula as `champion.txt`.
fn write_tournament(
    spec: &EvolveSpec,
    dir: &Path,
    crowned: &Crowned,
) -> Result<(), PopulationError> {
    write_atomically(
        &dir.join(tournament::TOURNAMENT_CSV),
        &tournament::csv(crowned),
    )?;
    write_atomically(
        &dir.join(tournament::TOURNAMENT_MD),
        &tournament::markdown(crowned, &spec.name),
    )?;
    write_atomically(&dir.join(CHAMPION_TXT), &format!("{}\n", crowned.formula()))
}

/// The ETA of the whole: the runs' samples at most (each run's nominal samples, racing only
/// drops some) and the tournament's budget, at the rate of the samples this call has played.
struct Eta {
    on: bool,
    started: Instant,
    /// Nominal samples of one whole run.
    per_run: u64,
    /// Samples of the tournament at most.
    tournament: u64,
    runs_left: u64,
    /// Samples played by this call so far (counted by generations made).
    played: u64,
    /// Nominal samples of one generation after the first.
    per_generation: u64,
    last_line: std::sync::Mutex<Option<Instant>>,
}

impl Eta {
    fn new(spec: &EvolveSpec, k: usize, opts: &IndependentOptions) -> Eta {
        let (initial, later) = spec.samples_per_generation();
        let reestimate = spec
            .noise
            .reestimate
            .map_or(0, |r| (r.candidates * r.samples) as u128);
        let per_run = initial + later * spec.strategy.generations as u128 + reestimate;
        let clamp = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
        Eta {
            on: opts.progress,
            started: Instant::now(),
            per_run: clamp(per_run),
            // The seed formula and K champions at most.
            tournament: opts.tournament.budget(k + 1),
            runs_left: k as u64,
            played: 0,
            per_generation: clamp(later),
            last_line: std::sync::Mutex::new(None),
        }
    }

    /// After a run: the samples its generations made this call and what is left.
    fn run_done(&mut self, run: &RunOutcome) {
        self.runs_left -= 1;
        self.played += run.generations_run as u64 * self.per_generation;
        if !self.on {
            return;
        }
        let left = self.runs_left * self.per_run + self.tournament;
        evomcts_records::note!(
            "run {} finished at generation {}; {} elapsed, {}",
            run.last.run,
            run.last.generation,
            evomcts_records::progress::duration(self.started.elapsed().as_secs_f64()),
            self.eta_text(left)
        );
    }

    /// During the tournament, at most every 10 seconds and at its end.
    fn tournament(&self, spent: u64, budget: u64) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        let mut last = self.last_line.lock().expect("the last line's time");
        let due = last.is_none_or(|t| now.duration_since(t).as_secs() >= 10);
        if !due && spent < budget {
            return;
        }
        *last = Some(now);
        evomcts_records::note!(
            "tournament: {spent} of at most {budget} samples; {}",
            self.eta_text_after(spent, budget.saturating_sub(spent))
        );
    }

    fn eta_text(&self, left: u64) -> String {
        self.eta_text_after(0, left)
    }

    /// The ETA of `left` samples when `more` samples beyond the runs' were played this call.
    fn eta_text_after(&self, more: u64, left: u64) -> String {
        let elapsed = self.started.elapsed().as_secs_f64();
        let played = self.played + more;
        if played == 0 || elapsed <= 0.0 {
            return format!("{left} samples left at most (no rate measured yet)");
        }
        let rate = played as f64 / elapsed;
        format!(
            "ETA at most {} ({left} samples left at most, at this call's {:.1} samples/s)",
            evomcts_records::progress::duration(left as f64 / rate),
            rate
        )
    }
}
