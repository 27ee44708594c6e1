//! The study's loop: its folder, lock and stored spec, then for each budget the three phases in
//! order (tune, evolve, validate), each run (or resumed) in its own folder through the phase's
//! library call, each finished phase recorded in `phases.ron`, and the outputs rewritten after
//! every budget. Progress: a line at each phase with the games played and an ETA over the
//! games left in all phases (at most: racing and the sequential test stop early).

use super::outputs::{write_outputs, BudgetRow, Phase, PhaseDone, PHASES_RON, STUDY_RON};
use super::{io_error, write_file, StudyError, StudySpec};
use evomcts_arena::budgets::{budget_profile_with_rules, BudgetProfile};
use evomcts_evolve::enumeration::run_enumeration;
use evomcts_evolve::tournament::TournamentSpec;
use evomcts_evolve::{
    run_evolution, run_independent, EvolveError, EvolveSpec, IndependentOptions, RunOptions,
    RunOutcome,
};
use evomcts_formula::Formula;
use evomcts_steps::launch::SrunOptions;
use evomcts_tune::{run_tune, TuneOptions, TuneResult};
use evomcts_validation::sprt::{from_records, TestChoice};
use evomcts_validation::{run_validation, PairingSummary, PlayOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How a study is run.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    pub out_dir: PathBuf,
    pub resume: bool,
    /// Worker threads of every phase [`None`: all cores, one for an OpenSpiel game], and of
    /// each worker process with `steps`; results do not depend on it.
    pub threads: Option<usize>,
    pub progress: bool,
    /// Stop once this many phases are finished (resume later).
    pub stop_after: Option<usize>,
    /// Where every phase plays its games: `None` on this process's threads, or as job steps
    /// (`--workers N`: N local worker processes; see `slurm::launch`); results do not depend
    /// on it.
    pub steps: Option<SrunOptions>,
}

/// What a study (or this part of it) did.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyOutcome {
    /// Phases of the whole study (three per budget) and those finished.
    pub phases: usize,
    pub phases_done: usize,
    /// The budgets whose three phases are finished, in the spec's order.
    pub rows: Vec<BudgetRow>,
}

/// The folder of `phase` at `budget` inside the study folder.
pub fn phase_dir(dir: &Path, budget: u32, phase: Phase) -> PathBuf {
    dir.join(format!("sims-{budget}")).join(phase.folder())
}

/// Runs (or resumes) the study of `spec`.
pub fn run_study(spec: &StudySpec, opts: &StudyOptions) -> Result<StudyOutcome, StudyError> {
    if opts.threads == Some(0) {
        return Err(StudyError::NoThreads);
    }
    let dir = &opts.out_dir;
    let _lock = evomcts_records::runfs::RunLock::open_run_folder(
        dir,
        evomcts_records::runfs::RunKind::Study,
        &format!("study `{}`", spec.name),
    )?;
    check_stored_spec(dir, &spec.to_ron(), opts.resume)?;
    let mut done = read_phases(dir)?;
    check_phases(spec, dir, &done)?;
    let mut progress = Progress::new(spec, &done, opts.progress);
    let stop = opts.stop_after.unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    let mut outcome = StudyOutcome {
        phases: 3 * spec.budgets.len(),
        phases_done: done.len(),
        rows: Vec::new(),
    };
    for &budget in &spec.budgets {
        let halt =
            |phase: Phase, done: &[PhaseDone]| done.len() >= stop && !is_done(done, budget, phase);
        if halt(Phase::Tune, &done) {
            break;
        }
        progress.begin(budget, Phase::Tune, &done);
        let tuned = tune_phase(spec, budget, opts)?;
        record(dir, &mut done, budget, Phase::Tune, tuned.1, None)?;
        progress.end(tuned.1);
        let c_e = played_c_e(&tuned.0);

        if halt(Phase::Evolve, &done) {
            break;
        }
        progress.begin(budget, Phase::Evolve, &done);
        let (champion, evolve_games) = match stated(&done, budget, Phase::Evolve) {
            Some(p) => finished_evolution(spec, budget, c_e, dir, p)?,
            None => evolve_phase(spec, budget, c_e, opts)?,
        };
        record(
            dir,
            &mut done,
            budget,
            Phase::Evolve,
            evolve_games,
            Some(champion.clone()),
        )?;
        progress.end(evolve_games);

        if halt(Phase::Validate, &done) {
            break;
        }
        progress.begin(budget, Phase::Validate, &done);
        let (summary, decision) = validate_phase(spec, budget, c_e, &champion, opts)?;
        record(
            dir,
            &mut done,
            budget,
            Phase::Validate,
            summary.games as u64,
            None,
        )?;
        progress.end(summary.games as u64);
        let consulted = consulted_profile(spec, budget, c_e, &champion)?;
        rows.push(
            BudgetRow::new(
                spec,
                budget,
                &tuned.0,
                [tuned.1, evolve_games, summary.games as u64],
                &champion,
                summary,
                decision,
            )
            .with_consulted(consulted),
        );
        write_outputs(dir, spec, &rows)?;
    }
    outcome.phases_done = done.len();
    outcome.rows = rows;
    Ok(outcome)
}

