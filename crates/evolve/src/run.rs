//! The generational loop: breed, evaluate in parallel, select, give the elites more
//! samples, write the generation, repeat.
//!
//! Generation 0 is the initial population (μ mutations of the seed formula, or μ
//! copies), evaluated so it has fitness to show, plus the seed formula itself as the
//! run's reference. Generation g ≥ 1: offspring `i` is one mutation of parent `i mod μ`
//! (parents best first); every offspring is evaluated on the generation's sample seeds;
//! in (μ + λ) the parents are evaluated again on the same seeds and their samples pooled;
//! (μ, λ) keeps the μ best offspring, (μ + λ) the μ best of both, ranked by mean fitness
//! (stable: offspring, then earlier-born, win ties). Then the `elites` best survivors get
//! `elite_samples` more samples; the champion is the best of them (by mean, or by the
//! lower end of the interval: `champion`). With `noise.fit_constants` the best survivors'
//! constants are fitted first, on the generation's common samples (`fitting`). With functional hashing (`hashing`) candidates
//! that pick the same children on the run's bank of sibling sets share their samples.
//!
//! Every random choice of generation g comes from seeds derived from the master seed and
//! g, never from a stream carried across generations, so a run resumed from its last
//! written generation continues exactly as if never stopped, and sample seeds do not
//! depend on the thread count.

use super::error::EvolveError;
use super::fitness::{evaluate_all_observed, Request};
use super::fitting::{fit_with_samples, Fitted};
use super::hashing::{play_shared, Hashing};
use super::pareto;
use super::population::{
    champion_ron_path, champion_text_path, generation_path, read_generations, write_atomically,
    Champion, Generation, HashingCounts, Member, PopulationError,
};
use super::progress::Tracker;
use super::racing::race;
use super::reestimate;
use super::report::{hall_of_fame, write_reports, write_reports_of};
use super::resume::open_history;
use super::spec::FitnessSpec;
use super::spec::{EvolveSpec, ReestimateSpec, SpecFileError};
use super::work::play_fitness_steps;
use evomcts_formula::{mutate, Formula, Grammar, InitialPopulation};
use evomcts_games::GameRng;
use evomcts_records::runfs::{derive_seed, RunKind, RunLock};
use evomcts_steps::launch::StepRunner;
use rand::SeedableRng;

/// Streams of derived seeds, one per purpose.
const MUTATION: u64 = 1;
const SAMPLES: u64 = 2;
const ELITE: u64 = 3;

/// What an evolution run takes besides its spec (`frame::RunOptions`; `stop_after` is the
/// last generation written).
pub use evomcts_steps::frame::RunOptions;

/// Where a generation's samples are played, and what counts them for progress lines: the one
/// place the local and the Slurm runner differ, so racing, hashing and selection are the same
/// code for both.
struct Placement<'a> {
    tracker: &'a Tracker,
    steps: Option<&'a StepRunner>,
}

impl Placement<'_> {
    /// The samples of every request, in request order.
    fn play(
        &self,
        fitness: &FitnessSpec,
        requests: &[Request<'_>],
    ) -> Result<Vec<Vec<f64>>, EvolveError> {
        play_on(self.steps, fitness, requests, &|| {
            self.tracker.sample_done()
        })
    }
}

