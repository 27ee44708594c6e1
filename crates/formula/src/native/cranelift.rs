//! Machine code for a formula, generated at run time with Cranelift.
//!
//! The interpreter in `compiled` pays a dispatch per step, which is most of its cost:
//! UCT takes about 20 ns there against 4.4 ns written by hand. A formula that is
//! evaluated millions of times (a league controller's fixed formula, a champion scored
//! over many games) is worth turning into a native function once, which costs tens of
//! microseconds; short-lived ES candidates stay interpreted.
//!
//! The generated function follows the interpreter's fast path: plain IEEE arithmetic
//! with the paper's protections for ÷, ln and √. Its result must be bit for bit that of
//! [`crate::Formula::eval`], which clamps every intermediate value to a finite one; the
//! two agree whenever no intermediate value is ±∞ or NaN, and otherwise the caller
//! reruns the formula on the interpreter's sanitising path. Detecting that case cheaply
//! rests on propagation: `+ − ×`, `√` and (as generated here) `ln` turn a non-finite
//! operand into a non-finite result, so such a value either reaches the final result or
//! is absorbed by an operation that can hide it: `÷` (`x/∞ = 0`, a protected divisor
//! hides the dividend), `min` and `max`. Only the operands of those get a marker
//! (`v − v`: 0 if finite, NaN otherwise); the function returns `value − Σ markers`, and
//! the caller falls back when that is not finite. For UCT that is two markers in all.
//!
//! `ln` calls the same `f64::ln` as the interpreter; `min` and `max` call Rust's own
//! `f64::min` and `f64::max`, whose treatment of NaN and signed zeros Cranelift's
//! instructions do not share. Identical subtrees are computed once and subtrees that
//! read no input are folded at compile time.

use std::sync::{Mutex, OnceLock};

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{
    types, AbiParam, FuncRef, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};

use crate::ops;
use crate::terminals::TERMINAL_COUNT;
use crate::tree::{BinaryOp, Expr, Formula, SelectionInputs, Terminal, UnaryOp};

/// The fast path's value; not finite when the fast path may differ from the exact one.
pub(crate) type NativeFn = extern "C" fn(*const SelectionInputs) -> f64;

/// A formula's machine code. The memory is freed when the last owner drops it.
pub(crate) struct NativeCode {
    function: NativeFn,
    /// Kept only to free the code on drop. The mutex is never locked; it makes the
    /// (`Send` but not `Sync`) module shareable so compiled formulas can be used from
    /// several threads, as the evolution's fitness evaluation does.
    module: Mutex<Option<JITModule>>,
}

impl std::fmt::Debug for NativeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NativeCode")
    }
}

impl Drop for NativeCode {
    fn drop(&mut self) {
        let slot = self.module.get_mut().unwrap_or_else(|p| p.into_inner());
        if let Some(module) = slot.take() {
            // SAFETY: `function`, the only pointer into this module's memory, is private
            // to this struct and only called through `&self`; `drop` has `&mut self`, so
            // no call is running and none can follow.
            unsafe { module.free_memory() }
        }
    }
}

impl NativeCode {
    /// The function: the formula's value on the fast path, or a non-finite number when
    /// that path may not be exact and the sanitising interpreter must answer.
    #[inline(always)]
    pub(crate) fn function(&self) -> NativeFn {
        self.function
    }

    /// Generates code for `formula`; `None` when the host has no Cranelift back end
    /// or code generation fails (the caller keeps interpreting).
    pub(crate) fn new(formula: &Formula) -> Option<NativeCode> {
        let isa = host_isa()?.clone();
        let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
        builder.symbol("evomcts_ln", native_ln as *const u8);
        builder.symbol("evomcts_min", native_min as *const u8);
        builder.symbol("evomcts_max", native_max as *const u8);
        let mut module = JITModule::new(builder);
        match define(&mut module, formula) {
            Some(function) => Some(NativeCode {
                function,
                module: Mutex::new(Some(module)),
            }),
            None => {
                // SAFETY: nothing from this module was handed out.
                unsafe { module.free_memory() };
                None
            }
        }
    }
}

// The generated code reads terminal `t` at byte `8 * t as usize` of the inputs: the layout
// `terminals` declares and checks at compile time.

