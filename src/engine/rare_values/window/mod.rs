//! Runs that keep no table: the values are handed on in order as they become final (to the
//! statistics of a summary), and past a point the table keeps only a window, the head of small
//! heaps and the tail behind the current position, in words reserved in address space whose
//! pages between the two are given back. Memory is then bounded by the window, not by n.
//!
//! Past the window's start a position reads only splits with a small heap in the head (whose
//! partners lie in the tail), its splits with a rare heap (all in the head) and its one-heap
//! options (in the tail). Every option it marks is then a real one, and every common option is
//! marked; a common mex is therefore the value. A rare mex that no split within the window
//! excludes would need a scan of every split: the run ends there with one line instead.

mod saved;

pub use saved::Consumer;

use super::context::Mode;
use super::{
    FIRST_BITS, SMALL_HEAPS, SPARSE_FROM, Sieve, WIDEST, applies, finite_code, proof_length,
    step_end,
};
use crate::engine::resumable::{self, StepEnd};
use crate::error::{Error, Param, Result};
use crate::game::Game;
use crate::interrupt;
use crate::period::Period;
use crate::progress::Progress;
use crate::sparse_space::{best_split, is_rare};
use crate::table::packed::PackedValues;
use crate::table::resident::STEP;
use crate::table::words::{RELEASE_ALIGN, Words};
use crate::text;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Values handed on at a time for the positions a proven period gives.
const EMITTED: u64 = 1 << 16;

/// A run that keeps its table whole only up to a point, then a window of it: the head (the
/// small heaps, the rare positions among them) and the tail behind the current position.
/// From `from` on the mask stays as chosen, the periods are no longer looked for and the
/// positions of high values are no longer listed (each would read the whole table); a
/// position whose value the window cannot decide ends the run with one line.
#[derive(Debug, Clone)]
pub(super) struct Window {
    /// Positions from which only the window is kept.
    pub(super) from: u64,
    /// The small heaps kept, once past `from`.
    pub(super) head: Option<u64>,
    /// The positions from the head up to here are given back.
    pub(super) discarded: u64,
    /// `last[v]`: the last position of value v so far.
    pub(super) last: Vec<u64>,
}

