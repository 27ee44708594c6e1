//! The report of a league: the index page and one viewer page per game.

use super::history::history_game_page;
use super::html::{self, link, section, table, table_of_cells, Cell};
use super::pig::pig_game_page;
use super::viewer::{game_view, script_json, TileDrawings};
use super::{run_figures, write_file, ReportError, WrittenReport, STYLESHEET, VIEWER_SCRIPT};
use crate::plots::formulas::{summary_table, top_table, FormulaReport};
use evomcts_arena::{GameChoice, PlayedGame};
use evomcts_league::report::{all_tables, TextTable};
use evomcts_league::{load_runs, BonusRules, LeagueGame, LeagueSpec, MergeReport, Tables};
use evomcts_records::escape;
use std::path::{Path, PathBuf};

/// Formulas listed per ES controller in the formula table.
const TOP_FORMULAS: usize = 10;

fn game_page_name(number: usize) -> String {
    format!("game-{number}.html")
}

/// Reads the league runs `runs` (merged as every command merges them) and writes its report
/// into `out`.
pub fn write_league_report(runs: &[PathBuf], out: &Path) -> Result<WrittenReport, ReportError> {
    let (spec, games, merge) = load_runs(runs)?;
    if games.is_empty() {
        return Err(ReportError::Input(format!(
            "{}: the run holds no recorded games yet",
            runs[0].display()
        )));
    }
    let names = spec.names();
    let tables = Tables::from_games(&names, spec.games_per_match, &spec.bonus, &games);
    let numbers: Vec<usize> = games
        .iter()
        .map(|g| g.id().number(names.len(), spec.games_per_match))
        .collect();
    let mut files = Vec::new();
    let games_dir = out.join("games");
    let mut drawings = TileDrawings::default();
    let mut largest_game_page = 0;
    for (i, game) in games.iter().enumerate() {
        let neighbour =
            |j: Option<usize>| j.and_then(|j| numbers.get(j)).map(|&k| game_page_name(k));
        let nav = game_nav(neighbour(i.checked_sub(1)), neighbour(Some(i + 1)));
        let at = |e: ReportError| at_record(merge.sources.get(i), e);
        let page = match &game.game {
            PlayedGame::Carcassonne(_) => {
                // The command names the first folder: every folder of a merged report holds
                // the game.
                let view = game_view(
                    game,
                    numbers[i],
                    &mut drawings,
                    runs.first().map(|r| r.as_path()),
                )
                .map_err(|e| at(e.into()))?;
                game_page(&spec, game, &script_json(&view), &nav, numbers[i])
            }
            PlayedGame::Pig(record) => {
                pig_game_page(&spec, game, record, &nav, numbers[i]).map_err(at)?
            }
            PlayedGame::History(record) => {
                history_game_page(&spec, game, record, &nav, numbers[i]).map_err(at)?
            }
        };
        let size = write_file(&games_dir, &game_page_name(numbers[i]), &page, &mut files)?;
        largest_game_page = largest_game_page.max(size);
    }
    write_file(out, "tiles.js", &drawings.to_script(), &mut files)?;
    write_file(out, "viewer.js", VIEWER_SCRIPT, &mut files)?;
    write_file(out, "report.css", STYLESHEET, &mut files)?;
    let figures = run_figures(runs, &out.join("figures"), &mut files)?;
    let formulas = FormulaReport::new(&names, &games, &[], TOP_FORMULAS)?;
    let index = index_page(
        &spec, &merge, &tables, &figures, &formulas, &games, &numbers,
    );
    write_file(out, "index.html", &index, &mut files)?;
    Ok(WrittenReport {
        index: out.join("index.html"),
        game_pages: games.len(),
        largest_game_page,
        files,
        warnings: merge.warnings(),
    })
}

/// A game's page refused for its record: the message led by the record's file and line.
fn at_record(source: Option<&(PathBuf, usize)>, e: ReportError) -> ReportError {
    match (source, e) {
        (Some((file, line)), ReportError::Input(message)) => {
            ReportError::Input(format!("{}:{line}: {message}", file.display()))
        }
        (Some((file, line)), ReportError::Plot(crate::plots::PlotError::Data(message))) => {
            ReportError::Input(format!("{}:{line}: {message}", file.display()))
        }
        (_, e) => e,
    }
}

