//! Formula counts of hand-built records equal counts made by hand: formulas count by canonical
//! form, decisions without a formula count apart, seats and games add up, the controller filter
//! and top-k work, and the written table and chart hold those numbers.

use crate::analysis_common::{check_pair, temp_dir};
use evomcts::analysis::plots::formulas::{count_formulas, FormulaReport};
use evomcts::arena::PlayedGame;
use evomcts::formula::Formula;
use evomcts::games::carcassonne::{GameRecord, Rules};
use evomcts::league::{EsDecisionSummary, GameId, GameJob, LeagueGame};
use evomcts::runfs::file_stem;

fn decision(turn: usize, formula: Option<&str>) -> EsDecisionSummary {
    let parsed = formula.map(|f| f.parse::<Formula>().unwrap());
    EsDecisionSummary {
        turn,
        formula: parsed.as_ref().map(|f| f.to_string()),
        canonical: parsed.as_ref().map(|f| f.canonical().to_string()),
        fitness: parsed.as_ref().map(|_| 1.0),
        es_simulations: 10,
        best_fitness: vec![1.0, 2.0],
        mean_fitness: vec![0.5, 1.0],
        full: None,
    }
}

fn game(
    first: usize,
    second: usize,
    names: [&str; 2],
    es: [Vec<EsDecisionSummary>; 2],
) -> LeagueGame {
    LeagueGame {
        spec_hash: "hand".into(),
        job: GameJob {
            id: GameId {
                first,
                second,
                index: 0,
            },
            seed: 1,
            controller_seeds: [2, 3],
        },
        names: names.map(String::from),
        game: PlayedGame::Carcassonne(GameRecord {
            tile_seed: 1,
            rules: Rules::default(),
            draws: vec![],
            moves: vec![],
            virtual_scores: vec![[1, 0], [1, 2]],
            final_scores: [3, 2],
            score_by_kind: [[0; 4]; 2],
            meeples_played: [0; 2],
            turns_with_meeple_available: [0; 2],
            turns: [1, 1],
            discards: 0,
        }),
        es,
        search: Default::default(),
    }
}

fn names() -> Vec<String> {
    ["ES-A", "ES-B", "Random"].map(String::from).to_vec()
}

/// ES-A: `Q` four times (written `Q`, `Q + 0`, `Q`, `Q*1`), `Q + n` twice (also written
/// `n + Q`), `sqrt(N)` once, and one decision where the ES did not run. ES-B: `N` twice.
fn fixture() -> Vec<LeagueGame> {
    vec![
        game(
            0,
            2,
            ["ES-A", "Random"],
            [
                vec![
                    decision(0, Some("Q + n")),
                    decision(2, Some("Q")),
                    decision(4, Some("Q + 0")),
                    decision(6, None),
                ],
                vec![],
            ],
        ),
        game(
            1,
            0,
            ["ES-B", "ES-A"],
            [
                vec![decision(0, Some("N")), decision(2, Some("N"))],
                vec![
                    decision(1, Some("n + Q")),
                    decision(3, Some("Q")),
                    decision(5, Some("sqrt(N)")),
                    decision(7, Some("Q*1")),
                ],
            ],
        ),
    ]
}

fn canonical(text: &str) -> String {
    text.parse::<Formula>().unwrap().canonical().to_string()
}

#[test]
fn counts_equal_the_hand_counts() {
    let results = count_formulas(&names(), &fixture(), &[]);
    assert_eq!(
        results.len(),
        2,
        "Random made no ES decisions and is not listed"
    );
    let a = &results[0];
    assert_eq!(a.controller, "ES-A");
    assert_eq!((a.decisions, a.total, a.not_run, a.unique()), (8, 7, 1, 3));
    let counts: Vec<(String, usize)> = a
        .counts
        .iter()
        .map(|c| (c.canonical.clone(), c.count))
        .collect();
    assert_eq!(
        counts,
        vec![
            (canonical("Q"), 4),
            (canonical("Q + n"), 2),
            (canonical("sqrt(N)"), 1)
        ]
    );
    assert_eq!(
        canonical("n + Q"),
        canonical("Q + n"),
        "the fixture relies on this"
    );
    let b = &results[1];
    assert_eq!(b.controller, "ES-B");
    assert_eq!((b.decisions, b.total, b.not_run, b.unique()), (2, 2, 0, 1));
    assert_eq!(b.counts[0].count, 2);
}