/// The samples of every request, in request order, on this machine's threads or, with
/// `steps`, as Slurm job steps; `on_sample` after each sample.
pub(super) fn play_on(
    steps: Option<&StepRunner>,
    fitness: &FitnessSpec,
    requests: &[Request<'_>],
    on_sample: &(dyn Fn() + Sync),
) -> Result<Vec<Vec<f64>>, EvolveError> {
    let Some(runner) = steps else {
        return Ok(evaluate_all_observed(fitness, requests, on_sample)?);
    };
    Ok(play_fitness_steps(runner, fitness, requests, on_sample)?)
}

pub struct RunOutcome {
    /// The last generation written.
    pub last: Generation,
    /// The generation the run continued from, when it resumed.
    pub resumed_from: Option<usize>,
    /// Generations computed by this call.
    pub generations_run: usize,
    /// The re-estimated candidates and the index of the one crowned, when the spec asks for
    /// a re-estimate and the run has reached its last generation.
    pub reestimated: Option<(Vec<reestimate::Reestimated>, usize)>,
}

/// The sample seeds of generation `generation` (every candidate plays them, in order) and
/// the elites' extra sample seeds; a Carcassonne sample plays the tile sequence
/// `namespace::evolution_tile_seed(seed)`; in a mix, sample s plays game s mod k.
pub fn generation_seeds(spec: &EvolveSpec, generation: usize) -> (Vec<u64>, Vec<u64>) {
    (
        seeds(spec, SAMPLES, generation, sample_count(spec)),
        seeds(spec, ELITE, generation, spec.noise.elite_samples),
    )
}

/// The first `count` seeds of one of the run's streams (`FitnessSpec::sample_seeds`).
fn seeds(spec: &EvolveSpec, stream: u64, generation: usize, count: usize) -> Vec<u64> {
    spec.fitness.sample_seeds(
        (0..count)
            .map(|j| derive_seed(spec.seed, &[stream, generation as u64, j as u64]))
            .collect(),
    )
}

/// The samples of `formulas[i]` for each listed `indices` on `seeds`, each class of `classes`
/// playing once (see `play_shared`), and the samples played.
fn play_formulas(
    spec: &EvolveSpec,
    at: &Placement,
    formulas: &[&Formula],
    indices: &[usize],
    classes: &[usize],
    seeds: &[u64],
) -> Result<(Vec<Vec<f64>>, u64), EvolveError> {
    play_shared(indices, classes, |players| {
        let requests: Vec<Request<'_>> = players
            .iter()
            .map(|&i| Request {
                formula: formulas[i],
                seeds,
            })
            .collect();
        at.play(&spec.fitness, &requests)
    })
}

/// Evaluates `members` on `seeds`, pooling the samples into their estimates; with
/// `classes` (functional hashing) each class plays once. Returns the samples played and
/// the samples saved.
fn evaluate(
    spec: &EvolveSpec,
    members: &mut [&mut Member],
    seeds: &[u64],
    at: &Placement,
    classes: Option<&[usize]>,
) -> Result<(u64, u64), EvolveError> {
    if seeds.is_empty() || members.is_empty() {
        return Ok((0, 0));
    }
    let all: Vec<usize> = (0..members.len()).collect();
    let formulas: Vec<&Formula> = members.iter().map(|m| &m.formula).collect();
    let (samples, played) =
        play_formulas(spec, at, &formulas, &all, classes.unwrap_or(&all), seeds)?;
    for (member, values) in members.iter_mut().zip(samples) {
        member.add_samples(&spec.fitness, seeds, &values);
    }
    Ok((played, (members.len() * seeds.len()) as u64 - played))
}

/// Races `members` (the first `newborn` of them new this generation) on generation
/// `generation`'s samples, raced when the spec says so (see `racing`); with functional
/// hashing, plans the fingerprint classes first so each class plays once. Returns the
/// samples played, the candidates dropped and the hashing counts.
fn race_hashed(
    spec: &EvolveSpec,
    members: &mut [&mut Member],
    newborn: usize,
    hashing: Option<&mut Hashing>,
    generation: usize,
    at: &Placement,
) -> Result<(u64, usize, Option<HashingCounts>), EvolveError> {
    let seeds = seeds(spec, SAMPLES, generation, sample_count(spec));
    let plan = hashing.map(|h| h.plan(members, newborn));
    let alone: Vec<usize> = (0..members.len()).collect();
    let classes = plan.as_ref().map_or(&alone, |p| &p.classes);
    let formulas: Vec<&Formula> = members.iter().map(|m| &m.formula).collect();
    let mut played = 0;
    let outcome = race(
        members.len(),
        &seeds,
        spec.noise.samples,
        spec.noise.racing.as_ref(),
        |indices, batch| {
            let (samples, count) = play_formulas(spec, at, &formulas, indices, classes, batch)?;
            played += count;
            Ok::<_, EvolveError>(samples)
        },
        |p| at.tracker.race(p),
    )?;
    let mut dropped = 0;
    for (i, member) in members.iter_mut().enumerate() {
        let values = &outcome.samples[i];
        member.add_samples(&spec.fitness, &seeds[..values.len()], values);
        member.dropped_after = outcome.dropped_after[i];
        dropped += usize::from(member.dropped_after.is_some());
    }
    let counts = plan.map(|p| HashingCounts {
        samples_saved: outcome.spent - played,
        ..p.counts
    });
    Ok((played, dropped, counts))
}

/// Games in one fitness sample: both seatings of a tile sequence, or one bandit run.
fn games_per_sample(spec: &EvolveSpec) -> u64 {
    spec.fitness.games_per_sample()
}

/// The number of sample seeds a generation draws: the nominal samples, or racing's cap.
fn sample_count(spec: &EvolveSpec) -> usize {
    spec.noise.racing.as_ref().map_or(spec.noise.samples, |r| {
        r.max_samples.max(spec.noise.samples)
    })
}

/// Best first by mean fitness (less `parsimony` per node, when the spec asks), candidates
/// dropped by racing after those that were not; stable, so earlier entries win ties.
fn rank_sort(members: &mut [Member], parsimony: Option<f64>) {
    let key = |m: &Member| m.fitness.rank() - parsimony.map_or(0.0, |w| w * m.size as f64);
    members.sort_by(|a, b| {
        a.dropped_after
            .is_some()
            .cmp(&b.dropped_after.is_some())
            .then(key(b).total_cmp(&key(a)))
    });
}

/// Extra samples for the best survivors; returns the champion (by the spec's rule) and the
/// samples spent, and adds the samples functional hashing saved to `counts`. `parents` must
/// be sorted best first; it is sorted again afterwards.
fn crown(
    spec: &EvolveSpec,
    parents: &mut [Member],
    generation: usize,
    at: &Placement,
    hashing: Option<&mut Hashing>,
    counts: &mut Option<HashingCounts>,
) -> Result<(Member, u64), EvolveError> {
    let elites = spec.noise.elites.min(parents.len());
    let extra = seeds(spec, ELITE, generation, spec.noise.elite_samples);
    let mut refs: Vec<&mut Member> = parents[..elites].iter_mut().collect();
    let classes = hashing.map(|h| h.classes(&refs));
    let (spent, saved) = evaluate(spec, &mut refs, &extra, at, classes.as_deref())?;
    let best = spec
        .noise
        .champion
        .pick(&parents[..elites])
        .expect("at least one elite");
    let champion = parents[best].clone();
    rank_sort(parents, spec.strategy.parsimony);
    if let Some(counts) = counts {
        counts.samples_saved += saved;
    }
    Ok((champion, spent))
}

fn summary(members: &[Member]) -> (f64, f64) {
    let means: Vec<f64> = members.iter().map(|m| m.fitness.rank()).collect();
    let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = means.iter().sum::<f64>() / means.len().max(1) as f64;
    (best, mean)
}

/// What every generation of a run is bred with: the spec, its grammar, and where samples are
/// evaluated.
#[derive(Clone, Copy)]
struct Breeding<'a> {
    spec: &'a EvolveSpec,
    grammar: &'a Grammar,
    at: &'a Placement<'a>,
}

