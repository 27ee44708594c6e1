//! `evomcts report` without a browser: the report of a tiny league has a viewer page per game,
//! every link resolves, nothing names an outside address, names are escaped, and the viewer's
//! data holds the scores the replay computes; an evolution run's report shows its logbook and
//! lineage. (tests/browser/run.sh opens the same pages in Chromium.)

use crate::analysis_common::temp_dir;
use evomcts::analysis::plots::board::states_by_turn;
use evomcts::league::{load_runs, LeagueGame};
use evomcts::search::SearchSummary;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const HOSTILE: &str = "<b>&\"x";
const HOSTILE_ESCAPED: &str = "&lt;b&gt;&amp;&quot;x";

const LEAGUE: &str = r#"(
    name: "report",
    games_per_match: 2,
    seed: 21,
    es_detail: Full,
    search_detail: RootChildren(3),
    controllers: [
        (name: "<b>&\"x", spec: Random),
        (name: "ES-MCTS", spec: Mcts(sims: 16, es: (generations: 2, lambda: 2))),
    ],
)"#;

const EVOLUTION: &str = r#"(
    name: "report-evolution",
    seed: 4,
    strategy: (mu: 2, lambda: 3, generations: 2, plus: true),
    noise: (samples: 4, elites: 1, elite_samples: 4),
    fitness: Bandit(arms: 4, epsilon: 0.2, horizon: 60, c_e: 0.5),
)"#;

fn evomcts(args: &[&str]) -> String {
    crate::support::evomcts_ok(args).0
}

/// A run of the tiny league and its report in `RUN/report`, shared by the tests of this file.
fn league_run() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::support::fixture_dir("analysis", "report-league");
        std::fs::create_dir_all(&dir).unwrap();
        let spec = dir.join("league.ron");
        std::fs::write(&spec, LEAGUE).unwrap();
        let run = dir.join("run");
        let (spec, run_arg) = (spec.display().to_string(), run.display().to_string());
        evomcts(&["league", &spec, "--out", &run_arg, "--quiet"]);
        let index = evomcts(&["report", &run_arg]);
        assert_eq!(
            index.trim(),
            run.join("report/index.html").display().to_string()
        );
        run
    })
}

