//! The search tree: an arena of compact nodes, with an undo journal that gives the ES
//! step a cheap private copy of the tree.
//!
//! A node stores statistics and the edge that leads to it (a move, or the tile kind a
//! chance event drew), never a game state: a simulation clones the root state once and
//! replays the edges while it descends. A node's children are contiguous in the arena,
//! allocated all at once the first time the node needs them, so a node only keeps the
//! index of its first child and their number.
//!
//! ES-MCTS scores each candidate formula on "its own copy of the tree". Copying the arena
//! (tens of thousands of nodes) 80 times per decision would dominate the cost, so
//! [`Tree::begin_overlay`] instead starts a journal: every write to a node that existed
//! before is preceded by saving that node, new nodes are appended past a mark, and
//! [`Tree::rollback`] restores the saved nodes in reverse order and truncates the arena
//! at the mark. A candidate's 10 simulations touch a few dozen nodes, so the "copy" costs
//! that many 40-byte writes.

use super::settings::TieBreak;
use evomcts_games::MoveFeatures;

/// Index of a node in the arena.
pub(crate) type NodeId = u32;

/// The root is always the first node.
pub(crate) const ROOT: NodeId = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum NodeKind {
    /// Allocated as a child slot but never reached by a simulation.
    Unexpanded,
    /// A tile is drawn: the player to move picks one of the children (moves).
    Decision,
    /// No tile is drawn: the children are tile kinds, reached by sampling the hidden
    /// counts. A move child of a decision node is a chance node (or terminal).
    Chance,
    /// The game is over: its value is the final score.
    Terminal,
}

/// The most legal moves a decision may have: a node counts its children in a `u16`
/// ([`Node::child_count`]). A game that may offer more is refused before a search starts (an
/// OpenSpiel game by its `num_distinct_actions`).
pub const MAX_LEGAL_MOVES: usize = u16::MAX as usize;

/// One node; 40 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node<M> {
    /// Sum of the rewards backpropagated through this node, from `player`'s view.
    pub sum: f64,
    /// Sum of their squares, for the variance terminal `V`.
    pub sum_sq: f64,
    pub visits: u32,
    /// Wins counted twice (a draw counts 1), from `player`'s view: Thompson sampling's
    /// successes S = wins_x2 / 2.
    pub wins_x2: u32,
    pub first_child: NodeId,
    /// 0 until the children are allocated.
    pub child_count: u16,
    /// Decision nodes: how many children have been reached. Under the default rule they
    /// are `first_child .. first_child + expanded`: children are allocated in a shuffled
    /// order and expanded in index order, so unvisited children are tried in a random
    /// order. Under first-play urgency the formula reaches them in any order.
    pub expanded: u16,
    /// The move that leads here (children of decision nodes).
    pub mv: M,
    /// The outcome's label that leads here (children of chance nodes; Carcassonne: the
    /// tile kind drawn), or for a move's node the label of the decision it was chosen at
    /// (`Game::decision_label`).
    pub tile: u8,
    pub kind: NodeKind,
    /// Whose view `sum` and `wins_x2` take: for a move node, the player who chose it; for
    /// a node reached by chance, the player to move there.
    pub player: u8,
}

impl<M: Copy> Node<M> {
    pub(crate) fn new(kind: NodeKind, player: u8, tile: u8, mv: M) -> Node<M> {
        Node {
            sum: 0.0,
            sum_sq: 0.0,
            visits: 0,
            wins_x2: 0,
            first_child: 0,
            child_count: 0,
            expanded: 0,
            mv,
            tile,
            kind,
            player,
        }
    }

    /// Mean reward from `player`'s view (0 when unvisited).
    #[inline]
    pub(crate) fn q(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.sum / self.visits as f64
        }
    }

    /// Sample variance of the rewards (population form, never negative).
    #[inline]
    pub(crate) fn variance(&self) -> f64 {
        if self.visits == 0 {
            return 0.0;
        }
        let n = self.visits as f64;
        let mean = self.sum / n;
        (self.sum_sq / n - mean * mean).max(0.0)
    }

    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.child_count as NodeId
    }
}