/// Generation 0: the initial parents and the reference, evaluated.
fn initial(
    breeding: Breeding<'_>,
    hash: &str,
    mut hashing: Option<&mut Hashing>,
) -> Result<Generation, EvolveError> {
    let Breeding { spec, grammar, at } = breeding;
    let mut rng = GameRng::seed_from_u64(derive_seed(spec.seed, &[MUTATION, 0]));
    let mut reference = Member::new(0, 0, None, spec.seed_formula.clone());
    let mut parents: Vec<Member> = (0..spec.strategy.mu)
        .map(|i| {
            let formula = match spec.strategy.initial {
                InitialPopulation::MutatedSeed => mutate(&spec.seed_formula, grammar, &mut rng),
                InitialPopulation::Seed => spec.seed_formula.clone(),
            };
            Member::new(i + 1, 0, Some(0), formula)
        })
        .collect();
    let (mut spent, dropped, counts) = {
        let mut refs: Vec<&mut Member> = parents.iter_mut().collect();
        let newborn = refs.len();
        race_hashed(spec, &mut refs, newborn, hashing.as_deref_mut(), 0, at)?
    };
    // The reference is not raced: it plays the nominal samples and the elites' extra
    // samples, so it compares like for like with an elite.
    for (stream, count) in [
        (SAMPLES, spec.noise.samples),
        (ELITE, spec.noise.elite_samples),
    ] {
        let seeds = seeds(spec, stream, 0, count);
        spent += evaluate(spec, &mut [&mut reference], &seeds, at, None)?.0;
    }
    let offspring = parents.clone();
    let (best, mean) = summary(&offspring);
    rank_sort(&mut parents, spec.strategy.parsimony);
    let bred = Bred {
        generation: 0,
        next_id: spec.strategy.mu + 1,
        parents,
        offspring,
        spent,
        dropped,
        counts,
        best,
        mean,
    };
    crowned(spec, at, hashing, bred, reference, hash.to_string(), 0)
}

