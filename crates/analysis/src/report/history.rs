//! The page of one game recorded by its history (any game without a page of its own): one row
//! per move and chance outcome, with the game's text rendering of the state after it where the
//! game offers one ([`Game::text`]). The history is replayed, so a record that does not replay
//! makes no page.

use super::html::{self, table_of_cells, Cell};
use super::ReportError;
use evomcts_arena::{
    history_moves, open_spiel, replay_history, GameChoice, GameTask, HistoryRecord, Step,
};
use evomcts_games::Game;
use evomcts_league::{LeagueGame, LeagueSpec};
use evomcts_records::escape;

/// One step of a replayed history, as the page and `replay --game K` show it.
pub struct HistoryRow {
    /// The seat that moved; `None` for a chance outcome.
    pub player: Option<usize>,
    /// The move as the record holds it (the game's serialisation), or the chance outcome's
    /// label.
    pub step: String,
    /// The game's rendering of the state after the step, where it offers one.
    pub state: Option<String>,
}

/// Every step of a history record, replayed on its game (an error says why it does not).
pub fn history_rows(record: &HistoryRecord) -> Result<Vec<HistoryRow>, String> {
    struct Rows<'a>(&'a HistoryRecord);
    impl GameTask for Rows<'_> {
        type Output = Result<Vec<HistoryRow>, String>;
        fn run<G: Game>(self, start: G) -> Self::Output {
            let record = self.0;
            let mut rows = Vec::with_capacity(record.moves.len() + record.outcomes.len());
            let mut moves = record.moves.iter();
            replay_history(
                start,
                history_moves::<G>(record),
                &record.outcomes,
                record.stated(),
                |after, step| {
                    let (player, step) = match step {
                        Step::Moved { player, .. } => (
                            Some(player),
                            moves.next().map_or(String::new(), |mv| mv.to_string()),
                        ),
                        Step::Chance { outcome } => (None, format!("chance: {outcome}")),
                    };
                    rows.push(HistoryRow {
                        player,
                        step,
                        state: after.text(),
                    });
                },
            )
            .map_err(|e| e.to_string())?;
            Ok(rows)
        }
    }
    record.game.dispatch(Rows(record))?
}

/// The page of game `number`, recorded by its history; `nav` links to the report and the
/// neighbouring games.
pub fn history_game_page(
    spec: &LeagueSpec,
    game: &LeagueGame,
    record: &HistoryRecord,
    nav: &str,
    number: usize,
) -> Result<String, ReportError> {
    if matches!(record.game, GameChoice::OpenSpiel(_)) && !open_spiel::provider_installed() {
        return Ok(unreplayed_page(spec, game, record, nav, number));
    }
    let rows = history_rows(record).map_err(|e| {
        ReportError::Input(format!(
            "game {number} ({}) does not replay: {e}",
            game.id()
        ))
    })?;
    let names = [escape::html(&game.names[0]), escape::html(&game.names[1])];
    let headers = [
        "step",
        "player",
        "move or chance outcome",
        "position after it",
    ]
    .map(String::from);
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            vec![
                Cell::text(&(i + 1).to_string()),
                match row.player {
                    Some(p) => Cell {
                        html: format!("<span class=\"p{p}\">{}</span>", names[p]),
                        numeric: false,
                    },
                    None => Cell::text("chance"),
                },
                Cell::text(&row.step),
                Cell {
                    html: row.state.as_deref().map_or(String::new(), |text| {
                        format!("<pre class=\"position\">{}</pre>", escape::html_lines(text))
                    }),
                    numeric: false,
                },
            ]
        })
        .collect();
    let table = table_of_cells(
        "Every step of the game: each move and chance outcome, and the position after it",
        &headers,
        &cells,
    );
    let facts = GameFacts {
        label: &record.game.label(),
        seed_name: record.game.seed_name(),
        seed: record.seed,
        final_scores: record.final_scores,
    };
    Ok(one_table_game_page(spec, game, number, nav, facts, table))
}

/// The page of an OpenSpiel game in a process without OpenSpiel (the binary): its moves and
/// chance outcomes as recorded, without positions, and how to get them.
fn unreplayed_page(
    spec: &LeagueSpec,
    game: &LeagueGame,
    record: &HistoryRecord,
    nav: &str,
    number: usize,
) -> String {
    let list = |items: Vec<String>| -> String {
        if items.is_empty() {
            "none".into()
        } else {
            escape::html(&items.join(" "))
        }
    };
    let moves = list(record.moves.iter().map(|m| m.to_string()).collect());
    let outcomes = list(record.outcomes.iter().map(|o| o.to_string()).collect());
    let table = format!(
        "<p>The positions of OpenSpiel's games are shown by the report of the Python package, \
         which loads OpenSpiel: <code>python -m evomcts report RUN --out OUT</code>.</p>\n\
         <p>Moves (OpenSpiel's actions, in order): <code>{moves}</code></p>\n\
         <p>Chance outcomes (indices into each event's outcome list, in order): \
         <code>{outcomes}</code></p>\n"
    );
    let facts = GameFacts {
        label: &record.game.label(),
        seed_name: record.game.seed_name(),
        seed: record.seed,
        final_scores: record.final_scores,
    };
    one_table_game_page(spec, game, number, nav, facts, table)
}

/// What a page of one game shows beside its table: the game's name and seed words, e.g.
/// `Pig to 100 · dice seed`.
pub(super) struct GameFacts<'a> {
    pub label: &'a str,
    pub seed_name: &'a str,
    pub seed: u64,
    pub final_scores: [i32; 2],
}

/// A page of one game made of one table: the players, the game's facts, the links to the
/// report and the neighbouring games, and the table.
pub(super) fn one_table_game_page(
    spec: &LeagueSpec,
    game: &LeagueGame,
    number: usize,
    nav: &str,
    facts: GameFacts,
    table: String,
) -> String {
    let names = [escape::html(&game.names[0]), escape::html(&game.names[1])];
    let body = format!(
        r#"<header>
<h1>Game {number}: <span class="p0">{n0}</span> vs <span class="p1">{n1}</span></h1>
<p>League {league} · game {id} · {label} · {seed_name} <span class="seed">{seed}</span> · final score {s0} – {s1}</p>
<nav class="games">{nav}</nav>
</header>
<main>
{table}</main>
"#,
        n0 = names[0],
        n1 = names[1],
        league = escape::html(&spec.name),
        id = escape::html(&game.id().to_string()),
        label = escape::html(facts.label),
        seed_name = facts.seed_name,
        seed = facts.seed,
        s0 = facts.final_scores[0],
        s1 = facts.final_scores[1],
    );
    html::page(
        &format!("Game {number}: {} vs {}", game.names[0], game.names[1]),
        "../report.css",
        &body,
        &[],
    )
}
