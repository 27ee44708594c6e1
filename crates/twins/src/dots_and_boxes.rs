//! Dots and boxes, as OpenSpiel's `dots_and_boxes`: a grid of boxes (2 × 2 by default) whose
//! sides the players draw in turn, player 0 first. A player who completes a box (draws its
//! fourth side) takes it and draws again; once every line is drawn, more boxes win and an equal
//! number is a draw.
//!
//! Lines are numbered as OpenSpiel's action ids: first the horizontal ones, row by row from
//! the top (`row · columns + column`, rows 0 to `rows`), then the vertical ones, row by row
//! (`(rows + 1) · columns + row · (columns + 1) + column`, columns 0 to `columns`). The lines
//! drawn are one bitboard.
//!
//! Parameters: rows and columns of boxes (1 to [`MAX_SIDE`] each), as OpenSpiel's `num_rows`
//! and `num_cols`; OpenSpiel's `utility_margin` stays at its default, `false` (returns ±1,
//! not the margin in boxes).
//!
//! It has no chance events. Scores are 1 for the winner and 0 for the loser (0 each for a
//! draw); before the end the score difference is the difference in boxes taken as a share of
//! all the boxes.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// The most rows, and the most columns, of boxes: every line fits a 128-bit board.
pub const MAX_SIDE: u8 = 7;

/// The size of a game of dots and boxes: plain data, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedDotsAndBoxesRules")]
pub struct DotsAndBoxesRules {
    /// Rows of boxes: 1 to [`MAX_SIDE`]; 2 by default.
    pub rows: u8,
    /// Columns of boxes: 1 to [`MAX_SIDE`]; 2 by default.
    pub columns: u8,
}

impl Default for DotsAndBoxesRules {
    /// OpenSpiel's default: 2 × 2 boxes.
    fn default() -> Self {
        DotsAndBoxesRules {
            rows: 2,
            columns: 2,
        }
    }
}

impl DotsAndBoxesRules {
    /// Rules of this size, or an error naming the field out of range.
    pub fn new(rows: u8, columns: u8) -> Result<Self, DotsAndBoxesError> {
        let rules = DotsAndBoxesRules { rows, columns };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), DotsAndBoxesError> {
        for (what, value) in [("rows", self.rows), ("columns", self.columns)] {
            if !(1..=MAX_SIDE).contains(&value) {
                return Err(DotsAndBoxesError::InvalidSize { what, value });
            }
        }
        Ok(())
    }

    /// Horizontal lines: the first action ids.
    pub fn horizontal_lines(&self) -> u8 {
        (self.rows + 1) * self.columns
    }

    /// Lines of the grid.
    pub fn lines(&self) -> u8 {
        self.horizontal_lines() + self.rows * (self.columns + 1)
    }

    /// Boxes of the grid.
    pub fn boxes(&self) -> u8 {
        self.rows * self.columns
    }
}

/// `DotsAndBoxesRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedDotsAndBoxesRules {
    rows: u8,
    columns: u8,
}

impl TryFrom<UncheckedDotsAndBoxesRules> for DotsAndBoxesRules {
    type Error = DotsAndBoxesError;

    fn try_from(raw: UncheckedDotsAndBoxesRules) -> Result<Self, DotsAndBoxesError> {
        DotsAndBoxesRules::new(raw.rows, raw.columns)
    }
}

/// A move: the line drawn, by OpenSpiel's action id. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DotsAndBoxesMove(pub u8);

impl fmt::Display for DotsAndBoxesMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DotsAndBoxesError {
    #[error("{what}: expected 1 to {MAX_SIDE} boxes, found {value}")]
    InvalidSize { what: &'static str, value: u8 },
    #[error("line {line} is not a line (0 to {})", lines - 1)]
    NotALine { line: u8, lines: u8 },
    #[error("line {line} is drawn")]
    LineDrawn { line: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("dots and boxes has no chance events")]
    NoChanceEvents,
}

/// A position: the lines drawn, the boxes each player took, the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DotsAndBoxesState {
    rules: DotsAndBoxesRules,
    /// Bit `id` for each line drawn.
    lines: u128,
    /// Bit `row · columns + column` for each box a player took.
    boxes: [u64; 2],
    mover: u8,
}

