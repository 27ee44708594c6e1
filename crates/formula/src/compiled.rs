//! Flat, allocation-free evaluation for the MCTS hot path.
//!
//! A [`CompiledFormula`] is a straight-line program for an accumulator machine, built
//! once per formula: the running value lives in a local, leaves are folded into the
//! operation that consumes them (`acc = acc * 2`, `acc = ln(N)`), and only a node whose
//! operands are both composite parks a value on a small fixed-size stack. Operands are
//! emitted heavier-first (Sethi–Ullman), so the stack stays shallow. Scoring a child
//! allocates nothing.
//!
//! Overflow protection costs latency on every operation, so `eval` first runs the
//! program with plain IEEE arithmetic plus the paper's protections (÷, ln, √), and
//! reruns it with every value sanitised only when that fast path may have differed
//! (rare: overflow or garbage inputs). It may differ only if some intermediate value
//! was ±∞ or NaN. Such a value propagates to the result through `+ − ×`, `√` and the
//! fast path's `ln` (which, unlike the sanitised one, keeps NaN), so it is visible
//! there, unless an operation absorbs it: `÷` (`x/∞ = 0`; a protected divisor hides
//! the dividend), `min` or `max`. Those operations note whether their operands were
//! finite, off the critical path. So the result is bit-identical to
//! [`Formula::eval`], which the property tests check. The native back end
//! (`native.rs`) uses the same argument.

use super::native::MachineCode;
use super::ops;
use super::terminals::{input_array, TERMINAL_COUNT};
use super::tree::{BinaryOp, Expr, Formula, SelectionInputs, Terminal, UnaryOp};

/// Stack slots available to a program. Heavier-first evaluation needs fewer slots than
/// the tree's depth, so every formula a grammar admits (depth cap ≤
/// [`super::MAX_DEPTH_CAP`] = 16) fits; deeper hand-written formulas may be rejected.
pub const STACK_CAPACITY: usize = 16;

/// A formula too deep for the fixed evaluation stack.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("formula needs {needed} evaluation stack slots, at most {capacity} are available (reduce its depth)")]
pub struct CompileError {
    pub needed: usize,
    pub capacity: usize,
}

/// One step of the accumulator machine. Suffix `C`: the other operand is a constant,
/// `I`: an input (index into the input array), `S`: popped from the stack. Prefix `R`:
/// the accumulator is the *right* operand (`RSubC(v)`: `acc = v - acc`); without it the
/// accumulator is the left operand, except for `S` steps, where the popped value was
/// computed first and is the left operand unless `R` says otherwise.
/// `+` and `*` need no `R` forms: IEEE addition and multiplication are commutative bit
/// for bit. One flat enum keeps dispatch to a single jump per step.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    SetConst(f64),
    SetInput(u8),
    Push,
    Ln,
    Sqrt,
    AddC(f64),
    SubC(f64),
    RSubC(f64),
    MulC(f64),
    DivC(f64),
    RDivC(f64),
    MinC(f64),
    RMinC(f64),
    MaxC(f64),
    RMaxC(f64),
    AddI(u8),
    SubI(u8),
    RSubI(u8),
    MulI(u8),
    DivI(u8),
    RDivI(u8),
    MinI(u8),
    RMinI(u8),
    MaxI(u8),
    RMaxI(u8),
    AddS,
    SubS,
    RSubS,
    MulS,
    DivS,
    RDivS,
    MinS,
    RMinS,
    MaxS,
    RMaxS,
}

/// A formula ready for fast repeated evaluation.
///
/// Built by [`CompiledFormula::new`] it is interpreted (cheap to build: for short-lived
/// formulas such as ES candidates); built by [`CompiledFormula::native`] it also carries
/// machine code (see `native.rs`), which is several times faster per evaluation but
/// costs tens of microseconds to generate. Both give bit-identical results.
#[derive(Clone, Debug)]
pub struct CompiledFormula {
    steps: Box<[Step]>,
    /// Stack slots the program uses; picks a small stack array when possible, since
    /// zeroing the array is part of every evaluation.
    stack_needed: usize,
    /// Machine code when it was asked for and this build and host can make it.
    machine_code: MachineCode,
}

