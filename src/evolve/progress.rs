//! Progress lines of an evolution run, on stderr: within a generation (the race's samples,
//! candidates still racing, ETAs) and one line per generation. Nothing here affects results.

use super::population::Generation;
use super::racing::RaceProgress;
use super::spec::EvolveSpec;
use std::time::{Duration, Instant};

/// Progress lines with ETAs. Time per fitness sample is measured over everything this call
/// has computed; the ETA of the current generation is that times the samples left in its
/// race plus its elites' samples, the run's adds the nominal samples of each generation
/// still to come (racing only moves samples between candidates, so the nominal count is
/// what a generation spends, at most).
pub(crate) struct Tracker {
    on: bool,
    started: Instant,
    generation_started: Instant,
    last_line: Instant,
    generation: usize,
    stop_at: usize,
    /// Samples spent by the generations this call finished.
    spent_done: u64,
    /// Nominal samples of a generation g ≥ 1: its race's budget plus the elites'.
    per_generation: u64,
    elite_samples: u64,
}

fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

impl Tracker {
    pub(crate) fn new(on: bool, stop_at: usize, spec: &EvolveSpec) -> Tracker {
        let now = Instant::now();
        let s = &spec.strategy;
        let reevaluated = if s.plus && spec.noise.reevaluate_survivors {
            s.mu
        } else {
            0
        };
        let elite_samples = (spec.noise.elites.min(s.mu) * spec.noise.elite_samples) as u64;
        Tracker {
            on,
            started: now,
            generation_started: now,
            last_line: now,
            generation: 0,
            stop_at,
            spent_done: 0,
            per_generation: ((s.lambda + reevaluated) * spec.noise.samples) as u64 + elite_samples,
            elite_samples,
        }
    }

    pub(crate) fn begin(&mut self, generation: usize) {
        self.generation = generation;
        self.generation_started = Instant::now();
    }

    /// Seconds per sample so far, counting `spent_now` samples of the current generation.
    fn seconds_per_sample(&self, spent_now: u64) -> Option<f64> {
        let spent = self.spent_done + spent_now;
        (spent > 0).then(|| self.started.elapsed().as_secs_f64() / spent as f64)
    }

    pub(crate) fn race(&mut self, p: RaceProgress) {
        if !self.on || self.last_line.elapsed() < Duration::from_secs(10) || p.spent == 0 {
            return;
        }
        self.last_line = Instant::now();
        let rate = self.seconds_per_sample(p.spent).unwrap_or(0.0);
        let left = p.budget.saturating_sub(p.spent) + self.elite_samples;
        let generation_eta = rate * left as f64;
        let later = self.stop_at.saturating_sub(self.generation) as u64 * self.per_generation;
        eprintln!(
            "  gen {:>3}: {}/{} samples, {} of {} still racing, {} in; generation ETA {}, run ETA {}",
            self.generation,
            p.spent,
            p.budget,
            p.alive,
            p.candidates,
            duration(self.generation_started.elapsed().as_secs_f64()),
            duration(generation_eta),
            duration(generation_eta + rate * later as f64),
        );
    }

    pub(crate) fn report(&mut self, spec: &EvolveSpec, generation: &Generation) {
        self.spent_done += generation.spent;
        self.last_line = Instant::now();
        if !self.on {
            return;
        }
        let c = &generation.champion;
        let later = self.stop_at.saturating_sub(generation.generation) as u64 * self.per_generation;
        let eta = self
            .seconds_per_sample(0)
            .map(|rate| duration(rate * later as f64))
            .unwrap_or_else(|| "?".into());
        eprintln!(
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
