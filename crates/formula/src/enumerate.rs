//! Enumeration: every formula a grammar writes up to a number of nodes, counted once per form.
//!
//! A *form* is a formula whose numbers are left open: its numeric leaves are placeholders
//! `{W1}`, `{W2}` … in order of appearance (preorder, as printed), for constants fitted later
//! (the `{Wk}` the tuner and the sweep fill). The grammar's constants are therefore one leaf
//! kind, "a constant", present when the grammar lists any; its terminals are the other leaves.
//! Every written tree is simplified (`simplify`, which includes the canonical form) and
//! printed with its numeric leaves as placeholders; trees with the same text are one form.
//! A number the simplification folds (`Q + Q` is `2*Q`, `n/n` is 1) is a numeric leaf like any
//! other, so `Q + Q` is the form `{W1}*Q`: a form stands for all its constants' values.
//!
//! While simplifying, the placeholders take distinct generic values (square roots of distinct
//! square-free integers, all above 1.4), so a rewrite that depends on a number (`x*1`, `x - x`,
//! the protected zone of `/`) fires only when it holds for every value, barring an exact
//! floating-point coincidence: `{W1}*Q - {W2}*Q` stays, it is not `0`.
//!
//! The enumeration is bottom-up by size in the style of observational equivalence (Udupa et
//! al., "TRANSIT: specifying protocols with concolic snippets", PLDI 2013; Albarghouthi et al.,
//! "Recursive program synthesis", CAV 2013): trees of k nodes are built from the *unique* forms
//! of fewer nodes, not from every tree, so the work grows with the number of forms. Because
//! the canonical form and the simplification are not proved compositional, a form reachable
//! only through a non-simplified subtree could be missed; every form listed is one the grammar
//! writes. Measured: the forms found are exactly those of every tree for the `paper` grammar
//! up to 6 nodes (55,415 trees) and `ucb1_tuned` up to 5 (the test
//! `building_from_unique_forms_finds_the_forms_of_every_tree`, which runs 5 and 4). The grammar's depth cap is respected. The order is deterministic: forms sorted by
//! node count, then text.
//!
//! Before building the trees of each size the number of candidates is computed; a size whose
//! candidates exceed the caller's cap is refused with [`EnumerateError::TooMany`] rather than
//! filling memory. [`Enumeration::written`] counts, without building them, every tree of at
//! most the node count the grammar writes (constants as one leaf kind, within its depth cap).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::grammar::Grammar;
use super::tree::{Expr, Formula, Function};

/// The largest node count enumerated: each form's generic values (one per numeric leaf, at most
/// `(MAX_NODES + 1)/2`) are listed in [`GENERIC_ROOTS`], and the compiled evaluator's stack
/// holds any tree this small.
pub const MAX_NODES: usize = 15;

/// Square-free integers whose square roots are the placeholders' generic values.
const GENERIC_ROOTS: [f64; 8] = [2.0, 3.0, 5.0, 6.0, 7.0, 10.0, 11.0, 13.0];

/// Placeholder `i` (0-based) is printed through this number, then replaced by `{W<i+1>}`:
/// every marker has seven digits, so no marker's text is part of another's.
const MARKER_BASE: f64 = 9_000_001.0;

/// Why an enumeration was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnumerateError {
    #[error("max nodes {0}: expected 1 to {MAX_NODES}")]
    Nodes(usize),
    #[error(
        "size {size}: {candidates} candidate trees exceed the cap of {cap}; \
         enumerate at most {} nodes or raise the cap",
        size - 1
    )]
    TooMany {
        size: usize,
        candidates: u128,
        cap: u64,
    },
}

/// One form: a simplified formula whose numeric leaves are placeholders.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    /// The simplified tree, each numeric leaf at its placeholder's generic value.
    expr: Expr,
    placeholders: usize,
    text: String,
}

impl Form {
    /// The form of a formula: simplified, its numeric leaves placeholders. Its own C_E, if
    /// any, is dropped: `C` in a form is the controller's.
    pub fn of(formula: &Formula) -> Form {
        form_of(formula.expr())
    }

    /// The text, numeric leaves written `{W1}`, `{W2}` … in order of appearance.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Nodes of the simplified form.
    pub fn size(&self) -> usize {
        self.expr.size()
    }

    /// How many placeholders (numeric leaves) the form has.
    pub fn placeholders(&self) -> usize {
        self.placeholders
    }

