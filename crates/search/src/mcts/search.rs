//! One decision's search: simulations through decision and chance nodes, random
//! rollouts, backpropagation, and the candidate evaluations of the ES step.
//!
//! A simulation clones the root state into a reusable buffer and replays the tree's
//! edges while it descends, so nodes hold no game state. At a decision node an
//! unvisited child is expanded if one is left (one expansion per simulation), otherwise
//! the policy picks a child. At a chance node the game samples an outcome (Carcassonne: a
//! tile kind with the probability of its hidden count; the search sees the multiset of
//! hidden tiles, never their order); what follows an outcome is the game's business, so
//! an outcome's node may be a decision, another chance node or the end. A move may lead
//! straight to another decision (Pig's hold). The first time an outcome is drawn its node
//! is the simulation's expansion.
//! Nothing on the per-simulation path allocates once the buffers have grown.

use rand::seq::SliceRandom;

use super::rave::{self, KeySet, Played};
use super::selection::Policy;
use super::settings::{EsFitness, EsMode, FinalMove, Reward, Unvisited};
use super::tree::{Node, NodeId, NodeKind, Tree, ROOT};
use evomcts_games::{Game, GameRng, MoveAssessment};

/// How the ES scores one candidate ([`Core::evaluate_candidate`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scoring {
    pub mode: EsMode,
    pub sims: u32,
    pub fitness: EsFitness,
    /// The rule `Recommendation` applies on the candidate's overlay.
    pub final_move: FinalMove,
    /// Back every simulation's result up into the real root child and root.
    pub write_back: bool,
}

/// How the terminals `H` and `p` (and the move features) are computed, for policies that
/// read them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct KnowledgeSettings {
    /// Points of score difference per unit of `H` (the reward's unit).
    pub points_per_unit: f64,
    /// τ of the softmax that gives `p`.
    pub temperature: f64,
    /// Whether the policy reads a move feature (`G`, `O`, `M`, `F`, `R`, `L`, `T`).
    pub features: bool,
}

/// Everything a decision's simulations work on.
pub(crate) struct Core<G: Game> {
    pub tree: Tree<G::Move>,
    pub rng: GameRng,
    c_e: f64,
    reward: Reward,
    rollouts: u32,
    unvisited: Unvisited,
    knowledge: Option<KnowledgeSettings>,
    root_state: Box<G>,
    /// Where a child's move is tried to compute its `H`.
    knowledge_state: Box<G>,
    /// The game's assessment of each move of the node being allocated.
    assessments: Vec<MoveAssessment>,
    /// Moves tried for `H` since `begin`.
    knowledge_evaluations: u64,
    sim_state: Box<G>,
    rollout_state: Box<G>,
    moves: Vec<G::Move>,
    path: Vec<NodeId>,
    /// RAVE: the moves of the current simulation, and for each decision of the tree its
    /// node, where its move is in `played`, and its label (`Game::decision_label`).
    played: Vec<Played>,
    decisions: Vec<(NodeId, usize, u8)>,
    seen: KeySet,
    /// The last simulation's reward and win count ×2, from player 0's view.
    last_result: (f64, u32),
    /// A candidate's results to write back: reward and wins from player 0's view, and the
    /// root child.
    write_backs: Vec<(f64, u32, NodeId)>,
    /// Since `begin`, in the decision's own simulations (not the ES's candidates): how often
    /// the tree policy chose among two or more children, anywhere and at the root.
    consulted: Consulted,
}

/// How often a decision's own simulations asked the tree policy to choose among two or more
/// children: where a decision has more legal moves than its budget, under the default
/// `unvisited: TriedFirst`, never, and the search is flat Monte Carlo whatever the formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Consulted {
    pub anywhere: u64,
    pub at_root: u64,
}