impl Default for DotsAndBoxesState {
    fn default() -> Self {
        Self::new(DotsAndBoxesRules::default())
    }
}

impl DotsAndBoxesState {
    /// The empty grid of `rules`, player 0 to move.
    pub fn new(rules: DotsAndBoxesRules) -> Self {
        DotsAndBoxesState {
            rules,
            lines: 0,
            boxes: [0, 0],
            mover: 0,
        }
    }

    /// The position after drawing `lines` in turn from the start of `rules`.
    pub fn from_moves(rules: DotsAndBoxesRules, lines: &[u8]) -> Result<Self, DotsAndBoxesError> {
        let mut state = Self::new(rules);
        for &line in lines {
            state.apply_move(DotsAndBoxesMove(line))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> DotsAndBoxesRules {
        self.rules
    }

    /// Boxes each player has taken.
    pub fn points(&self) -> [u32; 2] {
        self.boxes.map(u64::count_ones)
    }

    /// The player who took the box at `row`, `column`, if any.
    pub fn box_owner(&self, row: u8, column: u8) -> Option<usize> {
        if row >= self.rules.rows || column >= self.rules.columns {
            return None;
        }
        let bit = 1u64 << (row * self.rules.columns + column);
        (0..2).find(|&p| self.boxes[p] & bit != 0)
    }

    /// Whether line `id` is drawn.
    pub fn is_drawn(&self, id: u8) -> bool {
        id < self.rules.lines() && self.lines & (1 << id) != 0
    }

    /// The winner once every line is drawn (`None` for a draw or a game going on).
    pub fn winner(&self) -> Option<usize> {
        let [a, b] = self.points();
        (self.is_over() && a != b).then_some(if a > b { 0 } else { 1 })
    }

    /// The grid for people: `+` dots, `---` and `|` lines drawn, each box its taker's number.
    pub fn render(&self) -> String {
        let DotsAndBoxesRules { rows, columns } = self.rules;
        let h = self.rules.horizontal_lines();
        let mut text = String::new();
        for row in 0..=rows {
            for column in 0..columns {
                text.push('+');
                text.push_str(if self.is_drawn(row * columns + column) {
                    "---"
                } else {
                    "   "
                });
            }
            text.push_str("+\n");
            if row == rows {
                break;
            }
            for column in 0..=columns {
                let id = h + row * (columns + 1) + column;
                text.push(if self.is_drawn(id) { '|' } else { ' ' });
                if column < columns {
                    text.push_str(match self.box_owner(row, column) {
                        Some(0) => " 0 ",
                        Some(_) => " 1 ",
                        None => "   ",
                    });
                }
            }
            text.push('\n');
        }
        text
    }

    fn all_lines(&self) -> u128 {
        (1u128 << self.rules.lines()) - 1
    }

    /// The lines not drawn yet.
    fn open_lines(&self) -> u128 {
        !self.lines & self.all_lines()
    }

    /// Whether the box at `row`, `column` has its four sides drawn.
    fn complete(&self, row: u8, column: u8) -> bool {
        let c = self.rules.columns;
        let h = self.rules.horizontal_lines();
        let left = h + row * (c + 1) + column;
        let sides = (1u128 << (row * c + column))
            | (1u128 << ((row + 1) * c + column))
            | (1u128 << left)
            | (1u128 << (left + 1));
        self.lines & sides == sides
    }
}

/// The ids of the set bits of `bits`, lowest first.
fn ids_of(mut bits: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let id = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            id
        })
    })
}

