//! The games of the repository put through [`super::check_game`], and a broken game that the
//! suite must refuse.

use super::*;
use evomcts::games::backgammon::{BackgammonRules, BackgammonState};
use evomcts::games::breakthrough::{BreakthroughRules, BreakthroughState};
use evomcts::games::checkers::{CheckersRules, CheckersState};
use evomcts::games::clobber::{ClobberRules, ClobberState};
use evomcts::games::dots_and_boxes::{DotsAndBoxesRules, DotsAndBoxesState};
use evomcts::games::gomoku::{GomokuRules, GomokuState};
use evomcts::games::hex::{HexRules, HexState};
use evomcts::games::maedn::{MaednRules, MaednState};
use evomcts::games::mancala::MancalaState;
use evomcts::games::nim::{NimRules, NimState};
use evomcts::games::othello::OthelloState;
use evomcts::games::oware::{OwareRules, OwareState};
use evomcts::games::pentago::PentagoState;
use evomcts::games::tic_tac_toe::TicTacToeState;
use evomcts::games::y::{YRules, YState};

/// Carcassonne under both unplaceable-tile rules and both two-tile-city rules, by seed.
fn carcassonne(seed: u64) -> GameState {
    GameState::new(Rules {
        unplaceable: if seed.is_multiple_of(2) {
            Unplaceable::Discard
        } else {
            Unplaceable::BottomOfStack
        },
        two_tile_city_scores_two: seed % 4 >= 2,
    })
}

/// Pig to a target from 1 (the first roll above 1 wins) to 100 (the published game), by seed.
fn pig(seed: u64) -> PigState {
    let target = 1 + (seed % 100) as u16;
    PigState::new(PigRules::new(target).expect("1 to 100 is a valid target")).unwrap()
}

/// Full games of both unplaceable-tile rules: discards (a chance event followed by another)
/// and returns to the bottom of the stack (repeats, and a game that may end by exhaustion).
#[test]
fn carcassonne_conforms() {
    check_game(carcassonne, 20, 1);
}

/// Targets from 1 to 100: games that end on the first roll as well as the published game.
#[test]
fn pig_conforms() {
    check_game(pig, 200, 2);
}

/// A game written against the trait alone, by a test, passes as the library's games do.
#[test]
fn tiny_pig_conforms() {
    check_game(|_| TinyPig::placeholder(), 200, 3);
}

/// A game without chance: every state is a decision or the end, ended by a line or a full
/// board.
#[test]
fn connect_four_conforms() {
    check_game(|_| ConnectFourState::new(), 200, 5);
}

/// Immediate wins among siblings (`immediate_wins`): Connect Four has them wherever a line
/// can be closed; Carcassonne at its last placements, where one placement can decide the game.
#[test]
fn connect_four_plays_its_immediate_wins() {
    assert_eq!(check_immediate_wins(|_| ConnectFourState::new(), 20, 9), 20);
}

/// Breakthrough on OpenSpiel's default 8×8, on 6×6 and on 3×5 (one row of pieces each), by
/// seed: games won by reaching the far row or by capturing the last piece.
fn breakthrough(seed: u64) -> BreakthroughState {
    let (rows, columns) = [(8, 8), (6, 6), (3, 5)][(seed % 3) as usize];
    BreakthroughState::new(BreakthroughRules::new(rows, columns).expect("a valid board"))
        .expect("a board with a start")
}

/// Clobber on OpenSpiel's default 5×6, on 4×4 and on 8×8, by seed.
fn clobber(seed: u64) -> ClobberState {
    let (rows, columns) = [(5, 6), (4, 4), (8, 8)][(seed % 3) as usize];
    ClobberState::new(ClobberRules::new(rows, columns).expect("a valid board"))
        .expect("a board with a start")
}

