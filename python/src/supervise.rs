//! Runs an engine on a worker thread with the GIL released, while the calling thread stays
//! responsive: every tenth of a second it lets Python handle signals (Ctrl-C, a notebook's stop
//! button), which asks the engine to stop, and reports progress to a Python callable.

use crate::errors::to_py;
use nimsieve::progress::Progress;
use nimsieve::{interrupt, run};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How often the calling thread checks for signals and reports progress.
const POLL: Duration = Duration::from_millis(100);

/// Runs of this process under way; the last one to end withdraws an interrupt request.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Counts a run while it lasts.
struct Running;

impl Running {
    fn enter() -> Running {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if RUNNING.fetch_sub(1, Ordering::SeqCst) == 1 {
            interrupt::clear();
        }
    }
}

/// Set when the worker ends, also by a panic (the guard's drop).
#[derive(Default)]
struct Finished {
    done: Mutex<bool>,
    signal: Condvar,
}

impl Finished {
    fn set(&self) {
        if let Ok(mut done) = self.done.lock() {
            *done = true;
        }
        self.signal.notify_all();
    }

    /// Waits up to `timeout`; true once the worker has ended.
    fn wait(&self, timeout: Duration) -> bool {
        let Ok(done) = self.done.lock() else {
            return true;
        };
        match self.signal.wait_timeout_while(done, timeout, |d| !*d) {
            Ok((done, _)) => *done,
            Err(_) => true,
        }
    }
}

/// Marks the worker finished when dropped, however it ends.
struct SetOnDrop<'a>(&'a Finished);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// Runs `work` with the GIL released, on a pool of `threads` worker threads (rayon's global
/// pool of one thread a core when None). A signal Python turns into an exception
/// (KeyboardInterrupt) or an exception of `on_progress` (called with the positions done) asks
/// the engine to stop, waits for it, and is raised; an error of the engine is raised as
/// [`to_py`] maps it.
pub fn supervised<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    on_progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&Progress) -> nimsieve::Result<T> + Send,
) -> PyResult<T> {
    let pool =
        match threads {
            Some(t) => {
                run::check_threads(t).map_err(to_py)?;
                let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build();
                Some(pool.map_err(|e| {
                    PyRuntimeError::new_err(format!("cannot start {t} threads: {e}"))
                })?)
            }
            None => None,
        };
    let progress = Progress::hidden();
    let finished = Finished::default();
    let _running = Running::enter();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let _finished = SetOnDrop(&finished);
            match &pool {
                Some(pool) => pool.install(|| work(&progress)),
                None => work(&progress),
            }
        });
        let report = || match on_progress {
            Some(report) => report.call1((progress.done(), progress.total())).map(drop),
            None => Ok(()),
        };
        let mut stopped_by = None;
        while !py.detach(|| finished.wait(POLL)) {
            if stopped_by.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals().and_then(|()| report()) {
                interrupt::request();
                stopped_by = Some(e);
            }
        }
        let result = worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match stopped_by {
            Some(e) => Err(e),
            None => {
                let value = result.map_err(to_py)?;
                report()?;
                Ok(value)
            }
        }
    })
}
