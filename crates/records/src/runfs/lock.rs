//! The lock that keeps a run folder to one process, and the holder line that names who has it.

use super::files::{open_own, remove_stale_temporaries};
use super::kind::{accepts, folder_kind, Found, RunKind};
use super::read::read_capped_text;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file of a run folder.
pub const LOCK_FILE: &str = ".evomcts.lock";

/// An exclusive advisory lock on a run folder, held while the value lives. It is an operating
/// system file lock, so the system releases it however the process ends (kill -9 included):
/// there is no stale lock to clean up by hand.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
    path: PathBuf,
    /// The lock file's canonical path, as listed in [`HELD`].
    key: PathBuf,
    /// The kind of run the folder holds, the lock file's first line (kept when released).
    kind: Option<RunKind>,
    /// Whether the holder line is written: a lock refused before it leaves the file as it was.
    written: bool,
}

/// The lock files this process holds. A second thread of the process that finds a folder
/// locked knows from it that the holder is this process, even before the holder has written
/// its line; it is taken around the system lock's attempt, so an attempt and the listing of
/// its success are one step for every other thread.
static HELD: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{dir} is in use by another evomcts process ({holder}); wait for it to finish, or choose another --out")]
    Busy { dir: String, holder: String },
    #[error("{dir} is in use by another run of this same process ({holder}): another thread (of a Python program, say) is working in it; wait for that run to finish, or choose another folder")]
    BusyHere { dir: String, holder: String },
    #[error("{dir} exists and is not a folder: a run writes into a folder of its own; choose another --out")]
    NotAFolder { dir: String },
    #[error("{dir}: cannot create the run folder: {source}")]
    Create { dir: String, source: std::io::Error },
    #[error("{dir} holds {holds}, not {wanted}; {what} writes only into a new folder or one of its own kind, never over another kind of run: choose another --out")]
    OtherKind {
        dir: String,
        holds: String,
        wanted: &'static str,
        what: String,
    },
    #[error("{file}: cannot lock the run folder: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
}

impl RunLock {
    /// Opens a run's folder for `what`, a run of `kind`: creates it (`create_folder`, with its
    /// checks) and locks it, refusing a folder that holds another kind of run. The one opener
    /// of every run kind (leagues, evolution, validation, tuning, studies, portfolios, the
    /// gathering of a league's slices).
    pub fn open_run_folder(dir: &Path, kind: RunKind, what: &str) -> Result<RunLock, LockError> {
        if dir.exists() && !dir.is_dir() {
            return Err(LockError::NotAFolder {
                dir: dir.display().to_string(),
            });
        }
        super::create_folder(dir).map_err(|source| LockError::Create {
            dir: dir.display().to_string(),
            source,
        })?;
        RunLock::acquire(dir, Some(kind), what)
    }

