//! The `rare-values` engine: take-and-break games of a finite code (octal games, Kayles,
//! Grundy's game) by sparse space, on a packed table (8 to 32 bits a value, widened as values
//! grow) that is resumable and memory-mapped like the other long runs.
//!
//! Values come block by block (`block.rs`). While the values show no sparse space the engine
//! searches every split: O(n) a position, O(n²) in all, both cores. From 4,096 positions on,
//! and again whenever the table has doubled or the rare positions have more than doubled, the
//! value histogram chooses the mask with the fewest rare positions ([`crate::sparse_space`]);
//! when rare positions are at most a fifth of all, a position then costs O(R) for the
//! splits with a rare heap (R rare positions) plus a scan of all splits only while the mex is a
//! rare value (nearly only at the rare positions themselves): O(N·R) in all. A rare mex of at
//! least half the bound is decided instead by the positions listed with such values, as long
//! as there are at most [`HIGH_MOST`] of them. When every rare
//! position lies within a block length, or there are at most [`IN_ORDER_RARE`] of them while
//! values stay below 256 (and the searches sweep at most [`HEAVY_SWEEP`] splits a position),
//! positions go one after another on one thread instead (`in_order.rs`): their rare heaps'
//! partners are the positions just computed. A second thread then marks the splits whose
//! partners lie far enough back ahead of them (`ahead.rs`).
//!
//! For finite codes the Guy–Smith criterion ([`crate::period`]) is tried at lengths growing
//! by a quarter, or sooner where a check that proved nothing says its best candidate would be
//! proven; once a period is proven the rest of the table is copied word by word (or, with
//! `until_period`, the table ends at the proof). A file-backed run's last checkpoint then holds
//! the positions that prove the period and the period, which is all `--resume` needs.

mod ahead;
mod block;
mod context;
mod first_splits;
mod group_width;
mod in_order;
mod isa;
mod kernels;
mod lane_rests;
mod marks;
mod ordered;
mod partner;
mod region;
mod rows;
mod search;
mod window;

pub use window::{Consumer, Saving, in_window};
use window::{Window, undecided};

use super::resumable::{self, StepEnd, Storage, Width};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::period::{Criterion, Finding, Period};
use crate::progress::Progress;
use crate::sparse_space::{best_split, rare_values};
use crate::table::packed::PackedValues;
use crate::table::passes;
use crate::table::resident::Resident;
use crate::table::{Table, ValueKind};
use context::{CodeMoves, Context, Mode, Value};
use first_splits::FirstSplits;
use lane_rests::LaneChoice;
use region::Regions;
use std::ops::ControlFlow;

