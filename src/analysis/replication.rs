//! The paper's tables beside ours: the published numbers of the main paper as data
//! (`runs/paper/published.ron`), the checks of the paper's own arithmetic computed from them,
//! and the report `evomcts replicate` writes from K seeds of every preset's run folders.
//!
//! Every statistic comes from `league::stats` (Wilcoxon signed-rank, Wilson interval) and every
//! table from `league::Tables`; this module only gathers, pairs and prints.

use crate::league::standings::match_records;
use crate::league::{BonusRules, LeagueGame, MatchResult, Tables};
use crate::runfs::{parse_spec, read_spec_text, SpecFileError};
use crate::stats::{wilcoxon_signed_rank, wilson_interval};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Wins, losses and draws.
pub type Wld = (u32, u32, u32);

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
    pub points: u32,
    pub bwp: u32,
    pub blp: u32,
    pub w: u32,
    pub l: u32,
    pub d: u32,
    pub matches: u32,
}

/// The ranking rows (in `names` order) that a match table implies under `rules`.
pub fn recompute_standings(lg: &PublishedLeague, rules: &BonusRules) -> Vec<Recomputed> {
    let matches = published_matches(lg);
    lg.names
        .iter()
        .zip(match_records(lg.names.len(), &matches, rules))
        .map(|(name, m)| Recomputed {
            name: name.clone(),
            points: m.points,
            bwp: m.bonus_win,
            blp: m.bonus_loss,
            w: m.wins,
            l: m.losses,
            d: m.draws,
            matches: m.matches,
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
        let r = rec.iter().find(|r| r.name == s.name).expect("validated");
        for (field, printed, computed) in [
            ("Points", s.points, r.points),
            ("BWP", s.bwp, r.bwp),
            ("BLP", s.blp, r.blp),
            ("W", s.w, r.w),
            ("L", s.l, r.l),
            ("D", s.d, r.d),
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
    let mut flags = Vec::new();
    let r = &p.reward;
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
    let strict = rules.clone();
    let public_code = BonusRules {
        bonus_win_share: 0.70,
        bonus_win_strict: false,
        ..rules.clone()
    };
    for lg in &p.leagues {
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
        let disc = standings_discrepancies(lg, &strict);
        // Does the ranking count a missing match as played? Then one side's printed W and
        // the other's printed L each exceed the match table's by one.
        let off_by_one = |name: &str, field: &str| {
            disc.iter()
                .any(|d| d.name == name && d.field == field && d.printed == d.computed + 1)
        };
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
        if !disc.is_empty() {
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
                .zip(recompute_standings(lg, &strict))
                .filter(|(a, b)| a.bwp != b.bwp)
                .map(|(a, b)| format!("{} {} (strictly above 75%: {})", a.name, a.bwp, b.bwp))
                .collect();
            flags.push(format!(
                "Table {} does not follow from {t} under Table III's rule (bonus win above 75%, bonus loss at a winner's share of at most 55%): {}.{}{}",
                lg.standings_table,
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
        let pd_sum: f64 = lg.standings.iter().map(|s| s.pd).sum();
        let tolerance = 0.005 * lg.standings.len() as f64 + 1e-9;
        if pd_sum.abs() > tolerance {
            flags.push(format!(
                "Table {}: the PD column sums to {pd_sum:+.2}, not 0; with every game counted once for each side a point difference sums to zero (Tables with all matches complete do).",
                lg.standings_table
            ));
        }
        let rec = recompute_standings(lg, &strict);
        for s in &lg.standings {
            if s.pd.abs() > score_bound {
                let matches = rec
                    .iter()
                    .find(|r| r.name == s.name)
                    .map_or(0, |r| r.matches);
                flags.push(format!(
                    "Table {}: {}'s PD {:+.2} exceeds {score_bound:.0}, the most any player can score in one game, so it is not a mean per game; over its {matches} matches it is {:+.2} per match, which reads as a sum of per-match means (our PD is a mean per game; the report shows ours both ways).",
                    lg.standings_table, s.name, s.pd, s.pd / matches.max(1) as f64
                ));
            }
        }
    }
    flags
}

/// Our runs of one preset: one `Tables` per complete seed.
#[derive(Clone, Debug)]
pub struct SeedRun {
    pub seed: u64,
    pub tables: Tables,
    pub games: Vec<LeagueGame>,
    /// Wall seconds recorded for this folder (sum over invocations), and the CPUs.
    pub wall_seconds: f64,
    pub threads: Vec<usize>,
    pub cpu: Option<String>,
}

/// One line of `wall.jsonl`, which `evomcts replicate` appends after each run of a folder.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WallLine {
    pub played: usize,
    pub seconds: f64,
    pub threads: usize,
    pub cpus: usize,
    pub cpu: String,
    pub finished: String,
}

/// An entrant's PD as the paper seems to print it: the sum over its matches of the match's
/// mean score difference from its side.
pub fn pd_sum_of_match_means(t: &Tables, entrant: usize) -> f64 {
    t.matches
        .iter()
        .filter(|m| m.games > 0)
        .map(|m| {
            if m.first == entrant {
                m.average_difference()
            } else if m.second == entrant {
                -m.average_difference()
            } else {
                0.0
            }
        })
        .sum()
}

/// `a`'s mean margin over `b` on each tile sequence: game i of (a, b) and game i of (b, a)
/// share their tiles, so their two margins for `a` are averaged into one paired value.
pub fn paired_margins(games: &[LeagueGame], a: usize, b: usize) -> Vec<f64> {
    let mut by_index: BTreeMap<u32, [Option<f64>; 2]> = BTreeMap::new();
    for g in games {
        let id = g.job.id;
        let d = g.game.score_difference() as f64;
        if id.first == a && id.second == b {
            by_index.entry(id.index).or_default()[0] = Some(d);
        } else if id.first == b && id.second == a {
            by_index.entry(id.index).or_default()[1] = Some(-d);
        }
    }
    by_index
        .values()
        .filter_map(|p| match p {
            [Some(x), Some(y)] => Some((x + y) / 2.0),
            _ => None,
        })
        .collect()
}

/// `a`'s games against `b` in both seats: wins, losses, draws.
pub fn head_to_head(games: &[LeagueGame], a: usize, b: usize) -> Wld {
    let mut r = (0, 0, 0);
    for g in games {
        let id = g.job.id;
        let d = g.game.score_difference();
        let d = if id.first == a && id.second == b {
            d
        } else if id.first == b && id.second == a {
            -d
        } else {
            continue;
        };
        match d.signum() {
            1 => r.0 += 1,
            -1 => r.1 += 1,
            _ => r.2 += 1,
        }
    }
    r
}

/// A pairwise comparison pooled over seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairTest {
    pub a: usize,
    pub b: usize,
    /// Tile sequences played in both seatings.
    pub pairs: usize,
    pub mean_margin: f64,
    pub p_value: f64,
    /// Holm-adjusted over the table's pairs.
    pub p_holm: f64,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
    pub a_share: f64,
    pub a_share_low: f64,
    pub a_share_high: f64,
}

/// Holm's step-down adjustment of a family of p-values (same order as given).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let m = p.len();
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Every unordered pair (a < b) tested on the games of all seeds, Holm-adjusted.
pub fn pair_tests(runs: &[SeedRun], n: usize) -> Vec<PairTest> {
    let mut tests = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let mut margins = Vec::new();
            let (mut w, mut l, mut d) = (0, 0, 0);
            for r in runs {
                margins.extend(paired_margins(&r.games, a, b));
                let h = head_to_head(&r.games, a, b);
                w += h.0;
                l += h.1;
                d += h.2;
            }
            let wx = wilcoxon_signed_rank(&margins);
            let games = f64::from(w + l + d);
            let won = f64::from(w) + f64::from(d) / 2.0;
            let (lo, hi) = wilson_interval(won, games);
            tests.push(PairTest {
                a,
                b,
                pairs: margins.len(),
                mean_margin: margins.iter().sum::<f64>() / margins.len().max(1) as f64,
                p_value: wx.p_value,
                p_holm: 1.0,
                a_wins: w,
                b_wins: l,
                draws: d,
                a_share: if games > 0.0 { won / games } else { 0.0 },
                a_share_low: lo,
                a_share_high: hi,
            });
        }
    }
    let adj = holm(&tests.iter().map(|t| t.p_value).collect::<Vec<_>>());
    for (t, p) in tests.iter_mut().zip(adj) {
        t.p_holm = p;
    }
    tests
}

/// What our K seeds say about one of the paper's orderings "a above b".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Ours favours a, Holm-adjusted p < 0.05.
    Survives,
    /// Ours favours b, Holm-adjusted p < 0.05.
    Reversed,
    /// No significant difference.
    Unresolved,
}

pub fn verdict(tests: &[PairTest], a: usize, b: usize) -> Option<(Verdict, &PairTest)> {
    let t = tests.iter().find(|t| (t.a, t.b) == (a.min(b), a.max(b)))?;
    let margin_for_a = if t.a == a {
        t.mean_margin
    } else {
        -t.mean_margin
    };
    let v = if t.p_holm >= 0.05 {
        Verdict::Unresolved
    } else if margin_for_a > 0.0 {
        Verdict::Survives
    } else {
        Verdict::Reversed
    };
    Some((v, t))
}

/// Pooled game win rate (a draw counts one half) of entrant `e` over all seeds, with its
/// Wilson interval.
pub fn pooled_win_rate(runs: &[SeedRun], e: usize) -> (f64, f64, f64, u32) {
    let (mut won, mut games) = (0.0, 0u32);
    for r in runs {
        let s = r
            .tables
            .standings
            .iter()
            .find(|s| s.entrant == e)
            .expect("entrant");
        won += f64::from(s.game_wins) + f64::from(s.game_draws) / 2.0;
        games += s.games;
    }
    let (lo, hi) = wilson_interval(won, f64::from(games));
    (won / f64::from(games.max(1)), lo, hi, games)
}

/// Moves of the Star league's paired games (game i of A-vs-B and of B-vs-A share tiles):
/// how many pairs have identical move sequences, and how many moves agree before the first
/// difference out of all moves of the pairs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PairedMoves {
    pub pairs: usize,
    pub identical_pairs: usize,
    pub agreeing_moves: usize,
    pub moves: usize,
}

