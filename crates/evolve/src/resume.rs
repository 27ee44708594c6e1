//! What a run finds in its folder before it plays anything: the spec it was started with and
//! the generations written, each checked to be this spec's, so a run continues its own history
//! or refuses, naming what does not fit, before anything is written.

use super::error::EvolveError;
use super::population::{
    generation_gaps, generation_path, generations_on_disk, write_atomically, Generation,
    PopulationError,
};
use super::spec::EvolveSpec;
use super::values::RunRules;
use std::path::Path;

/// Checks that `dir` holds this run of `spec` (whose hash is `hash`) and nothing else: its
/// stored spec and every generation up to the last; then writes the spec. Returns the last
/// generation written, which the run continues from (with `resume`; without it, a folder
/// holding generations is refused), and the hash the run's files carry: `hash`, or, for a run
/// begun before specs carried the files they name, the hash its files were written with.
pub(super) fn open_history(
    spec: &EvolveSpec,
    dir: &Path,
    resume: bool,
    hash: &str,
) -> Result<(Option<Generation>, String), EvolveError> {
    let spec_file = dir.join("spec.ron");
    let stored = stored_spec(&spec_file, dir, spec, hash)?;
    let run_hash = stored.as_ref().map_or(hash.to_string(), |s| s.hash.clone());
    let last = read_history(spec, dir, resume, &run_hash)?;
    // Written when new, and rewritten when only the unhashed fields changed (more
    // generations, a new description), so the folder's spec says what the run is doing. A
    // spec stored before specs carried their files keeps its text: its hash is the run's.
    let text = spec.to_ron();
    let keep = stored
        .as_ref()
        .is_some_and(|s| s.text == text || s.names_files);
    if !keep {
        write_atomically(&spec_file, &text)?;
    }
    Ok((last, run_hash))
}

/// The hash the files of the run in `dir` carry when `spec` made it: `spec`'s, or for a run
/// begun before specs carried the files they name, the hash its files were written with (its
/// stored spec naming the same files); refused when the stored spec is another.
pub(super) fn run_hash(spec: &EvolveSpec, dir: &Path) -> Result<String, EvolveError> {
    let hash = spec.hash();
    let stored = stored_spec(&dir.join("spec.ron"), dir, spec, &hash)?;
    Ok(stored.map_or(hash, |s| s.hash))
}

/// A run's stored spec: its text, the hash its files carry, and whether it names files by
/// path (a run begun before specs carried the content of the files they name).
struct StoredSpec {
    text: String,
    hash: String,
    names_files: bool,
}

/// The spec the run in `dir` was started with, when there is one, refused when its hash is
/// not `hash`. It is read as written: it already holds what the files it named held, unless
/// it was stored before specs carried their files; such a spec is the same run when the files
/// it names (paths then were relative to the working directory) hold what `spec` holds.
fn stored_spec(
    spec_file: &Path,
    dir: &Path,
    spec: &EvolveSpec,
    hash: &str,
) -> Result<Option<StoredSpec>, EvolveError> {
    if !spec_file.exists() {
        return Ok(None);
    }
    let text = evomcts_records::runfs::read_spec_text(spec_file)?;
    let file = spec_file.display().to_string();
    let (old, names_files) = match EvolveSpec::from_ron(&text, &file) {
        Ok(stored) => (stored.hash(), false),
        Err(refused) => match names_the_same_files(&text, spec) {
            Some(old) => (old, true),
            None => {
                // A league's or a validation's folder given by mistake is named for what it
                // is, not refused for a field an evolution's spec does not have.
                if ["games.jsonl", "games.csv"]
                    .iter()
                    .any(|f| dir.join(f).is_file())
                {
                    super::population::check_evolution_folder(dir)?;
                }
                return Err(refused.into());
            }
        },
    };
    if old != hash && !names_files {
        return Err(EvolveError::SpecChanged {
            dir: dir.display().to_string(),
            old,
            new: hash.to_string(),
        });
    }
    Ok(Some(StoredSpec {
        text,
        hash: old,
        names_files,
    }))
}

