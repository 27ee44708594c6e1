//! The paper's tables beside ours: the published numbers of the main paper as data
//! (`runs/paper/published.ron`), the checks of the paper's own arithmetic computed from them,
//! and the Markdown `evomcts replicate` writes from K seeds of every preset's run folders
//! (`markdown`).
//!
//! Every statistic comes from `league::stats` (Wilcoxon signed-rank, Wilson interval) and every
//! table from `league::Tables`; this module only gathers, pairs and prints.

use evomcts_games::carcassonne::{GameState, Move, Reveal};
use evomcts_games::Game;
use evomcts_league::standings::match_records;
use evomcts_league::{BonusRules, LeagueGame, MatchResult, Tables};
use evomcts_records::runfs::{parse_spec, read_spec_text, SpecFileError};
pub use evomcts_records::stats::holm;
use evomcts_records::stats::{wilcoxon_signed_rank, wilson_interval};
use evomcts_search::star::{StarSearcher, StarSettings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Wins, losses and draws.
pub type Wld = (u32, u32, u32);

mod published;
pub use published::{
    paper_flags, published_matches, recompute_standings, standings_discrepancies, Discrepancy,
    Published, PublishedLeague, PublishedReward, PublishedStanding, Recomputed, RewardRow,
};

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
        // Replication reads Carcassonne leagues; a pair of another game has no moves to compare.
        let (Some(x), Some(y)) = (g.game.carcassonne(), h.game.carcassonne()) else {
            continue;
        };
        out.pairs += 1;
        let (x, y) = (&x.moves, &y.moves);
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
) -> Result<Option<PresetRuns>, evomcts_league::LoadError> {
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
        let (spec, games, _report) = evomcts_league::load_runs(std::slice::from_ref(&path))?;
        let scheduled =
            evomcts_league::schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
        if games.len() < scheduled {
            out_runs.incomplete.push((seed, games.len(), scheduled));
            continue;
        }
        let names = spec.names();
        let tables = Tables::from_games(&names, spec.games_per_match, &spec.bonus, &games);
        let walls: Vec<WallLine> = evomcts_records::runfs::read_capped_text(
            &path.join("wall.jsonl"),
            evomcts_records::runfs::MAX_DATA_FILE_BYTES,
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
    let every = every.max(1);
    let (positions, max_abs) = star_positions(games, every)?;
    let variants = [
        ("Star1", StarSettings::star1()),
        ("Star2", StarSettings::star2()),
        ("Star2.5", StarSettings::star25()),
    ];
    let bound = GameState::placeholder().evaluation_bound(StarSettings::star1().evaluation);
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
        let mut chosen = Vec::new();
        let mut mean_nodes = Vec::new();
        let mut mean_ms = Vec::new();
        for (_, s) in &variants {
            let (moves, nodes, ms) = star_moves(&positions, s, b)?;
            mean_nodes.push(nodes);
            mean_ms.push(ms);
            chosen.push(moves);
        }
        if exact_moves.is_empty() {
            exact_moves = chosen[0].clone();
        }
        settings.push(StarBoundsResult {
            label,
            lower: -b,
            upper: b,
            all_agree: (0..positions.len())
                .filter(|&i| chosen.iter().all(|c| c[i] == chosen[0][i]))
                .count(),
            agree_with_exact: chosen
                .iter()
                .map(|c| {
                    (0..positions.len())
                        .filter(|&i| c[i] == exact_moves[i])
                        .count()
                })
                .collect(),
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

/// Every `every`-th decision position of `games`, and the largest |virtual score difference|
/// among them.
fn star_positions(games: &[LeagueGame], every: usize) -> Result<(Vec<GameState>, i32), String> {
    let mut positions = Vec::new();
    let mut counter = 0usize;
    let mut max_abs = 0i32;
    for g in games {
        let rec = g.game.carcassonne().ok_or_else(|| {
            format!(
                "Star decisions are measured on Carcassonne games; this is {}",
                g.game.label()
            )
        })?;
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
    Ok((positions, max_abs))
}

/// The move `settings` chooses at each of `positions` under the bounds ±`b`, with its mean
/// nodes and milliseconds per decision.
fn star_moves(
    positions: &[GameState],
    settings: &StarSettings,
    b: f64,
) -> Result<(Vec<Move>, f64, f64), String> {
    let s = StarSettings {
        lower: -b,
        upper: b,
        ..settings.clone()
    };
    let mut searcher = StarSearcher::new(&s).map_err(|e| e.to_string())?;
    let (mut nodes, mut ms) = (0u64, 0.0);
    let mut moves = Vec::with_capacity(positions.len());
    for p in positions {
        let start = std::time::Instant::now();
        let r = searcher.search(p).map_err(|e| e.to_string())?;
        ms += start.elapsed().as_secs_f64() * 1000.0;
        nodes += r.nodes;
        moves.push(r.best);
    }
    let n = positions.len().max(1) as f64;
    Ok((moves, nodes as f64 / n, ms / n))
}

mod markdown;
pub use markdown::{render_markdown, MarkdownInput};
