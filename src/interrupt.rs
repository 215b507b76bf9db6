//! How a run stops early: the request to stop (Ctrl-C, SIGTERM, or a front end's own interrupt),
//! the files under construction that go when a process ends early, and standard output that
//! may close.
//!
//! An interrupt is a request: while a resumable engine runs ([`Polling`]), it checks the
//! request between segments, saves its state and stops; at any other time (an engine that
//! cannot save, or writing outputs, which are only renamed into place once whole) the front
//! end that [`install`]ed its ending ends the process at once, as does a second request half a
//! second or more after the first ([`signal`] says when). A closed standard output (its
//! reader gone, as with `| head`) ends it too. Either way the files under construction
//! ([`Unfinished`]) are removed first ([`remove_unfinished`]); the front end says what was
//! kept ([`saved`]) and sets the exit code.

use crate::error::{Error, Param, Result, Text};
use crate::text;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// How a process ends early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// Standard output closed by its reader.
    ClosedPipe,
}

/// The front end's way of ending the process, once [`install`]ed.
static ENDING: OnceLock<fn(Ending) -> !> = OnceLock::new();
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// When the first request came.
static FIRST_SIGNAL: OnceLock<Instant> = OnceLock::new();
static POLLING: AtomicUsize = AtomicUsize::new(0);
static KEEP_CHECKPOINTED: AtomicBool = AtomicBool::new(false);
/// True once a run has ended leaving its work file beside its checkpoint.
static LEFT_CHECKPOINTED: AtomicBool = AtomicBool::new(false);
static NOTE: Mutex<Option<Text>> = Mutex::new(None);
static LAST_LINE: AtomicBool = AtomicBool::new(false);
/// Files under construction, removed when the process ends early.
static UNFINISHED: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static NEXT_UNFINISHED: AtomicU64 = AtomicU64::new(0);
/// Files this process has put into place (after [`install`]), named by the line of an
/// interrupt.
static WRITTEN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A second request this soon after the first is taken for the same one: `timeout` sends its
/// signal to the command and again to its process group, so a command run under it receives
/// two within a millisecond, and a scheduler may do the same.
const SAME_SIGNAL: Duration = Duration::from_millis(500);

/// One file under construction.
struct Entry {
    id: u64,
    path: PathBuf,
    /// Kept rather than removed when this file exists and checkpointed work is kept
    /// ([`keep_checkpointed`]).
    keeper: Option<PathBuf>,
}

impl Entry {
    /// True when the file stays should the process end now: a work file beside its
    /// checkpoint, in a command that keeps them.
    fn kept(&self) -> bool {
        KEEP_CHECKPOINTED.load(Ordering::SeqCst) && self.keeper.as_deref().is_some_and(Path::exists)
    }
}

/// The data behind `mutex`, also when a thread panicked while holding it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Makes this process one that `ending` ends early: a closed standard output written through
/// [`Stdout`] calls it, and the files put into place are recorded for [`saved`]. The first
/// call decides; later ones do nothing.
pub fn install(ending: fn(Ending) -> !) {
    let _ = ENDING.set(ending);
}

/// True once [`install`] has made this process one that ends early.
fn installed() -> bool {
    ENDING.get().is_some()
}

/// Records a request to stop (Ctrl-C, SIGTERM) and returns true when the process should end at
/// once: no resumable engine is running to save and stop, or this is a second request half a
/// second or more after the first.
pub fn signal() -> bool {
    let first = *FIRST_SIGNAL.get_or_init(Instant::now);
    let again = REQUESTED.swap(true, Ordering::SeqCst) && first.elapsed() >= SAME_SIGNAL;
    again || POLLING.load(Ordering::SeqCst) == 0
}

/// Lets an interrupt keep a work file whose checkpoint is beside it (for commands that can
/// resume such runs); otherwise every work file goes with the process.
pub fn keep_checkpointed() {
    KEEP_CHECKPOINTED.store(true, Ordering::SeqCst);
}

/// Removes the files under construction (but a work file with its checkpoint, when such work
/// is kept) for a process about to end, and returns true when checkpointed work is kept. The
/// list of files stays locked until the process is gone, so no file is put into place
/// meanwhile ([`hold_off`]).
pub fn remove_unfinished() -> bool {
    let files = lock(&UNFINISHED);
    let mut kept = LEFT_CHECKPOINTED.load(Ordering::SeqCst);
    for entry in files.iter() {
        if entry.kept() {
            kept = true;
        } else {
            let _ = std::fs::remove_file(&entry.path);
        }
    }
    std::mem::forget(files);
    kept
}

