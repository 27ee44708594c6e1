//! The front between simple and strong: which of a run's candidates a simpler one does not
//! match, decided by paired tests on common samples, never by point estimates.
//!
//! Candidates: the run's hall of fame (every distinct formula of every generation, best lower
//! bound of its evolution interval first), made distinct by `Formula::simplify` (two formulas
//! with one simplified form have the same value on every input, so they play alike: one is
//! kept, the better ranked), its best `candidates`, and the seed formula (id 0) when its
//! simplified form is not among them. A candidate's complexity is the node count of its
//! simplified form.
//!
//! Samples: every candidate's simplified formula plays the same `samples` fresh sample seeds
//! (common random numbers), drawn from a seed stream of their own (`PARETO`), apart from every
//! generation's and the re-estimate's, in evolution's namespace (a Carcassonne sample plays
//! `namespace::evolution_tile_seed(seed)`, never a validation sequence). Evolution's own
//! samples cannot serve: candidates of different generations played different seeds, so no
//! paired test exists between them, and the samples that chose the hall of fame would bias
//! its estimates upwards.
//!
//! The rule (`judge`). For every unordered pair of candidates, a two-sided Wilcoxon
//! signed-rank test on the per-sample differences over the samples both played; the
//! m(m − 1)/2 p-values are one family, Holm-adjusted, so the chance that any "beats" below is
//! a fluke is at most α = 0.05 (`ALPHA`). `a` beats `b` when the adjusted p < α and the
//! differences a − b rank positive (W+ > W−). Candidates are then taken by complexity, simplest
//! first; a candidate is
//! - `beaten` when another of the same or lower complexity beats it;
//! - else `not_better` when it does not beat every front member of lower complexity (a
//!   simpler formula that it only ties keeps it off the front);
//! - else on the front (`front`).
//!
//! So the front's complexities rise and each member beats every simpler member; the simplest
//! candidates are on it unless one as simple beats them. The verdicts depend only on the
//! samples and the complexities, not on the candidates' order (which comparison `against`
//! names among equal p-values does), and the whole is pure: `pareto.csv` is a function of the
//! generation files and the spec, so a resumed run rewrites the same bytes.

use super::error::EvolveError;
use super::fitness::{evaluate_all_observed, Estimate, Request};
use super::population::{read_generations, write_atomically, Generation, PopulationError};
use super::report::{csv_text, estimate_cells, hall_of_fame};
use super::spec::{EvolveSpec, ParetoSpec};
use evomcts_formula::Formula;
use evomcts_records::csv::{CsvError, Table};
use evomcts_records::runfs::{derive_seed, RunKind, RunLock};
use evomcts_records::stats::{holm, wilcoxon_signed_rank};
use std::collections::BTreeSet;
use std::path::Path;

/// The file that holds a run's front.
pub const PARETO_CSV: &str = "pareto.csv";

/// The family-wise level of the front's tests.
pub const ALPHA: f64 = 0.05;

/// The seed stream of the front's samples: apart from `run`'s streams 1–3 and the
/// re-estimate's 4 ("PARETO" in ASCII, so no future small stream number meets it).
const PARETO: u64 = 0x5041_5245_544f;

/// The front's sample seeds (every candidate plays them all: common random numbers).
pub fn pareto_seeds(master: u64, samples: usize) -> Vec<u64> {
    (0..samples)
        .map(|j| derive_seed(master, &[PARETO, j as u64]))
        .collect()
}

/// One candidate of the front.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Its birth number in the run; 0 is the seed formula.
    pub id: usize,
    pub born: usize,
    /// As evolution bred it.
    pub formula: Formula,
    /// What it plays: the same value as `formula` on every input.
    pub simplified: Formula,
    /// Nodes of `simplified`.
    pub complexity: usize,
}

impl Candidate {
    fn new(id: usize, born: usize, formula: &Formula) -> Candidate {
        let simplified = formula.simplify();
        Candidate {
            id,
            born,
            complexity: simplified.size(),
            formula: formula.clone(),
            simplified,
        }
    }
}

/// The hall of fame's best `count` distinct simplified formulas, then the seed formula when
/// its simplified form is not among them.
pub fn candidates(gens: &[Generation], count: usize) -> Vec<Candidate> {
    let mut seen = BTreeSet::new();
    let mut out: Vec<Candidate> = hall_of_fame(gens, usize::MAX)
        .iter()
        .map(|m| Candidate::new(m.id, m.born, &m.formula))
        .filter(|c| seen.insert(c.simplified.to_string()))
        .take(count)
        .collect();
    if let Some(first) = gens.first() {
        let seed = Candidate::new(0, 0, &first.reference.formula);
        if seen.insert(seed.simplified.to_string()) {
            out.push(seed);
        }
    }
    out
}

