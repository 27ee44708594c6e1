//! Leagues: bonus rules and standings on hand-built results, paired seating, determinism
//! across thread counts, and runs that are interrupted, torn and resumed.

use crate::support::{opts, tables};
use evomcts::arena::PlayedGame;
use evomcts::games::carcassonne::{GameRecord, Rules};
use evomcts::league::{
    read_records, record_path, run_league, schedule, BonusRules, GameId, GameJob, LeagueGame,
    LeagueSpec, MatchResult, RunOptions, Tables,
};
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    crate::support::scratch("test", name)
}

fn result(games: u32, first_wins: u32, second_wins: u32) -> MatchResult {
    MatchResult {
        first: 0,
        second: 1,
        games,
        first_wins,
        second_wins,
        draws: games - first_wins - second_wins,
        score_difference_sum: 0,
    }
}

#[test]
fn bonus_points_at_their_thresholds() {
    let paper = BonusRules::default();
    // 3 of 4 is exactly 75%: the paper's bonus needs more than 75:25.
    let (w, l) = result(4, 3, 1).points(&paper);
    assert_eq!(
        (w.points, w.bonus_win, l.points, l.bonus_loss),
        (4, 0, 0, 0)
    );
    let public_code = BonusRules {
        bonus_win_share: 0.70,
        bonus_win_strict: false,
        ..paper.clone()
    };
    assert_eq!(result(4, 3, 1).points(&public_code).0.bonus_win, 1);
    // 4 of 5 is 80%: a bonus win point.
    assert_eq!(result(5, 4, 1).points(&paper).0.points, 5);
    // 11 of 20 is exactly 55%: the loser gets its bonus point; strictly below it does not.
    let (loser, winner) = result(20, 9, 11).points(&paper);
    assert_eq!((loser.points, loser.bonus_loss), (1, 1));
    assert_eq!((winner.points, winner.bonus_win), (4, 0));
    let strict = BonusRules {
        bonus_loss_strict: true,
        ..paper.clone()
    };
    assert_eq!(result(20, 9, 11).points(&strict).0.bonus_loss, 0);
    // 12 of 20 is 60%: no loss bonus.
    assert_eq!(result(20, 8, 12).points(&paper).0.points, 0);
    // Equal wins (draws in between) is a drawn match.
    let (a, b) = result(5, 2, 2).points(&paper);
    assert_eq!((a.points, b.points), (2, 2));
}

fn fake_game(first: usize, second: usize, index: u32, scores: [i32; 2]) -> LeagueGame {
    LeagueGame {
        spec_hash: "test".into(),
        job: GameJob::new(
            0,
            GameId {
                first,
                second,
                index,
            },
        ),
        names: [format!("{first}"), format!("{second}")],
        game: PlayedGame::Carcassonne(GameRecord {
            tile_seed: 0,
            rules: Rules::default(),
            draws: vec![],
            moves: vec![],
            virtual_scores: vec![],
            final_scores: scores,
            score_by_kind: [[0; 4]; 2],
            meeples_played: [0; 2],
            turns_with_meeple_available: [0; 2],
            turns: [0; 2],
            discards: 0,
        }),
        es: [vec![], vec![]],
        search: Default::default(),
    }
}

