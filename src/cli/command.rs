//! The command: its arguments (clap) and the subcommand each names, run by [`main`] for the
//! `evomcts` binary and for the Python package's `python -m evomcts`.

use clap::{Parser, Subcommand};

use super::*;

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
    League(league::LeagueArgs),
    /// Recompute the tables from the records of one or more runs of a league.
    Table(table::TableArgs),
    /// Replay a run's recorded games from their seeds and check they reproduce.
    Replay(replay::ReplayArgs),
    /// MCTS and Star against Pig's exact solution: optimal moves and lost win probability.
    Exact(exact::ExactArgs),
    /// Write a Slurm job array (one league slice per task) and its merge job, or the driver job
    /// of an evolution or validation over one allocation.
    Slurm(slurm::SlurmArgs),
    /// One task of a job step started by `evolve --srun` or `validate … --srun` (not for people).
    #[command(hide = true)]
    StepWorker(step_worker::StepWorkerArgs),
    /// Play one game between two random controllers and print the board and scores.
    Play(play::PlayArgs),
    /// Benchmarks that measure real work (engine, ...), printed as text or JSON.
    Bench(bench::BenchArgs),
    /// How often MCTS's tree policy decides anything, per budget, on a game's random decisions:
    /// where legal moves outnumber the budget, the formula is never asked at the root.
    Budgets(budgets::BudgetsArgs),
    /// Parse, print, canonicalise and evaluate selection formulas.
    Formula(formula::FormulaArgs),
    /// Evolve one reusable selection formula across many games or bandit runs.
    Evolve(evolve::EvolveArgs),
    /// The front between simple and strong of an evolution run: its best distinct simplified
    /// formulas on common fresh samples, kept when no simpler one matches them (`pareto.csv`).
    Pareto(pareto::ParetoArgs),
    /// How often formulas an evolution run's functional hashing took for one play differently.
    CheckFingerprints(check_fingerprints::CheckFingerprintsArgs),
    /// An evolved formula against tuned UCT on unseen tile sequences; UCT sweeps; bandit baselines.
    Validate(validate::ValidateArgs),
    /// Tune a controller's constants jointly (SPSA on sweep sequences), then re-estimate them
    /// on fresh ones.
    Tune(tune::TuneArgs),
    /// The whole protocol for one game: UCT's C_E tuned at each budget, evolution seeded with
    /// tuned UCT, the champion validated against it on unseen seeds; study.csv and study.md.
    Study(study::StudyArgs),
    /// Many games' studies, each its own process, then the dataset of where evolution beats
    /// tuned UCT, the generalisation matrix and what the champions share.
    Portfolio(portfolio::PortfolioArgs),
    /// Figures and tables from league runs: formulas, league, game curves, boards.
    Plot(plot::PlotArgs),
    /// Every paper preset over K seeds (resumable), then docs/replication.md: the paper's
    /// tables beside ours.
    Replicate(replicate::ReplicateArgs),
    /// HTML pages of a league (tables, figures, a turn-by-turn viewer of every game) or of an evolution run, readable offline.
    Report(report::ReportArgs),
    /// Search a recorded game's position at a turn again and print the root statistics.
    Analyse(analyse::AnalyseArgs),
}

/// Set while the command line runs inside another program (the Python package's `python -m
/// evomcts`), whose executable is not the evomcts binary that job steps and Slurm scripts run.
static EMBEDDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The evomcts binary that jobs started by this command run: this executable, unless the
/// command line runs inside another program, where there is none to name.
pub fn this_binary(flag: &str) -> anyhow::Result<std::path::PathBuf> {
    if EMBEDDED.load(std::sync::atomic::Ordering::Relaxed) {
        anyhow::bail!(
            "{flag} starts the evomcts binary on the allocation, and `python -m evomcts` is not \
             it: run this command with the binary (native games), or name it with --bin \
             where the command has that flag; OpenSpiel's games run on one machine"
        );
    }
    Ok(std::env::current_exe()?.canonicalize()?)
}

/// The Python interpreter that embeds the command line (`sys.executable`), set by
/// [`main_embedded`]: what [`relaunch`] starts again.
static EMBEDDING_PYTHON: std::sync::Mutex<Option<std::path::PathBuf>> = std::sync::Mutex::new(None);

