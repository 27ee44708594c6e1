//! What kind of run a folder holds, decided in one place: every command that makes a run
//! folder states its kind when it locks the folder ([`super::RunLock::open_run_folder`]), and
//! a folder that holds another kind of run is refused before anything is written into it.
//!
//! A folder tells its kind in two ways. The lock file's first line names it: every run folder
//! this version makes has one from the moment it is locked, before any other file is written,
//! so a run killed at its start is still known. A folder without it (copied without its
//! hidden files, or made by an earlier version) is known by the files only its kind writes,
//! listed once in [`KINDS`].

use super::files::{open_regular, VALIDATION_ROWS_HEADER};
use std::fs::OpenOptions;
use std::io::Read;
use std::path::Path;

/// A study's spec, the file that marks a study folder.
pub const STUDY_RON: &str = "study.ron";
/// A portfolio's spec, the file that marks a portfolio folder.
pub const PORTFOLIO_RON: &str = "portfolio.ron";
/// The record of `evolve --runs`: the spec and the number of runs.
pub const RUNS_FILE: &str = "runs.ron";
/// A tuning run's record of steps.
pub const TUNE_CSV: &str = "tune.csv";
/// A league's record of games.
pub const RECORD_FILE: &str = "games.jsonl";
/// An evolution's first generation file.
pub const FIRST_GENERATION: &str = "gen-000.ron";
/// The Star decision comparison of `replicate`, beside its leagues.
pub const STAR_DECISIONS: &str = "star-decisions.json";
/// The spec every league, evolution, validation and tuning run writes first.
pub const SPEC_RON: &str = "spec.ron";

/// The kinds of run folder, one per command that makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunKind {
    League,
    Evolution,
    EvolutionRuns,
    Validation,
    Tuning,
    Study,
    Portfolio,
    Replication,
}

/// A file that only one kind of run writes.
#[derive(Clone, Copy, Debug)]
enum Mark {
    /// A file of this name.
    File(&'static str),
    /// A file of this name whose content starts so.
    Starting(&'static str, &'static str),
}

/// What describes a kind: its name in lock files, its noun in messages, and the files that mark
/// its folders.
#[derive(Debug)]
pub struct KindEntry {
    pub kind: RunKind,
    /// The lock file's first line; never changed once released (folders on disk carry it).
    pub name: &'static str,
    /// "a league", as messages say what a folder holds.
    pub noun: &'static str,
    marks: &'static [Mark],
}

/// Every kind, once. Folders that hold other kinds of run (a study holds evolutions and
/// validations) keep them in sub-folders, so a folder's marks never mix; the kinds that hold
/// others come first all the same, so that a folder damaged into holding both is named by
/// the outer kind.
pub const KINDS: &[KindEntry] = &[
    KindEntry {
        kind: RunKind::Portfolio,
        name: "portfolio",
        noun: "a portfolio",
        marks: &[Mark::File(PORTFOLIO_RON)],
    },
    KindEntry {
        kind: RunKind::Study,
        name: "study",
        noun: "a study",
        marks: &[Mark::File(STUDY_RON), Mark::File("phases.ron")],
    },
    KindEntry {
        kind: RunKind::EvolutionRuns,
        name: "evolution-runs",
        noun: "independent evolution runs (evolve --runs)",
        marks: &[Mark::File(RUNS_FILE), Mark::File("tournament.csv")],
    },
    KindEntry {
        kind: RunKind::Replication,
        name: "replication",
        noun: "a replication",
        marks: &[Mark::File(STAR_DECISIONS)],
    },
    KindEntry {
        kind: RunKind::Tuning,
        name: "tuning",
        noun: "a tuning run",
        marks: &[Mark::File(TUNE_CSV)],
    },
    KindEntry {
        kind: RunKind::Evolution,
        name: "evolution",
        noun: "an evolution run",
        marks: &[
            Mark::File(FIRST_GENERATION),
            Mark::File("logbook.csv"),
            Mark::File("enumeration-classes.csv"),
        ],
    },
    KindEntry {
        kind: RunKind::Validation,
        name: "validation",
        noun: "a validation",
        marks: &[
            Mark::Starting("games.csv", VALIDATION_ROWS_HEADER),
            Mark::File("sweep.csv"),
        ],
    },
    KindEntry {
        kind: RunKind::League,
        name: "league",
        noun: "a league",
        marks: &[Mark::File(RECORD_FILE)],
    },
];

impl RunKind {
    /// Its entry in [`KINDS`].
    pub fn entry(self) -> &'static KindEntry {
        KINDS
            .iter()
            .find(|e| e.kind == self)
            .expect("every kind is listed in KINDS")
    }

