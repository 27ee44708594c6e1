//! The Markdown report `evomcts replicate` writes: the paper's tables beside ours from K seeds
//! of every preset, the noise between seeds, the checks of the paper's arithmetic and the
//! Star decisions, from the data `replication` gathers and pairs.

use super::*;
use noise::{noise_section, orderings_sentence, paper_winner_sentence};

mod noise;

/// Everything the Markdown is written from.
pub struct MarkdownInput<'a> {
    pub published: &'a Published,
    pub published_path: String,
    /// Runs by preset name: reward, mcts_ce, star, extra_bandits, finalists.
    pub presets: Vec<PresetRuns>,
    pub star: Option<StarDecisions>,
    /// The command that produced the runs, shown at the top.
    pub command: String,
    /// A sentence under the heading, e.g. how the folders were produced.
    pub note: Option<String>,
    pub out_dir: String,
    /// Link to the ES study's report, if it exists.
    pub es_study: Option<String>,
    pub bonus: BonusRules,
    pub score_bound: f64,
}

/// The whole report as Markdown, one section after another.
pub fn render_markdown(input: &MarkdownInput) -> String {
    let mut s = String::new();
    heading(&mut s, input);
    compute_section(&mut s, input);
    arithmetic_section(&mut s, input);
    reward_section(&mut s, input);
    for lg in input
        .published
        .leagues
        .iter()
        .filter(|l| l.preset != "finalists")
    {
        league_section(&mut s, input, lg);
    }
    extra_bandits_section(&mut s, input);
    finalists_section(&mut s, input);
    s
}

/// The title, what is compared, where the runs are and the optional note.
fn heading(s: &mut String, input: &MarkdownInput) {
    let _ = writeln!(s, "# The paper's tables side by side\n");
    let _ = writeln!(
        s,
        "Galván & Simpson, *On the Evolution of the MCTS Upper Confidence Bounds for Trees by Means of Evolutionary Algorithms in the Game of Carcassonne*: Tables IV–X as printed (`{}`), beside our leagues on this implementation, with the noise of K master seeds.\n",
        input.published_path
    );
    let _ = writeln!(
        s,
        "Produced by `{}`; the runs are in `{}/<preset>/seed-<s>/` (league folders: `spec.ron`, `games.jsonl`, the tables as CSV, `wall.jsonl`). `evomcts replicate --report-only` rewrites this file from those folders without playing.\n",
        input.command, input.out_dir
    );
    if let Some(note) = &input.note {
        let _ = writeln!(s, "{note}\n");
    }
}

/// The wall time the runs took and where, then a row per preset: its seeds, games, wall time
/// and unfinished seeds.
fn compute_section(s: &mut String, input: &MarkdownInput) {
    let runs = || input.presets.iter().flat_map(|pr| &pr.runs);
    let mut threads: Vec<usize> = runs().flat_map(|r| r.threads.iter().copied()).collect();
    threads.sort();
    threads.dedup();
    if threads.is_empty() {
        let _ = writeln!(
            s,
            "**Compute.** No run folder holds a wall time (`wall.jsonl`): their games were played elsewhere, e.g. as Slurm job arrays (`evomcts slurm --kind replicate`), whose times are in Slurm's accounting (`sacct`). Results depend only on the specs and seeds, never on where or on how many threads they were played.\n"
        );
    } else {
        // Folded from 0, not summed: an empty `sum` is -0, which prints with its sign.
        let total_wall = input
            .presets
            .iter()
            .map(preset_wall)
            .fold(0.0, |a, w| a + w);
        let cpu = runs().find_map(|r| r.cpu.clone());
        let _ = writeln!(
            s,
            "**Compute.** Wall time of all complete runs: {:.0} s ({:.1} min), measured per run folder (`wall.jsonl`) on {} with {} worker thread(s), the machine shared with other work, so times are upper bounds. Results depend only on the specs and seeds, never on the thread count.\n",
            total_wall,
            total_wall / 60.0,
            cpu.unwrap_or_else(|| "an unrecorded machine".into()),
            threads.iter().map(|t| t.to_string()).collect::<Vec<_>>().join("/"),
        );
    }
    let rows: Vec<Vec<String>> = input.presets.iter().map(compute_row).collect();
    s.push_str(&md_table(
        &[
            "preset",
            "K (complete seeds)",
            "seeds",
            "games",
            "wall s",
            "unfinished",
        ],
        &rows,
    ));
}