/// The spread of the Q values of the tree's visited moves (children of decision nodes that a
/// simulation has been through): 2σ-UCT's σ. Kept only for that policy, updated as each
/// simulation backs up (a move's old Q leaves the sums, its new one enters).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct QSpread {
    count: u32,
    sum: f64,
    sum_sq: f64,
}

impl QSpread {
    /// A move's Q went from `old` (`None`: the move had no visit) to `new`.
    #[inline]
    pub(crate) fn update(&mut self, old: Option<f64>, new: f64) {
        if let Some(old) = old {
            self.sum -= old;
            self.sum_sq -= old * old;
        } else {
            self.count += 1;
        }
        self.sum += new;
        self.sum_sq += new * new;
    }

    /// The population standard deviation of the Q values; 0 with fewer than two.
    #[inline]
    pub(crate) fn sigma(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = self.count as f64;
        let mean = self.sum / n;
        (self.sum_sq / n - mean * mean).max(0.0).sqrt()
    }
}

/// Game knowledge about the move that leads to a child of a decision node, computed once
/// when the node's children are allocated (the terminals `H` and `p`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Knowledge {
    pub heuristic: f64,
    pub prior: f64,
}

/// The all-moves-as-first statistics of a node (MCTS-RAVE only).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Amaf {
    pub visits: u32,
    pub sum: f64,
}

/// The arena, the optional AMAF array parallel to it, and the undo journal.
#[derive(Debug)]
pub(crate) struct Tree<M> {
    nodes: Vec<Node<M>>,
    /// Parallel to `nodes` when `with_amaf`, empty otherwise.
    amaf: Vec<Amaf>,
    with_amaf: bool,
    /// Parallel to `nodes` when `with_knowledge`, empty otherwise. Written only for nodes
    /// just pushed, so an overlay needs no journal for it: rollback truncates it.
    knowledge: Vec<Knowledge>,
    with_knowledge: bool,
    /// Parallel to `nodes` when `with_features` (a policy reads a move feature), empty
    /// otherwise; written like `knowledge`.
    features: Vec<MoveFeatures>,
    with_features: bool,
    /// `Some(mark)` while an overlay is open: nodes below `mark` are journaled.
    overlay_mark: Option<NodeId>,
    journal: Vec<(NodeId, Node<M>)>,
    tie_break: TieBreak,
    /// `Some` for 2σ-UCT (`Tree::track_spread`).
    spread: Option<QSpread>,
}

impl<M: Copy> Tree<M> {
    /// A tree keeping AMAF statistics, knowledge (`H`, `p`) and move features as asked;
    /// features come only with knowledge.
    pub(crate) fn new(with_amaf: bool, with_knowledge: bool, with_features: bool) -> Tree<M> {
        Tree {
            nodes: Vec::new(),
            amaf: Vec::new(),
            with_amaf,
            knowledge: Vec::new(),
            with_knowledge,
            features: Vec::new(),
            with_features: with_knowledge && with_features,
            overlay_mark: None,
            journal: Vec::new(),
            tie_break: TieBreak::ArenaOrder,
            spread: None,
        }
    }

    /// The rule [`Tree::argmax`] breaks ties by.
    pub(crate) fn set_tie_break(&mut self, tie_break: TieBreak) {
        self.tie_break = tie_break;
    }

    /// Keeps the spread of the visited moves' Q values from the next `reset` on.
    pub(crate) fn track_spread(&mut self) {
        self.spread = Some(QSpread::default());
    }

    /// The spread of the visited moves' Q values, if tracked.
    pub(crate) fn spread(&self) -> Option<&QSpread> {
        self.spread.as_ref()
    }

    /// Where backpropagation records a move's change of Q, if the spread is tracked. Never
    /// inside an overlay: only formula policies run the ES, and 2σ-UCT is not one.
    pub(crate) fn spread_mut(&mut self) -> Option<&mut QSpread> {
        debug_assert!(
            self.spread.is_none() || self.overlay_mark.is_none(),
            "spread update inside an overlay"
        );
        self.spread.as_mut()
    }

