//! Checks against OpenSpiel: evomcts's own Pig against OpenSpiel's `pig`, step by step on
//! the same dice (`pig_rules_check`).

use evomcts_arena::open_spiel::{OpenSpielGame, OpenSpielParam, OpenSpielSpec};
use evomcts_games::external::{ExternalGame, ExternalMove};
use evomcts_games::pig::{PigMove, PigRules, PigState};
use evomcts_games::{Game, GameRng};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{Rng, SeedableRng};

use crate::raise;

/// OpenSpiel's pig actions.
const ROLL: i64 = 0;
const STOP: i64 = 1;

/// What one game of the lockstep check found.
#[derive(Default)]
struct Tally {
    decisions: u64,
    rolls: u64,
    /// Decisions where OpenSpiel also offers `stop` with a turn total of 0 (native Pig does
    /// not): the one difference of legal actions the rules explain.
    zero_total_stops: u64,
    /// Wins where OpenSpiel needs one more, forced, `stop` (native Pig ends at the roll).
    forced_final_stops: u64,
    mismatches: Vec<String>,
}

/// OpenSpiel's banked scores, from its text (`Scores: 12 30, Turn total: 4 ...`).
fn open_spiel_scores(text: &str) -> Option<[i32; 2]> {
    let line = text.strip_prefix("Scores: ")?;
    let (scores, rest) = line.split_once(',')?;
    let mut it = scores.split_whitespace().map(|s| s.parse::<i32>().ok());
    let total = rest.trim().strip_prefix("Turn total: ")?;
    let _turn_total: i32 = total.lines().next()?.trim().parse().ok()?;
    Some([it.next()??, it.next()??])
}

/// Where a mismatch happened: the step and both states.
fn at(step: usize, native: &PigState, theirs: &ExternalGame, what: String) -> String {
    format!(
        "step {step}: {what} (native: {native}; OpenSpiel: {:?})",
        theirs.text().unwrap_or_default()
    )
}