impl<G: Game> Core<G> {
    pub(crate) fn new(
        rng: GameRng,
        c_e: f64,
        reward: Reward,
        rollouts: u32,
        rave: bool,
        unvisited: Unvisited,
        knowledge: Option<KnowledgeSettings>,
    ) -> Core<G> {
        let blank = Box::new(G::placeholder());
        Core {
            tree: Tree::new(
                rave,
                knowledge.is_some(),
                knowledge.is_some_and(|k| k.features),
            ),
            rng,
            c_e,
            reward,
            rollouts,
            unvisited,
            knowledge,
            root_state: blank.clone(),
            knowledge_state: blank.clone(),
            assessments: Vec::with_capacity(256),
            knowledge_evaluations: 0,
            sim_state: blank.clone(),
            rollout_state: blank,
            moves: Vec::with_capacity(256),
            path: Vec::with_capacity(128),
            played: Vec::with_capacity(128),
            decisions: Vec::with_capacity(128),
            seen: KeySet::default(),
            last_result: (0.0, 0),
            write_backs: Vec::with_capacity(64),
            consulted: Consulted::default(),
        }
    }

    /// How often this decision's simulations consulted the tree policy so far.
    pub(crate) fn consulted(&self) -> Consulted {
        self.consulted
    }

    /// Starts a new tree whose root is `state`, which must be at a decision.
    pub(crate) fn begin(&mut self, state: &G) {
        debug_assert!(state.at_decision(), "the caller checked a decision is due");
        self.root_state.as_mut().clone_from(state);
        self.knowledge_evaluations = 0;
        self.consulted = Consulted::default();
        self.tree.reset(Node::new(
            NodeKind::Decision,
            state.to_move() as u8,
            state.decision_label(),
            G::Move::default(),
        ));
        self.allocate_moves(ROOT, false);
    }

    /// Gives decision node `decision` one child per legal move of the position in
    /// `sim_state` (`in_simulation`) or `root_state`, in a random order, with their knowledge
    /// when the policy reads it.
    fn allocate_moves(&mut self, decision: NodeId, in_simulation: bool) {
        let state: &mut G = if in_simulation {
            &mut self.sim_state
        } else {
            &mut self.root_state
        };
        let first = self.tree.len() as NodeId;
        allocate_moves(
            &mut self.tree,
            decision,
            state,
            &mut self.moves,
            &mut self.rng,
        );
        if let Some(knowledge) = self.knowledge {
            self.knowledge_evaluations += self.tree.len() as u64 - first as u64;
            // `allocate_moves` left the children's moves in `self.moves`, in arena order.
            state.assess_moves(
                &self.moves,
                knowledge.points_per_unit,
                knowledge.features,
                &mut self.knowledge_state,
                &mut self.assessments,
            );
            assign_knowledge(&mut self.tree, first, &self.assessments, knowledge);
        }
    }

    pub(crate) fn knowledge_evaluations(&self) -> u64 {
        self.knowledge_evaluations
    }

    pub(crate) fn root_state(&self) -> &G {
        &self.root_state
    }

    /// The root has no unvisited child left.
    pub(crate) fn root_fully_expanded(&self) -> bool {
        let root = self.tree.get(ROOT);
        root.expanded == root.child_count
    }