/// Where a candidate stands (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Front,
    /// Beaten by one as simple or simpler.
    Beaten,
    /// Does not beat a simpler front member.
    NotBetter,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Front => "front",
            Verdict::Beaten => "beaten",
            Verdict::NotBetter => "not_better",
        }
    }
}

/// A candidate's verdict and the comparison that decided it: for `beaten`, the simpler (or as
/// simple) candidate that beats it with the smallest adjusted p; for `not_better`, the simpler
/// front member it fails to beat with the largest; for `front`, the simpler front member it
/// beats with the largest (its narrowest win), none when nothing simpler is on the front.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    /// The other candidate's index and the Holm-adjusted p of the comparison.
    pub against: Option<(usize, f64)>,
}

/// The paired comparisons of every unordered pair, Holm-adjusted as one family:
/// `beats[a][b]` and the adjusted p of `{a, b}` in `p[a][b]` (= `p[b][a]`).
struct Comparisons {
    p: Vec<Vec<f64>>,
    beats: Vec<Vec<bool>>,
}

fn compare_all(samples: &[Vec<f64>]) -> Comparisons {
    let m = samples.len();
    let mut pairs = Vec::new();
    for a in 0..m {
        for b in a + 1..m {
            let len = samples[a].len().min(samples[b].len());
            let d: Vec<f64> = (0..len).map(|j| samples[a][j] - samples[b][j]).collect();
            let w = wilcoxon_signed_rank(&d);
            pairs.push((a, b, w.p_value, w.effect_size));
        }
    }
    let adjusted = holm(&pairs.iter().map(|p| p.2).collect::<Vec<_>>());
    let mut c = Comparisons {
        p: vec![vec![1.0; m]; m],
        beats: vec![vec![false; m]; m],
    };
    for (&(a, b, _, effect), &p) in pairs.iter().zip(&adjusted) {
        c.p[a][b] = p;
        c.p[b][a] = p;
        if p < ALPHA {
            c.beats[a][b] = effect > 0.0;
            c.beats[b][a] = effect < 0.0;
        }
    }
    c
}

/// Each candidate's verdict from its complexity and its samples (the same seeds, in the same
/// order, for every candidate; pairs compare the samples both played).
pub fn judge(complexities: &[usize], samples: &[Vec<f64>]) -> Vec<Judgement> {
    assert_eq!(complexities.len(), samples.len(), "one sample list each");
    let c = compare_all(samples);
    let m = samples.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by_key(|&i| complexities[i]);
    let mut out = vec![
        Judgement {
            verdict: Verdict::Front,
            against: None,
        };
        m
    ];
    let mut front: Vec<usize> = Vec::new();
    for &i in &order {
        let k = complexities[i];
        let beaten_by = (0..m)
            .filter(|&h| h != i && complexities[h] <= k && c.beats[h][i])
            .min_by(|&a, &b| c.p[a][i].total_cmp(&c.p[b][i]));
        let simpler_front: Vec<usize> = front
            .iter()
            .copied()
            .filter(|&f| complexities[f] < k)
            .collect();
        // The simpler front member whose comparison with `i` has the largest adjusted p.
        let weakest = |fs: &mut dyn Iterator<Item = usize>| {
            fs.max_by(|&a, &b| c.p[a][i].total_cmp(&c.p[b][i]))
        };
        let tied = weakest(&mut simpler_front.iter().copied().filter(|&f| !c.beats[i][f]));
        out[i] = if let Some(h) = beaten_by {
            Judgement {
                verdict: Verdict::Beaten,
                against: Some((h, c.p[h][i])),
            }
        } else if let Some(f) = tied {
            Judgement {
                verdict: Verdict::NotBetter,
                against: Some((f, c.p[f][i])),
            }
        } else {
            front.push(i);
            Judgement {
                verdict: Verdict::Front,
                against: weakest(&mut simpler_front.iter().copied()).map(|f| (f, c.p[f][i])),
            }
        };
    }
    out
}

/// A run's front: its candidates, their fresh samples and verdicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Front {
    pub candidates: Vec<Candidate>,
    pub estimates: Vec<Estimate>,
    pub judgements: Vec<Judgement>,
}

impl Front {
    /// Judges `candidates` on their `samples` (in the same order).
    pub fn new(candidates: Vec<Candidate>, samples: &[Vec<f64>]) -> Front {
        let complexities: Vec<usize> = candidates.iter().map(|c| c.complexity).collect();
        Front {
            judgements: judge(&complexities, samples),
            estimates: samples.iter().map(|s| Estimate::from_samples(s)).collect(),
            candidates,
        }
    }