impl Sieve<'_> {
    /// What a window does after a stretch whose values `out` end at `done`: notes the last
    /// position of each value, chooses the mask again when a rare position came past the head,
    /// and gives back the positions the tail has passed.
    pub(super) fn window_step(&mut self, values: &mut PackedValues, out: &[u32]) -> Result<()> {
        let Some(window) = self.window.as_mut() else {
            return Ok(());
        };
        let first = self.done - out.len() as u64;
        let largest = out.iter().copied().max().unwrap_or(0) as usize;
        if window.last.len() <= largest {
            window.last.resize(largest + 1, 0);
        }
        for (x, &v) in (first..).zip(out) {
            window.last[v as usize] = x;
        }
        if self.rare.last().is_some_and(|&(r, _)| r >= self.head()) {
            self.revise_window(values)?;
        }
        self.discard_behind(values);
        Ok(())
    }

    /// Chooses the mask again from the histogram once a rare position lies past the head (a
    /// value above all before it, rare under the mask, is the usual one): the positions of the
    /// new rare values must all lie in the head, whose scan then lists them; else the window
    /// cannot go on.
    fn revise_window(&mut self, values: &PackedValues) -> Result<()> {
        let head = self.head();
        let last = self.window.as_ref().map_or(&[][..], |w| &w.last[..]);
        let mask = match best_split(&self.counts) {
            Some(split) if split.rare * SPARSE_FROM <= self.done => split.mask,
            _ => return Err(no_sparse_space(self.done)),
        };
        let rare_values =
            (0..self.counts.len()).filter(|&v| self.counts[v] > 0 && is_rare(v as u32, mask));
        if let Some(beyond) = rare_values.map(|v| last[v]).filter(|&x| x >= head).max() {
            return Err(undecided(beyond, head, values.len()));
        }
        self.mode = Mode::Sparse(mask);
        self.list_rare(values, head.min(self.done));
        Ok(())
    }

    /// Gives back the positions the tail has passed since the last time, [`STEP`] at a time,
    /// once only the window is kept. Only whole pieces of [`RELEASE_ALIGN`] bytes are given
    /// back, so each step ends at the end of one and the next starts there: a piece cut at
    /// both ends would stay, some 5% of the table over a long run.
    fn discard_behind(&mut self, values: &mut PackedValues) {
        let head = self.head();
        let tail = self.tail(head);
        let piece = RELEASE_ALIGN * 8 / u64::from(values.bits());
        if let Some(window) = self.window.as_mut().filter(|w| w.head.is_some())
            && tail >= window.discarded.max(head) + STEP
        {
            let end = tail / piece * piece;
            values.discard(window.discarded.max(head)..end);
            window.discarded = end;
        }
    }

    /// Widens the window's table to `bits` bits a value: the head and the tail are repacked,
    /// and the storage between them given back.
    pub(super) fn widen_window(&mut self, values: &mut PackedValues, bits: u32) {
        let head = self.head();
        let tail = self.tail(head);
        values.widen_kept(bits, self.done, &[0..head, tail..self.done]);
        if let Some(window) = self.window.as_mut() {
            window.discarded = tail;
        }
    }

    /// The small heaps the table keeps: all of them unless a window is kept.
    pub(super) fn head(&self) -> u64 {
        self.window
            .as_ref()
            .and_then(|w| w.head)
            .unwrap_or(u64::MAX)
    }

    /// Keeps only the window from here on, when the run has reached its start: the head is
    /// the first half of the positions kept whole (at least the small heaps and the rare
    /// positions). Refused without sparse space, where every split is read.
    pub(super) fn enter_window(&mut self) -> Result<()> {
        let Some(window) = self.window.as_mut() else {
            return Ok(());
        };
        if window.head.is_some() || self.done < window.from {
            return Ok(());
        }
        if self.mode == Mode::Full {
            return Err(no_sparse_space(self.done));
        }
        let last_rare = self.rare.last().map_or(0, |&(r, _)| r + 1);
        window.head = Some((window.from / 2).max(last_rare).max(SMALL_HEAPS));
        (self.next_check, self.next_revision) = (u64::MAX, u64::MAX);
        self.high = None;
        Ok(())
    }
}

/// The one line of a window run whose values below `done` show no sparse space.
fn no_sparse_space(done: u64) -> Error {
    Error::unsupported(format!(
        "the values below {done} show no sparse space, so every position reads the whole table; ask for the table itself (bin, npy or csv; grundy() in Python)"
    ))
}

/// The one line of a position `x` whose value the window cannot decide, with `head` heaps kept
/// in a run of `n` positions: it suggests a window with twice the heaps, and says that one of
/// n positions always decides (every split of a heap below n has a heap below n / 2).
pub(super) fn undecided(x: u64, head: u64, n: u64) -> Error {
    let twice = (4 * head).next_power_of_two();
    Error::unsupported(text!(
        format!(
            "the value of heap {x} needs splits past the {head} smallest heaps this run keeps (it keeps no table); give a larger "
        ),
        Param::Window,
        format!(
            " such as {twice} (2^{}: twice the heaps; one of {n} keeps them all and always decides), or ask for the table itself (bin, npy or csv; grundy() in Python)",
            twice.trailing_zeros()
        )
    ))
}

/// Where a run that keeps no table saves its window, and whether it continues from it.
#[derive(Debug, Clone, Copy)]
pub struct Saving<'a> {
    /// The run's work file (locked, never created): its checkpoint lies beside it
    /// ([`saved::path_for`]); None saves nothing.
    pub work: Option<&'a std::path::Path>,
    /// Continue from the checkpoint when there is one.
    pub resume: bool,
    /// The least time between two checkpoints.
    pub every: Duration,
}

/// The values of the take-and-break game `game` (a finite code whose moves leave at most two
/// heaps) below `n`, handed to `consumer` in position order, each once: the table is kept whole
/// below `from` (at least twice the small heaps), only a window of it from there on. Returns
/// the period proven, looked for only while the table is whole; the positions past its proof
/// are handed on from it. Past the window's start the run saves its window and the consumer's
/// state as `saving` says, on Ctrl-C or SIGTERM too (which then end the run with one line), and
/// with `resume` continues from the last checkpoint.
pub fn in_window(
    game: &Game,
    n: u64,
    from: u64,
    saving: Saving,
    consumer: &mut dyn Consumer,
    progress: &Progress,
) -> Result<Option<Period>> {
    window_run(game, n, from, saving, consumer, progress).map(|(_, period)| period)
}

