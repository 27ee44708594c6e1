//! Grammars: which functions, terminals and constants evolution may use, the C_E value
//! set, the depth cap and the mutation settings, loaded from RON files in `grammars/`.
//!
//! A file is first read as a [`GrammarSpec`] (plain data, names as strings), then
//! validated into a [`Grammar`]. RON syntax errors are reported with file, line and
//! column as RON gives them; semantic errors name the offending field and point at
//! where it appears in the file, so a researcher editing a grammar can find the fix.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::tree::{Expr, Formula, Function, Terminal};

/// The deepest depth cap a grammar may set; the compiled evaluator's fixed stack is
/// sized for it.
pub const MAX_DEPTH_CAP: usize = 16;

const PAPER_RON: &str = include_str!("../../../grammars/paper.ron");
const UCB1_TUNED_RON: &str = include_str!("../../../grammars/ucb1_tuned.ron");

/// Inclusive range of depths for subtrees grown by subtree mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthRange {
    pub min: usize,
    pub max: usize,
}

/// Constant perturbation: a mutation that multiplies one numeric leaf of the parent by a
/// log-normal factor `exp(N(0, sigma²))`, so evolution can tune a weight to any scale instead
/// of redrawing it from `constants`. The result's magnitude is kept within `[min, max]`
/// (its sign is kept).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstantPerturbation {
    /// Chance that a mutation of a formula with a numeric leaf is a perturbation.
    pub probability: f64,
    /// Standard deviation of the factor's logarithm.
    pub sigma: f64,
    /// Smallest magnitude a perturbed constant takes.
    pub min: f64,
    /// Largest magnitude a perturbed constant takes.
    pub max: f64,
}

/// A grammar file as written: see `grammars/paper.ron` for a commented example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Grammar", deny_unknown_fields)]
pub struct GrammarSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Function symbols: `+ - * / ln sqrt`, plus `min max` (`log` is accepted for `ln`).
    pub functions: Vec<String>,
    /// Terminal symbols, those of [`crate::TERMINALS`]: `Q N n C`, plus the extras `V P K`, the
    /// knowledge terminals `H p` and the move features `G O M F R L T`.
    pub terminals: Vec<String>,
    /// Numeric constants leaves can take.
    pub constants: Vec<f64>,
    /// Values C_E is drawn from when a point mutation lands on `C`.
    pub c_e_values: Vec<f64>,
    /// No mutation makes a formula deeper than this (a lone leaf has depth 0).
    pub depth_cap: usize,
    /// Depth of the "full" subtree that replaces an internal node in subtree mutation.
    pub subtree_depth: DepthRange,
    /// Chance that a mutation targets an internal node (subtree mutation) rather than a
    /// leaf (point mutation).
    pub internal_node_probability: f64,
    /// Constant perturbation, off when left out (and then left out of the written grammar,
    /// so grammars without it keep their text and their runs' hashes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant_perturbation: Option<ConstantPerturbation>,
}

/// What mutation draws a replacement leaf from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    Terminal(Terminal),
    Constant(f64),
}

impl Leaf {
    pub fn to_expr(self) -> Expr {
        match self {
            Leaf::Terminal(t) => Expr::Term(t),
            Leaf::Constant(v) => Expr::Const(v),
        }
    }
}

/// A validated grammar.
#[derive(Clone, Debug, PartialEq)]
pub struct Grammar {
    name: String,
    description: String,
    functions: Vec<Function>,
    terminals: Vec<Terminal>,
    constants: Vec<f64>,
    leaves: Vec<Leaf>,
    c_e_values: Vec<f64>,
    depth_cap: usize,
    subtree_depth: DepthRange,
    internal_node_probability: f64,
    constant_perturbation: Option<ConstantPerturbation>,
}

/// RON text that does not parse as the structure expected, at the line and column where the
/// parser stopped; grammars and the spec files that hold them report it alike.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct RonSyntaxError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl RonSyntaxError {
    /// The parser's `err` on the text of `file`.
    pub fn new(file: &str, err: &ron::error::SpannedError) -> RonSyntaxError {
        RonSyntaxError {
            file: file.to_string(),
            line: err.position.line,
            column: err.position.col,
            message: err.code.to_string(),
        }
    }
}

/// Why a grammar could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum GrammarError {
    #[error("{file}: cannot read grammar file: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// Not valid RON, or not the expected structure.
    #[error(transparent)]
    Syntax(RonSyntaxError),
    /// A grammar named by a path where only a built-in name or a grammar's text is taken:
    /// files are read where specs are read (`runfs`), never by the formula layer.
    #[error("grammar `{0}` is neither built in (paper, ucb1_tuned) nor a grammar's RON text; a grammar file is read when the spec naming it is read")]
    NotResolved(String),
    /// Valid RON, but a field's value is not allowed.
    #[error("{file}:{line}:{column}: field `{field}`: {message}")]
    Invalid {
        file: String,
        line: usize,
        column: usize,
        field: &'static str,
        message: String,
    },
}

