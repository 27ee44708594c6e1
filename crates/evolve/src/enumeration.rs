//! An enumeration run: a search beside the evolution strategy that writes every form the
//! grammar writes, keeps one per behaviour, and races them (`enumerate: (..)` in an evolution
//! spec).
//!
//! 1. **Enumerate** every form of at most `max_nodes` nodes (`formula::enumerate`: simplified,
//!    canonical, numeric leaves as placeholders `{W1}` …).
//! 2. **Group** the forms by the child they pick on every sibling set of a bank
//!    (`formula::behaviour`, placeholders at each of `values` in turn), one representative per
//!    class, the simplest. The bank is recorded at the run's start from the run's game as
//!    functional hashing records it (`hashing::record_bank`), or drawn from the synthetic
//!    distribution for the planted control (another seed than the control's truth), and kept in
//!    `fingerprint-bank.csv`, read back on resume.
//! 3. **Candidates**: each class's representative with every placeholder at each of `values`
//!    (once, for a form without placeholders), dropping a candidate that picks on the bank as an
//!    earlier one does, so `Q + H` and `Q + {W1}*H` at 1 race once, and `Q + {W1}*H` at 0.25,
//!    where it picks otherwise, races too. With more candidates than `max_candidates` the run is
//!    refused, naming the space's size, unless `sample: true`, when `max_candidates` of them are
//!    drawn uniformly (seeded) and raced in the enumeration's order.
//! 4. **Race** the candidates by successive halving (`halving`) on common sample seeds: sample i
//!    of every candidate plays seed i.
//! 5. **Fit** each finalist's constants (one to four placeholders) with CLOP (`clop`), every
//!    placeholder on a log scale from `low` to `high`, `games` samples on fresh seeds, drawn
//!    `batch` points at a time so the run is the same on any number of threads; a finalist with
//!    more placeholders, or none, keeps the race's values.
//! 6. **Final race**: the seed formula and every finalist (fitted) on fresh seeds; each
//!    finalist's paired differences to the seed tested one-sided by Wilcoxon's signed-rank
//!    test, Holm-adjusted over the finalists (`halving::final_race`). The champion is the
//!    finalist Holm declares better with the largest mean difference, else the seed formula.
//!
//! Seeds: the race's, the fit's and the final race's sample seeds are separate streams derived
//! from the master seed (`runfs::derive_seed`), in evolution's namespace like every evolution
//! sample. Every sample is played where the run says (this machine's threads, or Slurm job
//! steps: `run::play_on`), and every random choice is seeded, so the results do not depend on
//! the thread count. Resume: each round of the race and each batch of a fit is written before
//! the next is played (`enumeration_files`), and a resumed run replays them, checking each
//! against the schedule, so a run stopped anywhere (kill -9 included) and resumed writes the
//! same bytes as one never stopped.

use super::clop::{Clop, Settings};
use super::enumerate_spec::{ClopFitSpec, EnumerateSpec};
use super::enumeration_files::{
    line, read_fit, read_race, write_fit, write_race, Candidate, EnumerationOutcome, FinalEntry,
    Finalist, FitSample, RaceSample, CANDIDATES_CSV, CANDIDATES_HEADER, CLASSES_CSV,
    CLASSES_HEADER, SUMMARY_MD,
};
use super::enumeration_report::{summary, write_final, Progress};
use super::error::EvolveError;
use super::fitness::{Estimate, Request};
use super::halving::{final_race, successive_halving, HalvingRound};
use super::hashing::{bank_csv, parse_bank, record_bank, BANK_FILE};
use super::population::{champion_text_path, write_atomically, PopulationError};
use super::resume::open_history;
use super::run::{check_run, play_on, RunOptions};
use super::spec::{EvolveSpec, FitnessSpec, Score};
use evomcts_formula::{enumerate, group_terms, BehaviourClass, Formula, SiblingSets};
use evomcts_records::escape::csv;
use evomcts_records::runfs::{derive_seed, RunKind, RunLock};
use evomcts_steps::launch::StepRunner;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::path::Path;

/// Streams of derived seeds, one per purpose (apart from evolution's, 1 to 3).
const SAMPLE: u64 = 21;
const RACE: u64 = 22;
const FIT: u64 = 23;
const FIT_CLOP: u64 = 24;
const FINAL: u64 = 25;

