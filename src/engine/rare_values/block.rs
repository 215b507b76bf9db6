//! One block of consecutive positions [b, b + len): the option values each position gets from
//! splits whose heaps both lie below b, in parallel, then position by position in order the
//! options that reach into the block, the mex, and the scan of every split when the mex is
//! still a rare value.
//!
//! A position's option values are a bitset (`room` bits: one past the largest value, which
//! stays clear). The loops over one kind of split run over a chunk of consecutive positions
//! innermost: their partners are consecutive table entries, and consecutive marks go to
//! different positions' bitsets, so no mark waits for the one before; the chunk's bitsets stay
//! in the first-level cache (bytes a value instead were 1.7 times slower: the table streaming
//! through evicted them).

use crate::engine::isa::{Isa, detect};
use crate::game::{ONE, TWO, TakeBreak, WHOLE};
use crate::sparse_space::is_rare;
use rayon::prelude::*;
use std::ops::BitXor;

/// A table value as stored: u8, u16 or u32.
pub trait Value:
    Copy + Send + Sync + Into<u32> + TryFrom<u32> + BitXor<Output = Self> + PartialEq + bytemuck::Pod
{
}
impl<T> Value for T where
    T: Copy
        + Send
        + Sync
        + Into<u32>
        + TryFrom<u32>
        + BitXor<Output = T>
        + PartialEq
        + bytemuck::Pod
{
}

/// How the split options are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every split: O(n) a position.
    Full,
    /// Sparse space with this mask: the splits with a rare heap, then the splits of two
    /// common heaps only until every rare value below the mex is excluded.
    Sparse(u32),
}

impl Mode {
    /// True when position x with value `value` belongs in the list of rare positions: sparse
    /// mode, x ≥ 1 (position 0 is never a partner) and a rare value.
    #[inline]
    pub fn lists_rare(self, x: u64, value: u32) -> bool {
        matches!(self, Mode::Sparse(mask) if x > 0 && is_rare(value, mask))
    }
}

/// The moves of a finite code, by kind.
#[derive(Debug, Clone)]
pub struct Moves {
    /// Removals that may leave two heaps, ascending.
    pub splits: Vec<u64>,
    /// Removals j ≥ 1 that may leave one heap (from heaps larger than j).
    pub singles: Vec<u64>,
    /// Removals j ≥ 1 allowed when they take the whole heap.
    pub wholes: Vec<u64>,
    /// Splits must leave two different heaps.
    pub unequal: bool,
}

impl Moves {
    /// The moves of a finite code whose largest removal is `last_removal`.
    pub fn of(code: &TakeBreak, last_removal: u64) -> Moves {
        let bound = last_removal + 1;
        let positive = |bit| {
            let mut js = code.removals(bit, bound);
            js.retain(|&j| j > 0);
            js
        };
        Moves {
            splits: code.removals(TWO, bound),
            singles: positive(ONE),
            wholes: positive(WHOLE),
            unequal: code.unequal,
        }
    }

    /// What is left of x after each removal that may split it into two non-empty heaps
    /// (x − j ≥ 2), by increasing removal.
    #[inline]
    pub(super) fn rests(&self, x: u64) -> impl Iterator<Item = u64> + '_ {
        self.splits
            .iter()
            .take_while(move |&&j| x >= j + 2)
            .map(move |&j| x - j)
    }

    /// True when the split (a, s − a) is forbidden (`+unequal` and a = s − a).
    #[inline]
    pub(super) fn forbids(&self, a: u64, s: u64) -> bool {
        self.unequal && 2 * a == s
    }
}

/// What a block computation reads besides the table.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The game's moves.
    pub moves: &'a Moves,
    /// How splits are searched.
    pub mode: Mode,
    /// Rare positions below the block (x ≥ 1), ascending, with their values.
    pub rare: &'a [(u64, u32)],
    /// A power of two above every value below the block (at least 64).
    pub bound: u32,
    /// In sparse mode, the rare values below `bound` as a bitset of [`Context::room`] words
    /// ([`crate::sparse_space::rare_values`]).
    pub rare_values: &'a [u64],
    /// Every position below the block whose value is at least `bound / 2`, ascending, with its
    /// value, when they are few enough to be listed ([`High`]).
    pub high: Option<&'a [(u64, u32)]>,
}

impl Context<'_> {
    /// Words of a position's bitset of option values: one past `bound`, whose bit stays clear.
    pub fn room(bound: u32) -> usize {
        bound as usize / 64 + 1
    }
}

/// Positions a parallel task computes with one [`Witnesses`].
const CHUNK: usize = 64;

