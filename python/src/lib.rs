//! The Python module `evomcts._evomcts`: a second thin front end beside the command line. Every
//! function calls the library, never the binary; errors are raised as `EvomctsError` with the
//! message the command line prints after `error: `.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod controller;
mod formula;
mod game;
mod open_spiel;
mod peer;
mod runs;

create_exception!(
    _evomcts,
    EvomctsError,
    PyException,
    "An error of evomcts: bad input (a formula, a spec, a file) or a refused run, with the \
     message the command line prints."
);

/// The error as a Python exception, with the command line's one-line message.
pub(crate) fn raise(err: impl Into<anyhow::Error>) -> PyErr {
    EvomctsError::new_err(evomcts_runs::progress::error_message(&err.into()))
}

/// Runs `work` on its own thread with the GIL released, checking for signals (Ctrl-C) every
/// tenth of a second. On a signal, `cancel` is set, the work is waited for (it stops at its
/// next check of `cancel`) and the signal's exception (`KeyboardInterrupt`) is raised.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done_tx, mut done_rx) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let result = work();
            let _ = done_tx.send(());
            result
        });
        loop {
            // The receiver goes into the released section and comes back: it is `Send`, not
            // `Sync`. A worker that panicked drops its sender, which ends the wait too.
            let (waited, rx) = py.detach(move || {
                let waited = done_rx.recv_timeout(Duration::from_millis(100));
                (waited, done_rx)
            });
            done_rx = rx;
            if !matches!(waited, Err(RecvTimeoutError::Timeout)) {
                return match py.detach(|| worker.join()) {
                    Ok(result) => Ok(result),
                    Err(panic) => std::panic::resume_unwind(panic),
                };
            }
            if let Err(signal) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                evomcts_runs::note!(
                    "interrupted: finishing the work under way (a game, a generation)"
                );
                let _ = py.detach(|| worker.join());
                return Err(signal);
            }
        }
    })
}

/// The compiled core of the `evomcts` package; import `evomcts`, which re-exports it.
#[pymodule]
fn _evomcts(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("EvomctsError", m.py().get_type::<EvomctsError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    formula::register(m)?;
    game::register(m)?;
    controller::register(m)?;
    runs::register(m)?;
    open_spiel::register(m)?;
    peer::register(m)?;
    Ok(())
}