pub fn paired_move_agreement(games: &[LeagueGame]) -> PairedMoves {
    let mut by_id = BTreeMap::new();
    for g in games {
        by_id.insert((g.job.id.first, g.job.id.second, g.job.id.index), g);
    }
    let mut out = PairedMoves::default();
    for (&(a, b, i), g) in &by_id {
        if a > b {
            continue;
        }
        let Some(h) = by_id.get(&(b, a, i)) else {
            continue;
        };
        out.pairs += 1;
        let (x, y) = (&g.game.moves, &h.game.moves);
        let agree = x.iter().zip(y).take_while(|(p, q)| p == q).count();
        out.agreeing_moves += agree;
        out.moves += x.len().max(y.len());
        if x == y {
            out.identical_pairs += 1;
        }
    }
    out
}

/// Markdown table helper.
pub fn md_table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| {} |", head.join(" | "));
    let _ = writeln!(
        s,
        "|{}|",
        head.iter().map(|_| "---").collect::<Vec<_>>().join("|")
    );
    for r in rows {
        let _ = writeln!(s, "| {} |", r.join(" | "));
    }
    s
}

/// A p-value as text.
pub fn fmt_p(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else {
        format!("{p:.3}")
    }
}

/// Every complete seed folder of one preset (`<out>/<preset>/seed-<s>/`), and the folders
/// that are not complete yet.
#[derive(Clone, Debug)]
pub struct PresetRuns {
    pub preset: String,
    pub names: Vec<String>,
    pub games_per_match: u32,
    pub runs: Vec<SeedRun>,
    /// (seed, games recorded, games scheduled) of unfinished folders.
    pub incomplete: Vec<(u64, usize, usize)>,
}