    /// The child with the largest score: the tree policies' common maximisation. Among
    /// children of equal score, the tree's [`TieBreak`] decides; the first in arena order wins
    /// what remains tied.
    #[inline]
    pub(crate) fn argmax(
        &self,
        children: std::ops::Range<NodeId>,
        mut score: impl FnMut(NodeId) -> f64,
    ) -> NodeId {
        let mut best = children.start;
        let mut best_score = f64::NEG_INFINITY;
        for child in children {
            let value = score(child);
            let better = value > best_score
                || (value == best_score
                    && match self.tie_break {
                        TieBreak::ArenaOrder => false,
                        TieBreak::MoreVisited => self.get(child).visits > self.get(best).visits,
                        TieBreak::LessVisited => self.get(child).visits < self.get(best).visits,
                    });
            if better {
                best = child;
                best_score = value;
            }
        }
        best
    }

    /// Empties the tree (keeping its memory) and makes `root` its root.
    pub(crate) fn reset(&mut self, root: Node<M>) {
        debug_assert!(self.overlay_mark.is_none(), "reset inside an overlay");
        self.nodes.clear();
        self.amaf.clear();
        self.knowledge.clear();
        self.features.clear();
        if let Some(spread) = &mut self.spread {
            *spread = QSpread::default();
        }
        self.push(root);
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn nodes(&self) -> &[Node<M>] {
        &self.nodes
    }

    /// Bytes one node costs: the node, plus its AMAF entry under RAVE and its knowledge
    /// when the policy reads it.
    pub(crate) fn bytes_per_node(&self) -> usize {
        std::mem::size_of::<Node<M>>()
            + if self.with_amaf {
                std::mem::size_of::<Amaf>()
            } else {
                0
            }
            + if self.with_knowledge {
                std::mem::size_of::<Knowledge>()
            } else {
                0
            }
            + if self.with_features {
                std::mem::size_of::<MoveFeatures>()
            } else {
                0
            }
    }

    #[inline]
    pub(crate) fn push(&mut self, node: Node<M>) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        if self.with_amaf {
            self.amaf.push(Amaf::default());
        }
        if self.with_knowledge {
            self.knowledge.push(Knowledge::default());
        }
        if self.with_features {
            self.features.push(MoveFeatures::default());
        }
        id
    }