    /// The formula with every placeholder at `value`. It uses the controller's C_E.
    pub fn with_constants(&self, value: f64) -> Formula {
        Formula::new(relabel(&self.expr, &mut |_| value))
    }

    /// The formula with placeholder `{Wi}` at `values[i - 1]` (the last value for any beyond
    /// the list; 1 when it is empty). It uses the controller's C_E.
    pub fn with_values(&self, values: &[f64]) -> Formula {
        let at = |i: usize| values.get(i).or(values.last()).copied().unwrap_or(1.0);
        Formula::new(relabel(&self.expr, &mut |i| at(i)))
    }

    /// [`Form::with_values`], added to `base` when one is given (`base + form`, keeping the
    /// base's own C_E): a form as a term of a formula that already plays.
    pub fn term_of(&self, base: Option<&Formula>, values: &[f64]) -> Formula {
        let term = self.with_values(values);
        match base {
            None => term,
            Some(base) => Formula::new(Expr::binary(
                super::tree::BinaryOp::Add,
                base.expr().clone(),
                term.expr().clone(),
            ))
            .with_c_e(base.c_e()),
        }
    }
}

/// What [`enumerate`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumeration {
    max_nodes: usize,
    written: u128,
    built: u64,
    forms: Vec<Form>,
}

impl Enumeration {
    pub fn max_nodes(&self) -> usize {
        self.max_nodes
    }

    /// Trees of 1 to `max_nodes` nodes the grammar writes (a constant is one leaf kind),
    /// counted, not built; saturates at `u128::MAX`.
    pub fn written(&self) -> u128 {
        self.written
    }

    /// Trees actually built and simplified (from the unique smaller forms).
    pub fn built(&self) -> u64 {
        self.built
    }

    /// The unique forms, by node count, then text.
    pub fn forms(&self) -> &[Form] {
        &self.forms
    }
}

/// Every form `grammar` writes with 1 to `max_nodes` nodes (see the module documentation);
/// refuses a size whose candidate trees exceed `cap`.
pub fn enumerate(
    grammar: &Grammar,
    max_nodes: usize,
    cap: u64,
) -> Result<Enumeration, EnumerateError> {
    if max_nodes == 0 || max_nodes > MAX_NODES {
        return Err(EnumerateError::Nodes(max_nodes));
    }
    let alphabet = Alphabet::of(grammar);
    // Each form is stored once: its tree in the pool of its size, its text as the key of
    // `seen` (to its place in `slots`), its place and placeholder count in `slots`.
    let mut pools: Vec<Vec<Expr>> = vec![Vec::new(); max_nodes + 1];
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut slots: Vec<(usize, usize, usize)> = Vec::new();
    let mut built = 0u64;
    for size in 1..=max_nodes {
        let candidates = alphabet.candidates(&pools, size);
        if candidates > cap as u128 {
            return Err(EnumerateError::TooMany {
                size,
                candidates,
                cap,
            });
        }
        let mut found = Vec::new();
        alphabet.build(&pools, size, &mut |tree| {
            built += 1;
            if tree.depth() > grammar.depth_cap() {
                return;
            }
            let form = form_of(&tree);
            if let Entry::Vacant(entry) = seen.entry(form.text) {
                entry.insert(slots.len() + found.len());
                found.push((form.expr, form.placeholders));
            }
        });
        for (expr, placeholders) in found {
            let size = expr.size();
            slots.push((size, pools[size].len(), placeholders));
            pools[size].push(expr);
        }
    }
    let mut texts = vec![String::new(); slots.len()];
    for (text, slot) in seen {
        texts[slot] = text;
    }
    let mut forms: Vec<Form> = slots
        .into_iter()
        .zip(texts)
        .map(|((size, i, placeholders), text)| Form {
            expr: std::mem::replace(&mut pools[size][i], Expr::Const(0.0)),
            placeholders,
            text,
        })
        .collect();
    forms.sort_by(|a, b| (a.size(), &a.text).cmp(&(b.size(), &b.text)));
    Ok(Enumeration {
        max_nodes,
        written: alphabet.written(max_nodes, grammar.depth_cap()),
        built,
        forms,
    })
}

/// The grammar's leaves (terminals, then one constant leaf) and functions by arity.
struct Alphabet {
    leaves: Vec<Expr>,
    unary: Vec<super::tree::UnaryOp>,
    binary: Vec<super::tree::BinaryOp>,
}

