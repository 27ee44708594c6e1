//! Every plot command writes valid, non-empty PNG and SVG files from a small league run, the
//! figures carry the labels they should, and the board picture shows every tile and meeple.
//! Also: merging run folders with `league::load_runs`.

use crate::analysis_common::{check_pair, check_png_drawn, check_svg, temp_dir};
use crate::support::evomcts_ok as evomcts;
use evomcts::analysis::plots::board::{draw_board, states_by_turn};
use evomcts::analysis::plots::write_run_figures;
use evomcts::evolve::population::read_generations;
use evomcts::evolve::{run_evolution, EvolveSpec};
use evomcts::league::{load_runs, run_league, LeagueSpec, LoadError, RunOptions, Tables};
use evomcts::runfs::file_stem;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const SPEC: &str = r#"(
    name: "tiny",
    games_per_match: 1,
    seed: 11,
    controllers: [
        (name: "Random", spec: Random),
        (name: "ES-MCTS", spec: Mcts(sims: 20, es: (generations: 2, lambda: 2))),
    ],
)"#;

/// One run of the tiny league (two games), shared by the tests of this file.
fn run_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::support::fixture_dir("analysis", "run");
        std::fs::create_dir_all(&dir).unwrap();
        let spec = LeagueSpec::from_ron(SPEC, "tiny.ron").unwrap();
        let opts = RunOptions {
            out_dir: dir.clone(),
            resume: false,
            threads: Some(2),
            progress: false,
            max_games: None,
            shard: None,
        };
        let outcome = run_league(&spec, &opts).unwrap();
        assert_eq!(outcome.games.len(), 2);
        dir
    })
}

fn plot(args: &[&str]) -> String {
    let mut all = vec!["plot"];
    all.extend(args);
    evomcts(&all).0
}

fn out_dir(name: &str) -> (PathBuf, String) {
    let d = temp_dir(name);
    let s = d.display().to_string();
    (d, s)
}

#[test]
fn plot_formulas_writes_tables_and_a_chart() {
    let (dir, out) = out_dir("plot-formulas");
    let run = run_dir().display().to_string();
    let text = plot(&["formulas", &run, "--out", &out, "--top", "3"]);
    assert!(text.contains("ES-MCTS"), "{text}");
    for f in ["formulas.csv", "formulas_summary.csv", "formulas.md"] {
        assert!(std::fs::metadata(dir.join(f)).unwrap().len() > 0, "{f}");
    }
    let svg = check_pair(&dir, &format!("formulas_{}", file_stem("ES-MCTS")));
    assert!(svg.contains("Formulas chosen by ES-MCTS") && svg.contains("1. "));
    // The random player made no ES decisions, so it has no chart.
    assert!(!dir
        .join(format!("formulas_{}.png", file_stem("Random")))
        .exists());
}

#[test]
fn plot_formulas_rejects_an_unknown_controller() {
    let (_, out) = out_dir("formulas-bad");
    let run = run_dir().display().to_string();
    let res = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args([
            "plot",
            "formulas",
            &run,
            "--out",
            &out,
            "--controller",
            "Nobody",
        ])
        .output()
        .unwrap();
    assert!(!res.status.success());
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(err.contains("Nobody") && err.contains("ES-MCTS"), "{err}");
}

#[test]
fn plot_league_writes_the_three_figures() {
    let (dir, out) = out_dir("league");
    let run = run_dir().display().to_string();
    plot(&["league", &run, "--out", &out]);
    let matrix = check_pair(&dir, "league_matrix");
    assert!(matrix.contains("match matrix") && matrix.contains("Random"));
    let (spec, games, _) = load_runs(&[run_dir().to_path_buf()]).unwrap();
    let tables = Tables::from_games(&spec.names(), 1, &spec.bonus, &games);
    for m in &tables.matches {
        // Each cell shows the first player's wins of its one game.
        assert!(matrix.contains(&format!("\n{}/1\n", m.first_wins)), "{m:?}");
    }
    let standings = check_pair(&dir, "league_standings");
    assert!(standings.contains("bonus win") && standings.contains("1. "));
    let rates = check_pair(&dir, "league_win_rates");
    assert!(rates.contains("Wilson") && rates.contains("ES-MCTS"));
}

