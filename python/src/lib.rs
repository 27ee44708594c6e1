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
mod stop;
mod tables;

create_exception!(
    _evomcts,
    EvomctsError,
    PyException,
    "An error of evomcts: bad input (a formula, a spec, a file) or a refused run, with the \
     message the command line prints."
);

/// The error as a Python exception, with the command line's one-line message.
pub(crate) fn raise(err: impl Into<anyhow::Error>) -> PyErr {
    EvomctsError::new_err(evomcts_records::progress::error_message(&err.into()))
}

/// The int argument `name` of a call, checked as the command line checks its flag: an int
/// (`TypeError` otherwise, naming the argument) from `min` to `max` (`EvomctsError`).
pub(crate) fn int_arg(name: &str, value: &Bound<'_, PyAny>, min: u64, max: u64) -> PyResult<u64> {
    use pyo3::types::{PyBool, PyInt};
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "argument `{name}` must be an int, got {}",
            value.get_type().name()?
        )));
    }
    if value.lt(min)? || value.gt(max)? {
        let shown = value
            .str()
            .map_or_else(|_| "a larger int".to_string(), |s| s.to_string());
        return Err(raise(anyhow::anyhow!(
            "invalid value for {name}: must be between {min} and {max}, got {}",
            evomcts_records::escape::abbreviated(&shown, 40)
        )));
    }
    value.extract()
}

/// The error of a call on an object another thread is using: evomcts's objects serve one
/// thread at a time (`what` names the class, e.g. `Controller`).
pub(crate) fn in_use(what: &str) -> PyErr {
    EvomctsError::new_err(format!(
        "this {what} is in use by another thread: evomcts's objects are not shareable across \
         threads; give each thread its own {what}"
    ))
}

/// Runs `work` on its own thread with the GIL released, checking for signals (Ctrl-C) every
/// tenth of a second. On a signal, `cancel` is set, the work is waited for (it stops at its
/// next check of `cancel`) and the signal's exception (`KeyboardInterrupt`) is raised. A work
/// that stopped on an OpenSpiel failure ([`stop::Stop`]) raises `EvomctsError` with its
/// message.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    stop::forget_pending();
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
                return py.detach(|| worker.join()).map_err(stop::into_pyerr);
            }
            if let Err(signal) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                evomcts_records::note!(
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
    stop::install_quiet_hook();
    formula::register(m)?;
    game::register(m)?;
    controller::register(m)?;
    runs::register(m)?;
    tables::register(m)?;
    open_spiel::register(m)?;
    peer::register(m)?;
    Ok(())
}
