//! The run's folder on disk: one RON file per generation, the spec it was started with
//! and the champion.
//!
//! `populations/<run>/`:
//! - `spec.ron`: the spec of the first start (a resume under a different spec is refused);
//! - `gen-NNN.ron`: the population after generation NNN (000 = the initial population):
//!   survivors with their fitness estimates, everything born that generation with its
//!   parent (the lineage), the champion and the reference (the seed formula);
//! - `champion.txt`: the champion's formula alone, in the text form that MCTS's
//!   `Selection::FormulaFile` reads; `champion.ron`: the same with its fitness and origin.
//!
//! Every file is written to a temporary name, synced and renamed, so a crash leaves
//! either the old or the new file, never half of one. A file that does not parse is
//! reported with its line and column and left alone.

use super::fitness::Estimate;
use super::fitting::Fitted;
use super::spec::{EvolveSpec, FitnessSpec};
use super::values::{check_estimate, check_fitted, check_per_game, RunRules};
use evomcts_formula::Formula;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One individual as the files show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    /// Birth number within the run; the seed formula is 0.
    pub id: usize,
    /// Generation of birth.
    pub born: usize,
    /// `None` for the seed formula.
    pub parent: Option<usize>,
    pub formula: Formula,
    pub size: usize,
    pub depth: usize,
    pub fitness: Estimate,
    /// In a mix of games (`fitness: Mixed(..)`), its fitness on each game of the mix, in the
    /// mix's order, from the samples that played it (left out for one game and the bandit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_game: Vec<Estimate>,
    /// Racing: the number of this generation's sample seeds it had played when it was
    /// dropped as significantly worse than the best (left out when it was not dropped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped_after: Option<u64>,
}

impl Member {
    pub fn new(id: usize, born: usize, parent: Option<usize>, formula: Formula) -> Member {
        Member {
            id,
            born,
            parent,
            size: formula.size(),
            depth: formula.depth(),
            formula,
            fitness: Estimate::default(),
            per_game: Vec::new(),
            dropped_after: None,
        }
    }

    /// Pools `values`, the samples of `seeds` in order, into its fitness and, in a mix, into
    /// the fitness on the game each seed played.
    pub fn add_samples(&mut self, fitness: &FitnessSpec, seeds: &[u64], values: &[f64]) {
        debug_assert_eq!(seeds.len(), values.len());
        self.fitness.add(values);
        if let FitnessSpec::Mixed(mix) = fitness {
            self.per_game.resize(mix.games.len(), Estimate::default());
            for (&seed, &value) in seeds.iter().zip(values) {
                self.per_game[mix.game_of(seed)].add(&[value]);
            }
        }
    }
}

/// The state of a run after one generation: enough to continue it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generation {
    pub run: String,
    /// `EvolveSpec::hash` of the spec that produced it.
    pub spec_hash: String,
    pub generation: usize,
    /// The id the next newborn gets.
    pub next_id: usize,
    /// Fitness samples spent so far in the whole run.
    pub samples_spent: u64,
    /// Fitness samples spent in this generation (raced evaluations, re-evaluations and the
    /// elites' extra samples). 0 in files written before it was recorded.
    #[serde(default)]
    pub spent: u64,
    /// Candidates dropped by racing this generation.
    #[serde(default)]
    pub dropped: usize,
    /// What functional hashing did this generation (left out when it is off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashing: Option<HashingCounts>,
    /// Best and mean fitness (means) of the individuals evaluated this generation.
    pub best: f64,
    pub mean: f64,
    /// The best elite: the formula to use.
    pub champion: Member,
    /// The seed formula, evaluated in generation 0 like an elite, for comparison.
    pub reference: Member,
    /// The survivors, best first: the parents of the next generation.
    pub parents: Vec<Member>,
    /// Everything born this generation, in birth order, with its fitness when selection
    /// happened (survivors' later samples show in `parents`).
    pub offspring: Vec<Member>,
    /// `noise.fit_constants`: the survivors fitted this generation, before and after, and
    /// whether the fitted formula replaced each (left out when none was fitted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fitting: Vec<Fitted>,
}

