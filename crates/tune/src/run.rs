//! The tuning loop: the run folder and its lock, the stored spec, the evaluations already in
//! `tune.csv` replayed through the optimiser (each row checked against the schedule), the
//! remaining steps played and appended step by step, then the recommendation, the re-estimate
//! and the outputs.

use super::outputs::{write_outputs, write_trajectory};
use super::play::{play_games, Player};
use super::recommend::{recommend, Candidate};
use super::reestimate::{reestimate, Reestimate};
use super::rows::{header, read_rows, row_text, Row, Side, TUNE_CSV};
use super::spsa::Spsa;
use super::{io_error, write_file, TuneError, TuneSpec};
use evomcts_arena::Pairing;
use evomcts_evolve::namespace::sweep_tile_seed;
use evomcts_records::runfs::{FileError, SpecFile};
use evomcts_search::ControllerSpec;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a tuning run takes besides its spec (`frame::RunOptions`; `stop_after` counts steps).
pub use evomcts_steps::frame::RunOptions as TuneOptions;

/// What a run (or this part of it) did.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOutcome {
    pub steps: usize,
    pub steps_done: usize,
    pub played_now: usize,
    /// Once every step is played: the recommendation and its re-estimate.
    pub result: Option<TuneResult>,
}

/// The end of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    pub start: Vec<f64>,
    /// The final iterate and the recommendation, natural units.
    pub last: Vec<f64>,
    pub tuned: Vec<f64>,
    pub candidates: Vec<Candidate>,
    pub chosen: usize,
    pub reestimate: Reestimate,
}

/// The path of the optimiser through the steps written: the iterate before each step
/// (scaled), each step's two evaluations (the mean score difference over its sequences), and
/// the optimiser after them.
pub(crate) struct Trajectory {
    pub iterates: Vec<Vec<f64>>,
    pub evaluations: Vec<(f64, f64)>,
    pub spsa: Spsa,
}

/// Tile seed of sequence `j` of step `step`.
pub fn step_seed(spec: &TuneSpec, step: usize, j: usize) -> u64 {
    sweep_tile_seed(spec.seed, (step * spec.seeds_per_step + j) as u64)
}

/// The natural values of the scaled point `x`.
pub(crate) fn natural(spec: &TuneSpec, x: &[f64]) -> Vec<f64> {
    spec.parameters
        .iter()
        .zip(x)
        .map(|(p, &x)| p.natural(x))
        .collect()
}

/// The optimiser at the start.
fn start_spsa(spec: &TuneSpec) -> Spsa {
    let x = spec
        .parameters
        .iter()
        .zip(spec.start())
        .map(|(p, v)| p.scaled(v))
        .collect();
    Spsa::new(spec.gains(), spec.seed, x)
}

/// The step's rows in order: for each sequence, the `plus` point then the `minus` point.
fn schedule(spec: &TuneSpec, step: usize, spsa: &Spsa) -> Vec<(Side, Vec<f64>, u64)> {
    let probe = spsa.probe();
    let (plus, minus) = (natural(spec, &probe.plus), natural(spec, &probe.minus));
    (0..spec.seeds_per_step)
        .flat_map(|j| {
            let seed = step_seed(spec, step, j);
            [
                (Side::Plus, plus.clone(), seed),
                (Side::Minus, minus.clone(), seed),
            ]
        })
        .collect()
}

/// The step's evaluation of each point: the mean score difference over its sequences.
fn evaluations(rows: &[Row]) -> (f64, f64) {
    let mean = |side: Side| {
        let d: Vec<f64> = rows
            .iter()
            .filter(|r| r.side == side)
            .map(Row::difference)
            .collect();
        d.iter().sum::<f64>() / d.len().max(1) as f64
    };
    (mean(Side::Plus), mean(Side::Minus))
}

/// Replays complete steps of `rows` through the optimiser, checking every row is the one the
/// schedule plays; returns the path and the number of rows kept.
fn replay(spec: &TuneSpec, rows: &[Row], file: &Path) -> Result<(Trajectory, usize), TuneError> {
    let per_step = 2 * spec.seeds_per_step;
    let done = (rows.len() / per_step).min(spec.steps());
    let mut spsa = start_spsa(spec);
    let mut path = Trajectory {
        iterates: Vec::with_capacity(done),
        evaluations: Vec::with_capacity(done),
        spsa: spsa.clone(),
    };
    for step in 0..done {
        let probe = spsa.probe();
        let these = &rows[step * per_step..(step + 1) * per_step];
        for (k, (row, (side, values, seed))) in
            these.iter().zip(schedule(spec, step, &spsa)).enumerate()
        {
            if row.step != step || row.side != side || row.values != values || row.tile_seed != seed
            {
                return Err(FileError::corrupt(
                    file,
                    step * per_step + k + 2,
                    "does not belong to this spec's schedule",
                )
                .into());
            }
        }
        let (plus, minus) = evaluations(these);
        path.iterates.push(spsa.x.clone());
        path.evaluations.push((plus, minus));
        spsa.update(&probe, plus, minus);
    }
    path.spsa = spsa;
    Ok((path, done * per_step))
}