/// [`in_window`], with the window's table as it ends.
pub(super) fn window_run(
    game: &Game,
    n: u64,
    from: u64,
    saving: Saving,
    consumer: &mut dyn Consumer,
    progress: &Progress,
) -> Result<(PackedValues, Option<Period>)> {
    let Some((moves, criterion)) = finite_code(game).filter(|_| applies(game)) else {
        return Err(crate::engine::not_for(
            crate::engine::EngineKind::RareValues,
            game,
        ));
    };
    let words = Words::reserved(PackedValues::words_for(n, WIDEST))?;
    let mut values = PackedValues::zeroed_from(n, FIRST_BITS, words, 0);
    let mut sieve = Sieve::resume(&moves, &values, 0);
    let from = from.max(2 * SMALL_HEAPS);
    sieve.window = Some(Window {
        from,
        head: None,
        discarded: 0,
        last: Vec::new(),
    });
    if let Some(work) = saving.work {
        crate::partial::remove_stale(&saved::path_for(work));
        if !saving.resume {
            resumable::Checkpoint::remove(work)?;
        } else if saved::restore(work, game, &mut sieve, &mut values, consumer)? {
            progress.set(sieve.done);
        }
    }
    let _polling = interrupt::Polling::start();
    let mut period = None;
    // Positions handed on: a proof may come at a length below them.
    let mut handed = sieve.done;
    loop {
        let started = Instant::now();
        let entered = |sieve: &Sieve| sieve.head() < u64::MAX;
        let outcome = {
            // Checkpoints come past the window's start.
            let saves = saving.work.is_some();
            let mut stop = |at| {
                progress.set(at);
                let due = saves && at >= from && started.elapsed() >= saving.every;
                match interrupt::requested() || due {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                }
            };
            let mut counted = |out: &[u32]| {
                handed += out.len() as u64;
                consumer.add(out);
            };
            let done = sieve.done;
            sieve.advance(&mut values, done, &criterion, &mut stop, &mut counted)?
        };
        let whole = !entered(&sieve);
        match step_end(outcome, &values, &criterion, whole, &mut period) {
            StepEnd::Stopped { at } => {
                let saved = match saving.work {
                    Some(work) if at >= from => {
                        sieve.enter_window()?;
                        saved::save(work, game, &sieve, &values, consumer)?;
                        true
                    }
                    _ => false,
                };
                if saved && interrupt::requested() {
                    return Err(Error::Interrupted(text!(
                        format!(
                            "{at} of {n} positions are counted and their window saved; run the same command with "
                        ),
                        Param::Resume,
                        " to continue"
                    )));
                }
                interrupt::check(at, n)?;
            }
            StepEnd::Completed | StepEnd::Periodic { .. } => break,
        }
    }
    if let Some(p) = period {
        emit_periodic(
            &values,
            proof_length(&criterion, p),
            handed,
            p,
            &mut |out| consumer.add(out),
        );
    }
    progress.set(n);
    Ok((values, period))
}

/// Hands on the values of positions `from`.. of `values` that the proven period `p` gives
/// from the period before `proof` (at most `from`).
fn emit_periodic(
    values: &PackedValues,
    proof: u64,
    from: u64,
    p: Period,
    emit: &mut dyn FnMut(&[u32]),
) {
    let n = values.len();
    let mut out = Vec::with_capacity(EMITTED as usize);
    let mut x = from.max(proof);
    while x < n {
        out.clear();
        let end = (x + EMITTED).min(n);
        out.extend((x..end).map(|y| {
            let (laps, r) = ((y - proof) / p.period + 1, (y - proof) % p.period);
            let saltus = u32::try_from(laps * p.saltus).unwrap_or(u32::MAX);
            values.get(proof - p.period + r).saturating_add(saltus)
        }));
        emit(&out);
        x = end;
    }
}
