//! How the tool writes files, one way for every writer: names that become paths are checked to
//! be one plain component, names that become file names go through one bounded mapping, files
//! are replaced through fresh temporary files and opened without following links, and a folder
//! or file that belongs to another run is not written over.
//!
//! Architecture invariant: every file the tool writes is written by `write_atomically` or
//! `replace_with`, or opened by `open_own`; nothing else in the crate creates or truncates a
//! file. So a symlink or hard link planted in a run folder (at a lock, a temporary or a result
//! file) can never redirect a write to its target.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Checks that `name` can be one component of a path: not empty, not `.` or `..`, no path
/// separator, no control character. `what` names the value in the message (e.g. "field
/// `name`", "the spec file's name").
pub fn check_plain_name(what: &str, name: &str) -> Result<(), String> {
    let shown = crate::escape::terminal(name);
    if name.trim().is_empty() || name == "." || name == ".." {
        return Err(format!(
            "{what} becomes a folder name and must be a plain name, not {shown:?}"
        ));
    }
    if name.contains(['/', '\\']) || name.chars().any(char::is_control) {
        return Err(format!(
            "{what} becomes a folder name and must hold no `/`, `\\` or control character, got {shown:?}"
        ));
    }
    Ok(())
}

/// The name a spec file gives its run by default: the file's name without `.ron`.
pub fn spec_file_stem(spec: &Path) -> String {
    spec.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `parent/NAME`, the default folder of a run whose spec file is `spec`, once its stem is a
/// plain name (a spec file `...ron` would otherwise name `parent/..`).
/// The stem is joined as the file system gave it, not as text: names that are not UTF-8
/// would otherwise all become the same folder (`U+FFFD`).
pub fn default_folder(parent: &str, spec: &Path) -> Result<PathBuf, String> {
    check_plain_name(
        &format!("the name of the spec file {}", spec.display()),
        &spec_file_stem(spec),
    )?;
    Ok(Path::new(parent).join(spec.file_stem().unwrap_or_default()))
}

/// The longest readable part of a [`file_stem`].
const STEM_SLUG_CHARS: usize = 40;

/// The part of a file name that stands for a name (a controller's, a run's): lowercase ASCII
/// letters, digits and `_`, at most 40 of them, then `-` and 8 hex digits of a hash of the
/// exact name unless the name is already such a slug (`uct` stays `uct`, `ES+1` becomes
/// `es_1-…` and `ES-1` another `es_1-…`). Distinct names get distinct stems (up to a 32-bit
/// hash collision), every stem is short enough for any file system, and no stem is empty, `.`,
/// `..` or holds a separator.
pub fn file_stem(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if slug.len() >= STEM_SLUG_CHARS {
            break;
        }
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('_') {
            slug.push('_');
        }
    }
    let slug = slug.trim_matches('_');
    if !slug.is_empty() && slug == name {
        return slug.to_string();
    }
    let slug = if slug.is_empty() { "name" } else { slug };
    // The hash marks every stem that is not the name itself, so such a stem cannot equal a
    // name kept as it is (those hold no `-`).
    let hash = crate::runfs::fnv1a_hex(name);
    format!("{slug}-{}", &hash[..8])
}

/// A fresh temporary file beside `path`, created exclusively (so nothing already at its name, a
/// planted link included, is opened) under a name no other process or thread uses. It keeps the
/// file's extension, which some writers (the PNG encoder) go by.
fn temp_beside(path: &Path) -> std::io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_file_name(format!(".{name}.{}-{n}.tmp{ext}", std::process::id()));
    let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    Ok((tmp, file))
}

