//! The arguments every command that writes a run folder (`league`, `evolve`) takes.

use clap::Args;
use std::path::PathBuf;

#[derive(Args, Clone, Debug)]
pub struct RunFolderArgs {
    /// Folder of the run [default: runs/<spec file name> for a league, populations/<spec
    /// name> for an evolution]. One process at a time works in a folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted run in its folder.
    #[arg(long)]
    pub resume: bool,
    /// Worker threads [default: all cores; 1 for an OpenSpiel game]. Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// A `--threads` value: a whole number from 1 to `bounds::MAX_THREADS`.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number, got {text:?}"))?;
    evomcts::bounds::check_threads(Some(n))?;
    Ok(n)
}

/// A `--workers` value: a whole number from 1 to `bounds::MAX_THREADS`.
pub fn parse_workers(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number, got {text:?}"))?;
    if n == 0 || n > evomcts::bounds::MAX_THREADS {
        return Err(format!(
            "expected a number of worker processes from 1 to {}, got {n}",
            evomcts::bounds::MAX_THREADS
        ));
    }
    Ok(n)
}