/// A generation bred and ranked, before its champion is crowned.
struct Bred {
    generation: usize,
    next_id: usize,
    /// Ranked best first.
    parents: Vec<Member>,
    offspring: Vec<Member>,
    spent: u64,
    dropped: usize,
    counts: Option<HashingCounts>,
    best: f64,
    mean: f64,
}

/// `noise.fit_constants`: the best survivors' constants fitted on the generation's common
/// samples (see `fitting`), each fitted formula the rule accepts put in its survivor's place,
/// the survivors ranked again. Returns the records and the samples spent.
fn fit_survivors(
    spec: &EvolveSpec,
    at: &Placement,
    parents: &mut [Member],
    generation: usize,
    next_id: &mut usize,
) -> Result<(Vec<Fitted>, u64), EvolveError> {
    let Some(f) = &spec.noise.fit_constants else {
        return Ok((Vec::new(), 0));
    };
    let common = seeds(spec, SAMPLES, generation, f.samples);
    let best: Vec<(usize, &Formula)> = parents
        .iter()
        .take(f.candidates)
        .map(|m| (m.id, &m.formula))
        .collect();
    let records = fit_with_samples(
        f,
        spec.seed,
        generation,
        &best,
        &common,
        *next_id,
        |formulas, seeds| {
            let requests: Vec<Request<'_>> = formulas
                .iter()
                .map(|formula| Request { formula, seeds })
                .collect();
            at.play(&spec.fitness, &requests)
        },
    )?;
    *next_id += records.len();
    for (r, after) in records.iter().filter(|(r, _)| r.replaced) {
        if let Some(place) = parents.iter_mut().find(|m| m.id == r.id) {
            *place = Member::new(r.fitted_id, generation, Some(r.id), r.after.clone());
            place.add_samples(&spec.fitness, &common, after);
            debug_assert_eq!(place.fitness, r.after_fitness);
        }
    }
    let records: Vec<Fitted> = records.into_iter().map(|(r, _)| r).collect();
    rank_sort(parents, spec.strategy.parsimony);
    let spent = records.iter().map(|r| r.spent).sum();
    Ok((records, spent))
}

/// Crowns the champion of `bred` (its elites' extra samples) and makes the generation;
/// `spent_before` is what earlier generations spent.
fn crowned(
    spec: &EvolveSpec,
    at: &Placement,
    hashing: Option<&mut Hashing>,
    bred: Bred,
    reference: Member,
    spec_hash: String,
    spent_before: u64,
) -> Result<Generation, EvolveError> {
    let Bred {
        generation,
        mut next_id,
        mut parents,
        offspring,
        spent,
        dropped,
        mut counts,
        best,
        mean,
    } = bred;
    let (fitting, fit_spent) = fit_survivors(spec, at, &mut parents, generation, &mut next_id)?;
    let (champion, elite_spent) = crown(spec, &mut parents, generation, at, hashing, &mut counts)?;
    let spent = spent + fit_spent + elite_spent;
    Ok(Generation {
        run: spec.name.clone(),
        spec_hash,
        generation,
        next_id,
        samples_spent: spent_before + spent,
        spent,
        dropped,
        hashing: counts,
        best,
        mean,
        champion,
        reference,
        parents,
        offspring,
        fitting,
    })
}

