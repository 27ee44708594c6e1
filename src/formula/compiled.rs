//! Flat, allocation-free evaluation for the MCTS hot path.
//!
//! A [`CompiledFormula`] is the tree in postfix order, built once per formula. Its
//! `eval` walks the program with the top of the stack kept in a local (so a binary
//! operator reads one stack slot, not two) and a fixed-size array for the rest, so
//! scoring a child allocates nothing. `C` is resolved at compile time when the formula
//! carries its own C_E. Results are bit-identical to [`Formula::eval`] because both
//! call the protected operators of [`super::ops`].

use super::ops;
use super::tree::{BinaryOp, Expr, Formula, SelectionInputs, Terminal, UnaryOp};

/// Stack slots available to a program. A tree of depth `d` needs at most `d + 1`, so
/// every formula a grammar admits (depth cap ≤ [`super::MAX_DEPTH_CAP`] = 16) fits.
pub const STACK_CAPACITY: usize = 17;

/// A formula too deep for the fixed evaluation stack.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("formula needs {needed} evaluation stack slots, at most {capacity} are available (reduce its depth)")]
pub struct CompileError {
    pub needed: usize,
    pub capacity: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Instruction {
    Push(f64),
    Load(Terminal),
    Unary(UnaryOp),
    Binary(BinaryOp),
}

/// A formula ready for fast repeated evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledFormula {
    program: Box<[Instruction]>,
}

impl CompiledFormula {
    pub fn new(formula: &Formula) -> Result<CompiledFormula, CompileError> {
        let needed = stack_needed(formula.expr());
        if needed > STACK_CAPACITY {
            return Err(CompileError {
                needed,
                capacity: STACK_CAPACITY,
            });
        }
        let mut program = Vec::with_capacity(formula.size());
        emit(formula.expr(), formula.c_e(), &mut program);
        Ok(CompiledFormula {
            program: program.into_boxed_slice(),
        })
    }

    /// Number of instructions (equals the formula's size).
    pub fn len(&self) -> usize {
        self.program.len()
    }

    pub fn is_empty(&self) -> bool {
        self.program.is_empty()
    }

    /// The formula's value for one child. Always finite; never allocates.
    #[inline]
    pub fn eval(&self, inputs: &SelectionInputs) -> f64 {
        // `top` holds the top of the stack; `below[..len]` the values under it. The
        // first push parks a dummy 0 in `below[0]`, which is why a program needing `k`
        // values uses `k` slots of `below`.
        let mut below = [0.0f64; STACK_CAPACITY];
        let mut len = 0usize;
        let mut top = 0.0f64;
        for instruction in self.program.iter() {
            match *instruction {
                Instruction::Push(value) => {
                    below[len] = top;
                    len += 1;
                    top = value;
                }
                Instruction::Load(terminal) => {
                    below[len] = top;
                    len += 1;
                    top = ops::finite(terminal.read(inputs));
                }
                Instruction::Unary(op) => top = op.apply(top),
                Instruction::Binary(op) => {
                    len -= 1;
                    top = op.apply(below[len], top);
                }
            }
        }
        top
    }
}

impl TryFrom<&Formula> for CompiledFormula {
    type Error = CompileError;
    fn try_from(formula: &Formula) -> Result<Self, CompileError> {
        CompiledFormula::new(formula)
    }
}

impl Formula {
    /// Shorthand for [`CompiledFormula::new`].
    pub fn compile(&self) -> Result<CompiledFormula, CompileError> {
        CompiledFormula::new(self)
    }
}

/// Values on the stack at its highest point when the tree is evaluated left first.
fn stack_needed(expr: &Expr) -> usize {
    match expr {
        Expr::Const(_) | Expr::Term(_) => 1,
        Expr::Unary(_, x) => stack_needed(x),
        Expr::Binary(_, a, b) => stack_needed(a).max(stack_needed(b) + 1),
    }
}

fn emit(expr: &Expr, own_c_e: Option<f64>, program: &mut Vec<Instruction>) {
    match expr {
        Expr::Const(v) => program.push(Instruction::Push(ops::finite(*v))),
        Expr::Term(Terminal::ExplorationConstant) if own_c_e.is_some() => {
            program.push(Instruction::Push(ops::finite(own_c_e.unwrap_or_default())))
        }
        Expr::Term(t) => program.push(Instruction::Load(*t)),
        Expr::Unary(op, x) => {
            emit(x, own_c_e, program);
            program.push(Instruction::Unary(*op));
        }
        Expr::Binary(op, a, b) => {
            emit(a, own_c_e, program);
            emit(b, own_c_e, program);
            program.push(Instruction::Binary(*op));
        }
    }
}
