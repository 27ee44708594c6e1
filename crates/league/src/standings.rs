//! League tables from game records: per-match results, the standings of the main paper's
//! Tables VI, VIII and X (points, bonus points, match wins, losses, draws, point difference) and
//! the match matrix of Tables V, VII and IX, plus significance tests and win rates.
//!
//! Ratings are Bradley–Terry strengths on the Elo scale fitted to every game (see
//! `stats::bradley_terry`); `games` lists every game in schedule order.
//!
//! Tables are a pure function of the set of records, so records of one league from separate
//! runs or machines merge into the same tables.

use super::records::LeagueGame;
use super::spec::BonusRules;
use super::stats::{bradley_terry, wilcoxon_signed_rank, wilson_interval, Wilcoxon};
use serde::Serialize;
use std::collections::BTreeMap;

/// The games of one match: `first` always in seat 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MatchResult {
    pub first: usize,
    pub second: usize,
    pub games: u32,
    pub first_wins: u32,
    pub second_wins: u32,
    pub draws: u32,
    /// Sum over games of (first's score − second's score).
    pub score_difference_sum: i64,
}

/// Match points of both sides: (points, bonus win point, bonus loss point) each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MatchPoints {
    pub points: u32,
    pub bonus_win: u32,
    pub bonus_loss: u32,
}

impl MatchResult {
    pub fn average_difference(&self) -> f64 {
        self.score_difference_sum as f64 / self.games.max(1) as f64
    }

    /// Points of (first, second) under `rules`.
    pub fn points(&self, rules: &BonusRules) -> (MatchPoints, MatchPoints) {
        let (w, l) = (self.first_wins, self.second_wins);
        if w == l {
            let p = MatchPoints {
                points: rules.draw_points,
                ..Default::default()
            };
            return (p, p);
        }
        let share = w.max(l) as f64 / self.games as f64;
        let bonus_win = if rules.bonus_win_strict {
            share > rules.bonus_win_share
        } else {
            share >= rules.bonus_win_share
        };
        let bonus_loss = if rules.bonus_loss_strict {
            share < rules.bonus_loss_share
        } else {
            share <= rules.bonus_loss_share
        };
        let winner = MatchPoints {
            points: rules.win_points + bonus_win as u32,
            bonus_win: bonus_win as u32,
            bonus_loss: 0,
        };
        let loser = MatchPoints {
            points: rules.loss_points + bonus_loss as u32,
            bonus_win: 0,
            bonus_loss: bonus_loss as u32,
        };
        if w > l {
            (winner, loser)
        } else {
            (loser, winner)
        }
    }
}

/// An entrant's match record: points, bonus points and matches won, lost and drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MatchRecord {
    pub points: u32,
    pub bonus_win: u32,
    pub bonus_loss: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub matches: u32,
}

/// Every entrant's match record from a set of matches under the bonus rules: the one
/// accumulation of the paper's points rule, used by our tables and to check the paper's own.
pub fn match_records<'m>(
    entrants: usize,
    matches: impl IntoIterator<Item = &'m MatchResult>,
    bonus: &BonusRules,
) -> Vec<MatchRecord> {
    let mut records = vec![MatchRecord::default(); entrants];
    for m in matches.into_iter().filter(|m| m.games > 0) {
        let (pa, pb) = m.points(bonus);
        for (e, p, own, other) in [
            (m.first, pa, m.first_wins, m.second_wins),
            (m.second, pb, m.second_wins, m.first_wins),
        ] {
            let r = &mut records[e];
            r.points += p.points;
            r.bonus_win += p.bonus_win;
            r.bonus_loss += p.bonus_loss;
            r.matches += 1;
            match own.cmp(&other) {
                std::cmp::Ordering::Greater => r.wins += 1,
                std::cmp::Ordering::Less => r.losses += 1,
                std::cmp::Ordering::Equal => r.draws += 1,
            }
        }
    }
    records
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub position: usize,
    pub entrant: usize,
    pub name: String,
    pub points: u32,
    pub bonus_win: u32,
    pub bonus_loss: u32,
    /// Matches won, lost and drawn.
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Mean of (own score − opponent's score) over all the entrant's games.
    pub point_difference: f64,
    pub games: u32,
    /// Games won, lost and drawn.
    pub game_wins: u32,
    pub game_losses: u32,
    pub game_draws: u32,
    /// (game wins + draws / 2) / games, with its 95% Wilson interval.
    pub win_rate: f64,
    pub win_rate_low: f64,
    pub win_rate_high: f64,
}

/// The leader against one other entrant, over their head-to-head games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaderComparison {
    pub leader: String,
    pub other: String,
    pub games: usize,
    /// Mean of (leader's score − other's score) in the same game.
    pub mean_difference: f64,
    pub wilcoxon: Wilcoxon,
    pub significant_at_5_percent: bool,
}

