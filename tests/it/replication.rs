//! `runs/paper/published.ron` against the paper's own arithmetic, and the pieces of the
//! replication report that compute rather than print.

use evomcts::analysis::studies::replication::{
    holm, paired_margins, paired_move_agreement, paper_flags, recompute_standings,
    standings_discrepancies, verdict, Published, Verdict,
};
use evomcts::games::carcassonne::evaluation::score_difference_bound;
use evomcts::league::{play_league_game, schedule, BonusRules, LeagueSpec};

fn published() -> Published {
    Published::from_file(std::path::Path::new("runs/paper/published.ron")).unwrap()
}

#[test]
fn tables_vi_and_viii_follow_from_v_and_vii() {
    let p = published();
    let rules = BonusRules::default();
    for preset in ["mcts_ce", "star"] {
        let lg = p.league(preset).unwrap();
        assert_eq!(
            standings_discrepancies(lg, &rules),
            vec![],
            "Table {} from Table {}",
            lg.standings_table,
            lg.matches_table
        );
    }
    // Spot checks of the recomputation itself (the paper's worked example: C_E = 2 has 21
    // points from 5 wins and one bonus win point).
    let rec = recompute_standings(p.league("mcts_ce").unwrap(), &rules);
    let ce2 = &rec.iter().find(|r| r.name == "MCTS C_E=2").unwrap().record;
    assert_eq!(
        (
            ce2.points,
            ce2.bonus_win,
            ce2.wins,
            ce2.losses,
            ce2.draws,
            ce2.matches
        ),
        (21, 1, 5, 3, 0, 8)
    );
    let rec = recompute_standings(p.league("star").unwrap(), &rules);
    let star1 = &rec.iter().find(|r| r.name == "Star1").unwrap().record;
    assert_eq!(
        (star1.points, star1.wins, star1.losses, star1.draws),
        (14, 3, 0, 1)
    );
}

#[test]
fn table_x_does_not_follow_from_table_ix_and_the_report_says_where() {
    let p = published();
    let rules = BonusRules::default();
    let lg = p.league("finalists").unwrap();
    let disc = standings_discrepancies(lg, &rules);
    let find = |name: &str, field: &str| {
        disc.iter()
            .find(|d| d.name == name && d.field == field)
            .map(|d| (d.printed, d.computed))
    };
    // ES-MCTS: 9 bonus win points printed; Table IX gives 6 matches above 75%.
    assert_eq!(find("ES-MCTS", "BWP"), Some((9, 6)));
    assert_eq!(find("ES-MCTS", "Points"), Some((49, 46)));
    // Star1 is printed with 3 lost matches; its missing cell against MCTS C_E=2 leaves 2.
    assert_eq!(find("Star1", "L"), Some((3, 2)));
    // With the public code's 70% rule ES-MCTS would have 7, still not 9.
    let public = BonusRules {
        bonus_win_share: 0.70,
        bonus_win_strict: false,
        ..BonusRules::default()
    };
    let rec = recompute_standings(lg, &public);
    let es = &rec.iter().find(|r| r.name == "ES-MCTS").unwrap().record;
    assert_eq!(es.bonus_win, 7);

    let flags = paper_flags(&p, &rules, score_difference_bound());
    let has = |needle: &str| flags.iter().any(|f| f.contains(needle));
    assert!(has("Table X does not follow from Table IX"), "{flags:#?}");
    assert!(
        has("Star1 (Player 1) against MCTS C_E=2 (Player 2) is missing"),
        "{flags:#?}"
    );
    assert!(has("is 6-7, 13 games of 15"), "{flags:#?}");
    assert!(
        has("as if the missing match had been played and won by MCTS C_E=2"),
        "{flags:#?}"
    );
    assert!(has("Table X: the PD column sums to"), "{flags:#?}");
    assert!(has("Random's PD -1186.87 exceeds"), "{flags:#?}");
    // Tables IV, V-VIII raise no flag.
    assert!(
        !flags.iter().any(|f| f.contains("Table IV")
            || f.contains("Table V:")
            || f.contains("Table VI")
            || f.contains("Table VII")),
        "{flags:#?}"
    );
}

#[test]
fn a_bad_published_file_names_the_field() {
    let text = std::fs::read_to_string("runs/paper/published.ron").unwrap();
    let broken = text.replacen("Some((10, 14))", "Some((20, 14))", 1);
    let err = Published::from_ron(&broken, "published.ron")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("published.ron") && err.contains("leagues[0].matrix[0][1]"),
        "{err}"
    );
    let broken = text.replacen(
        "(name: \"Star2\", points: 8",
        "(name: \"Star9\", points: 8",
        1,
    );
    let err = Published::from_ron(&broken, "published.ron")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("leagues[1].standings[1].name") && err.contains("Star9"),
        "{err}"
    );
}

#[test]
fn holm_adjusts_step_down_and_stays_monotone() {
    let adj = holm(&[0.01, 0.04, 0.03, 0.5]);
    // Sorted: 0.01*4 = 0.04, 0.03*3 = 0.09, 0.04*2 = 0.08 -> 0.09 (monotone), 0.5*1 = 0.5.
    let want = [0.04, 0.09, 0.09, 0.5];
    for (a, b) in adj.iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{adj:?}");
    }
}