/// Generation `g` from the previous one.
fn step(
    breeding: Breeding<'_>,
    prev: &Generation,
    mut hashing: Option<&mut Hashing>,
) -> Result<Generation, EvolveError> {
    let Breeding { spec, grammar, at } = breeding;
    let g = prev.generation + 1;
    let mu = spec.strategy.mu;
    let mut rng = GameRng::seed_from_u64(derive_seed(spec.seed, &[MUTATION, g as u64]));
    let mut next_id = prev.next_id;
    let mut offspring: Vec<Member> = (0..spec.strategy.lambda)
        .map(|i| {
            let parent = &prev.parents[i % prev.parents.len()];
            let child = Member::new(
                next_id,
                g,
                Some(parent.id),
                mutate(&parent.formula, grammar, &mut rng),
            );
            next_id += 1;
            child
        })
        .collect();
    let mut parents = prev.parents.clone();
    for parent in &mut parents {
        parent.dropped_after = None;
    }
    let reevaluate = spec.strategy.plus && spec.noise.reevaluate_survivors;
    let (spent, dropped, counts) = {
        let newborn = offspring.len();
        let mut refs: Vec<&mut Member> = offspring.iter_mut().collect();
        if reevaluate {
            refs.extend(parents.iter_mut());
        }
        race_hashed(spec, &mut refs, newborn, hashing.as_deref_mut(), g, at)?
    };
    let mut pool = offspring.clone();
    let (best, mean) = if reevaluate {
        summary(&[offspring.as_slice(), parents.as_slice()].concat())
    } else {
        summary(&offspring)
    };
    if spec.strategy.plus {
        pool.append(&mut parents);
    }
    rank_sort(&mut pool, spec.strategy.parsimony);
    pool.truncate(mu);
    let bred = Bred {
        generation: g,
        next_id,
        parents: pool,
        offspring,
        spent,
        dropped,
        counts,
        best,
        mean,
    };
    crowned(
        spec,
        at,
        hashing,
        bred,
        prev.reference.clone(),
        prev.spec_hash.clone(),
        prev.samples_spent,
    )
}

fn write_generation(opts: &RunOptions, generation: &Generation) -> Result<(), PopulationError> {
    write_atomically(
        &generation_path(&opts.out_dir, generation.generation),
        &generation.to_ron(),
    )
}

/// Writes `champion` (the generation's own, or the re-estimate's) as the run's champion.
fn write_champion(
    opts: &RunOptions,
    generation: &Generation,
    champion: &Member,
) -> Result<(), PopulationError> {
    write_atomically(
        &champion_text_path(&opts.out_dir),
        &format!("{}\n", champion.formula),
    )?;
    let champion = Champion {
        run: generation.run.clone(),
        generation: generation.generation,
        member: champion.clone(),
        reference: generation.reference.clone(),
    };
    write_atomically(&champion_ron_path(&opts.out_dir), &champion.to_ron())
}

/// The hall of fame's best `r.candidates` of the run in `dir`, each played on the
/// re-estimate's fresh seeds, and the index of the one crowned.
fn play_reestimate(
    spec: &EvolveSpec,
    dir: &std::path::Path,
    r: ReestimateSpec,
    at: &Placement,
) -> Result<(Vec<reestimate::Reestimated>, usize), EvolveError> {
    let gens = read_generations(dir)?;
    let hall = hall_of_fame(&gens, r.candidates);
    let seeds = spec
        .fitness
        .sample_seeds(reestimate::reestimate_seeds(spec.seed, r.samples));
    let requests: Vec<Request<'_>> = hall
        .iter()
        .map(|m| Request {
            formula: &m.formula,
            seeds: &seeds,
        })
        .collect();
    let fresh = at.play(&spec.fitness, &requests)?;
    Ok(reestimate::crown(hall, fresh))
}

/// The checks of the options and of the spec, before the folder is touched; the spec's grammar.
pub(super) fn check_run(spec: &EvolveSpec, opts: &RunOptions) -> Result<Grammar, EvolveError> {
    if opts.threads == Some(0) {
        return Err(EvolveError::NoThreads);
    }
    evomcts_records::bounds::check_threads(opts.threads).map_err(EvolveError::Threads)?;
    let invalid = |field: String, message: String| SpecFileError::Invalid {
        file: "<spec>".into(),
        field,
        message,
    };
    spec.validate()
        .map_err(|(field, message)| invalid(field, message))?;
    Ok(spec
        .grammar()
        .map_err(|message| invalid("grammar".into(), message))?)
}