/// Checkers on OpenSpiel's default 8×8, on 8×6 and on 7×7, by seed: forced captures,
/// multi-jumps (the same player moving again), crowning, and draws by the 40-action rule.
fn checkers(seed: u64) -> CheckersState {
    let (rows, columns) = [(8, 8), (8, 6), (7, 7)][(seed % 3) as usize];
    CheckersState::new(CheckersRules::new(rows, columns).expect("a board with a start"))
        .expect("a board with a start")
}

#[test]
fn breakthrough_conforms() {
    check_game(breakthrough, 100, 21);
}

#[test]
fn clobber_conforms() {
    check_game(clobber, 100, 22);
}

#[test]
fn checkers_conforms() {
    check_game(checkers, 100, 23);
}

/// Immediate wins on the default board: moves onto the far row or onto the opponent's last
/// piece.
#[test]
fn breakthrough_plays_its_immediate_wins() {
    assert_eq!(
        check_immediate_wins(|_| BreakthroughState::default(), 20, 13),
        20
    );
}

// Clobber and Checkers are not put through `check_immediate_wins`: their positions with an
// immediate win often have other moves that win by force as well (Clobber's endgames of
// separate groups, decided by parity; Checkers' endgames against a lone piece), and there
// `Uct` with `final_move: MostVisits` may play one of those. On the default boards (seeds 14
// and 15, ten positions each) `OpenSpielUct` played the immediate win every time and `Uct`
// missed it at 6 Clobber and 2 Checkers positions, each time playing a move that an
// exhaustive search (30 plies for Clobber, 7 for Checkers) proves a forced win too: the
// check asks for more than a winning move there.

#[test]
fn carcassonne_plays_its_immediate_wins() {
    assert_eq!(check_immediate_wins(carcassonne, 4, 10), 4);
}

/// Pig has no immediate win to find: a move never ends the game (it ends at the outcome of a
/// roll), so the check finds no position, in the published game nor in tiny Pig.
#[test]
fn pig_has_no_move_that_ends_the_game() {
    assert_eq!(check_immediate_wins(pig, 5, 11), 0);
    assert_eq!(check_immediate_wins(|_| TinyPig::placeholder(), 5, 12), 0);
}

/// Nim by seed: OpenSpiel's default (1, 3, 5, 7, misère), the same piles in normal play, one
/// pile, and piles with an empty one.
fn nim(seed: u64) -> NimState {
    let (piles, misere): (&[u8], bool) = match seed % 4 {
        0 => (&[1, 3, 5, 7], true),
        1 => (&[1, 3, 5, 7], false),
        2 => (&[12], true),
        _ => (&[0, 4, 9, 2], false),
    };
    NimState::new(NimRules::new(piles, misere).expect("valid piles"))
}

/// Nim in normal play only: taking the last object wins, so a move can end the game with a
/// win.
fn normal_nim(seed: u64) -> NimState {
    let piles: &[u8] = if seed.is_multiple_of(2) {
        &[1, 3, 5, 7]
    } else {
        &[2, 3, 5, 8, 13]
    };
    NimState::new(NimRules::new(piles, false).expect("valid piles"))
}

/// Oware by seed: OpenSpiel's default (6 houses of 4), a small board (4 of 3) and one house
/// of one seed each (which always ends by repetition).
fn oware(seed: u64) -> OwareState {
    let (houses, seeds) = match seed % 3 {
        0 => (6, 4),
        1 => (4, 3),
        _ => (1, 1),
    };
    OwareState::new(OwareRules::new(houses, seeds).expect("valid sizes"))
}

/// Dots and boxes from 1 × 1 to 4 × 3 boxes by seed, OpenSpiel's 2 × 2 among them.
fn dots_and_boxes(seed: u64) -> DotsAndBoxesState {
    let rows = 1 + (seed % 4) as u8;
    let columns = 1 + (seed / 4 % 3) as u8;
    DotsAndBoxesState::new(DotsAndBoxesRules::new(rows, columns).expect("valid sizes"))
}

