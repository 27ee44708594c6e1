//! Variation: one mutation per offspring, as in the main paper's ES.
//!
//! - With probability `internal_node_probability` (0.9 in the paper grammar) the
//!   mutation targets an internal node, chosen uniformly, and replaces its subtree by a
//!   new "full" tree whose depth is drawn from `subtree_depth` (1–3), shrunk if needed
//!   so the offspring stays within `depth_cap`. This is subtree mutation.
//! - Otherwise (or when the formula is a lone leaf) it targets a leaf, chosen
//!   uniformly, and replaces it by a leaf drawn from the grammar's terminals and
//!   constants. Drawing `C` also draws the formula's C_E from the grammar's set. This
//!   is point mutation.
//!
//! - With a grammar's `constant_perturbation` (off unless the grammar names it), a mutation
//!   of a formula with numeric leaves is first, with the stated probability, a perturbation:
//!   one numeric leaf, chosen uniformly, is multiplied by `exp(N(0, sigma²))` and its
//!   magnitude kept within the stated bounds. Without the option no random number is drawn
//!   for it, so existing runs are unchanged.
//!
//! An offspring equal to its parent is discarded and the mutation redrawn, up to
//! [`MAX_REDRAWS`] times; after that a deterministic point mutation (the first leaf
//! becomes the first different leaf of the grammar) is used, and only if the grammar
//! offers no different leaf at all is the parent returned unchanged.
//!
//! Depth: a mutation never makes a formula deeper than `max(depth_cap, parent depth)`.
//! Parents within the cap therefore always give offspring within the cap; a parent
//! deeper than the cap (a hand-written seed) is not pushed deeper, and subtree
//! mutations below the cap replace a subtree by a leaf, pulling it back.

use rand::seq::SliceRandom;
use rand::Rng;

use super::grammar::{ConstantPerturbation, Grammar, Leaf};
use super::tree::{Expr, Formula, Function, Terminal};

/// Redraws allowed when a mutation reproduces its parent.
pub const MAX_REDRAWS: usize = 100;

/// One offspring of `parent`: exactly one subtree or point mutation, different from the
/// parent whenever the grammar allows it. All randomness comes from `rng`.
pub fn mutate<R: Rng + ?Sized>(parent: &Formula, grammar: &Grammar, rng: &mut R) -> Formula {
    for _ in 0..MAX_REDRAWS {
        let offspring = mutate_once(parent, grammar, rng);
        if offspring != *parent {
            return offspring;
        }
    }
    fallback_point_mutation(parent, grammar)
}

/// A single mutation, which may happen to reproduce the parent.
pub fn mutate_once<R: Rng + ?Sized>(parent: &Formula, grammar: &Grammar, rng: &mut R) -> Formula {
    if let Some(perturbation) = grammar.constant_perturbation() {
        if let Some(offspring) = perturb_constant(parent, perturbation, rng) {
            return offspring;
        }
    }
    let nodes = node_depths(parent.expr());
    let internal: Vec<(usize, usize)> = nodes
        .iter()
        .copied()
        .filter(|n| !n.2)
        .map(|n| (n.0, n.1))
        .collect();
    let target_internal = !internal.is_empty() && rng.gen_bool(grammar.internal_node_probability());
    let mut offspring = parent.clone();
    if target_internal {
        let (index, depth) = *internal.choose(rng).expect("not empty");
        let room = grammar.depth_cap().saturating_sub(depth);
        let range = grammar.subtree_depth();
        let new_depth = if room == 0 {
            0
        } else {
            rng.gen_range(range.min.min(room)..=range.max.min(room))
        };
        *node_mut(offspring.expr_mut(), index) = grow_full(grammar, new_depth, rng);
    } else {
        let leaves: Vec<usize> = nodes.iter().filter(|n| n.2).map(|n| n.0).collect();
        let index = *leaves.choose(rng).expect("every tree has a leaf");
        let leaf = *grammar
            .leaves()
            .choose(rng)
            .expect("validated grammar has leaves");
        if leaf == Leaf::Terminal(Terminal::ExplorationConstant) {
            let c_e = *grammar
                .c_e_values()
                .choose(rng)
                .expect("validated: C needs values");
            offspring.set_c_e(Some(c_e));
        }
        *node_mut(offspring.expr_mut(), index) = leaf.to_expr();
    }
    drop_unused_c_e(&mut offspring);
    offspring
}

/// With the perturbation's probability, `parent` with one numeric leaf multiplied by a
/// log-normal factor; `None` otherwise or when it has no numeric leaf.
fn perturb_constant<R: Rng + ?Sized>(
    parent: &Formula,
    perturbation: ConstantPerturbation,
    rng: &mut R,
) -> Option<Formula> {
    let constants: Vec<usize> = preorder_constants(parent.expr());
    if constants.is_empty() || !rng.gen_bool(perturbation.probability) {
        return None;
    }
    let index = *constants.choose(rng).expect("not empty");
    let factor = (perturbation.sigma * rng.sample::<f64, _>(rand_distr::StandardNormal)).exp();
    let mut offspring = parent.clone();
    let leaf = node_mut(offspring.expr_mut(), index);
    let Expr::Const(value) = *leaf else {
        unreachable!("preorder_constants lists numeric leaves")
    };
    let magnitude = (value.abs() * factor).clamp(perturbation.min, perturbation.max);
    *leaf = Expr::Const(magnitude.copysign(value));
    Some(offspring)
}