/// The values of positions b.. (at most `len` of them), given the final values below b in
/// `table`. The block ends early after the first value of at least `ctx.bound`, whose
/// successors' options need more room.
pub fn compute<V: Value>(
    table: &[V],
    b: u64,
    len: u64,
    ctx: &Context,
    regions: &mut Regions,
) -> Vec<u32> {
    let room = Context::room(ctx.bound);
    let region = regions.of(table, b, ctx.moves);
    let known = &table[..b as usize];
    let ahead = Ahead::of(ctx.moves);
    let mut seen = vec![0u64; len as usize * room];
    // The witnesses of a chunk serve the next one the same thread takes.
    seen.par_chunks_mut(room * CHUNK).enumerate().for_each_init(
        || Witnesses::new(room * 64),
        |witnesses, (c, chunk)| {
            let x0 = b + (c * CHUNK) as u64;
            let count = (chunk.len() / room) as u64;
            if ctx.mode == Mode::Full {
                for (i, marks) in chunk.chunks_exact_mut(room).enumerate() {
                    all_known_splits(table, b, x0 + i as u64, ctx.moves, marks);
                }
                return;
            }
            mark_known_splits(table, b, x0..x0 + count, ctx, chunk);
            let at = |q: u64| -> u32 { table[q as usize].into() };
            for (i, marks) in chunk.chunks_exact_mut(room).enumerate() {
                let mut search = Search {
                    table: known,
                    region,
                    witnesses,
                    rare_values: ctx.rare_values,
                    high: High::of(ctx, &[]),
                    scan_from: None,
                };
                search.cover(at, b, x0 + i as u64, ctx.moves, ahead, marks);
            }
        },
    );
    let mut out: Vec<u32> = Vec::with_capacity(len as usize);
    let mut found = Found::default();
    let mut witnesses = Witnesses::new(room * 64);
    for (i, marks) in seen.chunks_exact_mut(room).enumerate() {
        let x = b + i as u64;
        let search = Search {
            table: known,
            region,
            witnesses: &mut witnesses,
            rare_values: ctx.rare_values,
            high: High::of(ctx, &found.high),
            scan_from: None,
        };
        let block = Block {
            table,
            b,
            out: &out,
            found_rare: &found.rare,
            found_high: &found.high,
        };
        let value = block.value(x, ctx, marks, search);
        out.push(value);
        if !found.note(x, value, ctx) {
            break;
        }
    }
    out
}

/// The positions of a stretch so far that its later positions read apart from the table.
#[derive(Default)]
pub(super) struct Found {
    /// Rare positions, ascending, with their values.
    pub(super) rare: Vec<(u64, u32)>,
    /// Positions whose value is at least half the bound ([`High`]).
    pub(super) high: Vec<(u64, u32)>,
}

impl Found {
    /// Notes position x of value `value`; false when the stretch ends there, at a value that
    /// reaches the bound and so needs more room for its successors' options.
    pub(super) fn note(&mut self, x: u64, value: u32, ctx: &Context) -> bool {
        if ctx.mode.lists_rare(x, value) {
            self.rare.push((x, value));
        }
        if value >= ctx.bound / 2 {
            self.high.push((x, value));
        }
        value < ctx.bound
    }
}

/// Marks the values of the splits (r, s − r) of s with the rare heaps r of `rare` (position,
/// value) below s.
#[inline]
pub(super) fn mark_rare_splits<'r>(
    s: u64,
    rare: impl Iterator<Item = &'r (u64, u32)>,
    get: impl Fn(u64) -> u32,
    moves: &Moves,
    marks: &mut [u64],
) {
    let options = rare
        .filter(|&&(r, _)| r < s && !moves.forbids(r, s))
        .map(|&(r, rv)| rv ^ get(s - r));
    mark_all(marks, options);
}

/// Marks every value of `values` in a bitset. When every value is below 64 (a bitset of two
/// words, the second for the bound), the marks gather in a register rather than in memory,
/// where each would wait for the one before.
#[inline]
fn mark_all(marks: &mut [u64], values: impl Iterator<Item = u32>) {
    if let [word, _] = marks {
        *word |= values.fold(0, |w, v| w | 1 << v);
    } else {
        values.for_each(|v| mark(marks, v));
    }
}

/// Marks value v in a bitset.
#[inline]
fn mark(marks: &mut [u64], v: u32) {
    marks[(v / 64) as usize] |= 1 << (v % 64);
}

/// The smallest value from `from` on that the bitset `marks` lacks (at most the number of its
/// bits less one: values stay below the last word's top).
#[inline]
fn mex_from(marks: &[u64], from: u32) -> u32 {
    first_clear(from, marks.len(), |w| marks[w])
}

/// The smallest bit from `from` on that is clear in the bitset of `len` words `word(0)`,
/// `word(1)`, …; the last bit of the last word when every bit up to it is set.
#[inline]
fn first_clear(from: u32, len: usize, word: impl Fn(usize) -> u64) -> u32 {
    let last = len * 64 - 1;
    let from = (from as usize).min(last);
    let mut w = from / 64;
    let mut clear = !word(w) & (u64::MAX << (from % 64));
    while clear == 0 && w + 1 < len {
        w += 1;
        clear = !word(w);
    }
    if clear == 0 {
        return last as u32;
    }
    (w * 64) as u32 + clear.trailing_zeros()
}

/// Marks the values of every split of x whose heaps both lie below b (full mode).
fn all_known_splits<V: Value>(table: &[V], b: u64, x: u64, moves: &Moves, marks: &mut [u64]) {
    let at = |q: u64| -> u32 { table[q as usize].into() };
    for s in moves.rests(x) {
        // The partner s − a lies below b when a > s − b.
        for a in (s.saturating_sub(b) + 1).max(1)..=s / 2 {
            if !moves.forbids(a, s) {
                mark(marks, at(a) ^ at(s - a));
            }
        }
    }
}

/// Marks, in the bitsets `words` (a [`Context::room`] of words for each position of `xs`), the
/// values of the splits of those positions with a rare heap and of the first
/// [`SCANNED_FIRST`] splits with the smallest heaps, whose partners lie below b. Below a bound
/// of 1024 the marks go first into rows of one byte a value, a plain store
/// each, then are packed into the bitsets; beyond, into the bitsets directly.
fn mark_known_splits<V: Value>(
    table: &[V],
    b: u64,
    xs: std::ops::Range<u64>,
    ctx: &Context,
    words: &mut [u64],
) {
    match ctx.bound {
        64 => ByteRows::<64>::mark(table, b, xs, ctx, words),
        128 => ByteRows::<128>::mark(table, b, xs, ctx, words),
        256 => ByteRows::<256>::mark(table, b, xs, ctx, words),
        512 => ByteRows::<512>::mark(table, b, xs, ctx, words),
        1024 => ByteRows::<1024>::mark(table, b, xs, ctx, words),
        _ => BitRows::mark(table, b, xs, ctx, words),
    }
}

