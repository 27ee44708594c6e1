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
//! Terminals are `Q N n C V P K`; `×`, `·`, `÷` and `−` are accepted for `*`, `/`, `-`.
//! Errors give the 1-based character column and what was expected there, so a user
//! typing a formula on the command line can fix it.

use std::str::FromStr;

use super::tree::{BinaryOp, Expr, Formula, Terminal, UnaryOp};

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
        let expr = parser.sum()?;
        parser.expect_end()?;
        Ok(expr)
    }
}

struct Parser {
    chars: Vec<char>,
    /// Index of the next unread character.
    at: usize,
}

const START_OF_OPERAND: &str =
    "a number, a terminal (Q, N, n, C, V, P, K), a function (ln, log, sqrt, min, max), `-` or `(`";

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            chars: text.chars().collect(),
            at: 0,
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

    fn formula(&mut self) -> Result<Formula, ParseError> {
        let expr = self.sum()?;
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

    fn sum(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Some('+') => BinaryOp::Add,
                Some('-') => BinaryOp::Sub,
                _ => return Ok(left),
            };
            self.at += 1;
            let right = self.product()?;
            left = Expr::binary(op, left, right);
        }
    }

    fn product(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.prefix()?;
        loop {
            let op = match self.peek() {
                Some('*') => BinaryOp::Mul,
                Some('/') => BinaryOp::Div,
                _ => return Ok(left),
            };
            self.at += 1;
            let right = self.prefix()?;
            left = Expr::binary(op, left, right);
        }
    }

    fn prefix(&mut self) -> Result<Expr, ParseError> {
        if self.peek() != Some('-') {
            return self.primary();
        }
        self.at += 1;
        if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.') {
            // A negative literal is one constant, so printed constants such as `(-1)`
            // parse back to the same leaf.
            return Ok(Expr::Const(-self.number()?));
        }
        let operand = self.prefix()?;
        Ok(Expr::binary(BinaryOp::Sub, Expr::Const(0.0), operand))
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        match self.peek() {
            Some('(') => {
                self.at += 1;
                let inner = self.sum()?;
                self.expect(')')?;
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => Ok(Expr::Const(self.number()?)),
            Some(c) if c.is_alphabetic() || c == '_' => self.name(),
            _ => Err(self.error(START_OF_OPERAND)),
        }
    }

    fn name(&mut self) -> Result<Expr, ParseError> {
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
                expected: START_OF_OPERAND.to_string(),
                found: format!("unknown name `{name}`"),
            }
        };
        if !is_call {
            return Terminal::from_symbol(&name)
                .map(Expr::Term)
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
        self.expect('(')?;
        let first = self.sum()?;
        let expr = match (unary, binary) {
            (Some(op), _) => Expr::unary(op, first),
            (None, Some(op)) => {
                self.expect(',')?;
                let second = self.sum()?;
                Expr::binary(op, first, second)
            }
            (None, None) => unreachable!("checked above"),
        };
        self.expect(')')?;
        Ok(expr)
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
