//! How a search over OpenSpiel's states stops early without a panic reaching the user: the
//! game interface (`ExternalState`) cannot return an error, so a state whose call into
//! OpenSpiel failed, or that was told to stop (Ctrl-C in `OpenSpielController.step`), unwinds
//! with a [`Stop`] as the panic's payload. The package's boundaries ([`crate::interruptible`],
//! the command line's `main`) turn it into an error (`EvomctsError`, exit status 2) or the
//! signal's exception; any other panic goes on as a panic.
//!
//! A failure is also kept as the pending failure of the process: a run's scoped threads
//! (`std::thread::scope`) replace a panic's payload with their own ("a scoped thread
//! panicked"), so a boundary that catches any panic while a failure is pending reports the
//! failure, and the panic hook stays silent for it too.
//!
//! Guarantees: the unwinding leaves the failed game unfinished, so no result of it is written
//! (a run writes a game's record only once the game is over); the panic hook prints nothing for
//! a `Stop` (its message is the error's); a `Stop`'s text is escaped and cut (`shown`).

use std::any::Any;
use std::sync::{Mutex, Once};

/// The first failure of OpenSpiel not yet reported by a boundary.
static PENDING: Mutex<Option<String>> = Mutex::new(None);

fn pending() -> std::sync::MutexGuard<'static, Option<String>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

use pyo3::PyErr;

/// Why a search over OpenSpiel's states stopped: the payload of its unwinding.
#[derive(Debug)]
pub enum Stop {
    /// A call into OpenSpiel failed: the message names the game, its parameters and the
    /// reason, escaped and cut.
    Failed(String),
    /// The search was told to stop (Ctrl-C).
    Cancelled,
}

impl Stop {
    /// Unwinds with this stop: to be caught at a boundary of the package. A failure is kept
    /// as the pending one too (the first, if several threads fail).
    pub fn raise(self) -> ! {
        if let Stop::Failed(message) = &self {
            pending().get_or_insert_with(|| message.clone());
        }
        std::panic::panic_any(self)
    }
}

/// Forgets a pending failure that no boundary reported (one raised outside them, as a
/// `PanicException`): each boundary starts with none.
pub fn forget_pending() {
    pending().take();
}

/// The stop a caught panic means, or the payload back: the pending failure, whatever the
/// payload (a scope may have replaced it), else the payload's own stop.
pub fn stop_of(payload: Box<dyn Any + Send>) -> Result<Stop, Box<dyn Any + Send>> {
    if let Some(message) = pending().take() {
        return Ok(Stop::Failed(message));
    }
    payload.downcast::<Stop>().map(|stop| *stop)
}

/// A panic's payload as the error a boundary raises: a [`Stop::Failed`] as `EvomctsError`;
/// anything else unwinds on (a `Stop::Cancelled` is caught where the signal is raised).
pub fn into_pyerr(payload: Box<dyn Any + Send>) -> PyErr {
    match stop_of(payload) {
        Ok(Stop::Failed(message)) => crate::EvomctsError::new_err(message),
        Ok(Stop::Cancelled) => {
            pyo3::exceptions::PyKeyboardInterrupt::new_err("the search was interrupted")
        }
        Err(other) => std::panic::resume_unwind(other),
    }
}

/// Installs, once, a panic hook that prints nothing for a [`Stop`] nor while a failure is
/// pending (the panics it causes), and hands every other panic to the hook before it.
pub fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<Stop>() && pending().is_none() {
                before(info);
            }
        }));
    });
}
