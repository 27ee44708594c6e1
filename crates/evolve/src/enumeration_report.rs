//! What an enumeration run reports: `enumeration-final.csv` (the final race), `enumeration.md`
//! (the space, the rounds, the finalists, the champion) and its progress lines on stderr.

use super::enumerate_spec::EnumerateSpec;
use super::enumeration_files::{line, EnumerationOutcome, FINAL_CSV, FINAL_HEADER};
use super::error::EvolveError;
use super::fitness::Estimate;
use super::population::write_atomically;
use super::spec::EvolveSpec;
use evomcts_records::escape::csv;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `enumeration-final.csv`: the seed (entrant 0), then each finalist.
pub(super) fn write_final(
    dir: &Path,
    spec: &EvolveSpec,
    r: &EnumerationOutcome,
) -> Result<(), EvolveError> {
    let mut out = String::from(FINAL_HEADER);
    out.push('\n');
    let num = evomcts_records::escape::csv_number;
    let estimate = |e: &Estimate| [e.samples.to_string(), num(e.mean), num(e.low), num(e.high)];
    let seed_won = r.champion == spec.seed_formula;
    let mut fields = vec![
        "0".to_string(),
        String::new(),
        String::new(),
        csv(&spec.seed_formula.to_string()),
    ];
    fields.extend(estimate(&r.seed));
    fields.extend([String::new(), String::new(), String::new(), String::new()]);
    fields.push(seed_won.to_string());
    out.push_str(&line(&fields));
    for (k, (e, row)) in r.finals.iter().enumerate() {
        let f = &r.finalists[row.candidate];
        let mut fields = vec![
            (k + 1).to_string(),
            f.candidate.to_string(),
            f.class.to_string(),
            csv(&f.formula.to_string()),
        ];
        fields.extend(estimate(e));
        fields.extend([
            num(row.mean_difference),
            num(row.p_value),
            num(row.p_holm),
            row.better.to_string(),
            (!seed_won && r.champion == f.formula).to_string(),
        ]);
        out.push_str(&line(&fields));
    }
    Ok(write_atomically(&dir.join(FINAL_CSV), &out)?)
}

/// `enumeration.md`: the space, the rounds, the finalists and the final race.
pub(super) fn summary(spec: &EvolveSpec, e: &EnumerateSpec, r: &EnumerationOutcome) -> String {
    use std::fmt::Write;
    let md = evomcts_records::escape::markdown;
    let mut out = String::new();
    let _ = writeln!(out, "# Enumeration `{}`\n", md(&spec.name));
    let _ = writeln!(
        out,
        "Fitness: {}. Grammar `{}`, every form of 1 to {} nodes: {} trees written, {} unique \
         forms, {} classes on a bank of {} sibling sets (placeholders at {:?}); {} candidates \
         (each class at each value, alike ones once), {} raced{}.\n",
        md(&spec.fitness.label()),
        md(&grammar_name(&spec.grammar)),
        e.max_nodes,
        r.written,
        r.forms,
        r.classes,
        e.bank,
        e.values,
        r.candidates,
        r.raced,
        if r.raced < r.candidates {
            ", drawn uniformly"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "Samples: {} in the race (budget {}), {} in the fits, {} in the final race; {} in all \
         ({} games a sample).\n",
        r.samples[0],
        e.race.budget,
        r.samples[1],
        r.samples[2],
        r.total_samples(),
        spec.fitness.games_per_sample()
    );
    let _ = writeln!(out, "## Race (successive halving, common sample seeds)\n");
    let _ = writeln!(
        out,
        "| round | candidates | samples each (so far) | best mean | best candidate |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for (i, round) in r.rounds.iter().enumerate() {
        let best = (0..round.means.len())
            .max_by(|&a, &b| round.means[a].total_cmp(&round.means[b]).then(b.cmp(&a)));
        let (mean, class) = best.map_or((f64::NAN, 0), |k| (round.means[k], round.alive[k]));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.4} | {} |",
            i + 1,
            round.alive.len(),
            round.samples,
            mean,
            class
        );
    }
    let _ = writeln!(
        out,
        "\n## Final race ({} fresh samples each, one-sided Wilcoxon against the seed, Holm at {})\n",
        e.final_race.samples, e.final_race.alpha
    );
    let _ = writeln!(
        out,
        "| entrant | candidate | as raced | race mean | played | mean [95%] | difference | p (Holm) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    let _ = writeln!(
        out,
        "| seed | | | | `{}` | {:.4} [{:.4}, {:.4}] | | |",
        md(&spec.seed_formula.to_string()),
        r.seed.mean,
        r.seed.low,
        r.seed.high
    );
    for (k, (est, row)) in r.finals.iter().enumerate() {
        let f = &r.finalists[row.candidate];
        let _ = writeln!(
            out,
            "| {} | {} | `{}` | {:.4} | `{}`{} | {:.4} [{:.4}, {:.4}] | {:+.4} | {:.4}{} |",
            k + 1,
            f.candidate,
            md(&f.raced.to_string()),
            f.race_mean,
            md(&f.formula.to_string()),
            if f.fitted { " (fitted)" } else { "" },
            est.mean,
            est.low,
            est.high,
            row.mean_difference,
            row.p_holm,
            if row.better { " better" } else { "" }
        );
    }
    let _ = writeln!(out, "\nChampion: `{}`.", md(&r.champion.to_string()));
    out
}

/// Progress on stderr: a line per round and per fit, and at most every 10 s within one, the
/// samples played of the run's most and an ETA from the rate so far.
pub(super) struct Progress {
    on: bool,
    most: u128,
    done: AtomicU64,
    start: Instant,
    last: Mutex<Instant>,
}

impl Progress {
    pub(super) fn new(on: bool, most: u128) -> Progress {
        let now = Instant::now();
        Progress {
            on,
            most,
            done: AtomicU64::new(0),
            start: now,
            last: Mutex::new(now),
        }
    }

    pub(super) fn note(&self, line: String) {
        if self.on {
            evomcts_records::note!("{line}");
        }
    }

    pub(super) fn sample_done(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.on {
            return;
        }
        let mut last = self.last.lock().expect("the progress clock");
        if last.elapsed() < Duration::from_secs(10) {
            return;
        }
        *last = Instant::now();
        drop(last);
        let elapsed = self.start.elapsed().as_secs_f64();
        let left = (self.most as f64 - done as f64).max(0.0) * elapsed / done as f64;
        self.note(format!(
            "  {done} samples of at most {}, {:.0} s; at most {:.0} s left at this rate",
            self.most, elapsed, left
        ));
    }

    pub(super) fn round(&self, round: usize, candidates: usize, samples: usize) {
        self.note(format!(
            "race round {round}: {candidates} candidates × {samples} more samples each"
        ));
    }

    pub(super) fn fit(&self, candidate: usize, game: usize, games: usize) {
        if game == games {
            self.note(format!(
                "fit of candidate {candidate}: {games} games played"
            ));
        }
    }
}

/// A grammar as the summary names it: a built-in name, or a file's first line
/// (`Grammar(` …) shortened to its name field when present.
fn grammar_name(grammar: &str) -> String {
    match grammar.find("name:") {
        Some(i) => grammar[i + 5..]
            .split(['\n', ','])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"')
            .to_string(),
        None => grammar.to_string(),
    }
}