/// The wall seconds of `pr`'s complete seeds; `+ 0.0` turns the empty sum's -0 into 0, which
/// prints without a sign.
fn preset_wall(pr: &PresetRuns) -> f64 {
    pr.runs.iter().map(|r| r.wall_seconds).sum::<f64>() + 0.0
}

/// `pr`'s row of the compute table.
fn compute_row(pr: &PresetRuns) -> Vec<String> {
    vec![
        format!("`{}`", pr.preset),
        pr.runs.len().to_string(),
        pr.runs
            .iter()
            .map(|r| r.seed.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        pr.runs
            .iter()
            .map(|r| r.games.len())
            .sum::<usize>()
            .to_string(),
        if pr.runs.iter().any(|r| !r.threads.is_empty()) {
            format!("{:.0}", preset_wall(pr))
        } else {
            "–".into()
        },
        if pr.incomplete.is_empty() {
            "–".into()
        } else {
            pr.incomplete
                .iter()
                .map(|(s, h, w)| format!("{s}: {h}/{w}"))
                .collect::<Vec<_>>()
                .join(", ")
        },
    ]
}

/// Which of the paper's standings follow from its match tables, and every flag its printed
/// numbers raise about themselves.
fn arithmetic_section(s: &mut String, input: &MarkdownInput) {
    let _ = writeln!(s, "\n## The paper's own arithmetic\n");
    let _ = writeln!(
        s,
        "Computed from `{}` alone (Table III's points: win 4, draw 2, loss 0, a bonus win point above a 75% share, a bonus loss point when the winner's share is at most 55%):\n",
        input.published_path
    );
    for lg in &input.published.leagues {
        if standings_discrepancies(lg, &input.bonus).is_empty() {
            let _ = writeln!(
                s,
                "- Table {} follows from Table {}: every Points, BWP, BLP, W, L and D agrees.",
                lg.standings_table, lg.matches_table
            );
        }
    }
    for f in paper_flags(input.published, &input.bonus, input.score_bound) {
        let _ = writeln!(s, "- {f}");
    }
}

/// Table IV: each reward's record in each seat beside ours, the noise between seeds and which
/// of the paper's orderings survive.
fn reward_section(s: &mut String, input: &MarkdownInput) {
    let reward = &input.published.reward;
    let _ = writeln!(s, "\n## Table {}: the reward\n", reward.table);
    let rp = preset(input, &reward.preset);
    incomplete_note(s, input, &reward.preset);
    let Some(pr) = rp else {
        let _ = writeln!(s, "No complete run of `{}` yet.\n", reward.preset);
        return;
    };
    seats_beside_ours(s, reward, pr);
    s.push('\n');
    let tests = noise_section(s, pr);
    let mut ranked: Vec<&RewardRow> = reward.rows.iter().collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.as_first.0 + r.as_second.0));
    let ranked: Vec<String> = ranked.iter().map(|r| r.name.clone()).collect();
    orderings_sentence(s, "Table IV", &ranked, &pr.names, &tests, pr.runs.len());
}

/// Table IV's wins, losses and draws in each seat beside ours from the first seed.
fn seats_beside_ours(s: &mut String, reward: &PublishedReward, pr: &PresetRuns) {
    let r = &pr.runs[0];
    let _ = writeln!(
        s,
        "Wins-losses-draws of each controller in each seat, paper beside ours (seed {}), {} games per seat (paper {}):\n",
        r.seed, pr.games_per_match, reward.games
    );
    let mut rows = Vec::new();
    for row in &reward.rows {
        let e = index_of(&pr.names, &row.name);
        let ours = |first| e.map_or("?".into(), |e| wld(seat_record(&r.tables, e, first)));
        rows.push(vec![
            row.name.clone(),
            wld(row.as_first),
            ours(true),
            wld(row.as_second),
            ours(false),
        ]);
    }
    s.push_str(&md_table(
        &[
            "Controller",
            "paper as Player 1",
            "ours as Player 1",
            "paper as Player 2",
            "ours as Player 2",
        ],
        &rows,
    ));
}