/// Checks the stored spec against this one and writes it into a new folder.
fn check_stored_spec(dir: &Path, spec_text: &str, resume: bool) -> Result<(), TuneError> {
    let spec_file = dir.join("spec.ron");
    let tune_file = dir.join(TUNE_CSV);
    let dir_name = dir.display().to_string();
    match evomcts_records::runfs::read_capped_text(
        &spec_file,
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a spec",
    ) {
        Ok(old) if old != spec_text => Err(TuneError::SpecChanged { dir: dir_name }),
        Ok(_) if !resume && tune_file.exists() => Err(TuneError::AlreadyStarted { dir: dir_name }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error(&spec_file, e)),
        Err(_) if tune_file.exists() => Err(TuneError::SpecMissing { dir: dir_name }),
        Err(_) => write_file(&spec_file, spec_text),
    }
}

/// Runs (or resumes) the tuning run of `spec`.
pub fn run_tune(spec: &TuneSpec, opts: &TuneOptions) -> Result<TuneOutcome, TuneError> {
    run_tune_until(spec, opts, &AtomicBool::new(false))
}

/// [`run_tune`], stopping after the step under way once `cancel` is set (a resume continues
/// as if never stopped).
pub fn run_tune_until(
    spec: &TuneSpec,
    opts: &TuneOptions,
    cancel: &AtomicBool,
) -> Result<TuneOutcome, TuneError> {
    if opts.threads == Some(0) {
        return Err(TuneError::NoThreads);
    }
    let dir = &opts.out_dir;
    let _lock = evomcts_records::runfs::RunLock::open_run_folder(
        dir,
        evomcts_records::runfs::RunKind::Tuning,
        "tune",
    )?;
    check_stored_spec(dir, &spec.to_ron(), opts.resume)?;
    evomcts_steps::launch::clear_left_steps(dir, opts.srun.as_ref())?;
    let names: Vec<&str> = spec.parameters.iter().map(|p| p.name.as_str()).collect();
    let file = dir.join(TUNE_CSV);
    let rows = read_rows(&file, &names, spec.game)?;
    let (mut path, kept) = replay(spec, &rows, &file)?;
    let mut text = header(&names);
    text.push('\n');
    rows[..kept]
        .iter()
        .for_each(|r| text.push_str(&row_text(r)));
    write_file(&file, &text)?;

    let pool =
        evomcts_steps::frame::RunPool::new(opts.threads, Some(&spec.game)).expect("a thread pool");
    let player = match &opts.srun {
        Some(options) => Player::Srun {
            dir,
            options: options.clone(),
        },
        None => Player::Threads(&pool),
    };
    let steps = spec.steps();
    let first = path.iterates.len();
    let stop = opts.stop_after.unwrap_or(usize::MAX).min(steps);
    let opponent = spec.opponent();
    let mut out = evomcts_records::runfs::open_own(&file, std::fs::OpenOptions::new().append(true))
        .map_err(|e| io_error(&file, e))?;
    let mut progress = Progress::new(spec, first, stop, opts.progress);
    for step in first..stop {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let played = play_step(spec, &opponent, step, &path.spsa, &player)?;
        let (rows, runner) = played;
        let mut text = String::new();
        rows.iter().for_each(|r| text.push_str(&row_text(r)));
        out.write_all(text.as_bytes())
            .and_then(|_| out.sync_data())
            .and_then(|_| evomcts_records::runfs::check_still_in_place(&out, &file))
            .map_err(|e| io_error(&file, e))?;
        if let Some(runner) = runner {
            runner.clear()?;
        }
        let probe = path.spsa.probe();
        let (plus, minus) = evaluations(&rows);
        path.iterates.push(path.spsa.x.clone());
        path.evaluations.push((plus, minus));
        path.spsa.update(&probe, plus, minus);
        progress.step_done(step + 1, &natural(spec, &path.spsa.x));
    }
    write_trajectory(dir, spec, &path)?;
    let steps_done = path.iterates.len();
    let mut outcome = TuneOutcome {
        steps,
        steps_done,
        played_now: steps_done - first,
        result: None,
    };
    if steps_done < steps {
        return Ok(outcome);
    }
    let (candidates, chosen) = recommend(
        &path.iterates,
        &path
            .evaluations
            .iter()
            .map(|(p, m)| (p + m) / 2.0)
            .collect::<Vec<_>>(),
        spec.recommend_blocks,
    );
    let tuned = natural(spec, &candidates[chosen].x);
    let measured = reestimate(spec, &tuned, opts)?;
    let result = TuneResult {
        start: spec.start(),
        last: natural(spec, &path.spsa.x),
        tuned,
        candidates,
        chosen,
        reestimate: measured,
    };
    write_outputs(dir, spec, &result)?;
    outcome.result = Some(result);
    Ok(outcome)
}

