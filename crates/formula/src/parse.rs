//! Parser for the infix text form of formulas.
//!
//! Grammar (whitespace is ignored between tokens):
//!
//! ```text
//! formula := sum ( "[" "C" "=" number "]" )?
//! sum     := product ( ("+" | "-") product )*        left-associative
//! product := prefix ( ("*" | "/") prefix )*          left-associative
//! prefix  := "-" prefix | primary                    "-2" is a constant, "-x" is "0 - x"
//! primary := number | terminal | "(" sum ")"
//!          | ("ln" | "log" | "sqrt") "(" sum ")" | ("min" | "max") "(" sum "," sum ")"
//! ```
//!
//! Terminals are the symbols of [`crate::TERMINALS`]; `×`, `·`, `÷` and `−` are accepted for `*`, `/`, `-`. A
//! formula deeper than [`MAX_FORMULA_DEPTH`] is refused.
//! Errors give the 1-based character column and what was expected there, so a user
//! typing a formula on the command line can fix it.

use std::str::FromStr;

use super::tree::{BinaryOp, Expr, Formula, Terminal, UnaryOp};

/// The deepest formula the parser accepts (a lone leaf has depth 0). Evolved formulas stay
/// within a grammar's depth cap (at most 16); the bound keeps every recursive walk over a
/// formula (evaluation, printing, canonical form, dropping it) far from the stack's end, even
/// on a worker thread.
pub const MAX_FORMULA_DEPTH: usize = 100;

/// The deepest nesting of parentheses, calls and prefix minus signs the parser follows, for the
/// same reason: `((((x))))` adds no depth to the formula but recursion to the parser.
pub const MAX_NESTING: usize = 200;

/// A parsed subexpression and its depth.
type Node = (Expr, usize);

/// Where the text stopped making sense and what would have been accepted there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: expected {expected}, found {found}")]
pub struct ParseError {
    /// 1-based character column.
    pub column: usize,
    /// What the parser would have accepted, e.g. "`)`" or "a number".
    pub expected: String,
    /// What it saw instead, e.g. "`*`" or "end of input".
    pub found: String,
}

impl ParseError {
    /// The input with a caret under the offending column, for terminal output.
    pub fn render(&self, input: &str) -> String {
        format!(
            "{input}\n{caret:>width$}\n{self}",
            caret = "^",
            width = self.column
        )
    }
}

impl Formula {
    /// Parses the infix text form; see the module documentation for the syntax.
    pub fn parse(text: &str) -> Result<Formula, ParseError> {
        Parser::new(text).formula()
    }
}

impl FromStr for Formula {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Formula, ParseError> {
        Formula::parse(text)
    }
}

impl FromStr for Expr {
    type Err = ParseError;
    /// Parses a bare expression (no `[C=...]` suffix).
    fn from_str(text: &str) -> Result<Expr, ParseError> {
        let mut parser = Parser::new(text);
        let (expr, _) = parser.sum()?;
        parser.expect_end()?;
        Ok(expr)
    }
}

struct Parser {
    chars: Vec<char>,
    /// Index of the next unread character.
    at: usize,
    /// Parentheses, calls and prefix minus signs currently open.
    nesting: usize,
}