fn index_page(
    spec: &LeagueSpec,
    merge: &MergeReport,
    tables: &Tables,
    figures: &[super::InlineFigure],
    formulas: &FormulaReport,
    games: &[LeagueGame],
    numbers: &[usize],
) -> String {
    let mut body = format!(
        "<header>\n<h1>League {}</h1>\n<p>{}</p>\n<p>{} of {} scheduled games recorded · {} games per match · master seed {}</p>\n",
        escape::html(&spec.name),
        escape::html(&spec.description),
        games.len(),
        merge.scheduled,
        spec.games_per_match,
        spec.seed
    );
    for w in merge.warnings() {
        body.push_str(&format!("<p class=\"warning\">{}</p>\n", escape::html(&w)));
    }
    let tables_list = reading_order(all_tables(tables), &spec.game);
    let mut nav: Vec<(String, String)> = tables_list
        .iter()
        .map(|(name, _)| (name.to_string(), heading_of(name)))
        .collect();
    nav.push(("figures".into(), "Figures".into()));
    if !formulas.results.is_empty() {
        nav.push(("formulas".into(), "Formulas chosen by the ES".into()));
    }
    nav.push(("games".into(), "Every game".into()));
    body.push_str("<nav><ul>\n");
    for (id, title) in &nav {
        body.push_str(&format!("<li>{}</li>\n", link(&format!("#{id}"), title)));
    }
    body.push_str("</ul></nav>\n</header>\n<main>\n");
    for (name, t) in &tables_list {
        let content = format!("{}{}", column_note(name, &spec.bonus), table(t));
        body.push_str(&section(name, &heading_of(name), &content));
    }
    body.push_str(&section(
        "figures",
        "Figures",
        &super::figures_html(figures),
    ));
    if !formulas.results.is_empty() {
        let content = format!(
            "{}{}",
            table(&summary_table(&formulas.results)),
            table(&top_table(&formulas.rows, formulas.k))
        );
        body.push_str(&section("formulas", "Formulas chosen by the ES", &content));
    }
    body.push_str(&section(
        "games",
        "Every game, in schedule order",
        &games_table(spec, games, numbers),
    ));
    body.push_str("</main>\n");
    html::page(&format!("League {}", spec.name), "report.css", &body, &[])
}