/// Reads the seed folders of `preset` under `out`, in seed order. A folder whose records do
/// not load is an error naming it; an unfinished one is listed, not used.
pub fn load_preset_runs(
    out: &std::path::Path,
    preset: &str,
) -> Result<Option<PresetRuns>, crate::league::LoadError> {
    let dir = out.join(preset);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(None);
    };
    let mut seeds: Vec<(u64, std::path::PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let seed = name.strip_prefix("seed-")?.parse().ok()?;
            e.path().join("spec.ron").exists().then(|| (seed, e.path()))
        })
        .collect();
    seeds.sort();
    let mut out_runs = PresetRuns {
        preset: preset.to_string(),
        names: Vec::new(),
        games_per_match: 0,
        runs: Vec::new(),
        incomplete: Vec::new(),
    };
    for (seed, path) in seeds {
        let (spec, games, _report) = crate::league::load_runs(std::slice::from_ref(&path))?;
        let scheduled =
            crate::league::schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
        if games.len() < scheduled {
            out_runs.incomplete.push((seed, games.len(), scheduled));
            continue;
        }
        let names = spec.names();
        let tables = Tables::from_games(&names, spec.games_per_match, &spec.bonus, &games);
        let walls: Vec<WallLine> = crate::runfs::read_capped_text(
            &path.join("wall.jsonl"),
            crate::runfs::MAX_DATA_FILE_BYTES,
            "wall times",
        )
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
        out_runs.names = names;
        out_runs.games_per_match = spec.games_per_match;
        out_runs.runs.push(SeedRun {
            seed,
            tables,
            games,
            wall_seconds: walls.iter().map(|w| w.seconds).sum(),
            threads: walls.iter().map(|w| w.threads).collect(),
            cpu: walls
                .last()
                .map(|w| format!("{} ({} logical CPUs)", w.cpu, w.cpus)),
        });
    }
    Ok(Some(out_runs))
}

