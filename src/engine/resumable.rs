//! Long runs on a table of words, in memory or in a memory-mapped work file: a checkpoint
//! beside the file every minute and on Ctrl-C, and `--resume` from the last checkpoint.

use crate::error::{Error, Result};
use crate::game::Game;
use crate::interrupt;
use crate::table::bits::Checkpoint;
use crate::table::packed::PackedValues;
use crate::table::words::Words;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// How often a file-backed run saves a checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// Where a run keeps its table, and whether it continues an interrupted run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Storage<'a> {
    /// The memory-mapped work file; None keeps the table in memory.
    pub work_file: Option<&'a Path>,
    /// Continue from the work file's checkpoint when it belongs to the same game and n.
    pub resume: bool,
}

/// The table of a run: it can write its pages to disk, and says its width when that can grow.
pub trait WorkTable {
    /// Writes a file-backed table's pages to disk.
    fn flush(&self) -> Result<()>;

    /// Bits a value, for a packed table that can widen (recorded in checkpoints).
    fn width(&self) -> Option<u32> {
        None
    }
}

/// Where a run starts: the positions already final, and the width its checkpoint recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Start {
    /// Positions below this are final.
    pub done: u64,
    /// Bits a value of the resumed table, when its checkpoint recorded one.
    pub bits: Option<u32>,
}

/// The `len` words of a run's table and where the run starts in them.
pub fn open(game: &Game, n: u64, len: u64, storage: Storage) -> Result<(Words, Start)> {
    let Some(path) = storage.work_file else {
        return Ok((Words::in_memory(len), Start::default()));
    };
    let checkpoint = if storage.resume {
        Checkpoint::load(path)?
    } else {
        None
    };
    match checkpoint {
        Some(c) if c.game == game.spec && c.n == n && c.done <= n => Ok((
            Words::in_file(path, len, true)?,
            Start {
                done: c.done,
                bits: c.bits,
            },
        )),
        Some(c) => Err(Error::Input(format!(
            "cannot resume: '{}' belongs to {} with n = {}, not {} with n = {n}; rerun without --resume",
            path.display(),
            c.game,
            c.n,
            game.spec
        ))),
        None => {
            let _ = std::fs::remove_file(Checkpoint::path_for(path));
            Ok((Words::in_file(path, len, false)?, Start::default()))
        }
    }
}

/// A packed table of `n` values that widens as larger values appear, and the positions already
/// final in it: room for `widest` bits a value (a narrower table leaves the rest of a work file
/// unwritten, a hole on disk, and the rest of a table in memory untouched), at the width the
/// checkpoint records, or 1 bit for a new run. A checkpoint that records no width belongs to a
/// table kept at the widest.
pub fn open_packed(
    game: &Game,
    n: u64,
    widest: u32,
    storage: Storage,
) -> Result<(PackedValues, u64)> {
    let (words, Start { done, bits }) = open(game, n, PackedValues::words_for(n, widest), storage)?;
    let bits = bits.unwrap_or(if done > 0 { widest } else { 1 });
    Ok((PackedValues::from_words(n, bits, words), done))
}

/// Runs `advance(table, done, stop)` until it completes. The engine calls `stop(at)` whenever
/// the positions below `at` are final; when it answers Break, the engine returns `Some(at)`.
/// A stop saves a checkpoint (file-backed runs) and, on Ctrl-C, ends the run with
/// [`Error::Interrupted`]; the engine returns None when every position is final.
pub fn drive<T: WorkTable>(
    game: &Game,
    n: u64,
    storage: Storage,
    table: &mut T,
    mut done: u64,
    mut advance: impl FnMut(&mut T, u64, &mut dyn FnMut(u64) -> ControlFlow<()>) -> Option<u64>,
) -> Result<()> {
    loop {
        let started = Instant::now();
        let mut stop = |_at: u64| {
            let due = storage.work_file.is_some() && started.elapsed() > CHECKPOINT_EVERY;
            if interrupt::requested() || due {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let Some(at) = advance(table, done, &mut stop) else {
            return Ok(());
        };
        done = at;
        if let Some(path) = storage.work_file {
            table.flush()?;
            Checkpoint {
                game: game.spec.clone(),
                n,
                done,
                bits: table.width(),
            }
            .save(path)?;
        }
        if interrupt::requested() {
            return Err(Error::Interrupted(match storage.work_file {
                Some(_) => format!(
                    "{done} of {n} positions are saved; run the same command with --resume to continue"
                ),
                None => format!(
                    "stopped at {done} of {n} positions; the table was in memory, so nothing is saved"
                ),
            }));
        }
    }
}

/// Removes a finished run's work file and its checkpoint.
pub fn remove_work_files(work_file: &Path) {
    let _ = std::fs::remove_file(Checkpoint::path_for(work_file));
    let _ = std::fs::remove_file(work_file);
}