#[test]
fn plot_games_writes_curves() {
    let (dir, out) = out_dir("games");
    let run = run_dir().display().to_string();
    plot(&["games", &run, "--out", &out]);
    let scores = check_pair(
        &dir,
        &format!("scores_{}_vs_{}", file_stem("Random"), file_stem("ES-MCTS")),
    );
    assert!(scores.contains("Mean score per turn") && scores.contains("ES-MCTS"));
    let csv = std::fs::read_to_string(dir.join("scores_per_turn.csv")).unwrap();
    assert!(csv.starts_with("pairing,controller,turn,games_running,mean_score\n"));
    let fitness = check_pair(&dir, "es_fitness");
    assert!(fitness.contains("generation") && fitness.contains("ES-MCTS best"));
    let shapes = check_pair(&dir, "formula_shapes");
    assert!(shapes.contains("Depth of the chosen formulas"));
    let csv = std::fs::read_to_string(dir.join("es_fitness.csv")).unwrap();
    // Two generations per decision: a row per generation.
    assert_eq!(csv.lines().count(), 1 + 2, "{csv}");
}

#[test]
fn plot_board_draws_a_turn_and_the_final_board() {
    let (dir, out) = out_dir("board");
    let run = run_dir().display().to_string();
    plot(&["board", &run, "--game", "1", "--turn", "7", "--out", &out]);
    plot(&["board", &run, "--game", "1", "--out", &out]);
    let svg = check_pair(&dir, "board_game1_turn07");
    let (_, games, _) = load_runs(&[run_dir().to_path_buf()]).unwrap();
    let game = &games[1];
    // The title names the game, its players and its tile seed.
    for part in [
        "Game 1 (1 v 0 #0)".to_string(),
        format!("{} vs {}", game.names[0], game.names[1]),
        format!("tile seed {}", game.game.carcassonne().unwrap().tile_seed),
        "after turn 7".to_string(),
    ] {
        assert!(svg.contains(&part), "the title lacks `{part}`");
    }
    // The final board is numbered by its turn like every other board.
    let last = game.game.carcassonne().unwrap().moves.len();
    let final_svg = check_pair(&dir, &format!("board_game1_turn{last:02}"));
    assert!(final_svg.contains(&format!("final board after {last} turns")));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
    let res = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["plot", "board", &run, "--game", "5", "--out", &out])
        .output()
        .unwrap();
    assert!(!res.status.success(), "there are only two games");
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn the_board_shows_every_tile_and_every_meeple_in_its_colour() {
    let dir = temp_dir("board-lib");
    let (_, games, _) = load_runs(&[run_dir().to_path_buf()]).unwrap();
    let states = states_by_turn(games[0].game.carcassonne().unwrap()).unwrap();
    assert_eq!(
        states.len(),
        games[0].game.carcassonne().unwrap().moves.len() + 1
    );
    for turn in [0, 10, states.len() - 1] {
        let state = &states[turn];
        let (png, svg) = (
            dir.join(format!("t{turn}.png")),
            dir.join(format!("t{turn}.svg")),
        );
        draw_board(state, &png, &svg).unwrap();
        let size = check_png_drawn(&png);
        let text = check_svg(&svg, size);
        let tiles = state.placed_tiles();
        assert_eq!(
            count(&text, "fill=\"#80B254\""),
            tiles.len(),
            "one field square per tile"
        );
        for (player, colour) in ["fill=\"#DC2828\"", "fill=\"#285FE1\""].iter().enumerate() {
            let meeples = tiles
                .iter()
                .filter(|t| matches!(t.meeple, Some((_, p)) if p as usize == player))
                .count();
            // One more for the score line's meeple.
            assert_eq!(
                count(&text, colour),
                meeples + 1,
                "turn {turn}, player {player}"
            );
        }
        let pennants: usize = tiles.iter().map(|t| t.kind.def().pennants() as usize).sum();
        assert_eq!(count(&text, "fill=\"#FAF6EA\""), pennants, "turn {turn}");
    }
}

