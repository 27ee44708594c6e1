//! Expression trees for selection formulas: operators over the terminals (declared in
//! `terminals`), the `Formula` type,
//! its reference (tree-walking) evaluation, size/depth, and the infix printer.
//!
//! The tree is a plain recursive enum because mutation and canonicalisation rewrite it
//! structurally; the hot path (evaluation inside MCTS selection) uses
//! [`super::CompiledFormula`] instead.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::ops;
pub use super::terminals::{SelectionInputs, Terminal};

impl fmt::Display for Terminal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One-argument functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnaryOp {
    /// Protected natural log, see [`ops::ln`].
    Ln,
    /// Protected square root, see [`ops::sqrt`].
    Sqrt,
}

impl UnaryOp {
    #[inline(always)]
    pub fn apply(self, x: f64) -> f64 {
        match self {
            UnaryOp::Ln => ops::ln(x),
            UnaryOp::Sqrt => ops::sqrt(x),
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Ln => "ln",
            UnaryOp::Sqrt => "sqrt",
        }
    }
}

/// Two-argument functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Protected division, see [`ops::div`].
    Div,
    /// Not in the paper's function set; offered so grammars can express UCB1-Tuned.
    Min,
    /// Not in the paper's function set; the counterpart of `Min`.
    Max,
}

impl BinaryOp {
    #[inline(always)]
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            BinaryOp::Add => ops::add(a, b),
            BinaryOp::Sub => ops::sub(a, b),
            BinaryOp::Mul => ops::mul(a, b),
            BinaryOp::Div => ops::div(a, b),
            BinaryOp::Min => ops::min(a, b),
            BinaryOp::Max => ops::max(a, b),
        }
    }

    /// The symbol in grammar files: `+ - * /` or the function name.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Min => "min",
            BinaryOp::Max => "max",
        }
    }

    /// Operand order does not change the value (exactly, in IEEE arithmetic).
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BinaryOp::Add | BinaryOp::Mul | BinaryOp::Min | BinaryOp::Max
        )
    }

    /// Written as `name(a, b)` rather than infix.
    pub fn is_call(self) -> bool {
        matches!(self, BinaryOp::Min | BinaryOp::Max)
    }
}

/// Any function a grammar may allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Function {
    Unary(UnaryOp),
    Binary(BinaryOp),
}

impl Function {
    pub const ALL: [Function; 8] = [
        Function::Binary(BinaryOp::Add),
        Function::Binary(BinaryOp::Sub),
        Function::Binary(BinaryOp::Mul),
        Function::Binary(BinaryOp::Div),
        Function::Unary(UnaryOp::Ln),
        Function::Unary(UnaryOp::Sqrt),
        Function::Binary(BinaryOp::Min),
        Function::Binary(BinaryOp::Max),
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            Function::Unary(op) => op.symbol(),
            Function::Binary(op) => op.symbol(),
        }
    }

    /// Accepts the grammar-file symbols, plus `log` as another name for `ln`.
    pub fn from_symbol(symbol: &str) -> Option<Function> {
        if symbol == "log" {
            return Some(Function::Unary(UnaryOp::Ln));
        }
        Function::ALL.into_iter().find(|f| f.symbol() == symbol)
    }

    pub fn symbol_list() -> String {
        Function::ALL.map(Function::symbol).join(", ")
    }
}

