//! The kernel: G(s, t) for s ≤ t, s < `rows`, t < `columns` (by symmetry G(t, s) too),
//! without the cubic mex. Cell (s, t) takes the mex of three value sets kept as bitsets: its
//! row s (the values G(s, t′), t′ < t), its column t (G(s′, t), s′ < s) and its diagonal
//! (G(s − j, t − j), j ≥ 1). The search starts at the row's own mex, which only grows, and
//! ORs the three sets a word at a time.
//!
//! The sets are rings of W bits, value v at bit v mod W, so a set does not grow with the
//! table: every value the cell (s, t) sees lies in [t − 2s, t + s] (G(x, y) ≤ x + y by
//! induction; G(x, y) ≥ y − 2x because a value v the row lacks is blocked in at most 2x
//! columns, by one cell of each earlier row in the column or in the diagonal, so the row's
//! cells below y where v is free have distinct values below v), which W ≥ 3s + 1 holds
//! without two values sharing a bit; a row clears the bits its mex passes. W needs to be no
//! more than rows + columns − 1, the number of possible values, so a square table needs 2N
//! bits a set (W is that, or 3·rows − 2, rounded up to a power of two).
//!
//! The search from the row's mex to the cell's value crosses about s values, so the sets are
//! read in blocks of [`BLOCK`] columns, row by row: a row's set and the block's column sets
//! stay in cache for the block's cells of the row instead of coming from memory for each.
//! Blocks run in parallel as a staircase: thread k takes the blocks j ≡ k (mod threads), and
//! block j starts its row s once block j − 1 has finished that row (its row set and the
//! diagonals crossing into block j are then up to date). Each ring word belongs to one row or
//! diagonal and is written by one thread at a time, in the order the staircase fixes, so
//! every thread count computes the same values.

use crate::error::Result;
use crate::interrupt;
use crate::progress::Progress;
use crate::table::reserve;
use std::sync::atomic::{
    AtomicBool, AtomicU64, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};

/// Columns computed together, row by row.
pub const BLOCK: u64 = 64;

/// What a finished block hands over: its first column t0, then for each of its columns t the
/// values G(0..=min(t, rows − 1), t). Called from several threads, in no fixed order.
pub type Blocks<'a> = &'a (dyn Fn(u64, &[Vec<u32>]) + Sync);

/// Bits of one ring: the values a cell of a strip of `rows` rows and `columns` columns sees,
/// rounded up to a power of two from 64 (so a word's place in the ring is a mask away).
fn ring_bits(rows: u64, columns: u64) -> u64 {
    (3 * rows - 2)
        .min(rows + columns - 1)
        .next_power_of_two()
        .max(64)
}

/// Diagonal slots: a diagonal's slot is reused once the block of its last cell is done; with
/// `threads` blocks in flight, these keep the diagonals in use apart.
fn slots(rows: u64, threads: u64) -> u64 {
    rows + (threads + 1) * BLOCK
}

/// Computes the strip and calls `blocks` with each finished block. `rows` ≤ `columns`,
/// rows + columns ≤ 2^32 (values fit in u32).
pub fn run(
    rows: u64,
    columns: u64,
    threads: usize,
    progress: &Progress,
    blocks: Blocks,
) -> Result<()> {
    assert!(rows >= 1 && rows <= columns && rows + columns <= 1 << 32);
    let threads = threads.clamp(1, columns.div_ceil(BLOCK).min(1024) as usize);
    let strip = Strip::new(rows, columns, threads)?;
    let cells = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for first in 0..threads {
            let (strip, cells) = (&strip, &cells);
            scope.spawn(move || strip.blocks_from(first, blocks, progress, cells));
        }
    });
    interrupt::check(cells.into_inner(), strip.cells())
}