/// Runs the enumeration of `spec` in `opts.out_dir` (see the module documentation).
pub fn run_enumeration(
    spec: &EvolveSpec,
    opts: &RunOptions,
) -> Result<EnumerationOutcome, EvolveError> {
    let Some(e) = &spec.enumerate else {
        return Err(invalid(
            "enumerate",
            "this spec is an evolution's: run it with run_evolution",
        ));
    };
    let grammar = check_run(spec, opts)?;
    let dir = &opts.out_dir;
    let _lock = RunLock::open_run_folder(
        dir,
        RunKind::Evolution,
        &format!("enumerate `{}`", spec.name),
    )?;
    open_history(spec, dir, true, &spec.hash())?;
    let stored = read_race(dir)?;
    let fits = read_fit(dir)?;
    let resumed = !stored.is_empty() || !fits.is_empty();
    if resumed && !opts.resume {
        return Err(EvolveError::Enumeration(format!(
            "{} already holds an enumeration's race; pass --resume to continue it, or choose \
             another --out",
            dir.display()
        )));
    }
    evomcts_steps::launch::clear_left_steps(dir, opts.srun.as_ref())?;
    let pool = evomcts_steps::frame::RunPool::new(opts.threads, spec.fitness.pool_game().as_ref())
        .expect("a thread pool");
    let runner = opts.srun.clone().map(|o| StepRunner::new(dir, o));
    let bank = open_bank(spec, e, dir)?;
    let enumeration = enumerate(&grammar, e.max_nodes, e.cap)
        .map_err(|err| invalid("enumerate.max_nodes", &err.to_string()))?;
    let base = e.add_to.as_ref();
    let classes = group_terms(enumeration.forms(), &bank, &e.values, base);
    let candidates = candidates_of(&classes, &bank, &e.values, base);
    let raced = choose_candidates(
        spec,
        e,
        &candidates,
        classes.len(),
        enumeration.forms().len(),
    )?;
    write_classes(dir, &classes, &candidates, &raced)?;
    let play = Player {
        spec,
        base: e.add_to.as_ref(),
        steps: runner.as_ref(),
        progress: Progress::new(opts.progress, e.samples()),
    };
    play.progress.note(format!(
        "enumerate `{}`: {} trees written up to {} nodes, {} forms, {} classes on {} sibling sets, {} candidates; racing {}",
        spec.name,
        enumeration.written(),
        e.max_nodes,
        enumeration.forms().len(),
        classes.len(),
        bank.len(),
        candidates.len(),
        raced.len()
    ));
    let race = pool.install(|| race_candidates(&play, dir, e, &candidates, &raced, stored))?;
    let (finalists, fit_spent) =
        pool.install(|| fit_finalists(&play, dir, e, &classes, &candidates, &race, fits))?;
    let (seed, finals, final_spent) = pool.install(|| final_race_of(&play, e, &finalists))?;
    let champion = crown(spec, &finalists, &finals);
    let result = EnumerationOutcome {
        written: enumeration.written(),
        forms: enumeration.forms().len(),
        classes: classes.len(),
        candidates: candidates.len(),
        raced: raced.len(),
        rounds: race.rounds,
        finalists,
        seed,
        finals,
        champion,
        samples: [race.spent, fit_spent, final_spent],
        resumed,
    };
    write_final(dir, spec, &result)?;
    write_atomically(&dir.join(SUMMARY_MD), &summary(spec, e, &result))?;
    write_atomically(&champion_text_path(dir), &format!("{}\n", result.champion))?;
    Ok(result)
}

fn invalid(field: &str, message: &str) -> EvolveError {
    EvolveError::Spec(evomcts_records::runfs::SpecFileError::Invalid {
        file: "<spec>".into(),
        field: field.into(),
        message: message.into(),
    })
}