/// Bits a value the storage has room for.
pub(crate) const WIDEST: u32 = 32;
/// Bits a value of a new table.
const FIRST_BITS: u32 = 8;
/// Sparse space is used once the rare positions are at most 1/`SPARSE_FROM` of all. A position
/// then costs the splits with a rare heap, but also a scan of every split whenever its mex is
/// rare, one split after another, where full mode XORs every split in order (in vector
/// registers while values stay below 64). Measured to 2^16 (user seconds, sparse against full):
/// `.127` (4% rare) 0.12 against 0.62 and `.172` (4%) 0.20 against 0.98, but `.371` (19%) 3.4
/// against 1.0, `.224` (29%) 2.2 against 1.0, `.06` (36%) 2.0 against 1.0 and `.104` (47%) 1.7
/// against 0.6; 1/5 keeps each code in its faster mode.
const SPARSE_FROM: u64 = 5;
/// Where the first choice of a mask is made. Before it every split is searched, O(n) a
/// position: `.356` (7 rare positions, the last at 43) spent most of its 2^16 run there while
/// the first choice came at 4,096 (14.3 ms against 7.9 ms now); a mask chosen this early is
/// chosen again at each doubling.
const FIRST_REVISION: u64 = 1024;
/// Where the first period check is made. Many codes have a short period from a small
/// preperiod (`.536`: period 5 from 1), which a check at 64 already proves; at 2^16 (`perf stat
/// -r 20`) `.536` took 4.4 ms against 5.7 ms with a first check at 1,024, `.577` 3.6 against
/// 4.6, the same tables. Checks are O(L) each and come at lengths growing by a quarter.
const FIRST_CHECK: u64 = 64;
/// Positions of a block. The options that reach into the block are searched in order, one
/// position after another (for a rare heap r ≤ 256 or so); a short block keeps that part
/// small against the part in parallel.
pub const BLOCK: u64 = 256;
/// Positions computed one after another between two checks for a stop, a period or a new
/// mask, when the rare positions all lie within a block length or are few: a 64th of the
/// positions before, at least [`IN_ORDER`] and at most [`IN_ORDER_MOST`], so that what follows
/// the stretches (the lanes chosen, blocks instead) is decided as often at every size.
const IN_ORDER: u64 = 4096;
/// The longest stretch one position after another. Each stretch builds its lanes and starts
/// the worker that marks ahead anew; `.167`'s run past 2^40 resumed near 2.0·10^11 on two
/// threads, 20 s a turn: 13.4–14.6·10^6 values a second with stretches of 65,536 positions
/// against 11.9–13.4 with 4,096 (one thread: the same, 8.5–9.1).
const IN_ORDER_MOST: u64 = 65536;
/// Rare positions few enough that positions go one after another while values stay within the
/// lanes' reach ([`in_order::LANES_BOUND`]): a block's rayon tasks and its in-order part then
/// cost more than the marks it shares between the cores. At 2^20 (2 threads) `.354`, 132 rare
/// positions, 0.64 s in blocks, 0.18 s one after another; above the lanes' reach `.6` (values
/// past 256) was 10–15% slower one after another.
const IN_ORDER_RARE: usize = 256;
/// Splits a position the searches of a stretch one position after another may sweep
/// ([`search::Witnesses::swept`]) before blocks share them between the cores instead, until
/// the mask is chosen again. To 2^18, `.166` (176 rare positions, mask 253) swept 350–600 a
/// position, 1.08 s one after another to 2^20 against 0.86 s in blocks; `.354`, `.056` and
/// `.1777` swept 10–30 past their first 10,000 positions. A stretch after which the lanes
/// change ([`lane_rests`]) does not count: `.245` sweeps 304 a position with the first
/// removal's smallest heaps marked, 188 with every removal's, and goes 7% faster to 2^20 one
/// position after another with those than in blocks.
const HEAVY_SWEEP: u64 = 256;

/// The values of the take-and-break game `game` (a finite code) below `n`, kept and resumed as
/// `storage` says. With `until_period`, the table ends at the shortest length that proves the
/// game's period, when one is proven below `n`.
pub fn compute(
    game: &Game,
    n: u64,
    until_period: bool,
    storage: Storage,
    progress: &Progress,
) -> Result<Table> {
    let Some((moves, criterion)) = finite_code(game).filter(|_| applies(game)) else {
        return Err(super::not_for(super::EngineKind::RareValues, game));
    };
    if storage.work_file.is_none() {
        super::check_in_memory_size(n)?;
    }
    let width = Width {
        start: FIRST_BITS,
        widest: WIDEST,
    };
    let (words, start) = resumable::open(game, n, width, storage)?;
    let mut values = PackedValues::zeroed_from(n, start.bits, words, start.done);
    let mut sieve: Option<Sieve> = None;
    // A run that ended at its proven period saved the positions that prove it, and the period.
    let mut period = start.period;
    if period.is_some_and(|p| criterion.proof_length(p) != Some(start.done)) {
        return Err(Error::cannot_resume(
            storage
                .work_file
                .map_or_else(Default::default, |file| file.path().to_path_buf()),
            format!(
                "has a checkpoint of '{}' that records a period its {} positions do not prove",
                game.spec, start.done
            ),
        ));
    }
    resumable::drive(
        game,
        n,
        WIDEST,
        storage,
        &mut values,
        start.done,
        |values, done, stop| {
            if let Some(p) = period {
                return Ok(StepEnd::Periodic {
                    at: proof_length(&criterion, p),
                    period: p,
                });
            }
            let sieve = sieve.get_or_insert_with(|| Sieve::resume(&moves, values, done));
            let mut stop = |at| {
                progress.set(at);
                stop(at)
            };
            let outcome = sieve.advance(values, done, &criterion, &mut stop, &mut |_| ())?;
            Ok(step_end(outcome, values, &criterion, true, &mut period))
        },
    )?;
    progress.set(n);
    // The positions past the proof repeat the period: the table ends there, or they are
    // copied from it.
    if let Some(p) = period {
        let proof = proof_length(&criterion, p);
        if until_period {
            values.truncate(proof);
        } else {
            values.extend_periodically(proof, p);
        }
    }
    Ok(Table {
        kind: ValueKind::Grundy,
        values,
        period,
        shape: crate::table::Shape::Line,
    })
}

