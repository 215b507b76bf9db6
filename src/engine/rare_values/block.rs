//! One block of consecutive positions [b, b + len): the option values each position gets from
//! splits whose heaps both lie below b, in parallel chunks, and position by position in order,
//! as the chunks are done (`ordered.rs`), the options that reach into the block, the mex, and
//! the scan of every split when the mex is still a rare value.
//!
//! A position's option values are a bitset (`room` bits: one past the largest value, which
//! stays clear). The loops over one kind of split run over a chunk of consecutive positions
//! innermost: their partners are consecutive table entries, and consecutive marks go to
//! different positions' bitsets, so no mark waits for the one before; the chunk's bitsets stay
//! in the first-level cache (bytes a value instead were 1.7 times slower: the table streaming
//! through evicted them).

use super::context::{CodeMoves, Context, Mode, Value, equal_split};
use super::marks::{mark, mark_all, mark_splits, mex_from};
use super::ordered::InOrder;
use super::region::Regions;
use super::rows::{Scratch, mark_known_splits};
use super::search::{Ahead, High, Search, Witnesses};
use crate::sparse_space::is_rare;
use rayon::prelude::*;

/// Positions a parallel task computes with one [`Witnesses`].
const CHUNK: usize = 64;

/// The values of positions b.. (at most `len` of them), given the final values below b in
/// `table`, and the searches of many splits the first splits left over the `len` positions
/// ([`super::first_splits::FirstSplits`]). The block ends early after the first value of at least
/// `ctx.bound`, whose successors' options need more room.
pub fn compute<V: Value>(
    table: &[V],
    b: u64,
    len: u64,
    ctx: &Context,
    regions: &mut Regions,
    kept: &mut Kept,
) -> (Vec<u32>, u64) {
    let room = Context::room(ctx.bound);
    let region = regions.of(table, b, ctx.moves);
    let known = &table[..b as usize];
    let ahead = Ahead::of(ctx.moves);
    let Kept {
        seen,
        chunks,
        in_order: in_order_witnesses,
    } = kept;
    seen.clear();
    seen.resize(len as usize * room, 0);
    let chunk_count = (len as usize).div_ceil(CHUNK);
    if chunks.len() < chunk_count {
        chunks.resize_with(chunk_count, || {
            (Witnesses::new(room * 64), Scratch::default())
        });
    }
    let witnesses = in_order_witnesses.emptied(room * 64);
    let in_order = InOrder::new(table, b, len, ctx, region, chunk_count, witnesses);
    let searched = seen
        .par_chunks_mut(room * CHUNK)
        .zip(chunks.par_iter_mut())
        .enumerate()
        .map(|(c, (chunk, (witnesses, scratch)))| {
            let x0 = b + (c * CHUNK) as u64;
            let count = (chunk.len() / room) as u64;
            let searched = if ctx.mode == Mode::Full {
                for (i, marks) in chunk.chunks_exact_mut(room).enumerate() {
                    all_known_splits(table, b, x0 + i as u64, ctx.moves, marks);
                }
                0
            } else {
                let witnesses = witnesses.emptied(room * 64);
                let searched_before = witnesses.searched;
                mark_known_splits(table, b, x0..x0 + count, ctx, chunk, scratch);
                let at = |q: u64| -> u32 { table[q as usize].into() };
                for (i, marks) in chunk.chunks_exact_mut(room).enumerate() {
                    let mut search = Search {
                        table: known,
                        region,
                        witnesses,
                        rare_values: ctx.rare_values,
                        high: High::of(ctx, &[]),
                        scan_past: None,
                        head: ctx.head,
                        scanned_first: ctx.scanned_first,
                    };
                    search.cover(at, b, x0 + i as u64, ctx.moves, ahead, marks);
                }
                witnesses.searched - searched_before
            };
            in_order.chunk_done(c, chunk);
            searched
        })
        .sum();
    (in_order.values(), searched)
}

/// What a block reuses from the block before, so that its chunks allocate nothing: the bitsets
/// of its positions' options, the [`Witnesses`] and the marks' [`Scratch`] of each chunk, and the
/// witnesses of the positions in order (each thread's allocations returned at the end of every
/// block cost the other core a flush of its address translations).
#[derive(Default)]
pub struct Kept {
    seen: Vec<u64>,
    chunks: Vec<(Witnesses, Scratch)>,
    in_order: Witnesses,
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
    marks: &mut [u64],
) {
    let options = rare
        .filter(|&&(r, _)| r < s && !equal_split(r, s))
        .map(|&(r, rv)| rv ^ get(s - r));
    mark_all(marks, options);
}

/// Marks the values of every split of x whose heaps both lie below b (full mode).
fn all_known_splits<V: Value>(table: &[V], b: u64, x: u64, moves: &CodeMoves, marks: &mut [u64]) {
    for s in moves.rests(x) {
        // The partner s − a lies below b when a > s − b.
        let first = (s.saturating_sub(b) + 1).max(1);
        // The split (s/2, s/2) is left out ([`CodeMoves::halves_at`]).
        let end = s.div_ceil(2);
        if first < end {
            mark_splits(table, s, first..end, marks);
        }
    }
}