/// Tunes C_E at `budget`: the result and the games it played (tuning and re-estimate).
fn tune_phase(
    spec: &StudySpec,
    budget: u32,
    opts: &StudyOptions,
) -> Result<(TuneResult, u64), StudyError> {
    let tune = spec.tune_spec(budget);
    let err = |source| StudyError::Tune { budget, source };
    let outcome = run_tune(
        &tune,
        &TuneOptions {
            out_dir: phase_dir(&opts.out_dir, budget, Phase::Tune),
            resume: true,
            threads: opts.threads,
            progress: opts.progress,
            stop_after: None,
            srun: opts.steps.clone(),
        },
    )
    .map_err(err)?;
    let result = outcome
        .result
        .expect("a tuning run not stopped early ends with its result");
    let reestimated: usize = result.reestimate.summaries.iter().map(|s| s.games).sum();
    let games = (outcome.steps_done * tune.games_per_step() + reestimated) as u64;
    Ok((result, games))
}

/// The constant evolution and validation play: the tuned one, unless its re-estimate on fresh
/// sweep sequences puts it below the start (mean paired difference < 0), then the start. Chosen
/// on sweep sequences only, never on validation games.
pub fn played_c_e(tuned: &TuneResult) -> f64 {
    if tuned.reestimate.paired_mean < 0.0 {
        tuned.start[0]
    } else {
        tuned.tuned[0]
    }
}

/// Evolves at `budget` against UCT at `c_e`: the champion (the re-estimate's crowned one) and
/// the games played.
fn evolve_phase(
    spec: &StudySpec,
    budget: u32,
    c_e: f64,
    opts: &StudyOptions,
) -> Result<(Formula, u64), StudyError> {
    let evolve = spec.evolve_spec(budget, c_e);
    let out_dir = phase_dir(&opts.out_dir, budget, Phase::Evolve);
    if spec.runs > 1 {
        return independent_phase(spec, &evolve, budget, out_dir, opts);
    }
    let options = RunOptions {
        out_dir,
        resume: true,
        threads: opts.threads,
        progress: opts.progress,
        stop_after: None,
        srun: opts.steps.clone(),
    };
    if evolve.enumerate.is_some() {
        let outcome = run_enumeration(&evolve, &options)
            .map_err(|source| StudyError::Evolve { budget, source })?;
        let games = 2 * outcome.total_samples();
        return Ok((outcome.champion, games));
    }
    let outcome =
        run_evolution(&evolve, &options).map_err(|source| StudyError::Evolve { budget, source })?;
    Ok((champion_of(&outcome), 2 * samples_of(&outcome)))
}

/// The champion of one run: the re-estimate's crowned one, else the last generation's.
pub fn champion_of(outcome: &RunOutcome) -> Formula {
    match &outcome.reestimated {
        Some((rows, crowned)) => rows[*crowned].member.formula.clone(),
        None => outcome.last.champion.formula.clone(),
    }
}

/// The fitness samples one run spent: its generations and its re-estimate.
fn samples_of(outcome: &RunOutcome) -> u64 {
    let reestimate: u64 = outcome
        .reestimated
        .as_ref()
        .map_or(0, |(rows, _)| rows.iter().map(|r| r.fresh.samples).sum());
    outcome.last.samples_spent + reestimate
}

