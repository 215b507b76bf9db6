//! Ctrl-C and SIGTERM (what a cluster scheduler sends at a time limit) as a request: while a
//! resumable engine runs ([`Polling`]), it checks the request between segments, saves its state
//! and stops; at any other time (an engine that cannot save, or writing outputs, which are
//! only renamed into place once whole) the process ends at once with exit code 130 and one line.

use crate::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static POLLING: AtomicUsize = AtomicUsize::new(0);
static NOTE: Mutex<Option<&'static str>> = Mutex::new(None);
static LAST_LINE: AtomicBool = AtomicBool::new(false);
/// Files being written under a temporary name, removed when the process ends on an interrupt.
static UNFINISHED: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());
static NEXT_UNFINISHED: AtomicU64 = AtomicU64::new(0);

/// Installs the handler of Ctrl-C and SIGTERM (once per process; later calls do nothing).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let again = REQUESTED.swap(true, Ordering::SeqCst);
        if (again || POLLING.load(Ordering::SeqCst) == 0) && claim_last_line() {
            let note = NOTE
                .lock()
                .ok()
                .and_then(|n| *n)
                .unwrap_or("nothing of this run is saved");
            remove_unfinished();
            let _ = writeln!(std::io::stderr(), "nimsieve: error: interrupted: {note}");
            std::process::exit(130);
        }
    });
}

/// True for the first caller only: the one that prints the process's last line (the handler
/// of a second Ctrl-C or the error of the command), so that the two never both print.
pub fn claim_last_line() -> bool {
    !LAST_LINE.swap(true, Ordering::SeqCst)
}

/// True once Ctrl-C or SIGTERM has been received.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Asks the running engines to stop, as Ctrl-C does (for front ends that receive the
/// interrupt themselves, such as the Python package).
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Withdraws a request once every run it was meant for has stopped, so later runs go on.
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// An interrupted error when a stop is requested, for engines that keep their table in memory
/// and check between stretches of positions: `done` of `n` positions were computed.
pub fn check(done: u64, n: u64) -> Result<(), Error> {
    if requested() {
        return Err(Error::Interrupted(format!(
            "stopped at {done} of {n} positions; the table was in memory, so nothing is saved"
        )));
    }
    Ok(())
}

/// What the line printed on an interrupt outside a resumable engine says was kept.
pub fn set_note(note: &'static str) {
    if let Ok(mut n) = NOTE.lock() {
        *n = Some(note);
    }
}

/// While alive, an interrupt is a request the running engine answers by saving and stopping.
#[derive(Debug)]
pub struct Polling(());

impl Polling {
    /// Marks a resumable engine as running.
    pub fn start() -> Polling {
        POLLING.fetch_add(1, Ordering::SeqCst);
        Polling(())
    }
}

impl Drop for Polling {
    fn drop(&mut self) {
        POLLING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A file under construction (a temporary name not yet renamed into place): while alive, an
/// interrupt that ends the process removes it first, so no partial file outlives the run.
#[derive(Debug)]
pub struct Unfinished(u64);

impl Unfinished {
    /// Registers `path` for removal should the process end on an interrupt.
    pub fn register(path: PathBuf) -> Unfinished {
        let id = NEXT_UNFINISHED.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut files) = UNFINISHED.lock() {
            files.push((id, path));
        }
        Unfinished(id)
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Ok(mut files) = UNFINISHED.lock() {
            files.retain(|(id, _)| *id != self.0);
        }
    }
}

/// Removes every registered unfinished file (the process is about to end).
fn remove_unfinished() {
    if let Ok(files) = UNFINISHED.lock() {
        for (_, path) in files.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The error of a write stopped by an interrupt request (see [`Polled`]).
#[derive(Debug)]
pub struct WriteStopped;

impl std::fmt::Display for WriteStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped by an interrupt")
    }
}

impl std::error::Error for WriteStopped {}

/// True for the I/O error a [`Polled`] writer returns once an interrupt is requested.
pub fn stopped_write(error: &std::io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<WriteStopped>())
}

/// A writer that fails with [`WriteStopped`] once an interrupt is requested, so that a long
/// write (a front end that receives the interrupt itself, such as the Python package) stops
/// within a buffer's time instead of finishing first.
pub struct Polled<W>(pub W);

impl<W: Write> Write for Polled<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if requested() {
            return Err(std::io::Error::other(WriteStopped));
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
