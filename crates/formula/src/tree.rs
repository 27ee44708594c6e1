//! Expression trees for selection formulas: terminals, operators, the `Formula` type,
//! its reference (tree-walking) evaluation, size/depth, and the infix printer.
//!
//! The tree is a plain recursive enum because mutation and canonicalisation rewrite it
//! structurally; the hot path (evaluation inside MCTS selection) uses
//! [`super::CompiledFormula`] instead.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::ops;

/// What the search layer knows about one child when it scores it.
///
/// Every field is a plain number; the extras default to 0 for searches that do not
/// track them. Non-finite values are tolerated: evaluation maps NaN to 0 and ±∞ to
/// ±`f64::MAX` when it reads a field.
/// `repr(C)`, fields in [`Terminal`] order: native formula code reads them by offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct SelectionInputs {
    /// `Q`: Q(s,a), the child's mean reward.
    pub q: f64,
    /// `N`: N(s), the parent's visit count.
    pub parent_visits: f64,
    /// `n`: N(s,a), the child's visit count.
    pub child_visits: f64,
    /// `C`: the controller's exploration constant C_E (used unless the formula carries its own).
    pub c_e: f64,
    /// `V`: sample variance of the child's rewards.
    pub reward_variance: f64,
    /// `P`: the parent's mean reward Q(s).
    pub parent_q: f64,
    /// `K`: number of children of the parent (the child and its siblings).
    pub siblings: f64,
    /// `H`: the game's heuristic value of the move that leads to the child, in the unit of
    /// `Q` (0 where the search computes no knowledge).
    pub heuristic: f64,
    /// `p`: the child's prior, the softmax of its siblings' `H` (0 where the search computes
    /// no knowledge).
    pub prior: f64,
    /// The move features `G`, `O`, `M`, `F`, `R`, `L`, `T` of the move that leads to the
    /// child, in [`Terminal::MOVE_FEATURES`] order (0 where the game gives none or the search
    /// computes none).
    #[serde(default)]
    pub features: [f64; Terminal::MOVE_FEATURES.len()],
}

impl SelectionInputs {
    /// Inputs for the paper's terminal set; the extras are 0.
    pub fn new(q: f64, parent_visits: f64, child_visits: f64, c_e: f64) -> Self {
        SelectionInputs {
            q,
            parent_visits,
            child_visits,
            c_e,
            ..Default::default()
        }
    }
}

/// A leaf variable of a formula, read from [`SelectionInputs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Terminal {
    /// `Q`: Q(s,a).
    Q,
    /// `N`: N(s).
    ParentVisits,
    /// `n`: N(s,a).
    ChildVisits,
    /// `C`: the exploration constant C_E.
    ExplorationConstant,
    /// `V`: variance of the child's rewards.
    RewardVariance,
    /// `P`: the parent's Q.
    ParentQ,
    /// `K`: number of siblings (children of the parent).
    Siblings,
    /// `H`: heuristic value of the move that leads to the child.
    Heuristic,
    /// `p`: prior of the child, the softmax of the siblings' `H`.
    Prior,
    /// `G`: the mover's own score gain from the move, in Q's unit.
    MoverGain,
    /// `O`: the opponent's score gain from the move, in Q's unit.
    OpponentGain,
    /// `M`: 1 if the move commits a piece (Carcassonne: places a meeple).
    PiecePlaced,
    /// `F`: 1 if that piece stays until the end (Carcassonne: a farmer).
    PieceFixed,
    /// `R`: the mover's pieces the move brings back to its supply.
    PiecesReturned,
    /// `L`: the mover's supply after the move, as a share of a full supply.
    Supply,
    /// `T`: the share of the game's turns played before the move.
    Progress,
}

impl Terminal {
    /// All terminals, in the order used for canonical ordering and listings.
    pub const ALL: [Terminal; 16] = [
        Terminal::Q,
        Terminal::ParentVisits,
        Terminal::ChildVisits,
        Terminal::ExplorationConstant,
        Terminal::RewardVariance,
        Terminal::ParentQ,
        Terminal::Siblings,
        Terminal::Heuristic,
        Terminal::Prior,
        Terminal::MoverGain,
        Terminal::OpponentGain,
        Terminal::PiecePlaced,
        Terminal::PieceFixed,
        Terminal::PiecesReturned,
        Terminal::Supply,
        Terminal::Progress,
    ];