/// `runs: K` above 1: K independent runs of the evolution spec and the tournament that crowns
/// one formula (`evolve --runs K`, in the phase's folder); the games of the runs and of the
/// tournament.
fn independent_phase(
    spec: &StudySpec,
    evolve: &EvolveSpec,
    budget: u32,
    out_dir: PathBuf,
    opts: &StudyOptions,
) -> Result<(Formula, u64), StudyError> {
    let tournament = TournamentSpec::with_samples(
        spec.evolve
            .tournament_samples
            .unwrap_or(evomcts_evolve::tournament::DEFAULT_SAMPLES),
    );
    let outcome = run_independent(
        evolve,
        spec.runs,
        &IndependentOptions {
            out_dir,
            resume: true,
            threads: opts.threads,
            progress: opts.progress,
            stop_after: None,
            srun: opts.steps.clone(),
            tournament,
        },
    )
    .map_err(|source| StudyError::Independent { budget, source })?;
    let Some(crowned) = outcome.tournament else {
        return Err(StudyError::Unfinished { budget });
    };
    let runs: u64 = outcome.runs.iter().map(samples_of).sum();
    let tournament: u64 = crowned.standings.iter().map(|s| s.fitness.samples).sum();
    Ok((crowned.formula().clone(), 2 * (runs + tournament)))
}

/// Validates `champion` against UCT at `c_e`: the summary and the sequential test's decision.
fn validate_phase(
    spec: &StudySpec,
    budget: u32,
    c_e: f64,
    champion: &Formula,
    opts: &StudyOptions,
) -> Result<(PairingSummary, Option<(String, f64)>), StudyError> {
    let validate = spec.validate_spec(budget, c_e, champion);
    let dir = phase_dir(&opts.out_dir, budget, Phase::Validate);
    let err = |source| StudyError::Validate { budget, source };
    let summary = run_validation(
        &validate,
        &PlayOptions {
            out_dir: dir.clone(),
            resume: true,
            threads: opts.threads,
            progress: opts.progress,
            stop_after: None,
            srun: opts.steps.clone(),
        },
    )
    .map_err(err)?;
    let decision = match validate.sequential {
        Some(_) => {
            let tested = from_records(&dir, &TestChoice::default()).map_err(err)?;
            let llr = tested.outcome.last().map_or(0.0, |s| s.llr);
            Some((tested.outcome.decision().as_str().to_string(), llr))
        }
        None => None,
    };
    Ok((summary, decision))
}

/// How often the champion's tree policy decides anything at `budget`, when the spec asks
/// (`consulted`): measured on random games, not on any phase's games, so it is the same on
/// every resume.
fn consulted_profile(
    spec: &StudySpec,
    budget: u32,
    c_e: f64,
    champion: &Formula,
) -> Result<Option<BudgetProfile>, StudyError> {
    let Some(profile) = spec.consulted_spec(budget, c_e, champion) else {
        return Ok(None);
    };
    budget_profile_with_rules(&spec.game, spec.rules, &profile)
        .map(Some)
        .map_err(|message| StudyError::Consulted { budget, message })
}

/// Checks the stored spec against this one, or writes it into a new folder.
fn check_stored_spec(dir: &Path, text: &str, resume: bool) -> Result<(), StudyError> {
    let file = dir.join(STUDY_RON);
    let name = dir.display().to_string();
    match evomcts_records::runfs::read_capped_text(
        &file,
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a spec",
    ) {
        Ok(old) if old != text => Err(StudyError::SpecChanged { dir: name }),
        Ok(_) if !resume => Err(StudyError::AlreadyStarted { dir: name }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error(&file, e)),
        Err(_) => write_file(&file, text),
    }
}