#[test]
fn standings_break_ties_on_points_by_point_difference() {
    let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
    let mut games = Vec::new();
    // A and B each beat C in both seatings, and split their own matches: equal points.
    for (x, y) in [(0, 2), (2, 0), (1, 2), (2, 1)] {
        let winner_first = x != 2;
        let margin = if x == 0 || y == 0 { 30 } else { 10 }; // A wins by more
        let scores = if winner_first {
            [50 + margin, 50]
        } else {
            [50, 50 + margin]
        };
        games.push(fake_game(x, y, 0, scores));
    }
    games.push(fake_game(0, 1, 0, [60, 50])); // A beats B as first
    games.push(fake_game(1, 0, 0, [60, 50])); // B beats A as first
    let t = Tables::from_games(&names, 1, &BonusRules::default(), &games);
    let order: Vec<&str> = t.standings.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(order, ["A", "B", "C"]);
    assert_eq!(
        t.standings[0].points, t.standings[1].points,
        "a tie on points"
    );
    assert!(t.standings[0].point_difference > t.standings[1].point_difference);
    assert_eq!((t.standings[0].wins, t.standings[0].losses), (3, 1));
    // One game of one: a 100% share, so every match win carries a bonus point.
    assert_eq!(t.standings[0].points, 3 * 5);
    assert_eq!(t.standings[2].points, 0);
    assert_eq!(t.match_result(0, 2).unwrap().first_wins, 1);
    // Drawn games.
    let drawn = Tables::from_games(
        &names[..2],
        1,
        &BonusRules::default(),
        &[fake_game(0, 1, 0, [40, 40])],
    );
    assert_eq!(drawn.standings[0].draws, 1);
    assert_eq!(drawn.standings[0].points, 2);
    assert_eq!(drawn.standings[0].game_draws, 1);
}

fn small_spec(seed: u64) -> LeagueSpec {
    LeagueSpec::from_ron(
        &format!(
            r#"(
                name: "small",
                games_per_match: 2,
                seed: {seed},
                controllers: [
                    (name: "Random", spec: Random),
                    (name: "MCTS", spec: Mcts(sims: 30)),
                    (name: "Random 2", spec: Random),
                ],
            )"#
        ),
        "small.ron",
    )
    .unwrap()
}

