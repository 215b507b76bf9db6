//! Long runs on a table of words, in memory or in a memory-mapped work file: a checkpoint
//! beside the file every minute and on Ctrl-C, and `--resume` from the last checkpoint.

mod checkpoint;

pub use checkpoint::{CHUNK_BYTES, Checkpoint, Digest, write_whole};

use crate::error::{Error, Param, Result, Text};
use crate::game::Game;
use crate::interrupt;
use crate::period::Period;
use crate::table::WorkTable;
use crate::table::packed::PackedValues;
use crate::table::words::Words;
use crate::table::work_file::WorkFile;
use crate::text;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// What an interrupt says once a file-backed run has saved its complete table.
fn complete() -> Text {
    text!(
        "the table is complete and saved; run the same command with ",
        Param::Resume,
        " to write the outputs"
    )
}

/// How often a file-backed run saves a checkpoint, unless told otherwise.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// Where a run keeps its table, and whether it continues an interrupted run.
#[derive(Debug, Clone, Copy)]
pub struct Storage<'a> {
    /// The memory-mapped work file, locked; None keeps the table in memory.
    pub work_file: Option<&'a WorkFile>,
    /// Continue from the work file's checkpoint when it belongs to the same game and n.
    pub resume: bool,
    /// The least time between two checkpoints of a file-backed run (zero: at every point
    /// where the engine can stop).
    pub checkpoint_every: Duration,
}

impl Default for Storage<'_> {
    fn default() -> Self {
        Storage {
            work_file: None,
            resume: false,
            checkpoint_every: CHECKPOINT_EVERY,
        }
    }
}

/// Bits a value of a run's table: where a new run starts, and the most its storage holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Width {
    /// Bits a value of a new run.
    pub start: u32,
    /// Bits a value the storage has room for.
    pub widest: u32,
}

impl Width {
    /// A table that keeps `bits` bits a value.
    pub fn fixed(bits: u32) -> Width {
        Width {
            start: bits,
            widest: bits,
        }
    }
}

/// Where a run starts: the positions already final, and the width of the table then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    /// Positions below this are final.
    pub done: u64,
    /// Bits a value of the table.
    pub bits: u32,
    /// The period the positions below `done` prove, when the run ended at it
    /// ([`StepEnd::Periodic`]): nothing is left to compute.
    pub period: Option<Period>,
}

/// The words of a run's table (room for n values of `width.widest` bits) and where the run
/// starts in them. A work file is locked for as long as the words live (a second run on it is
/// refused); with `resume`, its checkpoint must belong to this game and n and the finished
/// part of the file must match the checkpoint's checksums, else the run is refused with one
/// line. Everything after the finished part is cleared, so the run continues exactly as an
/// uninterrupted one would: the words are zero from `done` on (for
/// [`PackedValues::zeroed_from`]).
pub fn open(game: &Game, n: u64, width: Width, storage: Storage) -> Result<(Words, Start)> {
    let len = PackedValues::words_for(n, width.widest);
    let fresh = Start {
        done: 0,
        bits: width.start,
        period: None,
    };
    let Some(work_file) = storage.work_file else {
        return Ok((Words::in_memory(len)?, fresh));
    };
    let path = work_file.path();
    // Once a run: the temporary checkpoints that killed runs left.
    crate::partial::remove_stale(&Checkpoint::path_for(path));
    let checkpoint = if storage.resume {
        Checkpoint::load(path)?
    } else {
        None
    };
    let Some(c) = checkpoint else {
        Checkpoint::remove(path)?;
        return Ok((Words::in_file(work_file, len, false)?, fresh));
    };
    c.check_fields(game, n, width.widest, path)?;
    let mut words = Words::in_file(work_file, len, true)?;
    c.check_table(&words, path)?;
    words.clear_from_bit(c.done * u64::from(c.bits));
    Ok((
        words,
        Start {
            done: c.done,
            bits: c.bits,
            period: c.period,
        },
    ))
}