/// The finished phases `phases.ron` records (none when it is not there yet).
fn read_phases(dir: &Path) -> Result<Vec<PhaseDone>, StudyError> {
    let file = dir.join(PHASES_RON);
    match evomcts_records::runfs::read_capped_text(
        &file,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a study's phases",
    ) {
        Ok(text) => evomcts_records::runfs::ron_options()
            .from_str(&text)
            .map_err(|e| StudyError::Corrupt {
                file: file.display().to_string(),
                message: e.to_string(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(io_error(&file, e)),
    }
}

fn find(done: &[PhaseDone], budget: u32, phase: Phase) -> Option<&PhaseDone> {
    done.iter().find(|p| p.budget == budget && p.phase == phase)
}

/// The entry (from 1) of `phase` at `budget` and the games it states.
fn stated(done: &[PhaseDone], budget: u32, phase: Phase) -> Option<(usize, u64)> {
    done.iter()
        .position(|p| p.budget == budget && p.phase == phase)
        .map(|i| (i + 1, done[i].games))
}

fn is_done(done: &[PhaseDone], budget: u32, phase: Phase) -> bool {
    find(done, budget, phase).is_some()
}

/// The file `phases.ron` of `dir` refused at entry `index` (from 1) and `field`.
fn phases_error(dir: &Path, index: usize, field: &str, message: String) -> StudyError {
    StudyError::Corrupt {
        file: dir.join(PHASES_RON).display().to_string(),
        message: format!("entry {index}, field `{field}`: {message}"),
    }
}

/// That `phases.ron` lists what a study of `spec` records: the first of its phases in order
/// (each budget of the spec, tune, evolve, validate), each once, and a champion for an
/// evolution only. Its games and champions are checked against the phases' folders as each
/// phase is reached ([`record`], [`finished_evolution`]).
fn check_phases(spec: &StudySpec, dir: &Path, done: &[PhaseDone]) -> Result<(), StudyError> {
    let order: Vec<(u32, Phase)> = spec
        .budgets
        .iter()
        .flat_map(|&b| Phase::ALL.map(|p| (b, p)))
        .collect();
    for (i, p) in done.iter().enumerate() {
        let bad = |field: &str, message: String| phases_error(dir, i + 1, field, message);
        let name = format!("{} at {} simulations", p.phase.folder(), p.budget);
        if !spec.budgets.contains(&p.budget) {
            return Err(bad(
                "budget",
                format!(
                    "{} is not one of the spec's budgets {:?}",
                    p.budget, spec.budgets
                ),
            ));
        }
        if done[..i]
            .iter()
            .any(|q| q.budget == p.budget && q.phase == p.phase)
        {
            return Err(bad("phase", format!("{name} is recorded twice")));
        }
        if let Some(&(budget, phase)) = order.get(i).filter(|&&o| o != (p.budget, p.phase)) {
            return Err(bad(
                "phase",
                format!(
                    "{name}, but the study's phase {} is {} at {budget} simulations",
                    i + 1,
                    phase.folder()
                ),
            ));
        }
        match (p.phase, &p.champion) {
            (Phase::Evolve, None) => {
                return Err(bad("champion", format!("{name} names no champion")));
            }
            (Phase::Tune | Phase::Validate, Some(_)) => {
                return Err(bad(
                    "champion",
                    format!("{name} names one, but only an evolution has a champion"),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A finished evolution at `budget`, as its folder holds it (not played again, so its
/// re-estimate is not replayed): the champion its `champion.txt` names and the games it
/// played, counted from its generation files (with `runs` above 1, those of its runs and its
/// tournament's, which `phases.ron` states and is checked against: at most the tournament's
/// budget). [`record`] compares both with what `phases.ron` states.
fn finished_evolution(
    spec: &StudySpec,
    budget: u32,
    c_e: f64,
    dir: &Path,
    stated: (usize, u64),
) -> Result<(Formula, u64), StudyError> {
    let folder = phase_dir(dir, budget, Phase::Evolve);
    let file = folder.join(evomcts_evolve::independent::CHAMPION_TXT);
    let text = evomcts_records::runfs::read_capped_text(
        &file,
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a champion",
    )
    .map_err(|e| io_error(&file, e))?;
    let champion = Formula::parse(text.trim()).map_err(|e| StudyError::Corrupt {
        file: file.display().to_string(),
        message: format!("not a formula: {e}"),
    })?;
    let evolve = spec.evolve_spec(budget, c_e);
    let err = |source| StudyError::Evolve {
        budget,
        source: EvolveError::from(source),
    };
    if spec.runs == 1 {
        let samples = evomcts_evolve::reestimate::samples_spent(&evolve, &folder).map_err(err)?;
        return Ok((champion, 2 * samples));
    }
    let mut runs = 0;
    for i in 1..=spec.runs {
        let run = evomcts_evolve::independent::run_spec(&evolve, i);
        let run_dir = evomcts_evolve::independent::run_folder(&folder, i);
        runs += evomcts_evolve::reestimate::samples_spent(&run, &run_dir).map_err(err)?;
    }
    let tournament = TournamentSpec::with_samples(
        spec.evolve
            .tournament_samples
            .unwrap_or(evomcts_evolve::tournament::DEFAULT_SAMPLES),
    )
    .budget(spec.runs + 1);
    let (index, recorded) = stated;
    let (least, most) = (2 * runs, 2 * (runs + tournament));
    if recorded % 2 == 1 || !(least..=most).contains(&recorded) {
        return Err(phases_error(
            dir,
            index,
            "games",
            format!(
                "the evolution at {budget} simulations played {recorded}, but its runs in {} played {least} and its tournament at most {}",
                folder.display(),
                most - least
            ),
        ));
    }
    Ok((champion, recorded))
}

/// Records a finished phase (once) in `phases.ron`; a phase recorded already must state the
/// games (and the champion) its folder gives.
fn record(
    dir: &Path,
    done: &mut Vec<PhaseDone>,
    budget: u32,
    phase: Phase,
    games: u64,
    champion: Option<Formula>,
) -> Result<(), StudyError> {
    if let Some(i) = done
        .iter()
        .position(|p| p.budget == budget && p.phase == phase)
    {
        let p = &done[i];
        let name = format!("{} at {budget} simulations", phase.folder());
        let folder = phase_dir(dir, budget, phase);
        if p.games != games {
            return Err(phases_error(
                dir,
                i + 1,
                "games",
                format!(
                    "{name} played {}, but its folder {} holds {games}",
                    p.games,
                    folder.display()
                ),
            ));
        }
        if let (Some(stated), Some(found)) = (&p.champion, &champion) {
            if stated.to_string() != found.to_string() {
                return Err(phases_error(
                    dir,
                    i + 1,
                    "champion",
                    format!(
                        "{name} crowned `{stated}`, but {} names `{found}`",
                        folder
                            .join(evomcts_evolve::independent::CHAMPION_TXT)
                            .display()
                    ),
                ));
            }
        }
        return Ok(());
    }
    done.push(PhaseDone {
        budget,
        phase,
        games,
        champion,
    });
    let text = ron::ser::to_string_pretty(done, ron::ser::PrettyConfig::default())
        .expect("phases serialise");
    write_file(&dir.join(PHASES_RON), &format!("{text}\n"))
}

/// Progress lines on stderr: at each phase, the games of the finished phases, this session's
/// rate and the time left for the rest (planned games are upper bounds).
struct Progress {
    on: bool,
    started: Instant,
    /// Games at most of each phase, in order.
    planned: Vec<(u32, Phase, u64)>,
    /// Games this session played in the phases it finished.
    played_now: u64,
    phase_started: bool,
}

impl Progress {
    fn new(spec: &StudySpec, _done: &[PhaseDone], on: bool) -> Progress {
        let planned = spec
            .budgets
            .iter()
            .flat_map(|&b| {
                let games = spec.planned_games(b);
                Phase::ALL
                    .into_iter()
                    .zip(games)
                    .map(move |(p, g)| (b, p, g))
            })
            .collect();
        Progress {
            on,
            started: Instant::now(),
            planned,
            played_now: 0,
            phase_started: false,
        }
    }

    fn begin(&mut self, budget: u32, phase: Phase, done: &[PhaseDone]) {
        self.phase_started = !is_done(done, budget, phase);
        if !self.on || !self.phase_started {
            return;
        }
        let index = self
            .planned
            .iter()
            .position(|&(b, p, _)| b == budget && p == phase)
            .unwrap_or(0);
        let played: u64 = done.iter().map(|p| p.games).sum();
        let left: u64 = self.planned[index..].iter().map(|&(_, _, g)| g).sum();
        let elapsed = self.started.elapsed().as_secs_f64();
        let eta = if self.played_now > 0 {
            let rate = self.played_now as f64 / elapsed.max(1e-9);
            format!(
                "{}, ETA at most {}",
                evomcts_records::progress::rate(rate, "games"),
                evomcts_records::progress::duration(left as f64 / rate)
            )
        } else {
            "ETA once a phase has finished in this session".to_string()
        };
        evomcts_records::note!(
            "study: phase {}/{} ({} at {budget} simulations, at most {} games); {played} games played in finished phases, at most {left} left; {eta}",
            index + 1,
            self.planned.len(),
            phase.folder(),
            self.planned[index].2,
        );
    }

    fn end(&mut self, games: u64) {
        if self.phase_started {
            self.played_now += games;
        }
        self.phase_started = false;
    }
}
