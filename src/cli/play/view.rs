//! What the person is shown and what they type, for any game and both front ends (terminal and
//! browser): a move in the game's own notation (its serialisation in the records), the legal
//! moves each under a letter, the controller's answer with its root statistics, and the end of
//! the game.

use evomcts::arena::{history_moves, replay_history, replay_pig, GameTask, PlayedGame, Position};
use evomcts::games::carcassonne::replay_observed;
use evomcts::games::Game;
use evomcts::league::analyse::search_table;
use evomcts::league::report::TextTable;
use evomcts::search::SearchSummary;
use serde::Serialize;

/// A move as the person reads and types it: the game's serialisation of it, as the records
/// hold it (Connect Four: `3`), a JSON string without its quotes (Pig: `Roll`).
pub fn notation<M: Serialize>(mv: &M) -> String {
    match serde_json::to_value(mv) {
        Ok(serde_json::Value::String(text)) => text,
        Ok(value) => value.to_string(),
        Err(e) => format!("<{e}>"),
    }
}

/// The letters of the `i`-th legal move (from 0): `a` … `z`, then `aa`, `ab`, … as a
/// spreadsheet names its columns.
pub fn letters(mut i: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The longest input a move is read from, in bytes.
pub const MAX_INPUT: usize = 1024;

/// Which of the legal moves (their `notations`, in order) `input` names: a move's notation
/// (typed as the game writes it, as JSON or a JSON string without its quotes), else a move's
/// letters. A notation wins over letters that happen to read the same. An error says what
/// was expected.
pub fn pick(notations: &[String], input: &str) -> Result<usize, String> {
    let input = input.trim();
    if input.is_empty() {
        return Err("type a move's letter or the move itself".into());
    }
    let typed = match serde_json::from_str::<serde_json::Value>(input) {
        Ok(value) => notation(&value),
        Err(_) => input.to_string(),
    };
    if let Some(i) = notations.iter().position(|n| *n == typed) {
        return Ok(i);
    }
    if let Some(i) = (0..notations.len()).find(|&i| letters(i) == input) {
        return Ok(i);
    }
    let shown = evomcts::escape::abbreviated(input, 40);
    let last = letters(notations.len().saturating_sub(1));
    Err(format!(
        "`{shown}` is no legal move here: type a letter from a to {last}, or one of the moves \
         as listed ({})",
        abbreviated_list(notations)
    ))
}

/// The first few of `notations`, for a message.
fn abbreviated_list(notations: &[String]) -> String {
    let shown: Vec<&str> = notations.iter().take(8).map(String::as_str).collect();
    let more = notations.len().saturating_sub(shown.len());
    let mut list = shown.join(", ");
    if more > 0 {
        list.push_str(&format!(", … {more} more"));
    }
    list
}

/// The legal moves of a decision, with their notations.
pub struct Choices {
    /// The legal moves, serialised, in the game's order.
    pub moves: Vec<serde_json::Value>,
    pub notations: Vec<String>,
}

impl Choices {
    pub fn of(at: &dyn Position) -> Self {
        let moves = at.moves();
        let notations = moves.iter().map(notation).collect();
        Choices { moves, notations }
    }

    /// The move `input` names ([`pick`]).
    pub fn pick(&self, input: &str) -> Result<serde_json::Value, String> {
        pick(&self.notations, input).map(|i| self.moves[i].clone())
    }

    /// Each move under its letters, as `a: 3`.
    pub fn labelled(&self) -> Vec<(String, String)> {
        (self.notations.iter().enumerate())
            .map(|(i, n)| (letters(i), n.clone()))
            .collect()
    }
}

/// A search summary with its moves in their notation.
pub fn in_notation<M: Serialize>(search: &SearchSummary<M>) -> SearchSummary<String> {
    search.map_moves(notation)
}

/// Who plays: the entrants' names in seat order and the person's seat.
#[derive(Clone, Debug)]
pub struct Seating {
    pub names: [String; 2],
    pub person: usize,
}

impl Seating {
    /// `UCT 1000 (player 2)`.
    pub fn who(&self, seat: usize) -> String {
        format!("{} (player {})", self.names[seat], seat + 1)
    }

    /// The controller's seat.
    pub fn controller(&self) -> usize {
        1 - self.person
    }
}

/// The controller's move and what its search found.
pub struct Answer {
    /// `UCT 1000 (player 2) plays 3`.
    pub line: String,
    /// Its root statistics, most visited first (`None`: it does not search).
    pub table: Option<TextTable>,
}

impl Answer {
    pub fn new<M: Serialize>(
        seating: &Seating,
        mv: &M,
        search: Option<&SearchSummary<M>>,
    ) -> Answer {
        let mv = notation(mv);
        let who = seating.who(seating.controller());
        Answer {
            line: format!("{who} plays {mv}"),
            table: search.map(|s| {
                let table = search_table(
                    &seating.names[seating.controller()],
                    &in_notation(s),
                    &mv,
                    &mv,
                );
                for_play(table)
            }),
        }
    }
}

/// `league::analyse::search_table` as a game against a person shows it: without the columns
/// the search did not fill (`H` and `p` unless its policy reads them), the move played (the
/// search's choice) marked `played`.
fn for_play(mut table: TextTable) -> TextTable {
    let unfilled: Vec<usize> = (0..table.headers.len())
        .filter(|&c| {
            !table.rows.is_empty()
                && table
                    .rows
                    .iter()
                    .all(|row| row.get(c).is_some_and(|v| v == "-"))
        })
        .collect();
    for &c in unfilled.iter().rev() {
        table.headers.remove(c);
        for row in &mut table.rows {
            row.remove(c);
        }
    }
    for cell in table.rows.iter_mut().flatten() {
        if cell == "played, chosen" {
            *cell = "played".into();
        }
    }
    table
}

/// How the game ended: the final position and the result, in words.
pub struct Ending {
    pub board: Option<String>,
    /// `you win: you 1 – 0 UCT 1000`.
    pub result: String,
}

impl Ending {
    pub fn new(seating: &Seating, game: &PlayedGame) -> Ending {
        let scores = game.final_scores();
        let words = match game.winner() {
            Some(w) if w == seating.person => "you win".to_string(),
            Some(w) => format!("{} wins", seating.names[w]),
            None => "a draw".to_string(),
        };
        Ending {
            board: final_position(game),
            result: format!(
                "{words}: {} {} – {} {}",
                seating.names[0], scores[0], scores[1], seating.names[1]
            ),
        }
    }
}

/// The game's text of a finished game's last position, replayed from its record.
fn final_position(game: &PlayedGame) -> Option<String> {
    match game {
        PlayedGame::Carcassonne(r) => replay_observed(r, |_, _| {}).ok()?.text(),
        PlayedGame::Pig(r) => replay_pig(r).ok()?.text(),
        PlayedGame::History(r) => {
            struct End<'a>(&'a evomcts::arena::HistoryRecord);
            impl GameTask for End<'_> {
                type Output = Option<String>;
                fn run<G: Game>(self, start: G) -> Option<String> {
                    let r = self.0;
                    replay_history(
                        start,
                        history_moves::<G>(r),
                        &r.outcomes,
                        r.stated(),
                        |_, _| {},
                    )
                    .ok()?
                    .text()
                }
            }
            r.game.dispatch(End(r)).ok()?
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_count_as_spreadsheet_columns() {
        let named: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
            .into_iter()
            .map(letters)
            .collect();
        assert_eq!(
            named,
            ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"].map(String::from)
        );
    }

    #[test]
    fn a_move_is_picked_by_its_notation_first_then_by_its_letters() {
        let columns: Vec<String> = ["0", "1", "2", "4"].map(String::from).to_vec();
        assert_eq!(pick(&columns, "4"), Ok(3));
        assert_eq!(pick(&columns, " d \n"), Ok(3));
        assert_eq!(pick(&columns, "a"), Ok(0));
        let refused = pick(&columns, "3").unwrap_err();
        assert!(
            refused.contains("a to d") && refused.contains("0, 1, 2, 4"),
            "{refused}"
        );
        assert!(pick(&columns, "").is_err());
        assert!(pick(&columns, "e").is_err());
        let pig: Vec<String> = ["Roll", "Hold"].map(String::from).to_vec();
        assert_eq!(pick(&pig, "Hold"), Ok(1));
        assert_eq!(pick(&pig, "\"Hold\""), Ok(1));
        let mv = evomcts::games::carcassonne::Move {
            x: 1,
            y: 0,
            rotation: 2,
            meeple: None,
        };
        let carcassonne = vec![notation(&mv)];
        assert_eq!(
            pick(
                &carcassonne,
                r#"{"x": 1, "y": 0, "rotation": 2, "meeple": null}"#
            ),
            Ok(0)
        );
    }
}
