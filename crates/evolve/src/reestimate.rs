//! A champion that is not the luckiest: after the last generation, the best `candidates` of
//! the hall of fame (by the lower end of their evolution interval) play `samples` fresh
//! samples each, from a seed stream of their own that no generation draws from, and the one
//! with the highest re-estimated mean is crowned. The champion of a run that evolution
//! crowned is the best of about λ·generations noisy estimates, so its estimate is biased
//! upwards (the winner's curse); the re-estimate is not, since the samples that chose the
//! candidates are not the ones that rank them.
//!
//! `reestimate.csv` keeps both estimates of every candidate, so the shrinkage of the
//! winner's lead is read off the run folder.

use super::fitness::Estimate;
use super::population::{read_generations, Member, PopulationError};
use super::report::{csv_text, estimate_cells, hall_of_fame};
use super::spec::EvolveSpec;
use evomcts_records::runfs::derive_seed;
use std::path::Path;

/// The file that holds the re-estimate of a run.
pub const REESTIMATE_CSV: &str = "reestimate.csv";
/// The header of `reestimate.csv`.
pub const REESTIMATE_HEADER: &str = "rank,id,born,evolution_mean,evolution_low,evolution_high,\
     evolution_samples,fresh_mean,fresh_low,fresh_high,fresh_samples,crowned,formula";

/// One re-estimated candidate: its evolution estimate and the fresh one.
#[derive(Clone, Debug, PartialEq)]
pub struct Reestimated {
    pub member: Member,
    pub fresh: Estimate,
}

/// The seed stream of the re-estimate, apart from every generation's (`run`'s streams 1–3).
const REESTIMATE: u64 = 4;

/// The fresh sample seeds (every candidate plays them all: common random numbers).
pub fn reestimate_seeds(master: u64, samples: usize) -> Vec<u64> {
    (0..samples)
        .map(|j| derive_seed(master, &[REESTIMATE, j as u64]))
        .collect()
}

/// Pairs each of `hall` with its fresh samples (in the same order) and returns them with the
/// index of the crowned one: the highest fresh mean, the better evolution rank on ties.
pub fn crown(hall: Vec<Member>, fresh: Vec<Vec<f64>>) -> (Vec<Reestimated>, usize) {
    let rows: Vec<Reestimated> = hall
        .into_iter()
        .zip(fresh)
        .map(|(member, samples)| Reestimated {
            member,
            fresh: Estimate::from_samples(&samples),
        })
        .collect();
    let crowned = rows
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.fresh.rank().total_cmp(&b.fresh.rank()).then(j.cmp(i)))
        .map_or(0, |(i, _)| i);
    (rows, crowned)
}

/// The fitness samples the run of `spec` in `dir` has spent, read from its generation files
/// without playing: the last generation's `samples_spent` and, once the last generation of a
/// spec with a re-estimate is written, the re-estimate's (every candidate of the hall of fame
/// it picks on every fresh seed). What `run_evolution` counts for a run it finishes.
pub fn samples_spent(spec: &EvolveSpec, dir: &Path) -> Result<u64, PopulationError> {
    let gens = read_generations(dir)?;
    let Some(last) = gens.last() else {
        return Ok(0);
    };
    let fresh = match spec
        .noise
        .reestimate
        .filter(|_| last.generation == spec.strategy.generations)
    {
        Some(r) => {
            let seeds = spec
                .fitness
                .sample_seeds(reestimate_seeds(spec.seed, r.samples))
                .len();
            (hall_of_fame(&gens, r.candidates).len() * seeds) as u64
        }
        None => 0,
    };
    Ok(last.samples_spent + fresh)
}

/// `reestimate.csv`: one row per candidate in the hall of fame's order.
pub fn reestimate_csv(rows: &[Reestimated], crowned: usize) -> String {
    let mut out = format!("{REESTIMATE_HEADER}\n");
    for (i, row) in rows.iter().enumerate() {
        let m = &row.member;
        out.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            i + 1,
            m.id,
            m.born,
            estimate_cells(&m.fitness),
            estimate_cells(&row.fresh),
            i == crowned,
            csv_text(&m.formula.to_string()),
        ));
    }
    out
}