/// What functional hashing (`hashing`) did in one generation (the logbook's columns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HashingCounts {
    /// Newborns whose canonical form equals one scored earlier in the run or this generation.
    pub exact_duplicates: usize,
    /// Newborns with a new canonical form but the fingerprint of one already scored.
    pub fingerprint_duplicates: usize,
    /// Newborns with a new fingerprint.
    pub new_candidates: usize,
    /// Samples not played this generation because a class-mate played them.
    pub samples_saved: u64,
    /// Samples of earlier generations whose estimate a duplicate inherited.
    pub samples_inherited: u64,
}

/// The champion as `champion.ron` shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Champion {
    pub run: String,
    pub generation: usize,
    pub member: Member,
    /// The seed formula's fitness on the same domain, for comparison.
    pub reference: Member,
}

#[derive(Debug, thiserror::Error)]
pub enum PopulationError {
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}:{line}:{column}: corrupt file of an evolution run: {message} (left untouched; repair or remove it to resume)")]
    Corrupt {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{file}: {message} (left untouched)")]
    Inconsistent { file: String, message: String },
}

pub fn generation_path(dir: &Path, generation: usize) -> PathBuf {
    dir.join(format!("gen-{generation:03}.ron"))
}

pub fn champion_text_path(dir: &Path) -> PathBuf {
    dir.join("champion.txt")
}

pub fn champion_ron_path(dir: &Path) -> PathBuf {
    dir.join("champion.ron")
}

/// Generation numbers of the `gen-NNN.ron` files in `dir`, ascending.
pub fn generations_on_disk(dir: &Path) -> Result<Vec<usize>, PopulationError> {
    let io = |source| PopulationError::Io {
        file: dir.display().to_string(),
        source,
    };
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(io(e)),
    };
    for entry in entries {
        let name = entry.map_err(io)?.file_name();
        let name = name.to_string_lossy();
        if let Some(number) = name
            .strip_prefix("gen-")
            .and_then(|rest| rest.strip_suffix(".ron"))
        {
            if let Ok(g) = number.parse::<usize>() {
                found.push(g);
            }
        }
    }
    found.sort_unstable();
    // `gen-1.ron` and `gen-001.ron` name one generation.
    found.dedup();
    Ok(found)
}

/// Every generation file of `dir`, in order, each with its values checked against the run's
/// `spec.ron` when it reads (see `values`); a file no run of it could have written is refused.
pub fn read_generations(dir: &Path) -> Result<Vec<Generation>, PopulationError> {
    let spec_path = dir.join("spec.ron");
    let spec = evomcts_records::runfs::read_spec_text(&spec_path)
        .ok()
        .and_then(|text| EvolveSpec::from_ron(&text, &spec_path.display().to_string()).ok());
    let rules = spec.as_ref().and_then(RunRules::new);
    generations_on_disk(dir)?
        .into_iter()
        .map(|g| Generation::read_of(&generation_path(dir, g), g, rules.as_ref()))
        .collect()
}

/// Checks that `dir` is an evolution run's folder (it holds generation 0) before its
/// `spec.ron` is read as an evolution's, so that a league's or a validation's folder given by
/// mistake is named for what it is, not refused for a spec field an evolution does not have.
pub fn check_evolution_folder(dir: &Path) -> Result<(), PopulationError> {
    if generation_path(dir, 0).is_file() {
        return Ok(());
    }
    let what = if dir.join("games.jsonl").is_file() {
        "a league's folder (it holds games.jsonl)"
    } else if dir.join("games.csv").is_file() {
        "a validation's or a table's folder (it holds games.csv)"
    } else {
        "no evolution run's folder (it holds no gen-000.ron)"
    };
    Err(PopulationError::Inconsistent {
        file: dir.display().to_string(),
        message: format!("not an evolution run: {what}"),
    })
}