/// [`main`] for a program that embeds the command line (the Python package, whose interpreter
/// is `python`): commands that would start this executable as the evomcts binary refuse to
/// ([`this_binary`]), and commands that start this command line again in local processes
/// start `python -m evomcts` ([`relaunch`]).
// The binary compiles these modules too and never embeds itself.
#[allow(dead_code)]
pub fn main_embedded(
    python: std::path::PathBuf,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> i32 {
    EMBEDDED.store(true, std::sync::atomic::Ordering::Relaxed);
    *EMBEDDING_PYTHON.lock().expect("the embedding Python") = Some(python);
    main(args)
}

/// How to start this command line again on this machine: the evomcts binary, or, inside the
/// Python package, `python -m evomcts` with the same interpreter (so OpenSpiel's games are
/// playable there too): what `--workers N` and `portfolio` start.
pub fn relaunch() -> anyhow::Result<evomcts::frame::Relaunch> {
    if EMBEDDED.load(std::sync::atomic::Ordering::Relaxed) {
        let python = EMBEDDING_PYTHON
            .lock()
            .expect("the embedding Python")
            .clone();
        return match python {
            Some(python) => Ok(evomcts::frame::Relaunch::python(python)),
            None => {
                anyhow::bail!("the embedding program named no Python interpreter to start again")
            }
        };
    }
    Ok(evomcts::frame::Relaunch::binary(
        std::env::current_exe()?.canonicalize()?,
    ))
}

/// Runs the command line on `args` (the program's name first, as `std::env::args_os` gives
/// them) and returns the exit status: 0 on success, 2 after an error, printed on stderr;
/// `--help`, `--version` and a usage error print and return as clap does.
pub fn main(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return err.exit_code();
        }
    };
    let result = match cli.command {
        Command::League(args) => league::run(args),
        Command::Table(args) => table::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Exact(args) => exact::run(args),
        Command::Slurm(args) => slurm::run(args),
        Command::StepWorker(args) => step_worker::run(args),
        Command::Play(args) => play::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Budgets(args) => budgets::run(args),
        Command::Formula(args) => formula::run(args),
        Command::Evolve(args) => evolve::run(args),
        Command::Pareto(args) => pareto::run(args),
        Command::CheckFingerprints(args) => check_fingerprints::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Study(args) => study::run(args),
        Command::Portfolio(args) => portfolio::run(args),
        Command::Replicate(args) => replicate::run(args),
        Command::Report(args) => report::run(args),
        Command::Analyse(args) => analyse::run(args),
    };
    if let Err(err) = result {
        // `evomcts replay … | head` closes the pipe before everything is printed: the reader
        // already has what it wanted, so the command ends quietly. Every other failure to
        // print (a full disk) lost part of the product and is an error like any other. Stdout
        // is written only through `out!`, which returns these errors instead of panicking;
        // stderr only through `note!`, which ignores them, so losing it never stops the work.
        if is_broken_pipe(&err) {
            return 0;
        }
        // Messages quote names and paths as given, which may hold an ESC or a line break: all
        // escaped, except the lines a message quotes on purpose (a failed job's log).
        evomcts::note!("error: {}", evomcts::progress::terminal_error_message(&err));
        return 2;
    }
    0
}

/// Whether an error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every subcommand's path (e.g. `plot board`) with its command, depth first.
    fn commands() -> Vec<(String, clap::Command)> {
        fn walk(prefix: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
            for sub in cmd.get_subcommands() {
                let path = format!("{prefix} {}", sub.get_name()).trim().to_string();
                out.push((path.clone(), sub.clone()));
                walk(&path, sub, out);
            }
        }
        let mut out = Vec::new();
        walk("", &Cli::command(), &mut out);
        out
    }

    #[test]
    fn every_command_and_option_has_a_description() {
        let mut missing = Vec::new();
        for (path, cmd) in commands() {
            if cmd.get_about().is_none() {
                missing.push(path.clone());
            }
            for arg in cmd.get_arguments() {
                if arg.get_help().is_none() && !matches!(arg.get_id().as_str(), "help" | "version")
                {
                    missing.push(format!("{path} {}", arg.get_id()));
                }
            }
        }
        assert!(missing.is_empty(), "without a description: {missing:?}");
    }

    #[test]
    fn the_command_reference_lists_every_command_and_option() {
        let section = include_str!("../../docs/commands.md");
        let mut missing = Vec::new();
        for (path, cmd) in commands() {
            if path == "help" || path.ends_with(" help") {
                continue;
            }
            let leaf = path.rsplit(' ').next().unwrap_or(&path);
            if !section.contains(leaf) {
                missing.push(path.clone());
            }
            for arg in cmd.get_arguments() {
                if let Some(long) = arg.get_long() {
                    if !matches!(long, "help" | "version")
                        && !section.contains(&format!("--{long}"))
                    {
                        missing.push(format!("{path} --{long}"));
                    }
                }
            }
        }
        assert!(missing.is_empty(), "not in docs/commands.md: {missing:?}");
    }
}
