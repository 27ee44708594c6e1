//! `evomcts bench search`: placeholder until the search controllers land.

use clap::Args;

#[derive(Args)]
pub struct SearchBenchArgs {}

pub fn run(_args: SearchBenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("bench search is not built yet")
}
