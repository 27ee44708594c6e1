//! The fitness domain of an evolution spec (`fitness: ..`): the Bernoulli bandit, the planted
//! control, games of one game against a baseline, or a mix of games; what a sample is and the
//! checks a spec and a job step's work file both pass.

pub use super::games_spec::{GamesSpec, MixedSpec, Score, MAX_MIXED_GAMES};
pub use super::planted::PlantedSpec;
use evomcts_arena::GameChoice;
use serde::{Deserialize, Serialize};

/// Bernoulli K-armed bandit (Tuma's thesis, Table 5.1): one arm pays with probability
/// `best`, the others with `best - epsilon`. One sample is one run of `horizon` pulls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BanditSpec {
    pub arms: usize,
    pub best: f64,
    pub epsilon: f64,
    pub horizon: u32,
    /// The value of `C` for formulas that do not carry their own C_E.
    pub c_e: f64,
}

impl Default for BanditSpec {
    fn default() -> Self {
        BanditSpec {
            arms: 10,
            best: 0.5,
            epsilon: 0.1,
            horizon: 1000,
            c_e: 1.0,
        }
    }
}

// One spec per run: the size difference between the variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum FitnessSpec {
    /// Fitness = minus the cumulative (pseudo-)regret of the formula as a bandit policy.
    Bandit(BanditSpec),
    /// Fitness = the win rate of two synthetic games won more often the more a formula picks
    /// the children a planted formula picks (`evolve::planted`): a positive control.
    Planted(PlantedSpec),
    /// Fitness = score difference or win rate against the baseline, in games of Carcassonne
    /// or of the game `game` names; written `Carcassonne(..)` for Carcassonne and `Games(..)`
    /// for another game (either name reads).
    #[serde(rename = "Carcassonne", alias = "Games")]
    Games(GamesSpec),
    /// Fitness = win rate against each game's baseline, sample s of a stream playing game
    /// s mod k of the mix's k games (see `games_spec`): `Mixed(games: [(game: ..), ..])`.
    Mixed(MixedSpec),
}

impl FitnessSpec {
    /// The games the fitness plays, in the mix's order (none for the bandit).
    pub fn games(&self) -> &[GamesSpec] {
        match self {
            FitnessSpec::Bandit(_) | FitnessSpec::Planted(_) => &[],
            FitnessSpec::Games(g) => std::slice::from_ref(g),
            FitnessSpec::Mixed(m) => &m.games,
        }
    }

    pub(crate) fn games_mut(&mut self) -> &mut [GamesSpec] {
        match self {
            FitnessSpec::Bandit(_) | FitnessSpec::Planted(_) => &mut [],
            FitnessSpec::Games(g) => std::slice::from_mut(g),
            FitnessSpec::Mixed(m) => &mut m.games,
        }
    }

    /// The game a run's thread pool is made for (`frame::RunPool`: its default threads and
    /// the workers' hooks): the fitness's game, in a mix the first OpenSpiel game or else the
    /// first; `None` for the bandit.
    pub fn pool_game(&self) -> Option<GameChoice> {
        let games = self.games();
        games
            .iter()
            .find(|g| g.game.describe().open_spiel)
            .or(games.first())
            .map(|g| g.game)
    }

    /// Games in one fitness sample: both seatings of a sequence, or one bandit run.
    pub fn games_per_sample(&self) -> u64 {
        match self {
            FitnessSpec::Bandit(_) => 1,
            FitnessSpec::Planted(_) | FitnessSpec::Games(_) | FitnessSpec::Mixed(_) => 2,
        }
    }

    /// A stream's sample seeds from its own derived seeds (`raw`, in order): unchanged, but
    /// in a mix made so that sample s plays game s mod k (`MixedSpec::seeds`).
    pub fn sample_seeds(&self, raw: Vec<u64>) -> Vec<u64> {
        match self {
            FitnessSpec::Mixed(m) => m.seeds(raw),
            FitnessSpec::Bandit(_) | FitnessSpec::Planted(_) | FitnessSpec::Games(_) => raw,
        }
    }

    /// What the fitness plays, for messages and reports: `the bandit`, the game's label, or
    /// `a mix of Connect Four and Pig to 20`.
    pub fn label(&self) -> String {
        match self {
            FitnessSpec::Bandit(_) => "the bandit".into(),
            FitnessSpec::Planted(_) => "the planted control".into(),
            FitnessSpec::Games(g) => g.game.label(),
            FitnessSpec::Mixed(m) => m.label(),
        }
    }

