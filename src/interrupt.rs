//! Ctrl-C as a request: long engines check it between segments, save their state and stop.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler (once per process; later calls do nothing).
pub fn install() {
    let _ = ctrlc::set_handler(|| REQUESTED.store(true, Ordering::SeqCst));
}

/// True once Ctrl-C has been pressed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
