//! Progress lines of an evolution run, on stderr: within a generation (games or bandit runs
//! evaluated of the generation's total, candidates still racing, ETAs) and within the
//! re-estimate after the last generation at most every 10 seconds, and one line per
//! generation. The run's ETA counts the re-estimate's samples. Nothing here affects results.

use super::population::Generation;
use super::racing::RaceProgress;
use super::spec::{ChampionRule, EvolveSpec, FitnessSpec};
use evomcts_records::progress::duration;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Progress lines with ETAs. Every fitness sample is counted as it finishes, on whichever
/// worker computed it; the time per sample is measured over everything this call computed.
/// The ETA of the current generation is that times the samples left of its nominal count
/// (its race's budget, the elites' samples and, in generation 0, the reference's); the run's
/// adds the nominal samples of each generation still to come. Racing only drops samples, so
/// the nominal count is what a generation spends at most.
pub(crate) struct Tracker {
    on: bool,
    started: Instant,
    stop_at: usize,
    /// Nominal samples of a generation g ≥ 1 and of generation 0.
    per_generation: u64,
    initial: u64,
    /// Candidates raced in a generation g ≥ 1 and in generation 0.
    racing: usize,
    initial_racing: usize,
    /// Samples of the re-estimate after the last generation (0 without one, or when this
    /// call stops before it).
    reestimate: u64,
    /// Games in one sample (both seatings of a tile sequence), or 1 bandit run.
    per_sample: u64,
    unit: &'static str,
    /// Samples finished since this call started.
    samples: AtomicU64,
    current: Mutex<Current>,
}

/// The generation being computed, or the re-estimate.
struct Current {
    generation: usize,
    reestimating: bool,
    started: Instant,
    /// `Tracker::samples` when it began.
    samples_before: u64,
    nominal: u64,
    candidates: usize,
    alive: usize,
    last_line: Instant,
}

impl Tracker {
    const EVERY: Duration = Duration::from_secs(10);

    pub(crate) fn new(on: bool, stop_at: usize, spec: &EvolveSpec) -> Tracker {
        let now = Instant::now();
        let s = &spec.strategy;
        let n = &spec.noise;
        let reevaluated = if s.plus && n.reevaluate_survivors {
            s.mu
        } else {
            0
        };
        // Validation bounds a run's samples far below u64.
        let (initial, per_generation) = spec.samples_per_generation();
        let reestimate = match n.reestimate {
            Some(r) if stop_at == s.generations => (r.candidates * r.samples) as u64,
            _ => 0,
        };
        let (per_sample, unit) = match spec.fitness {
            FitnessSpec::Games(_) | FitnessSpec::Mixed(_) => (2, "games"),
            FitnessSpec::Planted(_) => (2, "synthetic games"),
            FitnessSpec::Bandit(_) => (1, "bandit runs"),
        };
        if on {
            evomcts_records::note!("{}", why_best_and_champion_differ(spec));
        }
        Tracker {
            on,
            started: now,
            stop_at,
            per_generation: per_generation as u64,
            initial: initial as u64,
            racing: s.lambda + reevaluated,
            initial_racing: s.mu,
            reestimate,
            per_sample,
            unit,
            samples: AtomicU64::new(0),
            current: Mutex::new(Current {
                generation: 0,
                reestimating: false,
                started: now,
                samples_before: 0,
                nominal: 0,
                candidates: 0,
                alive: 0,
                last_line: now,
            }),
        }
    }

    pub(crate) fn begin(&self, generation: usize) {
        let (nominal, candidates) = if generation == 0 {
            (self.initial, self.initial_racing)
        } else {
            (self.per_generation, self.racing)
        };
        if let Ok(mut c) = self.current.lock() {
            *c = Current {
                generation,
                reestimating: false,
                started: Instant::now(),
                samples_before: self.samples.load(Ordering::Relaxed),
                nominal,
                candidates,
                alive: candidates,
                last_line: c.last_line,
            };
        }
    }

    /// The re-estimate begins: `candidates` formulas, its nominal samples in all.
    pub(crate) fn begin_reestimate(&self, candidates: usize) {
        if let Ok(mut c) = self.current.lock() {
            *c = Current {
                generation: c.generation,
                reestimating: true,
                started: Instant::now(),
                samples_before: self.samples.load(Ordering::Relaxed),
                nominal: self.reestimate,
                candidates,
                alive: candidates,
                last_line: c.last_line,
            };
        }
    }

    /// Nominal samples still to come after the current phase: the later generations' and the
    /// re-estimate's.
    fn samples_after(&self, c: &Current) -> u64 {
        if c.reestimating {
            return 0;
        }
        self.stop_at.saturating_sub(c.generation) as u64 * self.per_generation + self.reestimate
    }

    /// Seconds per sample so far.
    fn seconds_per_sample(&self) -> Option<f64> {
        let spent = self.samples.load(Ordering::Relaxed);
        (spent > 0).then(|| self.started.elapsed().as_secs_f64() / spent as f64)
    }

    /// Counts one finished sample; called from the workers.
    pub(crate) fn sample_done(&self) {
        self.samples.fetch_add(1, Ordering::Relaxed);
        if !self.on {
            return;
        }
        // Another worker printing now is reason enough not to wait for it.
        if let Ok(mut c) = self.current.try_lock() {
            self.line_if_due(&mut c);
        }
    }