    /// The move features, in the order of [`SelectionInputs::features`] (and of the games'
    /// `MOVE_FEATURE_SYMBOLS`): a game gives them per move, and a search computes them only
    /// for formulas that read one.
    pub const MOVE_FEATURES: [Terminal; 7] = [
        Terminal::MoverGain,
        Terminal::OpponentGain,
        Terminal::PiecePlaced,
        Terminal::PieceFixed,
        Terminal::PiecesReturned,
        Terminal::Supply,
        Terminal::Progress,
    ];

    /// The terminals that carry game knowledge: a search computes them only for formulas
    /// that read them.
    pub const KNOWLEDGE: [Terminal; 9] = [
        Terminal::Heuristic,
        Terminal::Prior,
        Terminal::MoverGain,
        Terminal::OpponentGain,
        Terminal::PiecePlaced,
        Terminal::PieceFixed,
        Terminal::PiecesReturned,
        Terminal::Supply,
        Terminal::Progress,
    ];

    /// Whether this is a move feature, and which: its index in
    /// [`SelectionInputs::features`].
    pub fn feature_index(self) -> Option<usize> {
        Terminal::MOVE_FEATURES.iter().position(|&t| t == self)
    }

    /// The name used in the text form and in grammar files.
    pub fn symbol(self) -> &'static str {
        match self {
            Terminal::Q => "Q",
            Terminal::ParentVisits => "N",
            Terminal::ChildVisits => "n",
            Terminal::ExplorationConstant => "C",
            Terminal::RewardVariance => "V",
            Terminal::ParentQ => "P",
            Terminal::Siblings => "K",
            Terminal::Heuristic => "H",
            Terminal::Prior => "p",
            Terminal::MoverGain => "G",
            Terminal::OpponentGain => "O",
            Terminal::PiecePlaced => "M",
            Terminal::PieceFixed => "F",
            Terminal::PiecesReturned => "R",
            Terminal::Supply => "L",
            Terminal::Progress => "T",
        }
    }

    /// Inverse of [`Terminal::symbol`].
    pub fn from_symbol(symbol: &str) -> Option<Terminal> {
        Terminal::ALL.into_iter().find(|t| t.symbol() == symbol)
    }

    /// One-line meaning, for help texts.
    pub fn description(self) -> &'static str {
        match self {
            Terminal::Q => "Q(s,a), the child's mean reward",
            Terminal::ParentVisits => "N(s), the parent's visits",
            Terminal::ChildVisits => "N(s,a), the child's visits",
            Terminal::ExplorationConstant => "C_E, the exploration constant",
            Terminal::RewardVariance => "variance of the child's rewards",
            Terminal::ParentQ => "Q(s), the parent's mean reward",
            Terminal::Siblings => "number of children of the parent",
            Terminal::Heuristic => "heuristic value of the move to the child, in Q's unit",
            Terminal::Prior => "prior of the child: softmax of the siblings' H",
            Terminal::MoverGain => "the mover's own score gain from the move, in Q's unit",
            Terminal::OpponentGain => "the opponent's score gain from the move, in Q's unit",
            Terminal::PiecePlaced => "1 if the move places a piece (a meeple), else 0",
            Terminal::PieceFixed => "1 if that piece stays to the end (a farmer), else 0",
            Terminal::PiecesReturned => "the mover's pieces the move returns to its supply",
            Terminal::Supply => "the mover's supply after the move, / a full supply (7)",
            Terminal::Progress => "the share of the game's turns played before the move",
        }
    }

    /// The raw field value (not yet sanitised).
    #[inline(always)]
    pub fn read(self, inputs: &SelectionInputs) -> f64 {
        match self {
            Terminal::Q => inputs.q,
            Terminal::ParentVisits => inputs.parent_visits,
            Terminal::ChildVisits => inputs.child_visits,
            Terminal::ExplorationConstant => inputs.c_e,
            Terminal::RewardVariance => inputs.reward_variance,
            Terminal::ParentQ => inputs.parent_q,
            Terminal::Siblings => inputs.siblings,
            Terminal::Heuristic => inputs.heuristic,
            Terminal::Prior => inputs.prior,
            Terminal::MoverGain => inputs.features[0],
            Terminal::OpponentGain => inputs.features[1],
            Terminal::PiecePlaced => inputs.features[2],
            Terminal::PieceFixed => inputs.features[3],
            Terminal::PiecesReturned => inputs.features[4],
            Terminal::Supply => inputs.features[5],
            Terminal::Progress => inputs.features[6],
        }
    }

    /// Comma-separated list of all symbols, for error messages.
    pub fn symbol_list() -> String {
        Terminal::ALL.map(Terminal::symbol).join(", ")
    }
}

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