/// How errors name a grammar given as text in a spec; the spec's file is named around it.
const INLINE_GRAMMAR: &str = "the inline grammar";

impl Grammar {
    /// The main paper's grammar, `grammars/paper.ron`, built into the binary.
    pub fn paper() -> Grammar {
        Grammar::from_ron(PAPER_RON, "grammars/paper.ron").expect("built-in paper.ron is valid")
    }

    /// The paper's grammar plus `min`, `max` and the extra terminals `V P K`, built in
    /// from `grammars/ucb1_tuned.ron`.
    pub fn ucb1_tuned() -> Grammar {
        Grammar::from_ron(UCB1_TUNED_RON, "grammars/ucb1_tuned.ron")
            .expect("built-in ucb1_tuned.ron is valid")
    }

    /// A grammar as a resolved spec names it: `paper` and `ucb1_tuned` are built in; a
    /// grammar's own RON text (`Grammar(...)`, what a spec holds once the file it named has
    /// been read) is parsed. A path is an error: this layer does no I/O.
    pub fn named(name: &str) -> Result<Grammar, GrammarError> {
        match name {
            "paper" => Ok(Grammar::paper()),
            "ucb1_tuned" => Ok(Grammar::ucb1_tuned()),
            text if Grammar::is_inline(text) => Grammar::from_ron(text, INLINE_GRAMMAR),
            other => Err(GrammarError::NotResolved(other.to_string())),
        }
    }

    /// Whether a grammar setting is a grammar's RON text rather than a name or a path.
    pub fn is_inline(name: &str) -> bool {
        let name = name.trim_start();
        name.starts_with("Grammar(") || name.starts_with('(')
    }

    /// Parses RON text; `file` names the source in error messages.
    pub fn from_ron(text: &str, file: &str) -> Result<Grammar, GrammarError> {
        // `implicit_some`: an optional field is written as its value, as in spec files.
        let spec: GrammarSpec = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .with_recursion_limit(128)
            .from_str(text)
            .map_err(|err| GrammarError::Syntax(RonSyntaxError::new(file, &err)))?;
        validate(spec, text, file)
    }

    /// Validates a spec built in code (error positions then refer to nothing: 0:0).
    pub fn from_spec(spec: GrammarSpec) -> Result<Grammar, GrammarError> {
        validate(spec, "", "<in code>")
    }

    /// The spec this grammar was built from, e.g. to change one field and re-validate.
    pub fn to_spec(&self) -> GrammarSpec {
        GrammarSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            functions: self
                .functions
                .iter()
                .map(|f| f.symbol().to_string())
                .collect(),
            terminals: self
                .terminals
                .iter()
                .map(|t| t.symbol().to_string())
                .collect(),
            constants: self.constants.clone(),
            c_e_values: self.c_e_values.clone(),
            depth_cap: self.depth_cap,
            subtree_depth: self.subtree_depth,
            internal_node_probability: self.internal_node_probability,
            constant_perturbation: self.constant_perturbation,
        }
    }

    /// The RON text of this grammar.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().struct_names(true);
        let text =
            ron::ser::to_string_pretty(&self.to_spec(), config).expect("a grammar serialises");
        // ron escapes `'` inside strings as `\'` (Rust's escape_debug), which readers take for
        // a stray backslash. A quote needs no escape in a double-quoted string, and every
        // backslash of the text is itself escaped (`\\`), so each `\'` is an escaped quote.
        text.replace("\\'", "'")
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn description(&self) -> &str {
        &self.description
    }
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }
    pub fn terminals(&self) -> &[Terminal] {
        &self.terminals
    }
    pub fn constants(&self) -> &[f64] {
        &self.constants
    }
    /// Terminals then constants: the choices for a leaf.
    pub fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }
    pub fn c_e_values(&self) -> &[f64] {
        &self.c_e_values
    }
    pub fn depth_cap(&self) -> usize {
        self.depth_cap
    }
    pub fn constant_perturbation(&self) -> Option<ConstantPerturbation> {
        self.constant_perturbation
    }
    pub fn subtree_depth(&self) -> DepthRange {
        self.subtree_depth
    }
    pub fn internal_node_probability(&self) -> f64 {
        self.internal_node_probability
    }

    /// Checks that a formula uses only this grammar's functions, terminals and
    /// constants, that its own C_E is in the set, and that it respects the depth cap.
    pub fn admits(&self, formula: &Formula) -> Result<(), String> {
        if formula.depth() > self.depth_cap {
            return Err(format!(
                "depth {} exceeds the cap {}",
                formula.depth(),
                self.depth_cap
            ));
        }
        if let Some(c_e) = formula.c_e() {
            if !self.c_e_values.contains(&c_e) {
                return Err(format!("C_E {c_e} is not in the grammar's set"));
            }
        }
        let mut problem = None;
        formula.expr().for_each_node(&mut |node| {
            if problem.is_some() {
                return;
            }
            problem = match node {
                Expr::Const(v) if !self.constants.contains(v) => {
                    Some(format!("constant {v} is not in the grammar"))
                }
                Expr::Term(t) if !self.terminals.contains(t) => {
                    Some(format!("terminal {t} is not in the grammar"))
                }
                Expr::Unary(op, _) if !self.functions.contains(&Function::Unary(*op)) => {
                    Some(format!("function {} is not in the grammar", op.symbol()))
                }
                Expr::Binary(op, _, _) if !self.functions.contains(&Function::Binary(*op)) => {
                    Some(format!("function {} is not in the grammar", op.symbol()))
                }
                _ => None,
            };
        });
        problem.map_or(Ok(()), Err)
    }
}

