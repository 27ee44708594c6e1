//! `evomcts formula`: read, simplify and evaluate selection formulas, and check or
//! sample grammars, so users can make sense of evolved formulas.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches, Subcommand};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use evomcts::formula::{Expr, Formula, Grammar, SelectionInputs, TERMINALS};

#[derive(Args)]
pub struct FormulaArgs {
    #[command(subcommand)]
    command: FormulaCommand,
}

#[derive(Subcommand)]
enum FormulaCommand {
    /// Print a formula's parsed tree, its printed form and its canonical form.
    #[command(long_about = show_long_about())]
    Show {
        /// The formula, e.g. "Q + 2*C*sqrt(2*ln(N)/n)".
        expr: String,
    },
    /// Print a formula simplified and its node counts before and after.
    ///
    /// The simplified formula has the same value as the original for every input (so it
    /// picks the same child everywhere): constants folded through the protected operators,
    /// identities and the dead branches the operators' ranges prove removed.
    Simplify {
        /// The formula, e.g. "Q + 2*C*sqrt(2*(ln(2 - 2)/(C/N - (2 + C)))/n)".
        expr: String,
        /// Simplify for this controller C_E, as if the formula carried `[C=...]` (a formula's
        /// own value wins); without it, the result holds for every C_E.
        #[arg(long = "c", allow_hyphen_values = true, value_parser = finite)]
        c_e: Option<f64>,
    },
    /// Evaluate a formula for one child.
    Eval {
        /// The formula, e.g. "Q + C*sqrt(ln(N)/n)".
        expr: String,
        /// The child's statistics: one flag per terminal.
        #[command(flatten)]
        inputs: TerminalFlags,
    },
    /// Validate a grammar file (default: the built-in paper grammar) and print it.
    Grammar {
        /// A RON grammar file, e.g. grammars/ucb1_tuned.ron.
        path: Option<PathBuf>,
    },
    /// Print random single mutations of a formula under a grammar.
    Mutate {
        /// The parent formula (default: UCT).
        expr: Option<String>,
        /// A RON grammar file (default: the built-in paper grammar).
        #[arg(long)]
        grammar: Option<PathBuf>,
        /// How many offspring to print.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Seed of the random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

pub fn run(args: FormulaArgs) -> anyhow::Result<()> {
    match args.command {
        FormulaCommand::Show { expr } => {
            let formula = parse(&expr)?;
            let canonical = formula.canonical();
            outln!("parsed:    {}", tree_text(formula.expr()))?;
            outln!("printed:   {formula}")?;
            outln!("canonical: {canonical}")?;
            outln!(
                "size {}, depth {}, C_E {}",
                formula.size(),
                formula.depth(),
                formula
                    .c_e()
                    .map_or("from the controller".to_string(), |c| format!("{c} (own)"))
            )?;
        }
        FormulaCommand::Simplify { expr, c_e } => {
            let mut formula = parse(&expr)?;
            if formula.c_e().is_none() {
                formula = formula.with_c_e(c_e);
            }
            let simplified = formula.simplify();
            outln!("original:   {formula}  ({} nodes)", formula.size())?;
            outln!("simplified: {simplified}  ({} nodes)", simplified.size())?;
        }
        FormulaCommand::Eval {
            expr,
            inputs: TerminalFlags(inputs),
        } => {
            let formula = parse(&expr)?;
            let compiled = formula.compile()?;
            outln!("{}", compiled.eval(&inputs))?;
        }
        FormulaCommand::Grammar { path } => {
            let grammar = load_grammar(path)?;
            out!("{}", grammar.to_ron())?;
            outln!()?;
        }
        FormulaCommand::Mutate {
            expr,
            grammar,
            count,
            seed,
        } => {
            let max = evomcts::bounds::MAX_MUTATIONS;
            crate::cli::check_count("--count", count as u64, 0, max)?;
            let grammar = load_grammar(grammar)?;
            let parent = match expr {
                Some(text) => parse(&text)?,
                None => Formula::uct(),
            };
            if let Err(problem) = grammar.admits(&parent) {
                evomcts::note!("note: the parent is outside the grammar: {problem}");
            }
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            outln!("parent: {parent}")?;
            for _ in 0..count {
                let child = evomcts::formula::mutate(&parent, &grammar, &mut rng);
                outln!("{child}")?;
            }
        }
    }
    Ok(())
}

/// `formula show --help`: the syntax, with every terminal of the table.
fn show_long_about() -> String {
    let terminals: Vec<String> = TERMINALS
        .iter()
        .map(|t| format!("{} ({})", t.symbol, t.meaning))
        .collect();
    format!(
        "Print a formula's parsed tree, its printed form and its canonical form.\n\n\
         Syntax: the terminals {}; + - * /; ln (or log), sqrt, min, max; numbers; an optional \
         own C_E as a suffix, e.g. `Q + C*sqrt(ln(N)/n) [C=5]`.",
        terminals.join(", ")
    )
}

/// `formula eval`'s inputs: one flag per terminal of the table (its `flag`, its symbol as the
/// value's name, its meaning as help), each defaulting to the table's `default`.
struct TerminalFlags(SelectionInputs);

impl FromArgMatches for TerminalFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut inputs = SelectionInputs::default();
        for info in TERMINALS {
            let given = matches.get_one::<f64>(info.keyword).copied();
            *info.terminal.slot_mut(&mut inputs) = given.unwrap_or(info.default);
        }
        Ok(TerminalFlags(inputs))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = TerminalFlags::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for TerminalFlags {
    fn augment_args(command: Command) -> Command {
        TERMINALS.iter().fold(command, |command, info| {
            command.arg(
                Arg::new(info.keyword)
                    .long(info.flag)
                    .value_name(info.symbol)
                    .help(format!(
                        "{}: {} [default: {}]",
                        info.symbol, info.meaning, info.default
                    ))
                    .allow_hyphen_values(info.signed)
                    .value_parser(finite),
            )
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        TerminalFlags::augment_args(command)
    }
}

fn parse(text: &str) -> anyhow::Result<Formula> {
    Formula::parse(text).map_err(|err| {
        // The picture of where the error is (the formula, a caret under the place) spans
        // lines, which an error message (one line, escaped) cannot: it goes to stderr first.
        for line in err.render(text).lines().take(2) {
            evomcts::note!("{}", evomcts::escape::terminal(line));
        }
        anyhow!("cannot parse the formula: {err}")
    })
}

fn load_grammar(path: Option<PathBuf>) -> anyhow::Result<Grammar> {
    match path {
        Some(path) => evomcts::runfs::read_grammar(&path).context("invalid grammar"),
        None => Ok(Grammar::paper()),
    }
}

/// The tree as a prefix S-expression, which shows the grouping the parser chose.
fn tree_text(expr: &Expr) -> String {
    match expr {
        Expr::Const(v) => evomcts::formula::format_number(*v),
        Expr::Term(t) => t.symbol().to_string(),
        Expr::Unary(op, x) => format!("({} {})", op.symbol(), tree_text(x)),
        Expr::Binary(op, a, b) => format!("({} {} {})", op.symbol(), tree_text(a), tree_text(b)),
    }
}

/// An input of `formula eval`: a finite number (a NaN or an infinity would be evaluated into a
/// value that looks like an answer).
fn finite(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number, got {text:?}"))?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(format!("expected a finite number, got {text}"))
    }
}
