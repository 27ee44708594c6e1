//! What leagues and evolution runs share on disk: seed derivation (`seeds`), reading spec files
//! and resolving the files a spec names (`spec_file`), capped reads (`read`), writes (`files`),
//! the one error of a run's data files, carrying the file's path (`file_error`), the lock that keeps a run folder to one process (`lock`), and what kind of run a folder holds (`kind`).
//!
//! It sits below `league` and `evolve` and above `search`, so both run kinds treat their folders
//! the same way: a spec is read once, every file it names is read then and its content put in the
//! spec (so the spec's hash covers what is played and later edits of those files cannot change a
//! run), and every file a run writes appears whole or not at all.

mod file_error;
mod files;
pub mod kind;
mod lock;
mod read;
mod seeds;
mod spec_file;

pub use file_error::{write_file, FileError};
pub use files::{
    check_output_file, check_output_folder, check_plain_name, check_still_in_place, create_folder,
    default_folder, file_stem, is_run_folder, open_own, open_regular, remove_stale_temporaries,
    replace_with, spec_file_stem, write_atomically, VALIDATION_ROWS_HEADER,
};
pub use kind::{folder_kind, RunKind};
pub use lock::utc_now;
pub use lock::{check_folder_kind, LockError, RunLock, LOCK_FILE};
pub use read::{
    read_capped, read_capped_text, MAX_DATA_FILE_BYTES, MAX_GENERATION_FILE_BYTES,
    MAX_RECORD_FILE_BYTES, MAX_SPEC_FILE_BYTES,
};
pub use seeds::{derive_seed, fnv1a_hex};
pub use spec_file::{
    is_inline_grammar, parse_spec, read_grammar, read_spec_text, resolve_controller,
    resolve_grammar, ron_options, SpecFile, SpecFileError,
};