/// [`check_immediate_wins`] for a game often decided before it ends, where a sibling of the
/// immediate win may win as surely: `OpenSpielUct`, whose final move ranks a tried win first,
/// must play the immediate win in every position found; `Uct`, which ranks children by visits
/// alone, may play a sibling (in mancala's positions that failed, every move played won all of
/// 2,000 random playouts), which the check cannot tell from a mistake. Returns the positions
/// found.
fn check_immediate_wins_when_decided_early<G: Game>(
    new_game: impl Fn(u64) -> G,
    positions: usize,
    seed: u64,
) -> usize {
    let checked = catch_unwind(AssertUnwindSafe(|| {
        check_immediate_wins(&new_game, positions, seed)
    }));
    let payload = match checked {
        Ok(found) => return found,
        Err(payload) => payload,
    };
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    let mut lines = message.lines();
    // "{failed} of {found} positions with an immediate win not won:", then one line a failure.
    let found = lines
        .next()
        .and_then(|head| head.split(" of ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the check failed otherwise: {message}"));
    for line in lines {
        assert!(
            line.contains(", Uct: "),
            "OpenSpielUct missed an immediate win: {message}"
        );
    }
    found
}

/// A game without chance ended by a line or a full board.
#[test]
fn tic_tac_toe_conforms() {
    check_game(|_| TicTacToeState::new(), 200, 13);
}

#[test]
fn tic_tac_toe_plays_its_immediate_wins() {
    assert_eq!(check_immediate_wins(|_| TicTacToeState::new(), 20, 14), 20);
}

/// Misère and normal play, one pile and an empty pile.
#[test]
fn nim_conforms() {
    check_game(nim, 200, 15);
}

/// In normal play taking the last object wins at once; in misère play no move ends the game
/// with a win, so the check finds no position there.
#[test]
fn nim_plays_its_immediate_wins() {
    assert_eq!(check_immediate_wins(normal_nim, 20, 16), 20);
    let misere = |_| NimState::new(NimRules::default());
    assert_eq!(check_immediate_wins(misere, 5, 17), 0);
}

/// Extra turns (the mover moves again), captures, and an end that counts the houses.
#[test]
fn mancala_conforms() {
    check_game(|_| MancalaState::new(), 100, 18);
}

/// Mancala is often decided before it ends (a store holding more than half the seeds), so
/// Uct may play a sibling of the immediate win that wins as surely.
#[test]
fn mancala_plays_its_immediate_wins() {
    assert_eq!(
        check_immediate_wins_when_decided_early(|_| MancalaState::new(), 10, 19),
        10
    );
}

/// Captures, grand slams, feeding an empty row, and ends by repetition or by a player
/// without a move.
#[test]
fn oware_conforms() {
    check_game(oware, 60, 20);
}

/// Late in a game of Oware a capture that passes half the seeds ends it, while its siblings
/// mostly win later (random play from them wins 94 to 99 times in 100 in the positions found).
#[test]
fn oware_plays_its_immediate_wins() {
    assert_eq!(
        check_immediate_wins_when_decided_early(|_| OwareState::default(), 10, 21),
        10
    );
}

/// Several sizes, moves that keep the turn.
#[test]
fn dots_and_boxes_conforms() {
    check_game(dots_and_boxes, 200, 22);
}

/// Only the last line ends the game, and it is then the only move: no win among siblings.
#[test]
fn dots_and_boxes_has_no_win_among_siblings() {
    assert_eq!(check_immediate_wins(dots_and_boxes, 5, 23), 0);
}
/// Hex by seed: rectangles from 2 by 2 to 11 by 11, and a third of the games on a square
/// board, half of those with the swap rule.
fn hex(seed: u64) -> HexState {
    let rows = 2 + (seed % 10) as u8;
    let (columns, swap) = if (seed / 10).is_multiple_of(3) {
        (rows, seed / 30 % 2 == 1)
    } else {
        (2 + (seed / 30 % 10) as u8, false)
    };
    HexState::new(HexRules::new(rows, columns, swap).expect("2 to 11 are valid sides"))
}

