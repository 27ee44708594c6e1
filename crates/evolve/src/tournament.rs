//! The final tournament of independent runs (`evolve SPEC --runs K`): the spec's seed formula
//! and the K runs' champions play fresh sample seeds, and one is crowned.
//!
//! - **Entrants**: the seed formula first, then each run's champion in run order; a formula
//!   that more than one source names (two runs with the same champion, a run whose champion is
//!   the seed formula) is one entrant listing every source.
//! - **Seeds**: `tournament_seeds(master, n)`, derived from the spec's master seed under a
//!   domain tag of their own, so no generation, re-estimate or run of the K draws them; a game
//!   sample plays the tile sequence `namespace::evolution_tile_seed(seed)`, never a validation
//!   one. Every entrant plays the same seeds in the same order against the spec's fitness
//!   baseline (common random numbers), so two entrants compare seed by seed.
//! - **Games**: spent by racing (`racing::race`): from `min_samples` seeds on, an entrant
//!   significantly worse than the current best on their shared seeds is dropped (paired
//!   one-sided t, `z` per look); every entrant not dropped plays at least `samples` seeds, and
//!   the games saved go to the entrants still in, up to `max_samples` seeds each, within the
//!   budget `samples × entrants`.
//! - **Crown**: the entrant still in with the highest mean over its seeds (all entrants still in
//!   have played the same seeds); on a tie the earlier entrant, so the seed formula keeps the
//!   crown unless a champion scores higher.
//! - **Evidence**: every other entrant against the crowned one on the seeds both played: the
//!   mean paired difference with its 95% interval and the two-sided Wilcoxon signed-rank test,
//!   Holm-adjusted over those comparisons; a comparison with adjusted p < 0.05 separates the
//!   two, otherwise the crown is a best estimate, not a shown difference. `tournament.csv` and
//!   `tournament.md` hold it all.
//!
//! Guarantees: a pure function of the spec, the entrants and the settings (racing is
//! deterministic and the samples do not depend on the thread count), so a tournament
//! interrupted at any point and played again writes the same bytes.

use super::fitness::Estimate;
use super::racing::{race, RaceProgress, RacingSpec};
use super::report::{csv_text, estimate_cells};
use evomcts_formula::Formula;
use evomcts_records::runfs::derive_seed;
use evomcts_records::stats::{holm, wilcoxon_signed_rank};
use serde::{Deserialize, Serialize};

/// The tournament's table, one row per entrant.
pub const TOURNAMENT_CSV: &str = "tournament.csv";
/// The tournament for people: the rule, the entrants, the decisions, the crowned formula.
pub const TOURNAMENT_MD: &str = "tournament.md";

/// The domain tag of the tournament's seeds ("tourname" in ASCII): no run's stream (1–4 under
/// a run's own master seed) nor the runs' master seeds (`independent::run_seed`) use it.
const TOURNAMENT_DOMAIN: u64 = 0x746f_7572_6e61_6d65;

/// The adjusted p-value below which a comparison separates two entrants.
pub const SEPARATES: f64 = 0.05;

/// How the tournament spends its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSpec {
    /// Seeds every entrant not dropped plays at least (Carcassonne and the other games: both
    /// seatings of a tile sequence; the bandit: one run).
    pub samples: usize,
    /// How entrants are dropped and the saved games spent (`max_samples`: the most seeds one
    /// entrant plays).
    pub racing: RacingSpec,
}

/// The seeds every entrant plays at least when nothing says otherwise.
pub const DEFAULT_SAMPLES: usize = 200;
/// The most seeds an entrant may be asked to play at least.
pub const MAX_SAMPLES: usize = 100_000;

impl TournamentSpec {
    /// `samples` seeds at least; racing in batches of a tenth of them (at least 1), nobody
    /// dropped before a quarter of them (at least 10) are played, one-sided 1% per look, and
    /// up to four times `samples` for the entrants still in.
    pub fn with_samples(samples: usize) -> TournamentSpec {
        TournamentSpec {
            samples,
            racing: RacingSpec {
                batch: (samples / 10).max(1),
                min_samples: (samples / 4).max(10),
                z: 2.326,
                max_samples: samples.saturating_mul(4),
            },
        }
    }

    /// The first problem, as (field, message).
    pub fn check(&self) -> Result<(), (String, String)> {
        if self.samples < 2 || self.samples > MAX_SAMPLES {
            return Err((
                "tournament.samples".into(),
                format!(
                    "must be between 2 and {MAX_SAMPLES} (a paired test needs two seeds), got {}",
                    self.samples
                ),
            ));
        }
        self.racing
            .validate(self.samples)
            .map_err(|(f, m)| (f.replace("noise.racing", "tournament.racing"), m))
    }

