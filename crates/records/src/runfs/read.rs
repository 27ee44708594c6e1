//! Reading files, every one the tool reads: only a regular file, and never more than a bound
//! that depends on what the file should be, so a wrong path, a FIFO or a device cannot block a
//! run or fill its memory.

use super::files::open_regular;
use std::fs::OpenOptions;
use std::io::Read;
use std::path::Path;

/// Spec files and the files they name are small; anything larger is a mistake (a record file
/// or a binary given by accident), refused before it is read into memory.
pub const MAX_SPEC_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The largest record file (`games.jsonl`) read: a league's records are held in memory, and
/// 10 million games (the most a league may schedule) of ~5 KB each fit below it.
pub const MAX_RECORD_FILE_BYTES: u64 = 64 * 1024 * 1024 * 1024;

/// The largest generation file read: a generation holds at most 2 × 10,000 members of a few
/// hundred bytes each.
pub const MAX_GENERATION_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The largest table or data file the tool wrote and reads back (validation games, Star
/// decisions, figures).
pub const MAX_DATA_FILE_BYTES: u64 = 1024 * 1024 * 1024;

/// Reads at most `max` bytes of `path` if it is a regular file ([`open_regular`]: a FIFO or a
/// device such as `/dev/zero` is refused without waiting), and refuses a longer file before it
/// fills memory: every file the tool reads goes through
/// here (or [`read_capped_text`]), each kind with its own bound. `what` says what the file
/// should have been, for the message.
pub fn read_capped(path: &Path, max: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path, OpenOptions::new().read(true))?
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        let size = if max >= 1 << 30 {
            format!("{} GiB", max >> 30)
        } else if max >= 1 << 20 {
            format!("{} MiB", max >> 20)
        } else {
            format!("{max} bytes")
        };
        return Err(std::io::Error::other(format!(
            "larger than {size}, not {what}"
        )));
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text; a UTF-8 byte-order mark, which some editors write, is
/// dropped.
pub fn read_capped_text(path: &Path, max: u64, what: &str) -> std::io::Result<String> {
    let text = String::from_utf8(read_capped(path, max, what)?)
        .map_err(|_| std::io::Error::other("not UTF-8 text"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}