/// Preorder indices of the numeric leaves.
fn preorder_constants(expr: &Expr) -> Vec<usize> {
    fn walk(expr: &Expr, next: &mut usize, out: &mut Vec<usize>) {
        if matches!(expr, Expr::Const(_)) {
            out.push(*next);
        }
        *next += 1;
        match expr {
            Expr::Const(_) | Expr::Term(_) => {}
            Expr::Unary(_, x) => walk(x, next, out),
            Expr::Binary(_, a, b) => {
                walk(a, next, out);
                walk(b, next, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(expr, &mut 0, &mut out);
    out
}

/// A "full" random tree: every leaf at exactly `depth`, functions and leaves drawn
/// uniformly from the grammar. `C` leaves read the formula's C_E, whatever it is.
pub fn grow_full<R: Rng + ?Sized>(grammar: &Grammar, depth: usize, rng: &mut R) -> Expr {
    if depth == 0 {
        return grammar
            .leaves()
            .choose(rng)
            .expect("validated grammar has leaves")
            .to_expr();
    }
    match *grammar
        .functions()
        .choose(rng)
        .expect("validated grammar has functions")
    {
        Function::Unary(op) => Expr::unary(op, grow_full(grammar, depth - 1, rng)),
        Function::Binary(op) => Expr::binary(
            op,
            grow_full(grammar, depth - 1, rng),
            grow_full(grammar, depth - 1, rng),
        ),
    }
}

/// A random formula of exactly `depth` grown "full", with C_E drawn from the set when
/// the tree uses `C`. Useful for tests and benchmarks.
pub fn random_formula<R: Rng + ?Sized>(grammar: &Grammar, depth: usize, rng: &mut R) -> Formula {
    let formula = Formula::new(grow_full(grammar, depth, rng));
    if formula.uses(Terminal::ExplorationConstant) {
        let c_e = grammar.c_e_values().choose(rng).copied();
        formula.with_c_e(c_e)
    } else {
        formula
    }
}

/// Deterministic last resort: change the first leaf to the first grammar leaf that
/// differs from it (for `C`, to the first C_E value that differs).
fn fallback_point_mutation(parent: &Formula, grammar: &Grammar) -> Formula {
    let (index, current) = first_leaf(parent.expr());
    for &leaf in grammar.leaves() {
        let mut offspring = parent.clone();
        if leaf == Leaf::Terminal(Terminal::ExplorationConstant) {
            let different = grammar
                .c_e_values()
                .iter()
                .find(|&&v| Some(v) != parent.c_e());
            let Some(&c_e) = different else { continue };
            offspring.set_c_e(Some(c_e));
        } else if leaf.to_expr() == *current {
            continue;
        }
        *node_mut(offspring.expr_mut(), index) = leaf.to_expr();
        drop_unused_c_e(&mut offspring);
        if offspring != *parent {
            return offspring;
        }
    }
    parent.clone()
}

/// Preorder index and node of the leftmost leaf.
fn first_leaf(expr: &Expr) -> (usize, &Expr) {
    let mut index = 0;
    let mut node = expr;
    loop {
        match node {
            Expr::Const(_) | Expr::Term(_) => return (index, node),
            Expr::Unary(_, x) | Expr::Binary(_, x, _) => node = x,
        }
        index += 1;
    }
}

/// A C_E value no `C` leaf reads would only make equal formulas look different.
fn drop_unused_c_e(formula: &mut Formula) {
    if formula.c_e().is_some() && !formula.uses(Terminal::ExplorationConstant) {
        formula.set_c_e(None);
    }
}

/// `(preorder index, depth, is_leaf)` for every node.
fn node_depths(expr: &Expr) -> Vec<(usize, usize, bool)> {
    fn walk(expr: &Expr, depth: usize, out: &mut Vec<(usize, usize, bool)>) {
        out.push((out.len(), depth, expr.is_leaf()));
        match expr {
            Expr::Const(_) | Expr::Term(_) => {}
            Expr::Unary(_, x) => walk(x, depth + 1, out),
            Expr::Binary(_, a, b) => {
                walk(a, depth + 1, out);
                walk(b, depth + 1, out);
            }
        }
    }
    let mut out = Vec::with_capacity(expr.size());
    walk(expr, 0, &mut out);
    out
}

/// The node at a preorder index.
fn node_mut(mut expr: &mut Expr, mut index: usize) -> &mut Expr {
    loop {
        if index == 0 {
            return expr;
        }
        index -= 1;
        expr = match expr {
            Expr::Const(_) | Expr::Term(_) => panic!("preorder index out of range"),
            Expr::Unary(_, x) => x,
            Expr::Binary(_, a, b) => {
                let left_size = a.size();
                if index < left_size {
                    a
                } else {
                    index -= left_size;
                    b
                }
            }
        };
    }
}