/// The bank in `dir`, or recorded (`bank::record_bank`: from the game, or synthetic for the
/// planted control) and written there.
fn open_bank(spec: &EvolveSpec, e: &EnumerateSpec, dir: &Path) -> Result<SiblingSets, EvolveError> {
    let path = dir.join(BANK_FILE);
    if path.is_file() {
        let text = evomcts_records::runfs::read_capped_text(
            &path,
            evomcts_records::runfs::MAX_DATA_FILE_BYTES,
            "a fingerprint bank",
        )
        .map_err(|source| PopulationError::Io {
            file: path.display().to_string(),
            source,
        })?;
        let bank = parse_bank(&text, &path.display().to_string())?;
        if bank.len() != e.bank {
            return Err(PopulationError::Inconsistent {
                file: path.display().to_string(),
                message: format!(
                    "holds {} sibling sets, the spec asks for {} (left untouched)",
                    bank.len(),
                    e.bank
                ),
            }
            .into());
        }
        return Ok(bank);
    }
    if matches!(spec.fitness, FitnessSpec::Bandit(_) | FitnessSpec::Mixed(_)) {
        return Err(invalid(
            "fitness",
            "an enumeration races on one game (or the planted control): the bandit has no \
             sibling sets to group on, and a mix of games is not supported yet",
        ));
    }
    let bank = record_bank(spec, e.bank).map_err(|m| invalid("enumerate.bank", &m))?;
    write_atomically(&path, &bank_csv(&bank))?;
    Ok(bank)
}

/// Each class at each of `values` (at the first only, without placeholders), in class order,
/// a candidate that picks on `bank` as an earlier one does left out.
fn candidates_of(
    classes: &[BehaviourClass],
    bank: &SiblingSets,
    values: &[f64],
    base: Option<&Formula>,
) -> Vec<Candidate> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(classes.len());
    for (class, c) in classes.iter().enumerate() {
        let form = &c.representative;
        let tried = if form.placeholders() == 0 {
            &values[..1]
        } else {
            values
        };
        for &value in tried {
            let formula = form.term_of(base, &[value]);
            let compiled = evomcts_formula::CompiledFormula::new(&formula)
                .expect("a form of at most enumerate::MAX_NODES nodes compiles, alone or added to a base the spec checked");
            if seen.insert(evomcts_formula::fingerprint(&compiled, bank)) {
                out.push(Candidate {
                    class,
                    value,
                    formula,
                });
            }
        }
    }
    out
}

/// The candidates the race holds (indices, ascending): all of them, or a uniform sample of
/// `max_candidates` when the spec allows it; a space too large otherwise is refused with its
/// size.
fn choose_candidates(
    spec: &EvolveSpec,
    e: &EnumerateSpec,
    candidates: &[Candidate],
    classes: usize,
    forms: usize,
) -> Result<Vec<usize>, EvolveError> {
    let n = candidates.len();
    if n <= e.max_candidates {
        return Ok((0..n).collect());
    }
    if !e.sample {
        return Err(EvolveError::Enumeration(format!(
            "{forms} forms of at most {} nodes fall into {classes} classes, {n} candidates at \
             the values {:?}, more than max_candidates ({}): raise max_candidates (and \
             race.budget), set `sample: true` to race {} of them drawn uniformly, or enumerate \
             fewer nodes",
            e.max_nodes, e.values, e.max_candidates, e.max_candidates
        )));
    }
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(spec.seed, &[SAMPLE]));
    let mut chosen = rand::seq::index::sample(&mut rng, n, e.max_candidates).into_vec();
    chosen.sort_unstable();
    Ok(chosen)
}

/// `enumeration-classes.csv` (every class) and `enumeration-candidates.csv` (every candidate,
/// whether it raced).
fn write_classes(
    dir: &Path,
    classes: &[BehaviourClass],
    candidates: &[Candidate],
    raced: &[usize],
) -> Result<(), EvolveError> {
    let mut out = String::from(CLASSES_HEADER);
    out.push('\n');
    for (i, c) in classes.iter().enumerate() {
        out.push_str(&line(&[
            i.to_string(),
            c.members.to_string(),
            c.representative.size().to_string(),
            c.representative.placeholders().to_string(),
            format!("{:016x}", c.fingerprint),
            csv(c.representative.text()),
        ]));
    }
    write_atomically(&dir.join(CLASSES_CSV), &out)?;
    let mut out = String::from(CANDIDATES_HEADER);
    out.push('\n');
    let mut next = raced.iter().peekable();
    for (i, c) in candidates.iter().enumerate() {
        let is_raced = next.peek() == Some(&&i);
        if is_raced {
            next.next();
        }
        out.push_str(&line(&[
            i.to_string(),
            c.class.to_string(),
            evomcts_records::escape::csv_number(c.value),
            is_raced.to_string(),
            csv(&c.formula.to_string()),
        ]));
    }
    Ok(write_atomically(&dir.join(CANDIDATES_CSV), &out)?)
}