/// The shared state of a run.
struct Strip {
    rows: u64,
    columns: u64,
    threads: usize,
    /// Words of a ring.
    words: usize,
    /// Row rings, row s at words s·words….
    row_sets: Vec<AtomicU64>,
    /// Each row's mex: every smaller value is in the row.
    mex: Vec<AtomicU64>,
    /// Diagonal rings, diagonal d in slot d mod `slots`.
    diagonals: Vec<AtomicU64>,
    slots: u64,
    /// Per thread: j·(rows + 1) + the rows of block j it has finished.
    done: Vec<AtomicU64>,
    /// Set when a thread stops early (an interrupt), so that none waits for it.
    stop: AtomicBool,
}

/// `len` zero words, or an input error naming `what` when they cannot be allocated.
fn zeroed(len: u64, what: &str) -> Result<Vec<AtomicU64>> {
    let mut words = reserve(len, what)?;
    words.extend((0..len).map(|_| AtomicU64::new(0)));
    Ok(words)
}

impl Strip {
    fn new(rows: u64, columns: u64, threads: usize) -> Result<Strip> {
        let words = ring_bits(rows, columns) / 64;
        let slots = slots(rows, threads as u64);
        Ok(Strip {
            rows,
            columns,
            threads,
            words: words as usize,
            row_sets: zeroed(rows * words, "the row sets of Wythoff's game")?,
            mex: zeroed(rows, "the row sets of Wythoff's game")?,
            diagonals: zeroed(slots * words, "the diagonal sets of Wythoff's game")?,
            slots,
            done: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            stop: AtomicBool::new(false),
        })
    }

    /// Cells of the strip.
    fn cells(&self) -> u64 {
        self.rows * (self.rows + 1) / 2 + (self.columns - self.rows) * self.rows
    }

    /// The blocks first, first + threads, … on this thread.
    fn blocks_from(&self, first: usize, blocks: Blocks, progress: &Progress, cells: &AtomicU64) {
        let mut sets = vec![0u64; BLOCK as usize * self.words];
        let mut values = vec![Vec::new(); BLOCK as usize];
        for j in (first as u64..self.columns.div_ceil(BLOCK)).step_by(self.threads) {
            if interrupt::requested() || self.stop.load(Relaxed) {
                self.stop.store(true, Relaxed);
                return;
            }
            let width = self.block(j, first, &mut sets, &mut values);
            if width == 0 {
                return;
            }
            blocks(j * BLOCK, &values[..width]);
            let computed: u64 = values[..width].iter().map(|v| v.len() as u64).sum();
            progress.set(cells.fetch_add(computed, Relaxed) + computed);
        }
    }

    /// Computes block j into `values` (one list a column) with `sets` as its column sets;
    /// returns its number of columns, 0 when stopped.
    fn block(&self, j: u64, me: usize, sets: &mut [u64], values: &mut [Vec<u32>]) -> usize {
        let (rows, words) = (self.rows, self.words);
        let stride = rows + 1;
        let (first, end) = (j * BLOCK, ((j + 1) * BLOCK).min(self.columns));
        let width = (end - first) as usize;
        sets.fill(0);
        values.iter_mut().for_each(Vec::clear);
        // The diagonals of these columns start at row 0.
        for d in first..end {
            let slot = (d % self.slots) as usize;
            for word in &self.diagonals[slot * words..(slot + 1) * words] {
                word.store(0, Relaxed);
            }
        }
        let last_row = (end - 1).min(rows - 1);
        let before = (me + self.threads - 1) % self.threads;
        let mut ready = if j == 0 || self.threads == 1 { rows } else { 0 };
        for s in 0..=last_row {
            if s >= ready {
                // Block j − 1 must have finished row s (or all its rows, when it has fewer).
                match self.wait(before, j - 1, s.min(first - 1) + 1) {
                    Some(finished) => ready = finished,
                    None => return 0,
                }
            }
            let from = first.max(s);
            // The diagonal t − s of each cell, in its slot (one division a row of the block).
            let mut slot = (from - s) % self.slots;
            for t in from..end {
                let column = (t - first) as usize;
                let set = &mut sets[column * words..(column + 1) * words];
                if s == t {
                    self.start_row(s, set);
                }
                values[column].push(self.cell(s, slot, set) as u32);
                slot = if slot + 1 == self.slots { 0 } else { slot + 1 };
            }
            self.done[me].store(j * stride + s + 1, Release);
        }
        width
    }