#[test]
fn the_controller_filter_and_top_k_select() {
    let only_b = count_formulas(&names(), &fixture(), &["ES-B".to_string()]);
    assert_eq!(only_b.len(), 1);
    assert_eq!(only_b[0].controller, "ES-B");
    let report = FormulaReport::new(&names(), &fixture(), &[], 2).unwrap();
    let a_rows: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.controller == "ES-A")
        .collect();
    assert_eq!(a_rows.len(), 2);
    assert_eq!((a_rows[0].rank, a_rows[0].count), (1, 4));
    assert_eq!(a_rows[0].pretty, "Q");
    assert_eq!((a_rows[1].rank, a_rows[1].count), (2, 2));
    assert!((a_rows[1].share - 2.0 / 7.0).abs() < 1e-12);
}

#[test]
fn written_tables_and_charts_hold_the_counts() {
    let dir = temp_dir("formulas");
    let report = FormulaReport::new(&names(), &fixture(), &[], 5).unwrap();
    report.write(&dir).unwrap();
    let csv = std::fs::read_to_string(dir.join("formulas.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "controller,rank,count,share,pretty,canonical,latex,size,depth,total"
    );
    assert_eq!(
        lines.len(),
        1 + 3 + 1,
        "three ES-A formulas and one ES-B formula"
    );
    // Shares are fractions at full precision, never percentages.
    assert!(!csv.contains('%'), "{csv}");
    let share = |k: f64| (k / 7.0).to_string();
    assert!(
        lines[1].starts_with(&format!("ES-A,1,4,{},Q,Q,", share(4.0))),
        "{}",
        lines[1]
    );
    assert!(
        lines[3].starts_with(&format!("ES-A,3,1,{},√N,sqrt(N),", share(1.0))),
        "{}",
        lines[3]
    );
    assert!(lines[1].ends_with(",7"), "{}", lines[1]);
    let summary = std::fs::read_to_string(dir.join("formulas_summary.csv")).unwrap();
    assert_eq!(
        summary,
        "controller,decisions,total,unique,es_not_run\nES-A,8,7,3,1\nES-B,2,2,1,0\n"
    );
    let md = std::fs::read_to_string(dir.join("formulas.md")).unwrap();
    assert!(
        md.contains("| ES-A | 1 | 4 | 57.1% | `Q` | $\\bar{Q}_j$ |"),
        "{md}"
    );
    let svg = check_pair(&dir, &format!("formulas_{}", file_stem("ES-A")));
    for label in [
        "Formulas chosen by ES-A",
        "1. Q",
        "3. √N",
        "4 (57.1%)",
        "times chosen",
    ] {
        assert!(svg.contains(label), "the chart lacks `{label}`");
    }
    let drift = std::fs::read_to_string(dir.join("formulas_drift.csv")).unwrap();
    assert!(
        drift.starts_with("controller,formulas,drifted,share,share_low,share_high,ignores_q,ignores_n,constant,uct\n"),
        "{drift}"
    );
    assert!(!drift.contains('%') && !drift.contains('['), "{drift}");
    let svg = check_pair(&dir, &format!("formulas_{}", file_stem("ES-B")));
    assert!(svg.contains("2 decisions: 2 formulas, 1 unique"));
}

#[test]
fn a_damaged_formula_is_an_error_not_a_panic() {
    let mut games = fixture();
    games[0].es[0][0].canonical = Some("Q + ".into());
    let err = FormulaReport::new(&names(), &games, &[], 5)
        .err()
        .expect("an unparsable record is reported");
    assert!(err.to_string().contains("`Q + `"), "{err}");
}
