//! Carcassonne behind the searches' game interface (`games::Game`): a decision is a drawn
//! tile to place, a chance event is the next draw from the hidden multiset under the
//! unplaceable-tile rule, and the end is the final scoring.

use super::evaluation::{evaluate, evaluation_bound, order_moves};
use super::Unplaceable;
use super::{DrawUntil, Drawn, GameError, GameState, Move, Rules, SampledTiles, TileKind};
use crate::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, MoveAssessment, Objective};

impl Game for GameState {
    type Move = Move;
    type Error = GameError;
    /// The papers play for points: a league counts the score difference.
    const OBJECTIVE: Objective = Objective::Points;

    fn placeholder() -> Self {
        GameState::new(Rules::default())
    }

    #[inline]
    fn to_move(&self) -> usize {
        GameState::to_move(self)
    }

    #[inline]
    fn at_decision(&self) -> bool {
        self.drawn().is_some()
    }

    #[inline]
    fn is_over(&self) -> bool {
        GameState::is_over(self)
    }

    /// Nothing hidden and nothing drawn, or (bottom-of-stack rule) no hidden tile fits
    /// anywhere any more.
    #[inline]
    fn is_terminal(&self) -> bool {
        GameState::is_over(self)
            || (self.rules().unplaceable == Unplaceable::BottomOfStack
                && self.drawn().is_none()
                && !self.any_hidden_placeable())
    }

    fn turns_played(&self) -> usize {
        GameState::turns_played(self)
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        GameState::legal_moves(self, out)
    }

    #[inline]
    fn apply_move(&mut self, mv: Move) -> Result<(), GameError> {
        self.apply(mv)
    }

    #[inline]
    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        GameState::random_move(self, rng)
    }

    #[inline]
    fn decision_label(&self) -> u8 {
        self.drawn().map_or(0, |t| t.index() as u8)
    }

    /// One slot per hidden tile kind, in kind order.
    #[inline]
    fn chance_slots(&self, mut visit: impl FnMut(u8)) {
        for (kind, &hidden) in self.hidden_counts().iter().enumerate() {
            if hidden > 0 {
                visit(kind as u8);
            }
        }
    }

    /// Draws a tile kind with the probability of its hidden count: a kind that fits nowhere
    /// is an outcome of its own under the official rule (discarded; the node after it is
    /// another chance event). `None` when the bottom-of-stack rule leaves nothing
    /// placeable (the rest is then discarded and the game is over).
    #[inline]
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        let kind = match self
            .draw_from(&mut SampledTiles(rng), DrawUntil::ReadyOrDiscarded)
            .expect("sampled tiles are hidden")
        {
            Drawn::Ready(kind) | Drawn::Discarded(kind) => kind,
            Drawn::Exhausted => return None,
        };
        // The rank among the kinds still hidden before the draw; the drawn kind's own count
        // does not change the rank.
        Some(
            self.hidden_counts()[..kind.index()]
                .iter()
                .filter(|&&hidden| hidden > 0)
                .count(),
        )
    }

    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
        for (i, &count) in self.hidden_counts().iter().enumerate() {
            if count == 0 {
                continue;
            }
            let then = if self.placement_count(TileKind::from_index(i)) > 0 {
                AfterOutcome::Decision
            } else {
                match self.rules().unplaceable {
                    Unplaceable::Discard => AfterOutcome::ChanceAgain,
                    Unplaceable::BottomOfStack => AfterOutcome::Repeat,
                }
            };
            out.push(ChanceOutcome {
                label: i as u8,
                weight: f64::from(count),
                then,
            });
        }
    }

    fn apply_outcome(&mut self, label: u8) -> Result<(), GameError> {
        self.reveal(TileKind::from_index(label as usize))
            .map(|_| ())
    }

    /// At the end, the final scores with the end-of-game scoring of incomplete features and
    /// fields, which `GameState::finish` adds in rollouts and the referee: a game stepped to
    /// its end through this interface has not run it, and the virtual scores are exactly what
    /// it would award. Before the end, the scores so far.
    #[inline]
    /// A bound far above what 72 tiles can score (a few hundred points), so no game is
    /// refused while NaN, infinities and `1e308` are.
    fn max_score(&self) -> f64 {
        10_000.0
    }

    fn scores(&self) -> [i32; 2] {
        if self.is_over() {
            self.virtual_scores()
        } else {
            GameState::scores(self)
        }
    }

    /// The board as `render::render_board` draws it (scores and supplies below it), then the
    /// coordinates of its top-left square (a move names its square by `x`, growing to the
    /// right, and `y`, growing downwards) and the drawn tile a decision places.
    fn text(&self) -> Option<String> {
        let mut text = super::render::render_board(self);
        let tiles = self.placed_tiles();
        let left = tiles.iter().map(|t| t.x).min().unwrap_or(0);
        let top = tiles.iter().map(|t| t.y).min().unwrap_or(0);
        text.push_str(&format!(
            "the top-left square is x = {left}, y = {top}; x grows to the right, y downwards\n"
        ));
        if let Some(tile) = self.drawn() {
            text.push_str(&format!("tile to place: {}\n", tile.letter()));
        }
        Some(text)
    }

    #[inline]
    fn play_out_randomly(&mut self, rng: &mut GameRng) {
        GameState::play_out_randomly(self, rng)
    }

    #[inline]
    fn play_out_randomly_observed(
        &mut self,
        rng: &mut GameRng,
        mut before_move: impl FnMut(&Self, Move),
    ) {
        GameState::play_out_randomly_observed(self, rng, |state, _, mv| before_move(state, mv))
    }

    const OWN_EVALUATIONS: &'static [&'static str] = &[super::evaluation::HEYDEN.name()];

    #[inline]
    fn evaluate(&self, player: usize, evaluation: Evaluation) -> f64 {
        evaluate(self, player, evaluation)
    }

    fn evaluation_bound(&self, evaluation: Evaluation) -> f64 {
        evaluation_bound(evaluation)
    }

    /// A meeple on a city, on a monastery, on a road, no meeple, a meeple on a field
    /// (Ameneyro et al.); stable within each class.
    fn order_moves(&self, moves: &[Move], out: &mut Vec<Move>) {
        let kind = self.drawn().expect("moves are ordered at a decision");
        order_moves(kind, moves, out)
    }

    const OFFERS_MOVE_FEATURES: bool = true;

    /// Tries the moves on this state and takes each back (`game::trial`): no copy.
    fn assess_moves(
        &mut self,
        moves: &[Move],
        scale: f64,
        features: bool,
        _scratch: &mut Self,
        out: &mut Vec<MoveAssessment>,
    ) {
        super::assessment::assess_moves(self, moves, scale, features, out)
    }

    /// The player, the tile kind and the move's square, rotation and meeple segment.
    #[inline]
    fn action_key(player: u8, tile: u8, mv: Move) -> u32 {
        let meeple = mv.meeple.map_or(0, |s| s as u32 + 1);
        (player as u32) << 27
            | (tile as u32) << 22
            | ((mv.x as i32 + 128) as u32 & 0xff) << 14
            | ((mv.y as i32 + 128) as u32 & 0xff) << 6
            | (mv.rotation as u32 & 3) << 4
            | meeple
    }
}