/// One league of the paper (Tables V/VI or VII/VIII) beside ours, the noise between seeds,
/// which orderings survive, how often the paper's winner won, and for Star the decisions.
fn league_section(s: &mut String, input: &MarkdownInput, lg: &PublishedLeague) {
    let _ = writeln!(
        s,
        "\n## Tables {} and {}: `{}`\n",
        lg.matches_table, lg.standings_table, lg.preset
    );
    incomplete_note(s, input, &lg.preset);
    let Some(pr) = preset(input, &lg.preset) else {
        let _ = writeln!(s, "No complete run of `{}` yet.\n", lg.preset);
        return;
    };
    side_by_side(s, lg, pr);
    s.push('\n');
    let tests = noise_section(s, pr);
    let ranked: Vec<String> = lg.standings.iter().map(|x| x.name.clone()).collect();
    let table = format!("Table {}", lg.standings_table);
    orderings_sentence(s, &table, &ranked, &pr.names, &tests, pr.runs.len());
    if let Some(first) = ranked.first() {
        paper_winner_sentence(s, pr, first);
    }
    if lg.preset == "star" {
        star_section(s, pr, input.star.as_ref());
    }
}

/// Table V/VII/IX beside our first seed, and VI/VIII/X beside our standings.
fn side_by_side(s: &mut String, lg: &PublishedLeague, pr: &PresetRuns) {
    matches_beside_ours(s, lg, pr);
    standings_beside_ours(s, lg, pr);
    pd_ranges(s, lg, &pr.runs[0]);
}

/// The paper's match table, each cell beside ours from the first seed.
fn matches_beside_ours(s: &mut String, lg: &PublishedLeague, pr: &PresetRuns) {
    let r = &pr.runs[0];
    let ours_idx: Vec<Option<usize>> = lg.names.iter().map(|n| index_of(&pr.names, n)).collect();
    let _ = writeln!(
        s,
        "Table {} beside ours (seed {}): each cell is the wins of the row controller (Player 1) and of the column controller (Player 2), paper / ours, out of {} games (paper) and {} (ours).\n",
        lg.matches_table, r.seed, lg.games_per_match, pr.games_per_match
    );
    let mut head = vec!["Player 1 \\ Player 2".to_string()];
    head.extend(lg.names.iter().cloned());
    let mut rows = Vec::new();
    for (i, name) in lg.names.iter().enumerate() {
        let mut row = vec![name.clone()];
        for j in 0..lg.names.len() {
            if i == j {
                row.push("–".into());
                continue;
            }
            let paper = lg.matrix[i][j].map_or("–".to_string(), |(a, b)| format!("{a}-{b}"));
            let ours = match (ours_idx[i], ours_idx[j]) {
                (Some(a), Some(b)) => r
                    .tables
                    .matches
                    .iter()
                    .find(|m| m.first == a && m.second == b)
                    .map_or("?".into(), |m| {
                        format!("{}-{}", m.first_wins, m.second_wins)
                    }),
                _ => "?".into(),
            };
            row.push(format!("{paper} / {ours}"));
        }
        rows.push(row);
    }
    let head_ref: Vec<&str> = head.iter().map(|h| h.as_str()).collect();
    s.push_str(&md_table(&head_ref, &rows));
}

