//! The names files are written under until they are complete (`<name>.partial-PID-K`, renamed
//! into place once whole), the removal of those that runs killed while writing left, and the
//! folder a file is written in, created when it is first needed.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Creates the folder `path` is to be written in, when it is missing.
pub fn create_parent(path: &Path) -> Result<()> {
    match path
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
    {
        Some(folder) if !folder.is_dir() => std::fs::create_dir_all(folder)
            .map_err(|e| Error::io("cannot create folder", folder, e)),
        _ => Ok(()),
    }
}

/// The name a file is written under until it is complete: `<name>.partial-PID-K`, unique to
/// this process (PID) and to this write (K), so concurrent writes of one file never share it.
pub fn temporary_name(path: &Path) -> PathBuf {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let k = WRITES.fetch_add(1, Ordering::Relaxed);
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".partial-{}-{k}", std::process::id()));
    PathBuf::from(name)
}

/// Removes the temporary files of `path` left by runs that were killed while writing it
/// (`<name>.partial-PID-K`, or `<name>.partial-PID` of older versions, whose process is gone; a
/// live process's file is left alone).
pub fn remove_stale(path: &Path) {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let prefix = format!("{}.partial-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let entry_name = entry.file_name();
        let Some(pid) = entry_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_is_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` exists (read from /proc; where there is no /proc, every process
/// counts as alive, so nothing is removed).
fn process_is_alive(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
}
