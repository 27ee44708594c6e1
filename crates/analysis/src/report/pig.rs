//! The page of one game of Pig in a league report: the game as a table, one row per decision,
//! replayed from its record (so a record that does not replay makes no page).

use super::history::{one_table_game_page, GameFacts};
use super::html::{table_of_cells, Cell};
use super::ReportError;
use evomcts_arena::{replay_pig_observed, GameChoice, PigRecord, Step};
use evomcts_games::pig::{PigMove, PigState};
use evomcts_games::Game;
use evomcts_league::{LeagueGame, LeagueSpec};
use evomcts_records::escape;

/// One decision of a game of Pig, as the report's table and `replay --game K` show it.
pub struct DecisionRow {
    pub player: usize,
    /// Both banked scores and the mover's turn total before the decision.
    pub banked: [u16; 2],
    pub turn_total: u16,
    pub mv: PigMove,
    /// What followed: the face and its effect, or the banked total.
    pub outcome: String,
}

/// Every decision of a Pig record, replayed (an error says why it does not replay).
pub fn decision_rows(record: &PigRecord) -> Result<Vec<DecisionRow>, String> {
    let mut before = PigState::new(record.pig).map_err(|e| e.to_string())?;
    let mut rows: Vec<DecisionRow> = Vec::with_capacity(record.moves.len());
    replay_pig_observed(record, |after, step| {
        match step {
            Step::Moved { player, mv } => rows.push(DecisionRow {
                player,
                banked: before.banked(),
                turn_total: before.turn_total(),
                mv,
                outcome: match mv {
                    PigMove::Hold => format!("banks {}", before.turn_total()),
                    PigMove::Roll => String::new(),
                },
            }),
            Step::Chance { outcome: face } => {
                let effect = if face == 1 {
                    "1: the turn total is lost".to_string()
                } else if after.is_over() {
                    format!("{face}: reaches {} and wins", record.pig.target)
                } else {
                    format!("{face}: turn total {}", after.turn_total())
                };
                if let Some(row) = rows.last_mut() {
                    row.outcome = effect;
                }
            }
        }
        before = *after;
    })
    .map_err(|e| e.to_string())?;
    Ok(rows)
}

/// The page of game `number`, a game of Pig; `nav` links to the report and the neighbouring
/// games.
pub fn pig_game_page(
    spec: &LeagueSpec,
    game: &LeagueGame,
    record: &PigRecord,
    nav: &str,
    number: usize,
) -> Result<String, ReportError> {
    let rows = decision_rows(record).map_err(|e| {
        ReportError::Input(format!(
            "game {number} ({}) does not replay: {e}",
            game.id()
        ))
    })?;
    let names = [escape::html(&game.names[0]), escape::html(&game.names[1])];
    let headers = [
        "decision",
        "player",
        "banked 1",
        "banked 2",
        "turn total",
        "move",
        "what followed",
    ]
    .map(String::from);
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            vec![
                Cell::text(&(i + 1).to_string()),
                Cell {
                    html: format!(
                        "<span class=\"p{}\">{}</span>",
                        row.player, names[row.player]
                    ),
                    numeric: false,
                },
                Cell::text(&row.banked[0].to_string()),
                Cell::text(&row.banked[1].to_string()),
                Cell::text(&row.turn_total.to_string()),
                Cell::text(&row.mv.to_string()),
                Cell::text(&row.outcome),
            ]
        })
        .collect();
    let table = table_of_cells(
        "Every decision: the scores before it, the move, and the roll or bank that followed",
        &headers,
        &cells,
    );
    let described = GameChoice::Pig(record.pig).describe();
    let facts = GameFacts {
        label: &described.label,
        seed_name: described.seed_name,
        seed: record.dice_seed,
        final_scores: record.final_scores,
    };
    Ok(one_table_game_page(spec, game, number, nav, facts, table))
}