/// The paper's standings, each row beside ours from the first seed.
fn standings_beside_ours(s: &mut String, lg: &PublishedLeague, pr: &PresetRuns) {
    let r = &pr.runs[0];
    let _ = writeln!(
        s,
        "\nTable {} beside ours (seed {}). Our PD is the mean score difference per game; \"PD Σ\" is ours computed as the sum of per-match means, the reading under which the paper's Table X is plausible (see the flags above).\n",
        lg.standings_table, r.seed
    );
    let mut rows = Vec::new();
    for (pos, p) in lg.standings.iter().enumerate() {
        let ours = index_of(&pr.names, &p.name)
            .and_then(|e| r.tables.standings.iter().find(|x| x.entrant == e));
        let mut row = vec![
            p.name.clone(),
            (pos + 1).to_string(),
            p.points.to_string(),
            format!("{}/{}", p.bwp, p.blp),
            format!("{}-{}-{}", p.w, p.l, p.d),
            format!("{:+.2}", p.pd),
        ];
        match ours {
            Some(o) => row.extend([
                o.position.to_string(),
                o.points.to_string(),
                format!("{}/{}", o.bonus_win, o.bonus_loss),
                format!("{}-{}-{}", o.wins, o.losses, o.draws),
                format!("{:+.2}", o.point_difference),
                format!(
                    "{:+.2}",
                    no_minus_zero(pd_sum_of_match_means(&r.tables, o.entrant))
                ),
            ]),
            None => row.extend(std::iter::repeat_n("?".to_string(), 6)),
        }
        rows.push(row);
    }
    s.push_str(&md_table(
        &[
            "Controller",
            "paper pos",
            "paper points",
            "paper BWP/BLP",
            "paper W-L-D",
            "paper PD",
            "our pos",
            "our points",
            "our BWP/BLP",
            "our W-L-D",
            "our PD",
            "our PD Σ",
        ],
        &rows,
    ));
}

/// The range of the paper's PD beside ours per game and ours as a sum of per-match means:
/// which reading the scale of the paper's PD fits.
fn pd_ranges(s: &mut String, lg: &PublishedLeague, r: &SeedRun) {
    let range = |v: Vec<f64>| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        format!("{:+.2} to {:+.2}", no_minus_zero(lo), no_minus_zero(hi))
    };
    let ours: Vec<usize> = r.tables.standings.iter().map(|x| x.entrant).collect();
    let _ = writeln!(
        s,
        "\nPD ranges: paper {}; ours per game {}; ours as a sum of per-match means {}.",
        range(lg.standings.iter().map(|x| x.pd).collect()),
        range(
            r.tables
                .standings
                .iter()
                .map(|x| x.point_difference)
                .collect()
        ),
        range(
            ours.iter()
                .map(|&e| pd_sum_of_match_means(&r.tables, e))
                .collect()
        ),
    );
}

/// Whether Star1, Star2 and Star2.5 play the same games, and, if it was run, how they decide
/// the same positions under several bounds.
fn star_section(s: &mut String, pr: &PresetRuns, star: Option<&StarDecisions>) {
    let _ = writeln!(s, "### Star1, Star2 and Star2.5 choose the same moves\n");
    paired_games_table(s, pr);
    match star {
        None => {
            let _ = writeln!(
                s,
                "\nThe decision comparison (`star-decisions.json`) has not been run.\n"
            );
        }
        Some(d) => star_decisions_table(s, d),
    }
}

/// Per seed, the pairs of games on the same tiles that are move for move the same.
fn paired_games_table(s: &mut String, pr: &PresetRuns) {
    let mut total = PairedMoves::default();
    let mut rows = Vec::new();
    for r in &pr.runs {
        let m = paired_move_agreement(&r.games);
        rows.push(vec![
            r.seed.to_string(),
            format!("{} of {}", m.identical_pairs, m.pairs),
            format!("{} of {}", m.agreeing_moves, m.moves),
        ]);
        total.pairs += m.pairs;
        total.identical_pairs += m.identical_pairs;
        total.agreeing_moves += m.agreeing_moves;
        total.moves += m.moves;
    }
    let _ = writeln!(
        s,
        "Game i of A-vs-B and game i of B-vs-A draw the same tiles. If the two controllers choose the same move in every position they meet, the two games are move for move the same. Over all K = {} seeds, {} of {} such pairs are identical, and {} of {} moves agree before a pair's first difference:\n",
        pr.runs.len(),
        total.identical_pairs,
        total.pairs,
        total.agreeing_moves,
        total.moves
    );
    s.push_str(&md_table(
        &["seed", "identical pairs", "moves agreeing"],
        &rows,
    ));
    if total.pairs > 0 && total.identical_pairs == total.pairs {
        let _ = writeln!(
            s,
            "\nSo in every pair the player in the first seat makes the same moves and scores the same, whichever variant it is: each pair of matches between two variants splits evenly, and every PD is exactly 0. The differences of the paper's Tables VII/VIII (Star1 14 points, Star2.5 2) then cannot come from the three algorithms as specified; defects in the probing of the paper's public implementation are a likely cause, a hypothesis this report does not test."
        );
    }
}

