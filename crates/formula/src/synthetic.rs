//! Synthetic sibling sets: selection situations drawn from a seeded distribution rather than
//! recorded from searches, for a positive control whose best formula is known (a fitness that
//! rewards picking the child a planted formula picks, `evolve::planted`).
//!
//! Each set is one parent: 2 to [`MAX_CHILDREN`] children; each child has visits n uniform in
//! 1..=[`MAX_VISITS`], mean reward Q uniform in [−1, 1], a reward variance uniform in [0, 1]
//! and a heuristic H uniform in [−1, 1]; the parent's visits N are the children's sum plus one,
//! its Q the visit-weighted mean of theirs, K the number of children, every child's prior p the
//! softmax of the siblings' H, and C_E the caller's value. Move features stay 0. The draws come
//! from one `Pcg64Mcg` seeded with `seed`, in that order, so a seed gives the same sets on every
//! platform. The distribution is a stand-in, not a model of any game: it has ties of neither Q
//! nor H (both continuous), so it cannot tell tie rules apart.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::fingerprint::SiblingSets;
use super::terminals::SelectionInputs;

/// The most children a synthetic set has.
pub const MAX_CHILDREN: usize = 8;
/// The most visits a synthetic child has.
pub const MAX_VISITS: u32 = 30;

/// `sets` synthetic sibling sets from `seed`, C_E `c_e` in every child (see the module
/// documentation).
pub fn synthetic_bank(sets: usize, seed: u64, c_e: f64) -> SiblingSets {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut bank = SiblingSets::new();
    let mut children = Vec::with_capacity(MAX_CHILDREN);
    for _ in 0..sets {
        children.clear();
        let k = rng.gen_range(2..=MAX_CHILDREN);
        for _ in 0..k {
            let n = f64::from(rng.gen_range(1..=MAX_VISITS));
            let mut child = SelectionInputs::new(rng.gen_range(-1.0..=1.0), 0.0, n, c_e);
            child.reward_variance = rng.gen_range(0.0..=1.0);
            child.heuristic = rng.gen_range(-1.0..=1.0);
            children.push(child);
        }
        let visits: f64 = children.iter().map(|c| c.child_visits).sum();
        let parent_q = children.iter().map(|c| c.q * c.child_visits).sum::<f64>() / visits;
        let top = children
            .iter()
            .map(|c| c.heuristic)
            .fold(f64::NEG_INFINITY, f64::max);
        let weights: f64 = children.iter().map(|c| (c.heuristic - top).exp()).sum();
        for child in &mut children {
            child.parent_visits = visits + 1.0;
            child.parent_q = parent_q;
            child.siblings = k as f64;
            child.prior = (child.heuristic - top).exp() / weights;
        }
        bank.push_set(children.iter().copied());
    }
    bank
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seed gives the same sets; another seed others; every set is as the module says.
    #[test]
    fn sets_are_seeded_and_well_formed() {
        let a = synthetic_bank(200, 7, 0.5);
        assert_eq!(a, synthetic_bank(200, 7, 0.5));
        assert_ne!(a, synthetic_bank(200, 8, 0.5));
        assert_eq!(a.len(), 200);
        for set in a.iter() {
            assert!((2..=MAX_CHILDREN).contains(&set.len()));
            let visits: f64 = set.iter().map(|c| c.child_visits).sum();
            let priors: f64 = set.iter().map(|c| c.prior).sum();
            assert!((priors - 1.0).abs() < 1e-12);
            for c in set {
                assert_eq!(c.parent_visits, visits + 1.0);
                assert_eq!(c.siblings, set.len() as f64);
                assert_eq!(c.c_e, 0.5);
                assert!((-1.0..=1.0).contains(&c.q) && (-1.0..=1.0).contains(&c.heuristic));
                assert!(c.child_visits >= 1.0 && c.child_visits <= f64::from(MAX_VISITS));
            }
        }
    }
}