/// An entrant's Bradley–Terry rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// 1 for the highest rating.
    pub rank: usize,
    pub entrant: usize,
    pub name: String,
    pub games: u32,
    /// Games won plus half the games drawn.
    pub score: f64,
    /// Elo scale, the mean of the league's ratings at 0, with its 95% interval.
    pub rating: f64,
    pub rating_low: f64,
    pub rating_high: f64,
}

/// The league's ratings, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Whether every entrant got one virtual draw against a reference player, because some
    /// entrant won or lost all its games (or some never met) and the games alone fix no
    /// finite rating.
    pub with_prior: bool,
    /// The reference player's rating on the same scale, when the virtual draws were added.
    pub reference: Option<f64>,
    pub rows: Vec<Rating>,
}

/// One game of the league, as `games.csv` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow {
    /// The game's number in schedule order (`GameId::number`), as `replay --game K` takes it.
    pub k: usize,
    pub first: String,
    pub second: String,
    pub first_index: usize,
    pub second_index: usize,
    /// The game's number within its match, from 0.
    pub match_game: u32,
    pub score_first: i32,
    pub score_second: i32,
    /// The winner's name, or `draw`.
    pub winner: String,
    #[serde(serialize_with = "evomcts_games::carcassonne::seed_string::serialize")]
    pub tile_seed: u64,
    #[serde(serialize_with = "evomcts_games::carcassonne::seed_string::serialize")]
    pub first_controller_seed: u64,
    #[serde(serialize_with = "evomcts_games::carcassonne::seed_string::serialize")]
    pub second_controller_seed: u64,
}