/// Games won only by a chain, some with the swap (a decision that takes a stone off the board).
#[test]
fn hex_conforms() {
    check_game(hex, 200, 21);
}

#[test]
fn hex_plays_its_immediate_wins() {
    let five = |_| HexState::new(HexRules::square(5).unwrap());
    assert_eq!(check_immediate_wins(five, 10, 23), 10);
}

/// Y on every size from 1 (the first stone wins) to 19, by seed.
fn y(seed: u64) -> YState {
    YState::new(YRules::new(1 + (seed % 19) as u8).expect("1 to 19 are valid sizes"))
}

#[test]
fn y_conforms() {
    check_game(y, 200, 24);
}

#[test]
fn y_plays_its_immediate_wins() {
    let five = |_| YState::new(YRules::new(5).unwrap());
    assert_eq!(check_immediate_wins(five, 10, 25), 10);
}

/// Gomoku on squares with and without anti and wrap, and rectangles (OpenSpiel's mnk), rows of
/// 1 to 6, by seed.
fn gomoku(seed: u64) -> GomokuState {
    let side = 1 + (seed % 12) as u8;
    let connect = 1 + (seed / 12 % 6) as u8;
    let rules = match seed % 5 {
        0 => GomokuRules::new(side, side, connect, true, false),
        1 => GomokuRules::new(side, side, connect, false, true),
        2 => GomokuRules::new(side, 1 + (seed / 72 % 9) as u8, connect, false, false),
        3 => Ok(GomokuRules::default()),
        _ => GomokuRules::square(side, connect),
    };
    GomokuState::new(rules.expect("the sides and rows are in range"))
}

/// Games won by a row, lost by one (anti), drawn on a full board.
#[test]
fn gomoku_conforms() {
    check_game(gomoku, 200, 26);
}

#[test]
fn gomoku_plays_its_immediate_wins() {
    let nine = |_| GomokuState::new(GomokuRules::square(9, 4).unwrap());
    assert_eq!(check_immediate_wins(nine, 10, 27), 10);
}

/// Games won, drawn by a turn that gives both players a row, and drawn on a full board.
#[test]
fn pentago_conforms() {
    check_game(|_| PentagoState::new(), 200, 28);
}

#[test]
fn pentago_plays_its_immediate_wins() {
    assert_eq!(check_immediate_wins(|_| PentagoState::new(), 5, 29), 5);
}

/// Games with passes, won on the disc count or drawn, ending when neither player can move.
#[test]
fn othello_conforms() {
    check_game(|_| OthelloState::new(), 200, 30);
}

// Othello is not put through `check_immediate_wins`: its end comes by the disc count, and a
// move that does not end the game can win as surely as one that does. On game seed
// 18026077634089601649 black has g5, which ends the game 53 to 10, and h4, after which white's
// only move g5 ends it 46 to 18 for black; `Uct` plays h4, a win the check counts as a miss.
/// Mensch ärgere dich nicht with the players opposite (OpenSpiel's default) or side by side,
/// by seed.
fn maedn(seed: u64) -> MaednState {
    MaednState::new(MaednRules::new(seed.is_multiple_of(2)))
}

/// Backgammon to OpenSpiel's default turn limit, or to one from 10 to 99 turns (games that end
/// in a draw by the limit), by seed.
fn backgammon(seed: u64) -> BackgammonState {
    let turns = if seed.is_multiple_of(2) {
        500
    } else {
        10 + (seed % 90) as u16
    };
    BackgammonState::new(BackgammonRules::new(turns).expect("10 to 500 turns are valid"))
        .expect("valid rules")
}

/// A race with a die: rolls after every move, a second roll after a six, forced moves and
/// passes, both seatings.
#[test]
fn maedn_conforms() {
    check_game(maedn, 30, 13);
}

