//! `evomcts check-fingerprints`: how often formulas that functional hashing took for one
//! (equal fingerprints) play differently on fresh tile sequences.

use anyhow::Result;
use clap::Args;
use evomcts::arena::GameChoice;
use evomcts::evolve::hashing::check_fingerprints;
use std::path::PathBuf;

#[derive(Args)]
pub struct CheckFingerprintsArgs {
    /// The folder of an evolution run that used functional hashing.
    run: PathBuf,
    /// At most this many fingerprint-equal pairs of distinct canonical forms.
    #[arg(long, default_value_t = 10)]
    pairs: usize,
    /// Fresh tile sequences per pair (both seatings of each, so twice as many games per
    /// formula).
    #[arg(long, default_value_t = 10)]
    sequences: usize,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
}

/// The most games one check may play: as many as the fitness samples of an evolution run.
const MAX_GAMES: u64 = 10_000_000;

pub fn run(args: CheckFingerprintsArgs) -> Result<()> {
    super::check_count("--pairs", args.pairs as u64, 1, 10_000)?;
    super::check_count("--sequences", args.sequences as u64, 1, MAX_GAMES)?;
    // Both formulas of a pair play both seatings of every sequence.
    super::check_work(
        "--pairs × --sequences × 4 games",
        args.pairs as u128 * args.sequences as u128 * 4,
        MAX_GAMES,
        "games",
    )?;
    // Functional hashing, and so its bank, is Carcassonne's.
    let pool = evomcts::frame::RunPool::new(args.threads.threads, Some(&GameChoice::Carcassonne))?;
    let check = pool.install(|| check_fingerprints(&args.run, args.pairs, args.sequences))?;
    outln!(
        "{} distinct formulas, {} fingerprint classes with more than one; {} pairs checked",
        check.forms,
        check.shared_classes,
        check.pairs.len()
    )?;
    let (mut games, mut differing) = (0, 0);
    for pair in &check.pairs {
        outln!(
            "{:>3}/{:<3} games differ: {}  vs  {}",
            pair.differing,
            pair.games,
            pair.a,
            pair.b
        )?;
        games += pair.games;
        differing += pair.differing;
    }
    if games > 0 {
        let (low, high) = evomcts::stats::wilson_interval(differing as f64, games as f64);
        outln!(
            "games that differ: {differing} of {games} ({:.1}%, 95% interval {:.1}% to {:.1}%)",
            100.0 * differing as f64 / games as f64,
            100.0 * low,
            100.0 * high
        )?;
    }
    Ok(())
}