    /// The most samples the tournament plays with `entrants` entrants.
    pub fn budget(&self, entrants: usize) -> u64 {
        (self.samples * entrants) as u64
    }

    /// The tournament's seeds an entrant may play at most (racing's cap, at least `samples`).
    pub fn seed_count(&self) -> usize {
        self.racing.max_samples.max(self.samples)
    }
}

impl Default for TournamentSpec {
    fn default() -> Self {
        TournamentSpec::with_samples(DEFAULT_SAMPLES)
    }
}

/// The tournament's sample seeds (every entrant plays a prefix of them, in order).
pub fn tournament_seeds(master: u64, count: usize) -> Vec<u64> {
    (0..count)
        .map(|j| derive_seed(master, &[TOURNAMENT_DOMAIN, j as u64]))
        .collect()
}

/// A formula in the tournament and where it comes from (`seed`, `run-1`, …).
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub formula: Formula,
    pub sources: Vec<String>,
}

/// The entrants: the seed formula, then the champions in run order, one entrant per distinct
/// formula (by its text) listing every source.
pub fn entrants(seed_formula: &Formula, champions: &[Formula]) -> Vec<Entrant> {
    let mut out: Vec<Entrant> = Vec::new();
    let named = std::iter::once(("seed".to_string(), seed_formula)).chain(
        champions
            .iter()
            .enumerate()
            .map(|(i, f)| (run_name(i + 1), f)),
    );
    for (source, formula) in named {
        let text = formula.to_string();
        match out.iter_mut().find(|e| e.formula.to_string() == text) {
            Some(e) => e.sources.push(source),
            None => out.push(Entrant {
                formula: formula.clone(),
                sources: vec![source],
            }),
        }
    }
    out
}

/// The folder name of run `i` (1-based) inside an independent runs' folder.
pub fn run_name(i: usize) -> String {
    format!("run-{i}")
}

/// One other entrant against the crowned one, on the seeds both played.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The paired differences (this entrant minus the crowned one): their number, mean and
    /// 95% interval.
    pub difference: Estimate,
    /// Wilcoxon's W+ (sum of the ranks of positive differences) and its two-sided p.
    pub w_plus: f64,
    pub p: f64,
    /// `p` Holm-adjusted over the tournament's comparisons.
    pub p_holm: f64,
}

impl Comparison {
    /// Whether the test separates the two (the crowned one scored higher, adjusted p < 0.05).
    pub fn separated(&self) -> bool {
        self.p_holm < SEPARATES && self.difference.mean < 0.0
    }
}

/// An entrant's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub entrant: Entrant,
    /// Its samples on the tournament's seeds: number, mean and 95% interval.
    pub fitness: Estimate,
    /// Seeds played when racing dropped it.
    pub dropped_after: Option<u64>,
    /// Against the crowned entrant (`None` for the crowned one).
    pub against_crowned: Option<Comparison>,
}

/// The tournament's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Crowned {
    pub spec: TournamentSpec,
    /// Games in one sample: 2 (both seatings) for a game, 1 for the bandit.
    pub games_per_sample: u64,
    pub standings: Vec<Standing>,
    /// The index of the crowned entrant in `standings`.
    pub crowned: usize,
}

impl Crowned {
    pub fn formula(&self) -> &Formula {
        &self.standings[self.crowned].entrant.formula
    }
}

/// Plays the tournament of `entrants` on the seeds of `master`; `play(indices, seeds)` gives
/// the samples of each listed entrant on `seeds` (deterministic), `progress` sees the race.
pub fn play<E>(
    entrants: Vec<Entrant>,
    master: u64,
    spec: &TournamentSpec,
    games_per_sample: u64,
    play: impl FnMut(&[usize], &[u64]) -> Result<Vec<Vec<f64>>, E>,
    progress: impl FnMut(RaceProgress),
) -> Result<Crowned, E> {
    let seeds = tournament_seeds(master, spec.seed_count());
    play_on(entrants, seeds, spec, games_per_sample, play, progress)
}

/// [`play`] on `seeds`: the tournament's seeds of `master` as the fitness plays them
/// (`FitnessSpec::sample_seeds`: in a mix, sample s on game s mod k).
pub fn play_on<E>(
    entrants: Vec<Entrant>,
    seeds: Vec<u64>,
    spec: &TournamentSpec,
    games_per_sample: u64,
    play: impl FnMut(&[usize], &[u64]) -> Result<Vec<Vec<f64>>, E>,
    progress: impl FnMut(RaceProgress),
) -> Result<Crowned, E> {
    let raced = race(
        entrants.len(),
        &seeds,
        spec.samples,
        Some(&spec.racing),
        play,
        progress,
    )?;
    Ok(decide(
        entrants,
        raced.samples,
        raced.dropped_after,
        spec,
        games_per_sample,
    ))
}