/// Bytes of the byte rows marked at once: half the first-level data cache, so that they stay
/// there while the table's partners stream through.
const BYTE_ROWS_BYTES: usize = 16 * 1024;

/// The option values of consecutive positions from `x0`. The loops over one split kind run
/// over the positions innermost, so that the partners they read are consecutive table
/// entries: one cache line serves 64 positions.
trait Rows {
    /// Marks value `with` XOR `partners[i]` at position `from` + i, for each i.
    fn mark_each<V: Value>(&mut self, from: u64, partners: &[V], with: u32);

    /// Marks value `with` XOR g(x − `shift`) at every position x of `xs`.
    #[inline]
    fn mark_shifted<V: Value>(
        &mut self,
        table: &[V],
        xs: std::ops::Range<u64>,
        shift: u64,
        with: u32,
    ) {
        if xs.is_empty() {
            return;
        }
        let partners = &table[(xs.start - shift) as usize..(xs.end - shift) as usize];
        self.mark_each(xs.start, partners, with);
    }
}

/// Bitsets of [`Context::room`] words a position.
struct BitRows<'a> {
    words: &'a mut [u64],
    room: usize,
    x0: u64,
}

impl BitRows<'_> {
    /// [`mark_known_splits`] straight into the bitsets.
    fn mark<V: Value>(
        table: &[V],
        b: u64,
        xs: std::ops::Range<u64>,
        ctx: &Context,
        words: &mut [u64],
    ) {
        let mut rows = BitRows {
            words,
            room: Context::room(ctx.bound),
            x0: xs.start,
        };
        rare_splits(&mut rows, table, b, xs.clone(), ctx);
        small_splits(&mut rows, table, b, xs, ctx.moves);
    }
}

impl Rows for BitRows<'_> {
    #[inline]
    fn mark_each<V: Value>(&mut self, from: u64, partners: &[V], with: u32) {
        let rows = self
            .words
            .chunks_exact_mut(self.room)
            .skip((from - self.x0) as usize);
        for (row, &t) in rows.zip(partners) {
            mark(row, with ^ t.into());
        }
    }
}

/// Rows of `B` bytes a position, one a value below `B` (a power of two): a mark is one store
/// with no bounds check, where a bitset needs a load, a shift and a store.
struct ByteRows<'a, const B: usize> {
    rows: &'a mut [[u8; B]],
    x0: u64,
}

impl<const B: usize> ByteRows<'_, B> {
    /// [`mark_known_splits`] through rows of `B` bytes, as many positions at a time as
    /// [`BYTE_ROWS_BYTES`] holds.
    fn mark<V: Value>(
        table: &[V],
        b: u64,
        xs: std::ops::Range<u64>,
        ctx: &Context,
        words: &mut [u64],
    ) {
        let room = Context::room(ctx.bound);
        let at_once = (BYTE_ROWS_BYTES / B).max(1);
        let mut bytes = vec![[0u8; B]; at_once];
        for (c, words) in words.chunks_mut(room * at_once).enumerate() {
            let x0 = xs.start + (c * at_once) as u64;
            let count = words.len() / room;
            let rows = &mut bytes[..count];
            rows.iter_mut().for_each(|row| row.fill(0));
            let mut byte_rows = ByteRows { rows, x0 };
            let part = x0..x0 + count as u64;
            rare_splits(&mut byte_rows, table, b, part.clone(), ctx);
            small_splits(&mut byte_rows, table, b, part, ctx.moves);
            for (row, bits) in byte_rows.rows.iter().zip(words.chunks_exact_mut(room)) {
                for (word, eight_bytes) in bits.iter_mut().zip(row.chunks_exact(64)) {
                    *word |= pack_bytes(eight_bytes);
                }
            }
        }
    }
}

impl<const B: usize> Rows for ByteRows<'_, B> {
    #[inline]
    fn mark_each<V: Value>(&mut self, from: u64, partners: &[V], with: u32) {
        let start = (from - self.x0) as usize;
        let rows = &mut self.rows[start..start + partners.len()];
        let mark = |row: &mut [u8; B], t: V| row[(with ^ t.into()) as usize & (B - 1)] = MARKED;
        // Groups of a fixed size unroll into marks at fixed offsets, with no loop bookkeeping
        // between them.
        let (row_groups, rows_left) = rows.as_chunks_mut::<UNROLLED>();
        let (partner_groups, partners_left) = partners.as_chunks::<UNROLLED>();
        for (rows, partners) in row_groups.iter_mut().zip(partner_groups) {
            for (row, &t) in rows.iter_mut().zip(partners) {
                mark(row, t);
            }
        }
        for (row, &t) in rows_left.iter_mut().zip(partners_left) {
            mark(row, t);
        }
    }
}

/// Marks [`ByteRows::mark_each`] makes in one unrolled group.
const UNROLLED: usize = 8;

/// A marked byte of a [`ByteRows`] row: its top bit, which [`pack_bytes`] gathers.
const MARKED: u8 = 0x80;