/// The hash of `text`, a stored spec that names files by path, when those files, read
/// relative to the working directory, make it `spec`.
fn names_the_same_files(text: &str, spec: &EvolveSpec) -> Option<String> {
    use evomcts_records::runfs::SpecFile;
    let stored: EvolveSpec = evomcts_records::runfs::ron_options().from_str(text).ok()?;
    let mut resolved = stored.clone();
    resolved.resolve_files(Path::new("")).ok()?;
    (resolved != stored && resolved.hash() == spec.hash()).then(|| stored.hash())
}

/// The last generation in `dir`, once every one up to it is read and checked: refused when the
/// folder holds generations and the run does not `resume`, or more than the spec asks for.
fn read_history(
    spec: &EvolveSpec,
    dir: &Path,
    resume: bool,
    hash: &str,
) -> Result<Option<Generation>, EvolveError> {
    let dir_name = dir.display().to_string();
    let on_disk = generations_on_disk(dir)?;
    if let (Some(&last), false) = (on_disk.last(), resume) {
        return Err(EvolveError::AlreadyStarted {
            dir: dir_name,
            last,
        });
    }
    if let Some(&last) = on_disk.last().filter(|&&l| l > spec.strategy.generations) {
        return Err(EvolveError::FewerGenerations {
            dir: dir_name,
            last,
            asked: spec.strategy.generations,
        });
    }
    // Every generation up to the last must be there, readable and of this spec: a gap, a
    // damaged file or a file of another run means the folder is not one run's history.
    if let Some(g) = generation_gaps(&on_disk).next() {
        return Err(PopulationError::Inconsistent {
            file: generation_path(dir, g).display().to_string(),
            message: format!(
                "is missing, although generations up to {} are in the folder",
                on_disk.last().copied().unwrap_or(0)
            ),
        }
        .into());
    }
    let rules = RunRules::new(spec);
    let mut last = None;
    // Formulas fitted in the generations before (`fitting`): each took an id.
    let mut fitted = 0;
    for &g in &on_disk {
        let generation = read_own_generation(dir, g, spec, hash, rules.as_ref(), fitted)?;
        fitted += generation.fitting.len();
        last = Some(generation);
    }
    Ok(last)
}

/// Reads generation `g` of the run in `dir` and checks it belongs to `spec` (hash `hash`): its
/// values (against `rules`, the spec's grammar), its spec hash, its number of parents and the id counter, which a run of this spec holds at
/// exactly μ + 1 + λ·g after generation g, plus the formulas fitted up to it (ids are births;
/// `fitted_before` were fitted in the generations before g), so an edited counter cannot make
/// the next generation wrap around or reuse ids.
fn read_own_generation(
    dir: &Path,
    g: usize,
    spec: &EvolveSpec,
    hash: &str,
    rules: Option<&RunRules<'_>>,
    fitted_before: usize,
) -> Result<Generation, EvolveError> {
    let path = generation_path(dir, g);
    let generation = Generation::read_of(&path, g, rules)?;
    let file = path.display().to_string();
    if generation.spec_hash != hash {
        return Err(EvolveError::ForeignGeneration {
            file,
            found: generation.spec_hash,
            expected: hash.to_string(),
        });
    }
    let inconsistent = |message: String| -> EvolveError {
        PopulationError::Inconsistent {
            file: file.clone(),
            message,
        }
        .into()
    };
    let s = &spec.strategy;
    if generation.parents.len() != s.mu {
        return Err(inconsistent(format!(
            "holds {} parents, the spec's mu is {}",
            generation.parents.len(),
            s.mu
        )));
    }
    let fitted = fitted_before + generation.fitting.len();
    let expected = s
        .lambda
        .checked_mul(g)
        .and_then(|born| born.checked_add(s.mu + 1))
        .and_then(|born| born.checked_add(fitted));
    if expected != Some(generation.next_id) {
        return Err(inconsistent(format!(
            "next_id is {}, but a run of this spec (mu {}, lambda {}{}) holds {} after generation {g}",
            generation.next_id,
            s.mu,
            s.lambda,
            if fitted > 0 {
                format!(", {fitted} formulas fitted")
            } else {
                String::new()
            },
            expected.map_or_else(|| "more ids than fit".into(), |e| e.to_string()),
        )));
    }
    Ok(generation)
}
