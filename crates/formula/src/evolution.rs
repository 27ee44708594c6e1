//! The evolution strategy of the main paper, generic over the fitness function.
//!
//! [`EvolutionStrategy::run`] does, with μ parents and λ offspring:
//!
//! 1. Initial population: μ individuals, each a single mutation of the seed (the paper
//!    "seeds with UCT, then mutates"); [`InitialPopulation::Seed`] instead starts from
//!    μ copies of the seed. In the comma strategy the initial parents are *not*
//!    evaluated, because their fitness never takes part in selection; this keeps the
//!    cost at λ evaluations per generation (20 × 4 = 80 in the paper). The plus strategy
//!    evaluates them once, since they compete with their offspring.
//! 2. Each generation: offspring `i` is one mutation of parent `i mod μ`, and is
//!    evaluated once. Fitness is maximised; it may be noisy, so nobody is re-evaluated.
//! 3. Selection: (μ, λ) keeps the μ best offspring, dropping the parents even when they
//!    were better (the paper's choice); (μ + λ) keeps the μ best of parents and
//!    offspring. Ties favour offspring, then the earlier-born. A NaN fitness ranks last.
//! 4. The result is the best of the last population (what the paper's ES-MCTS uses for
//!    the rest of the decision), plus the best individual ever evaluated.
//!
//! Two [`StrategyOptions`] change it: `score_initial` evaluates the
//! initial parents in the comma strategy too (so a seed can be the best ever), and
//! `semantic` discards every offspring whose *semantics* (the vector its fitness function
//! returns beside the mean, e.g. the reward of each simulation on common random numbers)
//! equals its parent's: an offspring that behaves exactly like its parent brings nothing
//! new and cannot displace it. If fewer than μ offspring remain in a comma strategy, the
//! best parents fill the places.
//!
//! Every random choice comes from the caller's RNG, so a run is reproducible from its
//! seed. With `record_history`, every individual (formula, fitness, size, depth,
//! parent) is kept and the lineage can be exported as a petgraph graph or DOT.

use std::fmt::Write as _;

use petgraph::graph::{DiGraph, NodeIndex};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::grammar::Grammar;
use super::mutation::mutate;
use super::tree::Formula;

/// How the first parents are made from the seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum InitialPopulation {
    /// Each parent is one mutation of the seed (the paper's "seeded with UCT, then mutated").
    #[default]
    MutatedSeed,
    /// Each parent is the seed itself.
    Seed,
}

/// Parameters of a (μ, λ) or (μ + λ) evolution strategy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolutionStrategy {
    /// Parents kept each generation (μ).
    pub mu: usize,
    /// Offspring made each generation (λ).
    pub lambda: usize,
    pub generations: usize,
    /// `false`: (μ, λ), offspring replace parents. `true`: (μ + λ), parents compete.
    pub plus: bool,
    #[serde(default)]
    pub initial: InitialPopulation,
    /// Keep every individual and the lineage. Costs one formula clone per individual.
    #[serde(default = "record_by_default")]
    pub record_history: bool,
}

fn record_by_default() -> bool {
    true
}

impl Default for EvolutionStrategy {
    /// The paper's (1, 4)-ES over 20 generations.
    fn default() -> Self {
        EvolutionStrategy {
            mu: 1,
            lambda: 4,
            generations: 20,
            plus: false,
            initial: InitialPopulation::MutatedSeed,
            record_history: true,
        }
    }
}

/// A configuration the strategy cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StrategyError {
    #[error("mu must be at least 1")]
    NoParents,
    #[error("lambda must be at least 1")]
    NoOffspring,
    #[error("a comma strategy needs lambda ({lambda}) >= mu ({mu}) to refill the parents")]
    TooFewOffspring { mu: usize, lambda: usize },
}

/// An individual of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    /// Birth number within the run; the seed is 0.
    pub id: usize,
    pub formula: Formula,
    /// `None` when never evaluated (the seed, and comma-strategy initial parents).
    pub fitness: Option<f64>,
}