/// The bitset of 64 bytes, each [`MARKED`] or 0: bit i set when byte i is marked. Eight
/// bytes at a time, one multiplication gathers their top bits into the top byte.
#[inline]
fn pack_bytes(bytes: &[u8]) -> u64 {
    bytes
        .chunks_exact(8)
        .enumerate()
        .fold(0, |bits, (k, eight)| {
            let top_bits =
                u64::from_le_bytes(eight.try_into().expect("eight bytes")) & 0x8080_8080_8080_8080;
            bits | (top_bits.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * k)
        })
}

/// Marks, for the positions `xs`, the values of the splits with a rare heap r whose partner
/// lies below b.
fn rare_splits<V: Value>(
    rows: &mut impl Rows,
    table: &[V],
    b: u64,
    xs: std::ops::Range<u64>,
    ctx: &Context,
) {
    for &j in &ctx.moves.splits {
        for &(r, rv) in ctx.rare {
            // r < s = x − j, and the partner x − j − r below b.
            let from = xs.start.max(r + j + 1);
            let to = xs.end.min(b + j + r);
            // Under +unequal the split (r, r) of x = 2r + j is not a move.
            let equal = 2 * r + j;
            if ctx.moves.unequal && (from..to).contains(&equal) {
                rows.mark_shifted(table, from..equal, j + r, rv);
                rows.mark_shifted(table, equal + 1..to, j + r, rv);
            } else {
                rows.mark_shifted(table, from..to, j + r, rv);
            }
        }
    }
}

/// Marks, for the positions `xs`, the values of the splits by the first splitting removal
/// j whose small heap is one of the [`SCANNED_FIRST`] smallest that leave every partner
/// below b.
fn small_splits<V: Value>(
    rows: &mut impl Rows,
    table: &[V],
    b: u64,
    xs: std::ops::Range<u64>,
    moves: &Moves,
) {
    let Some(&j) = moves.splits.first() else {
        return;
    };
    if xs.start < j + 2 {
        return;
    }
    let first = (xs.end - 1 - j).saturating_sub(b) + 1;
    // Small heaps below their partner at every position.
    let end = (first + SCANNED_FIRST).min((xs.start - j).div_ceil(2));
    for a in first.max(1)..end {
        let va: u32 = table[a as usize].into();
        rows.mark_shifted(table, xs.clone(), j + a, va);
    }
}

/// The values of a block known so far, with the table below it.
pub(super) struct Block<'a, V> {
    pub(super) table: &'a [V],
    pub(super) b: u64,
    pub(super) out: &'a [u32],
    pub(super) found_rare: &'a [(u64, u32)],
    /// The block's positions so far whose value is at least `bound / 2`.
    pub(super) found_high: &'a [(u64, u32)],
}

impl<V: Value> Block<'_, V> {
    /// The value of position q (below the last one computed).
    #[inline]
    fn get(&self, q: u64) -> u32 {
        if q < self.b {
            self.table[q as usize].into()
        } else {
            self.out[(q - self.b) as usize]
        }
    }

    /// The value of x, from the marks of [`known_splits`] and [`Search::cover`], the options
    /// that reach into the block and the one-heap options; in sparse mode, if the mex is a
    /// rare value, from a scan of every split.
    pub(super) fn value(
        &self,
        x: u64,
        ctx: &Context,
        marks: &mut [u64],
        mut search: Search<V>,
    ) -> u32 {
        let get = |q| self.get(q);
        let moves = ctx.moves;
        if moves.wholes.contains(&x) {
            mark(marks, 0);
        }
        for &j in moves.singles.iter().take_while(|&&j| j < x) {
            mark(marks, get(x - j));
        }
        // Options reach into the block only past its first position.
        for s in moves.rests(x).filter(|_| x > self.b) {
            let above = s.saturating_sub(self.b);
            match ctx.mode {
                Mode::Sparse(_) => {
                    let within = ctx.rare.iter().take_while(|&&(r, _)| r <= above);
                    let found = self.found_rare.iter().take_while(|&&(r, _)| r < s);
                    mark_rare_splits(s, within.chain(found), get, moves, marks);
                }
                Mode::Full => {
                    for a in 1..=above.min(s / 2) {
                        if !moves.forbids(a, s) {
                            mark(marks, get(a) ^ get(s - a));
                        }
                    }
                }
            }
        }
        let mex = mex_from(marks, 0);
        let Mode::Sparse(mask) = ctx.mode else {
            return mex;
        };
        if !is_rare(mex, mask) {
            return mex;
        }
        // The splits whose larger heap lies in the block, which the search below does not
        // reach: at most a block length of them a removal.
        for s in moves.rests(x).filter(|&s| s >= self.b) {
            for a in (1..=s - self.b).take_while(|&a| a <= s / 2) {
                if !moves.forbids(a, s) {
                    mark(marks, get(a) ^ get(s - a));
                }
            }
        }
        search.cover(get, x, x, moves, Ahead::First, marks);
        let mut mex = mex_from(marks, 0);
        if let Some(high) = High::of(ctx, self.found_high) {
            while mex >= high.from && is_rare(mex, mask) {
                if !moves.rests(x).any(|s| high.reaches(s, mex, x, get, moves)) {
                    return mex;
                }
                mark(marks, mex);
                mex = mex_from(marks, mex);
            }
        }
        if !is_rare(mex, mask) {
            return mex;
        }
        // Only splits of two common heaps can exclude a rare mex: scan every split, from the
        // middle out, until the mex is common or none is left.
        for s in moves.rests(x) {
            for a in (1..=s / 2).rev() {
                if !moves.forbids(a, s) {
                    let v = get(a) ^ get(s - a);
                    mark(marks, v);
                    if v == mex {
                        mex = mex_from(marks, mex);
                        if !is_rare(mex, mask) {
                            return mex;
                        }
                    }
                }
            }
        }
        mex
    }
}

