//! Leagues, evolution runs and tuning runs into run folders, and a run folder's tables, as
//! `evomcts league`, `evomcts evolve`, `evomcts tune` and `evomcts table` produce them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Context;
use evomcts_evolve::independent::{champion, run_folder};
use evomcts_evolve::tournament::{self, TournamentSpec};
use evomcts_evolve::{run_evolution, run_independent, EvolveSpec, IndependentOptions};
use evomcts_league::{load_runs, report, run_league_with_tables, LeagueSpec, Tables};
use evomcts_records::progress::duration;
use evomcts_records::runfs::{read_capped_text, SpecFile, MAX_DATA_FILE_BYTES};
use evomcts_tune::{run_tune_until, TuneOptions, TuneSpec};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{interruptible, raise};

/// An optional count argument `name`, checked as the command line checks its flag: `None`,
/// or an int (a bool or any other type is a `TypeError` naming the argument) from `min` to
/// `max` (`EvomctsError` with the flag's range, e.g. `runs must be between 1 and 64`; without
/// `max`, at least `min`). Negative ints are refused so, not as Python's `OverflowError`.
fn count_arg(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
    min: usize,
    max: Option<usize>,
) -> PyResult<Option<usize>> {
    use pyo3::types::{PyBool, PyInt};
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "argument `{name}` must be an int, got {}",
            value.get_type().name()?
        )));
    }
    let fits = value.ge(min)? && max.map_or(Ok(true), |max| value.le(max))?;
    let n = if fits { value.extract::<usize>().ok() } else { None };
    n.map(Some).ok_or_else(|| {
        let shown = value
            .str()
            .map_or_else(|_| "a larger int".to_string(), |s| s.to_string());
        let range = match max {
            Some(max) => format!("between {min} and {max}"),
            None => format!("at least {min}"),
        };
        raise(anyhow::anyhow!(
            "invalid value for {name}: {name} must be {range}, got {}",
            evomcts_records::escape::abbreviated(&shown, 40)
        ))
    })
}

fn threads_option(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    count_arg(
        "threads",
        threads,
        1,
        Some(evomcts_records::bounds::MAX_THREADS),
    )
}

/// Runs (or with ``resume`` continues) the league of ``spec_path`` into the folder ``out``
/// and writes its tables there, as ``evomcts league SPEC --out OUT`` does. Returns counts of
/// the games played now and already recorded.
#[pyfunction]
#[pyo3(signature = (spec_path, out, *, threads=None, resume=false, quiet=false))]
fn run_league<'py>(
    py: Python<'py>,
    spec_path: PathBuf,
    out: PathBuf,
    threads: Option<Bound<'py, PyAny>>,
    resume: bool,
    quiet: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_option(threads.as_ref())?;
    let spec = LeagueSpec::from_file(&spec_path).map_err(raise)?;
    let opts = evomcts_league::RunOptions {
        out_dir: out.clone(),
        resume,
        threads,
        progress: !quiet,
        max_games: None,
        shard: None,
    };
    let cancel = AtomicBool::new(false);
    let (outcome, _tables) = interruptible(py, &cancel, || {
        run_league_with_tables(&spec, &opts, &cancel)
    })?
    .map_err(raise)?;
    let result = PyDict::new(py);
    result.set_item("games", outcome.games.len())?;
    result.set_item("played_now", outcome.played_now)?;
    result.set_item("already_recorded", outcome.already_recorded)?;
    result.set_item("duplicates", outcome.duplicates)?;
    result.set_item("dropped_torn_line", outcome.dropped_torn_line)?;
    Ok(result)
}

