//! The machine-code tier of [`super::CompiledFormula`], behind the opt-in cargo feature
//! `jit`.
//!
//! With the feature, a long-lived formula (a controller's own formula, a formula scored
//! over many games) is turned into a native function by Cranelift (`native/cranelift.rs`,
//! the crate's only `unsafe` code). Without it, or on a host Cranelift cannot target,
//! [`MachineCode`] is empty and the interpreter answers. The results are bit-identical
//! either way, so the feature changes speed only. It is off by default because it
//! costs more than it returns here: five Cranelift crates in every build, against
//! some 10 ns saved per evaluation, which a league does not notice (see
//! ARCHITECTURE.md for the measured trade-off).
//!
//! Every `cfg(feature = "jit")` of the crate is in this file.

use super::tree::{Formula, SelectionInputs};

#[cfg(feature = "jit")]
mod cranelift;

/// A formula's machine code, or nothing. Clones share the code, which is freed with the
/// last clone.
#[derive(Clone, Debug, Default)]
pub(crate) struct MachineCode {
    #[cfg(feature = "jit")]
    code: Option<(std::sync::Arc<cranelift::NativeCode>, cranelift::NativeFn)>,
}

impl MachineCode {
    /// No machine code: the interpreter evaluates.
    pub(crate) fn none() -> MachineCode {
        MachineCode::default()
    }

    /// Machine code for `formula` when this build and host can make it, else none.
    #[cfg_attr(not(feature = "jit"), allow(unused_variables))]
    pub(crate) fn generate(formula: &Formula) -> MachineCode {
        #[cfg(feature = "jit")]
        {
            let code = cranelift::NativeCode::new(formula).map(std::sync::Arc::new);
            MachineCode {
                code: code.map(|code| {
                    let function = code.function();
                    (code, function)
                }),
            }
        }
        #[cfg(not(feature = "jit"))]
        {
            MachineCode::none()
        }
    }

    pub(crate) fn is_present(&self) -> bool {
        #[cfg(feature = "jit")]
        {
            self.code.is_some()
        }
        #[cfg(not(feature = "jit"))]
        {
            false
        }
    }

    /// The fast path's value: `None` without machine code; a non-finite value when the
    /// fast path may differ from the exact one and the sanitising interpreter must answer.
    #[inline(always)]
    #[cfg_attr(not(feature = "jit"), allow(unused_variables))]
    pub(crate) fn call(&self, inputs: &SelectionInputs) -> Option<f64> {
        #[cfg(feature = "jit")]
        {
            self.code.as_ref().map(|(_, function)| function(inputs))
        }
        #[cfg(not(feature = "jit"))]
        {
            None
        }
    }
}
