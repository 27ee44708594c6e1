//! `evomcts validate`: an evolved formula against tuned UCT on tile sequences evolution
//! never saw (`carcassonne`), the sweep that tunes UCT's constant (`sweep`), and the bandit
//! baselines beside a bandit champion (`bandit`).

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use evomcts::escape;
use evomcts::evolve::{EvolveSpec, FitnessSpec};
use evomcts::formula::Formula;
use evomcts::runfs::{self, SpecFile};
use evomcts::sequential::Hypotheses;
use evomcts::validation::sprt::{from_records, records_table, TestChoice};
use evomcts::validation::sweep::{run_sweep, SweepSpec};
use evomcts::validation::{
    bandit_baselines, bandit_table, run_validation, summary_table, PlayOptions, ValidateSpec,
};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ValidateArgs {
    #[command(subcommand)]
    command: ValidateCommand,
}

#[derive(Args)]
#[command(
    mut_arg("out", |a| a.help("Output folder [default: runs/validate/<spec name>]")),
    mut_arg("stop_after", |a| a.help(
        "Stop once N sequences (× pairings) are written; continue later with --resume"
    ))
)]
struct PlayArgs {
    /// The spec (RON), e.g. runs/validate/carcassonne.ron.
    spec: PathBuf,
    #[command(flatten)]
    run: super::run_args::RunArgs,
}

#[derive(Subcommand)]
enum ValidateCommand {
    /// A formula's MCTS against tuned UCT on unseen tile sequences (or the chance events of
    /// the game the spec names: `game: Pig(..)`, `game: ConnectFour`), both seatings.
    #[command(visible_alias = "game")]
    Carcassonne(PlayArgs),
    /// UCT at several exploration constants against one opponent, on sweep sequences.
    Sweep(PlayArgs),
    /// UCB1 at its best c, UCB1-Tuned and Thompson sampling beside a bandit run's champion.
    Bandit(BanditArgs),
    /// The sequential test (SPRT) applied to validations already played, from their records:
    /// where it stops, its decision, and the fixed-N verdict of all their games.
    Sequential(SequentialArgs),
    /// Validations already played, from their records, as an equivalence question (TOST at a
    /// margin stated beforehand) and with an anytime-valid p-value that their sequential stop
    /// does not void, Holm-adjusted over the folders given.
    Equivalence(EquivalenceArgs),
}

#[derive(Args)]
struct EquivalenceArgs {
    /// Validation folders (each holding spec.ron and games.csv).
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// The equivalence margin: in win rate for games played to win (0.05: within ±0.05 of an
    /// even score), in points a game for games played for points.
    #[arg(long)]
    margin: f64,
    /// The level of each one-sided test (the interval shown is 1 − 2·alpha).
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// For games played for points: the largest |score difference| a seed pair can have, which
    /// the anytime-valid test needs (without it, no anytime p-value is given for them).
    #[arg(long)]
    points_bound: Option<f64>,
    #[command(flatten)]
    out: MarkdownOut,
}

#[derive(Args)]
struct SequentialArgs {
    /// Validation folders (each holding spec.ron and games.csv).
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// The type I error rate [default: the spec's test, else 0.05].
    #[arg(long)]
    alpha: Option<f64>,
    /// The type II error rate [default: the spec's test, else 0.05].
    #[arg(long)]
    beta: Option<f64>,
    /// The pentanomial test's H0, in normalised Elo (with --elo1).
    #[arg(long, requires = "elo1", conflicts_with_all = ["delta0", "delta1"], allow_hyphen_values = true)]
    elo0: Option<f64>,
    /// The pentanomial test's H1, in normalised Elo (with --elo0).
    #[arg(long, requires = "elo0", allow_hyphen_values = true)]
    elo1: Option<f64>,
    /// The score test's H0, in points a game (with --delta1).
    #[arg(long, requires = "delta1", allow_hyphen_values = true)]
    delta0: Option<f64>,
    /// The score test's H1, in points a game (with --delta0).
    #[arg(long, requires = "delta0", allow_hyphen_values = true)]
    delta1: Option<f64>,
    #[command(flatten)]
    out: MarkdownOut,
}

#[derive(Args)]
struct BanditArgs {
    /// The folder of a bandit evolution run (its spec.ron and champion.txt are read).
    run: PathBuf,
    /// Fresh runs every policy is measured on.
    #[arg(long, default_value_t = 4000)]
    runs: usize,
    /// Runs of the UCB1 weight sweep (separate seeds).
    #[arg(long, default_value_t = 2000)]
    sweep_runs: usize,
    /// UCB1 weights c of `Q + c*sqrt(2*ln(N)/n)` to sweep.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.05,0.1,0.15,0.2,0.3,0.5,0.7,1"
    )]
    c: Vec<f64>,
    #[command(flatten)]
    out: MarkdownOut,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
}

/// `--out FILE` of `validate sequential` and `validate bandit`: where the printed table is
/// written too.
#[derive(Args)]
struct MarkdownOut {
    /// Also write the table to this file (Markdown): a new file, or an existing .md file that
    /// is no run's.
    #[arg(long)]
    out: Option<PathBuf>,
}

impl MarkdownOut {
    /// Refuses a file the table may not be written to, before anything is computed.
    fn check(&self) -> Result<()> {
        if let Some(out) = &self.out {
            runfs::check_output_file(out, "the Markdown table", "md")
                .map_err(anyhow::Error::msg)?;
        }
        Ok(())
    }