/// Two compiled formulas are equal when they run the same program; whether one also
/// carries machine code does not change a value.
impl PartialEq for CompiledFormula {
    fn eq(&self, other: &Self) -> bool {
        self.steps == other.steps && self.stack_needed == other.stack_needed
    }
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
        let mut steps = Vec::with_capacity(formula.size());
        emit(formula.expr(), formula.c_e(), &mut steps);
        Ok(CompiledFormula {
            steps: steps.into_boxed_slice(),
            stack_needed: needed,
            machine_code: MachineCode::none(),
        })
    }

    /// The constructor for a long-lived formula: like [`CompiledFormula::new`], and also
    /// generates machine code when this build has the opt-in `jit` feature and the host
    /// has a Cranelift back end (x86-64, AArch64, RISC-V 64, s390x); otherwise the
    /// result is interpreted, as [`CompiledFormula::has_native_code`] tells. Either way
    /// every value is the same.
    pub fn native(formula: &Formula) -> Result<CompiledFormula, CompileError> {
        let mut compiled = CompiledFormula::new(formula)?;
        compiled.machine_code = MachineCode::generate(formula);
        Ok(compiled)
    }

    /// Whether evaluation runs machine code rather than the interpreter.
    pub fn has_native_code(&self) -> bool {
        self.machine_code.is_present()
    }

    /// The sanitising run, exactly [`Formula::eval`]; for inputs or intermediate
    /// values that are not finite.
    #[cold]
    #[inline(never)]
    fn eval_sanitised(&self, inputs: &SelectionInputs) -> f64 {
        self.run::<true, STACK_CAPACITY>(&input_array(inputs)).0
    }

    /// Number of steps (at most the formula's size).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The formula's value for one child. Always finite; never allocates.
    #[inline]
    pub fn eval(&self, inputs: &SelectionInputs) -> f64 {
        if let Some(value) = self.machine_code.call(inputs) {
            return if value.is_finite() {
                value
            } else {
                self.eval_sanitised(inputs)
            };
        }
        let values = input_array(inputs);
        let (value, all_finite) = match self.stack_needed {
            0..=2 => self.run::<false, 2>(&values),
            3..=6 => self.run::<false, 6>(&values),
            _ => self.run::<false, STACK_CAPACITY>(&values),
        };
        if all_finite {
            value
        } else {
            self.eval_sanitised(inputs)
        }
    }

    /// Runs the program. `SANITISE = false`: plain arithmetic, reporting whether the
    /// result is exact (see the module comment). `SANITISE = true`: every input read and
    /// every `+ - * /` result goes through [`ops::finite`], exactly as the tree evaluator
    /// does.
    #[inline(always)]
    fn run<const SANITISE: bool, const CAPACITY: usize>(
        &self,
        inputs: &[f64; TERMINAL_COUNT],
    ) -> (f64, bool) {
        let mut stack = [0.0f64; CAPACITY];
        let mut len = 0usize;
        let mut acc = 0.0f64;
        // Stays 0 while every operand of an absorbing operation (÷, min, max) is
        // finite: `v - v` is 0 for finite `v` and NaN for ±∞ or NaN, and NaN sticks.
        let mut probe = 0.0f64;

        // A value the tree evaluator clamps: an input read or a `+ - * /` result.
        macro_rules! sanitised {
            ($value:expr) => {{
                let value: f64 = $value;
                if SANITISE {
                    ops::finite(value)
                } else {
                    value
                }
            }};
        }
        macro_rules! absorbing_operands {
            ($a:expr, $b:expr) => {{
                let (a, b): (f64, f64) = ($a, $b);
                if !SANITISE {
                    probe += ops::non_finite_marker(a) + ops::non_finite_marker(b);
                }
                (a, b)
            }};
        }
        macro_rules! input {
            ($index:expr) => {
                sanitised!(inputs[$index as usize])
            };
        }
        macro_rules! div {
            ($a:expr, $b:expr) => {{
                let (a, b) = absorbing_operands!($a, $b);
                if ops::divisor_is_protected(b) {
                    1.0
                } else {
                    sanitised!(a / b)
                }
            }};
        }
        // `min_or_max!(min, a, b)`: `a.min(b)`, noting its operands; likewise `max`.
        macro_rules! min_or_max {
            ($f:ident, $a:expr, $b:expr) => {{
                let (a, b) = absorbing_operands!($a, $b);
                a.$f(b)
            }};
        }
        macro_rules! pop {
            () => {{
                len -= 1;
                stack[len]
            }};
        }

        for step in self.steps.iter() {
            acc = match *step {
                Step::SetConst(v) => v,
                Step::SetInput(i) => input!(i),
                Step::Push => {
                    stack[len] = acc;
                    len += 1;
                    acc
                }
                Step::Ln => {
                    if SANITISE {
                        ops::ln_of_finite(acc)
                    } else {
                        ops::ln_keeping_nan(acc)
                    }
                }
                Step::Sqrt => ops::sqrt_of_finite(acc),
                Step::AddC(v) => sanitised!(acc + v),
                Step::SubC(v) => sanitised!(acc - v),
                Step::RSubC(v) => sanitised!(v - acc),
                Step::MulC(v) => sanitised!(acc * v),
                Step::DivC(v) => div!(acc, v),
                Step::RDivC(v) => div!(v, acc),
                Step::MinC(v) => min_or_max!(min, acc, v),
                Step::RMinC(v) => min_or_max!(min, v, acc),
                Step::MaxC(v) => min_or_max!(max, acc, v),
                Step::RMaxC(v) => min_or_max!(max, v, acc),
                Step::AddI(i) => sanitised!(acc + input!(i)),
                Step::SubI(i) => sanitised!(acc - input!(i)),
                Step::RSubI(i) => sanitised!(input!(i) - acc),
                Step::MulI(i) => sanitised!(acc * input!(i)),
                Step::DivI(i) => div!(acc, input!(i)),
                Step::RDivI(i) => div!(input!(i), acc),
                Step::MinI(i) => min_or_max!(min, acc, input!(i)),
                Step::RMinI(i) => min_or_max!(min, input!(i), acc),
                Step::MaxI(i) => min_or_max!(max, acc, input!(i)),
                Step::RMaxI(i) => min_or_max!(max, input!(i), acc),
                Step::AddS => sanitised!(pop!() + acc),
                Step::SubS => sanitised!(pop!() - acc),
                Step::RSubS => sanitised!(acc - pop!()),
                Step::MulS => sanitised!(pop!() * acc),
                Step::DivS => div!(pop!(), acc),
                Step::RDivS => div!(acc, pop!()),
                Step::MinS => min_or_max!(min, pop!(), acc),
                Step::RMinS => min_or_max!(min, acc, pop!()),
                Step::MaxS => min_or_max!(max, pop!(), acc),
                Step::RMaxS => min_or_max!(max, acc, pop!()),
            };
        }
        (acc, probe == 0.0 && acc.is_finite())
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

    /// Shorthand for [`CompiledFormula::native`].
    pub fn compile_native(&self) -> Result<CompiledFormula, CompileError> {
        CompiledFormula::native(self)
    }
}