    /// A race's candidates still in it, after one of its batches.
    pub(crate) fn race(&self, p: RaceProgress) {
        if let Ok(mut c) = self.current.lock() {
            c.candidates = p.candidates;
            c.alive = p.alive;
            if self.on {
                self.line_if_due(&mut c);
            }
        }
    }

    fn line_if_due(&self, c: &mut Current) {
        if c.last_line.elapsed() < Self::EVERY {
            return;
        }
        c.last_line = Instant::now();
        let done = self.samples.load(Ordering::Relaxed) - c.samples_before;
        let rate = self.seconds_per_sample().unwrap_or(0.0);
        let generation_eta = rate * c.nominal.saturating_sub(done) as f64;
        let later = self.samples_after(c);
        if c.reestimating {
            evomcts_records::note!(
                "  re-estimate: {}/{} {}, {} candidates, {} in; ETA {}",
                done * self.per_sample,
                c.nominal.max(done) * self.per_sample,
                self.unit,
                c.candidates,
                duration(c.started.elapsed().as_secs_f64()),
                duration(generation_eta),
            );
            return;
        }
        let racing = if c.alive < c.candidates {
            format!(", {} of {} candidates still racing", c.alive, c.candidates)
        } else {
            format!(", {} candidates", c.candidates)
        };
        evomcts_records::note!(
            "  gen {:>3}: {}/{} {}{racing}, {} in; generation ETA {}, run ETA {}",
            c.generation,
            done * self.per_sample,
            c.nominal.max(done) * self.per_sample,
            self.unit,
            duration(c.started.elapsed().as_secs_f64()),
            duration(generation_eta),
            duration(generation_eta + rate * later as f64),
        );
    }

    pub(crate) fn report(&self, spec: &EvolveSpec, generation: &Generation) {
        let mut later = 0;
        if let Ok(mut c) = self.current.lock() {
            c.last_line = Instant::now();
            later = self.samples_after(&c);
        }
        if !self.on {
            return;
        }
        let c = &generation.champion;
        let eta = self
            .seconds_per_sample()
            .map(|rate| duration(rate * later as f64))
            .unwrap_or_else(|| "?".into());
        evomcts_records::note!(
            "gen {:>3}/{}  best {:.3}  mean {:.3}  {} samples ({} dropped)  champion #{} {}: {}  [{} elapsed, ETA {}]",
            generation.generation,
            spec.strategy.generations,
            generation.best,
            generation.mean,
            generation.spent,
            generation.dropped,
            c.id,
            c.fitness,
            c.formula,
            duration(self.started.elapsed().as_secs_f64()),
            eta,
        );
    }
}

/// What a generation's line shows, said once before the first: `best` is one candidate on the
/// generation's few samples (luck included), the champion an elite by the spec's rule over all
/// its samples, so the two differ and the champion is usually lower.
pub(crate) fn why_best_and_champion_differ(spec: &EvolveSpec) -> String {
    let n = &spec.noise;
    let rule = match n.champion {
        ChampionRule::HighestMean => "the highest mean",
        ChampionRule::HighestLowerBound => "the highest lower end of its 95% interval",
    };
    format!(
        "each generation's line: `best` and `mean` are its candidates' fitness on their own {} samples (the best of many is flattered by luck); the champion is the elite with {rule} over all its samples (up to {} more for the {} elites), so it is steadier than `best` and usually lower",
        n.samples, n.elite_samples, n.elites
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_says_why_best_and_champion_differ_under_the_spec_s_rule() {
        let note = why_best_and_champion_differ(&spec(""));
        assert!(
            note.contains("own 6 samples") && note.contains("the highest mean"),
            "{note}"
        );
    }

    fn spec(reestimate: &str) -> EvolveSpec {
        let text = format!(
            r#"(
                name: "progress",
                seed: 1,
                strategy: (mu: 2, lambda: 4, generations: 3, plus: true),
                noise: (samples: 6{reestimate}),
                fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 50, c_e: 0.5),
            )"#
        );
        EvolveSpec::from_ron(&text, "progress.ron").unwrap()
    }

    /// The run's ETA counts the re-estimate's samples until it begins, and the re-estimate is
    /// a phase of its own with its nominal samples, not more samples of the last generation.
    #[test]
    fn the_reestimate_is_counted_in_the_run_eta_and_shown_as_its_own_phase() {
        let with = Tracker::new(
            false,
            3,
            &spec(", reestimate: (candidates: 3, samples: 20)"),
        );
        let without = Tracker::new(false, 3, &spec(""));
        with.begin(3);
        without.begin(3);
        let after = |t: &Tracker| t.samples_after(&t.current.lock().unwrap());
        assert_eq!(after(&with), 60);
        assert_eq!(after(&without), 0);
        with.begin_reestimate(3);
        let c = with.current.lock().unwrap();
        assert!(c.reestimating);
        assert_eq!((c.nominal, c.candidates), (60, 3));
        assert_eq!(with.samples_after(&c), 0);
        // A run stopped before its last generation does not reach the re-estimate.
        let stopping = Tracker::new(
            false,
            2,
            &spec(", reestimate: (candidates: 3, samples: 20)"),
        );
        stopping.begin(2);
        assert_eq!(after(&stopping), 0);
    }
}