/// What may start an operand, for error messages.
fn start_of_operand() -> String {
    format!(
        "a number, a terminal ({}), a function (ln, log, sqrt, min, max), `-` or `(`",
        Terminal::symbol_list()
    )
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            chars: text.chars().collect(),
            at: 0,
            nesting: 0,
        }
    }

    fn skip_whitespace(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    /// The next non-blank character, with `×·÷−` mapped to ASCII.
    fn peek(&mut self) -> Option<char> {
        self.skip_whitespace();
        self.chars.get(self.at).map(|&c| match c {
            '×' | '·' | '∗' => '*',
            '÷' => '/',
            '−' => '-',
            other => other,
        })
    }

    fn describe_next(&mut self) -> String {
        match self.peek() {
            None => "end of input".to_string(),
            Some(_) => format!("`{}`", self.chars[self.at]),
        }
    }

    fn error(&mut self, expected: impl Into<String>) -> ParseError {
        let found = self.describe_next();
        ParseError {
            column: self.at + 1,
            expected: expected.into(),
            found,
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), ParseError> {
        if self.peek() == Some(wanted) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!("`{wanted}`")))
        }
    }

    fn expect_end(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("an operator (+ - * /) or end of input")),
        }
    }

    /// A node of depth `depth` over `op`, refused beyond [`MAX_FORMULA_DEPTH`]; `column` is
    /// where the operator stands.
    fn node(&self, expr: Expr, depth: usize, column: usize) -> Result<Node, ParseError> {
        if depth > MAX_FORMULA_DEPTH {
            return Err(ParseError {
                column,
                expected: format!("a formula at most {MAX_FORMULA_DEPTH} levels deep"),
                found: "a deeper formula".to_string(),
            });
        }
        Ok((expr, depth))
    }

    /// Enters one more level of parentheses, call or prefix minus.
    fn enter(&mut self) -> Result<(), ParseError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(ParseError {
                column: self.at + 1,
                expected: format!("at most {MAX_NESTING} nested parentheses, calls and signs"),
                found: "deeper nesting".to_string(),
            });
        }
        Ok(())
    }

    fn formula(&mut self) -> Result<Formula, ParseError> {
        let (expr, _) = self.sum()?;
        let mut c_e = None;
        if self.peek() == Some('[') {
            self.at += 1;
            self.expect('C')?;
            self.expect('=')?;
            let negative = self.peek() == Some('-');
            if negative {
                self.at += 1;
            }
            let value = self.number()?;
            c_e = Some(if negative { -value } else { value });
            self.expect(']')?;
        }
        if self.peek().is_some() {
            let expected = if c_e.is_some() {
                "end of input"
            } else {
                "an operator (+ - * /), `[C=<value>]` or end of input"
            };
            return Err(self.error(expected));
        }
        Ok(Formula::new(expr).with_c_e(c_e))
    }

    fn sum(&mut self) -> Result<Node, ParseError> {
        let (mut left, mut depth) = self.product()?;
        loop {
            let op = match self.peek() {
                Some('+') => BinaryOp::Add,
                Some('-') => BinaryOp::Sub,
                _ => return Ok((left, depth)),
            };
            let column = self.at + 1;
            self.at += 1;
            let (right, right_depth) = self.product()?;
            (left, depth) = self.node(
                Expr::binary(op, left, right),
                depth.max(right_depth) + 1,
                column,
            )?;
        }
    }

    fn product(&mut self) -> Result<Node, ParseError> {
        let (mut left, mut depth) = self.prefix()?;
        loop {
            let op = match self.peek() {
                Some('*') => BinaryOp::Mul,
                Some('/') => BinaryOp::Div,
                _ => return Ok((left, depth)),
            };
            let column = self.at + 1;
            self.at += 1;
            let (right, right_depth) = self.prefix()?;
            (left, depth) = self.node(
                Expr::binary(op, left, right),
                depth.max(right_depth) + 1,
                column,
            )?;
        }
    }

    fn prefix(&mut self) -> Result<Node, ParseError> {
        if self.peek() != Some('-') {
            return self.primary();
        }
        let column = self.at + 1;
        self.at += 1;
        if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.') {
            // A negative literal is one constant, so printed constants such as `(-1)`
            // parse back to the same leaf.
            return Ok((Expr::Const(-self.number()?), 0));
        }
        self.enter()?;
        let (operand, depth) = self.prefix()?;
        self.nesting -= 1;
        self.node(
            Expr::binary(BinaryOp::Sub, Expr::Const(0.0), operand),
            depth + 1,
            column,
        )
    }

    fn primary(&mut self) -> Result<Node, ParseError> {
        match self.peek() {
            Some('(') => {
                self.enter()?;
                self.at += 1;
                let inner = self.sum()?;
                self.expect(')')?;
                self.nesting -= 1;
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => Ok((Expr::Const(self.number()?), 0)),
            Some(c) if c.is_alphabetic() || c == '_' => self.name(),
            _ => Err(self.error(start_of_operand())),
        }
    }

    fn name(&mut self) -> Result<Node, ParseError> {
        let start = self.at;
        while self
            .chars
            .get(self.at)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            self.at += 1;
        }
        let name: String = self.chars[start..self.at].iter().collect();
        let is_call = self.peek() == Some('(');
        let unknown = |parser: &mut Parser| {
            parser.at = start;
            ParseError {
                column: start + 1,
                expected: start_of_operand(),
                found: format!("unknown name `{name}`"),
            }
        };
        if !is_call {
            return Terminal::from_symbol(&name)
                .map(|t| (Expr::Term(t), 0))
                .ok_or_else(|| unknown(self));
        }
        let unary = match name.as_str() {
            "ln" | "log" => Some(UnaryOp::Ln),
            "sqrt" => Some(UnaryOp::Sqrt),
            _ => None,
        };
        let binary = match name.as_str() {
            "min" => Some(BinaryOp::Min),
            "max" => Some(BinaryOp::Max),
            _ => None,
        };
        if unary.is_none() && binary.is_none() {
            return Err(unknown(self));
        }
        self.enter()?;
        self.expect('(')?;
        let (first, first_depth) = self.sum()?;
        let node = match (unary, binary) {
            (Some(op), _) => self.node(Expr::unary(op, first), first_depth + 1, start + 1)?,
            (None, Some(op)) => {
                self.expect(',')?;
                let (second, second_depth) = self.sum()?;
                self.node(
                    Expr::binary(op, first, second),
                    first_depth.max(second_depth) + 1,
                    start + 1,
                )?
            }
            (None, None) => unreachable!("checked above"),
        };
        self.expect(')')?;
        self.nesting -= 1;
        Ok(node)
    }

    /// An unsigned decimal such as `2`, `0.25`, `.5` or `1.5e-7`; must be finite.
    fn number(&mut self) -> Result<f64, ParseError> {
        self.skip_whitespace();
        let start = self.at;
        let digit_at = |p: &Parser, i: usize| p.chars.get(i).is_some_and(|c| c.is_ascii_digit());
        while digit_at(self, self.at) {
            self.at += 1;
        }
        if self.chars.get(self.at) == Some(&'.') {
            self.at += 1;
            while digit_at(self, self.at) {
                self.at += 1;
            }
        }
        if matches!(self.chars.get(self.at), Some('e' | 'E')) {
            let mut exponent_at = self.at + 1;
            if matches!(self.chars.get(exponent_at), Some('+' | '-')) {
                exponent_at += 1;
            }
            if digit_at(self, exponent_at) {
                self.at = exponent_at;
                while digit_at(self, self.at) {
                    self.at += 1;
                }
            }
        }
        let text: String = self.chars[start..self.at].iter().collect();
        match text.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(value),
            Ok(_) => {
                self.at = start;
                Err(ParseError {
                    column: start + 1,
                    expected: "a finite number".to_string(),
                    found: format!("`{text}`"),
                })
            }
            Err(_) => {
                self.at = start;
                Err(self.error("a number"))
            }
        }
    }
}