/// Runs (or with ``resume`` continues) the evolution of ``spec_path`` into the folder ``out``,
/// as ``evomcts evolve SPEC --out OUT`` does, stopping once generation ``stop_after`` is
/// written if given. Returns the last generation's champion and counts. Ctrl-C stops it after
/// the generation under way is written; ``resume=True`` continues it as if never stopped.
///
/// With ``runs=K``, as ``evomcts evolve SPEC --runs K --out OUT`` does: K independent runs into
/// ``OUT/run-1`` … ``OUT/run-K`` and, once all are finished, their tournament (see
/// [`evolve_independent`]).
#[pyfunction]
#[pyo3(signature = (spec_path, out, *, threads=None, resume=false, stop_after=None, quiet=false, runs=None, tournament_samples=None))]
#[allow(clippy::too_many_arguments)]
fn evolve<'py>(
    py: Python<'py>,
    spec_path: PathBuf,
    out: PathBuf,
    threads: Option<Bound<'py, PyAny>>,
    resume: bool,
    stop_after: Option<Bound<'py, PyAny>>,
    quiet: bool,
    runs: Option<Bound<'py, PyAny>>,
    tournament_samples: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_option(threads.as_ref())?;
    let stop_after = count_arg("stop_after", stop_after.as_ref(), 0, None)?;
    let runs = count_arg(
        "runs",
        runs.as_ref(),
        1,
        Some(evomcts_evolve::independent::MAX_RUNS),
    )?;
    let tournament_samples = count_arg(
        "tournament_samples",
        tournament_samples.as_ref(),
        2,
        Some(tournament::MAX_SAMPLES),
    )?;
    let spec = EvolveSpec::from_file(&spec_path).map_err(raise)?;
    if let Some(k) = runs {
        let tournament =
            tournament_samples.map_or_else(TournamentSpec::default, TournamentSpec::with_samples);
        let opts = IndependentOptions {
            out_dir: out,
            resume,
            threads,
            progress: !quiet,
            stop_after,
            srun: None,
            tournament,
        };
        return evolve_independent(py, &spec, k, opts);
    }
    if tournament_samples.is_some() {
        return Err(raise(anyhow::anyhow!(
            "tournament_samples is for runs=K (the tournament of independent runs)"
        )));
    }
    let last_wanted = stop_after
        .unwrap_or(usize::MAX)
        .min(spec.strategy.generations);
    let cancel = AtomicBool::new(false);
    // One generation per call of the library's run, each call a resume of the last: a resumed
    // run is byte for byte the uninterrupted one, and between generations Ctrl-C can stop it.
    let run = |resume: bool, generation: usize| {
        run_evolution(
            &spec,
            &evomcts_evolve::RunOptions {
                out_dir: out.clone(),
                resume,
                threads,
                progress: false,
                stop_after: Some(generation),
                // Python runs on the caller's machine; an allocation is the command line's job.
                srun: None,
            },
        )
    };
    let started = Instant::now();
    let outcome = interruptible(py, &cancel, || -> anyhow::Result<_> {
        let first = run(resume, 0)?;
        let (resumed_from, mut generations_run) = (first.resumed_from, first.generations_run);
        let mut last = first.last;
        let done_before = last.generation;
        while last.generation < last_wanted && !cancel.load(Ordering::Relaxed) {
            let next = run(true, last.generation + 1)?;
            generations_run += next.generations_run;
            last = next.last;
            if !quiet {
                let elapsed = started.elapsed().as_secs_f64();
                let per_generation = elapsed / (last.generation - done_before) as f64;
                let c = &last.champion;
                evomcts_records::note!(
                    "gen {:>3}/{}  best {:.3}  mean {:.3}  champion #{} {}: {}  [{} elapsed, ETA {} at the mean generation's time]",
                    last.generation,
                    spec.strategy.generations,
                    last.best,
                    last.mean,
                    c.id,
                    c.fitness,
                    c.formula,
                    duration(elapsed),
                    duration(per_generation * (last_wanted - last.generation) as f64),
                );
            }
        }
        Ok((last, resumed_from, generations_run))
    })?
    .map_err(raise)?;
    let (last, resumed_from, generations_run) = outcome;
    let result = PyDict::new(py);
    result.set_item("generation", last.generation)?;
    result.set_item("generations", spec.strategy.generations)?;
    result.set_item("generations_run", generations_run)?;
    result.set_item("resumed_from", resumed_from)?;
    result.set_item("samples_spent", last.samples_spent)?;
    result.set_item("champion", last.champion.formula.to_string())?;
    result.set_item("champion_fitness", last.champion.fitness.to_string())?;
    result.set_item("reference", last.reference.formula.to_string())?;
    result.set_item("reference_fitness", last.reference.fitness.to_string())?;
    Ok(result)
}

/// K independent runs and their tournament, one generation of every run per call of the
/// library's `run_independent` (each a resume of the last), so Ctrl-C stops it once every run
/// has written the generation under way; the tournament, after the last generation, plays
/// whole. Returns each run's folder, generation and champion and, once played, the crowned
/// formula with the tournament's files.
fn evolve_independent<'py>(
    py: Python<'py>,
    spec: &EvolveSpec,
    k: usize,
    mut opts: IndependentOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let last_wanted = opts
        .stop_after
        .unwrap_or(usize::MAX)
        .min(spec.strategy.generations);
    let cancel = AtomicBool::new(false);
    let outcome = interruptible(py, &cancel, || -> anyhow::Result<_> {
        let mut generation = 0;
        loop {
            opts.stop_after = Some(generation);
            let outcome = run_independent(spec, k, &opts)?;
            opts.resume = true;
            let reached = outcome
                .runs
                .iter()
                .map(|r| r.last.generation)
                .min()
                .unwrap_or(0);
            if reached >= last_wanted || cancel.load(Ordering::Relaxed) {
                return Ok(outcome);
            }
            generation = reached + 1;
        }
    })?
    .map_err(raise)?;
    let result = PyDict::new(py);
    let runs = pyo3::types::PyList::empty(py);
    for (i, run) in outcome.runs.iter().enumerate() {
        let entry = PyDict::new(py);
        entry.set_item("folder", run_folder(&opts.out_dir, i + 1))?;
        entry.set_item("generation", run.last.generation)?;
        entry.set_item("champion", champion(run).to_string())?;
        runs.append(entry)?;
    }
    result.set_item("runs", runs)?;
    result.set_item("generations", spec.strategy.generations)?;
    if let Some(t) = &outcome.tournament {
        let crowned = &t.standings[t.crowned];
        result.set_item("crowned", crowned.entrant.formula.to_string())?;
        result.set_item("crowned_sources", crowned.entrant.sources.clone())?;
        result.set_item("crowned_fitness", crowned.fitness.to_string())?;
        result.set_item(
            "tournament_csv",
            opts.out_dir.join(tournament::TOURNAMENT_CSV),
        )?;
        result.set_item(
            "tournament_md",
            opts.out_dir.join(tournament::TOURNAMENT_MD),
        )?;
    }
    Ok(result)
}