/// `ln` of an argument the generated code has already raised to at least `LOG_FLOOR`
/// (or of a NaN, which then reaches the result and sends the caller to the fallback).
extern "C" fn native_ln(x: f64) -> f64 {
    x.ln()
}

extern "C" fn native_min(a: f64, b: f64) -> f64 {
    a.min(b)
}

extern "C" fn native_max(a: f64, b: f64) -> f64 {
    a.max(b)
}

/// The host's code generator, built once per process.
fn host_isa() -> Option<&'static OwnedTargetIsa> {
    static ISA: OnceLock<Option<OwnedTargetIsa>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        // Calls go to Rust functions anywhere in the address space.
        flags.set("use_colocated_libcalls", "false").ok()?;
        flags.set("is_pic", "false").ok()?;
        flags
            .set(
                "enable_verifier",
                if cfg!(debug_assertions) {
                    "true"
                } else {
                    "false"
                },
            )
            .ok()?;
        cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()
    })
    .as_ref()
}

/// Builds, compiles and links the function; returns its entry point.
fn define(module: &mut JITModule, formula: &Formula) -> Option<NativeFn> {
    let pointer = module.target_config().pointer_type();
    let mut signature = module.make_signature();
    signature.params.push(AbiParam::new(pointer));
    signature.returns.push(AbiParam::new(types::F64));

    let mut unary = module.make_signature();
    unary.params.push(AbiParam::new(types::F64));
    unary.returns.push(AbiParam::new(types::F64));
    let mut binary = unary.clone();
    binary.params.push(AbiParam::new(types::F64));
    let ln = module
        .declare_function("evomcts_ln", Linkage::Import, &unary)
        .ok()?;
    let min = module
        .declare_function("evomcts_min", Linkage::Import, &binary)
        .ok()?;
    let max = module
        .declare_function("evomcts_max", Linkage::Import, &binary)
        .ok()?;
    let id = module.declare_anonymous_function(&signature).ok()?;

    let frontend_config = module.target_config();
    let mut context = module.make_context();
    context.func.signature = signature;
    let mut builder_context = FunctionBuilderContext::new();
    {
        let mut builder = FunctionBuilder::new(&mut context.func, &mut builder_context);
        let block = builder.create_block();
        builder.append_block_params_for_function_params(block);
        builder.switch_to_block(block);
        let inputs = builder.block_params(block)[0];
        let slot =
            builder.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let probe_slot = builder.ins().stack_addr(pointer, slot, 0);
        let mut emitter = Emitter {
            emitted: Vec::new(),
            inputs,
            probe_slot,
            loaded: [None; TERMINAL_COUNT],
            pending: Vec::new(),
            settled: Vec::new(),
            stored: false,
            own_c_e: formula.c_e(),
            ln: module.declare_func_in_func(ln, builder.func),
            min: module.declare_func_in_func(min, builder.func),
            max: module.declare_func_in_func(max, builder.func),
        };
        let value = emitter.emit(&mut builder, formula.expr());
        let value = emitter.finish(&mut builder, value);
        builder.ins().return_(&[value]);
        builder.seal_all_blocks();
        builder.finalize(frontend_config);
    }
    module.define_function(id, &mut context).ok()?;
    module.clear_context(&mut context);
    module.finalize_definitions().ok()?;
    let code = module.get_finalized_function(id);
    // SAFETY: the function was just defined with exactly `NativeFn`'s signature in the
    // platform's default C calling convention (`make_signature`). It reads the
    // `f64` fields of the `SelectionInputs` its argument points to (layout checked
    // in `terminals`), writes only its own stack slot, and calls only the three `extern "C"`
    // functions registered above. It lives until `NativeCode` drops.
    Some(unsafe { std::mem::transmute::<*const u8, NativeFn>(code) })
}

