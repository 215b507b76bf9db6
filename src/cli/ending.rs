//! How the command line ends: the exit code of each kind of error, the last line, and the end
//! of a process that Ctrl-C, SIGTERM or a closed standard output stops early.

use super::wording::Flags;
use nimsieve::Error;
use nimsieve::error::Failure;
use nimsieve::interrupt::{self, Ending};
use std::io::Write;
use std::sync::Once;

/// Exit code of a process ended by Ctrl-C or SIGTERM (as shells report Ctrl-C).
pub(super) const INTERRUPTED: i32 = 130;
/// Exit code of a process whose standard output was closed (128 + SIGPIPE, as shells report a
/// process that SIGPIPE ended).
const CLOSED_PIPE: i32 = 141;

/// The exit code of `error`: 2 for bad input (like a usage error), 1 for a failed operation, 3
/// for a table that `verify` found wrong, 130 for an interrupted run.
pub(super) fn exit_code(error: &Error) -> i32 {
    match error.failure() {
        Failure::BadInput | Failure::OutOfMemory => 2,
        Failure::Io | Failure::Plot => 1,
        Failure::WrongTable => 3,
        Failure::Interrupted => INTERRUPTED,
    }
}

/// Makes this process a command line: Ctrl-C and SIGTERM end it as [`interrupt`] describes (the
/// handler is installed once per process; later calls do nothing), and so does a closed
/// standard output.
pub(super) fn install() {
    static HANDLER: Once = Once::new();
    interrupt::install(end_early);
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if interrupt::signal() && interrupt::claim_last_line() {
                end_early(Ending::Interrupted);
            }
        });
    });
}

/// Ends the process after removing the files under construction: for an interrupt with one line
/// saying what was kept and [`INTERRUPTED`], for a closed standard output quietly with
/// [`CLOSED_PIPE`].
fn end_early(ending: Ending) -> ! {
    let kept = interrupt::remove_unfinished();
    match ending {
        Ending::Interrupted => {
            let line = format!(
                "nimsieve: error: interrupted: {}\n",
                interrupt::saved(kept).worded(&Flags)
            );
            let _ = std::io::stderr().write_all(line.as_bytes());
            std::process::exit(INTERRUPTED)
        }
        Ending::ClosedPipe => std::process::exit(CLOSED_PIPE),
    }
}