/// One bound setting of the Star decision comparison.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StarBoundsResult {
    pub label: String,
    pub lower: f64,
    pub upper: f64,
    /// Positions where Star1, Star2 and Star2.5 chose the same move.
    pub all_agree: usize,
    /// Per variant: positions where it chose the move Star1 chooses under true bounds.
    pub agree_with_exact: Vec<usize>,
    /// Per variant: mean nodes and mean milliseconds per decision (one thread).
    pub mean_nodes: Vec<f64>,
    pub mean_ms: Vec<f64>,
}

/// Star1, Star2 and Star2.5 asked the same questions: positions of a Star league's games.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StarDecisions {
    pub source: String,
    pub every: usize,
    pub positions: usize,
    pub variants: Vec<String>,
    pub settings: Vec<StarBoundsResult>,
    /// Positions whose evaluation range reached the paper's ±100 (largest |virtual score
    /// difference| over the positions, as a hint whether ±100 can be unsound there).
    pub max_abs_score_difference: i32,
}

/// Replays `games` and, at every `every`-th decision, asks Star1/2/2.5 (depth 2) under true
/// bounds, the paper's ±100 and each of `narrow` (symmetric bounds ±b).
pub fn star_decisions(
    games: &[LeagueGame],
    every: usize,
    narrow: &[f64],
    source: &str,
) -> Result<StarDecisions, String> {
    use crate::game::{GameState, Reveal};
    use crate::search::star::{StarSearcher, StarSettings};
    let every = every.max(1);
    let mut positions = Vec::new();
    let mut counter = 0usize;
    let mut max_abs = 0i32;
    for g in games {
        let rec = &g.game;
        let mut state = GameState::new(rec.rules);
        let mut moves = rec.moves.iter();
        for &tile in &rec.draws {
            match state.reveal(tile).map_err(|e| e.to_string())? {
                Reveal::Ready => {
                    let mv = *moves.next().ok_or("a record ran out of moves")?;
                    if counter.is_multiple_of(every) {
                        let v = state.virtual_scores();
                        max_abs = max_abs.max((v[0] - v[1]).abs());
                        positions.push(state.clone());
                    }
                    counter += 1;
                    state.apply(mv).map_err(|e| e.to_string())?;
                }
                Reveal::Discarded | Reveal::ReturnedToBottom => {}
            }
        }
    }
    let variants = [
        ("Star1", StarSettings::star1()),
        ("Star2", StarSettings::star2()),
        ("Star2.5", StarSettings::star25()),
    ];
    let bound = StarSettings::star1().evaluation.bound();
    let mut bounds = vec![
        ("true bounds".to_string(), bound),
        ("paper".to_string(), 100.0),
    ];
    for &b in narrow {
        bounds.push(("narrow".to_string(), b));
    }
    let mut exact_moves = Vec::new();
    let mut settings = Vec::new();
    for (label, b) in bounds {
        let mut chosen: Vec<Vec<crate::game::Move>> = Vec::new();
        let mut mean_nodes = Vec::new();
        let mut mean_ms = Vec::new();
        for (_, s) in &variants {
            let s = StarSettings {
                lower: -b,
                upper: b,
                ..s.clone()
            };
            let mut searcher = StarSearcher::new(&s).map_err(|e| e.to_string())?;
            let (mut nodes, mut ms) = (0u64, 0.0);
            let mut moves = Vec::with_capacity(positions.len());
            for p in &positions {
                let start = std::time::Instant::now();
                let r = searcher.search(p).map_err(|e| e.to_string())?;
                ms += start.elapsed().as_secs_f64() * 1000.0;
                nodes += r.nodes;
                moves.push(r.best);
            }
            let n = positions.len().max(1) as f64;
            mean_nodes.push(nodes as f64 / n);
            mean_ms.push(ms / n);
            chosen.push(moves);
        }
        if exact_moves.is_empty() {
            exact_moves = chosen[0].clone();
        }
        let all_agree = (0..positions.len())
            .filter(|&i| chosen.iter().all(|c| c[i] == chosen[0][i]))
            .count();
        let agree_with_exact = chosen
            .iter()
            .map(|c| {
                (0..positions.len())
                    .filter(|&i| c[i] == exact_moves[i])
                    .count()
            })
            .collect();
        settings.push(StarBoundsResult {
            label,
            lower: -b,
            upper: b,
            all_agree,
            agree_with_exact,
            mean_nodes,
            mean_ms,
        });
    }
    Ok(StarDecisions {
        source: source.to_string(),
        every,
        positions: positions.len(),
        variants: variants.iter().map(|(n, _)| n.to_string()).collect(),
        settings,
        max_abs_score_difference: max_abs,
    })
}

