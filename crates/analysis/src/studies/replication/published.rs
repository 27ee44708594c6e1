//! The main paper's published numbers as data (`runs/paper/published.ron`) and the checks of
//! the paper's own arithmetic computed from them: rankings recomputed from the printed match
//! tables, and every flag the printed numbers raise about themselves.

use super::*;
use evomcts_league::MatchRecord;

/// Table IV: one row per controller.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RewardRow {
    pub name: String,
    pub as_first: Wld,
    pub as_second: Wld,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedReward {
    pub table: String,
    pub preset: String,
    /// Games each controller played in each seat.
    pub games: u32,
    pub rows: Vec<RewardRow>,
}

/// One row of a ranking table (VI, VIII, X) as printed.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedStanding {
    pub name: String,
    pub points: u32,
    pub bwp: u32,
    pub blp: u32,
    pub w: u32,
    pub l: u32,
    pub d: u32,
    pub pd: f64,
}

/// A match table (V, VII, IX) and its ranking table.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedLeague {
    pub matches_table: String,
    pub standings_table: String,
    pub preset: String,
    pub games_per_match: u32,
    pub names: Vec<String>,
    /// `matrix[i][j]`: wins of row i (first) and of column j (second), `None` for "-".
    pub matrix: Vec<Vec<Option<(u32, u32)>>>,
    pub standings: Vec<PublishedStanding>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    pub reward: PublishedReward,
    pub leagues: Vec<PublishedLeague>,
}

impl Published {
    /// Reads `published.ron` (the spec files' RON dialect); errors name the file and the line
    /// and column or the field.
    pub fn from_file(path: &std::path::Path) -> Result<Published, SpecFileError> {
        Self::from_ron(&read_spec_text(path)?, &path.display().to_string())
    }

    pub fn from_ron(text: &str, file: &str) -> Result<Published, SpecFileError> {
        parse_spec(text, file, Published::validate)
    }

