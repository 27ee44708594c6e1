//! League tables as text for the terminal and Markdown (display headers, rounded numbers), and
//! as CSV files in the run's folder (snake_case headers, numbers at full precision, intervals in
//! two columns, booleans as `true`/`false`). The two forms are built separately so a change of
//! wording on screen never changes a column a script reads; `docs/outputs.md` documents every
//! CSV column.

use super::standings::{MatchResult, Standing, Tables};
use evomcts_records::escape;
use evomcts_records::escape::csv_number as number;
use std::path::Path;

/// A table of strings that renders three ways.
pub struct TextTable {
    pub title: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Cells hold names from spec files: every output escapes them its own way (see `escape`).
fn csv_field(s: &str) -> String {
    escape::csv(s)
}

impl TextTable {
    /// A table of `headers` over `rows` (each as long as `headers`).
    pub fn new(title: impl Into<String>, headers: &[&str], rows: Vec<Vec<String>>) -> TextTable {
        TextTable {
            title: title.into(),
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows,
        }
    }

    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            out.push_str(
                &row.iter()
                    .map(|c| csv_field(c))
                    .collect::<Vec<_>>()
                    .join(","),
            );
            out.push('\n');
        }
        out
    }

    pub fn to_markdown(&self) -> String {
        let line = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| escape::markdown(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut out = format!("### {}\n\n", self.title);
        out.push_str(&line(&self.headers));
        out.push_str(&line(&vec!["---".to_string(); self.headers.len()]));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }

    pub fn to_text(&self) -> String {
        let shown = |r: &[String]| r.iter().map(|c| escape::terminal(c)).collect::<Vec<_>>();
        let headers = shown(&self.headers);
        let rows: Vec<Vec<String>> = self.rows.iter().map(|r| shown(r)).collect();
        let cols = headers.len();
        let width: Vec<usize> = (0..cols)
            .map(|c| {
                std::iter::once(&headers)
                    .chain(&rows)
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let fmt = |r: &[String]| {
            let cells: Vec<String> = r
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let pad = width[i] - c.chars().count();
                    if i == 0 || i == 1 && !c.chars().all(|ch| ch.is_ascii_digit()) {
                        format!("{c}{}", " ".repeat(pad))
                    } else {
                        format!("{}{c}", " ".repeat(pad))
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string() + "\n"
        };
        let mut out = format!("{}\n", escape::terminal(&self.title));
        out.push_str(&fmt(&headers));
        for r in &rows {
            out.push_str(&fmt(r));
        }
        out
    }
}

fn s<T: ToString>(v: T) -> String {
    v.to_string()
}

/// Match points, bonus-win and bonus-loss points, then matches won, lost and drawn: whole
/// numbers, written alike on screen and in `standings.csv`.
fn points_and_matches(r: &Standing) -> [String; 6] {
    [
        r.points,
        r.bonus_win,
        r.bonus_loss,
        r.wins,
        r.losses,
        r.draws,
    ]
    .map(s)
}

/// Games played, won, lost and drawn, alike on screen and in `win_rates.csv`.
fn game_counts(r: &Standing) -> [String; 4] {
    [r.games, r.game_wins, r.game_losses, r.game_draws].map(s)
}

/// A match's games, the first player's wins, the second's wins and the draws, alike on screen
/// and in `matches.csv`.
fn match_counts(m: &MatchResult) -> [String; 4] {
    [m.games, m.first_wins, m.second_wins, m.draws].map(s)
}

pub fn standings_table(t: &Tables) -> TextTable {
    TextTable::new(
        "Standings (points, then PD, then match wins)",
        &[
            "Pos",
            "Controller",
            "Points",
            "BWP",
            "BLP",
            "W",
            "L",
            "D",
            "PD",
        ],
        t.standings
            .iter()
            .map(|r| {
                [
                    vec![s(r.position), r.name.clone()],
                    points_and_matches(r).to_vec(),
                    vec![format!("{:.2}", r.point_difference)],
                ]
                .concat()
            })
            .collect(),
    )
}

/// Wins of the row controller playing first against the column controller.
pub fn matrix_table(t: &Tables) -> TextTable {
    let mut headers = vec!["first \\ second".to_string()];
    headers.extend(t.names.iter().cloned());
    let rows = (0..t.names.len())
        .map(|a| {
            let mut row = vec![t.names[a].clone()];
            for b in 0..t.names.len() {
                row.push(match t.match_result(a, b) {
                    Some(m) if m.games > 0 => s(m.first_wins),
                    Some(_) => "·".into(),
                    None => "–".into(),
                });
            }
            row
        })
        .collect();
    TextTable {
        title: format!(
            "Games won by the row controller playing first (of {} per match)",
            t.games_per_match
        ),
        headers,
        rows,
    }
}

pub fn matches_table(t: &Tables) -> TextTable {
    TextTable::new(
        "Matches",
        &[
            "first",
            "second",
            "games",
            "first_wins",
            "second_wins",
            "draws",
            "mean_score_difference",
        ],
        t.matches
            .iter()
            .map(|m| {
                [
                    vec![t.names[m.first].clone(), t.names[m.second].clone()],
                    match_counts(m).to_vec(),
                    vec![format!("{:.3}", m.average_difference())],
                ]
                .concat()
            })
            .collect(),
    )
}

pub fn statistics_table(t: &Tables) -> TextTable {
    TextTable::new(
        "Leader against each controller: Wilcoxon signed-rank test on the score differences of their games",
        &["Leader", "Other", "Games", "Mean diff", "n≠0", "W+", "p", "Effect (r_rb)", "Significant (5%)"],
        t.leader_tests
            .iter()
            .map(|c| {
                vec![
                    c.leader.clone(),
                    c.other.clone(),
                    s(c.games),
                    format!("{:.2}", c.mean_difference),
                    s(c.wilcoxon.n),
                    format!("{}", c.wilcoxon.w_plus),
                    if c.wilcoxon.p_value < 1e-4 {
                        "<0.0001".to_string()
                    } else {
                        format!("{:.4}", c.wilcoxon.p_value)
                    },
                    format!("{:.3}", c.wilcoxon.effect_size),
                    (if c.significant_at_5_percent { "yes" } else { "no" }).into(),
                ]
            })
            .collect(),
    )
}

pub fn win_rate_table(t: &Tables) -> TextTable {
    TextTable::new(
        "Game win rates (draws count one half) with 95% Wilson intervals",
        &[
            "Controller",
            "Games",
            "Won",
            "Lost",
            "Drawn",
            "Win rate",
            "95% interval",
        ],
        t.standings
            .iter()
            .map(|r| {
                [
                    vec![r.name.clone()],
                    game_counts(r).to_vec(),
                    vec![
                        format!("{:.3}", r.win_rate),
                        format!("[{:.3}, {:.3}]", r.win_rate_low, r.win_rate_high),
                    ],
                ]
                .concat()
            })
            .collect(),
    )
}

pub fn ratings_table(t: &Tables) -> TextTable {
    let r = &t.ratings;
    let mut title =
        "Bradley–Terry ratings on the Elo scale (mean 0) with 95% intervals, from every game (a draw counts one half)"
            .to_string();
    if let Some(reference) = r.reference {
        title.push_str(&format!(
            "; some controller won or lost every game, so each has one virtual draw against a reference rated {reference:+.1}"
        ));
    }
    // Rounded before the sign is chosen, so a rating of −0.01 shows as +0.0, not −0.0.
    let signed = |x: f64| format!("{:+.1}", (x * 10.0).round() / 10.0 + 0.0);
    TextTable::new(
        title,
        &[
            "Rank",
            "Controller",
            "Games",
            "Score",
            "Rating",
            "95% interval",
        ],
        r.rows
            .iter()
            .map(|x| {
                vec![
                    s(x.rank),
                    x.name.clone(),
                    s(x.games),
                    s(x.score),
                    signed(x.rating),
                    format!("[{}, {}]", signed(x.rating_low), signed(x.rating_high)),
                ]
            })
            .collect(),
    )
}

/// Every table for reading, in reading order.
pub fn all_tables(t: &Tables) -> Vec<(&'static str, TextTable)> {
    vec![
        ("standings", standings_table(t)),
        ("ratings", ratings_table(t)),
        ("matrix", matrix_table(t)),
        ("statistics", statistics_table(t)),
        ("win_rates", win_rate_table(t)),
        ("matches", matches_table(t)),
    ]
}

/// What the tables of a league with no recorded game say instead of standings, ratings and
/// tests computed over nothing (`0.000 [0.000, 1.000]`): there is no result yet.
pub const NO_GAMES: &str =
    "No games recorded yet, so no result: standings, ratings, tests and win rates need games.";

/// The terminal view: everything but the per-match list (that is in matches.csv); with no
/// games, [`NO_GAMES`].
pub fn to_text(t: &Tables) -> String {
    if t.games.is_empty() {
        return format!("{NO_GAMES}\n");
    }
    all_tables(t)
        .into_iter()
        .filter(|(name, _)| *name != "matches")
        .map(|(_, table)| table.to_text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A table as a CSV file holds it: snake_case headers and cells already written as CSV
/// fields.
pub struct CsvTable {
    pub headers: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

impl CsvTable {
    pub fn to_csv(&self) -> String {
        let mut out = self.headers.join(",");
        out.push('\n');
        for row in &self.rows {
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }
}

/// A name from a spec file, escaped for spreadsheets (see `escape::csv`).
fn text(name: &str) -> String {
    escape::csv(name)
}

fn flag(b: bool) -> String {
    b.to_string()
}

/// A 64-bit seed, quoted: readers that hold numbers as doubles must take it as text.
fn seed(x: u64) -> String {
    format!("\"{x}\"")
}

pub fn standings_csv(t: &Tables) -> CsvTable {
    CsvTable {
        headers: vec![
            "position",
            "entrant",
            "controller",
            "points",
            "bonus_win_points",
            "bonus_loss_points",
            "match_wins",
            "match_losses",
            "match_draws",
            "point_difference",
        ],
        rows: t
            .standings
            .iter()
            .map(|r| {
                [
                    vec![s(r.position), s(r.entrant), text(&r.name)],
                    points_and_matches(r).to_vec(),
                    vec![number(r.point_difference)],
                ]
                .concat()
            })
            .collect(),
    }
}

pub fn ratings_csv(t: &Tables) -> CsvTable {
    CsvTable {
        headers: vec![
            "rank",
            "entrant",
            "controller",
            "games",
            "score",
            "rating",
            "rating_low",
            "rating_high",
            "with_prior",
        ],
        rows: t
            .ratings
            .rows
            .iter()
            .map(|r| {
                vec![
                    s(r.rank),
                    s(r.entrant),
                    text(&r.name),
                    s(r.games),
                    number(r.score),
                    number(r.rating),
                    number(r.rating_low),
                    number(r.rating_high),
                    flag(t.ratings.with_prior),
                ]
            })
            .collect(),
    }
}

pub fn statistics_csv(t: &Tables) -> CsvTable {
    CsvTable {
        headers: vec![
            "leader",
            "other",
            "games",
            "mean_difference",
            "nonzero_pairs",
            "w_plus",
            "p_value",
            "exact",
            "effect_size",
            "significant_at_5_percent",
        ],
        rows: t
            .leader_tests
            .iter()
            .map(|c| {
                vec![
                    text(&c.leader),
                    text(&c.other),
                    s(c.games),
                    number(c.mean_difference),
                    s(c.wilcoxon.n),
                    number(c.wilcoxon.w_plus),
                    number(c.wilcoxon.p_value),
                    flag(c.wilcoxon.exact),
                    number(c.wilcoxon.effect_size),
                    flag(c.significant_at_5_percent),
                ]
            })
            .collect(),
    }
}

pub fn win_rates_csv(t: &Tables) -> CsvTable {
    CsvTable {
        headers: vec![
            "entrant",
            "controller",
            "games",
            "game_wins",
            "game_losses",
            "game_draws",
            "win_rate",
            "win_rate_low",
            "win_rate_high",
        ],
        rows: t
            .standings
            .iter()
            .map(|r| {
                [
                    vec![s(r.entrant), text(&r.name)],
                    game_counts(r).to_vec(),
                    [r.win_rate, r.win_rate_low, r.win_rate_high]
                        .map(number)
                        .to_vec(),
                ]
                .concat()
            })
            .collect(),
    }
}

pub fn matches_csv(t: &Tables) -> CsvTable {
    CsvTable {
        headers: vec![
            "first",
            "second",
            "first_index",
            "second_index",
            "games",
            "first_wins",
            "second_wins",
            "draws",
            "mean_score_difference",
        ],
        rows: t
            .matches
            .iter()
            .map(|m| {
                [
                    vec![
                        text(&t.names[m.first]),
                        text(&t.names[m.second]),
                        s(m.first),
                        s(m.second),
                    ],
                    match_counts(m).to_vec(),
                    vec![number(m.average_difference())],
                ]
                .concat()
            })
            .collect(),
    }
}

pub fn games_csv(t: &Tables) -> CsvTable {
    CsvTable {
        headers: vec![
            "k",
            "first",
            "second",
            "first_index",
            "second_index",
            "match_game",
            "score_first",
            "score_second",
            "winner",
            "tile_seed",
            "first_controller_seed",
            "second_controller_seed",
        ],
        rows: t
            .games
            .iter()
            .map(|g| {
                vec![
                    s(g.k),
                    text(&g.first),
                    text(&g.second),
                    s(g.first_index),
                    s(g.second_index),
                    s(g.match_game),
                    s(g.score_first),
                    s(g.score_second),
                    text(&g.winner),
                    seed(g.tile_seed),
                    seed(g.first_controller_seed),
                    seed(g.second_controller_seed),
                ]
            })
            .collect(),
    }
}

/// Every CSV file of a league's tables, by file name.
pub fn csv_tables(t: &Tables) -> Vec<(&'static str, CsvTable)> {
    vec![
        ("standings.csv", standings_csv(t)),
        ("ratings.csv", ratings_csv(t)),
        ("statistics.csv", statistics_csv(t)),
        ("win_rates.csv", win_rates_csv(t)),
        ("matches.csv", matches_csv(t)),
        ("games.csv", games_csv(t)),
    ]
}

/// Writes every CSV file, `tables.md` with every table for reading and `tables.json` with
/// all of it as numbers into `dir`; each file is written to a temporary name and renamed, so
/// a reader never sees half a table.
pub fn write_tables(t: &Tables, dir: &Path) -> std::io::Result<()> {
    evomcts_records::runfs::create_folder(dir)?;
    // The caller names the folder; the file is named here.
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        evomcts_records::runfs::write_atomically(&path, text.as_bytes())
            .map_err(|e| std::io::Error::new(e.kind(), format!("{name}: {e}")))
    };
    for (name, table) in csv_tables(t) {
        write(name, &table.to_csv())?;
    }
    let mut md = String::from("# League tables\n\n");
    if t.games.is_empty() {
        md.push_str(NO_GAMES);
        md.push('\n');
    } else {
        for (_, table) in all_tables(t) {
            md.push_str(&table.to_markdown());
            md.push('\n');
        }
    }
    write("tables.md", &md)?;
    write(
        "tables.json",
        &serde_json::to_string_pretty(t).expect("tables serialise"),
    )
}