/// Splits with the smallest heaps allowed that are scanned, a [`BATCH`] at a time, before the
/// rare values still missing are searched one by one.
const SCANNED_FIRST: u64 = 256;
/// Splits scanned between two checks for missing rare values.
const BATCH: u64 = 32;
/// Splits searched for each missing rare value outside the [`Region`].
const SEARCHED: u64 = 1 << 16;

/// Up to which common value `marks` lacks [`Search::cover`] covers the rare values.
#[derive(Clone, Copy)]
enum Ahead {
    /// The first: every other option of the position is marked, so that value is the mex
    /// unless a rare value below it is missing.
    First,
    /// The second: options still to come (those inside the block) may add the first.
    Second,
}

impl Ahead {
    /// How far the rare values of a block's positions are covered before the options inside
    /// the block are known. Without one-heap moves those options are the few splits with a
    /// rare heap shorter than a block, which (in Grundy's game) never filled the first common
    /// value a position lacked in 3,000 positions sampled: covering up to it is enough, and
    /// [`Block::value`] covers more, in order, when it is not. With one-heap moves the
    /// options x − j inside the block often fill it.
    fn of(moves: &Moves) -> Ahead {
        if moves.singles.is_empty() {
            Ahead::First
        } else {
            Ahead::Second
        }
    }
}

/// Where [`Search::cover`] searches and what it remembers.
pub(super) struct Search<'a, V> {
    /// The final values: every position below the slice's length.
    pub(super) table: &'a [V],
    pub(super) region: Option<Region<'a, V>>,
    pub(super) witnesses: &'a mut Witnesses,
    /// The rare values as a bitset ([`Context::rare_values`]).
    pub(super) rare_values: &'a [u64],
    /// The positions of high values below `below` of [`Search::cover`], when listed.
    pub(super) high: Option<High<'a>>,
    /// Scan the splits with the smallest heaps first, from this heap on (the smaller ones
    /// marked already), unless [`mark_known_splits`] has marked them.
    pub(super) scan_from: Option<u64>,
}

impl<V: Value> Search<'_, V> {
    /// Marks rare values that splits of x into two heaps below `below` exclude: every rare
    /// value below the first or second common value `marks` lacks, as `ahead` says. Removal
    /// by removal while a rare value is missing, the splits with the smallest heaps come
    /// first, a batch at a time, marking whatever values they have; then each rare value
    /// still missing is looked for alone: at the remembered [`Witnesses`], then in the
    /// [`Region`], which needs one comparison a split.
    fn cover(
        &mut self,
        at: impl Fn(u64) -> u32,
        below: u64,
        x: u64,
        moves: &Moves,
        ahead: Ahead,
        marks: &mut [u64],
    ) {
        let rare = self.rare_values;
        let common_from =
            |marks: &[u64], from| first_clear(from, marks.len(), |w| marks[w] | rare[w]);
        let missing_from =
            |marks: &[u64], from| first_clear(from, marks.len(), |w| marks[w] | !rare[w]);
        let first = common_from(marks, 0);
        let limit = match ahead {
            Ahead::First => first,
            Ahead::Second => common_from(marks, first + 1),
        };
        for (k, s) in moves.rests(x).enumerate() {
            if missing_from(marks, 0) >= limit {
                return;
            }
            // The first removal's smallest heaps may be marked already; the others' are not.
            let scan_from = if k == 0 { self.scan_from } else { Some(1) };
            self.cover_rest(&at, below, s, scan_from, moves, limit, marks);
        }
    }

    /// [`Search::cover`] for the splits (a, s − a) of one rest s, with the smallest heaps
    /// scanned from `scan_from` on (none when `None`).
    #[allow(clippy::too_many_arguments)]
    fn cover_rest(
        &mut self,
        at: &impl Fn(u64) -> u32,
        below: u64,
        s: u64,
        scan_from: Option<u64>,
        moves: &Moves,
        limit: u32,
        marks: &mut [u64],
    ) {
        // Splits (a, s − a) with 1 ≤ a ≤ s / 2 and s − a < below.
        let lo = (s.saturating_sub(below) + 1).max(1);
        let hi = s / 2;
        if lo > hi {
            return;
        }
        let rare = self.rare_values;
        let missing_from =
            |marks: &[u64], from| first_clear(from, marks.len(), |w| marks[w] | !rare[w]);
        let last = if moves.forbids(hi, s) { hi - 1 } else { hi };
        // Partners in `table`: s − a below its length.
        if let Some(from) = scan_from {
            let mut a = lo
                .max(from)
                .max((s + 1).saturating_sub(self.table.len() as u64));
            let scanned = (a + SCANNED_FIRST).min(last + 1);
            while a < scanned && missing_from(marks, 0) < limit {
                let next = (a + BATCH).min(scanned);
                mark_splits(self.table, s, a..next, marks);
                a = next;
            }
        }
        let searched = lo..(lo + SEARCHED).min(hi + 1);
        let valid = |a: u64| lo <= a && a <= hi && !moves.forbids(a, s);
        let mut v = missing_from(marks, 0);
        while v < limit {
            let remembered = self.witnesses.heaps[v as usize]
                .iter()
                .any(|&q| q < s && valid(s - q) && at(s - q) ^ at(q) == v);
            let found = remembered
                || match self.high {
                    Some(high) if v >= high.from => high.reaches(s, v, below, at, moves),
                    _ => false,
                }
                || match self.region {
                    Some(region) => region.find(self.table, s, v),
                    None => searched
                        .clone()
                        .find(|&a| !moves.forbids(a, s) && at(a) ^ at(s - a) == v),
                }
                .map(|a| self.witnesses.put(v, s - a))
                .is_some();
            if found {
                mark(marks, v);
            }
            v = missing_from(marks, v + 1);
        }
    }
}