/// Removes the files under construction (but a work file with its checkpoint, when such work is
/// kept) for a process that must end at once and cannot wait: when another thread holds the
/// list, nothing is removed (temporary outputs are named as such and removed by a later run).
pub fn abandon_unfinished() {
    let Ok(files) = UNFINISHED.try_lock() else {
        return;
    };
    for entry in files.iter().filter(|entry| !entry.kept()) {
        let _ = std::fs::remove_file(&entry.path);
    }
    std::mem::forget(files);
}

/// What a process that ends early leaves: the files it wrote, and a checkpointed work file
/// when `kept` (said as the run set it, [`set_note`]).
pub fn saved(kept: bool) -> Text {
    let written = lock(&WRITTEN);
    let rest = match (kept, written.is_empty()) {
        (true, _) => lock(&NOTE).clone().unwrap_or_else(|| {
            text!(
                "the positions of the last checkpoint are saved; run the same command with ",
                Param::Resume,
                " to continue"
            )
        }),
        (false, true) => "nothing of this run is saved".into(),
        (false, false) => "nothing else of this run is saved".into(),
    };
    let names: Vec<String> = written
        .iter()
        .map(|p| format!("'{}'", crate::error::printable(&p.display().to_string())))
        .collect();
    match names.len() {
        0 => rest,
        1 => text!(format!("{} was written; ", names[0]), rest),
        _ => text!(format!("{} were written; ", names.join(", ")), rest),
    }
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
pub fn check(done: u64, n: u64) -> Result<()> {
    if requested() {
        return Err(Error::Interrupted(
            format!(
                "stopped at {done} of {n} positions; the table was in memory, so nothing is saved"
            )
            .into(),
        ));
    }
    Ok(())
}

/// What the line of an interrupt says when it keeps a work file with its checkpoint.
pub fn set_note(note: Text) {
    *lock(&NOTE) = Some(note);
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

/// A file under construction (a temporary name not yet renamed into place, a work file, a
/// lock): while alive, a process that ends early removes it first, so that nothing partial
/// outlives the run.
#[derive(Debug)]
pub struct Unfinished(u64);

impl Unfinished {
    /// Registers `path` for removal should the process end early.
    pub fn register(path: PathBuf) -> Unfinished {
        Self::add(path, None)
    }

    /// Registers `path` for removal should the process end early, unless `keeper` (its
    /// checkpoint) exists then and the command keeps checkpointed work ([`keep_checkpointed`]).
    pub fn unless(path: PathBuf, keeper: PathBuf) -> Unfinished {
        Self::add(path, Some(keeper))
    }

    fn add(path: PathBuf, keeper: Option<PathBuf>) -> Unfinished {
        let id = NEXT_UNFINISHED.fetch_add(1, Ordering::SeqCst);
        lock(&UNFINISHED).push(Entry { id, path, keeper });
        Unfinished(id)
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        let mut files = lock(&UNFINISHED);
        if let Some(at) = files.iter().position(|entry| entry.id == self.0) {
            // A run that ends with an error after saving a checkpoint leaves its work file.
            if files.swap_remove(at).kept() {
                LEFT_CHECKPOINTED.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// Runs `put` (renaming finished files into place) with the end of the process held off: an
/// interrupt or closed pipe meanwhile ends it once `put` returns, so it never sees a part of
/// what `put` does. `put` must not register or drop an [`Unfinished`].
pub fn hold_off<R>(put: impl FnOnce() -> R) -> R {
    let _files = lock(&UNFINISHED);
    put()
}

/// Records that `path` was put into place whole, for the line of a later interrupt (in a
/// process [`install`]ed to end early).
pub fn wrote(path: &Path) {
    if installed() {
        lock(&WRITTEN).push(path.to_path_buf());
    }
}

/// Standard output for results. In a process [`install`]ed to end early, a closed pipe ends
/// it ([`Ending::ClosedPipe`]); otherwise the error is returned.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        unless_closed(std::io::stdout().write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        unless_closed(std::io::stdout().flush())
    }
}

/// `result`, unless it is a closed pipe in a process [`install`]ed to end early, which ends.
fn unless_closed<T>(result: std::io::Result<T>) -> std::io::Result<T> {
    if let Err(e) = &result
        && e.kind() == std::io::ErrorKind::BrokenPipe
        && let Some(end) = ENDING.get()
    {
        end(Ending::ClosedPipe);
    }
    result
}

/// Writes `text` to [`Stdout`]; a failure other than a closed pipe is an I/O error.
pub fn print(text: &str) -> Result<()> {
    let mut out = Stdout;
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("cannot write", "standard output", e))
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
