//! How a generation's champion is taken from its elites (`noise.champion` of a spec, a
//! [`ChampionRule`]).
//!
//! The elites are the best survivors by mean; they then play extra samples. Today's rule
//! crowns the elite with the highest mean. With few samples a lucky estimate wins that way,
//! so `HighestLowerBound` crowns the elite whose 95% interval has the highest lower end, the
//! rule the hall of fame ranks by.

use super::population::Member;
use super::spec::ChampionRule;

impl ChampionRule {
    /// The index of the champion among `elites` (the earlier on ties), `None` when empty.
    pub fn pick(self, elites: &[Member]) -> Option<usize> {
        let key = |m: &Member| match self {
            ChampionRule::HighestMean => m.fitness.rank(),
            ChampionRule::HighestLowerBound => m.fitness.lower_bound(),
        };
        elites
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| key(a).total_cmp(&key(b)).then(j.cmp(i)))
            .map(|(i, _)| i)
    }
}