/// How an individual came to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    Seed,
    Initial,
    Offspring,
}

/// One individual as recorded in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndividualRecord {
    pub id: usize,
    /// 0 for the seed and the initial population, then 1..=generations.
    pub generation: usize,
    pub origin: Origin,
    pub formula: Formula,
    pub fitness: Option<f64>,
    pub size: usize,
    pub depth: usize,
    pub parent: Option<usize>,
}

/// Everything that happened in a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvolutionHistory {
    /// Indexed by id.
    pub individuals: Vec<IndividualRecord>,
    /// `survivors[g]`: ids of the parents after generation `g` (`g = 0`: the initial
    /// population).
    pub survivors: Vec<Vec<usize>>,
}

impl EvolutionHistory {
    /// Individuals born in generation `g`.
    pub fn generation(&self, g: usize) -> impl Iterator<Item = &IndividualRecord> {
        self.individuals.iter().filter(move |r| r.generation == g)
    }

    /// Parent → child edges; node weights are individual ids (= node indices).
    pub fn lineage(&self) -> DiGraph<usize, ()> {
        let mut graph = DiGraph::with_capacity(self.individuals.len(), self.individuals.len());
        for record in &self.individuals {
            graph.add_node(record.id);
        }
        for record in &self.individuals {
            if let Some(parent) = record.parent {
                graph.add_edge(NodeIndex::new(parent), NodeIndex::new(record.id), ());
            }
        }
        graph
    }

    /// The lineage in Graphviz DOT, one node per individual labelled with its
    /// generation, formula and fitness; survivors are drawn bold.
    pub fn to_dot(&self) -> String {
        let survived: std::collections::HashSet<usize> =
            self.survivors.iter().flatten().copied().collect();
        let graph = self.lineage();
        let mut dot =
            String::from("digraph lineage {\n  node [shape=box, fontname=\"monospace\"];\n");
        for index in graph.node_indices() {
            let record = &self.individuals[graph[index]];
            let fitness = record
                .fitness
                .map_or("-".to_string(), |f| format!("{f:.4}"));
            let label = format!(
                "#{} g{}\\n{}\\nfitness {}",
                record.id,
                record.generation,
                record
                    .formula
                    .to_string()
                    .replace('\\', "\\\\")
                    .replace('"', "\\\""),
                fitness
            );
            let style = if survived.contains(&record.id) {
                ", style=bold"
            } else {
                ""
            };
            let _ = writeln!(dot, "  n{} [label=\"{}\"{}];", record.id, label, style);
        }
        for edge in graph.raw_edges() {
            let _ = writeln!(
                dot,
                "  n{} -> n{};",
                graph[edge.source()],
                graph[edge.target()]
            );
        }
        dot.push_str("}\n");
        dot
    }
}

/// What [`EvolutionStrategy::run`] returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolutionResult {
    /// Best of the final population: the formula to use from now on.
    pub best: Individual,
    /// Best individual ever evaluated (may have been dropped by a comma strategy).
    pub best_ever: Option<Individual>,
    /// Calls made to the fitness function.
    pub evaluations: usize,
    pub history: Option<EvolutionHistory>,
}

/// Options of [`EvolutionStrategy::run`]; the default is the paper's strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrategyOptions {
    /// Evaluate the initial parents in the comma strategy too (the plus strategy always does).
    pub score_initial: bool,
    /// Discard offspring whose semantics equal their parent's (see the module comment).
    pub semantic: bool,
}

/// What a fitness function of [`EvolutionStrategy::run`] returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scored {
    /// Maximised.
    pub fitness: f64,
    /// Compared element by element with the parent's when `StrategyOptions::semantic`.
    pub semantics: Vec<f64>,
}

/// A fitness without semantics.
impl From<f64> for Scored {
    fn from(fitness: f64) -> Scored {
        Scored {
            fitness,
            semantics: Vec::new(),
        }
    }
}