/// Where samples are played, and the progress lines.
struct Player<'a> {
    spec: &'a EvolveSpec,
    /// The formula every form is a term of, if any (`enumerate.add_to`).
    base: Option<&'a Formula>,
    steps: Option<&'a StepRunner>,
    progress: Progress,
}

impl Player<'_> {
    /// The samples of each formula on its seeds.
    fn play(&self, jobs: &[(Formula, Vec<u64>)]) -> Result<Vec<Vec<f64>>, EvolveError> {
        let requests: Vec<Request<'_>> = jobs
            .iter()
            .map(|(formula, seeds)| Request { formula, seeds })
            .collect();
        play_on(self.steps, &self.spec.fitness, &requests, &|| {
            self.progress.sample_done()
        })
    }

    /// The sample seed at `path` under the master seed (a stream, then indices).
    fn seed(&self, path: &[u64]) -> u64 {
        derive_seed(self.spec.seed, path)
    }
}

/// What the race leaves: its rounds (entrants as candidate rows), the finalists best first with
/// their race means, and the samples it spent.
struct Raced {
    rounds: Vec<HalvingRound>,
    finalists: Vec<(usize, Option<f64>)>,
    spent: u64,
}

/// The race: successive halving over the raced candidates, replaying the rounds stored in
/// `dir`.
fn race_candidates(
    play: &Player,
    dir: &Path,
    e: &EnumerateSpec,
    candidates: &[Candidate],
    raced: &[usize],
    stored: Vec<RaceSample>,
) -> Result<Raced, EvolveError> {
    let formulas: Vec<&Formula> = raced.iter().map(|&c| &candidates[c].formula).collect();
    let mut written = stored;
    let mut cursor = 0;
    let mut round = 0;
    let halving = super::halving::HalvingSpec {
        budget: e.race.budget,
        keep: e.race.keep,
    };
    let outcome = successive_halving(raced.len(), &halving, |alive, range| {
        round += 1;
        let expected = alive.len() * range.len();
        let values = if cursor < written.len() {
            let end = (cursor + expected).min(written.len());
            let values = replay_round(round, alive, raced, range.clone(), &written[cursor..end])
                .map_err(|m| inconsistent(dir, super::enumeration_files::RACE_CSV, m))?;
            cursor = end;
            values
        } else {
            let jobs: Vec<(Formula, Vec<u64>)> = alive
                .iter()
                .map(|&i| {
                    let seeds = range
                        .clone()
                        .map(|j| play.seed(&[RACE, j as u64]))
                        .collect();
                    (formulas[i].clone(), seeds)
                })
                .collect();
            let values = play.play(&jobs)?;
            for (&i, v) in alive.iter().zip(&values) {
                for (j, &value) in range.clone().zip(v) {
                    written.push(RaceSample {
                        round,
                        candidate: raced[i],
                        sample: j,
                        value,
                    });
                }
            }
            cursor = written.len();
            write_race(dir, &written)?;
            values
        };
        play.progress.round(round, alive.len(), range.len());
        Ok::<_, EvolveError>(values)
    })?;
    if cursor != written.len() {
        return Err(inconsistent(
            dir,
            super::enumeration_files::RACE_CSV,
            format!(
                "holds {} race samples beyond this spec's race",
                written.len() - cursor
            ),
        ));
    }
    let last = outcome.rounds.last();
    let mean_of =
        |i: usize| last.and_then(|r| r.alive.iter().position(|&a| a == i).map(|k| r.means[k]));
    let finalists = outcome
        .finalists
        .iter()
        .map(|&i| (raced[i], mean_of(i)))
        .collect();
    let rounds = outcome
        .rounds
        .into_iter()
        .map(|r| HalvingRound {
            alive: r.alive.iter().map(|&i| raced[i]).collect(),
            ..r
        })
        .collect();
    Ok(Raced {
        rounds,
        finalists,
        spent: outcome.spent as u64,
    })
}