/// A packed table of `n` values that widens as larger values appear, and the positions already
/// final in it: room for `widest` bits a value (a narrower table leaves the rest of its storage
/// untouched), at the width the checkpoint records, or 1 bit for a new run.
pub fn open_packed(
    game: &Game,
    n: u64,
    widest: u32,
    storage: Storage,
) -> Result<(PackedValues, u64)> {
    let width = Width { start: 1, widest };
    let (words, Start { done, bits, .. }) = open(game, n, width, storage)?;
    Ok((PackedValues::zeroed_from(n, bits, words, done), done))
}

/// How an engine's advance step of a resumable run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepEnd {
    /// Every position below n is final.
    Completed,
    /// Every position is known: those below `at` are final and prove `period`, which the rest
    /// repeat (the engine fills them in, or ends the table, after the run).
    Periodic {
        /// The positions that prove the period.
        at: u64,
        /// The period they prove.
        period: Period,
    },
    /// Stopped when asked to; the positions below `at` are final.
    Stopped {
        /// The first position not yet final: where the run continues.
        at: u64,
    },
}

/// Runs `advance(table, done, stop)` until it completes. The engine calls `stop(at)` whenever
/// the positions below `at` are final; when it answers Break, the engine returns
/// [`StepEnd::Stopped`] at `at`. A stop saves a checkpoint (file-backed runs) and, on Ctrl-C or
/// SIGTERM (also one that came while the last checkpoint was saved), ends the run with
/// [`Error::Interrupted`]; the engine returns
/// [`StepEnd::Completed`] when every position is final, or [`StepEnd::Periodic`] when a proven
/// period gives the rest. A file-backed run also saves a checkpoint then (of the positions
/// that prove the period, and the period), kept until the caller has written its outputs and
/// calls [`remove_work_files`], so that a run killed while writing them loses nothing. An
/// error of the engine ends the run at once, without a checkpoint. The work file has room for
/// `widest` bits a value.
pub fn drive<T: WorkTable>(
    game: &Game,
    n: u64,
    widest: u32,
    storage: Storage,
    table: &mut T,
    mut done: u64,
    mut advance: impl FnMut(&mut T, u64, &mut dyn FnMut(u64) -> ControlFlow<()>) -> Result<StepEnd>,
) -> Result<()> {
    let _polling = interrupt::Polling::start();
    // Checksums of whole chunks stay valid while the width does; widening repacks them all.
    let mut digest = (0, Digest::default());
    let mut save = |table: &T, done: u64, period: Option<Period>| -> Result<()> {
        let Some(work_file) = storage.work_file else {
            return Ok(());
        };
        table.flush()?;
        let known: &[u32] = if digest.0 == table.bits() {
            &digest.1.sums
        } else {
            &[]
        };
        let checkpoint = Checkpoint {
            period,
            ..Checkpoint::of_table(game, n, done, widest, table, known)
        };
        digest = (table.bits(), checkpoint.digest.clone());
        checkpoint.save(work_file.path())
    };
    loop {
        let started = Instant::now();
        let mut stop = |_at: u64| {
            let due = storage.work_file.is_some() && started.elapsed() >= storage.checkpoint_every;
            if interrupt::requested() || due {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let outcome = advance(table, done, &mut stop)?;
        let (at, period) = match outcome {
            StepEnd::Completed => (n, None),
            StepEnd::Periodic { at, period } => (at, Some(period)),
            StepEnd::Stopped { at } => (at, None),
        };
        save(table, at, period)?;
        let complete = !matches!(outcome, StepEnd::Stopped { .. });
        if storage.work_file.is_none() {
            interrupt::check(at, n)?;
        } else if interrupt::requested() {
            return Err(Error::Interrupted(if complete {
                self::complete()
            } else {
                text!(
                    format!("{at} of {n} positions are saved; run the same command with "),
                    Param::Resume,
                    " to continue"
                )
            }));
        } else if complete {
            interrupt::set_note(self::complete());
        }
        if complete {
            return Ok(());
        }
        done = at;
    }
}

/// Widens `table` to `bits` bits a value, keeping the values below `done`. A file-backed
/// table's checkpoint describes the old width, so it is removed first: a run killed while
/// widening starts over rather than resume from mixed widths, and the run's next checkpoint
/// records the new width.
pub fn widen(table: &mut PackedValues, bits: u32, done: u64) -> Result<()> {
    if let Some(path) = table.path() {
        Checkpoint::remove(path)?;
    }
    table.widen(bits, done);
    Ok(())
}

/// Removes a finished run's work file and its checkpoint (the checkpoint first, so a run
/// killed in between leaves no checkpoint without its table).
pub fn remove_work_files(work_file: &Path) {
    let _ = Checkpoint::remove(work_file);
    let _ = std::fs::remove_file(work_file);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_a_work_file_removes_its_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let words = Words::in_file(&WorkFile::acquire(&path).unwrap(), 100, false).unwrap();
        let mut p = PackedValues::from_words(100, 4, words);
        p.set(3, 9);
        let squares = crate::game::Game::parse("squares").unwrap();
        let checkpoint = Checkpoint::new(&squares, 100, 50, 4, 16, Default::default());
        checkpoint.save(&path).unwrap();
        widen(&mut p, 16, 50).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), None);
        assert_eq!((p.get(3), p.bits()), (9, 16));
    }

    /// Resuming checks the finished part of the work file against its checkpoint and clears
    /// the rest, keeping neither in the process.
    #[test]
    fn resuming_keeps_little_of_the_work_file() {
        use crate::table::resident::tests::resident_bytes;
        let n: u64 = 1 << 24;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.values");
        let work_file = WorkFile::acquire(&path).unwrap();
        let game = crate::game::Game::parse("grundys-game").unwrap();
        let storage = Storage {
            work_file: Some(&work_file),
            resume: true,
            ..Storage::default()
        };
        let width = Width {
            start: 16,
            widest: 32,
        };
        let (words, _) = open(&game, n, width, storage).unwrap();
        let mut table = PackedValues::from_words(n, 16, words);
        (0..n).for_each(|x| table.set(x, (x % 1000) as u32));
        let done = n - 1000;
        Checkpoint::of_table(&game, n, done, 32, &table, &[])
            .save(&path)
            .unwrap();
        drop(table);
        let (words, start) = open(&game, n, width, storage).unwrap();
        assert_eq!((start.done, start.bits), (done, 16));
        let kept = resident_bytes(words.get());
        assert!(kept < n / 2, "{kept} of {} bytes kept", 2 * n);
        let table = PackedValues::from_words(n, 16, words);
        assert!((0..done).all(|x| table.get(x) == (x % 1000) as u32));
        assert!((done..n).all(|x| table.get(x) == 0));
    }

    #[test]
    fn an_engine_error_keeps_the_last_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let work_file = WorkFile::acquire(&path).unwrap();
        let game = crate::game::Game::parse("squares").unwrap();
        let storage = Storage {
            work_file: Some(&work_file),
            checkpoint_every: Duration::ZERO,
            ..Storage::default()
        };
        let (words, start) = open(&game, 1000, Width::fixed(4), storage).unwrap();
        let mut table = PackedValues::from_words(1000, 4, words);
        let err = drive(
            &game,
            1000,
            4,
            storage,
            &mut table,
            start.done,
            |_, done, _| {
                if done == 0 {
                    Ok(StepEnd::Stopped { at: 500 })
                } else {
                    Err(Error::unsupported("no value fits"))
                }
            },
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "no value fits");
        // The checkpoint is the stop's, not one of a complete table.
        assert_eq!(Checkpoint::load(&path).unwrap().unwrap().done, 500);
    }
}