/// The crown and the evidence from every entrant's samples (in seed order) and when each was
/// dropped.
pub fn decide(
    entrants: Vec<Entrant>,
    samples: Vec<Vec<f64>>,
    dropped_after: Vec<Option<u64>>,
    spec: &TournamentSpec,
    games_per_sample: u64,
) -> Crowned {
    let fitness: Vec<Estimate> = samples.iter().map(|s| Estimate::from_samples(s)).collect();
    let crowned = (0..entrants.len())
        .filter(|&i| dropped_after[i].is_none())
        .max_by(|&i, &j| {
            fitness[i]
                .rank()
                .total_cmp(&fitness[j].rank())
                .then(j.cmp(&i))
        })
        .unwrap_or(0);
    let others: Vec<usize> = (0..entrants.len()).filter(|&i| i != crowned).collect();
    let mut comparisons: Vec<Comparison> = others
        .iter()
        .map(|&i| compare(&samples[i], &samples[crowned]))
        .collect();
    let adjusted = holm(&comparisons.iter().map(|c| c.p).collect::<Vec<_>>());
    for (c, p) in comparisons.iter_mut().zip(adjusted) {
        c.p_holm = p;
    }
    let mut comparisons = others.into_iter().zip(comparisons).collect::<Vec<_>>();
    let standings = entrants
        .into_iter()
        .enumerate()
        .map(|(i, entrant)| Standing {
            entrant,
            fitness: fitness[i],
            dropped_after: dropped_after[i],
            against_crowned: comparisons
                .iter()
                .position(|(j, _)| *j == i)
                .map(|k| comparisons.remove(k).1),
        })
        .collect();
    Crowned {
        spec: spec.clone(),
        games_per_sample,
        standings,
        crowned,
    }
}

/// `x` against `crowned` on their common prefix of seeds (before Holm's adjustment).
fn compare(x: &[f64], crowned: &[f64]) -> Comparison {
    let n = x.len().min(crowned.len());
    let d: Vec<f64> = (0..n).map(|j| x[j] - crowned[j]).collect();
    let w = wilcoxon_signed_rank(&d);
    Comparison {
        difference: Estimate::from_samples(&d),
        w_plus: w.w_plus,
        p: w.p_value,
        p_holm: w.p_value,
    }
}

/// A number for the files: shortest round-trip text, empty when not finite.
fn cell(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

/// The header of `tournament.csv`.
pub const CSV_HEADER: &str = "entrant,sources,games,mean,low,high,samples,dropped_after,\
     difference_mean,difference_low,difference_high,pairs,wilcoxon_w_plus,p,p_holm,separated,\
     crowned,formula";

/// `tournament.csv`: one row per entrant, in entrant order; the comparison's cells are empty
/// on the crowned entrant's row.
pub fn csv(c: &Crowned) -> String {
    let mut out = format!("{CSV_HEADER}\n");
    for (i, s) in c.standings.iter().enumerate() {
        let versus = s
            .against_crowned
            .as_ref()
            .map_or(",,,,,,,".to_string(), |v| {
                format!(
                    "{},{},{},{},{},{},{},{}",
                    cell(v.difference.mean),
                    cell(v.difference.low),
                    cell(v.difference.high),
                    v.difference.samples,
                    cell(v.w_plus),
                    cell(v.p),
                    cell(v.p_holm),
                    v.separated()
                )
            });
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            i + 1,
            s.entrant.sources.join(" "),
            s.fitness.samples * c.games_per_sample,
            estimate_cells(&s.fitness),
            s.dropped_after.map_or(String::new(), |d| d.to_string()),
            versus,
            i == c.crowned,
            csv_text(&s.entrant.formula.to_string()),
        ));
    }
    out
}