fn inconsistent(dir: &Path, file: &str, message: String) -> EvolveError {
    PopulationError::Inconsistent {
        file: dir.join(file).display().to_string(),
        message: format!("{message} (left untouched; remove it to play that part again)"),
    }
    .into()
}

/// A stored round's values, each row checked against the schedule (`round`, the candidate, the
/// sample index, in the order the race plays them).
fn replay_round(
    round: usize,
    alive: &[usize],
    raced: &[usize],
    range: std::ops::Range<usize>,
    rows: &[RaceSample],
) -> Result<Vec<Vec<f64>>, String> {
    let mut rows = rows.iter();
    let mut out = Vec::with_capacity(alive.len());
    for &i in alive {
        let mut values = Vec::with_capacity(range.len());
        for j in range.clone() {
            match rows.next() {
                Some(r) if r.round == round && r.candidate == raced[i] && r.sample == j => {
                    values.push(r.value)
                }
                found => {
                    return Err(format!(
                        "round {round}: expected candidate {} sample {j}, found {}",
                        raced[i],
                        found.map_or("the end of the file".to_string(), |r| format!(
                            "round {} candidate {} sample {}",
                            r.round, r.candidate, r.sample
                        ))
                    ))
                }
            }
        }
        out.push(values);
    }
    Ok(out)
}

/// CLOP's score of a sample: a win rate as it is; a score difference as a win (1), a draw (½)
/// or a loss (0).
fn clop_score(fitness: &FitnessSpec, value: f64) -> f64 {
    match fitness {
        FitnessSpec::Games(g) if g.score == Score::ScoreDiff => {
            if value > 0.0 {
                1.0
            } else if value < 0.0 {
                0.0
            } else {
                0.5
            }
        }
        _ => value,
    }
}

/// A point of [0, 1]^d in natural units: `low · (high/low)^x` in each dimension.
fn natural(fit: &ClopFitSpec, point: &[f64]) -> Vec<f64> {
    point
        .iter()
        .map(|&x| fit.low * (fit.high / fit.low).powf(x))
        .collect()
}

/// Every finalist's formula for the final race: its constants fitted by CLOP when the spec
/// asks and it has one to four placeholders, else as raced. Replays the fit's stored games.
fn fit_finalists(
    play: &Player,
    dir: &Path,
    e: &EnumerateSpec,
    classes: &[BehaviourClass],
    candidates: &[Candidate],
    raced: &Raced,
    stored: Vec<FitSample>,
) -> Result<(Vec<Finalist>, u64), EvolveError> {
    let mut written = stored;
    let mut cursor = 0;
    let mut spent = 0;
    let mut out = Vec::with_capacity(raced.finalists.len());
    for &(candidate, race_mean) in &raced.finalists {
        let class = candidates[candidate].class;
        let form = &classes[class].representative;
        let raced_formula = candidates[candidate].formula.clone();
        let dims = form.placeholders();
        let fit = e
            .fit
            .filter(|_| (1..=super::clop::MAX_DIMS).contains(&dims));
        let (formula, fitted) = match fit {
            None => (raced_formula.clone(), false),
            Some(fit) => {
                let point = fit_one(play, dir, &fit, candidate, form, &mut written, &mut cursor)?;
                spent += fit.games as u64;
                (
                    form.term_of(e.add_to.as_ref(), &natural(&fit, &point)),
                    true,
                )
            }
        };
        out.push(Finalist {
            candidate,
            class,
            raced: raced_formula,
            race_mean: race_mean.unwrap_or(f64::NAN),
            formula,
            fitted,
        });
    }
    if cursor != written.len() {
        return Err(inconsistent(
            dir,
            super::enumeration_files::FIT_CSV,
            format!(
                "holds {} fit games beyond this spec's fits",
                written.len() - cursor
            ),
        ));
    }
    Ok((out, spent))
}