    /// The kind a lock file's first line names.
    pub fn from_name(name: &str) -> Option<RunKind> {
        KINDS.iter().find(|e| e.name == name).map(|e| e.kind)
    }
}

/// What a folder was found to hold, and how that was told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// `None`: a run's `spec.ron` and nothing that tells its kind (a run of an earlier version
    /// stopped before its first record); the spec check of the command decides.
    pub kind: Option<RunKind>,
    /// The file that told it, as messages name it.
    pub evidence: String,
}

impl Found {
    /// "a study (it holds study.ron)".
    pub fn describe(&self) -> String {
        match self.kind {
            Some(kind) => format!("{} ({})", kind.entry().noun, self.evidence),
            None => format!("a run ({})", self.evidence),
        }
    }
}

/// The kind a lock file names on its first line (written by [`super::RunLock`]); `None` for a
/// lock file without one, or none at all.
pub fn kind_in_lock(dir: &Path) -> Option<RunKind> {
    let mut text = String::new();
    open_regular(&dir.join(super::LOCK_FILE), OpenOptions::new().read(true))
        .and_then(|file| file.take(256).read_to_string(&mut text))
        .ok()?;
    RunKind::from_name(text.lines().next()?.trim())
}

/// What `dir` holds: the first kind whose marks it holds (the file names it best in messages),
/// else the kind its lock file names, else a run of untold kind when it holds `spec.ron`; `None` for a folder that holds no run (a new
/// folder, or one of tables and figures).
pub fn folder_kind(dir: &Path) -> Option<Found> {
    for entry in KINDS {
        for mark in entry.marks {
            if holds(dir, mark) {
                let file = match mark {
                    Mark::File(f) | Mark::Starting(f, _) => f,
                };
                return Some(Found {
                    kind: Some(entry.kind),
                    evidence: format!("it holds {file}"),
                });
            }
        }
    }
    if let Some(kind) = kind_in_lock(dir) {
        return Some(Found {
            kind: Some(kind),
            evidence: format!("its {} says so", super::LOCK_FILE),
        });
    }
    dir.join(SPEC_RON).is_file().then(|| Found {
        kind: None,
        evidence: format!("it holds {SPEC_RON}"),
    })
}

fn holds(dir: &Path, mark: &Mark) -> bool {
    match mark {
        Mark::File(name) => dir.join(name).is_file(),
        Mark::Starting(name, start) => {
            let start = start.as_bytes();
            let mut read = Vec::new();
            open_regular(&dir.join(name), OpenOptions::new().read(true))
                .and_then(|file| file.take(start.len() as u64).read_to_end(&mut read))
                .is_ok_and(|_| read == start)
        }
    }
}

/// Whether a command making `kind` may write into a folder found to hold `found`: one of its
/// own kind, or a run whose kind is untold (its spec check decides).
pub fn accepts(kind: RunKind, found: &Found) -> bool {
    found.kind.is_none_or(|k| k == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_entry_and_a_distinct_name() {
        let kinds = [
            RunKind::League,
            RunKind::Evolution,
            RunKind::EvolutionRuns,
            RunKind::Validation,
            RunKind::Tuning,
            RunKind::Study,
            RunKind::Portfolio,
            RunKind::Replication,
        ];
        for kind in kinds {
            // An exhaustive match: a new kind fails to compile here until it is listed.
            match kind {
                RunKind::League
                | RunKind::Evolution
                | RunKind::EvolutionRuns
                | RunKind::Validation
                | RunKind::Tuning
                | RunKind::Study
                | RunKind::Portfolio
                | RunKind::Replication => {}
            }
            assert_eq!(KINDS.iter().filter(|e| e.kind == kind).count(), 1);
            assert_eq!(RunKind::from_name(kind.entry().name), Some(kind));
        }
        assert_eq!(KINDS.len(), kinds.len());
    }
}