/// Lowers an expression tree to Cranelift IR, value by value.
///
/// Every float register is caller-saved, so a value live across a call to `ln`, `min`
/// or `max` is spilled. Two rules keep that rare: the operand holding more calls is
/// emitted first (values are pure, so order cannot change a result), and the finiteness
/// markers accumulated so far are stored to a stack slot before each call instead of
/// being kept live until the end.
struct Emitter<'f> {
    /// Composite subtrees already emitted: an identical subtree (`ln(N)` twice, say)
    /// reuses the value instead of calling `ln` again.
    emitted: Vec<(&'f Expr, Value)>,
    inputs: Value,
    probe_slot: Value,
    /// Each terminal is loaded once.
    loaded: [Option<Value>; TERMINAL_COUNT],
    /// Markers (`v - v`: 0 if `v` is finite, NaN otherwise) of the operands of
    /// absorbing operations, since the last store to the probe slot.
    pending: Vec<Value>,
    /// Values that need no marker: constants, values already marked, and `ln` or `√`
    /// of those (which are non-finite only if their operand is).
    settled: Vec<Value>,
    /// Whether the probe slot holds a partial sum yet.
    stored: bool,
    own_c_e: Option<f64>,
    ln: FuncRef,
    min: FuncRef,
    max: FuncRef,
}

/// Calls a subtree makes.
fn calls(expr: &Expr) -> usize {
    match expr {
        Expr::Const(_) | Expr::Term(_) => 0,
        Expr::Unary(UnaryOp::Ln, x) => 1 + calls(x),
        Expr::Unary(UnaryOp::Sqrt, x) => calls(x),
        Expr::Binary(op, a, b) => {
            usize::from(matches!(op, BinaryOp::Min | BinaryOp::Max)) + calls(a) + calls(b)
        }
    }
}

/// Structural equality, with constants compared bit for bit (`-0` is not `0`).
fn same(a: &Expr, b: &Expr) -> bool {
    crate::canonical::compare(a, b).is_eq()
}

/// Whether a subtree reads no input (`C` counts as a constant when the formula
/// carries its own C_E).
fn reads_no_input(expr: &Expr, own_c_e: bool) -> bool {
    Terminal::ALL.into_iter().all(|terminal| {
        (own_c_e && terminal == Terminal::ExplorationConstant) || !expr.contains_terminal(terminal)
    })
}

impl<'f> Emitter<'f> {
    /// A finite constant operand.
    fn constant(&mut self, builder: &mut FunctionBuilder, value: f64) -> Value {
        let value = builder.ins().f64const(value);
        self.settled.push(value);
        value
    }

    /// Adds `value`'s marker to the probe, unless its finiteness is settled.
    fn check(&mut self, builder: &mut FunctionBuilder, value: Value) {
        if self.settled.contains(&value) {
            return;
        }
        self.settled.push(value);
        let marker = builder.ins().fsub(value, value);
        self.pending.push(marker);
    }