    /// One simulation. With `backup`, it expands one node and backpropagates; without,
    /// it only descends (with the policy, unvisited children first) and rolls out,
    /// leaving the tree untouched. Returns the reward from the root player's view and
    /// the root child it went through.
    pub(crate) fn simulate(&mut self, policy: &Policy, backup: bool) -> (f64, NodeId) {
        self.sim_state.clone_from(&self.root_state);
        let record_played = backup && self.tree.has_amaf();
        self.path.clear();
        self.played.clear();
        self.decisions.clear();
        self.path.push(ROOT);
        let mut root_child = ROOT;
        let mut node_id = ROOT;
        loop {
            let node = *self.tree.get(node_id);
            match node.kind {
                NodeKind::Terminal => break,
                NodeKind::Unexpanded => unreachable!("the path only holds reached nodes"),
                NodeKind::Decision => {
                    if node.child_count == 0 {
                        if !backup {
                            break;
                        }
                        self.allocate_moves(node_id, true);
                    }
                    let node = *self.tree.get(node_id);
                    if backup && !self.tree.in_overlay() && node.child_count > 1 {
                        let asks = match self.unvisited {
                            Unvisited::TriedFirst => node.expanded == node.child_count,
                            Unvisited::Ranked(_) => true,
                        };
                        if asks {
                            self.consulted.anywhere += 1;
                            self.consulted.at_root += u64::from(node_id == ROOT);
                        }
                    }
                    let (child, expanding) = match self.unvisited {
                        Unvisited::TriedFirst if node.expanded < node.child_count => {
                            (node.first_child + node.expanded as NodeId, true)
                        }
                        Unvisited::TriedFirst => (
                            policy.select(&self.tree, node_id, self.c_e, &mut self.rng),
                            false,
                        ),
                        Unvisited::Ranked(urgency) => {
                            let child =
                                policy.select_with_urgency(&self.tree, node_id, self.c_e, urgency);
                            (child, self.tree.get(child).kind == NodeKind::Unexpanded)
                        }
                    };
                    let mv = self.tree.get(child).mv;
                    if record_played {
                        let label = self.sim_state.decision_label();
                        self.decisions.push((node_id, self.played.len(), label));
                        self.played.push(Played {
                            key: G::action_key(self.sim_state.to_move() as u8, label, mv),
                        });
                    }
                    self.sim_state
                        .apply_legal_move(mv)
                        .expect("moves in the tree are legal in the replayed state");
                    if node_id == ROOT {
                        root_child = child;
                    }
                    if expanding {
                        if backup {
                            self.tree.get_mut(node_id).expanded += 1;
                            let state = &self.sim_state;
                            let kind = if state.at_decision() {
                                NodeKind::Decision
                            } else if state.is_terminal() {
                                NodeKind::Terminal
                            } else {
                                NodeKind::Chance
                            };
                            // Keeps the chooser as `player`: the node's statistics are
                            // the move's, from the view of whoever chose it.
                            self.tree.get_mut(child).kind = kind;
                            self.path.push(child);
                        }
                        break;
                    }
                    self.path.push(child);
                    node_id = child;
                }
                NodeKind::Chance => {
                    if node.child_count == 0 {
                        if !backup {
                            break;
                        }
                        allocate_outcomes(&mut self.tree, node_id, &*self.sim_state);
                    }
                    let Some(slot) = self.sim_state.sample_chance(&mut self.rng) else {
                        // The game ended in the chance event itself (Carcassonne's
                        // bottom-of-stack rule with nothing placeable left); the
                        // rollout only scores it.
                        break;
                    };
                    let child = self.tree.get(node_id).first_child + slot as NodeId;
                    if self.tree.get(child).kind == NodeKind::Unexpanded {
                        if backup {
                            let kind = if self.sim_state.at_decision() {
                                NodeKind::Decision
                            } else if self.sim_state.is_terminal() {
                                NodeKind::Terminal
                            } else {
                                NodeKind::Chance
                            };
                            let child_node = self.tree.get_mut(child);
                            child_node.kind = kind;
                            child_node.player = self.sim_state.to_move() as u8;
                            self.path.push(child);
                        }
                        break;
                    }
                    self.path.push(child);
                    node_id = child;
                }
            }
        }

        let (reward0, wins0_x2) = self.roll_out(record_played);
        self.last_result = (reward0, wins0_x2);
        if backup {
            self.backpropagate(reward0, wins0_x2);
            if record_played && !self.tree.in_overlay() {
                rave::update::<G>(
                    &mut self.tree,
                    &self.decisions,
                    &self.played,
                    reward0,
                    &mut self.seen,
                );
            }
        }
        let root_player = self.tree.get(ROOT).player;
        (
            if root_player == 0 { reward0 } else { -reward0 },
            root_child,
        )
    }

    /// Plays the configured number of random games from the simulation state. Returns
    /// the mean reward and the win count ×2 (from the sign of the mean score
    /// difference), both from player 0's view.
    fn roll_out(&mut self, record_played: bool) -> (f64, u32) {
        let mut reward_sum = 0.0;
        let mut diff_sum = 0i64;
        for _ in 0..self.rollouts {
            let state: &mut G = if self.rollouts == 1 {
                &mut self.sim_state
            } else {
                self.rollout_state.clone_from(&self.sim_state);
                &mut self.rollout_state
            };
            if record_played {
                play_out_recording(state, &mut self.rng, &mut self.played);
            } else {
                state.play_out_randomly(&mut self.rng);
            }
            let scores = state.scores();
            let diff = scores[0] - scores[1];
            diff_sum += diff as i64;
            reward_sum += self.reward.of_difference(diff);
        }
        let wins0_x2 = match diff_sum.signum() {
            1 => 2,
            0 => 1,
            _ => 0,
        };
        (reward_sum / self.rollouts as f64, wins0_x2)
    }