/// Runs (or with ``resume`` continues) the tuning run of ``spec_path`` into the folder ``out``,
/// as ``evomcts tune SPEC --out OUT`` does, stopping once step ``stop_after`` is written if
/// given. Ctrl-C stops it after the step under way is written; ``resume=True`` continues it as
/// if never stopped. Returns the steps done and, once every step is played, the starting and
/// tuned values by parameter name and the re-estimate's paired difference (tuned − start).
#[pyfunction]
#[pyo3(signature = (spec_path, out, *, threads=None, resume=false, stop_after=None, quiet=false))]
fn tune<'py>(
    py: Python<'py>,
    spec_path: PathBuf,
    out: PathBuf,
    threads: Option<Bound<'py, PyAny>>,
    resume: bool,
    stop_after: Option<Bound<'py, PyAny>>,
    quiet: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_option(threads.as_ref())?;
    let stop_after = count_arg("stop_after", stop_after.as_ref(), 0, None)?;
    let spec = TuneSpec::from_file(&spec_path).map_err(raise)?;
    let opts = TuneOptions {
        out_dir: out,
        resume,
        threads,
        progress: !quiet,
        stop_after,
        // Python runs on the caller's machine; an allocation is the command line's job.
        srun: None,
    };
    let cancel = AtomicBool::new(false);
    let outcome =
        interruptible(py, &cancel, || run_tune_until(&spec, &opts, &cancel))?.map_err(raise)?;
    let result = PyDict::new(py);
    result.set_item("steps", outcome.steps)?;
    result.set_item("steps_done", outcome.steps_done)?;
    result.set_item("played_now", outcome.played_now)?;
    if let Some(r) = &outcome.result {
        let values = |v: &[f64]| -> PyResult<Bound<'py, PyDict>> {
            let d = PyDict::new(py);
            for (p, x) in spec.parameters.iter().zip(v) {
                d.set_item(&p.name, x)?;
            }
            Ok(d)
        };
        result.set_item("start", values(&r.start)?)?;
        result.set_item("tuned", values(&r.tuned)?)?;
        let e = &r.reestimate;
        result.set_item("reestimate_sequences", e.sequences)?;
        result.set_item(
            "paired_difference",
            (e.paired_mean, e.paired_low, e.paired_high),
        )?;
        result.set_item("paired_p", e.paired_p)?;
    }
    Ok(result)
}

/// The tables of a run folder as CSV text by name: for a league folder (``spec.ron`` and
/// ``games.jsonl``) the tables ``evomcts table`` writes, recomputed from the records
/// (``games``, ``standings``, ``ratings``, ``matches``, ...); for an evolution folder, its
/// ``logbook`` and ``hall_of_fame``. The key ``kind`` says which: ``"league"`` or
/// ``"evolution"``.
#[pyfunction]
fn run_tables(path: PathBuf) -> PyResult<Vec<(String, String)>> {
    if evomcts_league::record_path(&path).exists() || !path.join("logbook.csv").exists() {
        let (spec, games, _merge) = load_runs(std::slice::from_ref(&path)).map_err(raise)?;
        let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, &games);
        let mut out = vec![("kind".to_string(), "league".to_string())];
        for (name, table) in report::csv_tables(&tables) {
            out.push((name.trim_end_matches(".csv").to_string(), table.to_csv()));
        }
        return Ok(out);
    }
    let mut out = vec![("kind".to_string(), "evolution".to_string())];
    for (name, file) in [
        ("logbook", evomcts_evolve::report::LOGBOOK),
        ("hall_of_fame", evomcts_evolve::report::HALL_OF_FAME),
    ] {
        let file = path.join(file);
        let text = read_capped_text(&file, MAX_DATA_FILE_BYTES, "a table")
            .with_context(|| format!("cannot read {}", file.display()))
            .map_err(raise)?;
        out.push((name.to_string(), text));
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_league, m)?)?;
    m.add_function(wrap_pyfunction!(evolve, m)?)?;
    m.add_function(wrap_pyfunction!(tune, m)?)?;
    m.add_function(wrap_pyfunction!(run_tables, m)?)?;
    Ok(())
}