    /// The candidates' indices by complexity, then as listed: the rows' order.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.candidates.len()).collect();
        order.sort_by_key(|&i| self.candidates[i].complexity);
        order
    }

    /// The front members (indices), simplest first.
    pub fn members(&self) -> Vec<usize> {
        self.order()
            .into_iter()
            .filter(|&i| self.judgements[i].verdict == Verdict::Front)
            .collect()
    }

    /// `pareto.csv`: one row per candidate, by complexity.
    pub fn csv(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for i in self.order() {
            let (c, j) = (&self.candidates[i], &self.judgements[i]);
            let (against, p) = j.against.map_or((String::new(), String::new()), |(h, p)| {
                (self.candidates[h].id.to_string(), p.to_string())
            });
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{}\n",
                c.complexity,
                j.verdict.label(),
                c.id,
                c.born,
                estimate_cells(&self.estimates[i]),
                against,
                p,
                csv_text(&c.simplified.to_string()),
                csv_text(&c.formula.to_string()),
            ));
        }
        out
    }
}

/// The header of `pareto.csv`.
pub const HEADER: &str =
    "complexity,verdict,id,born,mean,low,high,samples,against,p_holm,simplified,formula";

/// One row of `pareto.csv` as the report and the figure read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub complexity: usize,
    pub verdict: Verdict,
    pub id: usize,
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    pub samples: u64,
    pub simplified: String,
}

/// The rows of `pareto.csv` read as a table (`records::csv`, its header [`HEADER`]); an error
/// names the file, the line and the field that is not what the front writes.
pub fn rows(table: &Table) -> Result<Vec<Row>, CsvError> {
    table
        .rows()
        .map(|r| {
            let verdict = [Verdict::Front, Verdict::Beaten, Verdict::NotBetter]
                .into_iter()
                .find(|v| v.label() == r.get(1))
                .ok_or_else(|| {
                    r.field_error(
                        1,
                        format!(
                            "expected a verdict (front, beaten or not_better), found {:?}",
                            r.get(1)
                        ),
                    )
                })?;
            Ok(Row {
                complexity: r.parse(0, "a complexity (a whole number)")?,
                verdict,
                id: r.parse(2, "an id (a whole number)")?,
                mean: r.number(4)?,
                low: r.number(5)?,
                high: r.number(6)?,
                samples: r.parse(7, "a sample count (a whole number)")?,
                simplified: r.get(10).to_string(),
            })
        })
        .collect()
}

/// The table and rows of `pareto.csv` in `dir`, `None` when the run has none.
pub fn read(dir: &Path) -> Result<Option<(Table, Vec<Row>)>, CsvError> {
    let Some(table) = Table::read(&dir.join(PARETO_CSV), HEADER, "a run's front")? else {
        return Ok(None);
    };
    let rows = rows(&table)?;
    Ok(Some((table, rows)))
}