impl fmt::Display for DotsAndBoxesState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for DotsAndBoxesState {
    type Move = DotsAndBoxesMove;
    type Error = DotsAndBoxesError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.mover)
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    fn is_over(&self) -> bool {
        self.open_lines() == 0
    }

    /// Every line drawn was one decision.
    fn turns_played(&self) -> usize {
        self.lines.count_ones() as usize
    }

    /// The lines not drawn, in order of action ids.
    fn legal_moves(&self, out: &mut Vec<DotsAndBoxesMove>) {
        out.clear();
        out.extend(ids_of(self.open_lines()).map(DotsAndBoxesMove));
    }

    fn apply_move(&mut self, mv: DotsAndBoxesMove) -> Result<(), DotsAndBoxesError> {
        let line = mv.0;
        if self.is_over() {
            return Err(DotsAndBoxesError::GameOver);
        }
        let lines = self.rules.lines();
        if line >= lines {
            return Err(DotsAndBoxesError::NotALine { line, lines });
        }
        if self.is_drawn(line) {
            return Err(DotsAndBoxesError::LineDrawn { line });
        }
        self.lines |= 1 << line;
        let DotsAndBoxesRules { rows, columns } = self.rules;
        let h = self.rules.horizontal_lines();
        // The boxes on either side of the line, as (row, column).
        let (first, second) = if line < h {
            let (row, column) = (line / columns, line % columns);
            (
                (row > 0).then(|| (row - 1, column)),
                (row < rows).then_some((row, column)),
            )
        } else {
            let v = line - h;
            let (row, column) = (v / (columns + 1), v % (columns + 1));
            (
                (column > 0).then(|| (row, column - 1)),
                (column < columns).then_some((row, column)),
            )
        };
        let mut took = false;
        for (row, column) in [first, second].into_iter().flatten() {
            if self.complete(row, column) {
                self.boxes[usize::from(self.mover)] |= 1 << (row * columns + column);
                took = true;
            }
        }
        if !took {
            self.mover = 1 - self.mover;
        }
        Ok(())
    }

    /// Uniform among the lines not drawn, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<DotsAndBoxesMove> {
        let open = self.open_lines();
        let count = open.count_ones();
        if count == 0 {
            return None;
        }
        let pick = rng.gen_range(0..count);
        let low = open as u64;
        let (mut bits, mut skip, base) = if pick < low.count_ones() {
            (low, pick, 0)
        } else {
            ((open >> 64) as u64, pick - low.count_ones(), 64)
        };
        for _ in 0..skip {
            bits &= bits - 1;
        }
        skip = bits.trailing_zeros();
        Some(DotsAndBoxesMove((base + skip) as u8))
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), DotsAndBoxesError> {
        Err(DotsAndBoxesError::NoChanceEvents)
    }

    /// 1 for the winner at the end, 0 otherwise.
    fn scores(&self) -> [i32; 2] {
        match self.winner() {
            Some(0) => [1, 0],
            Some(_) => [0, 1],
            None => [0, 0],
        }
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of dots and boxes has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// At the end the win-loss result; before, the player's boxes minus the opponent's over
    /// all the boxes (below 1 in size: the last box is taken with the last line).
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        if self.is_over() {
            let scores = self.scores();
            return f64::from(scores[player] - scores[1 - player]);
        }
        let points = self.points();
        let difference = f64::from(points[player]) - f64::from(points[1 - player]);
        difference / f64::from(self.rules.boxes())
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the line.
    fn action_key(player: u8, _label: u8, mv: DotsAndBoxesMove) -> u32 {
        u32::from(player) * 256 + u32::from(mv.0)
    }
}