/// A warning for readers of a run's champion when the run has not written its last generation
/// (`generations`, the spec's): it is still running or was stopped early, so the champion is
/// that of an earlier generation and not final. `None` for a finished run.
pub fn unfinished_warning(
    dir: &Path,
    generations: usize,
) -> Result<Option<String>, PopulationError> {
    let last = generations_on_disk(dir)?.last().copied();
    if last.is_some_and(|g| g >= generations) {
        return Ok(None);
    }
    let reached = last.map_or("no generation".to_string(), |g| format!("generation {g}"));
    Ok(Some(format!(
        "{} has reached {reached} of {generations}: the run is still running or was stopped \
         early, so its champion is not final",
        dir.display()
    )))
}

/// The generations missing before the last one on disk (`on_disk` ascending, distinct), in
/// order: a run writes every generation in turn, so a gap means a file was lost or removed.
/// Lazy, so a file named for a huge generation costs nothing.
pub fn generation_gaps(on_disk: &[usize]) -> impl Iterator<Item = usize> + '_ {
    let starts = std::iter::once(0).chain(on_disk.iter().map(|g| g + 1));
    starts.zip(on_disk.iter()).flat_map(|(from, &to)| from..to)
}

/// A warning for readers of a run folder (report, plots) when generations are missing
/// before the last one; `None` when there is no gap.
pub fn gap_warning(dir: &Path, on_disk: &[usize]) -> Option<String> {
    let first: Vec<usize> = generation_gaps(on_disk).take(3).collect();
    let last = *on_disk.last()?;
    let missing = last + 1 - on_disk.len();
    (missing > 0).then(|| {
        format!(
            "{}: {missing} of the generations up to {last} are missing (e.g. {}); the tables and figures show the {} that are there",
            dir.display(),
            first
                .iter()
                .map(|&g| generation_path(Path::new(""), g).display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            on_disk.len()
        )
    })
}

fn pretty() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new().struct_names(true)
}

impl Generation {
    pub fn to_ron(&self) -> String {
        let mut text = ron::ser::to_string_pretty(self, pretty()).expect("a generation serialises");
        text.push('\n');
        text
    }

    /// Reads and checks a generation file; `expected` is the generation its name says. Its
    /// values are checked as far as no spec is needed (see [`Generation::read_of`]).
    pub fn read(path: &Path, expected: usize) -> Result<Generation, PopulationError> {
        Generation::read_of(path, expected, None)
    }

    /// Reads and checks a generation file of the run whose spec and grammar are `rules` (when
    /// known): its structure, then every value (see `values`).
    pub fn read_of(
        path: &Path,
        expected: usize,
        rules: Option<&RunRules<'_>>,
    ) -> Result<Generation, PopulationError> {
        let file = path.display().to_string();
        let text = evomcts_records::runfs::read_capped_text(
            path,
            evomcts_records::runfs::MAX_GENERATION_FILE_BYTES,
            "a generation file",
        )
        .map_err(|source| PopulationError::Io {
            file: file.clone(),
            source,
        })?;
        let generation: Generation =
            ron::from_str(&text).map_err(|e| PopulationError::Corrupt {
                file: file.clone(),
                line: e.position.line,
                column: e.position.col,
                message: e.code.to_string(),
            })?;
        let inconsistent = |message: String| PopulationError::Inconsistent {
            file: file.clone(),
            message,
        };
        if generation.generation != expected {
            return Err(inconsistent(format!(
                "holds generation {} but is named for generation {expected}",
                generation.generation
            )));
        }
        if generation.parents.is_empty() {
            return Err(inconsistent("has no parents".into()));
        }
        let max_id = generation
            .parents
            .iter()
            .chain(&generation.offspring)
            .chain([&generation.champion, &generation.reference])
            .map(|m| m.id)
            .max()
            .unwrap_or(0);
        if generation.next_id <= max_id {
            return Err(inconsistent(format!(
                "next_id {} is not above the largest id {max_id}",
                generation.next_id
            )));
        }
        check_generation_values(&generation, rules).map_err(inconsistent)?;
        Ok(generation)
    }
}