/// The values of a block known so far, with the table below it.
pub(super) struct Block<'a, V> {
    pub(super) table: &'a [V],
    pub(super) b: u64,
    pub(super) out: &'a [u32],
    /// The block's position before which the splits of x with a heap of `ctx.rare` and a
    /// partner in the block are marked already
    /// ([`super::rows::mark_decided_rare_splits`]): b where none is.
    pub(super) rows_from: u64,
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
        if moves.wholes.contains(&x) || moves.halves_at(x) {
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
                    // The partners s − r of the rare heaps r up to s − b are the block's; those
                    // before `rows_from` are marked.
                    let unmarked = s.saturating_sub(self.rows_from);
                    let within = ctx.rare.iter().take_while(|&&(r, _)| r <= unmarked);
                    let in_block = |q: u64| self.out[(q - self.b) as usize];
                    mark_rare_splits(s, within, in_block, marks);
                    let found = self.found_rare.iter().take_while(|&&(r, _)| r < s);
                    mark_rare_splits(s, found, get, marks);
                }
                Mode::Full => {
                    for a in 1..=above.min(s / 2) {
                        if !equal_split(a, s) {
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
        // No split reaches the bound: every value below it is below half of it.
        if !is_rare(mex, mask) || mex >= ctx.bound {
            return mex;
        }
        // The splits whose larger heap lies in the block, which the search below does not
        // reach: at most a block length of them a removal.
        for s in moves.rests(x).filter(|&s| s >= self.b) {
            for a in (1..=s - self.b).take_while(|&a| a <= s / 2) {
                if !equal_split(a, s) {
                    mark(marks, get(a) ^ get(s - a));
                }
            }
        }
        search.cover(get, x, x, moves, Ahead::First, marks);
        let mut mex = mex_from(marks, 0);
        if let Some(high) = High::of(ctx, self.found_high) {
            while mex >= high.from && is_rare(mex, mask) {
                if !moves.rests(x).any(|s| high.reaches(s, mex, x, get)) {
                    return mex;
                }
                mark(marks, mex);
                mex = mex_from(marks, mex);
            }
        }
        if !is_rare(mex, mask) || mex >= ctx.bound {
            return mex;
        }
        // Only splits of two common heaps can exclude a rare mex: scan the splits from the
        // middle out until the mex is common, but not the region's heaps. Every common option
        // is marked (the splits with a rare heap), so the mex stays below the first common
        // value that `cover` found missing, and the search found no split in the region of
        // any rare value below it still missing. A table kept as a window has its small heaps
        // below the head only.
        let skipped = search.region.map_or(1..1, |region| region.heaps());
        for s in moves.rests(x) {
            let half = s / 2;
            let outside = [
                skipped.end.max(1)..half.min(ctx.head - 1) + 1,
                1..skipped.start.min(half + 1),
            ];
            if scan_splits(get, s, outside, mask, marks, &mut mex) {
                return mex;
            }
        }
        // Splits past the head could still exclude the mex: the window cannot tell.
        if moves.rests(x).any(|s| s / 2 >= ctx.head) {
            return UNDECIDED;
        }
        mex
    }
}

/// What [`Block::value`] returns for a position whose value a window of the table cannot
/// decide: its mex is a rare value that only splits with a small heap past the head could
/// exclude. The stretch ends there, as after a value past the bound.
pub const UNDECIDED: u32 = u32::MAX;

/// Splits [`scan_splits`] marks between two looks at the mex: a common mex ends the scan a
/// chunk later at most.
const SCAN_CHUNK: u64 = 32;

/// Marks the values of the splits (a, s − a) for the small heaps a of the ranges `heaps`, each
/// from its end down, a [`SCAN_CHUNK`] at a time, moving `mex` on to the smallest value `marks`
/// lacks after each chunk; true once `mex` is common. No common value unmarked is an option,
/// so a common `mex` stays what it is whatever splits come after it.
fn scan_splits<const N: usize>(
    get: impl Fn(u64) -> u32,
    s: u64,
    heaps: [std::ops::Range<u64>; N],
    mask: u32,
    marks: &mut [u64],
    mex: &mut u32,
) -> bool {
    for range in heaps {
        let mut end = range.end;
        while end > range.start {
            let start = end.saturating_sub(SCAN_CHUNK).max(range.start);
            let chunk = (start..end).filter(|&a| !equal_split(a, s));
            mark_all(marks, chunk.map(|a| get(a) ^ get(s - a)));
            *mex = mex_from(marks, *mex);
            if !is_rare(*mex, mask) {
                return true;
            }
            end = start;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rare_values::search::{NONE_MARKED, SCANNED_FIRST};
    use crate::xorshift::xorshift;

    /// Values from 256 on come only from splits with a heap of such a value: a block whose
    /// mex reaches them, rare or common, gets the mex over every split, with the high heaps
    /// listed and without.
    #[test]
    fn listed_high_heaps_decide_values_from_half_the_bound() {
        let moves = CodeMoves::splits_only(vec![0], true);
        let (mask, bound) = (510, 512);
        let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
        let mut next = xorshift(0x5851_F42D_4C95_7F2D);
        let mut random = |below: u64| next() % below;
        let mut rare_high_values = 0;
        // Kept from one table to the next.
        let mut kept = Kept::default();
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
                    high: listed_high,
                    ..Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values)
                };
                let (got, _) = compute(
                    &table,
                    b as u64,
                    len as u64,
                    &ctx,
                    &mut Regions::default(),
                    &mut kept,
                );
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
    /// Blocks of random tables in sparse space, some values rare, give the mex over every
    /// split.
    #[test]
    fn a_rare_mex_is_the_mex_over_every_split() {
        let moves = CodeMoves::splits_only(vec![1, 2], false);
        let mut next = xorshift(0x3C6E_F372_FE94_F82B);
        let mut random = |below: u64| next() % below;
        let mut rare_mexes = 0;
        // Kept from one table to the next, for another bound.
        let mut kept = Kept::default();
        for (mask, bound, common_below) in [(255, 256, 256), (254, 256, 128), (63, 64, 64)] {
            let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
            let b = 3000usize;
            // Common values (odd under the mask) below `common_below`, a few rare ones.
            let table: Vec<u16> = (0..b)
                .map(|x| {
                    loop {
                        let v = random(bound as u64) as u16;
                        let rare = is_rare(v as u32, mask);
                        if x == 0 {
                            break 0;
                        }
                        if (rare && random(16) == 0) || (!rare && (v as u32) < common_below) {
                            break v;
                        }
                    }
                })
                .collect();
            let mut want = table.clone();
            for x in b..b + 256 {
                let mut seen = vec![false; 2 * bound as usize];
                for s in moves.rests(x as u64) {
                    let s = s as usize;
                    for a in 1..=s / 2 {
                        seen[(want[a] ^ want[s - a]) as usize] = true;
                    }
                }
                want.push((0..).find(|&v| !seen[v]).unwrap() as u16);
            }
            let rare: Vec<(u64, u32)> = (1..b)
                .filter(|&x| is_rare(table[x] as u32, mask))
                .map(|x| (x as u64, table[x] as u32))
                .collect();
            // The smallest heaps' splits marked before the search: the least, and more.
            for scanned_first in [SCANNED_FIRST, 2 * SCANNED_FIRST] {
                let ctx = Context {
                    scanned_first,
                    ..Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values)
                };
                let (got, _) = compute(
                    &table,
                    b as u64,
                    256,
                    &ctx,
                    &mut Regions::default(),
                    &mut kept,
                );
                let expected: Vec<u32> = want[b..b + got.len()].iter().map(|&v| v as u32).collect();
                assert_eq!(got, expected, "mask {mask}, {scanned_first} scanned first");
                rare_mexes += got.iter().filter(|&&v| is_rare(v, mask)).count();
            }
        }
        assert!(rare_mexes > 0, "the test needs rare values");
    }
    /// With the common options marked (the splits with a rare heap), [`Block::value`] gives
    /// the mex over every split, though its scan of a rare mex skips the region's heaps.
    #[test]
    fn a_rare_mex_scanned_outside_the_region_is_the_mex_over_every_split() {
        let moves = CodeMoves::splits_only(vec![1], false);
        let (mask, bound) = (254, 256);
        let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
        let mut next = xorshift(0xA54F_F53A_5F1D_36F1);
        let table: Vec<u16> = (0..4000).map(|_| (next() % 256) as u16).collect();
        let ctx = Context::sparse_for_test(&moves, mask, &[], bound, &rare_values);
        let mut regions = Regions::default();
        let region = regions.of(&table, 3000, &moves);
        assert!(region.is_some());
        let mut witnesses = Witnesses::new(Context::room(bound) * 64);
        for x in 3000..3100u64 {
            let known = &table[..x as usize];
            let mut seen = [false; 512];
            let s = (x - 1) as usize;
            for a in 1..=s / 2 {
                seen[(table[a] ^ table[s - a]) as usize] = true;
            }
            let want = (0..).find(|&v| !seen[v]).unwrap() as u32;
            let block = Block {
                table: known,
                b: x,
                out: &[],
                rows_from: x,
                found_rare: &[],
                found_high: &[],
            };
            let search = Search {
                table: known,
                region,
                witnesses: &mut witnesses,
                rare_values: &rare_values,
                high: None,
                scan_past: Some(NONE_MARKED),
                head: u64::MAX,
                scanned_first: SCANNED_FIRST,
            };
            let mut marks = vec![0u64; Context::room(bound)];
            (0..bound)
                .filter(|&v| seen[v as usize] && !is_rare(v, mask))
                .for_each(|v| mark(&mut marks, v));
            assert_eq!(block.value(x, &ctx, &mut marks, search), want, "x = {x}");
        }
    }
}
