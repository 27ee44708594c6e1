//! `evomcts bench`: benchmarks of real work, each printing text or one JSON object.

pub mod engine;
pub mod search;
pub mod star;
pub mod threads;

use anyhow::Result;
use clap::{Args, Subcommand};

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    which: Which,
}

#[derive(Subcommand)]
enum Which {
    /// Complete random games on one thread.
    Engine(engine::EngineArgs),
    /// MCTS, ES-MCTS and ES-p-MCTS decisions on mid-game positions.
    Search(search::SearchBenchArgs),
    /// Star1, Star2 and Star2.5 decisions on mid-game positions.
    Star(star::StarBenchArgs),
    /// A league on 1 and on 2 worker threads: the speed-up from the second core.
    Threads(threads::ThreadsBenchArgs),
}

pub fn run(args: BenchArgs) -> Result<()> {
    match args.which {
        Which::Engine(a) => engine::run(a),
        Which::Search(a) => search::run(a),
        Which::Star(a) => star::run(a),
        Which::Threads(a) => threads::run(a),
    }
}