impl Alphabet {
    fn of(grammar: &Grammar) -> Alphabet {
        let mut leaves: Vec<Expr> = grammar.terminals().iter().map(|&t| Expr::Term(t)).collect();
        if !grammar.constants().is_empty() {
            leaves.push(Expr::Const(generic(0)));
        }
        let unary = grammar
            .functions()
            .iter()
            .filter_map(|f| match f {
                Function::Unary(op) => Some(*op),
                Function::Binary(_) => None,
            })
            .collect();
        let binary = grammar
            .functions()
            .iter()
            .filter_map(|f| match f {
                Function::Binary(op) => Some(*op),
                Function::Unary(_) => None,
            })
            .collect();
        Alphabet {
            leaves,
            unary,
            binary,
        }
    }

    /// How many trees of `size` nodes `build` makes from `pools` (sizes below `size`).
    fn candidates(&self, pools: &[Vec<Expr>], size: usize) -> u128 {
        let count = |s: usize| pools[s].len() as u128;
        self.combine(size, self.leaves.len() as u128, count)
    }

    /// Trees of `size` nodes with `leaves` one-node trees and `count(s)` trees of `s` nodes
    /// below the root, saturating.
    fn combine(&self, size: usize, leaves: u128, count: impl Fn(usize) -> u128) -> u128 {
        if size == 1 {
            return leaves;
        }
        let unary = (self.unary.len() as u128).saturating_mul(count(size - 1));
        let pairs = (1..size.saturating_sub(1)).fold(0u128, |sum, left| {
            sum.saturating_add(count(left).saturating_mul(count(size - 1 - left)))
        });
        unary.saturating_add((self.binary.len() as u128).saturating_mul(pairs))
    }

    /// Trees of 1 to `max_nodes` nodes and depth at most `depth_cap`, counted by size and depth.
    fn written(&self, max_nodes: usize, depth_cap: usize) -> u128 {
        // at_most[d][s]: trees of s nodes and depth at most d.
        let mut at_most = vec![vec![0u128; max_nodes + 1]; depth_cap + 1];
        for d in 0..=depth_cap {
            for s in 1..=max_nodes {
                at_most[d][s] = if s == 1 {
                    self.leaves.len() as u128
                } else if d == 0 {
                    0
                } else {
                    let below = &at_most[d - 1];
                    self.combine(s, 0, |t| below[t])
                };
            }
        }
        at_most[depth_cap][1..]
            .iter()
            .fold(0u128, |sum, &c| sum.saturating_add(c))
    }

    /// Calls `visit` on every tree of `size` nodes: a leaf, a unary function of a form of
    /// `size - 1` nodes, or a binary function of two forms whose sizes add to `size - 1`.
    fn build(&self, pools: &[Vec<Expr>], size: usize, visit: &mut impl FnMut(Expr)) {
        if size == 1 {
            self.leaves.iter().for_each(|leaf| visit(leaf.clone()));
            return;
        }
        for &op in &self.unary {
            for x in &pools[size - 1] {
                visit(Expr::unary(op, x.clone()));
            }
        }
        for &op in &self.binary {
            for left in 1..size - 1 {
                for a in &pools[left] {
                    for b in &pools[size - 1 - left] {
                        visit(Expr::binary(op, a.clone(), b.clone()));
                    }
                }
            }
        }
    }
}

/// The generic value of placeholder `i`.
fn generic(i: usize) -> f64 {
    GENERIC_ROOTS[i % GENERIC_ROOTS.len()].sqrt()
}

/// `expr` with its `i`-th numeric leaf (preorder) at `value(i)`.
fn relabel(expr: &Expr, value: &mut impl FnMut(usize) -> f64) -> Expr {
    fn go(expr: &Expr, next: &mut usize, value: &mut impl FnMut(usize) -> f64) -> Expr {
        match expr {
            Expr::Const(_) => {
                *next += 1;
                Expr::Const(value(*next - 1))
            }
            Expr::Term(t) => Expr::Term(*t),
            Expr::Unary(op, x) => Expr::unary(*op, go(x, next, value)),
            Expr::Binary(op, a, b) => {
                let a = go(a, next, value);
                Expr::binary(*op, a, go(b, next, value))
            }
        }
    }
    go(expr, &mut 0, value)
}