    /// Shapes and sums: a square matrix over the names, no cell with more wins than games,
    /// every ranking row naming a controller of the table once.
    pub fn validate(&self) -> Result<(), (String, String)> {
        for (i, r) in self.reward.rows.iter().enumerate() {
            for (seat, (w, l, d)) in [("as_first", r.as_first), ("as_second", r.as_second)] {
                if w + l + d != self.reward.games {
                    return Err((
                        format!("reward.rows[{i}].{seat}"),
                        format!(
                            "{w} + {l} + {d} games, expected {} (reward.games)",
                            self.reward.games
                        ),
                    ));
                }
            }
        }
        for (k, lg) in self.leagues.iter().enumerate() {
            let at = |f: &str| format!("leagues[{k}].{f}");
            let n = lg.names.len();
            if n < 2 {
                return Err((at("names"), "needs at least two controllers".into()));
            }
            if lg.matrix.len() != n {
                return Err((
                    at("matrix"),
                    format!("{} rows for {n} names", lg.matrix.len()),
                ));
            }
            for (i, row) in lg.matrix.iter().enumerate() {
                if row.len() != n {
                    return Err((
                        at(&format!("matrix[{i}]")),
                        format!("{} cells for {n} names", row.len()),
                    ));
                }
                if row[i].is_some() {
                    return Err((
                        at(&format!("matrix[{i}][{i}]")),
                        "the diagonal is None".into(),
                    ));
                }
                for (j, cell) in row.iter().enumerate() {
                    if let Some((a, b)) = cell {
                        if a + b > lg.games_per_match {
                            return Err((
                                at(&format!("matrix[{i}][{j}]")),
                                format!("{a} + {b} wins in a match of {}", lg.games_per_match),
                            ));
                        }
                    }
                }
            }
            let mut seen = vec![false; n];
            for (i, s) in lg.standings.iter().enumerate() {
                let Some(e) = lg.names.iter().position(|x| *x == s.name) else {
                    return Err((
                        at(&format!("standings[{i}].name")),
                        format!("`{}` is not in names", s.name),
                    ));
                };
                if std::mem::replace(&mut seen[e], true) {
                    return Err((
                        at(&format!("standings[{i}].name")),
                        format!("`{}` is ranked twice", s.name),
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn league(&self, preset: &str) -> Option<&PublishedLeague> {
        self.leagues.iter().find(|l| l.preset == preset)
    }
}

/// The matches of a published matrix as `MatchResult`s (entrant indices in `names` order);
/// the games a cell's wins leave out are counted as draws, as the paper's text says.
pub fn published_matches(lg: &PublishedLeague) -> Vec<MatchResult> {
    let mut out = Vec::new();
    for (i, row) in lg.matrix.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            if let Some((a, b)) = *cell {
                out.push(MatchResult {
                    first: i,
                    second: j,
                    games: lg.games_per_match,
                    first_wins: a,
                    second_wins: b,
                    draws: lg.games_per_match - a - b,
                    score_difference_sum: 0,
                });
            }
        }
    }
    out
}

/// A ranking row recomputed from a match table with the league's own points rule.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Recomputed {
    pub name: String,
    pub record: MatchRecord,
}

/// The ranking rows (in `names` order) that a match table implies under `rules`.
pub fn recompute_standings(lg: &PublishedLeague, rules: &BonusRules) -> Vec<Recomputed> {
    let matches = published_matches(lg);
    lg.names
        .iter()
        .zip(match_records(lg.names.len(), &matches, rules))
        .map(|(name, record)| Recomputed {
            name: name.clone(),
            record,
        })
        .collect()
}

/// One printed number that the paper's own match table does not give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Discrepancy {
    pub table: String,
    pub name: String,
    pub field: &'static str,
    pub printed: u32,
    pub computed: u32,
}

/// The printed ranking against the ranking recomputed from the printed matches.
pub fn standings_discrepancies(lg: &PublishedLeague, rules: &BonusRules) -> Vec<Discrepancy> {
    let rec = recompute_standings(lg, rules);
    let mut out = Vec::new();
    for s in &lg.standings {
        let r = &rec
            .iter()
            .find(|r| r.name == s.name)
            .expect("validated")
            .record;
        for (field, printed, computed) in [
            ("Points", s.points, r.points),
            ("BWP", s.bwp, r.bonus_win),
            ("BLP", s.blp, r.bonus_loss),
            ("W", s.w, r.wins),
            ("L", s.l, r.losses),
            ("D", s.d, r.draws),
        ] {
            if printed != computed {
                out.push(Discrepancy {
                    table: lg.standings_table.clone(),
                    name: s.name.clone(),
                    field,
                    printed,
                    computed,
                });
            }
        }
    }
    out
}

/// Every flag the published numbers raise about themselves, as sentences.
pub fn paper_flags(p: &Published, rules: &BonusRules, score_bound: f64) -> Vec<String> {
    let mut flags = reward_flags(&p.reward);
    for lg in &p.leagues {
        cell_flags(&mut flags, lg);
        let disc = standings_discrepancies(lg, rules);
        counted_match_flags(&mut flags, lg, &disc);
        bonus_rule_flags(&mut flags, lg, rules, &disc);
        pd_flags(&mut flags, lg, rules, score_bound);
    }
    flags
}

/// Table IV's two rows describe the same games, so each one's record as Player 1 is the
/// other's as Player 2 reversed.
fn reward_flags(r: &PublishedReward) -> Vec<String> {
    let mut flags = Vec::new();
    if r.rows.len() == 2 {
        let (a, b) = (&r.rows[0], &r.rows[1]);
        for (x, y) in [(a, b), (b, a)] {
            let (w, l, d) = x.as_first;
            if (w, l, d) != (y.as_second.1, y.as_second.0, y.as_second.2) {
                flags.push(format!(
                    "Table {}: {} as Player 1 is {w}-{l}-{d} but {} as Player 2 is {}-{}-{}; the two rows describe the same games.",
                    r.table, x.name, y.name, y.as_second.0, y.as_second.1, y.as_second.2
                ));
            }
        }
    }
    flags
}

/// A match table's cells that are missing, or that alone fall short of the games a match
/// has, in the table's order.
fn cell_flags(flags: &mut Vec<String>, lg: &PublishedLeague) {
    let t = format!("Table {}", lg.matches_table);
    let n = lg.names.len();
    for i in 0..n {
        for j in 0..n {
            if i != j && lg.matrix[i][j].is_none() {
                flags.push(format!(
                    "{t}: the match {} (Player 1) against {} (Player 2) is missing (printed \"-\"), so {} and {} have {} matches each instead of {}.",
                    lg.names[i], lg.names[j], lg.names[i], lg.names[j], 2 * (n - 1) - 1, 2 * (n - 1)
                ));
            }
            if let Some((a, b)) = lg.matrix[i][j] {
                let missing = lg.games_per_match - a - b;
                // Table V/VII have draws in several cells; flag only where the table
                // otherwise has none, since a draw is then the odd reading.
                let others_short = lg
                    .matrix
                    .iter()
                    .flatten()
                    .flatten()
                    .filter(|(x, y)| x + y < lg.games_per_match)
                    .count();
                if missing > 0 && others_short == 1 {
                    flags.push(format!(
                        "{t}: {} against {} is {a}-{b}, {} games of {}; every other cell of the table adds up to {}. Read as the paper's text says, {missing} games were drawn; otherwise the match had {} games.",
                        lg.names[i], lg.names[j], a + b, lg.games_per_match, lg.games_per_match, a + b
                    ));
                }
            }
        }
    }
}

/// Does the ranking count a missing match as played? Then one side's printed W and the
/// other's printed L each exceed the match table's by one.
fn counted_match_flags(flags: &mut Vec<String>, lg: &PublishedLeague, disc: &[Discrepancy]) {
    let off_by_one = |name: &str, field: &str| {
        disc.iter()
            .any(|d| d.name == name && d.field == field && d.printed == d.computed + 1)
    };
    let n = lg.names.len();
    for i in 0..n {
        for j in 0..n {
            if i == j || lg.matrix[i][j].is_some() {
                continue;
            }
            for (winner, loser) in [(i, j), (j, i)] {
                if off_by_one(&lg.names[winner], "W") && off_by_one(&lg.names[loser], "L") {
                    flags.push(format!(
                        "Table {}: {}'s W and {}'s L are each one more than Table {} gives, as if the missing match had been played and won by {}.",
                        lg.standings_table, lg.names[winner], lg.names[loser], lg.matches_table, lg.names[winner]
                    ));
                }
            }
        }
    }
}

/// The standings that do not follow from the match table under Table III's rule (`disc`),
/// and how many of them the public code's bonus rule would explain.
fn bonus_rule_flags(
    flags: &mut Vec<String>,
    lg: &PublishedLeague,
    strict: &BonusRules,
    disc: &[Discrepancy],
) {
    if disc.is_empty() {
        return;
    }
    let public_code = BonusRules {
        bonus_win_share: 0.70,
        bonus_win_strict: false,
        ..strict.clone()
    };
    let alt = standings_discrepancies(lg, &public_code);
    let list: Vec<String> = disc
        .iter()
        .map(|d| {
            format!(
                "{} {} printed {}, computed {}",
                d.name, d.field, d.printed, d.computed
            )
        })
        .collect();
    let bwp_alt: Vec<String> = recompute_standings(lg, &public_code)
        .iter()
        .zip(recompute_standings(lg, strict))
        .filter(|(a, b)| a.record.bonus_win != b.record.bonus_win)
        .map(|(a, b)| {
            format!(
                "{} {} (strictly above 75%: {})",
                a.name, a.record.bonus_win, b.record.bonus_win
            )
        })
        .collect();
    flags.push(format!(
        "Table {} does not follow from Table {} under Table III's rule (bonus win above 75%, bonus loss at a winner's share of at most 55%): {}.{}{}",
        lg.standings_table,
        lg.matches_table,
        list.join("; "),
        if bwp_alt.is_empty() {
            String::new()
        } else {
            format!(
                " With the public code's rule (bonus win at 70% or more) the bonus win points would be: {}.",
                bwp_alt.join("; ")
            )
        },
        if alt.len() < disc.len() {
            format!(" That rule leaves {} of the {} differences.", alt.len(), disc.len())
        } else {
            String::new()
        }
    ));
}

/// A PD column that does not sum to zero, and PDs too large to be means per game.
fn pd_flags(flags: &mut Vec<String>, lg: &PublishedLeague, rules: &BonusRules, score_bound: f64) {
    let pd_sum: f64 = lg.standings.iter().map(|s| s.pd).sum();
    let tolerance = 0.005 * lg.standings.len() as f64 + 1e-9;
    if pd_sum.abs() > tolerance {
        flags.push(format!(
            "Table {}: the PD column sums to {pd_sum:+.2}, not 0; with every game counted once for each side a point difference sums to zero (Tables with all matches complete do).",
            lg.standings_table
        ));
    }
    let rec = recompute_standings(lg, rules);
    for s in &lg.standings {
        if s.pd.abs() > score_bound {
            let matches = rec
                .iter()
                .find(|r| r.name == s.name)
                .map_or(0, |r| r.record.matches);
            flags.push(format!(
                "Table {}: {}'s PD {:+.2} exceeds {score_bound:.0}, the most any player can score in one game, so it is not a mean per game; over its {matches} matches it is {:+.2} per match, which reads as a sum of per-match means (our PD is a mean per game; the report shows ours both ways).",
                lg.standings_table, s.name, s.pd, s.pd / matches.max(1) as f64
            ));
        }
    }
}