/// An expression tree. Constants are expected to be finite; evaluation sanitises them
/// anyway, and the parser, the grammar loader and constant folding never make others.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(f64),
    Term(Terminal),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    pub fn unary(op: UnaryOp, x: Expr) -> Expr {
        Expr::Unary(op, Box::new(x))
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Expr::Const(_) | Expr::Term(_) => 1,
            Expr::Unary(_, x) => 1 + x.size(),
            Expr::Binary(_, a, b) => 1 + a.size() + b.size(),
        }
    }

    /// Edges on the longest root-to-leaf path: a lone leaf has depth 0, UCT has depth 6.
    pub fn depth(&self) -> usize {
        match self {
            Expr::Const(_) | Expr::Term(_) => 0,
            Expr::Unary(_, x) => 1 + x.depth(),
            Expr::Binary(_, a, b) => 1 + a.depth().max(b.depth()),
        }
    }

    pub fn is_leaf(&self) -> bool {
        matches!(self, Expr::Const(_) | Expr::Term(_))
    }

    /// Whether the terminal occurs anywhere in the tree.
    pub fn contains_terminal(&self, terminal: Terminal) -> bool {
        match self {
            Expr::Const(_) => false,
            Expr::Term(t) => *t == terminal,
            Expr::Unary(_, x) => x.contains_terminal(terminal),
            Expr::Binary(_, a, b) => a.contains_terminal(terminal) || b.contains_terminal(terminal),
        }
    }

    /// Calls `visit` on every node in preorder.
    pub fn for_each_node<'a>(&'a self, visit: &mut impl FnMut(&'a Expr)) {
        visit(self);
        match self {
            Expr::Const(_) | Expr::Term(_) => {}
            Expr::Unary(_, x) => x.for_each_node(visit),
            Expr::Binary(_, a, b) => {
                a.for_each_node(visit);
                b.for_each_node(visit);
            }
        }
    }

    /// Reference evaluation; `c_e` is the value the `C` terminal takes.
    pub fn eval(&self, inputs: &SelectionInputs, c_e: f64) -> f64 {
        match self {
            Expr::Const(v) => ops::finite(*v),
            Expr::Term(Terminal::ExplorationConstant) => ops::finite(c_e),
            Expr::Term(t) => ops::finite(t.read(inputs)),
            Expr::Unary(op, x) => op.apply(x.eval(inputs, c_e)),
            Expr::Binary(op, a, b) => op.apply(a.eval(inputs, c_e), b.eval(inputs, c_e)),
        }
    }
}

/// A selection formula: an expression tree plus, optionally, its own C_E value.
///
/// `C` in a formula means C_E. A formula without its own value (`c_e() == None`, such as
/// [`Formula::uct`]) uses the controller's value from [`SelectionInputs::c_e`]. A point
/// mutation that lands on `C` draws a value from the grammar's set and stores it in the
/// formula, so an evolved formula carries its C_E with it; the text form then ends in
/// `[C=5]`. One value per formula, like the single exploration constant of UCT: every
/// `C` leaf of the formula reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    expr: Expr,
    c_e: Option<f64>,
}

impl Formula {
    /// A formula whose `C` leaves read the controller's C_E.
    pub fn new(expr: Expr) -> Formula {
        Formula { expr, c_e: None }
    }

    /// Same tree, with its own C_E (`None`: the controller's). A non-finite value is
    /// sanitised like any input.
    pub fn with_c_e(self, c_e: Option<f64>) -> Formula {
        Formula {
            expr: self.expr,
            c_e: c_e.map(ops::finite),
        }
    }

    /// The seed of every evolution, as the main paper writes UCT:
    /// `Q + 2*C*sqrt(2*ln(N)/n)`, with C_E taken from the controller.
    pub fn uct() -> Formula {
        use BinaryOp::*;
        use Expr::{Const, Term};
        let exploration = Expr::unary(
            UnaryOp::Sqrt,
            Expr::binary(
                Div,
                Expr::binary(
                    Mul,
                    Const(2.0),
                    Expr::unary(UnaryOp::Ln, Term(Terminal::ParentVisits)),
                ),
                Term(Terminal::ChildVisits),
            ),
        );
        let scaled = Expr::binary(
            Mul,
            Expr::binary(Mul, Const(2.0), Term(Terminal::ExplorationConstant)),
            exploration,
        );
        Formula::new(Expr::binary(Add, Term(Terminal::Q), scaled))
    }

    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// The formula's own C_E, or `None` when it uses the controller's.
    pub fn c_e(&self) -> Option<f64> {
        self.c_e
    }

    pub fn into_parts(self) -> (Expr, Option<f64>) {
        (self.expr, self.c_e)
    }

    pub fn size(&self) -> usize {
        self.expr.size()
    }