/// Two identical deterministic controllers on shared tiles: every paired game is the same
/// move for move, every paired margin is zero, and no ordering can survive.
#[test]
fn identical_controllers_give_identical_paired_games() {
    let spec = LeagueSpec::from_ron(
        r#"(name: "twins", games_per_match: 2, seed: 5, controllers: [
            (name: "A", spec: Star(depth: 1, probing: 0)),
            (name: "B", spec: Star(depth: 1, probing: 0)),
        ])"#,
        "twins",
    )
    .unwrap();
    let games: Vec<_> = schedule(spec.seed, 2, spec.games_per_match)
        .into_iter()
        .map(|job| play_league_game(&spec, &job, &spec.hash()).unwrap())
        .collect();
    let m = paired_move_agreement(&games);
    assert_eq!((m.pairs, m.identical_pairs), (2, 2));
    assert_eq!(m.agreeing_moves, m.moves);
    assert!(m.moves > 100);
    let margins = paired_margins(&games, 0, 1);
    assert_eq!(margins, vec![0.0, 0.0]);
}

#[test]
fn an_ordering_survives_only_when_the_adjusted_test_agrees() {
    use evomcts::analysis::studies::replication::PairTest;
    let t = |a, b, margin: f64, p: f64| PairTest {
        a,
        b,
        pairs: 10,
        mean_margin: margin,
        p_value: p,
        p_holm: p,
        a_wins: 0,
        b_wins: 0,
        draws: 0,
        a_share: 0.5,
        a_share_low: 0.0,
        a_share_high: 1.0,
    };
    let tests = vec![t(0, 1, 5.0, 0.001), t(0, 2, -3.0, 0.01), t(1, 2, 1.0, 0.2)];
    assert_eq!(verdict(&tests, 0, 1).unwrap().0, Verdict::Survives);
    assert_eq!(verdict(&tests, 1, 0).unwrap().0, Verdict::Reversed);
    assert_eq!(verdict(&tests, 0, 2).unwrap().0, Verdict::Reversed);
    assert_eq!(verdict(&tests, 2, 1).unwrap().0, Verdict::Unresolved);
}

/// Seed folders of a small league (two random players named as Table IV's controllers) go
/// through `load_preset_runs` and `render_markdown`: complete seeds are counted, an unfinished
/// one is named and left out, and the numbers in the report are the folders' numbers.
#[test]
fn the_report_is_written_from_the_seed_folders() {
    use evomcts::analysis::studies::replication::{
        load_preset_runs, render_markdown, MarkdownInput,
    };
    use evomcts::league::{run_league, RunOptions};
    let out = crate::support::scratch("test", "replication");
    let _ = std::fs::remove_dir_all(&out);
    let spec_text = r#"(name: "tiny-reward", games_per_match: 3, seed: 40, controllers: [
        (name: "MCTS score difference", spec: Random),
        (name: "MCTS +1/0/-1", spec: Random),
    ])"#;
    for (k, max_games) in [(0u64, None), (1, None), (2, Some(2))] {
        let mut spec = LeagueSpec::from_ron(spec_text, "tiny").unwrap();
        spec.seed += k;
        let opts = RunOptions {
            out_dir: out.join("reward").join(format!("seed-{}", spec.seed)),
            resume: true,
            threads: Some(1),
            progress: false,
            max_games,
            shard: None,
        };
        run_league(&spec, &opts).unwrap();
    }
    let runs = load_preset_runs(&out, "reward").unwrap().unwrap();
    assert_eq!(
        runs.runs.iter().map(|r| r.seed).collect::<Vec<_>>(),
        vec![40, 41]
    );
    assert_eq!(runs.incomplete, vec![(42, 2, 6)]);
    assert!(load_preset_runs(&out, "star").unwrap().is_none());

    let p = published();
    let first = &runs.runs[0];
    let e = runs.names.iter().position(|n| n == "MCTS +1/0/-1").unwrap();
    let m = first.tables.matches.iter().find(|m| m.first == e).unwrap();
    let ours_as_first = format!("{}-{}-{}", m.first_wins, m.second_wins, m.draws);
    let input = MarkdownInput {
        published: &p,
        published_path: "runs/paper/published.ron".into(),
        presets: vec![runs],
        star: None,
        command: "evomcts replicate --seeds 3".into(),
        note: Some("A test note.".into()),
        out_dir: out.display().to_string(),
        es_study: None,
        bonus: BonusRules::default(),
        score_bound: score_difference_bound(),
    };
    let text = render_markdown(&input);
    assert!(text.contains("A test note."));
    assert!(
        text.contains("Seed 42 of `reward` is unfinished (2 of 6 games)"),
        "{text}"
    );
    assert!(text.contains("Over K = 2 seeds (40, 41)"), "{text}");
    assert!(
        text.contains(&format!("| MCTS +1/0/-1 | 2-48-0 | {ours_as_first} |")),
        "{text}"
    );
    assert!(text.contains("No complete run of `mcts_ce` yet."));
    assert!(text.contains("Table X does not follow from Table IX"));
    assert!(text.contains("[es-study.md](es-study.md)"));
    let _ = std::fs::remove_dir_all(&out);
}