/// Keeps the first strictly best evaluated individual.
fn note_best(individual: &Individual, best_ever: &mut Option<Individual>) {
    if individual.fitness.is_some_and(|f| !f.is_nan())
        && best_ever
            .as_ref()
            .is_none_or(|b| rank(individual) > rank(b))
    {
        *best_ever = Some(individual.clone());
    }
}

/// Sort key: higher is better, NaN and unevaluated last.
fn rank(individual: &Individual) -> f64 {
    match individual.fitness {
        Some(f) if !f.is_nan() => f,
        _ => f64::NEG_INFINITY,
    }
}

impl EvolutionStrategy {
    /// The paper's (1, 4)-ES over 20 generations.
    pub fn paper() -> EvolutionStrategy {
        EvolutionStrategy::default()
    }

    pub fn validate(&self) -> Result<(), StrategyError> {
        if self.mu == 0 {
            return Err(StrategyError::NoParents);
        }
        if self.lambda == 0 {
            return Err(StrategyError::NoOffspring);
        }
        if !self.plus && self.lambda < self.mu {
            return Err(StrategyError::TooFewOffspring {
                mu: self.mu,
                lambda: self.lambda,
            });
        }
        Ok(())
    }

    /// Fitness evaluations one run makes.
    pub fn evaluations_per_run(&self) -> usize {
        self.generations * self.lambda + if self.plus { self.mu } else { 0 }
    }

    /// Evolves from `seed` under `options`, maximising `fitness`, which returns the fitness
    /// alone (`f64`) or with the semantics ([`Scored`]).
    ///
    /// # Panics
    /// If the configuration is invalid; call [`EvolutionStrategy::validate`] first
    /// when it comes from user input.
    pub fn run<R, F, S>(
        &self,
        options: StrategyOptions,
        seed: &Formula,
        grammar: &Grammar,
        rng: &mut R,
        mut fitness: F,
    ) -> EvolutionResult
    where
        R: Rng + ?Sized,
        F: FnMut(&Formula) -> S,
        S: Into<Scored>,
    {
        if let Err(err) = self.validate() {
            panic!("invalid evolution strategy: {err}");
        }
        let mut run = Run {
            strategy: self,
            options,
            fitness: |formula: &Formula| -> Scored { fitness(formula).into() },
            history: self.record_history.then(EvolutionHistory::default),
            next_id: 0,
            evaluations: 0,
            best_ever: None,
            semantics: Vec::new(),
        };
        let mut parents = run.initial_population(seed, grammar, rng);
        let mut pool: Vec<Individual> = Vec::with_capacity(self.mu + self.lambda);
        for generation in 1..=self.generations {
            run.offspring(generation, &parents, grammar, rng, &mut pool);
            run.select(&mut pool, &mut parents);
        }
        let best = parents
            .iter()
            .max_by(|a, b| rank(a).total_cmp(&rank(b)).then(b.id.cmp(&a.id)))
            .expect("mu >= 1")
            .clone();
        EvolutionResult {
            best,
            best_ever: run.best_ever,
            evaluations: run.evaluations,
            history: run.history,
        }
    }
}

/// One run of the strategy: what it counts and keeps while generations pass.
struct Run<'s, F> {
    strategy: &'s EvolutionStrategy,
    options: StrategyOptions,
    fitness: F,
    history: Option<EvolutionHistory>,
    next_id: usize,
    evaluations: usize,
    best_ever: Option<Individual>,
    /// Semantics by individual id (ids count up from 0), kept only when used.
    semantics: Vec<Option<Vec<f64>>>,
}