/// OpenSpiel's `dots_and_boxes` with `num_rows`, `num_cols` and `utility_margin: false`:
/// action id = line; returns +1 to the winner and −1 to the loser, 0 each for a draw.
impl OpenSpielTwin for DotsAndBoxesState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "dots_and_boxes",
            params: vec![
                ("num_rows", OpenSpielParam::Int(i64::from(self.rules.rows))),
                (
                    "num_cols",
                    OpenSpielParam::Int(i64::from(self.rules.columns)),
                ),
                ("utility_margin", OpenSpielParam::Bool(false)),
            ],
        }
    }

    fn open_spiel_action(&self, mv: DotsAndBoxesMove) -> i64 {
        i64::from(mv.0)
    }

    fn open_spiel_outcome(&self, label: u8) -> i64 {
        i64::from(label)
    }

    fn open_spiel_returns(&self) -> [f64; 2] {
        let [a, b] = self.scores();
        [f64::from(a - b), f64::from(b - a)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_games::open_spiel_twin::trace;

    fn play(lines: &[u8]) -> DotsAndBoxesState {
        DotsAndBoxesState::from_moves(DotsAndBoxesRules::default(), lines).unwrap()
    }

    #[test]
    fn lines_are_numbered_as_openspiel_numbers_them() {
        let rules = DotsAndBoxesRules::default();
        assert_eq!(
            (rules.horizontal_lines(), rules.lines(), rules.boxes()),
            (6, 12, 4)
        );
        let rules = DotsAndBoxesRules::new(7, 7).unwrap();
        assert_eq!(rules.lines(), 112);
        let rules = DotsAndBoxesRules::new(1, 3).unwrap();
        assert_eq!((rules.horizontal_lines(), rules.lines()), (6, 10));
        let mut moves = Vec::new();
        DotsAndBoxesState::new(rules).legal_moves(&mut moves);
        assert_eq!(moves, (0..10).map(DotsAndBoxesMove).collect::<Vec<_>>());
    }

    #[test]
    fn completing_a_box_takes_it_and_moves_again() {
        // The top-left box: top 0, bottom 2, left 6, right 7. Player 0 draws 0, 1 draws 2,
        // 0 draws 6, 1 draws 7 and takes it, then moves again (as in OpenSpiel's example).
        let state = play(&[0, 2, 6, 7]);
        assert_eq!(state.box_owner(0, 0), Some(1));
        assert_eq!(state.points(), [0, 1]);
        assert_eq!(state.to_move(), 1);
        let state = play(&[0, 2, 6, 7, 1]);
        assert_eq!(state.to_move(), 0);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let ids: Vec<u8> = moves.iter().map(|m| m.0).collect();
        assert_eq!(ids, [3, 4, 5, 8, 9, 10, 11]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 0.25);
        assert_eq!(
            state.render(),
            "+---+---+\n| 1 |    \n+---+   +\n         \n+   +   +\n"
        );
    }

    #[test]
    fn one_line_can_complete_two_boxes() {
        // Boxes (0,0) and (0,1) share line 7; draw every other side first: 0, 1, 2, 3, 6, 8.
        let mut state = play(&[0, 1, 2, 3, 6, 8]);
        let mover = state.to_move();
        state.apply_move(DotsAndBoxesMove(7)).unwrap();
        assert_eq!(state.box_owner(0, 0), Some(mover));
        assert_eq!(state.box_owner(0, 1), Some(mover));
        assert_eq!(state.to_move(), mover);
    }

    #[test]
    fn the_game_ends_when_every_line_is_drawn() {
        let mut state = play(&[]);
        let mut rng: GameRng = rand::SeedableRng::seed_from_u64(4);
        state.play_out_randomly(&mut rng);
        assert!(state.is_over());
        assert_eq!(state.turns_played(), 12);
        let [a, b] = state.points();
        assert_eq!(a + b, 4);
        let expected = match a.cmp(&b) {
            std::cmp::Ordering::Greater => [1, 0],
            std::cmp::Ordering::Less => [0, 1],
            std::cmp::Ordering::Equal => [0, 0],
        };
        assert_eq!(state.scores(), expected);
        assert_eq!(
            state.apply_move(DotsAndBoxesMove(0)),
            Err(DotsAndBoxesError::GameOver)
        );
        // A 1 × 1 grid: whoever draws the fourth side wins.
        let one = DotsAndBoxesRules::new(1, 1).unwrap();
        let state = DotsAndBoxesState::from_moves(one, &[0, 1, 2, 3]).unwrap();
        assert_eq!(state.winner(), Some(1));
        assert_eq!(state.open_spiel_returns(), [-1.0, 1.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 1.0);
    }

    #[test]
    fn a_tie_is_a_draw() {
        // 1 × 2: lines 0, 1 on top, 2, 3 below, 4, 5, 6 upright. Player 0 draws 0, player 1
        // draws 2, player 0 draws 5, player 1 draws 4 and takes the left box, draws 1; player
        // 0 draws 3, player 1 draws 6 and takes the right box too.
        let rules = DotsAndBoxesRules::new(1, 2).unwrap();
        let state = DotsAndBoxesState::from_moves(rules, &[0, 2, 5, 4, 1, 3, 6]).unwrap();
        assert!(state.is_over());
        assert_eq!(state.points(), [0, 2]);
        let state = DotsAndBoxesState::from_moves(rules, &[0, 1, 2, 5, 4, 3, 6]).unwrap();
        // Player 0 draws 0, 1 draws 1, 0 draws 2, 1 draws 5, 0 draws 4 and takes the left
        // box, draws 3; player 1 draws 6 and takes the right one: one box each.
        assert_eq!(state.points(), [1, 1]);
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
    }

    #[test]
    fn illegal_moves_and_bad_rules_are_refused() {
        let start = play(&[3]);
        let mut state = start.clone();
        assert_eq!(
            state.apply_move(DotsAndBoxesMove(3)),
            Err(DotsAndBoxesError::LineDrawn { line: 3 })
        );
        assert_eq!(
            state
                .apply_move(DotsAndBoxesMove(12))
                .unwrap_err()
                .to_string(),
            "line 12 is not a line (0 to 11)"
        );
        assert_eq!(state, start);
        assert_eq!(
            state.apply_outcome(0),
            Err(DotsAndBoxesError::NoChanceEvents)
        );
        assert_eq!(
            DotsAndBoxesRules::new(0, 2).unwrap_err().to_string(),
            "rows: expected 1 to 7 boxes, found 0"
        );
        assert!(DotsAndBoxesRules::new(2, 8).is_err());
        let read: Result<DotsAndBoxesRules, _> = serde_json::from_str(r#"{"rows":9,"columns":2}"#);
        assert!(read.is_err());
        let read: DotsAndBoxesRules = serde_json::from_str(r#"{"rows":3,"columns":4}"#).unwrap();
        assert_eq!(read, DotsAndBoxesRules::new(3, 4).unwrap());
    }

    #[test]
    fn random_moves_are_uniform_over_open_lines_on_the_largest_grid() {
        let rules = DotsAndBoxesRules::new(7, 7).unwrap();
        let mut state = DotsAndBoxesState::new(rules);
        // Leave open only lines 3, 63, 64 and 111, across both halves of the board.
        for id in 0..112 {
            if ![3, 63, 64, 111].contains(&id) {
                state.lines |= 1 << id;
            }
        }
        let mut rng: GameRng = rand::SeedableRng::seed_from_u64(9);
        let mut counts = std::collections::BTreeMap::new();
        for _ in 0..4000 {
            *counts
                .entry(state.random_move(&mut rng).unwrap().0)
                .or_insert(0) += 1;
        }
        assert_eq!(counts.keys().copied().collect::<Vec<_>>(), [3, 63, 64, 111]);
        assert!(
            counts.values().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn keys_are_distinct() {
        let mut keys: Vec<u32> = (0..2u8)
            .flat_map(|p| {
                (0..112).map(move |l| DotsAndBoxesState::action_key(p, 0, DotsAndBoxesMove(l)))
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 224);
    }

    #[test]
    fn traces_end_with_opposite_returns() {
        for rules in [
            DotsAndBoxesRules::default(),
            DotsAndBoxesRules::new(3, 4).unwrap(),
        ] {
            let start = DotsAndBoxesState::new(rules);
            for seed in 0..20 {
                let t = trace(&start, seed).unwrap();
                assert_eq!(t.steps.len(), usize::from(rules.lines()));
                assert_eq!(t.returns[0], -t.returns[1]);
            }
        }
    }
}
