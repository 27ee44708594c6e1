//! `evomcts formula`: read, simplify and evaluate selection formulas, check or sample
//! grammars, and enumerate the forms a grammar writes grouped by behaviour, so users can make
//! sense of evolved formulas. `simplify` and `enumerate` name what a formula does on a bank of
//! sibling sets (`formula::Namer`): `--bank FILE`, or the committed [`DEFAULT_BANK`] when the
//! command runs from the repository's root.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches, Subcommand};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use evomcts::formula::{
    Enumeration, Expr, Formula, Grammar, Namer, SelectionInputs, SiblingSets, TERMINALS,
};

/// The bank `simplify` and `enumerate` read without `--bank`, relative to the working
/// directory: the one a committed evolution run recorded (2000 sibling sets of Carcassonne
/// searches, 100 simulations, C_E 0.003, Q the score difference over 50).
pub const DEFAULT_BANK: &str = "populations/carcassonne-knowledge100-hashed/fingerprint-bank.csv";

/// `formula enumerate`'s default cap on the candidate trees of one size.
const DEFAULT_CAP: u64 = 10_000_000;

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
    /// Print a formula simplified and its node counts before and after, then what it ranks
    /// like on a bank of sibling sets.
    ///
    /// The simplified formula has the same value as the original for every input (so it
    /// picks the same child everywhere): constants folded through the protected operators,
    /// identities and the dead branches the operators' ranges prove removed. With a bank
    /// (`--bank`, or the committed one from the repository's root) a last line names the tree
    /// policy it ranks like there: greedy Q (and who wins Q's ties), most visited, UCT at some
    /// C_E, or the closest of these with the share of sets they agree on.
    Simplify {
        /// The formula, e.g. "Q + 2*C*sqrt(2*(ln(2 - 2)/(C/N - (2 + C)))/n)".
        expr: String,
        /// Simplify for this controller C_E, as if the formula carried `[C=...]` (a formula's
        /// own value wins); without it, the result holds for every C_E (and the bank's C_E is
        /// used to name it).
        #[arg(long = "c", allow_hyphen_values = true, value_parser = finite)]
        c_e: Option<f64>,
        #[command(flatten)]
        bank: BankArg,
    },
    /// Enumerate every form a grammar writes up to a number of nodes, grouped by behaviour.
    ///
    /// A form is a simplified formula whose numbers are placeholders {W1}, {W2} … (constants
    /// fitted later); trees with one simplified text are one form. Prints the trees written,
    /// the unique forms and, on a bank of sibling sets, the classes of forms that pick the same
    /// child in every set (placeholders at each of --constants in turn), one representative
    /// per class (the simplest) with the class's size and what it ranks like. `C` reads the
    /// C_E the bank recorded.
    Enumerate {
        /// `paper`, `ucb1_tuned` or a RON grammar file.
        #[arg(long, default_value = "paper")]
        grammar: String,
        /// The most nodes a formula has (1 to 15). Grouping evaluates every form on every set
        /// of the bank: on a large enumeration, --sets keeps it short.
        #[arg(long = "max-nodes")]
        max_nodes: usize,
        /// Values every placeholder takes when grouping, one pass over the bank each,
        /// comma-separated; representatives are named at the first.
        #[arg(long, value_delimiter = ',', default_value = "1", allow_hyphen_values = true, value_parser = finite)]
        constants: Vec<f64>,
        /// Refuse a size with more candidate trees than this.
        #[arg(long, default_value_t = DEFAULT_CAP)]
        cap: u64,
        #[command(flatten)]
        bank: BankArg,
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
        FormulaCommand::Simplify { expr, c_e, bank } => {
            let mut formula = parse(&expr)?;
            if formula.c_e().is_none() {
                formula = formula.with_c_e(c_e);
            }
            let bank = bank.load()?;
            let simplified = formula.simplify();
            outln!("original:   {formula}  ({} nodes)", formula.size())?;
            outln!("simplified: {simplified}  ({} nodes)", simplified.size())?;
            if let Some((file, bank)) = bank {
                let behaviour = Namer::new(&bank).name(&simplified)?;
                outln!(
                    "behaviour:  {behaviour}  (bank {file}, {} sets)",
                    bank.len()
                )?;
            }
        }
        FormulaCommand::Enumerate {
            grammar,
            max_nodes,
            constants,
            cap,
            bank,
        } => {
            crate::cli::check_count("--constants", constants.len() as u64, 1, 16)?;
            let grammar = grammar_named(&grammar)?;
            let bank = bank.load()?;
            let enumeration = evomcts::formula::enumerate(&grammar, max_nodes, cap)?;
            print_enumeration(grammar.name(), &enumeration, bank.as_ref(), &constants)?;
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

/// `formula enumerate`'s report: counts, then one line per behaviour class.
fn print_enumeration(
    grammar: &str,
    e: &Enumeration,
    bank: Option<&(String, SiblingSets)>,
    constants: &[f64],
) -> anyhow::Result<()> {
    outln!("grammar:  {grammar}, 1 to {} nodes", e.max_nodes())?;
    outln!(
        "written:  {} trees (a constant is one leaf kind)",
        e.written()
    )?;
    outln!(
        "built:    {} trees, from the unique smaller forms",
        e.built()
    )?;
    outln!("unique:   {} forms", e.forms().len())?;
    let Some((file, bank)) = bank else {
        outln!("classes:  need a bank of sibling sets (--bank FILE)")?;
        return Ok(());
    };
    let values: Vec<String> = constants
        .iter()
        .map(|&v| evomcts::formula::format_number(v))
        .collect();
    outln!(
        "bank:     {file}, {} sets; placeholders at {}",
        bank.len(),
        values.join(", ")
    )?;
    let classes = evomcts::formula::classes(e, bank, constants);
    outln!("classes:  {}", classes.len())?;
    let namer = Namer::new(bank);
    let width = classes
        .iter()
        .map(|c| c.representative.text().chars().count())
        .max()
        .unwrap_or(0)
        .max("representative".len());
    outln!("{:>7}  {:<width$}  behaviour", "members", "representative")?;
    for class in &classes {
        let form = &class.representative;
        let behaviour = namer.name(&form.with_constants(constants[0]))?;
        outln!("{:>7}  {:<width$}  {behaviour}", class.members, form.text())?;
    }
    Ok(())
}

/// Where `simplify` and `enumerate` read their bank of sibling sets.
#[derive(Args)]
struct BankArg {
    /// A bank of sibling sets: the `fingerprint-bank.csv` of an evolution run with functional
    /// hashing [default: populations/carcassonne-knowledge100-hashed/fingerprint-bank.csv when
    /// it exists under the working directory].
    #[arg(long)]
    bank: Option<PathBuf>,
    /// Use only the bank's first N sibling sets (faster on large enumerations).
    #[arg(long)]
    sets: Option<usize>,
}

impl BankArg {
    /// The bank and its file's name: the one given, else the committed default when present.
    fn load(&self) -> anyhow::Result<Option<(String, SiblingSets)>> {
        let path = match &self.bank {
            Some(path) => path.clone(),
            None if std::path::Path::new(DEFAULT_BANK).is_file() => PathBuf::from(DEFAULT_BANK),
            None => return Ok(None),
        };
        let file = path.display().to_string();
        let text = evomcts::runfs::read_capped_text(
            &path,
            evomcts::runfs::MAX_DATA_FILE_BYTES,
            "fingerprint bank",
        )
        .with_context(|| format!("{file}: cannot read the fingerprint bank"))?;
        let mut bank = evomcts::evolve::hashing::parse_bank(&text, &file)?;
        if let Some(sets) = self.sets {
            crate::cli::check_count("--sets", sets as u64, 1, bank.len() as u64)?;
            bank.truncate(sets);
        }
        Ok(Some((file, bank)))
    }
}

/// A built-in grammar's name, or a RON grammar file.
fn grammar_named(name: &str) -> anyhow::Result<Grammar> {
    match name {
        "paper" | "ucb1_tuned" => Ok(Grammar::named(name)?),
        path => load_grammar(Some(PathBuf::from(path))),
    }
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
