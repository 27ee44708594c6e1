//! Functional fingerprints: what a formula *does* on a fixed bank of selection situations,
//! rather than how it is written.
//!
//! Two formulas that pick the same child in every sibling set of the bank behave alike as
//! tree policies there, whatever their text: `2*(Q + x)` and `Q + x` rank every set the same
//! way, and so does a formula whose extra term never decides. Evolution uses the fingerprint
//! to avoid scoring such a candidate again (`evolve::hashing`). The fingerprint only reads the
//! argmax, so any strictly increasing transform that keeps values apart keeps it.

use super::compiled::CompiledFormula;
use super::tree::SelectionInputs;

/// Sibling sets: for each set, the inputs every child showed the tree policy, stored flat so a
/// bank of thousands of sets is two allocations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SiblingSets {
    inputs: Vec<SelectionInputs>,
    /// Where each set ends in `inputs` (exclusive).
    ends: Vec<usize>,
}

impl SiblingSets {
    pub fn new() -> SiblingSets {
        SiblingSets::default()
    }

    /// Adds one set; an empty one is ignored (there is nothing to pick from).
    pub fn push_set(&mut self, children: impl IntoIterator<Item = SelectionInputs>) {
        self.inputs.extend(children);
        if self.ends.last().copied().unwrap_or(0) < self.inputs.len() {
            self.ends.push(self.inputs.len());
        }
    }

    /// The number of sets.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The number of children over all sets.
    pub fn children(&self) -> usize {
        self.inputs.len()
    }

    /// Set `i`'s children.
    pub fn set(&self, i: usize) -> &[SelectionInputs] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.inputs[start..self.ends[i]]
    }

    pub fn iter(&self) -> impl Iterator<Item = &[SelectionInputs]> + '_ {
        (0..self.len()).map(|i| self.set(i))
    }

    /// Keeps the first `sets` sets.
    pub fn truncate(&mut self, sets: usize) {
        if sets < self.ends.len() {
            self.ends.truncate(sets);
            self.inputs.truncate(self.ends.last().copied().unwrap_or(0));
        }
    }

    /// Appends every set of `other`, in order.
    pub fn append(&mut self, other: &SiblingSets) {
        for set in other.iter() {
            self.push_set(set.iter().copied());
        }
    }
}

/// The index of the first largest value: the search's own maximisation (`tree::argmax` in
/// `search::mcts`), so a fingerprint names the child the tree policy would descend into.
/// A NaN never wins; with no value above −∞ the first index wins.
pub fn first_argmax(values: impl IntoIterator<Item = f64>) -> usize {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, value) in values.into_iter().enumerate() {
        if value > best_value {
            best = i;
            best_value = value;
        }
    }
    best
}

/// FNV-1a, 64 bits: a stable hash (the same on every platform and Rust version), unlike the
/// standard library's, so fingerprints and spec hashes can be compared across processes.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The child `formula` picks in each set, in order.
pub fn choices(formula: &CompiledFormula, sets: &SiblingSets) -> Vec<u32> {
    sets.iter()
        .map(|set| first_argmax(set.iter().map(|inputs| formula.eval(inputs))) as u32)
        .collect()
}

/// The formula's fingerprint on `sets`: a hash of the child it picks in every set. Equal
/// choices give equal fingerprints; different choices collide with probability about 2⁻⁶⁴.
pub fn fingerprint(formula: &CompiledFormula, sets: &SiblingSets) -> u64 {
    fnv1a(sets.iter().flat_map(|set| {
        (first_argmax(set.iter().map(|inputs| formula.eval(inputs))) as u32).to_le_bytes()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Formula;

    fn inputs(q: f64, n: f64) -> SelectionInputs {
        SelectionInputs::new(q, 10.0, n, 0.5)
    }

    fn bank() -> SiblingSets {
        let mut sets = SiblingSets::new();
        sets.push_set([inputs(0.1, 3.0), inputs(0.4, 5.0), inputs(0.2, 2.0)]);
        sets.push_set([]);
        sets.push_set([inputs(0.9, 8.0), inputs(0.1, 1.0)]);
        sets
    }

    fn compiled(text: &str) -> CompiledFormula {
        CompiledFormula::new(&Formula::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn sets_keep_their_bounds_and_truncate_whole() {
        let mut sets = bank();
        assert_eq!(sets.len(), 2, "an empty set is not kept");
        assert_eq!(sets.set(1).len(), 2);
        assert_eq!(sets.children(), 5);
        let mut copy = SiblingSets::new();
        copy.append(&sets);
        assert_eq!(copy, sets);
        sets.truncate(1);
        assert_eq!((sets.len(), sets.children()), (1, 3));
    }

    #[test]
    fn the_fingerprint_follows_the_choices() {
        let sets = bank();
        assert_eq!(choices(&compiled("Q"), &sets), vec![1, 0]);
        // Fewest visits first: child 2 of the first set, child 1 of the second.
        assert_eq!(choices(&compiled("0 - n"), &sets), vec![2, 1]);
        assert_eq!(
            fingerprint(&compiled("Q"), &sets),
            fingerprint(&compiled("3*Q + 1"), &sets)
        );
        assert_ne!(
            fingerprint(&compiled("Q"), &sets),
            fingerprint(&compiled("0 - n"), &sets)
        );
    }

    #[test]
    fn first_maximum_wins_and_nan_never_does() {
        assert_eq!(first_argmax([1.0, 3.0, 3.0]), 1);
        assert_eq!(first_argmax([f64::NAN, 0.5, f64::NAN]), 1);
        assert_eq!(first_argmax([f64::NEG_INFINITY, f64::NEG_INFINITY]), 0);
    }
}
