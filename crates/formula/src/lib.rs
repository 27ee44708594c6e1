//! Selection formulas for MCTS and their evolution.
//!
//! A [`Formula`] scores a child during MCTS selection from the statistics in
//! [`SelectionInputs`], whose terminals are declared once in [`TERMINALS`] (`terminals`); UCT (`Q + 2*C*sqrt(2*ln(N)/n)`) is the seed. The module offers
//! the tree and its text form (`tree`, `parse`), a canonical form for counting equal
//! formulas once (`canonical`), a simplified form that also removes the dead structure
//! the protected operators' ranges reveal (`simplify`), functional fingerprints on a bank of sibling sets
//! (`fingerprint`), a fast allocation-free evaluator for the search
//! (`compiled`), grammars loaded from RON (`grammar`), mutation (`mutation`) and the
//! (μ, λ)/(μ + λ) evolution strategy (`evolution`), every form a grammar writes up to a size
//! (`enumerate`), forms grouped and named by what they pick on a bank (`behaviour`), and
//! seeded synthetic sibling sets for a positive control (`synthetic`). Protected operators live in [`ops`].
//!
//! Layering: this module knows nothing about the game; the search layer calls it.

mod behaviour;
mod canonical;
mod compiled;
mod enumerate;
mod evolution;
mod fingerprint;
mod grammar;
mod mutation;
mod native;
pub mod ops;
mod parse;
mod simplify;
mod synthetic;
mod terminals;
mod tree;
pub mod typeset;

pub use behaviour::{
    classes, group, group_terms, name, Behaviour, BehaviourClass, Namer, Reference, Ties,
    TIE_EPSILON, UCT_GRID,
};
pub use canonical::{canonical_expr, compare};
pub use compiled::{CompileError, CompiledFormula, STACK_CAPACITY};
pub use enumerate::{enumerate, EnumerateError, Enumeration, Form, MAX_NODES};
pub use evolution::{
    EvolutionHistory, EvolutionResult, EvolutionStrategy, Individual, IndividualRecord,
    InitialPopulation, Origin, Scored, StrategyError, StrategyOptions,
};
pub use fingerprint::{choices, fingerprint, first_argmax, fnv1a, SiblingSets};
pub use grammar::{
    ConstantPerturbation, DepthRange, Grammar, GrammarError, GrammarSpec, Leaf, RonSyntaxError,
    MAX_DEPTH_CAP,
};
pub use mutation::{grow_full, mutate, mutate_once, random_formula, MAX_REDRAWS};
pub use parse::ParseError;
pub use synthetic::synthetic_bank;
pub use terminals::{TerminalClass, TerminalInfo, MOVE_FEATURE_COUNT, TERMINALS, TERMINAL_COUNT};
pub use tree::{
    format_number, BinaryOp, Expr, Formula, Function, SelectionInputs, Terminal, UnaryOp,
};
