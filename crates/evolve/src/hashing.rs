//! Functional hashing: a candidate that behaves like one already scored is not scored from
//! scratch.
//!
//! A formula's fingerprint is the child it picks in every sibling set of the run's bank
//! (`formula::fingerprint`): at least a few thousand sets recorded once, at the run's start,
//! from real searches with the run's candidate settings on positions of seeded random games
//! (`bank` records it, any game, move features included; `RUN/fingerprint-bank.csv`, read
//! back on resume so a resumed run is byte-identical even if the search code changed
//! meanwhile). Formulas with equal fingerprints form a class.
//!
//! - A candidate whose class was scored in an earlier generation inherits the class's
//!   estimate (the most sampled one the run has seen) and races on from there, pooling this
//!   generation's samples into it, as a re-evaluated survivor does.
//! - Within one evaluation (a generation's race, the elites' extra samples) the members of a
//!   class play once: one member, a survivor when the class has one, plays each seed and the
//!   others get its per-seed samples, so paired comparisons and racing see them as the
//!   identical players the fingerprint says they are.
//!
//! The class table after generation g is a function of the generation files 0..=g alone
//! (`absorb`), so resume rebuilds it from the folder. The fingerprint can be wrong: two
//! formulas can agree on the bank and differ in play. `check_fingerprints` measures how often.

pub use super::bank::{bank_csv, carries_move_features, parse_bank, record_bank, BANK_FILE};
use super::error::EvolveError;
use super::fitness::{Estimate, EvalError};
use super::namespace::evolution_tile_seed;
use super::population::{
    check_evolution_folder, read_generations, write_atomically, Generation, HashingCounts, Member,
    PopulationError,
};
use super::report::all_members;
use super::spec::{EvolveSpec, FitnessSpec, HashingSpec, SpecFileError};
use evomcts_arena::play_both_seatings_recorded;
use evomcts_formula::{fingerprint, CompiledFormula, Formula, SiblingSets};
use evomcts_records::runfs::derive_seed;
use evomcts_search::mcts::{MctsSettings, Selection};
use evomcts_search::ControllerSpec;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The fingerprint check's seed stream (the run's own are 1 to 3, the bank's 4).
const CHECK: u64 = 5;

/// The run's classes: the bank, the fingerprints computed so far and what each class has
/// been scored.
pub struct Hashing {
    bank: SiblingSets,
    /// Fingerprints by formula text (formulas recur across generations as survivors).
    fingerprints: BTreeMap<String, u64>,
    /// The most sampled estimate of each class scored so far.
    scored: BTreeMap<u64, Estimate>,
    /// Canonical forms scored so far.
    forms: BTreeSet<String>,
}

/// How one generation's candidates fall into classes.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// `classes[i]`: the candidate that plays for candidate `i` (itself when it plays).
    pub classes: Vec<usize>,
    pub counts: HashingCounts,
}

impl Hashing {
    pub fn new(bank: SiblingSets) -> Hashing {
        Hashing {
            bank,
            fingerprints: BTreeMap::new(),
            scored: BTreeMap::new(),
            forms: BTreeSet::new(),
        }
    }

    /// The run's hashing state: a fresh bank when the run starts (written to the folder), the
    /// folder's bank and classes rebuilt from `generations` when it resumes.
    pub fn open(
        spec: &EvolveSpec,
        hashing: &HashingSpec,
        dir: &Path,
        generations: &[Generation],
    ) -> Result<Hashing, EvolveError> {
        let path = dir.join(BANK_FILE);
        let file = path.display().to_string();
        let bank = if generations.is_empty() {
            let bank = record_bank(spec, hashing.situations).map_err(|message| {
                SpecFileError::Invalid {
                    file: "<spec>".into(),
                    field: "noise.functional_hashing".into(),
                    message,
                }
            })?;
            write_atomically(&path, &bank_csv(&bank))?;
            bank
        } else {
            let text = evomcts_records::runfs::read_capped_text(
                &path,
                evomcts_records::runfs::MAX_DATA_FILE_BYTES,
                "fingerprint bank",
            )
            .map_err(|source| PopulationError::Io {
                file: file.clone(),
                source,
            })?;
            let bank = parse_bank(&text, &file)?;
            if bank.len() != hashing.situations {
                return Err(PopulationError::Inconsistent {
                    file,
                    message: format!(
                        "holds {} sibling sets, the spec's situations is {}",
                        bank.len(),
                        hashing.situations
                    ),
                }
                .into());
            }
            bank
        };
        let mut out = Hashing::new(bank);
        for g in generations {
            out.absorb(g);
        }
        Ok(out)
    }