/// A table's file name as a heading (`win_rates` → "Win rates"); the table's own title is its
/// caption.
/// The tables in the order the page shows them: the main paper's standings (match and bonus
/// points) first for Carcassonne, whose league format they are; the win rates first for every
/// other game, where the share of games won is what a reader looks for.
fn reading_order(
    mut tables: Vec<(&'static str, TextTable)>,
    game: &GameChoice,
) -> Vec<(&'static str, TextTable)> {
    if !game.is_carcassonne() {
        if let Some(at) = tables.iter().position(|(name, _)| *name == "win_rates") {
            let win_rates = tables.remove(at);
            tables.insert(0, win_rates);
        }
    }
    tables
}

/// What the columns of a table mean, where its headers are the main paper's league jargon
/// (the standings), with the spec's own bonus thresholds; empty for the other tables.
fn column_note(name: &str, bonus: &BonusRules) -> String {
    if name != "standings" {
        return String::new();
    }
    let (win_op, loss_op) = (
        if bonus.bonus_win_strict {
            "more than"
        } else {
            "at least"
        },
        if bonus.bonus_loss_strict {
            "less than"
        } else {
            "at most"
        },
    );
    format!(
        "<p class=\"note\">A match is every game between two controllers in one seating order. \
         <strong>Points</strong>: match points, {} for a match won (more of its games won), {} for a draw, {} for a loss, \
         bonus points included. <strong>BWP</strong>: bonus-win points, one for a match won with {} {}% of its games. \
         <strong>BLP</strong>: bonus-loss points, one for a match lost while the winner won {} {}% of its games. \
         <strong>W</strong>, <strong>L</strong>, <strong>D</strong>: matches won, lost, drawn. <strong>PD</strong>: point difference, the mean of own \
         score minus the opponent's over all the controller's games. Ranked by Points, then PD, then matches won \
         (the main paper's league format; the win rates with their intervals are in the table Win rates).</p>\n",
        bonus.win_points,
        bonus.draw_points,
        bonus.loss_points,
        win_op,
        percent(bonus.bonus_win_share),
        loss_op,
        percent(bonus.bonus_loss_share),
    )
}

/// A share as a percentage for reading, to two decimals at most (0.55 is 55, not
/// 55.00000000000001).
fn percent(share: f64) -> String {
    escape::number((share * 1e4).round() / 100.0)
}

fn heading_of(name: &str) -> String {
    let words = name.replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// One row per game, K first; the K cell links to the game's viewer page.
fn games_table(spec: &LeagueSpec, games: &[LeagueGame], numbers: &[usize]) -> String {
    let seed = spec.game.seed_name();
    let headers = [
        "K", "game", "player 1", "player 2", "score 1", "score 2", "winner", "turns", seed,
    ]
    .map(String::from);
    let rows: Vec<Vec<Cell>> = games
        .iter()
        .zip(numbers)
        .map(|(game, &k)| {
            let r = &game.game;
            let winner = match r.winner() {
                Some(seat) => game.names[seat].as_str(),
                None => "draw",
            };
            vec![
                Cell {
                    html: link(&format!("games/{}", game_page_name(k)), &k.to_string()),
                    numeric: true,
                },
                Cell::text(&game.id().to_string()),
                Cell::text(&game.names[0]),
                Cell::text(&game.names[1]),
                Cell::text(&r.final_scores()[0].to_string()),
                Cell::text(&r.final_scores()[1].to_string()),
                Cell::text(winner),
                Cell::text(&r.decisions().to_string()),
                // Text, not a number: a 64-bit seed must be copied exactly.
                Cell {
                    html: format!("<span class=\"seed\">{}</span>", r.seed()),
                    numeric: false,
                },
            ]
        })
        .collect();
    table_of_cells(
        "K is the game's number in schedule order (as in replay --game K)",
        &headers,
        &rows,
    )
}

/// A game's viewer page: the controls and panels `viewer.js` fills from the inline data.
/// The links of a game's page: back to the list, and to the neighbouring games' pages.
fn game_nav(previous: Option<String>, next: Option<String>) -> String {
    let mut nav = vec![link("../index.html#games", "all games")];
    if let Some(p) = previous {
        nav.push(link(&p, "← previous game"));
    }
    if let Some(n) = next {
        nav.push(link(&n, "next game →"));
    }
    nav.join(" · ")
}

fn game_page(spec: &LeagueSpec, game: &LeagueGame, data: &str, nav: &str, number: usize) -> String {
    let names = [escape::html(&game.names[0]), escape::html(&game.names[1])];
    let body = format!(
        r#"<header>
<h1>Game {number}: <span class="p0">{n0}</span> vs <span class="p1">{n1}</span></h1>
<p>League {league} · game {id} · tile seed <span class="seed">{seed}</span> · final score {s0} – {s1}</p>
<nav class="games">{nav}</nav>
</header>
<main class="viewer">
<div class="controls">
<button id="first" type="button" title="start (Home)">|◀</button>
<button id="previous" type="button" title="previous turn (←)">◀</button>
<button id="next" type="button" title="next turn (→)">▶</button>
<button id="last" type="button" title="final board (End)">▶|</button>
<input id="turn" type="range" min="0" max="{last}" value="0" aria-label="turn">
<span id="turn-label">turn 0</span>
</div>
<div class="panels">
<div class="board"><svg id="board" role="img" aria-label="the board"></svg></div>
<div class="side">
<table class="scores">
<thead><tr><th></th><th>score</th><th>virtual score</th><th>meeples left</th></tr></thead>
<tbody>
<tr class="p0"><th>{n0}</th><td id="score-0" class="num"></td><td id="virtual-0" class="num"></td><td id="supply-0" class="num"></td></tr>
<tr class="p1"><th>{n1}</th><td id="score-1" class="num"></td><td id="virtual-1" class="num"></td><td id="supply-1" class="num"></td></tr>
</tbody>
</table>
<p class="note">The virtual score is what a player would have if the game ended now (end-of-game scoring of every open feature).</p>
<h3>This turn</h3>
<dl id="move"></dl>
<p id="drawn"></p>
<h3>Selection formula</h3>
<p id="formula"></p>
<div id="es-candidates"></div>
<h3>Search</h3>
<div id="search"></div>
<p class="note" id="analyse-note">Analyse this position: <code id="analyse"></code></p>
</div>
</div>
<p class="note">←/→ step one turn, Home/End jump to the start or the final board; the tile just laid is outlined; the address (<code>#turn=T</code>) names the turn on display. Player 1 red, player 2 blue. With search statistics recorded, the squares of the most visited moves are shaded by their share of the simulations.</p>
</main>
<script>window.GAME = {data};</script>
"#,
        n0 = names[0],
        n1 = names[1],
        league = escape::html(&spec.name),
        id = escape::html(&game.id().to_string()),
        seed = game.game.seed(),
        s0 = game.game.final_scores()[0],
        s1 = game.game.final_scores()[1],
        last = game.game.decisions(),
    );
    html::page(
        &format!("Game {number}: {} vs {}", game.names[0], game.names[1]),
        "../report.css",
        &body,
        &["../tiles.js", "../viewer.js"],
    )
}