/// The front of the run whose generations are `gens`: its candidates (`settings.candidates`
/// of the hall of fame and the seed formula) played on the front's seeds by `play`, which
/// returns each request's samples in order (the run's threads or job steps).
pub fn play_front(
    spec: &EvolveSpec,
    gens: &[Generation],
    settings: ParetoSpec,
    play: impl FnOnce(&[Request<'_>]) -> Result<Vec<Vec<f64>>, EvolveError>,
) -> Result<Front, EvolveError> {
    let candidates = candidates(gens, settings.candidates);
    let seeds = spec
        .fitness
        .sample_seeds(pareto_seeds(spec.seed, settings.samples));
    let requests: Vec<Request<'_>> = candidates
        .iter()
        .map(|c| Request {
            formula: &c.simplified,
            seeds: &seeds,
        })
        .collect();
    let samples = play(&requests)?;
    Ok(Front::new(candidates, &samples))
}

/// `evomcts pareto`: the front of the evolution run in `dir` (run by `spec`, whose hash its
/// generation files carry), played on `threads` threads and written to `dir/pareto.csv` under
/// the run's lock. Refuses a folder without generations and a spec the run was not made with.
pub fn write_front(
    spec: &EvolveSpec,
    dir: &Path,
    settings: ParetoSpec,
    threads: Option<usize>,
    on_sample: &(dyn Fn() + Sync),
) -> Result<Front, EvolveError> {
    let invalid = |field: &str, message: String| {
        EvolveError::Spec(super::spec::SpecFileError::Invalid {
            file: "<options>".into(),
            field: field.into(),
            message,
        })
    };
    settings
        .validate("pareto")
        .map_err(|(f, m)| invalid(&f, m))?;
    evomcts_records::bounds::check_threads(threads).map_err(EvolveError::Threads)?;
    let _lock = RunLock::acquire(
        dir,
        Some(RunKind::Evolution),
        &format!("pareto `{}`", spec.name),
    )?;
    let gens = read_generations(dir)?;
    let Some(first) = gens.first() else {
        return Err(PopulationError::Inconsistent {
            file: dir.display().to_string(),
            message: "holds no generation files (gen-NNN.ron): not an evolution run, or not \
                      begun"
                .into(),
        }
        .into());
    };
    let hash = super::resume::run_hash(spec, dir)?;
    if first.spec_hash != hash {
        return Err(EvolveError::ForeignGeneration {
            file: super::population::generation_path(dir, first.generation)
                .display()
                .to_string(),
            found: first.spec_hash.clone(),
            expected: format!("{hash}, the hash of the spec given (--spec)"),
        });
    }
    let default_threads = spec.fitness.pool_game().map_or(0, |g| g.default_threads());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(default_threads))
        .build()
        .expect("a thread pool");
    let front = pool.install(|| {
        play_front(spec, &gens, settings, |requests| {
            Ok(evaluate_all_observed(&spec.fitness, requests, on_sample)?)
        })
    })?;
    write_atomically(&dir.join(PARETO_CSV), &front.csv())?;
    Ok(front)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` samples of shared noise plus `shift`: candidates with the same noise and shifts
    /// apart by a constant differ on every sample.
    fn noisy(n: usize, shift: f64, jitter: f64) -> Vec<f64> {
        (0..n)
            .map(|j| (j as f64 * 1.7).sin() * 10.0 + shift + jitter * (j as f64 * 3.1).cos())
            .collect()
    }

    #[test]
    fn a_simpler_candidate_that_ties_a_complex_one_keeps_it_off_the_front() {
        // Same play up to small noise of either sign: no test decides.
        let simple = noisy(40, 0.0, 0.0);
        let complex = noisy(40, 0.0, 0.5);
        let j = judge(&[3, 9], &[simple, complex]);
        assert_eq!(j[0].verdict, Verdict::Front);
        assert_eq!(j[1].verdict, Verdict::NotBetter);
        assert_eq!(j[1].against.map(|a| a.0), Some(0));
    }

    #[test]
    fn a_significantly_worse_simpler_candidate_leaves_the_complex_one_on_the_front() {
        let simple = noisy(40, 0.0, 0.0);
        let complex = noisy(40, 1.0, 0.5);
        let j = judge(&[3, 9], &[simple, complex]);
        assert_eq!(j[0].verdict, Verdict::Front);
        assert_eq!(j[1].verdict, Verdict::Front);
        let (against, p) = j[1].against.expect("compared with the simpler member");
        assert_eq!(against, 0);
        assert!(p < ALPHA);
    }

    #[test]
    fn a_candidate_beaten_by_a_simpler_one_is_beaten_and_equal_complexity_competes() {
        let strong = noisy(40, 2.0, 0.0);
        let weak_simple = noisy(40, 0.0, 0.3);
        let weak_complex = noisy(40, 0.0, 0.3);
        let tie_of_strong = noisy(40, 2.0, 0.4);
        // strong (5) beats weak_complex (9) and the equally complex weak_simple (5);
        // tie_of_strong (5) ties strong and stays on the front beside it.
        let j = judge(
            &[5, 5, 9, 5],
            &[strong, weak_simple, weak_complex, tie_of_strong],
        );
        assert_eq!(j[0].verdict, Verdict::Front);
        assert_eq!(j[1].verdict, Verdict::Beaten);
        assert_eq!(j[2].verdict, Verdict::Beaten);
        assert_eq!(j[3].verdict, Verdict::Front);
    }

    #[test]
    fn holm_makes_a_difference_that_one_test_would_call_significant_a_tie() {
        // Two candidates whose difference has p ≈ 0.01 alone: beside eight far weaker
        // candidates that tie each other, 45 pairs share α (the 16 pairs with the weak ones
        // decided first), and the complex one no longer beats the simple one.
        let simple = noisy(30, 0.0, 0.0);
        let complex: Vec<f64> = simple
            .iter()
            .enumerate()
            .map(|(j, x)| x + if j % 4 == 0 { -0.6 } else { 0.6 })
            .collect();
        let alone = judge(&[3, 9], &[simple.clone(), complex.clone()]);
        let d: Vec<f64> = complex.iter().zip(&simple).map(|(a, b)| a - b).collect();
        let p = wilcoxon_signed_rank(&d).p_value;
        assert!(p < ALPHA && p > ALPHA / 45.0, "p = {p}");
        assert_eq!(alone[1].verdict, Verdict::Front);
        let mut samples = vec![simple, complex];
        let mut complexities = vec![3, 9];
        for k in 0..8 {
            samples.push(noisy(30, -100.0, 0.1 * (k + 1) as f64));
            complexities.push(20 + k);
        }
        let crowded = judge(&complexities, &samples);
        assert_eq!(crowded[1].verdict, Verdict::NotBetter);
    }
}