    fn backpropagate(&mut self, reward0: f64, wins0_x2: u32) {
        if self.tree.spread().is_some() {
            self.note_spread(reward0);
        }
        for i in 0..self.path.len() {
            let node = self.tree.get_mut(self.path[i]);
            let (reward, wins_x2) = if node.player == 0 {
                (reward0, wins0_x2)
            } else {
                (-reward0, 2 - wins0_x2)
            };
            node.visits += 1;
            node.sum += reward;
            node.sum_sq += reward * reward;
            node.wins_x2 += wins_x2;
        }
    }

    /// Records in the tree's Q spread the change the coming backup makes to each move on the
    /// path (a node whose parent is a decision node).
    fn note_spread(&mut self, reward0: f64) {
        for i in 1..self.path.len() {
            if self.tree.get(self.path[i - 1]).kind != NodeKind::Decision {
                continue;
            }
            let node = *self.tree.get(self.path[i]);
            let reward = if node.player == 0 { reward0 } else { -reward0 };
            let old = (node.visits > 0).then(|| node.q());
            let new = (node.sum + reward) / (node.visits + 1) as f64;
            if let Some(spread) = self.tree.spread_mut() {
                spread.update(old, new);
            }
        }
    }

    /// Scores a candidate formula (the ES step) with `scoring.sims` simulations selecting
    /// with `policy`. `Integrated` backpropagates into a private overlay of the tree that
    /// is rolled back afterwards; `Partial` never writes to the tree. The fitness is the
    /// mean reward of the simulations (`MeanReward`), or (`Recommendation`) the real
    /// tree's mean reward of the root child the final-move rule picks on the overlay.
    /// With `write_back`, each simulation's result is then backed up into the real root
    /// child it went through and the real root. `observe(reward, root child, root
    /// visits)` sees each simulation.
    pub(crate) fn evaluate_candidate(
        &mut self,
        policy: &Policy,
        scoring: Scoring,
        mut observe: impl FnMut(f64, NodeId, u32),
    ) -> f64 {
        let integrated = scoring.mode == EsMode::Integrated;
        if integrated {
            self.tree.begin_overlay();
        }
        self.write_backs.clear();
        let mut total = 0.0;
        for _ in 0..scoring.sims {
            let (reward, child) = self.simulate(policy, integrated);
            total += reward;
            if scoring.write_back {
                let (reward0, wins0_x2) = self.last_result;
                self.write_backs.push((reward0, wins0_x2, child));
            }
            observe(reward, child, self.tree.get(ROOT).visits);
        }
        let recommended = match scoring.fitness {
            EsFitness::MeanReward => None,
            EsFitness::Recommendation => Some(self.best_root_child(scoring.final_move, false)),
        };
        if integrated {
            self.tree.rollback();
        }
        // Valued before any write-back, so on statistics without the candidate's samples.
        let fitness = match recommended {
            None => total / scoring.sims as f64,
            Some(child) => self.tree.get(child).q(),
        };
        for i in 0..self.write_backs.len() {
            let (reward0, wins0_x2, child) = self.write_backs[i];
            self.path.clear();
            self.path.push(ROOT);
            self.path.push(child);
            self.backpropagate(reward0, wins0_x2);
        }
        fitness
    }