/// Builds field errors that point at the field's place in the source text.
struct Reporter<'a> {
    text: &'a str,
    file: &'a str,
}

impl Reporter<'_> {
    fn invalid(&self, field: &'static str, item: Option<&str>, message: String) -> GrammarError {
        let offset = field_offset(self.text, field).map(|at| {
            // Point at the offending list item when it can be found after the field.
            item.and_then(|needle| self.text[at..].find(needle).map(|i| at + i))
                .unwrap_or(at)
        });
        let (line, column) = offset.map_or((0, 0), |at| line_column(self.text, at));
        GrammarError::Invalid {
            file: self.file.to_string(),
            line,
            column,
            field,
            message,
        }
    }
}

/// Byte offset of `field:` outside `//` comments.
fn field_offset(text: &str, field: &str) -> Option<usize> {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices(field) {
            let before_ok = code[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let after_ok = code[i + field.len()..].trim_start().starts_with(':');
            if before_ok && after_ok {
                return Some(line_start + i);
            }
        }
        line_start += line.len();
    }
    None
}

/// 1-based line and character column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[line_start..offset].chars().count() + 1)
}

fn validate(spec: GrammarSpec, text: &str, file: &str) -> Result<Grammar, GrammarError> {
    let report = Reporter { text, file };
    let functions = functions_of(&spec, &report)?;
    let terminals = terminals_of(&spec, &report)?;
    check_constants(&spec, &terminals, &report)?;
    check_c_e_values(&spec, &terminals, &report)?;
    check_tree_shape(&spec, &report)?;
    check_perturbation(&spec, &report)?;
    let p = spec.internal_node_probability;
    let leaves = terminals
        .iter()
        .map(|&t| Leaf::Terminal(t))
        .chain(spec.constants.iter().map(|&v| Leaf::Constant(v)))
        .collect();
    Ok(Grammar {
        name: spec.name,
        description: spec.description,
        functions,
        terminals,
        constants: spec.constants,
        leaves,
        c_e_values: spec.c_e_values,
        depth_cap: spec.depth_cap,
        subtree_depth: spec.subtree_depth,
        internal_node_probability: p,
        constant_perturbation: spec.constant_perturbation,
    })
}

/// The grammar's functions, each known and listed once.
fn functions_of(spec: &GrammarSpec, report: &Reporter) -> Result<Vec<Function>, GrammarError> {
    if spec.functions.is_empty() {
        return Err(report.invalid(
            "functions",
            None,
            format!(
                "is empty; expected at least one of {}",
                Function::symbol_list()
            ),
        ));
    }
    let mut functions = Vec::new();
    for symbol in &spec.functions {
        let Some(function) = Function::from_symbol(symbol) else {
            return Err(report.invalid(
                "functions",
                Some(&format!("\"{symbol}\"")),
                format!(
                    "unknown function `{symbol}`; expected one of {}",
                    Function::symbol_list()
                ),
            ));
        };
        if functions.contains(&function) {
            return Err(report.invalid("functions", None, format!("`{symbol}` is listed twice")));
        }
        functions.push(function);
    }
    Ok(functions)
}