    /// See [`Expr::depth`]: a lone leaf has depth 0.
    pub fn depth(&self) -> usize {
        self.expr.depth()
    }

    pub fn uses(&self, terminal: Terminal) -> bool {
        self.expr.contains_terminal(terminal)
    }

    /// The C_E value `C` takes for these inputs.
    pub fn effective_c_e(&self, inputs: &SelectionInputs) -> f64 {
        self.c_e.unwrap_or(inputs.c_e)
    }

    /// Reference (tree-walking) evaluation. Always finite. Search should use
    /// [`super::CompiledFormula`], which gives bit-identical results faster.
    pub fn eval(&self, inputs: &SelectionInputs) -> f64 {
        self.expr.eval(inputs, self.effective_c_e(inputs))
    }

    pub(crate) fn expr_mut(&mut self) -> &mut Expr {
        &mut self.expr
    }

    pub(crate) fn set_c_e(&mut self, c_e: Option<f64>) {
        self.c_e = c_e.map(ops::finite);
    }
}

// ---------------------------------------------------------------- printing

/// Binding strength when printed: sums bind loosest, then products, then atoms.
pub(super) fn precedence(expr: &Expr) -> u8 {
    match expr {
        Expr::Binary(BinaryOp::Add | BinaryOp::Sub, _, _) => 1,
        Expr::Binary(BinaryOp::Mul | BinaryOp::Div, _, _) => 2,
        _ => 3,
    }
}

/// Shortest text that parses back to exactly `value`: plain decimals for ordinary
/// magnitudes, scientific notation for tiny or huge ones.
pub fn format_number(value: f64) -> String {
    let magnitude = value.abs();
    if value == 0.0 {
        // Also prints -0 as 0: the sign of zero never changes a protected result.
        "0".to_string()
    } else if (1e-5..1e16).contains(&magnitude) {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

fn write_expr(f: &mut fmt::Formatter<'_>, expr: &Expr) -> fmt::Result {
    match expr {
        Expr::Const(v) if *v < 0.0 => write!(f, "({})", format_number(*v)),
        Expr::Const(v) => f.write_str(&format_number(*v)),
        Expr::Term(t) => f.write_str(t.symbol()),
        Expr::Unary(op, x) => {
            write!(f, "{}(", op.symbol())?;
            write_expr(f, x)?;
            f.write_str(")")
        }
        Expr::Binary(op, a, b) if op.is_call() => {
            write!(f, "{}(", op.symbol())?;
            write_expr(f, a)?;
            f.write_str(", ")?;
            write_expr(f, b)?;
            f.write_str(")")
        }
        Expr::Binary(op, a, b) => {
            let own = precedence(expr);
            // The parser is left-associative, so a right operand of equal precedence
            // needs parentheses to keep its grouping: `a - (b - c)`, `a/(b*c)`.
            write_operand(f, a, precedence(a) < own)?;
            f.write_str(match op {
                BinaryOp::Add => " + ",
                BinaryOp::Sub => " - ",
                BinaryOp::Mul => "*",
                BinaryOp::Div => "/",
                BinaryOp::Min | BinaryOp::Max => unreachable!("calls are printed above"),
            })?;
            write_operand(f, b, precedence(b) <= own)
        }
    }
}

fn write_operand(f: &mut fmt::Formatter<'_>, expr: &Expr, parenthesise: bool) -> fmt::Result {
    if parenthesise {
        f.write_str("(")?;
        write_expr(f, expr)?;
        f.write_str(")")
    } else {
        write_expr(f, expr)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self)
    }
}

/// Infix text such as `Q + 2*C*sqrt(2*ln(N)/n)`, followed by ` [C=5]` when the formula
/// carries its own C_E. Parsing the text gives back an equal formula.
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, &self.expr)?;
        if let Some(c_e) = self.c_e {
            write!(f, " [C={}]", format_number(c_e))?;
        }
        Ok(())
    }
}

/// Serialised as its text form, so RON/JSON files stay readable.
impl Serialize for Formula {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Formula {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