fn report_dir() -> PathBuf {
    league_run().join("report")
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn games() -> Vec<LeagueGame> {
    let (_, games, _) = load_runs(&[league_run().to_path_buf()]).unwrap();
    assert_eq!(games.len(), 4);
    games
}

/// The values of every `attribute="…"` in an HTML text.
fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
    let marker = format!(" {attribute}=\"");
    html.match_indices(&marker)
        .map(|(i, _)| {
            let rest = &html[i + marker.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn every_game_has_a_viewer_page_and_every_link_resolves() {
    let dir = report_dir();
    let mut expected: Vec<String> = games()
        .iter()
        .map(|g| format!("game-{}.html", g.id().number(2, 2)))
        .collect();
    expected.sort();
    let mut pages: Vec<String> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(pages, expected);

    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for page in &expected {
        assert!(
            index.contains(&format!("href=\"games/{page}\"")),
            "the game table links {page}"
        );
    }
    let mut checked = 0;
    for file in files_under(&dir)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "html"))
    {
        let html = std::fs::read_to_string(&file).unwrap();
        let targets = attribute_values(&html, "href")
            .into_iter()
            .chain(attribute_values(&html, "src"));
        for target in targets {
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let page = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            assert!(
                page.is_file(),
                "{}: {target} does not exist",
                file.display()
            );
            if !anchor.is_empty() {
                let text = std::fs::read_to_string(&page).unwrap();
                assert!(
                    text.contains(&format!("id=\"{anchor}\"")),
                    "{}: {target}: no such anchor",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    // Per page: the style sheet, scripts, and the index's navigation and game links.
    assert!(checked > 20, "only {checked} links checked");
}

#[test]
fn no_file_names_an_outside_address() {
    let files = files_under(&report_dir());
    assert!(files.iter().any(|f| f.ends_with("tiles.js")));
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e != "png"))
    {
        // The figures' SVG files declare the SVG namespace, an identifier that is never
        // fetched; the pages inline them without it.
        let text = std::fs::read_to_string(file)
            .unwrap()
            .replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        for scheme in ["http://", "https://", "//cdn", "@import", "url("] {
            assert!(!text.contains(scheme), "{} holds {scheme}", file.display());
        }
    }
    let index = std::fs::read_to_string(report_dir().join("index.html")).unwrap();
    assert!(
        index.matches("<svg").count() >= 3,
        "the figures are inlined"
    );
}

#[test]
fn names_are_escaped_everywhere() {
    let dir = report_dir();
    for file in files_under(&dir)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "html" || e == "js"))
    {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains(HOSTILE) && !text.contains("<b>"),
            "{} holds the name unescaped",
            file.display()
        );
    }
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    // The standings, the matrix (row and column), the statistics, the win rates, the matches
    // and the game table all name the controller.
    assert!(index.matches(HOSTILE_ESCAPED).count() >= 8, "{index}");
    let page = std::fs::read_to_string(dir.join("games/game-0.html")).unwrap();
    assert!(page.contains(&format!(
        "<title>Game 0: {HOSTILE_ESCAPED} vs ES-MCTS</title>"
    )));
    // In the viewer's data the name is JSON with `<` escaped, so it cannot end the script.
    assert!(
        page.contains(r#""names":["\u003cb>&\"x","ES-MCTS"]"#),
        "{page}"
    );
}

/// The data of a game page: the JSON between `window.GAME = ` and the end of its line.
fn viewer_data(page: &Path) -> Value {
    let text = std::fs::read_to_string(page).unwrap();
    let start = text.find("window.GAME = ").unwrap() + "window.GAME = ".len();
    let end = start + text[start..].find(";</script>").unwrap();
    serde_json::from_str(&text[start..end]).unwrap()
}

fn pair(v: &Value) -> [i32; 2] {
    let a = v.as_array().unwrap();
    [a[0].as_i64().unwrap() as i32, a[1].as_i64().unwrap() as i32]
}

#[test]
fn the_viewer_shows_the_scores_the_replay_computes_at_every_turn() {
    let drawings = std::fs::read_to_string(report_dir().join("tiles.js")).unwrap();
    for game in games() {
        let k = game.id().number(2, 2);
        let data = viewer_data(&report_dir().join(format!("games/game-{k}.html")));
        let states = states_by_turn(game.game.carcassonne().unwrap()).unwrap();
        let turns = data["turns"].as_array().unwrap();
        assert_eq!(turns.len(), states.len(), "game {k}");
        assert_eq!(data["number"], k);
        assert_eq!(
            data["tile_seed"],
            game.game.carcassonne().unwrap().tile_seed.to_string()
        );
        for (t, (turn, state)) in turns.iter().zip(&states).enumerate() {
            assert_eq!(pair(&turn["scores"]), state.scores(), "game {k} turn {t}");
            assert_eq!(
                pair(&turn["virtual_scores"]),
                state.virtual_scores(),
                "game {k} turn {t}"
            );
            if t > 0 && t < states.len() - 1 {
                assert_eq!(
                    pair(&turn["virtual_scores"]),
                    game.game.carcassonne().unwrap().virtual_scores[t - 1],
                    "game {k} turn {t}: the record's virtual scores"
                );
                let mv = game.game.carcassonne().unwrap().moves[t - 1];
                assert_eq!(turn["move"]["x"], mv.x as i64);
                assert_eq!(turn["move"]["y"], mv.y as i64);
                assert_eq!(turn["move"]["rotation"], mv.rotation as i64);
                assert_eq!(turn["move"]["player"], ((t - 1) % 2) as i64);
                let es = &game.es[(t - 1) % 2];
                match es.iter().find(|d| d.turn == t - 1) {
                    Some(d) => {
                        assert_eq!(turn["es"]["formula"], serde_json::json!(d.formula));
                        let last = d.full.as_ref().unwrap().generations.last();
                        let shown = &turn["es"]["last_generation"];
                        match last {
                            Some(g) => assert_eq!(
                                shown["candidates"].as_array().unwrap().len(),
                                g.candidates.len()
                            ),
                            None => assert!(shown.is_null()),
                        }
                    }
                    None => assert!(turn["es"].is_null(), "game {k} turn {t}"),
                }
                // The search the record holds for the move, child by child.
                let search = &turn["search"];
                match game.search[(t - 1) % 2].iter().find(|d| d.turn == t - 1) {
                    Some(d) => {
                        let SearchSummary::Mcts(root) = &d.search else {
                            panic!("only MCTS searches here")
                        };
                        assert_eq!(search["simulations"], root.simulations);
                        let shown = search["children"].as_array().unwrap();
                        assert_eq!(shown.len(), root.children.len());
                        for (c, r) in shown.iter().zip(&root.children) {
                            assert_eq!(c["label"], r.mv.to_string());
                            assert_eq!(c["visits"], r.visits);
                            assert_eq!(c["q"].as_f64().unwrap(), r.q);
                            assert_eq!(c["played"], r.mv == mv);
                        }
                    }
                    None => assert!(search.is_null(), "game {k} turn {t}: a random move"),
                }
            }
        }
        // Every revealed tile is a placed one or listed as not placed, in the record's order.
        let mut revealed = Vec::new();
        for (t, turn) in turns.iter().enumerate() {
            for d in turn["not_placed"].as_array().unwrap() {
                revealed.push(d["tile"].as_str().unwrap().to_string());
            }
            if t > 0 {
                revealed.push(turn["move"]["tile"].as_str().unwrap().to_string());
            }
        }
        for d in data["not_placed_at_end"].as_array().unwrap() {
            revealed.push(d["tile"].as_str().unwrap().to_string());
        }
        let draws: Vec<String> = game
            .game
            .carcassonne()
            .unwrap()
            .draws
            .iter()
            .map(|t| t.letter().to_string())
            .collect();
        assert_eq!(revealed, draws, "game {k}");
        let command = data["analyse_command"][0].as_str().unwrap();
        assert!(command.starts_with("evomcts analyse '") && command.ends_with(" --turn "));
        let last = turns.last().unwrap();
        assert_eq!(
            pair(&last["scores"]),
            game.game.carcassonne().unwrap().final_scores
        );
        assert_eq!(last["finished"], true);
        // Every tile of the final board is placed, and its drawing is in tiles.js.
        let tiles = data["tiles"].as_array().unwrap();
        assert_eq!(tiles.len(), states.last().unwrap().placed_tiles().len());
        for tile in tiles.iter().chain(data["meeples"].as_array().unwrap()) {
            let key = tile["drawing"].as_str().unwrap();
            assert!(drawings.contains(&format!("\"{key}\":")), "{key}");
        }
        // A meeple stands from the turn its tile was laid.
        for span in data["meeples"].as_array().unwrap() {
            assert_eq!(span["from"], span["tile"], "game {k}");
        }
    }
}

#[test]
fn an_evolution_report_shows_the_logbook_fitness_hall_of_fame_and_lineage() {
    let dir = temp_dir("report-evolution");
    let spec = dir.join("evolve.ron");
    std::fs::write(&spec, EVOLUTION).unwrap();
    let run = dir.join("run");
    let out = dir.join("pages");
    let (spec, run_arg, out_arg) = (
        spec.display().to_string(),
        run.display().to_string(),
        out.display().to_string(),
    );
    evomcts(&["evolve", &spec, "--out", &run_arg, "--quiet"]);
    evomcts(&["report", &run_arg, "--out", &out_arg]);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let section = |id: &str| {
        let start = index.find(&format!("<section id=\"{id}\">")).unwrap();
        let end = start + index[start..].find("</section>").unwrap();
        index[start..end].to_string()
    };
    // Generations 0, 1 and 2: a row each in the logbook and the fitness table.
    assert_eq!(section("logbook").matches("<tr>").count(), 1 + 3);
    assert_eq!(section("fitness").matches("<tr>").count(), 1 + 3);
    assert!(section("hall-of-fame").contains("Q + 2*C*sqrt(2*ln(N)/n)"));
    let lineage = section("lineage");
    assert!(lineage.contains("<svg") && lineage.contains("champion"));
    assert!(!index.contains("http"), "no outside address");
    assert!(out.join("report.css").is_file());
}

#[test]
fn a_folder_that_is_no_run_is_a_clear_error() {
    let dir = temp_dir("report-empty");
    for (arg, expected) in [
        (dir.display().to_string(), "spec.ron"),
        (dir.join("missing").display().to_string(), "not a folder"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .args(["report", &arg])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expected) && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn the_standings_explain_their_columns_and_come_first_for_carcassonne() {
    let index = std::fs::read_to_string(report_dir().join("index.html")).unwrap();
    let at = |id: &str| index.find(&format!("<section id=\"{id}\">")).unwrap();
    assert!(at("standings") < at("win_rates"));
    for column in [
        "<strong>Points</strong>: match points, 4 for a match won",
        "<strong>BWP</strong>: bonus-win points, one for a match won with more than 75% of its games",
        "<strong>BLP</strong>: bonus-loss points, one for a match lost while the winner won at most 55%",
        "<strong>PD</strong>: point difference",
    ] {
        assert!(index.contains(column), "{column}");
    }
}