/// The positions whose value is at least `from`, half the bound, with their values: every one
/// below a block, then those of the block so far. Values lie below 2 · `from`, so a split whose
/// value is at least `from` has exactly one heap listed here: searching these heaps decides
/// whether such a value is an option, where a search of every split would take O(n). In
/// Grundy's game the values from 256 on, which the mex reaches every 40,000 positions or so
/// near 10^9, have 169,006 positions below 1.36 · 10^9.
#[derive(Clone, Copy)]
pub(super) struct High<'a> {
    below: &'a [(u64, u32)],
    since: &'a [(u64, u32)],
    from: u32,
}

impl<'a> High<'a> {
    /// The high positions of `ctx` followed by `since`, when `ctx` lists them.
    pub(super) fn of(ctx: &Context<'a>, since: &'a [(u64, u32)]) -> Option<High<'a>> {
        ctx.high.map(|below| High {
            below,
            since,
            from: ctx.bound / 2,
        })
    }

    /// True when a split (p, s − p) with both heaps below `below` has value v (at least
    /// `from`).
    fn reaches(&self, s: u64, v: u32, below: u64, at: impl Fn(u64) -> u32, moves: &Moves) -> bool {
        let end = below.min(s);
        self.below
            .iter()
            .chain(self.since)
            .take_while(|&&(p, _)| p < end)
            .any(|&(p, pv)| s - p < below && !moves.forbids(p, s) && at(s - p) ^ pv == v)
    }
}

/// Marks the values of the splits (a, s − a) for the small heaps a in `heaps` (their partners
/// within `table`).
#[inline]
fn mark_splits<V: Value>(table: &[V], s: u64, heaps: std::ops::Range<u64>, marks: &mut [u64]) {
    let small = &table[heaps.start as usize..heaps.end as usize];
    let large = &table[(s + 1 - heaps.end) as usize..=(s - heaps.start) as usize];
    let values = small.iter().zip(large.iter().rev());
    mark_all(marks, values.map(|(&a, &b)| (a ^ b).into()));
}

/// The first small heap of the region searched one value at a time: past every position of
/// a block, so that the partner s − a of a split lies below the block.
const REGION_FIRST: u64 = super::BLOCK + 1;
/// Splits (a, s − a) with a small heap a in [REGION_FIRST, REGION_FIRST + REGION_LEN): the
/// values of the small heaps in reverse, so that a search compares two slices running the same
/// way, which the compiler vectorises.
#[derive(Clone, Copy)]
pub(super) struct Region<'a, V> {
    reversed: &'a [V],
    /// The instruction set [`Region::find`] compares with.
    isa: Isa,
}

/// The most small heaps of a [`Region`].
const REGION_MOST: usize = 1 << 15;

/// The small heaps of the last [`Region`] built, in reverse, kept from block to block: a region
/// grows with the block's start only up to [`REGION_MOST`] heaps (blocks from about 66,000 on),
/// so later blocks share one instead of copying it anew each time. One `Regions` serves the
/// blocks of one table only.
#[derive(Default)]
pub struct Regions {
    /// The values as bytes, in words so that any [`Value`] may view them.
    words: Vec<u32>,
    /// Small heaps held.
    len: usize,
    /// Bytes a value held.
    width: usize,
}

impl Regions {
    /// The region of a block starting at b, when every split of the block's positions has its
    /// small heap in it, below its partner.
    pub(super) fn of<V: Value>(
        &mut self,
        table: &[V],
        b: u64,
        moves: &Moves,
    ) -> Option<Region<'_, V>> {
        let j = *moves.splits.last()?;
        // Every small heap a < end must stay below half of every s ≥ b − j, for every
        // splitting removal j.
        let room =
            ((b.saturating_sub(j) / 2).saturating_sub(REGION_FIRST) as usize).min(REGION_MOST);
        let len = room / LANES * LANES;
        if len == 0 {
            return None;
        }
        let width = size_of::<V>();
        if (self.len, self.width) != (len, width) {
            // Positions below b are final, so a region of the same length and width holds the
            // same values.
            self.words = vec![0; len * width / size_of::<u32>()];
            let end = REGION_FIRST as usize + len;
            let heaps = table[REGION_FIRST as usize..end].iter().rev();
            let reversed: &mut [V] = bytemuck::cast_slice_mut(&mut self.words);
            reversed.iter_mut().zip(heaps).for_each(|(r, &v)| *r = v);
            (self.len, self.width) = (len, width);
        }
        Some(Region {
            reversed: bytemuck::cast_slice(&self.words),
            isa: detect(),
        })
    }
}

impl<V: Value> Region<'_, V> {
    /// The small heap a of a split (a, s − a) of value v, if the region has one.
    #[inline]
    fn find(&self, table: &[V], s: u64, v: u32) -> Option<u64> {
        let v = V::try_from(v).ok()?;
        let reversed = self.reversed;
        match self.isa {
            Isa::Portable => find_in_region(reversed, table, s, v),
            // SAFETY: the feature was detected at run time.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { find_in_region_avx2(reversed, table, s, v) },
            // SAFETY: the feature was detected at run time.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { find_in_region_avx512(reversed, table, s, v) },
        }
    }
}