    /// The pending markers summed as a balanced tree, which keeps the probe's latency
    /// (it decides the result) logarithmic in their number.
    fn pending_sum(&mut self, builder: &mut FunctionBuilder) -> Option<Value> {
        let mut level = std::mem::take(&mut self.pending);
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|pair| match *pair {
                    [a, b] => builder.ins().fadd(a, b),
                    [a] => a,
                    _ => unreachable!("chunks of at most two"),
                })
                .collect();
        }
        level.pop()
    }

    /// Adds the pending markers to the probe slot.
    fn store_probe(&mut self, builder: &mut FunctionBuilder) {
        let Some(pending) = self.pending_sum(builder) else {
            return;
        };
        let total = if self.stored {
            let earlier =
                builder
                    .ins()
                    .load(types::F64, MemFlagsData::trusted(), self.probe_slot, 0);
            builder.ins().fadd(earlier, pending)
        } else {
            pending
        };
        builder
            .ins()
            .store(MemFlagsData::trusted(), total, self.probe_slot, 0);
        self.stored = true;
    }

    /// `value - probe`: `value` itself when every marker is 0 (`x - 0` is `x` for every
    /// `x`, `-0` included), NaN otherwise.
    fn finish(&mut self, builder: &mut FunctionBuilder, value: Value) -> Value {
        let earlier = self.stored.then(|| {
            builder
                .ins()
                .load(types::F64, MemFlagsData::trusted(), self.probe_slot, 0)
        });
        let probe = match (earlier, self.pending_sum(builder)) {
            (Some(a), Some(b)) => builder.ins().fadd(a, b),
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => return value,
        };
        builder.ins().fsub(value, probe)
    }

    fn call(&mut self, builder: &mut FunctionBuilder, callee: FuncRef, args: &[Value]) -> Value {
        self.store_probe(builder);
        let call = builder.ins().call(callee, args);
        builder.inst_results(call)[0]
    }

    fn emit(&mut self, builder: &mut FunctionBuilder, expr: &'f Expr) -> Value {
        if expr.is_leaf() {
            return self.emit_node(builder, expr);
        }
        if reads_no_input(expr, self.own_c_e.is_some()) {
            // Folded with the tree evaluator's sanitising, which is exactly the value
            // the enclosing operation sees there.
            let value = expr.eval(&SelectionInputs::default(), self.own_c_e.unwrap_or(0.0));
            return self.constant(builder, value);
        }
        if let Some(&(_, value)) = self.emitted.iter().find(|(seen, _)| same(seen, expr)) {
            return value;
        }
        let value = self.emit_node(builder, expr);
        self.emitted.push((expr, value));
        value
    }

    fn emit_node(&mut self, builder: &mut FunctionBuilder, expr: &'f Expr) -> Value {
        match expr {
            Expr::Const(v) => self.constant(builder, ops::finite(*v)),
            Expr::Term(Terminal::ExplorationConstant) if self.own_c_e.is_some() => {
                self.constant(builder, ops::finite(self.own_c_e.unwrap_or_default()))
            }
            Expr::Term(t) => {
                let index = *t as usize;
                if let Some(value) = self.loaded[index] {
                    return value;
                }
                let value = builder.ins().load(
                    types::F64,
                    MemFlagsData::trusted().with_readonly(),
                    self.inputs,
                    (8 * index) as i32,
                );
                self.loaded[index] = Some(value);
                value
            }
            Expr::Unary(op, x) => {
                let x = self.emit(builder, x);
                let magnitude = builder.ins().fabs(x);
                let value = match op {
                    UnaryOp::Sqrt => builder.ins().sqrt(magnitude),
                    UnaryOp::Ln => {
                        // `max(|x|, LOG_FLOOR)` for every number; NaN stays NaN (where
                        // `f64::max` gives the floor) so that it reaches the result.
                        let floor = builder.ins().f64const(ops::LOG_FLOOR);
                        let below = builder.ins().fcmp(FloatCC::LessThan, magnitude, floor);
                        let argument = builder.ins().select(below, floor, magnitude);
                        self.call(builder, self.ln, &[argument])
                    }
                };
                if self.settled.contains(&x) {
                    self.settled.push(value);
                }
                value
            }
            Expr::Binary(op @ (BinaryOp::Sub | BinaryOp::Div), a, b) if same(a, b) => {
                // `x - x` is +0 and `x / x` is 1 (protected or not) for every finite `x`,
                // which is all the tree evaluator ever sees; a non-finite `x` is caught
                // by its marker. Evolution produces these often; a division saved is
                // worth it.
                let x = self.emit(builder, a);
                self.check(builder, x);
                self.constant(builder, if *op == BinaryOp::Sub { 0.0 } else { 1.0 })
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = if calls(b) > calls(a) {
                    let b = self.emit(builder, b);
                    (self.emit(builder, a), b)
                } else {
                    let a = self.emit(builder, a);
                    (a, self.emit(builder, b))
                };
                match op {
                    BinaryOp::Add => builder.ins().fadd(a, b),
                    BinaryOp::Sub => builder.ins().fsub(a, b),
                    BinaryOp::Mul => builder.ins().fmul(a, b),
                    BinaryOp::Div => {
                        // Absorbing: `x / ∞` is 0, and a protected divisor hides the
                        // dividend.
                        self.check(builder, a);
                        self.check(builder, b);
                        let magnitude = builder.ins().fabs(b);
                        let threshold = builder.ins().f64const(ops::DIVISOR_THRESHOLD);
                        // Ordered comparison: false for a NaN divisor, which is protected.
                        let divides =
                            builder
                                .ins()
                                .fcmp(FloatCC::GreaterThanOrEqual, magnitude, threshold);
                        let quotient = builder.ins().fdiv(a, b);
                        let one = builder.ins().f64const(1.0);
                        builder.ins().select(divides, quotient, one)
                    }
                    BinaryOp::Min | BinaryOp::Max => {
                        // Absorbing: `f64::min` ignores NaN and may drop ±∞.
                        self.check(builder, a);
                        self.check(builder, b);
                        let callee = if *op == BinaryOp::Min {
                            self.min
                        } else {
                            self.max
                        };
                        self.call(builder, callee, &[a, b])
                    }
                }
            }
        }
    }
}