    /// Every check of the fitness alone (the bandit's sizes and probabilities, the games'
    /// controllers, their settings and the work of one decision), as (field, message): what
    /// a spec file and a job step's work file (read by another process) both pass.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((f.to_string(), m));
        match self {
            FitnessSpec::Bandit(b) => {
                if b.arms < 2 || b.arms > 1000 {
                    return err(
                        "fitness.arms",
                        format!("must be between 2 and 1000, got {}", b.arms),
                    );
                }
                if !(0.0..=1.0).contains(&b.best) {
                    return err(
                        "fitness.best",
                        format!("must be a probability, got {}", b.best),
                    );
                }
                if !(b.epsilon >= 0.0 && b.epsilon <= b.best) {
                    return err(
                        "fitness.epsilon",
                        format!(
                            "must be in [0, best] so every arm pays with a probability, got {}",
                            b.epsilon
                        ),
                    );
                }
                if (b.horizon as usize) < b.arms || b.horizon > 10_000_000 {
                    return err(
                        "fitness.horizon",
                        format!(
                            "must be at least the number of arms and at most 10^7, got {}",
                            b.horizon
                        ),
                    );
                }
                if !b.c_e.is_finite() || b.c_e < 0.0 {
                    return err(
                        "fitness.c_e",
                        format!("must be a finite number >= 0, got {}", b.c_e),
                    );
                }
            }
            FitnessSpec::Planted(p) => p.validate()?,
            FitnessSpec::Games(c) => c.validate("fitness")?,
            FitnessSpec::Mixed(m) => m.validate()?,
        }
        Ok(())
    }

    /// That `value` is a fitness sample this fitness can produce (see `fitness::sample`): a
    /// bandit run's minus regret, from −(horizon × epsilon) to 0; a pair of games' mean score
    /// difference, a multiple of ½ within ± the game's highest score; a pair's win rate, a
    /// multiple of ¼ from 0 to 1. What another process reports (a job step's results) is
    /// checked here before it is counted.
    pub fn check_sample(&self, value: f64) -> Result<(), String> {
        let (low, high, step, what) = self.sample_bounds();
        let on_step = step.is_none_or(|step| (value / step).fract() == 0.0);
        if !(value.is_finite() && (low..=high).contains(&value) && on_step) {
            let step = step.map_or(String::new(), |s| format!(", a multiple of {s}"));
            return Err(format!(
                "{what} is from {} to {}{step}, got {}",
                evomcts_records::escape::number(low),
                evomcts_records::escape::number(high),
                evomcts_records::escape::number(value)
            ));
        }
        Ok(())
    }

    /// That `value` is a mean of samples [`FitnessSpec::check_sample`] accepts: finite and
    /// within their bounds (a mean need not be on their step). Rounding in the running mean
    /// may pass a bound by a few units in the last place, which is allowed (10⁻⁹ of the range).
    pub fn check_mean(&self, value: f64) -> Result<(), String> {
        let (low, high, _, what) = self.sample_bounds();
        let slack = (high - low) * 1e-9;
        if !(value.is_finite() && (low - slack..=high + slack).contains(&value)) {
            return Err(format!(
                "{what} is from {} to {}",
                evomcts_records::escape::number(low),
                evomcts_records::escape::number(high)
            ));
        }
        Ok(())
    }

    /// The lowest and highest sample and the step samples are multiples of.
    pub fn sample_range(&self) -> (f64, f64, Option<f64>) {
        let (low, high, step, _) = self.sample_bounds();
        (low, high, step)
    }

    /// The lowest and highest sample, the step samples are multiples of, and what a sample is.
    fn sample_bounds(&self) -> (f64, f64, Option<f64>, &'static str) {
        match self {
            FitnessSpec::Bandit(b) => (
                -(f64::from(b.horizon) * b.epsilon),
                0.0,
                None,
                "minus a bandit run's regret",
            ),
            FitnessSpec::Games(c) => match c.score {
                Score::ScoreDiff => (
                    -c.game.max_score(),
                    c.game.max_score(),
                    Some(0.5),
                    "a mean score difference of two games",
                ),
                Score::WinRate => (0.0, 1.0, Some(0.25), "a win rate of two games"),
            },
            FitnessSpec::Planted(_) | FitnessSpec::Mixed(_) => {
                (0.0, 1.0, Some(0.25), "a win rate of two games")
            }
        }
    }
}

impl Serialize for FitnessSpec {
    /// As derived, except that games of another game than Carcassonne are written `Games(..)`,
    /// so a stored spec does not call a game of Pig Carcassonne.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FitnessSpec::Bandit(b) => {
                serializer.serialize_newtype_variant("FitnessSpec", 0, "Bandit", b)
            }
            FitnessSpec::Games(c) => {
                let name = if c.game.is_carcassonne() {
                    "Carcassonne"
                } else {
                    "Games"
                };
                serializer.serialize_newtype_variant("FitnessSpec", 1, name, c)
            }
            FitnessSpec::Planted(p) => {
                serializer.serialize_newtype_variant("FitnessSpec", 3, "Planted", p)
            }
            FitnessSpec::Mixed(m) => {
                serializer.serialize_newtype_variant("FitnessSpec", 2, "Mixed", m)
            }
        }
    }
}