/// A leaf as an operand: a sanitised constant (own C_E included) or an input index.
#[derive(Clone, Copy)]
enum Operand {
    Const(f64),
    Input(u8),
}

fn operand(expr: &Expr, own_c_e: Option<f64>) -> Option<Operand> {
    match expr {
        Expr::Const(v) => Some(Operand::Const(ops::finite(*v))),
        Expr::Term(Terminal::ExplorationConstant) if own_c_e.is_some() => {
            Some(Operand::Const(ops::finite(own_c_e.unwrap_or_default())))
        }
        Expr::Term(t) => Some(Operand::Input(*t as u8)),
        _ => None,
    }
}

/// Stack slots the emitted program uses (see [`emit`]).
fn stack_needed(expr: &Expr) -> usize {
    match expr {
        Expr::Const(_) | Expr::Term(_) => 0,
        Expr::Unary(_, x) => stack_needed(x),
        Expr::Binary(_, a, b) if a.is_leaf() => stack_needed(b),
        Expr::Binary(_, a, b) if b.is_leaf() => stack_needed(a),
        Expr::Binary(_, a, b) => {
            let (first, second) = (stack_needed(a), stack_needed(b));
            // The heavier operand runs first, with nothing parked.
            first.max(second).max(first.min(second) + 1)
        }
    }
}