/// A run whose folder is open and checked: what each of its generations is made with.
struct OpenRun<'a> {
    opts: &'a RunOptions,
    pool: &'a rayon::ThreadPool,
    /// The spec's hash, which every generation file carries.
    hash: &'a str,
    breeding: Breeding<'a>,
}

impl OpenRun<'_> {
    /// Generations from the last one written (from nothing on a new run) up to generation
    /// `stop_at`: the last of them and how many this call made.
    fn evolve(
        &self,
        written: Option<Generation>,
        stop_at: usize,
    ) -> Result<(Generation, usize), EvolveError> {
        // Every generation of the run, read once: each new one joins it, and the reports are
        // written from it rather than from the files read back.
        let mut history = match written {
            Some(_) => read_generations(&self.opts.out_dir)?,
            None => Vec::new(),
        };
        let mut hashing = self.open_hashing(&history)?;
        let mut made = 0;
        let mut current = match written {
            Some(generation) => generation,
            None => {
                made += 1;
                self.next_generation(None, hashing.as_mut(), &mut history)?
            }
        };
        while current.generation < stop_at {
            current = self.next_generation(Some(&current), hashing.as_mut(), &mut history)?;
            made += 1;
        }
        Ok((current, made))
    }

    /// Functional hashing's state when the spec asks for it: the bank is recorded before
    /// generation 0 and read back on resume, with the classes rebuilt from the generations
    /// written.
    fn open_hashing(&self, written: &[Generation]) -> Result<Option<Hashing>, EvolveError> {
        let spec = self.breeding.spec;
        let Some(settings) = &spec.noise.functional_hashing else {
            return Ok(None);
        };
        let dir = &self.opts.out_dir;
        let hashing = self
            .pool
            .install(|| Hashing::open(spec, settings, dir, written))?;
        Ok(Some(hashing))
    }

    /// Generation 0 from nothing, every later one from the one before: made, taught to the
    /// hashing classes, written with its champion, added to `history` (every generation
    /// before it) and the reports written from that, then reported.
    fn next_generation(
        &self,
        previous: Option<&Generation>,
        mut hashing: Option<&mut Hashing>,
        history: &mut Vec<Generation>,
    ) -> Result<Generation, EvolveError> {
        let Breeding { spec, at, .. } = self.breeding;
        let number = previous.map_or(0, |p| p.generation + 1);
        at.tracker.begin(number);
        if let Some(runner) = at.steps {
            runner.set_context(&format!("generation {number}"));
        }
        let next = self.pool.install(|| match previous {
            None => initial(self.breeding, self.hash, hashing.as_deref_mut()),
            Some(p) => step(self.breeding, p, hashing.as_deref_mut()),
        })?;
        if let Some(h) = hashing {
            h.absorb(&next);
        }
        write_generation(self.opts, &next)?;
        // The steps of a generation are kept until it is written: a rerun after a failed step
        // finds their records and plays only what is missing.
        if let Some(runner) = at.steps {
            runner.clear()?;
        }
        write_champion(self.opts, &next, &next.champion)?;
        history.push(next.clone());
        write_reports_of(&self.opts.out_dir, history, games_per_sample(spec))?;
        at.tracker.report(spec, &next);
        Ok(next)
    }

    /// When the spec asks for it and `last` is the spec's last generation, the hall of fame's
    /// best re-played on fresh samples, `reestimate.csv` and the crowned one written as the
    /// run's champion. A function of the generation files and the spec alone, so a run stopped
    /// during it plays it again from the start and writes the same bytes.
    fn reestimate(
        &self,
        last: &Generation,
    ) -> Result<Option<(Vec<reestimate::Reestimated>, usize)>, EvolveError> {
        let Breeding { spec, at, .. } = self.breeding;
        let Some(r) = spec
            .noise
            .reestimate
            .filter(|_| last.generation == spec.strategy.generations)
        else {
            return Ok(None);
        };
        if let Some(runner) = at.steps {
            runner.set_context("the re-estimate");
        }
        if self.opts.progress {
            evomcts_records::note!(
                "re-estimating the hall of fame's best {} on {} fresh samples each",
                r.candidates,
                r.samples
            );
        }
        at.tracker.begin_reestimate(r.candidates);
        let dir = &self.opts.out_dir;
        let (rows, crowned) = self.pool.install(|| play_reestimate(spec, dir, r, at))?;
        write_atomically(
            &dir.join(reestimate::REESTIMATE_CSV),
            &reestimate::reestimate_csv(&rows, crowned),
        )?;
        write_champion(self.opts, last, &rows[crowned].member)?;
        if let Some(runner) = at.steps {
            runner.clear()?;
        }
        Ok(Some((rows, crowned)))
    }
}