    /// The root child the final-move rule picks (among visited children). With
    /// `outcomes_first` (OpenSpiel's `SearchNode::CompareFinal`), a child whose game is over
    /// ranks by its outcome before the rule, every other child as an outcome of 0: a win
    /// tried once beats any unproven child, an unproven child beats a loss, and a draw
    /// competes by the rule; equal keys keep the first child in arena order.
    pub(crate) fn best_root_child(&self, rule: FinalMove, outcomes_first: bool) -> NodeId {
        let root = self.tree.get(ROOT);
        let mut best = root.first_child;
        let mut best_key = (f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
        for id in root.children() {
            let child = self.tree.get(id);
            if child.visits == 0 {
                continue;
            }
            let (q, n) = (child.q(), child.visits as f64);
            let outcome = if outcomes_first && child.kind == NodeKind::Terminal {
                q
            } else {
                0.0
            };
            let key = match rule {
                FinalMove::HighestQ => (outcome, q, n),
                FinalMove::MostVisits => (outcome, n, q),
            };
            if key > best_key {
                best = id;
                best_key = key;
            }
        }
        best
    }
}

/// Sets `H`, `p` (and the move features) of the children of a decision node just allocated
/// from `first` on, from the game's assessment of their moves (in arena order): `H` is the
/// change the child's move makes to the mover's score difference as the game values it now
/// (`Evaluation::ScoreDifference`; Carcassonne's virtual scores, own minus opponent's), in
/// the reward's unit; `p` is the softmax of the siblings' `H` at the settings' temperature.
fn assign_knowledge<M: Copy>(
    tree: &mut Tree<M>,
    first: NodeId,
    assessments: &[MoveAssessment],
    knowledge: KnowledgeSettings,
) {
    let children = first..tree.len() as NodeId;
    debug_assert_eq!(children.len(), assessments.len());
    let mut highest = f64::NEG_INFINITY;
    for (id, assessment) in children.clone().zip(assessments) {
        let heuristic = assessment.gain / knowledge.points_per_unit;
        tree.knowledge_mut(id).heuristic = heuristic;
        highest = highest.max(heuristic);
        if knowledge.features {
            *tree.features_mut(id) = assessment.features;
        }
    }
    // Shifted by the largest H so no exponential overflows; the largest term is 1, so the
    // sum is at least 1.
    let mut total = 0.0;
    for id in children.clone() {
        let known = tree.knowledge_mut(id);
        known.prior = ((known.heuristic - highest) / knowledge.temperature).exp();
        total += known.prior;
    }
    for id in children {
        tree.knowledge_mut(id).prior /= total;
    }
}

/// Gives a decision node one child per legal move, in a random order.
fn allocate_moves<G: Game>(
    tree: &mut Tree<G::Move>,
    decision: NodeId,
    state: &G,
    moves: &mut Vec<G::Move>,
    rng: &mut GameRng,
) {
    state.legal_moves(moves);
    debug_assert!(!moves.is_empty(), "a decision always has a move");
    moves.shuffle(rng);
    let player = state.to_move() as u8;
    let label = state.decision_label();
    let first = tree.len() as NodeId;
    for &mv in moves.iter() {
        tree.push(Node::new(NodeKind::Unexpanded, player, label, mv));
    }
    let node = tree.get_mut(decision);
    node.first_child = first;
    // At most `MAX_LEGAL_MOVES`, which is `u16::MAX`.
    node.child_count = u16::try_from(moves.len()).expect("at most MAX_LEGAL_MOVES legal moves");
}

/// Gives a chance node one child per outcome slot of the game, in the game's order.
fn allocate_outcomes<G: Game>(tree: &mut Tree<G::Move>, chance: NodeId, state: &G) {
    let player = state.to_move() as u8;
    let first = tree.len() as NodeId;
    let mut count = 0u16;
    state.chance_slots(|label| {
        tree.push(Node::new(
            NodeKind::Unexpanded,
            player,
            label,
            G::Move::default(),
        ));
        count += 1;
    });
    let node = tree.get_mut(chance);
    node.first_child = first;
    node.child_count = count;
}

/// `Game::play_out_randomly` (the same random choices in the same order), also noting
/// every move for the AMAF update.
fn play_out_recording<G: Game>(state: &mut G, rng: &mut GameRng, played: &mut Vec<Played>) {
    state.play_out_randomly_observed(rng, |state, mv| {
        played.push(Played {
            key: G::action_key(state.to_move() as u8, state.decision_label(), mv),
        })
    });
}