/// Two dice, two checker moves a decision, doubles as two decisions, the bar, bearing off and
/// the turn limit's draws.
#[test]
fn backgammon_conforms() {
    check_game(backgammon, 20, 14);
}

/// Mensch ärgere dich nicht has no immediate win among siblings: the winning move brings the
/// last piece onto the last free goal field, and any other move with that die would have to
/// start from the same field (a piece in the goal can only move onto that free field too), so a
/// winning move is always the only legal one. The check finds no position.
#[test]
fn maedn_has_no_win_among_siblings() {
    assert_eq!(check_immediate_wins(maedn, 5, 15), 0);
}

// Backgammon gets no immediate-win check: its last roll mostly bears off everything in every
// order or nothing, and where one sequence bears off the last checkers and another leaves one
// (2 positions in 250 random games with seed 16), the other sequence is itself almost surely a
// win a turn later (any roll bears off a last checker on 23). Under a win-loss reward `Uct`
// values both alike and, at 200 simulations, played the slower win in both positions
// (`OpenSpielUct`, which values a finished child by its outcome, played the immediate one):
// the check's premise, that only the winning moves win, does not hold there.

/// Pig whose chance events list the faces 2 to 6 only, while its die still shows 1 a sixth of
/// the time: the listed outcomes carry 5/6 of the probability, so an exact search would value
/// every roll as if a 1 could not come.
#[derive(Clone, Debug)]
struct PigWithoutOne(PigState);

impl Game for PigWithoutOne {
    type Move = PigMove;
    type Error = PigError;
    const OBJECTIVE: evomcts::games::Objective = evomcts::games::Objective::WinLoss;

    fn placeholder() -> Self {
        PigWithoutOne(PigState::placeholder())
    }
    fn to_move(&self) -> usize {
        self.0.to_move()
    }
    fn at_decision(&self) -> bool {
        self.0.at_decision()
    }
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    fn turns_played(&self) -> usize {
        self.0.turns_played()
    }
    fn legal_moves(&self, out: &mut Vec<PigMove>) {
        self.0.legal_moves(out)
    }
    fn apply_move(&mut self, mv: PigMove) -> Result<(), PigError> {
        self.0.apply_move(mv)
    }
    fn random_move(&self, rng: &mut GameRng) -> Option<PigMove> {
        self.0.random_move(rng)
    }
    fn decision_label(&self) -> u8 {
        self.0.decision_label()
    }
    fn chance_slots(&self, visit: impl FnMut(u8)) {
        self.0.chance_slots(visit)
    }
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        self.0.sample_chance(rng)
    }
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        self.0.chance_outcomes(out);
        out.retain(|o| o.label != 1);
    }
    fn apply_outcome(&mut self, label: u8) -> Result<(), PigError> {
        self.0.apply_outcome(label)
    }
    fn scores(&self) -> [i32; 2] {
        self.0.scores()
    }
    fn evaluate(&self, player: usize, evaluation: Evaluation) -> f64 {
        self.0.evaluate(player, evaluation)
    }
    fn evaluation_bound(&self, evaluation: Evaluation) -> f64 {
        self.0.evaluation_bound(evaluation)
    }
    fn action_key(player: u8, label: u8, mv: PigMove) -> u32 {
        PigState::action_key(player, label, mv)
    }
}

/// The suite can fail: a game whose listed outcomes carry 5/6 of its die is caught, and for
/// that reason.
#[test]
fn a_game_whose_chance_probabilities_do_not_sum_to_one_fails() {
    let failed = catch_unwind(AssertUnwindSafe(|| {
        check_game(|seed| PigWithoutOne(pig(seed)), 5, 4)
    }));
    let payload = failed.expect_err("a game listing 5/6 of its die passed");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("do not sum to one"),
        "failed for another reason: {message}"
    );
}