/// [`find_in_region`] compiled with AVX-512: 32 values of 16 bits a comparison.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn find_in_region_avx512<V: Value>(reversed: &[V], table: &[V], s: u64, v: V) -> Option<u64> {
    find_in_region(reversed, table, s, v)
}

/// [`find_in_region`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn find_in_region_avx2<V: Value>(reversed: &[V], table: &[V], s: u64, v: V) -> Option<u64> {
    find_in_region(reversed, table, s, v)
}

/// The small heap a of a split (a, s − a) of value v whose small heap the region's reversed
/// values `reversed` hold, if there is one.
#[inline(always)]
fn find_in_region<V: Value>(reversed: &[V], table: &[V], s: u64, v: V) -> Option<u64> {
    // reversed[i] is heap end − 1 − i, whose partner is s − end + 1 + i.
    let len = reversed.len();
    let end = REGION_FIRST + len as u64;
    let first = (s + 1 - end) as usize;
    let partners = &table[first..first + len];
    let chunks = partners
        .chunks_exact(LANES)
        .zip(reversed.chunks_exact(LANES));
    for (c, (p, r)) in chunks.enumerate() {
        if p.iter()
            .zip(r)
            .fold(false, |hit, (&x, &y)| hit | (x ^ y == v))
        {
            let i = c * LANES + p.iter().zip(r).position(|(&x, &y)| x ^ y == v)?;
            return Some(end - 1 - i as u64);
        }
    }
    None
}

/// Splits a [`Region`] compares at once.
const LANES: usize = 64;

/// Witnesses remembered a value.
const REMEMBERED: usize = 4;

/// The larger heaps q of the last splits (s − q, q) found to have each rare value. Values of
/// nearby small heaps often repeat with a short shift (Grundy's game nearly repeats with shift
/// 3), so for a later s the split (s − q, q) often has the same value: one comparison instead
/// of a search.
pub(super) struct Witnesses {
    heaps: Vec<[u64; REMEMBERED]>,
}

impl Witnesses {
    pub(super) fn new(room: usize) -> Witnesses {
        Witnesses {
            heaps: vec![[u64::MAX; REMEMBERED]; room],
        }
    }

    fn put(&mut self, v: u32, q: u64) {
        let slot = &mut self.heaps[v as usize];
        slot.rotate_right(1);
        slot[0] = q;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::xorshift;

    #[test]
    fn packed_bytes_are_the_marked_ones() {
        for seed in 0..200u64 {
            let bits = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seed << 7);
            let bytes: Vec<u8> = (0..64)
                .map(|i| if bits >> i & 1 == 1 { MARKED } else { 0 })
                .collect();
            assert_eq!(pack_bytes(&bytes), bits);
        }
    }

    /// Values from 256 on come only from splits with a heap of such a value: a block whose
    /// mex reaches them, rare or common, gets the mex over every split, with the high heaps
    /// listed and without.
    #[test]
    fn listed_high_heaps_decide_values_from_half_the_bound() {
        let moves = Moves {
            splits: vec![0],
            singles: vec![],
            wholes: vec![],
            unequal: true,
        };
        let (mask, bound) = (510, 512);
        let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
        let mut next = xorshift(0x5851_F42D_4C95_7F2D);
        let mut random = |below: u64| next() % below;
        let mut rare_high_values = 0;
        for highs in [20, 120, 250] {
            let b = 4000usize;
            let len = 200usize;
            let mut table: Vec<u16> = (0..b).map(|_| random(256) as u16).collect();
            table[0] = 0;
            for _ in 0..highs {
                let at = 1 + random(b as u64 - 1) as usize;
                table[at] = 256 + random(4) as u16;
            }
            // The mex over every split, position after position.
            let mut want = table.clone();
            for x in b..b + len {
                let mut seen = [false; 1024];
                for a in 1..x.div_ceil(2) {
                    seen[(want[a] ^ want[x - a]) as usize] = true;
                }
                want.push((0..).find(|&v| !seen[v]).unwrap() as u16);
            }
            let listed = |keep: fn(u32) -> bool| -> Vec<(u64, u32)> {
                (1..b)
                    .filter(|&x| keep(table[x] as u32))
                    .map(|x| (x as u64, table[x] as u32))
                    .collect()
            };
            let rare = listed(|v| is_rare(v, 510));
            let high = listed(|v| v >= 256);
            for listed_high in [Some(&high[..]), None] {
                let ctx = Context {
                    moves: &moves,
                    mode: Mode::Sparse(mask),
                    rare: &rare,
                    bound,
                    rare_values: &rare_values,
                    high: listed_high,
                };
                let got = compute(&table, b as u64, len as u64, &ctx, &mut Regions::default());
                let expected: Vec<u32> = want[b..b + got.len()].iter().map(|&v| v as u32).collect();
                assert_eq!(
                    got,
                    expected,
                    "{highs} high heaps, listed: {}",
                    listed_high.is_some()
                );
            }
            rare_high_values += want[b..]
                .iter()
                .filter(|&&v| v >= 256 && is_rare(v as u32, mask))
                .count();
        }
        assert!(rare_high_values > 0, "the test needs rare values past 256");
    }

