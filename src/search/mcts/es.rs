//! The ES step of ES-MCTS and ES-p-MCTS: once the root is fully expanded, a (μ, λ)
//! evolution strategy (the paper's (1, 4) over 20 generations) evolves the selection
//! formula from the controller's seed (UCT), scoring each candidate with a few
//! simulations (10). The best of the last generation then selects for the rest of the
//! decision.
//!
//! Candidates are scored on the real tree's statistics but never change them:
//! `Integrated` (ES-MCTS) backpropagates into an overlay that is rolled back after each
//! candidate, so every candidate starts from the same tree; `Partial` (ES-p-MCTS)
//! descends and rolls out without writing anything.

use super::record::{EsCandidateRecord, EsDecisionRecord, EsGenerationRecord};
use super::search::Core;
use super::selection::Policy;
use super::settings::{EsMode, EsSettings, SettingsError};
use crate::formula::{
    CompiledFormula, EvolutionStrategy, Formula, Grammar, InitialPopulation, Origin,
};
use crate::game::GameRng;

pub(crate) struct EsStep {
    strategy: EvolutionStrategy,
    grammar: Grammar,
    seed: Formula,
    mode: EsMode,
    sims_per_fitness: u32,
    /// Mutation's own stream, so the simulations' stream does not depend on how many
    /// random numbers a mutation happens to draw.
    rng: GameRng,
}

/// What one ES step produced.
pub(crate) struct EsOutcome {
    pub winner: Formula,
    pub record: EsDecisionRecord,
}

impl EsStep {
    pub(crate) fn new(
        settings: &EsSettings,
        seed: Formula,
        rng: GameRng,
    ) -> Result<EsStep, SettingsError> {
        let grammar = load_grammar(&settings.grammar)?;
        let strategy = EvolutionStrategy {
            mu: settings.mu,
            lambda: settings.lambda,
            generations: settings.generations,
            plus: false,
            initial: InitialPopulation::MutatedSeed,
            record_history: true,
        };
        strategy
            .validate()
            .map_err(|err| SettingsError::new("es", err.to_string()))?;
        Ok(EsStep {
            strategy,
            grammar,
            seed,
            mode: settings.mode,
            sims_per_fitness: settings.sims_per_fitness,
            rng,
        })
    }

    pub(crate) fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// A record for a decision where the ES did not run.
    pub(crate) fn skipped(
        &self,
        turn: usize,
        player: u8,
        sims: u64,
        why: &str,
    ) -> EsDecisionRecord {
        EsDecisionRecord {
            turn,
            player,
            mode: self.mode,
            generations: Vec::new(),
            chosen: None,
            es_simulations: 0,
            mcts_simulations: sims,
            skipped: Some(why.to_string()),
        }
    }

    /// Runs the evolution on the current tree of `core`. `mcts_simulations` is filled in
    /// by the caller once the decision is over.
    pub(crate) fn run(&mut self, core: &mut Core, turn: usize, player: u8) -> EsOutcome {
        let mode = self.mode;
        let sims = self.sims_per_fitness;
        let mut es_simulations = 0u64;
        let result = self
            .strategy
            .run(&self.seed, &self.grammar, &mut self.rng, |formula| {
                match CompiledFormula::new(formula) {
                    Ok(compiled) => {
                        es_simulations += sims as u64;
                        core.evaluate_candidate(
                            &Policy::Formula(compiled),
                            mode,
                            sims,
                            |_, _, _| {},
                        )
                    }
                    // Grammars cap depth well within the evaluator's stack, so this only
                    // guards a hand-written seed: such a candidate never wins.
                    Err(_) => f64::NEG_INFINITY,
                }
            });
        let history = result.history.as_ref().expect("history is recorded");
        let generations = (1..=self.strategy.generations)
            .map(|generation| EsGenerationRecord {
                generation,
                candidates: history
                    .generation(generation)
                    .filter(|r| r.origin == Origin::Offspring)
                    .map(|r| {
                        EsCandidateRecord::new(&r.formula, r.fitness.unwrap_or(f64::NEG_INFINITY))
                    })
                    .collect(),
            })
            .collect();
        let winner = result.best.formula.clone();
        let record = EsDecisionRecord {
            turn,
            player,
            mode,
            generations,
            chosen: Some(EsCandidateRecord::new(
                &winner,
                result.best.fitness.unwrap_or(f64::NEG_INFINITY),
            )),
            es_simulations,
            mcts_simulations: 0,
            skipped: None,
        };
        EsOutcome { winner, record }
    }
}

/// `paper` and `ucb1_tuned` are built in; anything else is a grammar file.
pub(crate) fn load_grammar(name: &str) -> Result<Grammar, SettingsError> {
    Grammar::named(name).map_err(|err| SettingsError::new("es.grammar", err.to_string()))
}
