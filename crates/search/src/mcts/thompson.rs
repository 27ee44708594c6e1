//! Thompson sampling as the tree policy, plain and with posterior reshaping.
//!
//! Each child keeps S wins and F = n − S losses from the view of the player who chose
//! it. With score-difference rewards a win is derived from the sign of the simulation's
//! final score difference: a win counts 1, a draw ½ (half a success, half a failure),
//! a loss 0, whatever reward the other statistics use. The child with the largest draw
//! θ ~ Beta(S+1, F+1) is selected; reshaped, θ ~ Beta((S+1)/φ, (F+1)/φ) with the UCT
//! exploration bonus φ = sqrt(ln N / n), which flattens the posterior of rarely visited
//! children and sharpens that of well-explored ones.

use rand::Rng;
use rand_distr::{Beta, Distribution};

use super::tree::{NodeId, Tree};

/// Smallest φ used: when N = n (a single child), ln N / n can be 0.
const MIN_PHI: f64 = 1e-3;

pub(crate) fn select<M: Copy, R: Rng + ?Sized>(
    tree: &Tree<M>,
    parent: NodeId,
    reshaped: bool,
    rng: &mut R,
) -> NodeId {
    let node = tree.get(parent);
    let ln_parent = (node.visits as f64).ln();
    tree.argmax(node.children(), |id| {
        let child = tree.get(id);
        let n = child.visits as f64;
        let successes = child.wins_x2 as f64 / 2.0;
        let failures = (n - successes).max(0.0);
        let (mut alpha, mut beta) = (successes + 1.0, failures + 1.0);
        if reshaped {
            let phi = (ln_parent / n).sqrt().max(MIN_PHI);
            alpha /= phi;
            beta /= phi;
        }
        // Both parameters are finite and positive, so construction cannot fail.
        Beta::new(alpha, beta).map_or(0.5, |d| d.sample(rng))
    })
}