/// One random game on both implementations, moves drawn uniformly from native Pig's legal
/// moves and faces from `rng`, everything compared at every step.
fn lockstep(
    target: u16,
    os: &OpenSpielGame,
    rng: &mut GameRng,
    tally: &mut Tally,
) -> Result<(), String> {
    let mut native = PigState::new(PigRules::new(target).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let mut theirs: ExternalGame = os.start()?;
    let mut native_moves = Vec::new();
    let mut their_moves = Vec::new();
    let mut step = 0;
    while !native.is_over() {
        step += 1;
        if native.at_decision() {
            tally.decisions += 1;
            native.legal_moves(&mut native_moves);
            theirs.legal_moves(&mut their_moves);
            let mapped: Vec<i64> = native_moves
                .iter()
                .map(|m| if *m == PigMove::Roll { ROLL } else { STOP })
                .collect();
            let mut theirs_sorted: Vec<i64> = their_moves.iter().map(|m| m.0).collect();
            theirs_sorted.sort_unstable();
            let explained =
                native.turn_total() == 0 && theirs_sorted == [ROLL, STOP] && mapped == [ROLL];
            if explained {
                tally.zero_total_stops += 1;
            } else if theirs_sorted != mapped {
                return Err(at(
                    step,
                    &native,
                    &theirs,
                    format!("legal actions: native {mapped:?}, OpenSpiel {theirs_sorted:?}"),
                ));
            }
            if native.to_move() != theirs.to_move() {
                return Err(at(
                    step,
                    &native,
                    &theirs,
                    format!(
                        "player to move: native {}, OpenSpiel {}",
                        native.to_move(),
                        theirs.to_move()
                    ),
                ));
            }
            let mv = native_moves[rng.gen_range(0..native_moves.len())];
            native
                .apply_move(mv)
                .map_err(|e| at(step, &native, &theirs, e.to_string()))?;
            let action = if mv == PigMove::Roll { ROLL } else { STOP };
            theirs
                .apply_move(ExternalMove(action))
                .map_err(|e| at(step, &native, &theirs, e.to_string()))?;
        } else {
            tally.rolls += 1;
            let face: u8 = rng.gen_range(1..=6);
            native
                .apply_outcome(face)
                .map_err(|e| at(step, &native, &theirs, e.to_string()))?;
            theirs
                .apply_outcome(face - 1)
                .map_err(|e| at(step, &native, &theirs, e.to_string()))?;
        }
        if native.is_over() && !theirs.is_over() {
            // Native Pig ends at the roll that reaches the target; OpenSpiel asks the roller
            // to stop first, the only action it then allows.
            theirs.legal_moves(&mut their_moves);
            if their_moves != [ExternalMove(STOP)] {
                return Err(at(
                    step,
                    &native,
                    &theirs,
                    format!("the winning roll leaves OpenSpiel {their_moves:?}"),
                ));
            }
            theirs
                .apply_move(ExternalMove(STOP))
                .map_err(|e| at(step, &native, &theirs, e.to_string()))?;
            tally.forced_final_stops += 1;
        }
        let text = theirs.text().unwrap_or_default();
        let scores = open_spiel_scores(&text)
            .ok_or_else(|| at(step, &native, &theirs, "unreadable OpenSpiel text".into()))?;
        if scores != native.banked().map(i32::from) {
            return Err(at(
                step,
                &native,
                &theirs,
                format!(
                    "banked scores: native {:?}, OpenSpiel {scores:?}",
                    native.banked()
                ),
            ));
        }
        if native.is_over() != theirs.is_over() {
            return Err(at(
                step,
                &native,
                &theirs,
                "one game is over, the other not".into(),
            ));
        }
    }
    let winner = native
        .winner()
        .expect("a finished game of Pig has a winner");
    let returns = theirs.scores();
    if returns[winner] != 1 || returns[1 - winner] != -1 {
        return Err(format!(
            "winner: native player {winner}, OpenSpiel returns {returns:?}"
        ));
    }
    Ok(())
}

/// Plays ``games`` random games of evomcts's Pig to ``target`` and OpenSpiel's ``pig`` with
/// ``winscore=target``, ``diceoutcomes=6``, ``players=2``, ``piglet=False`` and ``horizon``
/// (large enough that no game reaches it: native Pig has no horizon) on the same dice from
/// ``seed``, comparing legal actions, the player to move, both banked scores and the end at
/// every step. Returns counts and the first mismatches (at most 10).
#[pyfunction]
#[pyo3(signature = (games, *, seed=0, target=100, horizon=100_000))]
fn pig_rules_check<'py>(
    py: Python<'py>,
    games: &Bound<'py, PyAny>,
    seed: u64,
    target: u16,
    horizon: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let params = [
        ("winscore", OpenSpielParam::Int(i64::from(target))),
        ("diceoutcomes", OpenSpielParam::Int(6)),
        ("players", OpenSpielParam::Int(2)),
        ("horizon", OpenSpielParam::Int(horizon)),
        ("piglet", OpenSpielParam::Bool(false)),
    ];
    let os = OpenSpielGame::new(OpenSpielSpec {
        name: "pig".into(),
        params: params
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        modules: Vec::new(),
    });
    // As many games as a league may have.
    let max = evomcts_league::spec::MAX_LEAGUE_GAMES;
    let games = crate::int_arg("games", games, 0, max)?;
    os.start().map_err(|e| raise(anyhow::anyhow!(e)))?;
    let mut tally = Tally::default();
    let mut games_with_mismatch = 0u64;
    for game in 0..games {
        py.check_signals()?;
        let mut rng = GameRng::seed_from_u64(seed.wrapping_add(game));
        if let Err(e) = lockstep(target, &os, &mut rng, &mut tally) {
            games_with_mismatch += 1;
            if tally.mismatches.len() < 10 {
                tally.mismatches.push(format!("game {game}: {e}"));
            }
        }
    }
    let out = PyDict::new(py);
    out.set_item("games", games)?;
    out.set_item("open_spiel_game", os.to_string())?;
    out.set_item("decisions", tally.decisions)?;
    out.set_item("rolls", tally.rolls)?;
    out.set_item("games_with_mismatch", games_with_mismatch)?;
    out.set_item("zero_total_stops", tally.zero_total_stops)?;
    out.set_item("forced_final_stops", tally.forced_final_stops)?;
    out.set_item("mismatches", tally.mismatches)?;
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pig_rules_check, m)?)?;
    Ok(())
}
