//! What a run finds in its folder before it plays anything: the spec it was started with and
//! the generations written, each checked to be this spec's, so a run continues its own history
//! or refuses, naming what does not fit, before anything is written.

use super::error::EvolveError;
use super::population::{
    generation_gaps, generation_path, generations_on_disk, write_atomically, Generation,
    PopulationError,
};
use super::spec::EvolveSpec;
use std::path::Path;

/// Checks that `dir` holds this run of `spec` (whose hash is `hash`) and nothing else: its
/// stored spec and every generation up to the last; then writes the spec. Returns the last
/// generation written, which the run continues from (with `resume`; without it, a folder
/// holding generations is refused).
pub(super) fn open_history(
    spec: &EvolveSpec,
    dir: &Path,
    resume: bool,
    hash: &str,
) -> Result<Option<Generation>, EvolveError> {
    let spec_file = dir.join("spec.ron");
    let stored = stored_spec(&spec_file, dir, hash)?;
    let last = read_history(spec, dir, resume, hash)?;
    // Written when new, and rewritten when only the unhashed fields changed (more
    // generations, a new description), so the folder's spec says what the run is doing.
    let text = spec.to_ron();
    if stored.as_deref() != Some(text.as_str()) {
        write_atomically(&spec_file, &text)?;
    }
    Ok(last)
}

/// The text of the spec the run in `dir` was started with, when there is one, refused when
/// its hash is not `hash`. It is read as written: it already holds what the files it named
/// held.
fn stored_spec(spec_file: &Path, dir: &Path, hash: &str) -> Result<Option<String>, EvolveError> {
    if !spec_file.exists() {
        return Ok(None);
    }
    let text = crate::runfs::read_spec_text(spec_file)?;
    let old = EvolveSpec::from_ron(&text, &spec_file.display().to_string())?.hash();
    if old != hash {
        return Err(EvolveError::SpecChanged {
            dir: dir.display().to_string(),
            old,
            new: hash.to_string(),
        });
    }
    Ok(Some(text))
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
    let mut last = None;
    for &g in &on_disk {
        last = Some(read_own_generation(dir, g, spec, hash)?);
    }
    Ok(last)
}

/// Reads generation `g` of the run in `dir` and checks it belongs to `spec` (hash `hash`): its
/// spec hash, its number of parents and the id counter, which a run of this spec holds at
/// exactly μ + 1 + λ·g after generation g (ids are births), so an edited counter cannot make
/// the next generation wrap around or reuse ids.
fn read_own_generation(
    dir: &Path,
    g: usize,
    spec: &EvolveSpec,
    hash: &str,
) -> Result<Generation, EvolveError> {
    let path = generation_path(dir, g);
    let generation = Generation::read(&path, g)?;
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
    let expected = s
        .lambda
        .checked_mul(g)
        .and_then(|born| born.checked_add(s.mu + 1));
    if expected != Some(generation.next_id) {
        return Err(inconsistent(format!(
            "next_id is {}, but a run of this spec (mu {}, lambda {}) holds {} after generation {g}",
            generation.next_id,
            s.mu,
            s.lambda,
            expected.map_or_else(|| "more ids than fit".into(), |e| e.to_string()),
        )));
    }
    Ok(generation)
}
