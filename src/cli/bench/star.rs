//! `evomcts bench star`: placeholder until the star controllers land.

use clap::Args;

#[derive(Args)]
pub struct StarBenchArgs {}

pub fn run(_args: StarBenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("bench star is not built yet")
}
