//! MCTS-RAVE: all-moves-as-first (AMAF) statistics blended into UCT with the
//! minimum-MSE schedule (Gelly & Silver), as in the MCTS-RAVE of the group's second
//! Carcassonne paper.
//!
//! The action of an AMAF update is the game's action key (`Game::action_key`): a move
//! with its player and its decision's label (in Carcassonne the tile kind, its square,
//! rotation and meeple segment). After a simulation, every move child `c` of every
//! decision node `d` on the path gets an AMAF update when `d`'s player played `c`'s move
//! (same label) at `d` or at any later turn of the simulation, in the tree or in the
//! rollout. The value blended in is
//!
//! `(1-β)·Q + β·Q_AMAF + 2·C·sqrt(2·ln(N)/n)`, `β = Ñ / (n + Ñ + 4·bias²·n·Ñ)`
//!
//! with `n` the child's visits and `Ñ` its AMAF visits; the exploration term is the
//! main paper's UCT term, so RAVE with no AMAF data is exactly UCT.

use super::tree::{NodeId, Tree};
use evomcts_games::Game;

pub(crate) fn select<M: Copy>(tree: &Tree<M>, parent: NodeId, c_e: f64, bias: f64) -> NodeId {
    let node = tree.get(parent);
    let ln_parent = (node.visits as f64).ln();
    let four_b2 = 4.0 * bias * bias;
    tree.argmax(node.children(), |id| {
        let child = tree.get(id);
        let n = child.visits as f64;
        let amaf = tree.amaf(id);
        let blended = if amaf.visits == 0 {
            child.q()
        } else {
            let n_amaf = amaf.visits as f64;
            let beta = n_amaf / (n + n_amaf + four_b2 * n * n_amaf);
            (1.0 - beta) * child.q() + beta * (amaf.sum / n_amaf)
        };
        blended + (2.0 * c_e) * ((2.0 * ln_parent) / n).sqrt()
    })
}

/// A small open-addressing set of AMAF keys, reused across simulations.
#[derive(Debug)]
pub(crate) struct KeySet {
    /// `key + 1`, 0 meaning empty. A Carcassonne game has at most 72 moves, so the first 256
    /// slots keep probes short; a game with more distinct actions in one simulation makes
    /// the table grow (at three quarters full), so a probe always finds an empty slot.
    slots: Vec<u64>,
    /// Keys held.
    len: usize,
    /// 32 − log2(slots.len()): Fibonacci hashing keeps the hash's top bits.
    shift: u32,
}

impl Default for KeySet {
    fn default() -> Self {
        KeySet {
            slots: vec![0; 256],
            len: 0,
            shift: 24,
        }
    }
}

impl KeySet {
    pub(crate) fn clear(&mut self) {
        self.slots.fill(0);
        self.len = 0;
    }

    #[inline]
    fn slot_of(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> self.shift) as usize
    }

    pub(crate) fn insert(&mut self, key: u32) {
        let stored = u64::from(key) + 1;
        let mask = self.slots.len() - 1;
        let mut i = self.slot_of(key);
        loop {
            match self.slots[i] {
                0 => break,
                s if s == stored => return,
                _ => i = (i + 1) & mask,
            }
        }
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
            return self.insert(key);
        }
        self.slots[i] = stored;
        self.len += 1;
    }

    /// Doubles the table and puts every key back.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        self.len = 0;
        for stored in old.into_iter().filter(|&s| s != 0) {
            self.insert((stored - 1) as u32);
        }
    }

    #[inline]
    pub(crate) fn contains(&self, key: u32) -> bool {
        let stored = u64::from(key) + 1;
        let mask = self.slots.len() - 1;
        let mut i = self.slot_of(key);
        loop {
            match self.slots[i] {
                0 => return false,
                s if s == stored => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

/// One move of a simulation, for the AMAF update.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    pub key: u32,
}

/// Updates the AMAF statistics of the children of the decision nodes in `decisions`
/// (node id, index in `played` of the move chosen there, the decision's label), listed root
/// first.
/// `reward0` is the simulation's reward from player 0's view.
pub(crate) fn update<G: Game>(
    tree: &mut Tree<G::Move>,
    decisions: &[(NodeId, usize, u8)],
    played: &[Played],
    reward0: f64,
    seen: &mut KeySet,
) {
    seen.clear();
    let mut inserted_from = played.len();
    for &(decision, index, label) in decisions.iter().rev() {
        for p in &played[index..inserted_from] {
            seen.insert(p.key);
        }
        inserted_from = inserted_from.min(index);
        let node = *tree.get(decision);
        // The children's player is the one who decides at `decision` (the node's own
        // `player` is whoever chose the move into it, when a move leads to a decision).
        let player = tree.get(node.first_child).player;
        let reward = if player == 0 { reward0 } else { -reward0 };
        for child in node.children() {
            let mv = tree.get(child).mv;
            if seen.contains(G::action_key(player, label, mv)) {
                let amaf = tree.amaf_mut(child);
                amaf.visits += 1;
                amaf.sum += reward;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_set_grows_past_its_first_table_and_takes_every_key() {
        let mut set = KeySet::default();
        let keys: Vec<u32> = (0..2000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .chain([u32::MAX])
            .collect();
        for &k in &keys {
            set.insert(k);
            set.insert(k);
        }
        for &k in &keys {
            assert!(set.contains(k));
        }
        assert_eq!(set.len, keys.len());
        assert!(!set.contains(7));
        set.clear();
        assert!(keys.iter().all(|&k| !set.contains(k)));
    }

    #[test]
    fn key_set_finds_what_was_inserted_only() {
        let mut set = KeySet::default();
        for k in (0..200u32).map(|i| i * 7919) {
            set.insert(k);
        }
        for i in 0..200u32 {
            assert!(set.contains(i * 7919));
            assert!(!set.contains(i * 7919 + 1));
        }
        set.clear();
        assert!(!set.contains(0));
    }
}