/// The form of a written tree: its numeric leaves at distinct generic values, simplified, then
/// printed with placeholders.
fn form_of(tree: &Expr) -> Form {
    let generic_tree = relabel(tree, &mut generic);
    let (simplified, _) = Formula::new(generic_tree).simplify().into_parts();
    let expr = relabel(&simplified, &mut generic);
    let mut placeholders = 0;
    let marked = relabel(&expr, &mut |i| {
        placeholders = i + 1;
        MARKER_BASE + i as f64
    });
    let mut text = marked.to_string();
    for i in 0..placeholders {
        let marker = super::tree::format_number(MARKER_BASE + i as f64);
        text = text.replace(&marker, &format!("{{W{}}}", i + 1));
    }
    Form {
        expr,
        placeholders,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{DepthRange, GrammarSpec};

    /// A grammar of the given functions, terminals and constants, depth cap 8.
    pub(crate) fn grammar(functions: &[&str], terminals: &[&str], constants: &[f64]) -> Grammar {
        Grammar::from_spec(GrammarSpec {
            name: "test".into(),
            description: String::new(),
            functions: functions.iter().map(|s| s.to_string()).collect(),
            terminals: terminals.iter().map(|s| s.to_string()).collect(),
            constants: constants.to_vec(),
            c_e_values: vec![1.0],
            depth_cap: 8,
            subtree_depth: DepthRange { min: 1, max: 2 },
            internal_node_probability: 0.9,
            constant_perturbation: None,
        })
        .unwrap()
    }

    fn texts(e: &Enumeration) -> Vec<&str> {
        e.forms().iter().map(Form::text).collect()
    }

    /// Each placeholder takes its own value, in the order the text shows them; past the list,
    /// the last value.
    #[test]
    fn with_values_fills_placeholders_in_order() {
        let form = Form::of(&"Q + 3*n - 5*N".parse::<Formula>().unwrap());
        assert_eq!(form.placeholders(), 2, "{}", form.text());
        let at = |values: &[f64]| form.with_values(values).to_string();
        let filled = at(&[0.5, 7.0]);
        let text = form.text().replace("{W1}", "0.5").replace("{W2}", "7");
        assert_eq!(filled, text);
        assert_eq!(
            at(&[0.5]),
            form.text().replace("{W1}", "0.5").replace("{W2}", "0.5")
        );
        assert_eq!(at(&[2.0]), form.with_constants(2.0).to_string());
    }

    #[test]
    fn a_tiny_grammar_counts_by_hand() {
        // Terminals Q, n and `+`. One node: Q, n (2 trees). Two nodes: none (no unary
        // function). Three nodes: Q + Q, Q + n, n + Q, n + n (4 trees). Written: 6.
        // Forms: Q, n, Q + n (= n + Q), and Q + Q, n + n, which the canonical form writes
        // 2*Q and 2*n, whose folded 2 is a placeholder: 5 forms.
        let e = enumerate(&grammar(&["+"], &["Q", "n"], &[]), 3, 1000).unwrap();
        assert_eq!((e.written(), e.built()), (6, 6));
        assert_eq!(texts(&e), ["Q", "n", "Q + n", "{W1}*Q", "{W1}*n"]);
        // Four nodes add nothing (a tree of `+` has an odd node count). Five nodes are built
        // from the forms above: 2 of one node (Q, n) and 3 of three (Q + n, {W1}*Q, {W1}*n),
        // pairs of sizes (1, 3) and (3, 1): 2*3 + 3*2 = 12 trees.
        let e = enumerate(&grammar(&["+"], &["Q", "n"], &[]), 5, 1000).unwrap();
        assert_eq!(e.built(), 6 + 12);
        // Written five-node trees: 2 shapes ((a+b)+c, a+(b+c)) of 3 leaves: 2*8 = 16.
        assert_eq!(e.written(), 6 + 16);
    }

    #[test]
    fn commuted_operands_are_one_form_and_constants_are_placeholders() {
        let e = enumerate(&grammar(&["+", "*"], &["Q", "n"], &[2.0, 5.0]), 3, 1000).unwrap();
        let t = texts(&e);
        assert!(t.contains(&"Q + n") && !t.contains(&"n + Q"), "{t:?}");
        // One constant leaf kind, whatever the grammar's number of constants; two constants
        // fold to one.
        assert_eq!(
            t.iter().filter(|s| s.starts_with("{W1}")).count(),
            5,
            "{t:?}"
        );
        assert!(t.contains(&"{W1}") && t.contains(&"{W1} + Q") && t.contains(&"{W1}*n"));
        // Every form a tree the grammar writes with at most 3 nodes: leaves 3, 3-node trees
        // 2 ops × 3 × 3 = 18.
        assert_eq!(e.written(), 21);
        let form = e.forms().iter().find(|f| f.text() == "{W1}*n").unwrap();
        assert_eq!(form.placeholders(), 1);
        assert_eq!(form.with_constants(0.5).to_string(), "0.5*n");
    }

    #[test]
    fn distinct_placeholders_do_not_cancel() {
        let e = enumerate(&grammar(&["-", "*"], &["Q"], &[1.0]), 7, 100_000).unwrap();
        let t = texts(&e);
        assert!(t.contains(&"{W1}*Q - {W2}*Q"), "{t:?}");
        // But the same subtree does: Q - Q is 0, a constant.
        assert!(!t.contains(&"Q - Q") && t.contains(&"{W1}"));
    }

    #[test]
    fn a_size_over_the_cap_is_refused_with_its_size() {
        let paper = Grammar::paper();
        // Leaves Q N n C and a constant: 5; two nodes: 2 functions × 5 = 10 candidates.
        let err = enumerate(&paper, 3, 9).unwrap_err();
        assert_eq!(
            err,
            EnumerateError::TooMany {
                size: 2,
                candidates: 10,
                cap: 9
            }
        );
        assert!(err.to_string().contains("at most 1 nodes"), "{err}");
        assert!(enumerate(&paper, 3, 10).is_err(), "three nodes have more");
        assert!(enumerate(&paper, 2, 10).is_ok());
        assert_eq!(
            enumerate(&paper, 0, 10).unwrap_err(),
            EnumerateError::Nodes(0)
        );
    }

    #[test]
    fn the_depth_cap_bounds_what_is_written() {
        let mut spec = grammar(&["sqrt"], &["Q"], &[]).to_spec();
        spec.depth_cap = 2;
        spec.subtree_depth = DepthRange { min: 1, max: 2 };
        let g = Grammar::from_spec(spec).unwrap();
        let e = enumerate(&g, 5, 100).unwrap();
        // Q, sqrt(Q), sqrt(sqrt(Q)); deeper chains exceed the cap.
        assert_eq!(e.written(), 3);
        assert_eq!(texts(&e), ["Q", "sqrt(Q)", "sqrt(sqrt(Q))"]);
    }

    /// Every tree of at most `max_nodes` nodes, built from every smaller tree.
    fn every_tree(grammar: &Grammar, max_nodes: usize) -> Vec<Expr> {
        let alphabet = Alphabet::of(grammar);
        let mut pools: Vec<Vec<Expr>> = vec![Vec::new(); max_nodes + 1];
        for size in 1..=max_nodes {
            let mut trees = Vec::new();
            alphabet.build(&pools, size, &mut |t| trees.push(t));
            pools[size] = trees;
        }
        pools.concat()
    }

    #[test]
    fn building_from_unique_forms_finds_the_forms_of_every_tree() {
        for (grammar, k) in [(Grammar::paper(), 5), (Grammar::ucb1_tuned(), 4)] {
            let all = every_tree(&grammar, k);
            assert_eq!(
                all.len() as u128,
                enumerate(&grammar, k, u64::MAX).unwrap().written()
            );
            let mut from_all: Vec<String> = all.iter().map(|t| form_of(t).text).collect();
            from_all.sort();
            from_all.dedup();
            let mut found: Vec<String> = texts(&enumerate(&grammar, k, u64::MAX).unwrap())
                .into_iter()
                .map(String::from)
                .collect();
            found.sort();
            assert_eq!(found, from_all, "{}", grammar.name());
        }
    }

    #[test]
    fn the_order_is_by_size_then_text_and_repeatable() {
        let paper = Grammar::paper();
        let a = enumerate(&paper, 4, 1_000_000).unwrap();
        let b = enumerate(&paper, 4, 1_000_000).unwrap();
        assert_eq!(a, b);
        let keys: Vec<(usize, &str)> = a.forms().iter().map(|f| (f.size(), f.text())).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}