    #[inline]
    pub(crate) fn get(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id as usize]
    }

    /// Write access; inside an overlay, saves the node first if it predates the overlay.
    #[inline]
    pub(crate) fn get_mut(&mut self, id: NodeId) -> &mut Node<M> {
        if let Some(mark) = self.overlay_mark {
            if id < mark {
                self.journal.push((id, self.nodes[id as usize]));
            }
        }
        &mut self.nodes[id as usize]
    }

    #[inline]
    pub(crate) fn amaf(&self, id: NodeId) -> &Amaf {
        &self.amaf[id as usize]
    }

    /// AMAF statistics are never written inside an overlay (the ES runs only with
    /// formula selection, which does not keep them).
    #[inline]
    pub(crate) fn amaf_mut(&mut self, id: NodeId) -> &mut Amaf {
        debug_assert!(self.overlay_mark.is_none(), "AMAF update inside an overlay");
        &mut self.amaf[id as usize]
    }

    #[inline]
    pub(crate) fn knowledge(&self, id: NodeId) -> &Knowledge {
        &self.knowledge[id as usize]
    }

    /// Knowledge is set once, when the children are allocated: inside an overlay only
    /// nodes the overlay added, which rollback drops.
    #[inline]
    pub(crate) fn knowledge_mut(&mut self, id: NodeId) -> &mut Knowledge {
        debug_assert!(
            self.overlay_mark.is_none_or(|mark| id >= mark),
            "knowledge of a node older than the overlay"
        );
        &mut self.knowledge[id as usize]
    }

    pub(crate) fn has_knowledge(&self) -> bool {
        self.with_knowledge
    }

    #[inline]
    pub(crate) fn features(&self, id: NodeId) -> &MoveFeatures {
        &self.features[id as usize]
    }

    /// Set like knowledge, once, when the children are allocated.
    #[inline]
    pub(crate) fn features_mut(&mut self, id: NodeId) -> &mut MoveFeatures {
        debug_assert!(
            self.overlay_mark.is_none_or(|mark| id >= mark),
            "features of a node older than the overlay"
        );
        &mut self.features[id as usize]
    }

    pub(crate) fn has_features(&self) -> bool {
        self.with_features
    }

    pub(crate) fn has_amaf(&self) -> bool {
        self.with_amaf
    }

    pub(crate) fn in_overlay(&self) -> bool {
        self.overlay_mark.is_some()
    }

    /// Starts a private copy of the tree: later writes can be undone by `rollback`.
    pub(crate) fn begin_overlay(&mut self) {
        assert!(self.overlay_mark.is_none(), "overlays do not nest");
        self.journal.clear();
        self.overlay_mark = Some(self.nodes.len() as NodeId);
    }

    /// Undoes every write since `begin_overlay` and drops the nodes added since.
    pub(crate) fn rollback(&mut self) {
        let mark = self.overlay_mark.take().expect("rollback without overlay");
        for &(id, saved) in self.journal.iter().rev() {
            self.nodes[id as usize] = saved;
        }
        self.journal.clear();
        self.nodes.truncate(mark as usize);
        if self.with_amaf {
            self.amaf.truncate(mark as usize);
        }
        if self.with_knowledge {
            self.knowledge.truncate(mark as usize);
        }
        if self.with_features {
            self.features.truncate(mark as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// A move of five bytes with alignment 1, as Carcassonne's (square, rotation, meeple).
    type Move = [u8; 5];

    fn leaf(player: u8) -> Node<Move> {
        Node::new(NodeKind::Chance, player, 0, [0; 5])
    }

    #[test]
    fn node_stays_compact() {
        assert_eq!(std::mem::size_of::<Node<Move>>(), 40);
    }

    #[test]
    fn rollback_restores_every_touched_node_and_drops_new_ones() {
        let mut tree = Tree::new(false, false, false);
        tree.reset(leaf(0));
        let a = tree.push(leaf(1));
        tree.get_mut(a).visits = 3;
        tree.get_mut(a).sum = 7.5;
        let before = tree.nodes().to_vec();

        tree.begin_overlay();
        for _ in 0..3 {
            let node = tree.get_mut(a);
            node.visits += 1;
            node.sum += 2.0;
        }
        tree.get_mut(ROOT).child_count = 1;
        let b = tree.push(leaf(0));
        tree.get_mut(b).visits = 9;
        assert_eq!(tree.get(a).visits, 6);
        assert_eq!(tree.len(), 3);
        tree.rollback();

        assert_eq!(tree.nodes(), &before[..]);
    }

    /// Among children of equal score the rule decides (then arena order); a higher score
    /// beats any tie.
    #[test]
    fn ties_go_where_the_rule_says() {
        let mut tree = Tree::new(false, false, false);
        tree.reset(leaf(0));
        let children: Vec<NodeId> = [2, 3, 1, 3]
            .into_iter()
            .map(|visits| {
                let id = tree.push(leaf(1));
                tree.get_mut(id).visits = visits;
                id
            })
            .collect();
        let range = children[0]..children[3] + 1;
        for (rule, tied, higher) in [
            (TieBreak::ArenaOrder, children[0], children[2]),
            (TieBreak::MoreVisited, children[1], children[2]),
            (TieBreak::LessVisited, children[2], children[2]),
        ] {
            tree.set_tie_break(rule);
            assert_eq!(tree.argmax(range.clone(), |_| 0.5), tied, "{rule:?}");
            let score = |id| if id == children[2] { 0.6 } else { 0.5 };
            assert_eq!(tree.argmax(range.clone(), score), higher, "{rule:?}");
        }
    }

    #[test]
    fn variance_of_constant_rewards_is_zero() {
        let mut node = leaf(0);
        for r in [4.0, 4.0, 4.0] {
            node.visits += 1;
            node.sum += r;
            node.sum_sq += r * r;
        }
        assert_eq!(node.variance(), 0.0);
        node.visits += 1;
        node.sum += 8.0;
        node.sum_sq += 64.0;
        assert!((node.variance() - 3.0).abs() < 1e-12);
    }
}