    /// Writes `table` to the file, if one was given.
    fn write(&self, table: &str) -> Result<()> {
        if let Some(out) = &self.out {
            runfs::write_atomically(out, table.as_bytes())
                .with_context(|| out.display().to_string())?;
        }
        Ok(())
    }
}

fn options(a: &PlayArgs, name: &str) -> Result<PlayOptions> {
    let out = a.run.out_or(|| Path::new("runs/validate").join(name));
    a.run.options(out, name)
}

/// `validate sequential`: the test from each folder's records, as one table.
fn sequential(a: SequentialArgs) -> Result<()> {
    a.out.check()?;
    let hypotheses = match (a.elo0, a.elo1, a.delta0, a.delta1) {
        (Some(elo0), Some(elo1), ..) => Some(Hypotheses::Elo { elo0, elo1 }),
        (.., Some(delta0), Some(delta1)) => Some(Hypotheses::Score { delta0, delta1 }),
        _ => None,
    };
    let choice = TestChoice {
        alpha: a.alpha,
        beta: a.beta,
        hypotheses,
    };
    choice.check_flags().map_err(anyhow::Error::msg)?;
    let mut tested = Vec::new();
    for run in &a.runs {
        tested.push(from_records(run, &choice)?);
    }
    let table = records_table(&tested);
    out!("{table}")?;
    a.out.write(&table)
}

/// `validate equivalence`: TOST and the anytime-valid p-value from each folder's records.
fn equivalence(a: EquivalenceArgs) -> Result<()> {
    use evomcts::validation::equivalence::{equivalence_of, equivalence_table, EquivalenceChoice};
    a.out.check()?;
    let choice = EquivalenceChoice {
        margin: a.margin,
        alpha: a.alpha,
        points_bound: a.points_bound,
    };
    let tested = a
        .runs
        .iter()
        .map(|run| equivalence_of(run, &choice))
        .collect::<Result<Vec<_>, _>>()?;
    let table = equivalence_table(&tested, &choice);
    out!("{table}")?;
    a.out.write(&table)
}

pub fn run(args: ValidateArgs) -> Result<()> {
    match args.command {
        ValidateCommand::Sequential(a) => sequential(a)?,
        ValidateCommand::Equivalence(a) => equivalence(a)?,
        ValidateCommand::Carcassonne(a) => {
            let spec = ValidateSpec::from_file(&a.spec)?;
            let opts = options(&a, &spec.name)?;
            evomcts::note!(
                "validate `{}`: {} unseen sequences x 2 seatings -> {}",
                escape::terminal(&spec.name),
                spec.sequences,
                escape::path(&opts.out_dir)
            );
            let s = run_validation(&spec, &opts)?;
            out!("{}", summary_table(&[s]))?;
            outln!(
                "written to {}",
                escape::path(&opts.out_dir.join("summary.md"))
            )?;
        }
        ValidateCommand::Sweep(a) => {
            let spec = SweepSpec::from_file(&a.spec)?;
            let opts = options(&a, &spec.name)?;
            evomcts::note!(
                "sweep `{}`: {} grid points, {} sequences x 2 seatings each -> {}",
                escape::terminal(&spec.name),
                spec.points().len(),
                spec.sequences,
                escape::path(&opts.out_dir)
            );
            let out = run_sweep(&spec, &opts)?;
            let table: Vec<_> = out.summaries.iter().map(|(_, s)| s.clone()).collect();
            out!("{}", summary_table(&table))?;
            if table.iter().all(|s| s.games == 0) {
                outln!("best: none yet (no games played, so no result)")?;
            } else {
                outln!("best: {}", out.best)?;
            }
        }
        ValidateCommand::Bandit(a) => {
            a.out.check()?;
            evomcts::evolve::population::check_evolution_folder(&a.run)?;
            let spec = EvolveSpec::from_file(a.run.join("spec.ron"))?;
            let FitnessSpec::Bandit(bandit) = &spec.fitness else {
                anyhow::bail!("{}: not a bandit run", a.run.display());
            };
            let unfinished =
                evomcts::evolve::population::unfinished_warning(&a.run, spec.strategy.generations)?;
            if let Some(warning) = &unfinished {
                evomcts::note!("warning: {}", escape::terminal(warning));
            }
            let champion_file = a.run.join("champion.txt");
            let text = evomcts::runfs::read_capped_text(
                &champion_file,
                evomcts::runfs::MAX_SPEC_FILE_BYTES,
                "a formula",
            )
            .with_context(|| champion_file.display().to_string())?;
            let champion: Formula = text
                .trim()
                .parse()
                .with_context(|| champion_file.display().to_string())?;
            let pool = evomcts::frame::RunPool::new(a.threads.threads, None)?;
            let b = pool.install(|| {
                bandit_baselines(
                    bandit,
                    spec.seed,
                    &champion,
                    &spec.seed_formula,
                    &a.c,
                    a.sweep_runs,
                    a.runs,
                )
            });
            let b = b.map_err(anyhow::Error::msg)?;
            // The table is kept, so it says itself that its champion is not final.
            let not_final =
                unfinished.map_or(String::new(), |w| format!("**Not final:** {w}.\n\n"));
            let table = format!(
                "{not_final}Bandit baselines for `{}` ({} arms, best {}, epsilon {}, horizon {}, C_E {}): pseudo-regret, lower is better.\n\n{}",
                a.run.display(),
                bandit.arms,
                escape::number(bandit.best),
                escape::number(bandit.epsilon),
                bandit.horizon,
                escape::number(bandit.c_e),
                bandit_table(&b)
            );
            out!("{table}")?;
            a.out.write(&table)?;
        }
    }
    Ok(())
}