    /// Locks `dir` (which must exist) for `what` (e.g. "league runs/quick.ron"), or says who
    /// holds it. With a `kind`, a folder that holds another kind of run is refused, before
    /// even the lock file is made in it, and the folder is marked as of `kind`; without one
    /// (a command that writes tables into whatever folder), its kind is left as it is.
    pub fn acquire(dir: &Path, kind: Option<RunKind>, what: &str) -> Result<RunLock, LockError> {
        let path = dir.join(LOCK_FILE);
        // Told by its files before the lock file is made, so that a folder of another kind gets
        // nothing written into it; told again under the lock, whose line may name it.
        if !path.exists() {
            check_kind(dir, kind, what)?;
        }
        let io = |source| LockError::Io {
            file: path.display().to_string(),
            source,
        };
        // Not truncated on opening, and only a file of its own: the holder is written after
        // the lock is taken, and a link planted at the lock's name is refused.
        let mut file = open_own(
            &path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .map_err(io)?;
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        match file.try_lock() {
            Ok(()) => held.push(key.clone()),
            Err(std::fs::TryLockError::WouldBlock) => {
                let held_here = held.contains(&key);
                drop(held);
                let mut text = String::new();
                // A holder line is short; a planted file must not fill memory.
                let _ = (&mut file).take(4096).read_to_string(&mut text);
                let holder = holder_in(&text);
                let dir = dir.display().to_string();
                // The holder line starts as this process writes it below.
                let here = held_here || holder.starts_with(&holder_prefix());
                let holder = if holder.is_empty() {
                    "it is just starting".to_string()
                } else {
                    crate::escape::terminal(holder)
                };
                return Err(if here {
                    LockError::BusyHere { dir, holder }
                } else {
                    LockError::Busy { dir, holder }
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        drop(held);
        // Held from here on: an error below drops it, which unlists and unlocks it (and, before
        // the holder line is written, leaves the file as it was).
        let mut lock = RunLock {
            _file: file,
            path: path.clone(),
            key,
            kind: None,
            written: false,
        };
        let found = check_kind(dir, kind, what)?;
        lock.kind = kind.or(found.and_then(|f| f.kind));
        lock.written = true;
        // Who holds the lock, for the message of a process that finds it taken.
        let holder = format!(
            "{}{} {what}, since {}",
            kind_line(lock.kind),
            holder_prefix(),
            utc_now()
        );
        let file = &mut lock._file;
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        file.write_all(holder.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        // The folder is ours now: what a killed writer left behind goes.
        remove_stale_temporaries(dir);
        Ok(lock)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kind of run the folder holds (`None`: a folder of tables, or a run of untold kind).
    pub fn kind(&self) -> Option<RunKind> {
        self.kind
    }
}

/// Refuses `dir` when it holds another kind of run than `kind`, for `what` (e.g. `slurm --kind
/// league`), a command that writes into a run's folder before its run locks it.
pub fn check_folder_kind(dir: &Path, kind: RunKind, what: &str) -> Result<(), LockError> {
    check_kind(dir, Some(kind), what).map(|_| ())
}

/// Refuses a folder that holds another kind of run than `kind`, for `what`; what it holds
/// otherwise.
fn check_kind(dir: &Path, kind: Option<RunKind>, what: &str) -> Result<Option<Found>, LockError> {
    let found = folder_kind(dir);
    match (kind, &found) {
        (Some(kind), Some(found)) if !accepts(kind, found) => Err(LockError::OtherKind {
            dir: dir.display().to_string(),
            holds: found.describe(),
            wanted: kind.entry().noun,
            what: what.to_string(),
        }),
        _ => Ok(found),
    }
}

/// The lock file's first line: the folder's kind, when it has one.
fn kind_line(kind: Option<RunKind>) -> String {
    kind.map(|k| format!("{}\n", k.entry().name))
        .unwrap_or_default()
}

/// The holder named in a lock file's text: the text after its kind line.
fn holder_in(text: &str) -> &str {
    let text = text.trim();
    match text.split_once('\n') {
        Some((first, rest)) if RunKind::from_name(first.trim()).is_some() => rest.trim(),
        None if RunKind::from_name(text).is_some() => "",
        _ => text,
    }
}

impl Drop for RunLock {
    /// Leaves the lock file with its kind line only, so a finished run's folder holds the same
    /// bytes whoever ran it, and releases the lock now rather than when the handle closes: a process another
    /// thread is starting holds a copy of the handle from its fork until it runs its program,
    /// and a lock left to the close would stay held that long, refusing this process's next
    /// run in the folder.
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = held.iter().position(|k| *k == self.key) {
            held.swap_remove(i);
        }
        if !self.written {
            let _ = self._file.unlock();
            return;
        }
        let _ = self._file.set_len(0);
        let line = kind_line(self.kind);
        if !line.is_empty() {
            let _ = self._file.rewind();
            let _ = self._file.write_all(line.as_bytes());
        }
        let _ = self._file.unlock();
    }
}

/// How this process's holder lines start: `pid 123 on host,`.
fn holder_prefix() -> String {
    format!("pid {} on {},", std::process::id(), hostname())
}

fn hostname() -> String {
    read_capped_text(Path::new("/proc/sys/kernel/hostname"), 4096, "a host name")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".to_string())
}

/// The current time as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_folder_is_refused_and_names_the_holder() {
        let dir = std::env::temp_dir().join(format!("evomcts-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = RunLock::acquire(&dir, None, "league test").unwrap();
        let err = RunLock::acquire(&dir, None, "league other")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("in use by another run of this same process")
                && err.contains(&format!("pid {}", std::process::id()))
                && err.contains("league test"),
            "{err}"
        );
        drop(first);
        RunLock::acquire(&dir, None, "league again").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_utc_clock_reads_like_a_date() {
        let now = utc_now();
        assert_eq!(now.len(), "2026-11-22 23:59:01 UTC".len(), "{now}");
        assert!(now.starts_with("20"), "{now}");
    }
}