    #[test]
    fn byte_rows_mark_what_bitsets_mark() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut random = |below: u64| next() % below;
        let codes = [
            (vec![0], vec![], true),         // Grundy's game: splits into unequal heaps
            (vec![1, 2], vec![1, 2], false), // Kayles
            (vec![3, 5], vec![], false),     // 0.00404
        ];
        for bound in [64u32, 128, 256, 512, 1024, 2048] {
            for (splits, singles, unequal) in &codes {
                let moves = Moves {
                    splits: splits.clone(),
                    singles: singles.clone(),
                    wholes: vec![],
                    unequal: *unequal,
                };
                let table: Vec<u16> = (0..6000).map(|_| random(bound as u64) as u16).collect();
                let b = 5000;
                let rare: Vec<(u64, u32)> = (1..b)
                    .filter(|_| random(8) == 0)
                    .map(|r| (r, table[r as usize] as u32))
                    .collect();
                let ctx = Context {
                    moves: &moves,
                    mode: Mode::Sparse(bound - 2),
                    rare: &rare,
                    bound,
                    rare_values: &[],
                    high: None,
                };
                let room = Context::room(bound);
                // Positions marked at once (beyond, the two choose their small heaps
                // differently, both correct).
                let len = (BYTE_ROWS_BYTES as u64 / bound as u64).clamp(1, 64);
                for xs in [b..b + len, b + 100..b + 100 + len] {
                    let len = (xs.end - xs.start) as usize;
                    let mut bytes = vec![0u64; len * room];
                    mark_known_splits(&table, b, xs.clone(), &ctx, &mut bytes);
                    let mut bits = vec![0u64; len * room];
                    BitRows::mark(&table, b, xs.clone(), &ctx, &mut bits);
                    assert_eq!(bytes, bits, "bound {bound}, splits {splits:?}, {xs:?}");
                    assert!(bits.iter().any(|&w| w != 0));
                }
            }
        }
    }

    /// The search covers the rare values of every splitting removal, not only the first: with
    /// removals 2 and 3 and bit 5 of a value set exactly at odd positions, the splits of an
    /// even rest have values below 32 and those of an odd rest values from 32 on, so half the
    /// rare values of each position come from one removal only.
    #[test]
    fn every_splitting_removal_is_searched() {
        let moves = Moves {
            splits: vec![2, 3],
            singles: vec![],
            wholes: vec![],
            unequal: false,
        };
        let (mask, bound) = (63, 64);
        let room = Context::room(bound);
        let rare_values = crate::sparse_space::rare_values(mask, room);
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let table: Vec<u16> = (0..12_100u64)
            .map(|x| (next() % 32) as u16 | if x % 2 == 1 { 32 } else { 0 })
            .collect();
        let b = 12_000u64;
        let known = &table[..b as usize];
        let mut regions = Regions::default();
        let region = regions.of(known, b, &moves);
        let covered_below = REGION_FIRST + region.map_or(0, |r| r.reversed.len() as u64);
        let at = |q: u64| -> u32 { table[q as usize].into() };
        let mut witnesses = Witnesses::new(room * 64);
        let mut second_only = 0;
        for x in b..b + 40 {
            // Every common value marked: the search covers every rare value below 65.
            let mut marks = vec![0u64; room];
            (0..bound)
                .filter(|&v| !is_rare(v, mask))
                .for_each(|v| mark(&mut marks, v));
            let mut search = Search {
                table: known,
                region,
                witnesses: &mut witnesses,
                rare_values: &rare_values,
                high: None,
                scan_from: Some(1),
            };
            search.cover(at, b, x, &moves, Ahead::First, &mut marks);
            let has = |s: u64, v: u32| {
                ((s + 1).saturating_sub(b).max(1)..=(s / 2).min(covered_below - 1))
                    .any(|a| at(a) ^ at(s - a) == v)
            };
            for v in (0..bound).filter(|&v| is_rare(v, mask)) {
                let (first, second) = (has(x - 2, v), has(x - 3, v));
                let marked = marks[(v / 64) as usize] >> (v % 64) & 1 == 1;
                assert_eq!(marked, first || second, "x = {x}, v = {v}");
                second_only += usize::from(second && !first);
            }
        }
        assert!(
            second_only > 0,
            "the test needs values of the second removal only"
        );
    }

    /// A region finds the first split of each value, and every instruction set this processor
    /// has finds the same one.
    #[test]
    fn regions_find_the_first_split_of_a_value_with_every_instruction_set() {
        let moves = Moves {
            splits: vec![0],
            singles: vec![],
            wholes: vec![],
            unequal: true,
        };
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let table: Vec<u16> = (0..20_000).map(|_| (next() % 300) as u16).collect();
        let b = 12_000;
        let mut regions = Regions::default();
        let region = regions
            .of(&table, b, &moves)
            .expect("a region past 2 · 257");
        let len = region.reversed.len() as u64;
        let mut isas = vec![Isa::Portable, detect()];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            isas.push(Isa::Avx2);
        }
        let (mut found, mut missed) = (0, 0);
        for s in (b..b + 40).step_by(7) {
            for v in 0..520u32 {
                // The largest small heap first: the region's order.
                let want = (REGION_FIRST..REGION_FIRST + len)
                    .rev()
                    .find(|&a| u32::from(table[a as usize] ^ table[(s - a) as usize]) == v);
                for &isa in &isas {
                    let with = Region { isa, ..region };
                    assert_eq!(with.find(&table, s, v), want, "s = {s}, v = {v}");
                }
                found += usize::from(want.is_some());
                missed += usize::from(want.is_none());
            }
        }
        assert!(found > 0 && missed > 0, "{found} found, {missed} missed");
    }
}