impl OpenRun<'_> {
    /// When the spec asks for it and `last` is the spec's last generation, the front between
    /// simple and strong (`pareto`) played here and written: like the re-estimate, a function
    /// of the generation files and the spec alone.
    fn pareto(&self, last: &Generation) -> Result<(), EvolveError> {
        let Breeding { spec, at, .. } = self.breeding;
        let Some(p) = spec
            .pareto
            .filter(|_| last.generation == spec.strategy.generations)
        else {
            return Ok(());
        };
        if let Some(runner) = at.steps {
            runner.set_context("the front");
        }
        at.tracker.begin_reestimate(p.candidates + 1);
        let gens = read_generations(&self.opts.out_dir)?;
        let front = self
            .pool
            .install(|| pareto::play_front(spec, &gens, p, |r| at.play(&spec.fitness, r)))?;
        write_atomically(&self.opts.out_dir.join(pareto::PARETO_CSV), &front.csv())?;
        if let Some(runner) = at.steps {
            runner.clear()?;
        }
        Ok(())
    }
}

/// Runs (or resumes) an evolution into `opts.out_dir`.
pub fn run_evolution(spec: &EvolveSpec, opts: &RunOptions) -> Result<RunOutcome, EvolveError> {
    if spec.enumerate.is_some() {
        return Err(EvolveError::Enumeration(
            "this spec is an enumeration's (`enumerate`): it has no generations to evolve; \
             run it with `evolve` on its own (enumeration::run_enumeration), not with --runs"
                .into(),
        ));
    }
    let grammar = check_run(spec, opts)?;
    let dir = &opts.out_dir;
    let _lock =
        RunLock::open_run_folder(dir, RunKind::Evolution, &format!("evolve `{}`", spec.name))?;
    let (written, hash) = open_history(spec, dir, opts.resume, &spec.hash())?;
    evomcts_steps::launch::clear_left_steps(dir, opts.srun.as_ref())?;
    let resumed_from = written.as_ref().map(|g| g.generation);
    let pool = evomcts_steps::frame::RunPool::new(opts.threads, spec.fitness.pool_game().as_ref())
        .expect("a thread pool");
    let stop_at = opts
        .stop_after
        .unwrap_or(usize::MAX)
        .min(spec.strategy.generations);
    let tracker = Tracker::new(opts.progress, stop_at, spec);
    let runner = opts.srun.clone().map(|o| StepRunner::new(dir, o));
    let at = Placement {
        tracker: &tracker,
        steps: runner.as_ref(),
    };
    let run = OpenRun {
        opts,
        pool: &pool,
        hash: &hash,
        breeding: Breeding {
            spec,
            grammar: &grammar,
            at: &at,
        },
    };
    let (last, generations_run) = run.evolve(written, stop_at)?;
    // A crash between a generation and its champion files leaves them stale: rewrite
    // them (the same bytes when they were current).
    write_champion(opts, &last, &last.champion)?;
    let reestimated = run.reestimate(&last)?;
    run.pareto(&last)?;
    // Each generation made wrote the reports; a run that made none (resumed when finished,
    // perhaps after a crash before its reports) rebuilds them from the generation files.
    if generations_run == 0 {
        write_reports(dir, games_per_sample(spec))?;
    }
    Ok(RunOutcome {
        last,
        resumed_from,
        generations_run,
        reestimated,
    })
}