    pub fn bank(&self) -> &SiblingSets {
        &self.bank
    }

    /// The formula's fingerprint on the bank.
    pub fn fingerprint(&mut self, formula: &Formula) -> u64 {
        let text = formula.to_string();
        if let Some(&fp) = self.fingerprints.get(&text) {
            return fp;
        }
        // Formulas in a run compiled once already; one that does not now has nothing to share.
        let fp = match CompiledFormula::new(formula) {
            Ok(compiled) => fingerprint(&compiled, &self.bank),
            Err(_) => evomcts_formula::fnv1a(text.bytes()),
        };
        self.fingerprints.insert(text, fp);
        fp
    }

    /// Records what a written generation scored: every member's class keeps its most sampled
    /// estimate (a later one on ties).
    pub fn absorb(&mut self, g: &Generation) {
        for m in g
            .offspring
            .iter()
            .chain(&g.parents)
            .chain([&g.champion, &g.reference])
        {
            if m.fitness.samples == 0 {
                continue;
            }
            let fp = self.fingerprint(&m.formula);
            self.forms.insert(m.formula.canonical().to_string());
            match self.scored.get(&fp) {
                Some(old) if old.samples > m.fitness.samples => {}
                _ => {
                    self.scored.insert(fp, m.fitness);
                }
            }
        }
    }

    /// Classes of `members` about to be evaluated together: the first `newborn` are this
    /// generation's newborns (counted, and given their class's estimate when the class was
    /// scored before), the rest survivors evaluated again. A class plays through a survivor
    /// when it has one, otherwise through its first newborn.
    pub fn plan(&mut self, members: &mut [&mut Member], newborn: usize) -> Plan {
        let mut counts = HashingCounts::default();
        let keys: Vec<u64> = members
            .iter()
            .map(|m| self.fingerprint(&m.formula))
            .collect();
        let mut player: BTreeMap<u64, usize> = BTreeMap::new();
        for (i, &key) in keys.iter().enumerate().skip(newborn) {
            player.entry(key).or_insert(i);
        }
        let mut forms_now: BTreeSet<String> = BTreeSet::new();
        for (i, member) in members.iter_mut().enumerate().take(newborn) {
            let key = keys[i];
            let form = member.formula.canonical().to_string();
            let seen = player.contains_key(&key) || self.scored.contains_key(&key);
            if self.forms.contains(&form) || forms_now.contains(&form) {
                counts.exact_duplicates += 1;
            } else if seen {
                counts.fingerprint_duplicates += 1;
            } else {
                counts.new_candidates += 1;
            }
            if let Some(estimate) = self.scored.get(&key) {
                member.fitness = *estimate;
                counts.samples_inherited += estimate.samples;
            }
            forms_now.insert(form);
            player.entry(key).or_insert(i);
        }
        Plan {
            classes: keys.iter().map(|key| player[key]).collect(),
            counts,
        }
    }

    /// Classes of members evaluated together without newborns (the elites' extra samples).
    pub fn classes(&mut self, members: &[&mut Member]) -> Vec<usize> {
        let mut player: BTreeMap<u64, usize> = BTreeMap::new();
        members
            .iter()
            .enumerate()
            .map(|(i, m)| *player.entry(self.fingerprint(&m.formula)).or_insert(i))
            .collect()
    }
}

/// Plays `indices` (candidates of one evaluation) on a batch through `play`, once per class:
/// `classes[i]` names the candidate that plays for `i`, or, when that one is not among
/// `indices`, the first of its class that is. Returns every listed candidate's samples and
/// the number of samples actually played.
pub fn play_shared<E>(
    indices: &[usize],
    classes: &[usize],
    play: impl FnOnce(&[usize]) -> Result<Vec<Vec<f64>>, E>,
) -> Result<(Vec<Vec<f64>>, u64), E> {
    let mut players: Vec<usize> = Vec::new();
    let mut slot_of_class: BTreeMap<usize, usize> = BTreeMap::new();
    for &i in indices {
        let class = classes[i];
        slot_of_class.entry(class).or_insert_with(|| {
            let who = if indices.contains(&class) { class } else { i };
            players.push(who);
            players.len() - 1
        });
    }
    let played = play(&players)?;
    let count = played.iter().map(|xs| xs.len() as u64).sum();
    let out = indices
        .iter()
        .map(|i| played[slot_of_class[&classes[*i]]].clone())
        .collect();
    Ok((out, count))
}