/// Checks every member of `generation` against the run's `rules` when known (see `values`);
/// the error is `PLACE.FIELD: PROBLEM`.
fn check_generation_values(
    generation: &Generation,
    rules: Option<&RunRules<'_>>,
) -> Result<(), String> {
    let named = [
        ("champion".to_string(), &generation.champion),
        ("reference".to_string(), &generation.reference),
    ];
    let listed = [
        ("parents", &generation.parents),
        ("offspring", &generation.offspring),
    ]
    .into_iter()
    .flat_map(|(list, members)| {
        members
            .iter()
            .enumerate()
            .map(move |(i, m)| (format!("{list}[{i}]"), m))
    });
    for (place, member) in named.into_iter().chain(listed) {
        check_member(member, generation.generation, rules)
            .map_err(|(field, problem)| format!("{place}.{field}: {problem}"))?;
    }
    for (i, fitted) in generation.fitting.iter().enumerate() {
        check_fitted(fitted, generation.next_id, rules)
            .map_err(|(field, problem)| format!("fitting[{i}].{field}: {problem}"))?;
    }
    check_summary(generation, rules)
}

/// The generation's best and mean fitness: each a mean of ranks (`run::summary`), so minus
/// infinity (a member without samples ranks last) or a fitness in the fitness's range. (The best
/// is not compared with the mean: a mean of equal ranks may round above them.)
fn check_summary(generation: &Generation, rules: Option<&RunRules<'_>>) -> Result<(), String> {
    for (field, value) in [("best", generation.best), ("mean", generation.mean)] {
        let why = if value.is_nan() || value == f64::INFINITY {
            Some("not a number a run writes".to_string())
        } else if value == f64::NEG_INFINITY {
            None
        } else {
            rules.and_then(|r| r.spec.fitness.check_mean(value).err())
        };
        if let Some(why) = why {
            return Err(format!(
                "{field}: {} is not a fitness this run could have written: {why}",
                evomcts_records::escape::number(value)
            ));
        }
    }
    Ok(())
}

/// One member's values, refused as `(field, problem)`.
fn check_member(
    m: &Member,
    generation: usize,
    rules: Option<&RunRules<'_>>,
) -> Result<(), (&'static str, String)> {
    check_estimate(&m.fitness, rules)?;
    check_per_game(&m.per_game, &m.fitness, rules)?;
    if m.born > generation {
        return Err((
            "born",
            format!(
                "{} is later than this file's generation {generation}",
                m.born
            ),
        ));
    }
    if let Some(parent) = m.parent.filter(|&p| p >= m.id) {
        return Err((
            "parent",
            format!("{parent} is not born before its child {}", m.id),
        ));
    }
    for (field, written, formula) in [
        ("size", m.size, m.formula.size()),
        ("depth", m.depth, m.formula.depth()),
    ] {
        if written != formula {
            return Err((
                field,
                format!("{written}, but the formula's {field} is {formula}"),
            ));
        }
    }
    if let Some(rules) = rules {
        rules.breedable(&m.formula).map_err(|why| {
            (
                "formula",
                format!("not one this run's grammar breeds: {why}"),
            )
        })?;
    }
    Ok(())
}

/// Writes `text` to `path` through a synced temporary file and a rename (see
/// `runfs::write_atomically`).
pub fn write_atomically(path: &Path, text: &str) -> Result<(), PopulationError> {
    evomcts_records::runfs::write_atomically(path, text.as_bytes()).map_err(|source| {
        PopulationError::Io {
            file: path.display().to_string(),
            source,
        }
    })
}

impl Champion {
    pub fn to_ron(&self) -> String {
        let mut text = ron::ser::to_string_pretty(self, pretty()).expect("a champion serialises");
        text.push('\n');
        text
    }

    pub fn from_ron(text: &str, file: &str) -> Result<Champion, PopulationError> {
        ron::from_str(text).map_err(|e| PopulationError::Corrupt {
            file: file.to_string(),
            line: e.position.line,
            column: e.position.col,
            message: e.code.to_string(),
        })
    }
}
