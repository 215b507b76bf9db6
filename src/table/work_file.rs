//! The work file of a run, locked for as long as anything holds it: a second run on the same
//! work file (and its checkpoint) is refused with one line naming the run that holds it.
//!
//! The lock is an advisory `flock` on `<work file>.lock`, which records the holder's process id
//! and command line. The lock file is removed when the last holder drops the lock, and when the
//! process ends early (an interrupt, a closed pipe), which also removes the work file unless its
//! checkpoint keeps it; a run killed with SIGKILL leaves the lock file behind unlocked, and the
//! next run takes it over.

use crate::error::{Error, Param, Result};
use crate::interrupt::Unfinished;
use crate::text;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The path of a work file and its lock, shared by the run's caller and its table (clones
/// share one lock, released when the last is dropped).
#[derive(Debug, Clone)]
pub struct WorkFile(Arc<Held>);

/// An acquired lock.
#[derive(Debug)]
struct Held {
    work_file: PathBuf,
    lock_file: File,
    lock_path: PathBuf,
    /// The lock file, the work file and its checkpoint, for removal if the process ends early.
    unfinished: Vec<Unfinished>,
}

impl WorkFile {
    /// Takes the lock of the work file `work_file` (creating its folder), or fails at once when
    /// another run holds it.
    pub fn acquire(work_file: &Path) -> Result<WorkFile> {
        let path = Self::lock_path_for(work_file);
        crate::partial::create_parent(work_file)?;
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| Error::io("cannot create", &path, e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = holder.lines().next().unwrap_or("").trim().to_string();
                    let holder = match holder.is_empty() {
                        true => "starting".to_string(),
                        false => holder,
                    };
                    return Err(Error::invalid(
                        Param::Output,
                        text!(
                            format!(
                                "'{}' is in use by another nimsieve run ({holder}); wait for it to finish, or write to another folder with ",
                                work_file.display(),
                            ),
                            Param::Output,
                        ),
                    ));
                }
                Err(TryLockError::Error(e)) => return Err(Error::io("cannot lock", &path, e)),
            }
            // A run that finished between our open and our lock has removed the file we hold:
            // the lock counts only while the path still names it.
            if !still_named(&file, &path) {
                continue;
            }
            let checkpoint = Self::checkpoint_path_for(work_file);
            let unfinished = vec![
                Unfinished::register(path.clone()),
                Unfinished::unless(work_file.to_path_buf(), checkpoint.clone()),
                Unfinished::unless(checkpoint.clone(), checkpoint),
            ];
            let holder = format!(
                "pid {}: {}\n",
                std::process::id(),
                std::env::args().collect::<Vec<_>>().join(" ")
            );
            file.set_len(0)
                .and_then(|_| file.rewind())
                .and_then(|_| file.write_all(holder.as_bytes()))
                .map_err(|e| Error::io("cannot write", &path, e))?;
            return Ok(WorkFile(Arc::new(Held {
                work_file: work_file.to_path_buf(),
                lock_file: file,
                lock_path: path,
                unfinished,
            })));
        }
    }

    /// The work file's path.
    pub fn path(&self) -> &Path {
        &self.0.work_file
    }

    /// The checkpoint of `work_file`, which engines that resume save beside it: while it
    /// exists, a process that ends early may keep the work file.
    pub fn checkpoint_path_for(work_file: &Path) -> PathBuf {
        let mut name = work_file.as_os_str().to_owned();
        name.push(".state.json");
        PathBuf::from(name)
    }

    /// The lock file of `work_file`.
    pub fn lock_path_for(work_file: &Path) -> PathBuf {
        let mut name = work_file.as_os_str().to_owned();
        name.push(".lock");
        PathBuf::from(name)
    }
}

/// True when `path` names the open `file` (same device and inode).
fn still_named(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
        _ => false,
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.unfinished.clear();
        // Removed while still locked, so a run that opened it meanwhile sees it is stale.
        let _ = std::fs::remove_file(&self.lock_path);
        let _ = self.lock_file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("t.values");
        let first = WorkFile::acquire(&work).unwrap();
        let refused = WorkFile::acquire(&work).unwrap_err().to_string();
        assert!(
            refused.contains("in use by another nimsieve run"),
            "{refused}"
        );
        assert!(
            refused.contains(&format!("pid {}", std::process::id())),
            "{refused}"
        );
        let shared = first.clone();
        drop(first);
        assert!(WorkFile::acquire(&work).is_err(), "a clone keeps the lock");
        drop(shared);
        assert!(!WorkFile::lock_path_for(&work).exists());
        let again = WorkFile::acquire(&work).unwrap();
        drop(again);
    }

    #[test]
    fn a_lock_file_left_by_a_killed_run_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("t.values");
        std::fs::write(WorkFile::lock_path_for(&work), "pid 1: nimsieve grundy …\n").unwrap();
        let lock = WorkFile::acquire(&work).unwrap();
        let text = std::fs::read_to_string(WorkFile::lock_path_for(&work)).unwrap();
        assert!(text.starts_with(&format!("pid {}", std::process::id())));
        drop(lock);
    }
}
