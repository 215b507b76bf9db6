//! Named pipes for the tests of special files.

use std::path::Path;

/// Makes a FIFO at `path` (with `mkfifo`, part of every POSIX system).
pub fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}