/// The grammar's terminals, each known and listed once.
fn terminals_of(spec: &GrammarSpec, report: &Reporter) -> Result<Vec<Terminal>, GrammarError> {
    let mut terminals = Vec::new();
    for symbol in &spec.terminals {
        let Some(terminal) = Terminal::from_symbol(symbol) else {
            return Err(report.invalid(
                "terminals",
                Some(&format!("\"{symbol}\"")),
                format!(
                    "unknown terminal `{symbol}`; expected one of {}",
                    Terminal::symbol_list()
                ),
            ));
        };
        if terminals.contains(&terminal) {
            return Err(report.invalid("terminals", None, format!("`{symbol}` is listed twice")));
        }
        terminals.push(terminal);
    }
    Ok(terminals)
}

/// Constants finite and distinct, and at least one leaf in all.
fn check_constants(
    spec: &GrammarSpec,
    terminals: &[Terminal],
    report: &Reporter,
) -> Result<(), GrammarError> {
    if let Some(bad) = spec.constants.iter().find(|v| !v.is_finite()) {
        return Err(report.invalid(
            "constants",
            None,
            format!("{bad} is not finite; expected finite numbers"),
        ));
    }
    let distinct_constants: BTreeSet<u64> = spec.constants.iter().map(|v| v.to_bits()).collect();
    if distinct_constants.len() != spec.constants.len() {
        return Err(report.invalid("constants", None, "a constant is listed twice".into()));
    }
    if terminals.is_empty() && spec.constants.is_empty() {
        return Err(report.invalid(
            "terminals",
            None,
            "no terminals and no constants: expected at least one leaf".into(),
        ));
    }
    Ok(())
}

/// C_E values a spec's `c_e` could hold, and some to draw from when `C` is a terminal.
fn check_c_e_values(
    spec: &GrammarSpec,
    terminals: &[Terminal],
    report: &Reporter,
) -> Result<(), GrammarError> {
    if let Some(bad) = spec.c_e_values.iter().find(|v| !v.is_finite() || **v < 0.0) {
        return Err(report.invalid(
            "c_e_values",
            None,
            format!("{bad} is not a C_E value; expected finite numbers >= 0 (as `c_e` in a spec)"),
        ));
    }
    if terminals.contains(&Terminal::ExplorationConstant) && spec.c_e_values.is_empty() {
        return Err(report.invalid(
            "c_e_values",
            None,
            "is empty but `C` is a terminal; expected at least one value to draw C_E from".into(),
        ));
    }
    Ok(())
}

/// Depth cap, subtree depths and the internal-node probability make trees that can be grown.
fn check_tree_shape(spec: &GrammarSpec, report: &Reporter) -> Result<(), GrammarError> {
    if spec.depth_cap == 0 || spec.depth_cap > MAX_DEPTH_CAP {
        return Err(report.invalid(
            "depth_cap",
            None,
            format!(
                "{} is out of range; expected 1 to {MAX_DEPTH_CAP}",
                spec.depth_cap
            ),
        ));
    }
    let DepthRange { min, max } = spec.subtree_depth;
    if min == 0 || min > max {
        return Err(report.invalid(
            "subtree_depth",
            None,
            format!("(min: {min}, max: {max}) is impossible; expected 1 <= min <= max"),
        ));
    }
    if max > spec.depth_cap {
        return Err(report.invalid(
            "subtree_depth",
            None,
            format!(
                "max {max} exceeds depth_cap {}; expected max <= depth_cap",
                spec.depth_cap
            ),
        ));
    }
    let p = spec.internal_node_probability;
    if !(0.0..=1.0).contains(&p) {
        return Err(report.invalid(
            "internal_node_probability",
            None,
            format!("{p} is not a probability; expected a number from 0 to 1"),
        ));
    }
    Ok(())
}

/// Constant perturbation, when asked for: a probability, a positive spread, positive bounds.
fn check_perturbation(spec: &GrammarSpec, report: &Reporter) -> Result<(), GrammarError> {
    if let Some(c) = spec.constant_perturbation {
        let field = "constant_perturbation";
        if !(0.0..=1.0).contains(&c.probability) {
            return Err(report.invalid(
                field,
                None,
                format!(
                    "probability {} is not a probability; expected a number from 0 to 1",
                    c.probability
                ),
            ));
        }
        if !(c.sigma.is_finite() && c.sigma > 0.0 && c.sigma <= 10.0) {
            return Err(report.invalid(
                field,
                None,
                format!(
                    "sigma {}: expected a number above 0 and at most 10",
                    c.sigma
                ),
            ));
        }
        if !(c.min.is_finite() && c.max.is_finite() && c.min > 0.0 && c.min <= c.max) {
            return Err(report.invalid(
                field,
                None,
                format!(
                    "(min: {}, max: {}) is impossible; expected finite 0 < min <= max",
                    c.min, c.max
                ),
            ));
        }
    }
    Ok(())
}