/// The decision comparison: each variant at each bound setting, its agreement with the
/// others and with the exact move, and its cost.
fn star_decisions_table(s: &mut String, d: &StarDecisions) {
    let _ = writeln!(
        s,
        "\nAsked directly: every {}th decision position of {} ({} positions; the largest |score difference| among them is {}), searched by each variant at depth 2 under true bounds of the evaluation (the search is then exact expectimax with pruning), the paper's ±100, and narrower bounds. \"Same as exact\" counts positions where the variant chose the move Star1 chooses under true bounds. Times are one thread on the shared machine.\n",
        d.every, d.source, d.positions, d.max_abs_score_difference
    );
    let mut rows = Vec::new();
    for b in &d.settings {
        for (v, name) in d.variants.iter().enumerate() {
            rows.push(vec![
                format!("{} [{:.0}, {:.0}]", b.label, b.lower, b.upper),
                name.clone(),
                format!("{} of {}", b.all_agree, d.positions),
                format!("{} of {}", b.agree_with_exact[v], d.positions),
                format!("{:.0}", b.mean_nodes[v]),
                format!("{:.2}", b.mean_ms[v]),
            ]);
        }
    }
    s.push_str(&md_table(
        &[
            "bounds",
            "variant",
            "all three agree",
            "same as exact",
            "mean nodes",
            "mean ms",
        ],
        &rows,
    ));
    s.push('\n');
}

/// The bandits of the companion papers against UCT: a league the paper does not have.
fn extra_bandits_section(s: &mut String, input: &MarkdownInput) {
    let _ = writeln!(
        s,
        "\n## Beyond the paper: MCTS-RAVE and Thompson sampling against UCT\n"
    );
    let extra = preset(input, "extra_bandits");
    incomplete_note(s, input, "extra_bandits");
    let Some(pr) = extra else {
        let _ = writeln!(s, "No complete run of `extra_bandits` yet.\n");
        return;
    };
    let _ = writeln!(
        s,
        "`runs/paper/extra_bandits.ron`: the tree policies of the companion papers against the main paper's UCT (C_E = 2), 400 simulations each, score-difference reward, {} games per match. The paper has no such table; there is nothing to set beside it.\n",
        pr.games_per_match
    );
    let r = &pr.runs[0];
    let _ = writeln!(s, "Standings of seed {}:\n", r.seed);
    let rows: Vec<Vec<String>> = r
        .tables
        .standings
        .iter()
        .map(|o| {
            vec![
                o.position.to_string(),
                o.name.clone(),
                o.points.to_string(),
                format!("{}/{}", o.bonus_win, o.bonus_loss),
                format!("{}-{}-{}", o.wins, o.losses, o.draws),
                format!("{:+.2}", o.point_difference),
            ]
        })
        .collect();
    s.push_str(&md_table(
        &["pos", "Controller", "points", "BWP/BLP", "W-L-D", "PD"],
        &rows,
    ));
    s.push('\n');
    let tests = noise_section(s, pr);
    against_uct_sentence(s, pr, &tests);
}