/// One fingerprint-equal pair played on fresh sequences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairCheck {
    pub a: Formula,
    pub b: Formula,
    /// Games compared (both seatings of each sequence).
    pub games: usize,
    /// Games whose moves differ between the two formulas.
    pub differing: usize,
}

/// The fingerprint check of a finished run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FingerprintCheck {
    /// Distinct canonical forms in the run, and fingerprint classes holding more than one.
    pub forms: usize,
    pub shared_classes: usize,
    pub pairs: Vec<PairCheck>,
}

/// Plays up to `pairs` fingerprint-equal pairs of distinct canonical forms from the run in
/// `dir` (each class's first form, by id, against each other form of the class; taken in
/// class order) on `sequences` fresh tile sequences of the evolution namespace (a stream no
/// generation draws from), both seatings, against the run's baseline, and counts the games
/// whose moves differ.
pub fn check_fingerprints(
    dir: &Path,
    pairs: usize,
    sequences: usize,
) -> Result<FingerprintCheck, EvolveError> {
    check_evolution_folder(dir)?;
    let spec_path = dir.join("spec.ron");
    let text = evomcts_records::runfs::read_spec_text(&spec_path)?;
    let spec = EvolveSpec::from_ron(&text, &spec_path.display().to_string())?;
    let Some(hashing) = &spec.noise.functional_hashing else {
        return Err(SpecFileError::Invalid {
            file: spec_path.display().to_string(),
            field: "noise.functional_hashing".into(),
            message: "the run did not use functional hashing: it has no bank".into(),
        }
        .into());
    };
    let FitnessSpec::Games(c) = &spec.fitness else {
        unreachable!("validated: hashing needs Carcassonne fitness");
    };
    let generations = read_generations(dir)?;
    if generations.is_empty() {
        return Err(PopulationError::Inconsistent {
            file: dir.display().to_string(),
            message: "holds no generation to check".into(),
        }
        .into());
    }
    let mut state = Hashing::open(&spec, hashing, dir, &generations)?;
    // Each canonical form once, by its earliest id.
    let members = all_members(&generations);
    let mut forms: BTreeMap<String, &Member> = BTreeMap::new();
    for m in members.values() {
        forms.entry(m.formula.canonical().to_string()).or_insert(m);
    }
    let mut by_class: BTreeMap<u64, Vec<&Member>> = BTreeMap::new();
    for m in forms.values() {
        by_class
            .entry(state.fingerprint(&m.formula))
            .or_default()
            .push(m);
    }
    let mut classes: Vec<Vec<&Member>> = by_class.into_values().filter(|c| c.len() > 1).collect();
    for class in &mut classes {
        class.sort_by_key(|m| m.id);
    }
    classes.sort_by_key(|class| class[0].id);
    let chosen: Vec<(&Member, &Member)> = classes
        .iter()
        .flat_map(|class| class[1..].iter().map(move |b| (class[0], *b)))
        .take(pairs)
        .collect();
    let tile_seeds: Vec<u64> = (0..sequences as u64)
        .map(|j| evolution_tile_seed(derive_seed(spec.seed, &[CHECK, j])))
        .collect();
    let controller = |f: &Formula| {
        ControllerSpec::Mcts(MctsSettings {
            selection: Selection::Formula(f.to_string()),
            ..c.candidate.clone()
        })
    };
    let checks: Vec<PairCheck> = chosen
        .par_iter()
        .map(|(a, b)| {
            let mut differing = 0;
            for &tile_seed in &tile_seeds {
                let play = |f: &Formula| {
                    play_both_seatings_recorded(
                        c.game,
                        c.rules,
                        &controller(f),
                        &c.baseline,
                        tile_seed,
                    )
                    .map_err(|message| EvalError {
                        formula: f.to_string(),
                        seed: tile_seed,
                        message,
                    })
                };
                let (ga, gb) = (play(&a.formula)?, play(&b.formula)?);
                differing += ga.iter().zip(&gb).filter(|(x, y)| x.1 != y.1).count();
            }
            Ok(PairCheck {
                a: a.formula.clone(),
                b: b.formula.clone(),
                games: 2 * tile_seeds.len(),
                differing,
            })
        })
        .collect::<Result<_, EvalError>>()?;
    Ok(FingerprintCheck {
        forms: forms.len(),
        shared_classes: classes.len(),
        pairs: checks,
    })
}
