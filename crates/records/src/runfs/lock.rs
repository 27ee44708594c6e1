//! The lock that keeps a run folder to one process, and the holder line that names who has it.

use super::files::{open_own, remove_stale_temporaries};
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
    #[error("{dir}: cannot create the run folder: {source}")]
    Create { dir: String, source: std::io::Error },
    #[error("{file}: cannot lock the run folder: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
}

impl RunLock {
    /// Opens a run's folder for `what`: creates it (`create_folder`, with its checks) and
    /// locks it. The one opener of every run kind (leagues, evolution, validation, tuning, the
    /// gathering of a league's slices).
    pub fn open_run_folder(dir: &Path, what: &str) -> Result<RunLock, LockError> {
        super::create_folder(dir).map_err(|source| LockError::Create {
            dir: dir.display().to_string(),
            source,
        })?;
        RunLock::acquire(dir, what)
    }

    /// Locks `dir` (which must exist) for `what` (e.g. "league runs/quick.ron"), or says who
    /// holds it.
    pub fn acquire(dir: &Path, what: &str) -> Result<RunLock, LockError> {
        let path = dir.join(LOCK_FILE);
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
                let mut holder = String::new();
                // A holder line is short; a planted file must not fill memory.
                let _ = (&mut file).take(4096).read_to_string(&mut holder);
                let holder = holder.trim();
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
        // Held from here on: an error below drops it, which unlists and unlocks it.
        let mut lock = RunLock {
            _file: file,
            path: path.clone(),
            key,
        };
        // Who holds the lock, for the message of a process that finds it taken.
        let holder = format!("{} {what}, since {}", holder_prefix(), utc_now());
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
}

impl Drop for RunLock {
    /// Leaves the lock file empty, so a finished run's folder holds the same bytes whoever ran
    /// it, and releases the lock now rather than when the handle closes: a process another
    /// thread is starting holds a copy of the handle from its fork until it runs its program,
    /// and a lock left to the close would stay held that long, refusing this process's next
    /// run in the folder.
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = held.iter().position(|k| *k == self.key) {
            held.swap_remove(i);
        }
        let _ = self._file.set_len(0);
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
        let first = RunLock::acquire(&dir, "league test").unwrap();
        let err = RunLock::acquire(&dir, "league other")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("in use by another run of this same process")
                && err.contains(&format!("pid {}", std::process::id()))
                && err.contains("league test"),
            "{err}"
        );
        drop(first);
        RunLock::acquire(&dir, "league again").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_utc_clock_reads_like_a_date() {
        let now = utc_now();
        assert_eq!(now.len(), "2026-11-22 23:59:01 UTC".len(), "{now}");
        assert!(now.starts_with("20"), "{now}");
    }
}