impl GameRow {
    pub fn new(g: &LeagueGame, entrants: usize, games_per_match: u32) -> GameRow {
        let id = g.id();
        let [score_first, score_second] = g.game.final_scores();
        GameRow {
            k: id.number(entrants, games_per_match),
            first: g.names[0].clone(),
            second: g.names[1].clone(),
            first_index: id.first,
            second_index: id.second,
            match_game: id.index,
            score_first,
            score_second,
            winner: match g.game.winner() {
                Some(seat) => g.names[seat].clone(),
                None => "draw".into(),
            },
            tile_seed: g.job.seed,
            first_controller_seed: g.job.controller_seeds[0],
            second_controller_seed: g.job.controller_seeds[1],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tables {
    pub names: Vec<String>,
    pub games_per_match: u32,
    pub matches: Vec<MatchResult>,
    pub standings: Vec<Standing>,
    pub leader_tests: Vec<LeaderComparison>,
    pub ratings: Ratings,
    /// Every recorded game, in schedule order.
    pub games: Vec<GameRow>,
}

impl Tables {
    /// Computes every table from `games` (any order; each game counted once).
    pub fn from_games(
        names: &[String],
        games_per_match: u32,
        bonus: &BonusRules,
        games: &[LeagueGame],
    ) -> Tables {
        let n = names.len();
        let mut matches: BTreeMap<(usize, usize), MatchResult> = BTreeMap::new();
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    matches.insert(
                        (a, b),
                        MatchResult {
                            first: a,
                            second: b,
                            ..Default::default()
                        },
                    );
                }
            }
        }
        let mut per_entrant_diff = vec![(0i64, 0u32); n];
        let mut game_results = vec![[0u32; 3]; n]; // wins, losses, draws
        let mut head_to_head: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
        let mut outcomes = Vec::with_capacity(games.len());
        for g in games {
            let (a, b) = (g.job.id.first, g.job.id.second);
            let m = matches
                .get_mut(&(a, b))
                .expect("the merge admits scheduled games only");
            m.games += 1;
            let d = g.game.score_difference();
            m.score_difference_sum += d;
            match d.signum() {
                1 => {
                    m.first_wins += 1;
                    game_results[a][0] += 1;
                    game_results[b][1] += 1;
                }
                -1 => {
                    m.second_wins += 1;
                    game_results[b][0] += 1;
                    game_results[a][1] += 1;
                }
                _ => {
                    m.draws += 1;
                    game_results[a][2] += 1;
                    game_results[b][2] += 1;
                }
            }
            per_entrant_diff[a].0 += d;
            per_entrant_diff[a].1 += 1;
            per_entrant_diff[b].0 -= d;
            per_entrant_diff[b].1 += 1;
            head_to_head.entry((a, b)).or_default().push(d as f64);
            head_to_head.entry((b, a)).or_default().push(-d as f64);
            outcomes.push((a, b, (d.signum() as f64 + 1.0) / 2.0));
        }

        let mut rows: Vec<Standing> = (0..n)
            .map(|e| {
                let games = per_entrant_diff[e].1;
                let [gw, gl, gd] = game_results[e];
                let won = gw as f64 + gd as f64 / 2.0;
                let (lo, hi) = wilson_interval(won, games as f64);
                Standing {
                    position: 0,
                    entrant: e,
                    name: names[e].clone(),
                    points: 0,
                    bonus_win: 0,
                    bonus_loss: 0,
                    wins: 0,
                    losses: 0,
                    draws: 0,
                    point_difference: per_entrant_diff[e].0 as f64 / games.max(1) as f64,
                    games,
                    game_wins: gw,
                    game_losses: gl,
                    game_draws: gd,
                    win_rate: if games > 0 { won / games as f64 } else { 0.0 },
                    win_rate_low: lo,
                    win_rate_high: hi,
                }
            })
            .collect();
        for (r, m) in rows
            .iter_mut()
            .zip(match_records(n, matches.values(), bonus))
        {
            r.points = m.points;
            r.bonus_win = m.bonus_win;
            r.bonus_loss = m.bonus_loss;
            r.wins = m.wins;
            r.losses = m.losses;
            r.draws = m.draws;
        }
        rows.sort_by(|x, y| {
            y.points
                .cmp(&x.points)
                .then(y.point_difference.total_cmp(&x.point_difference))
                .then(y.wins.cmp(&x.wins))
                .then(x.entrant.cmp(&y.entrant))
        });
        for (i, r) in rows.iter_mut().enumerate() {
            r.position = i + 1;
        }

        let leader = rows[0].entrant;
        let leader_tests = (0..n)
            .filter(|&e| e != leader)
            .map(|e| {
                let diffs = head_to_head.get(&(leader, e)).cloned().unwrap_or_default();
                let w = wilcoxon_signed_rank(&diffs);
                LeaderComparison {
                    leader: names[leader].clone(),
                    other: names[e].clone(),
                    games: diffs.len(),
                    mean_difference: diffs.iter().sum::<f64>() / diffs.len().max(1) as f64,
                    significant_at_5_percent: w.p_value < 0.05,
                    wilcoxon: w,
                }
            })
            .collect();
        let fit = bradley_terry(n, &outcomes);
        let mut ratings: Vec<Rating> = (0..n)
            .map(|e| {
                let [won, _, drawn] = game_results[e];
                Rating {
                    rank: 0,
                    entrant: e,
                    name: names[e].clone(),
                    games: per_entrant_diff[e].1,
                    score: won as f64 + drawn as f64 / 2.0,
                    rating: fit.ratings[e],
                    rating_low: fit.low[e],
                    rating_high: fit.high[e],
                }
            })
            .collect();
        ratings.sort_by(|x, y| {
            y.rating
                .total_cmp(&x.rating)
                .then(x.entrant.cmp(&y.entrant))
        });
        for (i, r) in ratings.iter_mut().enumerate() {
            r.rank = i + 1;
        }
        let mut game_rows: Vec<GameRow> = games
            .iter()
            .map(|g| GameRow::new(g, n, games_per_match))
            .collect();
        game_rows.sort_by_key(|r| r.k);
        Tables {
            names: names.to_vec(),
            games_per_match,
            matches: matches.into_values().collect(),
            standings: rows,
            leader_tests,
            ratings: Ratings {
                with_prior: fit.with_prior,
                reference: fit.reference,
                rows: ratings,
            },
            games: game_rows,
        }
    }

    pub fn match_result(&self, first: usize, second: usize) -> Option<&MatchResult> {
        self.matches
            .iter()
            .find(|m| m.first == first && m.second == second)
    }
}