/// Appends steps leaving the value of `expr` in the accumulator; the stack below is
/// left as it was.
fn emit(expr: &Expr, own_c_e: Option<f64>, steps: &mut Vec<Step>) {
    match expr {
        Expr::Const(_) | Expr::Term(_) => steps.push(match operand(expr, own_c_e) {
            Some(Operand::Const(v)) => Step::SetConst(v),
            Some(Operand::Input(i)) => Step::SetInput(i),
            None => unreachable!("leaves are operands"),
        }),
        Expr::Unary(op, x) => {
            emit(x, own_c_e, steps);
            steps.push(match op {
                UnaryOp::Ln => Step::Ln,
                UnaryOp::Sqrt => Step::Sqrt,
            });
        }
        Expr::Binary(op, a, b) => {
            if let Some(right) = operand(b, own_c_e) {
                emit(a, own_c_e, steps);
                steps.push(with_operand(*op, right, false));
            } else if let Some(left) = operand(a, own_c_e) {
                emit(b, own_c_e, steps);
                steps.push(with_operand(*op, left, true));
            } else if stack_needed(a) >= stack_needed(b) {
                emit(a, own_c_e, steps);
                steps.push(Step::Push);
                emit(b, own_c_e, steps);
                steps.push(with_stack(*op, false));
            } else {
                emit(b, own_c_e, steps);
                steps.push(Step::Push);
                emit(a, own_c_e, steps);
                steps.push(with_stack(*op, true));
            }
        }
    }
}

/// `acc = op(acc, operand)`, or `op(operand, acc)` when `operand_is_left`.
fn with_operand(op: BinaryOp, operand: Operand, operand_is_left: bool) -> Step {
    use BinaryOp::*;
    match (operand, op, operand_is_left) {
        (Operand::Const(v), Add, _) => Step::AddC(v),
        (Operand::Const(v), Mul, _) => Step::MulC(v),
        (Operand::Const(v), Sub, false) => Step::SubC(v),
        (Operand::Const(v), Sub, true) => Step::RSubC(v),
        (Operand::Const(v), Div, false) => Step::DivC(v),
        (Operand::Const(v), Div, true) => Step::RDivC(v),
        (Operand::Const(v), Min, false) => Step::MinC(v),
        (Operand::Const(v), Min, true) => Step::RMinC(v),
        (Operand::Const(v), Max, false) => Step::MaxC(v),
        (Operand::Const(v), Max, true) => Step::RMaxC(v),
        (Operand::Input(i), Add, _) => Step::AddI(i),
        (Operand::Input(i), Mul, _) => Step::MulI(i),
        (Operand::Input(i), Sub, false) => Step::SubI(i),
        (Operand::Input(i), Sub, true) => Step::RSubI(i),
        (Operand::Input(i), Div, false) => Step::DivI(i),
        (Operand::Input(i), Div, true) => Step::RDivI(i),
        (Operand::Input(i), Min, false) => Step::MinI(i),
        (Operand::Input(i), Min, true) => Step::RMinI(i),
        (Operand::Input(i), Max, false) => Step::MaxI(i),
        (Operand::Input(i), Max, true) => Step::RMaxI(i),
    }
}

/// `acc = op(popped, acc)`, or `op(acc, popped)` when `acc_is_left`.
fn with_stack(op: BinaryOp, acc_is_left: bool) -> Step {
    use BinaryOp::*;
    match (op, acc_is_left) {
        (Add, _) => Step::AddS,
        (Mul, _) => Step::MulS,
        (Sub, false) => Step::SubS,
        (Sub, true) => Step::RSubS,
        (Div, false) => Step::DivS,
        (Div, true) => Step::RDivS,
        (Min, false) => Step::MinS,
        (Min, true) => Step::RMinS,
        (Max, false) => Step::MaxS,
        (Max, true) => Step::RMaxS,
    }
}
