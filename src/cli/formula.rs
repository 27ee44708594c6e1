//! `evomcts formula`: read, simplify and evaluate selection formulas, and check or
//! sample grammars, so users can make sense of evolved formulas.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::{Args, Subcommand};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use evomcts::formula::{Expr, Formula, Grammar, SelectionInputs};

#[derive(Args)]
pub struct FormulaArgs {
    #[command(subcommand)]
    command: FormulaCommand,
}

#[derive(Subcommand)]
enum FormulaCommand {
    /// Print a formula's parsed tree, its printed form and its canonical form.
    ///
    /// Syntax: terminals Q (child's mean reward), N (parent visits), n (child visits),
    /// C (exploration constant), V, P, K (extras), H (the move's heuristic value), p (its
    /// prior), the move features G O M F R L T; + - * /; ln (or log), sqrt, min, max;
    /// numbers; an optional own C_E as a suffix, e.g. `Q + C*sqrt(ln(N)/n) [C=5]`.
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
        /// Q(s,a): the child's mean reward.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = finite)]
        q: f64,
        /// N(s): the parent's visits.
        #[arg(long, default_value_t = 1.0, value_parser = finite)]
        parent_visits: f64,
        /// N(s,a): the child's visits.
        #[arg(long, default_value_t = 1.0, value_parser = finite)]
        child_visits: f64,
        /// C_E: the controller's exploration constant (a formula's own `[C=...]` wins).
        #[arg(long = "c", default_value_t = 2.0, allow_hyphen_values = true, value_parser = finite)]
        c_e: f64,
        /// V: variance of the child's rewards.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        variance: f64,
        /// P: the parent's mean reward.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = finite)]
        parent_q: f64,
        /// K: number of children of the parent.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        siblings: f64,
        /// H: heuristic value of the move that leads to the child, in Q's unit.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = finite)]
        heuristic: f64,
        /// p: the child's prior (softmax of the siblings' H).
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        prior: f64,
        /// G: the mover's own score gain from the move, in Q's unit.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = finite)]
        mover_gain: f64,
        /// O: the opponent's score gain from the move, in Q's unit.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = finite)]
        opponent_gain: f64,
        /// M: 1 if the move places a meeple, else 0.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        meeple: f64,
        /// F: 1 if that meeple stands on a field (a farmer), else 0.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        farmer: f64,
        /// R: the mover's meeples the move returns to the supply.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        returned: f64,
        /// L: the mover's meeples in supply after the move, / 7.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        supply: f64,
        /// T: the turns played before the move, / 71.
        #[arg(long, default_value_t = 0.0, value_parser = finite)]
        turn: f64,
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
            q,
            parent_visits,
            child_visits,
            c_e,
            variance,
            parent_q,
            siblings,
            heuristic,
            prior,
            mover_gain,
            opponent_gain,
            meeple,
            farmer,
            returned,
            supply,
            turn,
        } => {
            let formula = parse(&expr)?;
            let inputs = SelectionInputs {
                q,
                parent_visits,
                child_visits,
                c_e,
                reward_variance: variance,
                parent_q,
                siblings,
                heuristic,
                prior,
                features: [
                    mover_gain,
                    opponent_gain,
                    meeple,
                    farmer,
                    returned,
                    supply,
                    turn,
                ],
            };
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