/// The process that made a temporary file of [`temp_beside`], from its name.
fn temp_owner(name: &str) -> Option<u32> {
    let parts: Vec<&str> = name.split('.').collect();
    let i = parts.iter().position(|p| *p == "tmp")?;
    let (pid, n) = parts.get(i.checked_sub(1)?)?.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Removes from `dir` the temporary files of processes that no longer run (killed while
/// writing): temporary names are unique per process, so nothing else would ever replace them.
/// Where the system cannot say whether a process runs (no `/proc`), nothing is removed.
pub fn remove_stale_temporaries(dir: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            continue;
        }
        if let Some(pid) = temp_owner(&name) {
            if pid != std::process::id() && !runs(proc, pid) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Whether process `pid` runs: it is in `/proc` and not a zombie (a process that has ended,
/// its locks released, whose parent has not collected it yet: a killed run's job is one for a
/// moment after its driver is killed).
fn runs(proc: &Path, pid: u32) -> bool {
    match super::read_capped_text(
        &proc.join(pid.to_string()).join("stat"),
        4096,
        "a process's state",
    ) {
        // `pid (name) S ...`: the state follows the last `)`, as the name may hold one.
        Ok(stat) => !matches!(
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next()),
            Some('Z' | 'X')
        ),
        Err(_) => proc.join(pid.to_string()).exists(),
    }
}

/// Replaces `path` by a file that `fill` writes into a fresh temporary file beside it (given as
/// the open file and its path, for writers that open the path themselves), synced and renamed
/// over `path`: a reader sees the old file or the new one, never a part, and a link at `path` is
/// replaced, not followed. On failure the temporary file is removed.
pub fn replace_with(
    path: &Path,
    fill: impl FnOnce(&mut File, &Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    refuse_folder(path)?;
    let (tmp, mut file) = temp_beside(path)?;
    let written = fill(&mut file, &tmp).and_then(|()| {
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    // Make the rename itself durable where the platform allows syncing a directory.
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` whole or not at all (see [`replace_with`]).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    replace_with(path, |file: &mut File, _: &Path| file.write_all(bytes))
}

fn refuse_folder(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        // The callers name the path.
        Ok(m) if m.is_dir() => Err(std::io::Error::other(
            "it is a folder, not a file evomcts writes",
        )),
        _ => Ok(()),
    }
}

/// Opens `path` with `options` (which may create it but must not truncate it) only if it is a
/// regular file of its own: a symbolic link, or a file with a second hard link, is refused, so a
/// planted link cannot make the tool write (append, lock, empty) another file.
pub fn open_own(path: &Path, options: &OpenOptions) -> std::io::Result<File> {
    let refused = |why: &str| {
        // The callers name the path.
        std::io::Error::other(format!(
            "it {why}, and evomcts writes only files of its own: remove it"
        ))
    };
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(refused("is a symbolic link"));
    }
    let file = open_regular(path, options)?;
    // Checked again on the open file: a link put in place between the check and the opening
    // would have been followed, and is caught here before anything is written.
    let opened = file.metadata()?;
    let entry = std::fs::symlink_metadata(path)?;
    if entry.file_type().is_symlink() || !opened.is_file() {
        return Err(refused("is not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if (opened.dev(), opened.ino()) != (entry.dev(), entry.ino()) {
            return Err(refused("changed while it was opened"));
        }
        if opened.nlink() > 1 {
            return Err(refused("has another hard link"));
        }
    }
    Ok(file)
}

/// Opens `path` with `options` only if it is a regular file. Opening a FIFO blocks until
/// something opens its other end, and a device may never end, so neither is ever waited for or
/// read: on Unix the file is opened without blocking and refused by its kind. Architecture
/// invariant: every file the tool opens that may already exist goes through here
/// ([`crate::runfs::read_capped`] to read, [`open_own`] to append or lock); the only other
/// opens create a fresh temporary file exclusively or sync a folder.
pub fn open_regular(path: &Path, options: &OpenOptions) -> std::io::Result<File> {
    let mut options = options.clone();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Without effect on a regular file's reads and writes.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a folder"
    } else {
        special_kind(&kind)
    };
    // The callers name the path.
    Err(std::io::Error::other(format!(
        "it is {what}, not a regular file; evomcts reads and writes only regular files"
    )))
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "not a file"
}

/// Checks that `file`, opened (by [`open_own`]) at `path` to append records, is still the file
/// at `path`: records appended to a file that was removed or replaced under the run are lost
/// with it, and a run that finished so would report work that is on no disk.
pub fn check_still_in_place(file: &File, path: &Path) -> std::io::Result<()> {
    let gone = || {
        // The callers name the path.
        std::io::Error::other(
            "it was removed or replaced while evomcts appended to it, and what was written to it \
             is lost: run the command again with --resume to redo that work",
        )
    };
    let entry = match std::fs::symlink_metadata(path) {
        Ok(entry) => entry,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(gone()),
        Err(e) => return Err(e),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let opened = file.metadata()?;
        if (opened.dev(), opened.ino()) != (entry.dev(), entry.ino()) || opened.nlink() == 0 {
            return Err(gone());
        }
    }
    #[cfg(not(unix))]
    let _ = (file, entry);
    Ok(())
}

/// The first line of a validation's `games.csv`, its record (a league's table of the same name
/// starts otherwise).
pub const VALIDATION_ROWS_HEADER: &str =
    "pairing,sequence,tile_seed,candidate_seat,candidate_score,other_score";

/// Whether `dir` is a run folder of any kind ([`super::kind::folder_kind`]): it names its kind
/// in its lock file, holds the files only one kind writes, or holds `spec.ron`. Tables and
/// figures written elsewhere by `--out` do not make a folder a run.
pub fn is_run_folder(dir: &Path) -> bool {
    super::kind::folder_kind(dir).is_some()
}

/// The nearest of `path` and its ancestors that is a run folder, if any.
fn enclosing_run(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).ok()?;
    path.ancestors()
        .find(|folder| is_run_folder(folder))
        .map(Path::to_path_buf)
}

/// Creates `dir` (and the folders above it) for the tool to write into, refusing a symbolic
/// link at `dir`, or at any folder between it and the run folder it lies in, so that a link
/// planted in a run (`RUN/plots -> ../elsewhere`) cannot send its files elsewhere. Folders
/// above a run (or above an `--out` outside every run) may be links: they are the user's.
/// Architecture invariant: every folder the tool writes into is made by this function.
pub fn create_folder(dir: &Path) -> std::io::Result<()> {
    if dir.as_os_str().is_empty() {
        // The current folder (the parent of a bare file name), which exists.
        return Ok(());
    }
    let absolute = std::path::absolute(dir)?;
    let run = enclosing_run(&absolute);
    let checked = match &run {
        Some(run) => absolute
            .ancestors()
            .take_while(|folder| folder.starts_with(run))
            .count(),
        None => 1,
    };
    for folder in absolute.ancestors().take(checked) {
        if std::fs::symlink_metadata(folder).is_ok_and(|m| m.file_type().is_symlink()) {
            let which = if folder == absolute {
                "it".to_string()
            } else {
                folder.display().to_string()
            };
            return Err(std::io::Error::other(format!(
                "{which} is a symbolic link; evomcts writes only into folders of its own, never \
                 through a link: remove it, or give the folder it points to"
            )));
        }
    }
    std::fs::create_dir_all(dir)?;
    // Made by another process between the check and the creation: checked once more.
    if std::fs::symlink_metadata(dir)?.file_type().is_symlink() {
        return Err(std::io::Error::other(
            "it became a symbolic link while it was created",
        ));
    }
    Ok(())
}

/// Checks that `out`, a folder a command writes its outputs into, is neither another run's
/// folder nor inside one: its nearest enclosing run folder (itself included) must be one of
/// `own` (the runs the outputs are made from), or there must be none.
pub fn check_output_folder(out: &Path, own: &[PathBuf]) -> Result<(), String> {
    if out.exists() && !out.is_dir() {
        return Err(format!("{} exists and is not a folder", out.display()));
    }
    let Some(run) = enclosing_run(out) else {
        return Ok(());
    };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if own.iter().any(|mine| same(&run, mine)) {
        return Ok(());
    }
    let inside = if same(&run, out) {
        String::new()
    } else {
        format!(" is inside {}, which", run.display())
    };
    let holds = super::kind::folder_kind(&run).map_or_else(String::new, |f| f.describe());
    Err(format!(
        "{}{inside} is the folder of another run: {holds}; its files are not written over: \
         choose another --out",
        out.display()
    ))
}

/// Checks that `path`, a file a command writes (as `what`, e.g. "the Markdown table"), would
/// not replace something else: a new file may go anywhere, but an existing one is replaced only
/// if it is a file ending in `.EXT` (the kind being written) outside any run folder (whose files
/// belong to that run).
pub fn check_output_file(path: &Path, what: &str, ext: &str) -> Result<(), String> {
    let shown = path.display();
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() || path.extension().is_none_or(|e| e != ext) {
        return Err(format!(
            "{shown} exists and is not a .{ext} file; it is not replaced by {what}: choose a new file or one ending in .{ext}"
        ));
    }
    if let Some(run) = enclosing_run(path) {
        return Err(format!(
            "{shown} belongs to the run in {} and is not replaced by {what}: choose a new file",
            run.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_one_component() {
        for bad in ["", " ", ".", "..", "a/b", "a\\b", "x\ny"] {
            assert!(check_plain_name("name", bad).is_err(), "{bad:?}");
        }
        for good in ["quick", "...", "a b", "é", ".hidden"] {
            assert!(check_plain_name("name", good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn temporaries_name_their_process() {
        assert_eq!(temp_owner(".tables.md.123-4.tmp.md"), Some(123));
        assert_eq!(temp_owner(".spec.ron.77-0.tmp.ron"), Some(77));
        assert_eq!(temp_owner(".target.5-1.tmp"), Some(5));
        assert_eq!(temp_owner(".tables.md.tmp"), None);
        assert_eq!(temp_owner("games.jsonl"), None);
        let dir = std::env::temp_dir().join(format!("evomcts-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Process ids above the kernel's limit (4194304) never run.
        let stale = dir.join(".tables.md.99999999-0.tmp.md");
        let own = dir.join(format!(".tables.md.{}-0.tmp.md", std::process::id()));
        for f in [&stale, &own] {
            std::fs::write(f, "x").unwrap();
        }
        remove_stale_temporaries(&dir);
        assert_eq!(!stale.exists(), Path::new("/proc/self").exists());
        assert!(own.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_append_file_removed_or_replaced_under_its_writer_is_noticed() {
        let dir = std::env::temp_dir().join(format!("evomcts-in-place-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        create_folder(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let append = OpenOptions::new().create(true).append(true).clone();
        let file = open_own(&path, &append).unwrap();
        assert!(check_still_in_place(&file, &path).is_ok());
        std::fs::remove_file(&path).unwrap();
        assert!(check_still_in_place(&file, &path).is_err());
        let file = open_own(&path, &append).unwrap();
        std::fs::write(dir.join("copy"), "").unwrap();
        std::fs::rename(dir.join("copy"), &path).unwrap();
        #[cfg(unix)]
        assert!(check_still_in_place(&file, &path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn folders_are_made_without_following_a_link_inside_a_run() {
        assert!(create_folder(Path::new("")).is_ok());
        let dir = std::env::temp_dir().join(format!("evomcts-folders-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (run, elsewhere) = (dir.join("run"), dir.join("elsewhere"));
        create_folder(&run.join("plots")).unwrap();
        std::fs::write(run.join(super::super::kind::SPEC_RON), "").unwrap();
        create_folder(&elsewhere).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&elsewhere, run.join("linked")).unwrap();
            assert!(create_folder(&run.join("linked")).is_err());
            assert!(create_folder(&run.join("linked/boards")).is_err());
            assert!(!elsewhere.join("boards").exists());
        }
        assert!(create_folder(&run.join("plots/boards")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn file_stems_are_distinct_bounded_and_plain() {
        assert_eq!(file_stem("uct"), "uct");
        assert_ne!(file_stem("ES+1"), file_stem("ES-1"));
        assert!(file_stem("ES+1").starts_with("es_1-"));
        assert_ne!(file_stem("Ä"), file_stem("Ö"));
        assert_ne!(file_stem("uct"), file_stem("UCT"));
        let long = "x".repeat(200);
        assert!(file_stem(&long).len() <= STEM_SLUG_CHARS + 9);
        assert_ne!(file_stem(&long), file_stem(&format!("{long}y")));
        for name in ["", ".", "..", "/", "a/b"] {
            let stem = file_stem(name);
            assert!(
                check_plain_name("stem", &stem).is_ok(),
                "{name:?} -> {stem}"
            );
        }
    }
}
