//! The `evomcts` command line: a thin layer over the library's modules.

mod cli;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "evomcts",
    version,
    about = "Evolve MCTS selection formulas and measure them in Carcassonne leagues"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run (or resume) a league from a RON spec and print its tables.
    League(cli::league::LeagueArgs),
    /// Recompute the tables from the records of one or more runs of a league.
    Table(cli::table::TableArgs),
    /// Replay a run's recorded games from their seeds and check they reproduce.
    Replay(cli::replay::ReplayArgs),
    /// Write a Slurm job array (one league slice per task) and its merge job.
    Slurm(cli::slurm::SlurmArgs),
    /// Play one game between two random controllers and print the board and scores.
    Play(cli::play::PlayArgs),
    /// Benchmarks that measure real work (engine, ...), printed as text or JSON.
    Bench(cli::bench::BenchArgs),
    /// Parse, print, canonicalise and evaluate selection formulas.
    Formula(cli::formula::FormulaArgs),
    /// Evolve one reusable selection formula across many games or bandit runs.
    Evolve(cli::evolve::EvolveArgs),
    /// Figures and tables from league runs: formulas, league, game curves, boards.
    Plot(cli::plot::PlotArgs),
    /// Every paper preset over K seeds (resumable), then docs/replication.md: the paper's
    /// tables beside ours.
    Replicate(cli::replicate::ReplicateArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::League(args) => cli::league::run(args),
        Command::Table(args) => cli::table::run(args),
        Command::Replay(args) => cli::replay::run(args),
        Command::Slurm(args) => cli::slurm::run(args),
        Command::Play(args) => cli::play::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Formula(args) => cli::formula::run(args),
        Command::Evolve(args) => cli::evolve::run(args),
        Command::Plot(args) => cli::plot::run(args),
        Command::Replicate(args) => cli::replicate::run(args),
    };
    if let Err(err) = result {
        eprintln!("error: {}", error_message(&err));
        std::process::exit(2);
    }
}

/// The error and its causes on one line, each cause once: library errors already quote their
/// source in their own message, so a plain `{:#}` would repeat it.
fn error_message(err: &anyhow::Error) -> String {
    let mut message = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !message.contains(&cause) {
            message.push_str(": ");
            message.push_str(&cause);
        }
    }
    message
}
