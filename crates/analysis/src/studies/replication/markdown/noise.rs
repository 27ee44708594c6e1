//! The noise between seeds: where each controller ranked over the K seeds, every pair tested
//! over the pooled seeds, and which of the paper's orderings and winners those tests bear out.

use super::*;

/// The noise section of one preset: rank distribution, pooled win rates, pairwise tests.
pub(super) fn noise_section(s: &mut String, pr: &PresetRuns) -> Vec<PairTest> {
    rank_table(s, pr);
    pair_test_table(s, pr)
}

/// Each controller's ranks over the seeds, its points and PD, and its pooled win rate, the
/// best on mean points first.
fn rank_table(s: &mut String, pr: &PresetRuns) {
    let n = pr.names.len();
    let k = pr.runs.len();
    let _ = writeln!(
        s,
        "Over K = {k} seeds ({}), {} games per seed. Rank: position in the seed's standings (points, then PD, then match wins, as the league ranks; exact ties keep the entry order). Win rate: games won plus half the drawn, pooled over seeds, with the 95% Wilson interval.\n",
        pr.runs.iter().map(|r| r.seed.to_string()).collect::<Vec<_>>().join(", "),
        pr.runs.first().map_or(0, |r| r.games.len()),
    );
    let mut head: Vec<String> = vec!["Controller".into()];
    head.extend((1..=n).map(|p| format!("rank {p}")));
    head.extend([
        "points mean (min–max)".into(),
        "PD per game, mean over seeds".into(),
        "win rate [95%]".into(),
        "games".into(),
    ]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| mean_points(pr, b).total_cmp(&mean_points(pr, a)));
    let rows: Vec<Vec<String>> = order.into_iter().map(|e| rank_row(pr, e)).collect();
    let head_ref: Vec<&str> = head.iter().map(|h| h.as_str()).collect();
    s.push_str(&md_table(&head_ref, &rows));
}

/// Entrant `e`'s standing in seed `r`.
fn standing(r: &SeedRun, e: usize) -> &evomcts_league::Standing {
    r.tables.standings.iter().find(|x| x.entrant == e).unwrap()
}

/// Entrant `e`'s points, averaged over the seeds of `pr`.
fn mean_points(pr: &PresetRuns, e: usize) -> f64 {
    pr.runs
        .iter()
        .map(|r| f64::from(standing(r, e).points))
        .sum::<f64>()
        / pr.runs.len().max(1) as f64
}

/// Entrant `e`'s row of the rank table.
fn rank_row(pr: &PresetRuns, e: usize) -> Vec<String> {
    let k = pr.runs.len();
    let mut counts = vec![0usize; pr.names.len()];
    let mut pts = Vec::new();
    let mut pd = 0.0;
    for r in &pr.runs {
        let st = standing(r, e);
        counts[st.position - 1] += 1;
        pts.push(st.points);
        pd += st.point_difference;
    }
    let (w, lo, hi, games) = pooled_win_rate(&pr.runs, e);
    let mut row = vec![pr.names[e].clone()];
    row.extend(counts.iter().map(|c| c.to_string()));
    row.push(format!(
        "{:.1} ({}–{})",
        mean_points(pr, e),
        pts.iter().min().unwrap_or(&0),
        pts.iter().max().unwrap_or(&0)
    ));
    row.push(format!("{:+.2}", pd / k.max(1) as f64));
    row.push(format!("{} [{}, {}]", pct(w), pct(lo), pct(hi)));
    row.push(games.to_string());
    row
}

/// Every pair of `pr`'s controllers tested over the pooled seeds, as a table; the tests are
/// returned for the sentences that read them.
fn pair_test_table(s: &mut String, pr: &PresetRuns) -> Vec<PairTest> {
    let tests = pair_tests(&pr.runs, pr.names.len());
    let _ = writeln!(
        s,
        "\nPairwise, pooled over the {} seeds: A's margin on each tile sequence is the mean of its two games on it (one in each seat), so the Wilcoxon signed-rank test is paired by tiles; p is two-sided, Holm-adjusted over the table's {} pairs. A's share: A's games won plus half the drawn, with the 95% Wilson interval.\n",
        pr.runs.len(),
        tests.len()
    );
    let rows: Vec<Vec<String>> = tests
        .iter()
        .map(|t| {
            vec![
                pr.names[t.a].clone(),
                pr.names[t.b].clone(),
                t.pairs.to_string(),
                format!("{:+.2}", t.mean_margin),
                fmt_p(t.p_value),
                fmt_p(t.p_holm),
                format!("{}-{}-{}", t.a_wins, t.b_wins, t.draws),
                format!(
                    "{} [{}, {}]",
                    pct(t.a_share),
                    pct(t.a_share_low),
                    pct(t.a_share_high)
                ),
            ]
        })
        .collect();
    s.push_str(&md_table(
        &[
            "A",
            "B",
            "tile pairs",
            "A's mean margin",
            "p",
            "p (Holm)",
            "A W-L-D",
            "A's share [95%]",
        ],
        &rows,
    ));
    tests
}

/// "Of the paper's orderings ..." for a ranking given best first.
pub(super) fn orderings_sentence(
    s: &mut String,
    table: &str,
    ranked: &[String],
    names: &[String],
    tests: &[PairTest],
    k: usize,
) {
    let mut survive = Vec::new();
    let mut reversed = Vec::new();
    let mut open = Vec::new();
    for i in 0..ranked.len() {
        for j in i + 1..ranked.len() {
            let (Some(a), Some(b)) = (index_of(names, &ranked[i]), index_of(names, &ranked[j]))
            else {
                continue;
            };
            let Some((v, _)) = verdict(tests, a, b) else {
                continue;
            };
            let text = format!("{} above {}", ranked[i], ranked[j]);
            match v {
                Verdict::Survives => survive.push(text),
                Verdict::Reversed => reversed.push(text),
                Verdict::Unresolved => open.push(text),
            }
        }
    }
    let list = |v: &Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join("; ")
        }
    };
    let total = survive.len() + reversed.len() + open.len();
    let _ = writeln!(
        s,
        "\n**Which of the paper's orderings survive ({table}, K = {k}).** Of the paper's {total} pairwise orderings: survive (our pooled paired test agrees, Holm p < 0.05): {}, {}. Reversed (significant the other way): {}, {}. Not resolved by our games (no significant difference): {}, {}.\n",
        survive.len(),
        list(&survive),
        reversed.len(),
        list(&reversed),
        open.len(),
        list(&open),
    );
}

/// In how many seeds the paper's winner `first` finished first, alone or level.
pub(super) fn paper_winner_sentence(s: &mut String, pr: &PresetRuns, first: &str) {
    let Some(e) = index_of(&pr.names, first) else {
        return;
    };
    // First, or tied with the leader on points and PD (then the order is arbitrary).
    let level = |r: &SeedRun, x: &evomcts_league::Standing| {
        let top = &r.tables.standings[0];
        x.points == top.points && (x.point_difference - top.point_difference).abs() < 1e-9
    };
    let mut tops = 0;
    let mut alone = 0;
    for r in &pr.runs {
        if level(r, standing(r, e)) {
            tops += 1;
            if r.tables.standings.iter().filter(|x| level(r, x)).count() == 1 {
                alone += 1;
            }
        }
    }
    let _ = writeln!(
        s,
        "The paper's winner, {first}, finished first or level with the first on points and PD in {tops} of our {} seeds, first alone in {alone}.\n",
        pr.runs.len()
    );
}