#[test]
fn load_runs_merges_copies_and_refuses_other_leagues() {
    let copy = temp_dir("run-copy");
    for f in ["spec.ron", "games.jsonl"] {
        std::fs::copy(run_dir().join(f), copy.join(f)).unwrap();
    }
    let (_, games, report) = load_runs(&[run_dir().to_path_buf(), copy.clone()]).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(report.duplicates, 2);
    assert!(report.missing.is_empty() && report.torn.is_empty());
    let other = temp_dir("run-other");
    let spec = LeagueSpec::from_ron(&SPEC.replace("seed: 11", "seed: 12"), "other.ron").unwrap();
    std::fs::write(other.join("spec.ron"), spec.to_ron()).unwrap();
    match load_runs(&[run_dir().to_path_buf(), other]) {
        Err(LoadError::DifferentSpecs { .. }) => {}
        other => panic!(
            "expected DifferentSpecs, got {:?}",
            other.map(|r| r.1.len())
        ),
    }
    // A run with one game missing reports it.
    let partial = temp_dir("run-partial");
    std::fs::copy(run_dir().join("spec.ron"), partial.join("spec.ron")).unwrap();
    let first_line = std::fs::read_to_string(run_dir().join("games.jsonl"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(partial.join("games.jsonl"), first_line + "\n").unwrap();
    let (_, games, report) = load_runs(&[partial]).unwrap();
    assert_eq!(
        (games.len(), report.missing.len(), report.scheduled),
        (1, 1, 2)
    );
}

#[test]
fn plot_tiles_draws_every_type_in_every_rotation() {
    let (dir, out) = out_dir("tiles");
    plot(&["tiles", "--out", &out]);
    let svg = check_pair(&dir, "tiles");
    assert_eq!(count(&svg, "fill=\"#80B254\""), 24 * 4);
    // Pennants: C, F, M, O, Q and S carry one each, in four rotations.
    assert_eq!(count(&svg, "fill=\"#FAF6EA\""), 6 * 4);
}

#[test]
fn plots_go_into_the_run_folder_unless_told_otherwise() {
    let run = temp_dir("run-own-plots");
    for f in ["spec.ron", "games.jsonl"] {
        std::fs::copy(run_dir().join(f), run.join(f)).unwrap();
    }
    let run_text = run.display().to_string();
    plot(&["league", &run_text]);
    check_pair(&run.join("plots"), "league_matrix");
    plot(&["board", &run_text, "--game", "0"]);
    let boards = std::fs::read_dir(run.join("plots"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("board_game0_turn")
        })
        .count();
    assert_eq!(boards, 2, "one PNG and one SVG");
}

#[test]
fn replay_pictures_counts_every_file_and_numbers_the_final_board_in_sequence() {
    let (dir, out) = out_dir("replay-pictures");
    let run = run_dir().display().to_string();
    let (_, stderr) = evomcts(&["replay", &run, "--game", "0", "--pictures", &out]);
    let (_, games, _) = load_runs(&[run_dir().to_path_buf()]).unwrap();
    let turns = games[0].game.carcassonne().unwrap().moves.len();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = (0..=turns)
        .flat_map(|t| ["png", "svg"].map(|ext| format!("board_game0_turn{t:02}.{ext}")))
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    assert!(
        stderr.contains(&format!("{} pictures ({} files", turns + 1, names.len())),
        "{stderr}"
    );
}

const EVOLUTION: &str = r#"(
    name: "tiny-evolution",
    seed: 5,
    strategy: (mu: 2, lambda: 4, generations: 2, plus: true),
    noise: (samples: 6, elites: 1, elite_samples: 6),
    fitness: Bandit(arms: 4, epsilon: 0.2, horizon: 100, c_e: 0.5),
)"#;

#[test]
fn plot_all_draws_an_evolution_run() {
    let dir = temp_dir("evolution-run");
    let spec = EvolveSpec::from_ron(EVOLUTION, "tiny.ron").unwrap();
    run_evolution(
        &spec,
        &evomcts::evolve::RunOptions {
            out_dir: dir.clone(),
            resume: false,
            threads: Some(2),
            progress: false,
            stop_after: None,
            srun: None,
        },
    )
    .unwrap();
    let run = dir.display().to_string();
    let (text, _) = evomcts(&["plot", "all", &run]);
    assert!(
        text.contains("Evolution tiny-evolution: 3 generations"),
        "{text}"
    );
    let plots = dir.join("plots");
    let fitness = check_pair(&plots, "evolution_fitness");
    for label in [
        "fitness per generation",
        "champion",
        "best candidate",
        "mean of the candidates",
        "seed formula",
    ] {
        assert!(
            fitness.contains(label),
            "the fitness figure lacks `{label}`"
        );
    }
    assert!(check_pair(&plots, "evolution_sizes").contains("formula size per generation"));
    check_pair(&plots, "evolution_samples");

    // The table behind the figures carries each generation's champion with its interval,
    // as the generation files hold it.
    let gens = read_generations(&dir).unwrap();
    let csv = std::fs::read_to_string(plots.join("evolution.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), gens.len());
    for (row, g) in rows.iter().zip(&gens) {
        let num = |name: &str| row[column(name)].parse::<f64>().unwrap();
        assert_eq!(num("generation"), g.generation as f64);
        assert_eq!(num("champion"), g.champion.fitness.mean);
        assert_eq!(num("champion_low"), g.champion.fitness.low);
        assert_eq!(num("champion_high"), g.champion.fitness.high);
        assert_eq!(num("best"), g.best);
        assert_eq!(num("mean"), g.mean);
        assert!(num("mean_low") <= g.mean && g.mean <= num("mean_high"));
        assert_eq!(num("champion_size"), g.champion.size as f64);
    }

    // The library entry point draws the same figures for a report.
    let out = temp_dir("evolution-figures");
    let figures = write_run_figures(&dir, &out).unwrap();
    let titles: Vec<&str> = figures.iter().map(|f| f.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Evolution tiny-evolution: fitness per generation",
            "Evolution tiny-evolution: formula size per generation",
            "Evolution tiny-evolution: fitness samples per generation",
        ]
    );
    for f in &figures {
        check_png_drawn(&f.png);
        assert!(f.svg.starts_with(&out) && f.svg.exists());
    }
}

#[test]
fn the_run_figures_of_a_league_name_every_file() {
    let out = temp_dir("league-figures");
    let figures = write_run_figures(run_dir(), &out).unwrap();
    let stems: Vec<String> = figures
        .iter()
        .map(|f| f.png.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for stem in [
        format!("formulas_{}", file_stem("ES-MCTS")),
        "league_matrix".into(),
        "league_standings".into(),
        "league_win_rates".into(),
        format!("scores_{}_vs_{}", file_stem("Random"), file_stem("ES-MCTS")),
        "es_fitness".into(),
    ] {
        assert!(stems.contains(&stem), "{stem} missing from {stems:?}");
    }
    for f in &figures {
        assert!(!f.title.is_empty());
        check_pair(&out, f.png.file_stem().unwrap().to_str().unwrap());
    }
    // Other commands refuse an evolution folder with a pointer to `plot all`.
    let evolution = temp_dir("not-a-league");
    std::fs::write(evolution.join("gen-000.ron"), "").unwrap();
    let res = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["plot", "league", &evolution.display().to_string()])
        .output()
        .unwrap();
    assert!(!res.status.success());
    assert!(String::from_utf8_lossy(&res.stderr).contains("plot all"));
}