#[test]
fn both_seatings_play_the_same_tiles() {
    let spec = small_spec(5);
    let dir = temp_dir("seating");
    let run = run_league(&spec, &opts(&dir, false, 2, None)).unwrap();
    assert_eq!(run.games.len(), 3 * 2 * 2);
    for g in &run.games {
        let id = g.id();
        let mirror = run
            .games
            .iter()
            .find(|h| {
                h.id()
                    == GameId {
                        first: id.second,
                        second: id.first,
                        index: id.index,
                    }
            })
            .unwrap();
        assert_eq!(
            g.game.carcassonne().unwrap().draws,
            mirror.game.carcassonne().unwrap().draws,
            "game {id:?}"
        );
        assert_eq!(g.names, [mirror.names[1].clone(), mirror.names[0].clone()]);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn one_and_two_threads_give_identical_records() {
    let spec = small_spec(9);
    let (d1, d2) = (temp_dir("threads1"), temp_dir("threads2"));
    let one = run_league(&spec, &opts(&d1, false, 1, None)).unwrap().games;
    let two = run_league(&spec, &opts(&d2, false, 2, None)).unwrap().games;
    assert_eq!(one, two);
    assert_eq!(tables(&spec, &one), tables(&spec, &two));
    std::fs::remove_dir_all(d1).unwrap();
    std::fs::remove_dir_all(d2).unwrap();
}

#[test]
fn an_interrupted_and_torn_run_resumes_to_the_same_tables() {
    let spec = small_spec(13);
    let whole_dir = temp_dir("whole");
    let whole = run_league(&spec, &opts(&whole_dir, false, 2, None)).unwrap();

    let dir = temp_dir("resumed");
    let part = run_league(&spec, &opts(&dir, false, 2, Some(5))).unwrap();
    assert_eq!(part.games.len(), 5);
    // A crash mid-write leaves half a line.
    let path = record_path(&dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let first_line = text.lines().next().unwrap();
    std::fs::write(
        &path,
        format!("{text}{}", &first_line[..first_line.len() / 2]),
    )
    .unwrap();
    assert!(read_records(&path).unwrap().torn_tail);

    // Without --resume the folder is refused and left as it was.
    let before = std::fs::read(&path).unwrap();
    let err = run_league(&spec, &opts(&dir, false, 2, None))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("--resume"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // A changed spec is refused.
    let err = run_league(&small_spec(14), &opts(&dir, true, 2, None))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("different spec"), "{err}");

    let resumed = run_league(&spec, &opts(&dir, true, 1, None)).unwrap();
    assert!(resumed.dropped_torn_line);
    assert_eq!(resumed.already_recorded, 5);
    assert_eq!(resumed.games, whole.games);
    assert_eq!(tables(&spec, &resumed.games), tables(&spec, &whole.games));
    assert!(!read_records(&path).unwrap().torn_tail);
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(whole_dir).unwrap();
}

#[test]
fn a_cancelled_run_stops_early_keeps_its_games_and_resumes_to_the_same_tables() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let spec = small_spec(17);
    let whole_dir = temp_dir("cancel-whole");
    let whole = run_league(&spec, &opts(&whole_dir, false, 1, None)).unwrap();

    let dir = temp_dir("cancelled");
    let cancel = AtomicBool::new(false);
    // Set from the first refresh of the live standings, as Ctrl-C would from another thread.
    let err = evomcts::league::run_league_until(
        &spec,
        &opts(&dir, false, 1, None),
        &mut |_| cancel.store(true, Ordering::Relaxed),
        &cancel,
    )
    .err()
    .unwrap();
    let recorded = read_records(&record_path(&dir)).unwrap().games.len();
    assert!(
        matches!(err, evomcts::league::LeagueError::Interrupted { recorded: r, scheduled: 12, .. } if r == recorded),
        "{err}"
    );
    assert!((1..12).contains(&recorded), "{recorded} games recorded");
    assert!(err.to_string().contains("--resume"), "{err}");

    let resumed = run_league(&spec, &opts(&dir, true, 2, None)).unwrap();
    assert_eq!(resumed.already_recorded, recorded);
    assert_eq!(resumed.games, whole.games);
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(whole_dir).unwrap();
}

#[test]
fn a_corrupt_record_line_is_reported_with_its_line_number() {
    let dir = temp_dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(record_path(&dir), "not json\n{}\n").unwrap();
    let err = read_records(&record_path(&dir)).err().unwrap().to_string();
    assert!(err.contains("games.jsonl:1:"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_schedule_covers_every_ordered_pair() {
    let jobs = schedule(3, 4, 5);
    assert_eq!(jobs.len(), 4 * 3 * 5);
    for a in 0..4 {
        for b in 0..4 {
            let n = jobs
                .iter()
                .filter(|j| (j.id.first, j.id.second) == (a, b))
                .count();
            assert_eq!(n, if a == b { 0 } else { 5 });
        }
    }
}

#[test]
fn shards_together_are_exactly_the_whole_league() {
    let spec = small_spec(21);
    let whole_dir = temp_dir("shard-whole");
    let whole = run_league(&spec, &opts(&whole_dir, false, 2, None))
        .unwrap()
        .games;
    let mut merged = Vec::new();
    for index in 0..3 {
        let dir = temp_dir(&format!("shard-{index}"));
        let shard = evomcts::league::Shard { index, count: 3 };
        let run = run_league(
            &spec,
            &RunOptions {
                shard: Some(shard),
                ..opts(&dir, false, 1, None)
            },
        )
        .unwrap();
        assert!(!run.games.is_empty());
        merged.extend(run.games);
        std::fs::remove_dir_all(dir).unwrap();
    }
    assert_eq!(
        merged.len(),
        whole.len(),
        "disjoint slices cover every game once"
    );
    merged.sort_by_key(|g| whole.iter().position(|h| h.id() == g.id()));
    assert_eq!(merged, whole);
    assert!(evomcts::league::Shard::parse("3/3").is_err());
    assert!(evomcts::league::Shard::parse("x").is_err());
    assert_eq!(
        evomcts::league::Shard::parse("2/3"),
        Ok(evomcts::league::Shard { index: 2, count: 3 })
    );
    std::fs::remove_dir_all(whole_dir).unwrap();
}

#[test]
fn records_read_back_equal_the_games_played_es_formulas_included() {
    let spec = LeagueSpec::from_ron(
        r#"(
            name: "es",
            games_per_match: 1,
            seed: 3,
            controllers: [
                (name: "Random", spec: Random),
                (name: "ES", spec: Mcts(sims: 20, es: (generations: 2, lambda: 2, sims_per_fitness: 3))),
            ],
        )"#,
        "es.ron",
    )
    .unwrap();
    let dir = temp_dir("readback");
    let run = run_league(&spec, &opts(&dir, false, 2, None)).unwrap();
    assert!(
        run.games.iter().any(|g| g.es.iter().any(|d| !d.is_empty())),
        "ES decisions recorded"
    );
    let mut read = read_records(&record_path(&dir)).unwrap().games;
    read.sort_by_key(|g| run.games.iter().position(|h| h.id() == g.id()));
    assert_eq!(
        read, run.games,
        "fitness values survive the JSON round trip bit for bit"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn seeds_are_written_as_strings_and_records_with_numeric_seeds_still_read_and_replay() {
    // A committed run whose records hold seeds as JSON numbers.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/replication/star/seed-2021");
    let raw = std::fs::read_to_string(record_path(&dir)).unwrap();
    let first_line: serde_json::Value = serde_json::from_str(raw.lines().next().unwrap()).unwrap();
    let numeric_seed = first_line["game"]["tile_seed"].as_u64().unwrap();
    assert!(
        numeric_seed > 1 << 53,
        "a seed a double cannot hold exactly"
    );
    let (spec, games, merge) = evomcts::league::load_runs(&[dir]).unwrap();
    assert!(merge.missing.is_empty());
    let game = games
        .iter()
        .find(|g| g.game.carcassonne().unwrap().tile_seed == numeric_seed)
        .expect("the first record's game, its seed read exactly");
    assert_eq!(game.job.seed, numeric_seed);
    // The seed deals exactly the tiles the record holds, and the moves replay to its scores.
    let mut stack = evomcts::games::carcassonne::TileStack::shuffled(
        game.game.carcassonne().unwrap().tile_seed,
    );
    let dealt: Vec<_> = std::iter::from_fn(|| stack.draw_for_test()).collect();
    assert_eq!(game.game.carcassonne().unwrap().rules, Rules::default());
    assert_eq!(
        dealt[..game.game.carcassonne().unwrap().draws.len()],
        game.game.carcassonne().unwrap().draws[..]
    );
    let end = evomcts::games::carcassonne::replay(game.game.carcassonne().unwrap()).unwrap();
    assert_eq!(end.scores(), game.game.carcassonne().unwrap().final_scores);
    assert_eq!(spec.games_per_match as usize * 6, games.len());

    // Written again, every seed is a decimal string, and it reads back to the same record.
    let line = serde_json::to_string(game).unwrap();
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    assert_eq!(
        text(&value["game"]["tile_seed"]),
        Some(numeric_seed.to_string())
    );
    assert_eq!(
        text(&value["job"]["tile_seed"]),
        Some(numeric_seed.to_string())
    );
    for seat in 0..2 {
        assert_eq!(
            text(&value["job"]["controller_seeds"][seat]),
            Some(game.job.controller_seeds[seat].to_string())
        );
    }
    let back: LeagueGame = serde_json::from_str(&line).unwrap();
    assert_eq!(&back, game);
    // A seed that is neither a whole number nor a string of one is refused with its value.
    let bad = line.replace(&format!("\"{numeric_seed}\""), "\"12x\"");
    let err = serde_json::from_str::<LeagueGame>(&bad).unwrap_err();
    assert!(err.to_string().contains("12x"), "{err}");
}

fn read_csv(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let headers: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), headers.len(), "{l}");
            headers
                .iter()
                .zip(cells)
                .map(|(h, c)| (h.to_string(), c.trim_matches('"').to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn games_csv_lists_every_game_in_schedule_order_with_its_seeds() {
    let spec = small_spec(9);
    let dir = temp_dir("games-csv");
    let run = run_league(&spec, &opts(&dir, false, 2, None)).unwrap();
    let t = tables(&spec, &run.games);
    evomcts::league::report::write_tables(&t, &dir).unwrap();
    let rows = read_csv(&dir.join("games.csv"));
    let jobs = schedule(spec.seed, 3, spec.games_per_match);
    assert_eq!(rows.len(), jobs.len());
    for (k, (row, job)) in rows.iter().zip(&jobs).enumerate() {
        let game = run.games.iter().find(|g| g.id() == job.id).unwrap();
        assert_eq!(row["k"], k.to_string());
        assert_eq!(row["first_index"], job.id.first.to_string());
        assert_eq!(row["second_index"], job.id.second.to_string());
        assert_eq!(row["match_game"], job.id.index.to_string());
        assert_eq!(row["first"], game.names[0]);
        assert_eq!(row["second"], game.names[1]);
        assert_eq!(
            row["score_first"],
            game.game.carcassonne().unwrap().final_scores[0].to_string()
        );
        assert_eq!(
            row["score_second"],
            game.game.carcassonne().unwrap().final_scores[1].to_string()
        );
        let winner = match game.game.winner() {
            Some(seat) => game.names[seat].clone(),
            None => "draw".into(),
        };
        assert_eq!(row["winner"], winner);
        assert_eq!(row["tile_seed"], job.seed.to_string());
        assert_eq!(
            row["first_controller_seed"],
            job.controller_seeds[0].to_string()
        );
        assert_eq!(
            row["second_controller_seed"],
            job.controller_seeds[1].to_string()
        );
    }
    // tables.json holds the same rows, seeds as strings.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tables.json")).unwrap()).unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), jobs.len());
    assert_eq!(
        json["games"][3]["tile_seed"].as_str(),
        Some(jobs[3].seed.to_string().as_str())
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn ratings_reach_the_tables_csv_and_json_from_hand_built_games() {
    let names: Vec<String> = ["A", "B"].map(String::from).to_vec();
    // A wins 3 of 4 (both seatings): Bradley–Terry puts A 400·log10(3) ≈ 190.85 above B.
    let games = vec![
        fake_game(0, 1, 0, [60, 50]),
        fake_game(0, 1, 1, [40, 50]),
        fake_game(1, 0, 0, [50, 60]),
        fake_game(1, 0, 1, [50, 70]),
    ];
    let t = Tables::from_games(&names, 2, &BonusRules::default(), &games);
    let by_name = |n: &str| t.ratings.rows.iter().find(|r| r.name == n).unwrap();
    let (a, b) = (by_name("A"), by_name("B"));
    assert!(!t.ratings.with_prior);
    assert_eq!((a.rank, b.rank), (1, 2));
    assert_eq!((a.score, b.score), (3.0, 1.0));
    assert!((a.rating - b.rating - 400.0 * 3f64.log10()).abs() < 1e-9);
    assert!((a.rating + b.rating).abs() < 1e-9, "ratings have mean 0");
    let dir = temp_dir("ratings");
    evomcts::league::report::write_tables(&t, &dir).unwrap();
    let rows = read_csv(&dir.join("ratings.csv"));
    assert_eq!(rows[0]["controller"], "A");
    assert_eq!(rows[0]["with_prior"], "false");
    let rating: f64 = rows[0]["rating"].parse().unwrap();
    assert_eq!(rating, a.rating, "written at full precision");
    let low: f64 = rows[0]["rating_low"].parse().unwrap();
    assert!(low < rating && low.is_finite());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tables.json")).unwrap()).unwrap();
    assert_eq!(
        json["ratings"]["rows"][0]["rating"].as_f64(),
        Some(a.rating)
    );
    // A sweep has no finite maximum-likelihood rating: the prior keeps the table finite.
    let sweep = Tables::from_games(&names, 2, &BonusRules::default(), &games[..1]);
    assert!(sweep.ratings.with_prior);
    assert!(sweep
        .ratings
        .rows
        .iter()
        .all(|r| [r.rating, r.rating_low, r.rating_high]
            .iter()
            .all(|x| x.is_finite())));
    let text = evomcts::league::report::to_text(&sweep);
    assert!(text.contains("virtual draw"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}