/// True for the games this engine computes: normal play of a finite code whose moves leave at
/// most two heaps, or of rules written down whose removals are finite and whose moves leave at
/// most two heaps, two heaps of any sizes or unequal ones.
pub fn applies(game: &Game) -> bool {
    game.play == crate::game::Play::Normal
        && finite_code(game).is_some()
        && !game.take_break().is_some_and(|code| code.splits_in_three())
}

/// The moves of `game` and the criterion that proves its period, when it is a take-and-break
/// game of a finite code or such rules written down.
fn finite_code(game: &Game) -> Option<(CodeMoves, Criterion)> {
    let criterion = game.period_criterion()?;
    let Criterion::TakeBreak { last_removal, .. } = criterion else {
        return None;
    };
    let moves = match (game.take_break(), game.general()) {
        (Some(code), _) => CodeMoves::of(code, last_removal),
        (None, Some(general)) => CodeMoves::of_two_heaps(general.two_heap_removals()?),
        (None, None) => return None,
    };
    Some((moves, criterion))
}

/// How a step of a resumable run ended, from how its stretch did: a table completed `whole`
/// may prove its period at its end (a window cannot). A proven period is noted in `period`.
fn step_end(
    outcome: Advance,
    values: &PackedValues,
    criterion: &Criterion,
    whole: bool,
    period: &mut Option<Period>,
) -> StepEnd {
    let proven = match outcome {
        Advance::Stopped(at) => return StepEnd::Stopped { at },
        Advance::Periodic(p) => p,
        Advance::Completed if !whole => return StepEnd::Completed,
        Advance::Completed => match find_period(values, values.len(), criterion) {
            Finding::Proven(p) => p,
            Finding::Unproven(_) => return StepEnd::Completed,
        },
    };
    *period = Some(proven);
    StepEnd::Periodic {
        at: proof_length(criterion, proven),
        period: proven,
    }
}

/// The positions that prove the proven period `p`, which lie in the table.
fn proof_length(criterion: &Criterion, p: Period) -> u64 {
    criterion
        .proof_length(p)
        .expect("a proven period's proof lies in the table")
}

/// How a stretch of the run ended.
enum Advance {
    /// Every position is final.
    Completed,
    /// Asked to stop; positions below this are final.
    Stopped(u64),
    /// A period is proven from the positions below `Sieve::done`.
    Periodic(Period),
}

/// The state of a run besides its table: the histogram, the mask and the rare positions.
struct Sieve<'m> {
    moves: &'m CodeMoves,
    /// Positions below this are final.
    done: u64,
    /// `counts[v]`: positions of value v below `done`.
    counts: Vec<u64>,
    mode: Mode,
    /// Rare positions (x ≥ 1) below `done`, ascending, with their values.
    rare: Vec<(u64, u32)>,
    /// Where the mask is chosen again.
    next_revision: u64,
    /// Rare positions at the last choice.
    rare_at_revision: usize,
    /// The last stretch one position after another swept more than [`HEAVY_SWEEP`] splits a
    /// position: blocks follow until the mask is chosen again.
    heavy_sweep: bool,
    /// The rests whose smallest heaps the lanes of stretches one position after another mark.
    lane_choice: LaneChoice,
    /// Where a period is looked for next.
    next_check: u64,
    /// The positions below `done` whose value is at least `high_from`, with their values, while
    /// there are at most [`HIGH_MOST`] ([`context::Context::high`]).
    high: Option<Vec<(u64, u32)>>,
    /// Half the bound of the values: the least value `high` lists.
    high_from: u32,
    /// The small heaps that blocks search one value at a time.
    regions: Regions,
    /// What each block reuses from the one before.
    kept: block::Kept,
    /// The splits with the smallest heaps blocks mark before their searches.
    first_splits: FirstSplits,
    /// What a file-backed table keeps in the process ([`Sieve::keep`]).
    resident: Resident,
    /// The window of a run that does not keep its whole table.
    window: Option<Window>,
}