/// Each bandit against UCT in words: better, worse or no significant difference.
fn against_uct_sentence(s: &mut String, pr: &PresetRuns, tests: &[PairTest]) {
    let Some(uct) = index_of(&pr.names, "MCTS UCT C_E=2") else {
        return;
    };
    let mut lines = Vec::new();
    for t in tests.iter().filter(|t| t.a == uct || t.b == uct) {
        let other = if t.a == uct { t.b } else { t.a };
        let margin = if t.a == uct {
            -t.mean_margin
        } else {
            t.mean_margin
        };
        let what = if t.p_holm >= 0.05 {
            "shows no significant difference from UCT"
        } else if margin > 0.0 {
            "is better than UCT"
        } else {
            "is worse than UCT"
        };
        lines.push(format!(
            "{} {what} (mean margin {margin:+.2} points per tile sequence, Holm p {})",
            pr.names[other],
            fmt_p(t.p_holm)
        ));
    }
    let _ = writeln!(
        s,
        "\n**Against UCT (K = {}).** {}.\n",
        pr.runs.len(),
        lines.join("; ")
    );
}

/// Tables IX–XI: a pointer to the ES study, which explains them, and the finalists league if
/// it was run.
fn finalists_section(s: &mut String, input: &MarkdownInput) {
    let _ = writeln!(s, "\n## Tables IX, X and XI: the finalists\n");
    match &input.es_study {
        Some(link) => {
            let _ = writeln!(
                s,
                "These are the ES study's tables: see [{link}]({link}), which explains them. The paper's internal inconsistencies of Tables IX and X are flagged above."
            );
        }
        None => {
            let _ = writeln!(
                s,
                "These are the ES study's tables: its report, [es-study.md](es-study.md), explains them (it was not yet in this tree when this report was generated). The paper's internal inconsistencies of Tables IX and X are flagged above."
            );
        }
    }
    let fin = preset(input, "finalists");
    incomplete_note(s, input, "finalists");
    match (fin, input.published.league("finalists")) {
        (Some(pr), Some(lg)) => {
            let _ = writeln!(
                s,
                "\nThe finalists league as it runs today ({} seed(s); the most expensive preset, not repeated over K seeds):\n",
                pr.runs.len()
            );
            side_by_side(s, lg, pr);
        }
        _ => {
            let _ = writeln!(
                s,
                "\nThe finalists league (`runs/paper/finalists.ron`, the most expensive preset) was not run for this report; `evomcts replicate --finalists` adds it.\n"
            );
        }
    }
}

/// The runs of preset `name`, if it has a complete seed.
fn preset<'a>(input: &'a MarkdownInput, name: &str) -> Option<&'a PresetRuns> {
    input
        .presets
        .iter()
        .find(|p| p.preset == name && !p.runs.is_empty())
}

/// A note for each unfinished seed of preset `name`, which the tables leave out.
fn incomplete_note(s: &mut String, input: &MarkdownInput, name: &str) {
    if let Some(pr) = input.presets.iter().find(|x| x.preset == name) {
        for (seed, have, want) in &pr.incomplete {
            let _ = writeln!(
                s,
                "_Seed {seed} of `{name}` is unfinished ({have} of {want} games) and is not counted._\n"
            );
        }
    }
}

fn index_of(names: &[String], name: &str) -> Option<usize> {
    names.iter().position(|n| n == name)
}

/// `e`'s wins, losses and draws in the seat `first` (true) or second, over the games of `t`.
fn seat_record(t: &Tables, e: usize, first: bool) -> Wld {
    let mut r = (0, 0, 0);
    for m in &t.matches {
        if first && m.first == e {
            r = (r.0 + m.first_wins, r.1 + m.second_wins, r.2 + m.draws);
        } else if !first && m.second == e {
            r = (r.0 + m.second_wins, r.1 + m.first_wins, r.2 + m.draws);
        }
    }
    r
}

fn wld(x: Wld) -> String {
    format!("{}-{}-{}", x.0, x.1, x.2)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A value that prints as "-0.00" prints as "+0.00".
fn no_minus_zero(x: f64) -> f64 {
    if x.abs() < 0.005 {
        0.0
    } else {
        x
    }
}