impl<F: FnMut(&Formula) -> Scored> Run<'_, F> {
    /// A new individual with the next id, recorded in the history when one is kept.
    fn born(
        &mut self,
        formula: Formula,
        fitness: Option<f64>,
        generation: usize,
        origin: Origin,
        parent: Option<usize>,
    ) -> Individual {
        let id = self.next_id;
        self.next_id += 1;
        if let Some(history) = &mut self.history {
            history.individuals.push(IndividualRecord {
                id,
                generation,
                origin,
                size: formula.size(),
                depth: formula.depth(),
                formula: formula.clone(),
                fitness,
                parent,
            });
        }
        Individual {
            id,
            formula,
            fitness,
        }
    }

    fn evaluate(&mut self, formula: &Formula) -> Scored {
        self.evaluations += 1;
        (self.fitness)(formula)
    }

    fn keep_semantics(&mut self, id: usize, scored: Option<Scored>) {
        if let (true, Some(scored)) = (self.options.semantic, scored) {
            self.semantics.resize(id + 1, None);
            self.semantics[id] = Some(scored.semantics);
        }
    }

    fn record_survivors(&mut self, parents: &[Individual]) {
        if let Some(history) = &mut self.history {
            history
                .survivors
                .push(parents.iter().map(|p| p.id).collect());
        }
    }

    /// The seed, then μ parents from it (mutated or copied), scored when the strategy keeps
    /// parents or the options ask.
    fn initial_population<R: Rng + ?Sized>(
        &mut self,
        seed: &Formula,
        grammar: &Grammar,
        rng: &mut R,
    ) -> Vec<Individual> {
        let strategy = self.strategy;
        let seed_individual = self.born(seed.clone(), None, 0, Origin::Seed, None);
        let mut parents: Vec<Individual> = Vec::with_capacity(strategy.mu + strategy.lambda);
        for _ in 0..strategy.mu {
            let formula = match strategy.initial {
                InitialPopulation::MutatedSeed => mutate(seed, grammar, rng),
                InitialPopulation::Seed => seed.clone(),
            };
            let scored =
                (strategy.plus || self.options.score_initial).then(|| self.evaluate(&formula));
            let individual = self.born(
                formula,
                scored.as_ref().map(|s| s.fitness),
                0,
                Origin::Initial,
                Some(seed_individual.id),
            );
            self.keep_semantics(individual.id, scored);
            note_best(&individual, &mut self.best_ever);
            parents.push(individual);
        }
        self.record_survivors(&parents);
        parents
    }

    /// λ offspring into `pool`, parent i mod μ mutated for the i-th, each scored; with
    /// semantic options, an offspring that behaved exactly as its parent is dropped.
    fn offspring<R: Rng + ?Sized>(
        &mut self,
        generation: usize,
        parents: &[Individual],
        grammar: &Grammar,
        rng: &mut R,
        pool: &mut Vec<Individual>,
    ) {
        pool.clear();
        let mut same_as_parent: Vec<bool> = Vec::with_capacity(self.strategy.lambda);
        for i in 0..self.strategy.lambda {
            let parent = &parents[i % self.strategy.mu];
            let formula = mutate(&parent.formula, grammar, rng);
            let scored = self.evaluate(&formula);
            let parent_id = parent.id;
            let child = self.born(
                formula,
                Some(scored.fitness),
                generation,
                Origin::Offspring,
                Some(parent_id),
            );
            if self.options.semantic {
                let parent_semantics = self.semantics.get(parent_id).and_then(Option::as_ref);
                same_as_parent.push(parent_semantics == Some(&scored.semantics));
            }
            self.keep_semantics(child.id, Some(scored));
            note_best(&child, &mut self.best_ever);
            pool.push(child);
        }
        if self.options.semantic {
            let mut same = same_as_parent.iter();
            pool.retain(|_| !same.next().expect("one flag per offspring"));
        }
    }

    /// The next parents: the μ best of the offspring (and, for (μ + λ), of the parents too).
    fn select(&mut self, pool: &mut Vec<Individual>, parents: &mut Vec<Individual>) {
        let mu = self.strategy.mu;
        if self.strategy.plus {
            pool.append(parents);
        } else if pool.len() < mu {
            // Semantic discards left too few offspring: the best parents stay.
            parents.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
            parents.truncate(mu - pool.len());
            pool.append(parents);
        }
        // Stable sort: among equal fitness, offspring (listed first) and then the
        // earlier-born win.
        pool.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
        parents.clear();
        parents.extend(pool.drain(..mu));
        self.record_survivors(parents);
    }
}