/// The small heaps a block's search reads beside the rare heaps: those of its region and those
/// searched one value at a time without one.
const SMALL_HEAPS: u64 = region::REGION_FIRST + search::SEARCHED;

/// The most positions of high values [`Sieve`] lists.
const HIGH_MOST: usize = 1 << 20;

impl<'m> Sieve<'m> {
    /// The state of a table whose positions below `done` are final.
    fn resume(moves: &'m CodeMoves, values: &PackedValues, done: u64) -> Sieve<'m> {
        let mut counts = Vec::new();
        values.each_once(0, done, |v| count(&mut counts, v));
        let mut sieve = Sieve {
            moves,
            done,
            counts,
            mode: Mode::Full,
            rare: Vec::new(),
            next_revision: FIRST_REVISION,
            rare_at_revision: 0,
            heavy_sweep: false,
            lane_choice: LaneChoice::default(),
            next_check: FIRST_CHECK,
            high: None,
            high_from: 0,
            regions: Regions::default(),
            kept: block::Kept::default(),
            first_splits: FirstSplits::default(),
            resident: Resident::default(),
            window: None,
        };
        sieve.list_high(values);
        while sieve.next_check <= done {
            sieve.next_check += sieve.next_check / 4;
        }
        if done >= FIRST_REVISION {
            sieve.revise(values);
        }
        sieve
    }

    /// A power of two above every value below `done` (at least 64).
    fn bound(&self) -> u32 {
        let largest = self.counts.len().saturating_sub(1) as u32;
        (largest + 1).next_power_of_two().max(64)
    }

    /// Lists the positions of high values anew when the bound has grown: by dropping those
    /// now below half of it, or by a scan of the table when they were too many to list.
    fn list_high(&mut self, values: &PackedValues) {
        let from = self.bound() / 2;
        if from == self.high_from {
            return;
        }
        self.high_from = from;
        match &mut self.high {
            Some(high) => high.retain(|&(_, v)| v >= from),
            None => {
                self.resident.reread();
                let mut high = Some(Vec::new());
                let mut x = 0;
                values.each_once(0, self.done, |v| {
                    if v >= from {
                        note_high(&mut high, x, v);
                    }
                    x += 1;
                });
                self.high = high;
            }
        }
    }

    /// Chooses the mask from the histogram, and the rare positions under it.
    fn revise(&mut self, values: &PackedValues) {
        self.resident.reread();
        self.mode = match best_split(&self.counts) {
            Some(split) if split.rare * SPARSE_FROM <= self.done => Mode::Sparse(split.mask),
            _ => Mode::Full,
        };
        self.list_rare(values, self.done);
        self.heavy_sweep = false;
        self.next_revision = 2 * self.done.max(FIRST_REVISION);
    }

    /// Lists the rare positions below `end` under the mode's mask (none in full mode).
    fn list_rare(&mut self, values: &PackedValues, end: u64) {
        self.rare.clear();
        if matches!(self.mode, Mode::Sparse(_)) {
            let mut x = 0;
            values.each_once(0, end, |v| {
                if self.mode.lists_rare(x, v) {
                    self.rare.push((x, v));
                }
                x += 1;
            });
        }
        self.rare_at_revision = self.rare.len();
    }

    /// Computes blocks from `done` until the table is complete, a period is proven, or `stop`
    /// breaks, handing each block's values to `emit` in order.
    fn advance(
        &mut self,
        values: &mut PackedValues,
        done: u64,
        criterion: &Criterion,
        stop: &mut dyn FnMut(u64) -> ControlFlow<()>,
        emit: &mut dyn FnMut(&[u32]),
    ) -> Result<Advance> {
        debug_assert_eq!(done, self.done);
        let n = values.len();
        partner::with_partner(|partner| {
            while self.done < n {
                self.enter_window()?;
                if self.done >= self.next_check {
                    self.resident.reread();
                    match find_period(values, self.done, criterion) {
                        Finding::Proven(p) => return Ok(Advance::Periodic(p)),
                        Finding::Unproven(open) => self.next_check = next_check(self.done, open),
                    }
                }
                let sparse_grew = matches!(self.mode, Mode::Sparse(_))
                    && self.rare.len() > 2 * self.rare_at_revision + 1024;
                if self.done >= self.next_revision || sparse_grew {
                    self.revise(values);
                }
                if self.head() == u64::MAX {
                    self.list_high(values);
                }
                let (out, mut written) = self.block(values, partner);
                if let Some(i) = out.iter().position(|&v| v == block::UNDECIDED) {
                    return Err(undecided(self.done + i as u64, self.head(), values.len()));
                }
                let largest = out.iter().copied().max().unwrap_or(0);
                if largest > values.capacity() {
                    let bits = PackedValues::bits_for(largest);
                    match self.head() {
                        u64::MAX => resumable::widen(values, bits, self.done)?,
                        _ => self.widen_window(values, bits),
                    }
                    self.resident.reread();
                    // The wider table holds the positions before the block only.
                    written = false;
                }
                for &v in &out {
                    let x = self.done;
                    if !written {
                        values.set(x, v);
                    }
                    count(&mut self.counts, v);
                    if self.mode.lists_rare(x, v) {
                        self.rare.push((x, v));
                    }
                    if v >= self.high_from {
                        note_high(&mut self.high, x, v);
                    }
                    self.done += 1;
                }
                emit(&out);
                self.keep(values);
                self.window_step(values, &out)?;
                if self.done < n && stop(self.done).is_break() {
                    return Ok(Advance::Stopped(self.done));
                }
            }
            Ok(Advance::Completed)
        })
    }

    /// Releases from the process the part of a file-backed table the next blocks do not read:
    /// in sparse mode a position x reads the rare heaps and the small heaps (the head: below
    /// the last rare position and [`SMALL_HEAPS`]) and their partners, which lie within the
    /// head plus the largest removal below x (the tail); the positions between, and those not
    /// computed yet, go back to the work file. In full mode every split is read, so everything
    /// stays.
    fn keep(&mut self, values: &PackedValues) {
        let Mode::Sparse(_) = self.mode else {
            return;
        };
        let last_rare = self.rare.last().map_or(0, |&(r, _)| r + 1);
        let head = last_rare.max(SMALL_HEAPS);
        let tail = self.tail(head);
        self.resident.keep(values, head, tail, self.done);
    }

    /// The first position of the tail behind `done` that a position reads with a head of
    /// `head` small heaps: the partners of its splits with a small heap, and its one-heap
    /// options (0 with a head of every heap, [`Sieve::head`] without a window).
    fn tail(&self, head: u64) -> u64 {
        let removal = self.moves.splits.iter().chain(&self.moves.singles).max();
        let reach = head.saturating_add(removal.copied().unwrap_or(0) + 1);
        self.done.saturating_sub(reach)
    }

    /// The values of the next block, and whether the table holds them already: a stretch one
    /// position after another writes each value that the table's width holds.
    fn block(&mut self, values: &mut PackedValues, partner: &partner::Partner) -> (Vec<u32>, bool) {
        let bound = self.bound();
        let rare_values = match self.mode {
            Mode::Sparse(mask) => rare_values(mask, Context::room(bound)),
            Mode::Full => Vec::new(),
        };
        let ctx = Context {
            moves: self.moves,
            mode: self.mode,
            rare: &self.rare,
            bound,
            rare_values: &rare_values,
            high: self.high.as_deref(),
            head: self.head(),
            scanned_first: self.first_splits.count,
            lane_rests: self.lane_choice.rests(),
        };
        let b = self.done;
        let regions = &mut self.regions;
        let kept = &mut self.kept;
        let few_rare = self.rare.len() <= IN_ORDER_RARE && bound <= in_order::LANES_BOUND;
        let in_order = matches!(self.mode, Mode::Sparse(_))
            && (self.rare.last().is_none_or(|&(r, _)| r < BLOCK)
                || (few_rare && !self.heavy_sweep));
        // A stretch ends where a period is looked for, so that a proof comes at its length.
        let end = values.len().min(self.next_check.max(b + 1));
        if in_order {
            let len = (b / 64).clamp(IN_ORDER, IN_ORDER_MOST).min(end - b);
            // Only the positions of the stretch are written: the rest stay zero.
            let upto = b + len;
            let (out, swept) = match values.bits() {
                8 => in_order::compute(typed_mut::<u8>(values, upto), b, len, &ctx, regions),
                16 => in_order::compute(typed_mut::<u16>(values, upto), b, len, &ctx, regions),
                _ => in_order::compute(typed_mut::<u32>(values, upto), b, len, &ctx, regions),
            };
            (self.lane_choice).note(ctx.lane_rests, swept, out.len() as u64, ctx.moves);
            // Heavy sweeps with lanes about to change say nothing of the next stretch's.
            let same_lanes = self.lane_choice.rests() == ctx.lane_rests;
            self.heavy_sweep = swept > HEAVY_SWEEP * out.len() as u64 && same_lanes;
            return (out, true);
        }
        let len = BLOCK.min(end - b);
        partner.keep_awake();
        let (out, searched) = match values.bits() {
            8 => block::compute(typed::<u8>(values), b, len, &ctx, regions, kept),
            16 => block::compute(typed::<u16>(values), b, len, &ctx, regions, kept),
            _ => block::compute(typed::<u32>(values), b, len, &ctx, regions, kept),
        };
        self.first_splits.note(searched, len);
        (out, false)
    }
}

/// Where a period is looked for next after none is proven from `done` values: a quarter
/// further on, or where the shortest proof of a candidate left `open` ends if that comes
/// sooner, but at least a sixteenth further on (checks read the whole table).
fn next_check(done: u64, open: Option<u64>) -> u64 {
    let later = done + done / 4;
    open.map_or(later, |at| at.max(done + done / 16 + 1).min(later))
}

/// What `criterion` proves from the first `len` values. The check reads the whole table; a
/// file-backed table releases what each wave of candidates has read.
fn find_period(values: &PackedValues, len: u64, criterion: &Criterion) -> Finding {
    passes::find_period(values, len, criterion)
        .expect("tables of the rare-values engine are 8, 16 or 32 bits wide")
}

/// The positions below `end` as a mutable slice of the table's stored type.
fn typed_mut<V: Value>(values: &mut PackedValues, end: u64) -> &mut [V] {
    values
        .as_mut_prefix::<V>(end)
        .expect("tables of the rare-values engine are 8, 16 or 32 bits wide")
}

/// The table as a slice of its stored type.
fn typed<V: Value>(values: &PackedValues) -> &[V] {
    values
        .as_slice::<V>()
        .expect("tables of the rare-values engine are 8, 16 or 32 bits wide")
}

/// Lists one more position x of a high value v, or stops listing past [`HIGH_MOST`].
fn note_high(high: &mut Option<Vec<(u64, u32)>>, x: u64, v: u32) {
    if let Some(list) = high {
        if list.len() < HIGH_MOST {
            list.push((x, v));
        } else {
            *high = None;
        }
    }
}

/// Counts one more position of value `v`.
fn count(counts: &mut Vec<u64>, v: u32) {
    let v = v as usize;
    if counts.len() <= v {
        counts.resize(v + 1, 0);
    }
    counts[v] += 1;
}

#[cfg(test)]
mod tests;
