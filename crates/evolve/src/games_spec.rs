//! The fitness of games against a baseline, as a spec writes it: one game (`GamesSpec`,
//! `fitness: Games(..)` or `Carcassonne(..)`) or a mix of several (`MixedSpec`,
//! `fitness: Mixed(games: [..])`), each checked naming its field; and how a mix's samples are
//! spread over its games.
//!
//! A mix of k games plays sample s of every seed stream (a generation's samples, the elites',
//! the re-estimate's, the front's, the tournament's) on game s mod k: the stream's seeds are
//! made so that the seed itself says which game it plays (`mixed_seeds`: seed ≡ s mod k), so
//! a sample stays a pure function of its seed wherever it is played (racing's batches, a job
//! step's tasks), and every candidate meets every game on common samples.

use evomcts_arena::GameChoice;
use evomcts_formula::{Formula, Grammar, Terminal};
use evomcts_games::carcassonne::Rules;
use evomcts_search::mcts::{MctsSettings, Selection};
use evomcts_search::ControllerSpec;
use serde::{Deserialize, Serialize};

/// What one pair of Carcassonne games (both seatings of a tile seed) is worth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Score {
    /// The candidate's final score minus the baseline's, averaged over the two games.
    #[default]
    ScoreDiff,
    /// 1 per win, 0.5 per draw, averaged over the two games.
    WinRate,
}

/// Games of MCTS using the formula against a baseline controller: Carcassonne unless `game`
/// names another game. Serde knows it as `CarcassonneSpec`: the name a spec file may write
/// before its fields and the one serde's messages give, which spec and work files are read with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    default,
    deny_unknown_fields,
    rename = "CarcassonneSpec",
    expecting = "struct CarcassonneSpec"
)]
pub struct GamesSpec {
    /// The game played (`Pig(target: 100)`); Carcassonne when left out, and then left out of
    /// the stored spec, so the hashes of runs that do not name a game are unchanged.
    #[serde(skip_serializing_if = "GameChoice::is_carcassonne")]
    pub game: GameChoice,
    /// The MCTS the formula is plugged into; its `selection` is replaced by the formula.
    pub candidate: MctsSettings,
    pub baseline: ControllerSpec,
    pub score: Score,
    /// Carcassonne's rules (left at their default for another game).
    pub rules: Rules,
}

impl Default for GamesSpec {
    /// The paper's MCTS (400 simulations, UCT) as both candidate and baseline.
    fn default() -> Self {
        GamesSpec {
            game: GameChoice::Carcassonne,
            candidate: MctsSettings::default(),
            baseline: ControllerSpec::Mcts(MctsSettings::default()),
            score: Score::ScoreDiff,
            rules: Rules::default(),
        }
    }
}

impl GamesSpec {
    /// Every check of one game's fitness (the game loads, its rules, the controllers, their
    /// settings and the work of one decision), as (field, message); `at` is where the spec
    /// holds it (`fitness`, or `fitness.games[1]` in a mix).
    pub fn validate(&self, at: &str) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((format!("{at}.{f}"), m));
        if let Err(m) = self.game.check_startable() {
            return err("game", m);
        }
        if let Err((f, m)) = self.game.check_rules(&self.rules) {
            return err(&f, m);
        }
        let candidate = ControllerSpec::Mcts(self.candidate.clone());
        let controllers = [("candidate", &candidate), ("baseline", &self.baseline)];
        for (field, controller) in controllers {
            if let Err(m) = self.game.check_controller(controller) {
                return err(field, m);
            }
        }
        if self.candidate.es.is_some() {
            return err(
                "candidate.es",
                "the candidate plays the evolved formula as it is: leave `es` out".into(),
            );
        }
        if self.candidate.selection != Selection::Uct {
            return err(
                "candidate.selection",
                "is replaced by the formula under evaluation: leave it out".into(),
            );
        }
        if let Err(e) = self.candidate.validate() {
            return err("candidate", e.to_string());
        }
        if let Err(e) = self.baseline.validate() {
            return err("baseline", e.to_string());
        }
        for (field, controller) in controllers {
            if let Err((f, m)) = evomcts_records::bounds::check_decision_work(controller) {
                return err(&format!("{field}.{f}"), m);
            }
        }
        Ok(())
    }

    /// That the game gives every terminal the grammar offers or the seed formula reads (a
    /// move feature only where the game gives move features); `which` says which game of the
    /// spec it is, for a mix. The message is the `grammar` field's.
    pub fn check_terminals(
        &self,
        grammar: &Grammar,
        seed_formula: &Formula,
        which: &str,
    ) -> Result<(), String> {
        if self.game.offers_move_features() {
            return Ok(());
        }
        let reads = |t: &Terminal| grammar.terminals().contains(t) || seed_formula.uses(*t);
        let Some(t) = Terminal::MOVE_FEATURES.iter().find(|t| reads(t)) else {
            return Ok(());
        };
        let features: Vec<String> = Terminal::MOVE_FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect();
        let (last, rest) = features.split_last().expect("move features exist");
        Err(format!(
            "offers the move feature `{t}`, which {}{which} does not give: use a grammar \
             without {} and {last}",
            self.game.label(),
            rest.join(", ")
        ))
    }
}