    /// Waits until block `j` (on thread `thread`) has finished `rows` rows; returns the rows
    /// it has finished, or None when a thread stopped.
    fn wait(&self, thread: usize, j: u64, rows: u64) -> Option<u64> {
        let start = j * (self.rows + 1);
        let mut spins = 0u32;
        loop {
            let done = self.done[thread].load(Acquire);
            if done >= start + rows {
                return Some((done - start).min(self.rows));
            }
            if self.stop.load(Relaxed) {
                return None;
            }
            // The thread waited for may be off its core (more threads than cores, or a busy
            // machine): give the core away after a short spin.
            if spins < 1 << 10 {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Row s's set words.
    fn row(&self, s: u64) -> &[AtomicU64] {
        let at = s as usize * self.words;
        &self.row_sets[at..at + self.words]
    }

    /// Row s begins at its diagonal cell (s, s) with the values G(s, t′) = G(t′, s), t′ < s:
    /// column s's set so far.
    fn start_row(&self, s: u64, set: &[u64]) {
        for (word, &bits) in self.row(s).iter().zip(set) {
            word.store(bits, Relaxed);
        }
        self.advance_mex(s, 0);
    }

    /// The mex of cell (s, ·) with its diagonal in `slot` and column set `set`; records the
    /// value in all three sets.
    fn cell(&self, s: u64, slot: u64, set: &mut [u64]) -> u64 {
        let row = self.row(s);
        let at = slot as usize * self.words;
        let diagonal = &self.diagonals[at..at + self.words];
        let mex = self.mex[s as usize].load(Relaxed);
        let start = (mex / 64) as usize & (self.words - 1);
        let below = (1u64 << (mex % 64)) - 1;
        // The union of the three sets a word at a time, from the mex's word round the ring.
        let union =
            |(r, (c, d)): (&AtomicU64, (&u64, &AtomicU64))| r.load(Relaxed) | c | d.load(Relaxed);
        let from = |w: usize| {
            row[w..]
                .iter()
                .zip(set[w..].iter().zip(&diagonal[w..]))
                .map(union)
        };
        let mut words = from(start).chain(from(0));
        let first = words.next().map(|used| used | below);
        let (offset, used) = first
            .into_iter()
            .chain(words)
            .enumerate()
            .find(|&(_, used)| used != u64::MAX)
            .expect("every value in the cell's window fits in the ring");
        let value = mex - mex % 64 + 64 * offset as u64 + u64::from((!used).trailing_zeros());
        let w = (start + offset) & (self.words - 1);
        let bit = 1u64 << (value % 64);
        set[w] |= bit;
        row[w].store(row[w].load(Relaxed) | bit, Relaxed);
        diagonal[w].store(diagonal[w].load(Relaxed) | bit, Relaxed);
        if value == mex {
            self.advance_mex(s, mex);
        }
        value
    }

    /// Moves row s's mex up from `mex` past the values the row holds, clearing their bits (so
    /// the ring keeps only values at or above the mex).
    fn advance_mex(&self, s: u64, mut mex: u64) {
        let row = self.row(s);
        let mut w = (mex / 64) as usize & (self.words - 1);
        loop {
            let bits = row[w].load(Relaxed);
            let from = mex % 64;
            let run = u64::from((!(bits >> from)).trailing_zeros());
            let run_mask = if run == 64 {
                u64::MAX
            } else {
                ((1u64 << run) - 1) << from
            };
            row[w].store(bits & !run_mask, Relaxed);
            mex += run;
            if from + run < 64 {
                break;
            }
            w = if w + 1 == self.words { 0 } else { w + 1 };
        }
        self.mex[s as usize].store(mex, Relaxed);
    }
}