/// CLOP on one finalist: `fit.games` samples, `fit.batch` points at a time; the recommended
/// point in [0, 1]^d.
fn fit_one(
    play: &Player,
    dir: &Path,
    fit: &ClopFitSpec,
    candidate: usize,
    form: &evomcts_formula::Form,
    written: &mut Vec<FitSample>,
    cursor: &mut usize,
) -> Result<Vec<f64>, EvolveError> {
    let dims = form.placeholders();
    let mut clop = Clop::new(
        dims,
        play.seed(&[FIT_CLOP, candidate as u64]),
        Settings::default(),
    )
    .map_err(|err| invalid("enumerate.fit", &err.to_string()))?;
    let mut game = 0;
    while game < fit.games {
        let batch = fit.batch.min(fit.games - game);
        let points: Vec<Vec<f64>> = (0..batch).map(|_| clop.next_point()).collect();
        let values = if *cursor < written.len() {
            let rows = &written[*cursor..(*cursor + batch).min(written.len())];
            let values = replay_fit(candidate, game, &points, rows)
                .map_err(|m| inconsistent(dir, super::enumeration_files::FIT_CSV, m))?;
            *cursor += batch;
            values
        } else {
            let jobs: Vec<(Formula, Vec<u64>)> = points
                .iter()
                .enumerate()
                .map(|(k, x)| {
                    let seed = play.seed(&[FIT, candidate as u64, (game + k) as u64]);
                    let formula = form.term_of(play.base, &natural(fit, x));
                    (formula, vec![seed])
                })
                .collect();
            let values: Vec<f64> = play.play(&jobs)?.into_iter().map(|v| v[0]).collect();
            for (k, (x, &value)) in points.iter().zip(&values).enumerate() {
                written.push(FitSample {
                    candidate,
                    game: game + k,
                    point: x.clone(),
                    value,
                });
            }
            *cursor = written.len();
            write_fit(dir, written)?;
            values
        };
        for (x, &v) in points.iter().zip(&values) {
            clop.observe(x, clop_score(&play.spec.fitness, v));
        }
        game += batch;
        play.progress.fit(candidate, game, fit.games);
    }
    Ok(clop.recommend())
}

/// A stored batch's values, each row checked against the schedule.
fn replay_fit(
    candidate: usize,
    game: usize,
    points: &[Vec<f64>],
    rows: &[FitSample],
) -> Result<Vec<f64>, String> {
    if rows.len() != points.len() {
        return Err(format!(
            "candidate {candidate}: the batch from game {game} is cut short"
        ));
    }
    points
        .iter()
        .zip(rows)
        .enumerate()
        .map(|(k, (x, r))| {
            if r.candidate == candidate && r.game == game + k && r.point == *x {
                Ok(r.value)
            } else {
                Err(format!(
                    "expected candidate {candidate} game {} at {x:?}, found candidate {} game {} at {:?}",
                    game + k,
                    r.candidate,
                    r.game,
                    r.point
                ))
            }
        })
        .collect()
}

/// The final race: the seed formula and every finalist on the same fresh seeds.
fn final_race_of(
    play: &Player,
    e: &EnumerateSpec,
    finalists: &[Finalist],
) -> Result<(Estimate, Vec<FinalEntry>, u64), EvolveError> {
    let seeds: Vec<u64> = (0..e.final_race.samples)
        .map(|j| play.seed(&[FINAL, j as u64]))
        .collect();
    let jobs: Vec<(Formula, Vec<u64>)> = std::iter::once(&play.spec.seed_formula)
        .chain(finalists.iter().map(|f| &f.formula))
        .map(|f| (f.clone(), seeds.clone()))
        .collect();
    let values = play.play(&jobs)?;
    let (seed, rest) = values.split_first().expect("the seed formula plays");
    let entrants: Vec<(usize, Vec<f64>)> = rest.iter().cloned().enumerate().collect();
    let rows = final_race(&entrants, seed, e.final_race.alpha);
    let finals = rows
        .into_iter()
        .map(|row| (Estimate::from_samples(&rest[row.candidate]), row))
        .collect();
    let spent = (jobs.len() * seeds.len()) as u64;
    Ok((Estimate::from_samples(seed), finals, spent))
}

/// The finalist Holm declares better than the seed with the largest mean difference (the first
/// on ties), else the seed formula.
fn crown(spec: &EvolveSpec, finalists: &[Finalist], finals: &[FinalEntry]) -> Formula {
    finals
        .iter()
        .filter(|(_, row)| row.better)
        .max_by(|(_, a), (_, b)| {
            a.mean_difference
                .total_cmp(&b.mean_difference)
                .then(b.candidate.cmp(&a.candidate))
        })
        .map_or(spec.seed_formula.clone(), |(_, row)| {
            finalists[row.candidate].formula.clone()
        })
}