/// `tournament.md`: the rule, the entrants with their results, each comparison and the crown.
pub fn markdown(c: &Crowned, run: &str) -> String {
    let r = &c.spec.racing;
    let unit = if c.games_per_sample == 2 {
        "tile sequences (both seatings)"
    } else {
        "seeds"
    };
    let mut out = format!(
        "# Tournament of `{run}`\n\n\
         The seed formula and each run's champion play the same fresh {unit} against the \
         spec's fitness baseline (common random numbers), raced: from {1} of them on, after \
         every batch of {2}, an entrant whose paired differences to the current best have \
         mean + t·se < 0 (one-sided, z = {3}) is dropped; every entrant not dropped plays at \
         least {0}, and those still in play on, up to {4} each, within {5} samples in all. The crowned entrant is the \
         one still in with the highest mean (the earlier entrant on a tie). Each other entrant \
         is compared with it on the seeds both played: the mean paired difference with its 95% \
         interval and the two-sided Wilcoxon signed-rank test, Holm-adjusted over the {6} \
         comparisons; adjusted p < {SEPARATES} separates the two.\n\n",
        c.spec.samples,
        r.min_samples,
        r.batch,
        r.z,
        r.max_samples,
        c.spec.budget(c.standings.len()),
        c.standings.len().saturating_sub(1),
    );
    out.push_str(
        "| # | sources | games | fitness (95% interval) | dropped after | minus the crowned (95% interval) | W+ | p | Holm p | formula |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (i, s) in c.standings.iter().enumerate() {
        let f = &s.fitness;
        let versus = s
            .against_crowned
            .as_ref()
            .map_or("crowned | | | ".to_string(), |v| {
                let d = &v.difference;
                format!(
                    "{:+.4} [{:+.4}, {:+.4}] (n = {}) | {} | {:.3} | {:.3}{}",
                    d.mean,
                    d.low,
                    d.high,
                    d.samples,
                    v.w_plus,
                    v.p,
                    v.p_holm,
                    if v.separated() { " (separated)" } else { "" }
                )
            });
        out.push_str(&format!(
            "| {} | {} | {} | {:.4} [{:.4}, {:.4}] | {} | {} | `{}` |\n",
            i + 1,
            s.entrant.sources.join(", "),
            f.samples * c.games_per_sample,
            f.mean,
            f.low,
            f.high,
            s.dropped_after.map_or("-".to_string(), |d| d.to_string()),
            versus,
            s.entrant.formula,
        ));
    }
    let crowned = &c.standings[c.crowned];
    let all_separated = c
        .standings
        .iter()
        .filter_map(|s| s.against_crowned.as_ref())
        .all(Comparison::separated);
    out.push_str(&format!(
        "\nCrowned: entrant {} ({}): `{}`, fitness {:.4} [{:.4}, {:.4}] over {} samples. {}\n",
        c.crowned + 1,
        crowned.entrant.sources.join(", "),
        crowned.entrant.formula,
        crowned.fitness.mean,
        crowned.fitness.low,
        crowned.fitness.high,
        crowned.fitness.samples,
        if c.standings.len() < 2 {
            "It was the only entrant."
        } else if all_separated {
            "The test separates it from every other entrant."
        } else {
            "The test does not separate it from every other entrant: among those it is the best estimate, not a shown difference."
        }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: usize) -> Vec<Entrant> {
        (0..n)
            .map(|i| Entrant {
                formula: format!("Q + {i}/n").parse().unwrap(),
                sources: vec![run_name(i)],
            })
            .collect()
    }

    /// Shared noise per seed plus a constant per entrant: the paired differences are exact.
    fn samples(offsets: &[f64], n: usize) -> Vec<Vec<f64>> {
        offsets
            .iter()
            .map(|o| (0..n).map(|j| (j as f64 * 1.7).sin() * 10.0 + o).collect())
            .collect()
    }

    #[test]
    fn the_highest_mean_not_dropped_is_crowned_and_separated_from_the_clearly_worse() {
        let spec = TournamentSpec::with_samples(30);
        let c = decide(
            field(3),
            samples(&[0.0, 1.0, 0.5], 30),
            vec![None; 3],
            &spec,
            1,
        );
        assert_eq!(c.crowned, 1);
        assert!(c.standings[1].against_crowned.is_none());
        for i in [0, 2] {
            let v = c.standings[i].against_crowned.as_ref().unwrap();
            assert!(v.separated(), "{i}: {v:?}");
            assert_eq!(v.difference.samples, 30);
        }
        // An entrant racing dropped is never crowned, whatever its mean.
        let c = decide(
            field(3),
            samples(&[0.0, 1.0, 0.5], 30),
            vec![None, Some(20), None],
            &spec,
            1,
        );
        assert_eq!(c.crowned, 2);
        // Equal entrants: the earlier is crowned and nothing is separated.
        let c = decide(field(2), samples(&[0.0, 0.0], 30), vec![None; 2], &spec, 1);
        assert_eq!(c.crowned, 0);
        assert!(!c.standings[1].against_crowned.as_ref().unwrap().separated());
    }

    #[test]
    fn one_entrant_per_formula_listing_every_source() {
        let uct = Formula::uct();
        let other: Formula = "Q + 1/n".parse().unwrap();
        let e = entrants(&uct, &[other.clone(), uct.clone(), other.clone()]);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].sources, ["seed", "run-2"]);
        assert_eq!(e[1].sources, ["run-1", "run-3"]);
    }
}