/// Everything the report is written from.
pub struct ReportInput<'a> {
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

/// A value that prints as "-0.00" prints as "+0.00".
fn no_minus_zero(x: f64) -> f64 {
    if x.abs() < 0.005 {
        0.0
    } else {
        x
    }
}

fn wld(x: Wld) -> String {
    format!("{}-{}-{}", x.0, x.1, x.2)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
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

fn index_of(names: &[String], name: &str) -> Option<usize> {
    names.iter().position(|n| n == name)
}

/// The noise section of one preset: rank distribution, pooled win rates, pairwise tests.
fn noise_section(s: &mut String, pr: &PresetRuns) -> Vec<PairTest> {
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
    let mut rows = Vec::new();
    let mut order: Vec<usize> = (0..n).collect();
    let mean_points = |e: usize| {
        pr.runs
            .iter()
            .map(|r| {
                f64::from(
                    r.tables
                        .standings
                        .iter()
                        .find(|x| x.entrant == e)
                        .unwrap()
                        .points,
                )
            })
            .sum::<f64>()
            / k.max(1) as f64
    };
    order.sort_by(|&a, &b| mean_points(b).total_cmp(&mean_points(a)));
    for e in order {
        let mut counts = vec![0usize; n];
        let mut pts = Vec::new();
        let mut pd = 0.0;
        for r in &pr.runs {
            let st = r.tables.standings.iter().find(|x| x.entrant == e).unwrap();
            counts[st.position - 1] += 1;
            pts.push(st.points);
            pd += st.point_difference;
        }
        let (w, lo, hi, games) = pooled_win_rate(&pr.runs, e);
        let mut row = vec![pr.names[e].clone()];
        row.extend(counts.iter().map(|c| c.to_string()));
        row.push(format!(
            "{:.1} ({}–{})",
            mean_points(e),
            pts.iter().min().unwrap_or(&0),
            pts.iter().max().unwrap_or(&0)
        ));
        row.push(format!("{:+.2}", pd / k.max(1) as f64));
        row.push(format!("{} [{}, {}]", pct(w), pct(lo), pct(hi)));
        row.push(games.to_string());
        rows.push(row);
    }
    let head_ref: Vec<&str> = head.iter().map(|h| h.as_str()).collect();
    s.push_str(&md_table(&head_ref, &rows));
    let tests = pair_tests(&pr.runs, n);
    let _ = writeln!(
        s,
        "\nPairwise, pooled over the {k} seeds: A's margin on each tile sequence is the mean of its two games on it (one in each seat), so the Wilcoxon signed-rank test is paired by tiles; p is two-sided, Holm-adjusted over the table's {} pairs. A's share: A's games won plus half the drawn, with the 95% Wilson interval.\n",
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
fn orderings_sentence(
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

fn preset<'a>(input: &'a ReportInput, name: &str) -> Option<&'a PresetRuns> {
    input
        .presets
        .iter()
        .find(|p| p.preset == name && !p.runs.is_empty())
}

fn incomplete_note(s: &mut String, pr: Option<&PresetRuns>, name: &str) {
    if let Some(pr) = pr {
        for (seed, have, want) in &pr.incomplete {
            let _ = writeln!(
                s,
                "_Seed {seed} of `{name}` is unfinished ({have} of {want} games) and is not counted._\n"
            );
        }
    }
}

/// Table V/VII/IX beside our first seed, and VI/VIII/X beside our standings.
fn side_by_side(s: &mut String, lg: &PublishedLeague, pr: &PresetRuns) {
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

/// The whole report as Markdown.
pub fn render_report(input: &ReportInput) -> String {
    let mut s = String::new();
    let p = input.published;
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
    // Compute summary.
    let mut rows = Vec::new();
    let mut total_wall = 0.0;
    let mut cpu = None;
    let mut threads: Vec<usize> = Vec::new();
    for pr in &input.presets {
        let wall: f64 = pr.runs.iter().map(|r| r.wall_seconds).sum::<f64>() + 0.0;
        total_wall += wall;
        for r in &pr.runs {
            if cpu.is_none() {
                cpu.clone_from(&r.cpu);
            }
            threads.extend(&r.threads);
        }
        rows.push(vec![
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
            format!("{:.0}", wall),
            if pr.incomplete.is_empty() {
                "–".into()
            } else {
                pr.incomplete
                    .iter()
                    .map(|(s, h, w)| format!("{s}: {h}/{w}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        ]);
    }
    threads.sort();
    threads.dedup();
    let _ = writeln!(
        s,
        "**Compute.** Wall time of all complete runs: {:.0} s ({:.1} min), measured per run folder (`wall.jsonl`) on {} with {} worker thread(s), the machine shared with other work, so times are upper bounds. Results depend only on the specs and seeds, never on the thread count.\n",
        total_wall,
        total_wall / 60.0,
        cpu.unwrap_or_else(|| "an unrecorded machine".into()),
        threads.iter().map(|t| t.to_string()).collect::<Vec<_>>().join("/"),
    );
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

    // The paper's own arithmetic.
    let _ = writeln!(s, "\n## The paper's own arithmetic\n");
    let _ = writeln!(
        s,
        "Computed from `{}` alone (Table III's points: win 4, draw 2, loss 0, a bonus win point above a 75% share, a bonus loss point when the winner's share is at most 55%):\n",
        input.published_path
    );
    for lg in &p.leagues {
        if standings_discrepancies(lg, &input.bonus).is_empty() {
            let _ = writeln!(
                s,
                "- Table {} follows from Table {}: every Points, BWP, BLP, W, L and D agrees.",
                lg.standings_table, lg.matches_table
            );
        }
    }
    for f in paper_flags(p, &input.bonus, input.score_bound) {
        let _ = writeln!(s, "- {f}");
    }

    // Table IV.
    let _ = writeln!(s, "\n## Table {}: the reward\n", p.reward.table);
    let rp = preset(input, &p.reward.preset);
    incomplete_note(
        &mut s,
        input.presets.iter().find(|x| x.preset == p.reward.preset),
        &p.reward.preset,
    );
    match rp {
        None => {
            let _ = writeln!(s, "No complete run of `{}` yet.\n", p.reward.preset);
        }
        Some(pr) => {
            let r = &pr.runs[0];
            let _ = writeln!(
                s,
                "Wins-losses-draws of each controller in each seat, paper beside ours (seed {}), {} games per seat (paper {}):\n",
                r.seed, pr.games_per_match, p.reward.games
            );
            let mut rows = Vec::new();
            for row in &p.reward.rows {
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
            s.push('\n');
            let tests = noise_section(&mut s, pr);
            let mut ranked: Vec<&RewardRow> = p.reward.rows.iter().collect();
            ranked.sort_by_key(|r| std::cmp::Reverse(r.as_first.0 + r.as_second.0));
            let ranked: Vec<String> = ranked.iter().map(|r| r.name.clone()).collect();
            orderings_sentence(
                &mut s,
                "Table IV",
                &ranked,
                &pr.names,
                &tests,
                pr.runs.len(),
            );
        }
    }

    // Leagues V/VI, VII/VIII.
    for lg in p.leagues.iter().filter(|l| l.preset != "finalists") {
        let _ = writeln!(
            s,
            "\n## Tables {} and {}: `{}`\n",
            lg.matches_table, lg.standings_table, lg.preset
        );
        incomplete_note(
            &mut s,
            input.presets.iter().find(|x| x.preset == lg.preset),
            &lg.preset,
        );
        let Some(pr) = preset(input, &lg.preset) else {
            let _ = writeln!(s, "No complete run of `{}` yet.\n", lg.preset);
            continue;
        };
        side_by_side(&mut s, lg, pr);
        s.push('\n');
        let tests = noise_section(&mut s, pr);
        let ranked: Vec<String> = lg.standings.iter().map(|x| x.name.clone()).collect();
        let table = format!("Table {}", lg.standings_table);
        orderings_sentence(&mut s, &table, &ranked, &pr.names, &tests, pr.runs.len());
        if let Some(first) = ranked.first() {
            if let Some(e) = index_of(&pr.names, first) {
                // First, or tied with the leader on points and PD (then the order is arbitrary).
                let level = |r: &SeedRun, x: &crate::league::Standing| {
                    let top = &r.tables.standings[0];
                    x.points == top.points
                        && (x.point_difference - top.point_difference).abs() < 1e-9
                };
                let mut tops = 0;
                let mut alone = 0;
                for r in &pr.runs {
                    let st = r.tables.standings.iter().find(|x| x.entrant == e).unwrap();
                    if level(r, st) {
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
        }
        if lg.preset == "star" {
            star_section(&mut s, pr, input.star.as_ref());
        }
    }

    // Extra table.
    let _ = writeln!(
        s,
        "\n## Beyond the paper: MCTS-RAVE and Thompson sampling against UCT\n"
    );
    let extra = preset(input, "extra_bandits");
    incomplete_note(
        &mut s,
        input.presets.iter().find(|x| x.preset == "extra_bandits"),
        "extra_bandits",
    );
    match extra {
        None => {
            let _ = writeln!(s, "No complete run of `extra_bandits` yet.\n");
        }
        Some(pr) => {
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
            let tests = noise_section(&mut s, pr);
            if let Some(uct) = index_of(&pr.names, "MCTS UCT C_E=2") {
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
        }
    }

    // Finalists.
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
    incomplete_note(
        &mut s,
        input.presets.iter().find(|x| x.preset == "finalists"),
        "finalists",
    );
    match (fin, p.league("finalists")) {
        (Some(pr), Some(lg)) => {
            let _ = writeln!(
                s,
                "\nThe finalists league as it runs today ({} seed(s); the most expensive preset, not repeated over K seeds):\n",
                pr.runs.len()
            );
            side_by_side(&mut s, lg, pr);
        }
        _ => {
            let _ = writeln!(
                s,
                "\nThe finalists league (`runs/paper/finalists.ron`, the most expensive preset) was not run for this report; `evomcts replicate --finalists` adds it.\n"
            );
        }
    }
    s
}

fn star_section(s: &mut String, pr: &PresetRuns, star: Option<&StarDecisions>) {
    let _ = writeln!(s, "### Star1, Star2 and Star2.5 choose the same moves\n");
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
    match star {
        None => {
            let _ = writeln!(
                s,
                "\nThe decision comparison (`star-decisions.json`) has not been run.\n"
            );
        }
        Some(d) => {
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
    }
}