/// The games of one step and their rows.
fn play_step(
    spec: &TuneSpec,
    opponent: &ControllerSpec,
    step: usize,
    spsa: &Spsa,
    player: &Player<'_>,
) -> Result<(Vec<Row>, Option<evomcts_steps::launch::StepRunner>), TuneError> {
    let schedule = schedule(spec, step, spsa);
    let pairing = |label: &str, values: &[f64]| Pairing {
        label: format!("step {step} {label}"),
        candidate: ControllerSpec::Mcts(spec.settings_at(values)),
        other: opponent.clone(),
    };
    let pairings = [
        pairing("plus", &schedule[0].1),
        pairing("minus", &schedule[1].1),
    ];
    let games: Vec<(usize, u64)> = schedule
        .iter()
        .map(|(side, _, seed)| (usize::from(*side == Side::Minus), *seed))
        .collect();
    let (scores, runner) = play_games(spec, &pairings, &games, step, player)?;
    let rows = schedule
        .into_iter()
        .zip(scores)
        .map(|((side, values, tile_seed), scores)| Row {
            step,
            side,
            values,
            tile_seed,
            scores,
        })
        .collect();
    Ok((rows, runner))
}

/// Progress lines on stderr: steps, games, the rate of this session and the time left for the
/// steps and the re-estimate (every step costs the same number of games; the rate is what this
/// session measured).
struct Progress {
    on: bool,
    started: Instant,
    last_note: Option<Instant>,
    first: usize,
    stop: usize,
    steps: usize,
    games_per_step: usize,
    reestimate_games: usize,
    names: Vec<String>,
}

impl Progress {
    fn new(spec: &TuneSpec, first: usize, stop: usize, on: bool) -> Progress {
        let pairings = 1 + usize::from(spec.opponent.is_some());
        Progress {
            on,
            started: Instant::now(),
            last_note: None,
            first,
            stop,
            steps: spec.steps(),
            games_per_step: spec.games_per_step(),
            reestimate_games: 2 * pairings * spec.reestimate_sequences,
            names: spec.parameters.iter().map(|p| p.name.clone()).collect(),
        }
    }

    fn step_done(&mut self, done: usize, values: &[f64]) {
        let due = self
            .last_note
            .is_none_or(|t| t.elapsed().as_secs_f64() >= 10.0);
        if !self.on || !(due || done == self.stop) {
            return;
        }
        self.last_note = Some(Instant::now());
        let elapsed = self.started.elapsed().as_secs_f64();
        let played = (done - self.first) * self.games_per_step;
        let rate = played as f64 / elapsed.max(1e-9);
        let mut left = (self.stop - done) * self.games_per_step;
        if self.stop == self.steps {
            left += self.reestimate_games;
        }
        let point: Vec<String> = self
            .names
            .iter()
            .zip(values)
            .map(|(n, v)| format!("{n} = {}", evomcts_records::escape::number(*v)))
            .collect();
        let until = if self.stop == self.steps {
            "the end of the re-estimate".to_string()
        } else {
            format!("step {}", self.stop)
        };
        evomcts_records::note!(
            "step {done}/{} ({} games), {}, {} in, ETA {} (to {until}): {}",
            self.steps,
            done * self.games_per_step,
            evomcts_records::progress::rate(rate, "games"),
            evomcts_records::progress::duration(elapsed),
            evomcts_records::progress::duration(left as f64 / rate.max(1e-9)),
            point.join(", ")
        );
    }
}