/// The most games one mix holds.
pub const MAX_MIXED_GAMES: usize = 16;

/// `fitness: Mixed(games: [..])`: one formula judged on several games, each with its own
/// candidate settings (budget, tuned C_E) and baseline (tuned UCT); sample s of a stream plays
/// game s mod k (see the module), scored as a win rate so that every game's samples are on
/// one scale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixedSpec {
    pub games: Vec<GamesSpec>,
}

impl MixedSpec {
    /// Every check of the mix: between 2 and [`MAX_MIXED_GAMES`] games, each a valid games
    /// fitness scored `WinRate`, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let k = self.games.len();
        if !(2..=MAX_MIXED_GAMES).contains(&k) {
            return Err((
                "fitness.games".into(),
                format!(
                    "a mix holds from 2 to {MAX_MIXED_GAMES} games, got {k} (one game is \
                     `Games(..)`)"
                ),
            ));
        }
        for (i, games) in self.games.iter().enumerate() {
            let at = format!("fitness.games[{i}]");
            if games.score != Score::WinRate {
                return Err((
                    format!("{at}.score"),
                    format!(
                        "a mix scores every game as `score: WinRate` (write it: `ScoreDiff`, \
                         the default, is in each game's own points, which do not add up across \
                         games), got {:?} for {}",
                        games.score,
                        games.game.label()
                    ),
                ));
            }
            games.validate(&at)?;
        }
        Ok(())
    }

    /// The label of the mix for messages and reports: `a mix of Connect Four and Pig to 20`.
    pub fn label(&self) -> String {
        let labels: Vec<String> = self.games.iter().map(|g| g.game.label()).collect();
        match labels.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                format!("a mix of {} and {last}", rest.join(", "))
            }
            Some((only, _)) => format!("a mix of {only}"),
            None => "a mix of no game".to_string(),
        }
    }

    /// The game of the mix that a sample seed plays (its index in `games`): seed mod k.
    pub fn game_of(&self, seed: u64) -> usize {
        (seed % self.games.len() as u64) as usize
    }

    /// The seeds of a stream of the mix from the stream's own (`raw`, in order): seed s is
    /// made ≡ s (mod k), its top bit cleared (evolution's namespace clears it anyway), so that
    /// [`MixedSpec::game_of`] gives game s mod k.
    pub fn seeds(&self, raw: Vec<u64>) -> Vec<u64> {
        let k = self.games.len() as u64;
        raw.into_iter()
            .enumerate()
            .map(|(s, seed)| {
                let half = seed >> 1;
                half - half % k + s as u64 % k
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(k: usize) -> MixedSpec {
        MixedSpec {
            games: vec![GamesSpec::default(); k],
        }
    }

    #[test]
    fn sample_s_of_a_stream_plays_game_s_mod_k() {
        let raw = vec![u64::MAX, 0, 1, u64::MAX - 1, 12345, 1 << 63, 7, 8, 9, 10];
        for k in [2, 3, 7] {
            let m = mix(k);
            let seeds = m.seeds(raw.clone());
            for (s, (&seed, &r)) in seeds.iter().zip(&raw).enumerate() {
                assert_eq!(m.game_of(seed), s % k, "k {k}, sample {s}");
                assert!(seed.abs_diff(r >> 1) < k as u64, "k {k}: {seed} from {r}");
            }
        }
    }

    #[test]
    fn a_mix_is_labelled_by_its_games() {
        let mut m = mix(2);
        m.games[1].game = GameChoice::ConnectFour;
        assert_eq!(m.label(), "a mix of Carcassonne and Connect Four");
        m.games.push(GamesSpec::default());
        assert_eq!(
            m.label(),
            "a mix of Carcassonne, Connect Four and Carcassonne"
        );
    }
}
