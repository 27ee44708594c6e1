//! Immediate wins among siblings: on positions from seeded random games where the player to move
//! has a move that ends the game with a win and not every move does, MCTS under `Uct` and under
//! `OpenSpielUct` plays a winning move, on every game of the suite where such positions exist.
//!
//! The search runs as the OpenSpiel peer check runs it (docs/openspiel.md): `reward: WinLoss`,
//! `final_move: MostVisits`, C_E = 2 / (2·sqrt 2), a budget of a few visits per legal move.
//! `OpenSpielUct` values a child where the game is over by its outcome without exploration, so
//! once tried such a child gets no more simulations than its siblings' bonuses leave it; only
//! OpenSpiel's final move, which ranks a tried win first, makes it play the win (issue 44: on
//! hex it played one win in 20).

use evomcts::games::Game;
use evomcts::games::GameRng;
use evomcts::search::mcts::{FinalMove, MctsController, MctsSettings, Reward, Selection};
use rand::{Rng, SeedableRng};

/// Simulations per legal move of the searched position (at least [`MIN_SIMULATIONS`]): every
/// child is tried, and a sibling's exploration bonus still exceeds a win's value at the end.
const SIMULATIONS_PER_MOVE: u32 = 32;
const MIN_SIMULATIONS: u32 = 200;

/// Random games that may be played to find the positions, per position asked for.
const GAMES_PER_POSITION: usize = 50;

/// Finds up to `positions` positions with an immediate win among siblings in random games of `G`
/// (game `i` started by `new_game(seed_i)`, one position per game: its first such decision),
/// searches each with both rules, and asserts a winning move is played every time. Returns the
/// number of positions found, for the caller to assert on (a game whose moves never end it
/// finds none).
pub(crate) fn check_immediate_wins<G: Game>(
    new_game: impl Fn(u64) -> G,
    positions: usize,
    seed: u64,
) -> usize {
    let mut seeds = GameRng::seed_from_u64(seed);
    let mut found = 0;
    let mut failures = Vec::new();
    for _ in 0..positions * GAMES_PER_POSITION {
        if found == positions {
            break;
        }
        let game_seed: u64 = seeds.gen();
        let Some((state, wins, legal)) = first_win_among_siblings(new_game(game_seed), game_seed)
        else {
            continue;
        };
        found += 1;
        for selection in [Selection::OpenSpielUct, Selection::Uct] {
            let settings = MctsSettings {
                sims: (SIMULATIONS_PER_MOVE * legal as u32).max(MIN_SIMULATIONS),
                c_e: std::f64::consts::FRAC_1_SQRT_2,
                reward: Some(Reward::WinLoss),
                final_move: Some(FinalMove::MostVisits),
                selection: selection.clone(),
                ..MctsSettings::default()
            };
            let mut controller = MctsController::<G>::new(&settings, game_seed)
                .unwrap_or_else(|e| panic!("the settings are refused: {e}"));
            let mv = controller
                .try_choose_move(&state)
                .unwrap_or_else(|e| panic!("game seed {game_seed}: the search failed: {e}"));
            if !wins.contains(&mv) {
                failures.push(format!(
                    "game seed {game_seed}, {selection:?}: played {mv:?} of {legal} moves, \
                     winning moves {wins:?}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {found} positions with an immediate win not won:\n{}",
        failures.len(),
        failures.join("\n")
    );
    found
}

/// The first decision of a random game where the player to move has a move after which the game
/// is decided in its favour, and not every move is one: the state, its winning moves and the
/// number of legal moves.
fn first_win_among_siblings<G: Game>(mut state: G, seed: u64) -> Option<(G, Vec<G::Move>, usize)> {
    let mut rng = GameRng::seed_from_u64(seed ^ 0x1_3EAD);
    let mut moves = Vec::new();
    while !state.is_over() {
        if !state.at_decision() {
            state.sample_chance(&mut rng)?;
            continue;
        }
        state.legal_moves(&mut moves);
        let me = state.to_move();
        let wins: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = state.clone();
                after.apply_legal_move(mv).is_ok() && after.is_terminal() && {
                    let scores = after.scores();
                    scores[me] > scores[1 - me]
                }
            })
            .collect();
        if !wins.is_empty() && wins.len() < moves.len() {
            return Some((state, wins, moves.len()));
        }
        let mv = state.random_move(&mut rng)?;
        state
            .apply_legal_move(mv)
            .unwrap_or_else(|e| panic!("seed {seed}: a random move {mv:?} is refused: {e:?}"));
    }
    None
}
