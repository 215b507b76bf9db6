//! The option values a chunk of consecutive positions gets from splits whose heaps both lie
//! below the block: the splits with a rare heap and those with the smallest heaps. While values
//! stay below 256 the splits every position of the chunk has are marked 32 positions a pass
//! over them, eight to a vector register; up to a bound of 1024 the marks go into rows of one
//! byte a value, beyond into the bitsets directly.

use super::context::{Context, Mode, Value};
use super::isa::far_marks;
use super::kernels::{Lane, far_word};
use super::marks::{mark, mark_all};
use crate::engine::isa::{Isa, detect};
use crate::sparse_space::is_rare;
use byte_rows::ByteRows;

mod byte_rows;

/// Marks, in the bitsets `words` (a [`Context::room`] of words for each position of `xs`), the
/// values of the splits of those positions with a rare heap and of the first
/// [`Context::scanned_first`] splits with the smallest heaps, whose partners lie below b. Below a bound
/// of 1024 the marks go first into rows of one byte a value, a plain store
/// each, then are packed into the bitsets; beyond, into the bitsets directly.
pub(super) fn mark_known_splits<V: Value>(
    table: &[V],
    b: u64,
    xs: std::ops::Range<u64>,
    ctx: &Context,
    words: &mut [u64],
    scratch: &mut Scratch,
) {
    let Scratch { pairs, bytes } = scratch;
    match ctx.bound {
        64 => LaneRows::mark::<V, 1, 2, { avx2_span(2) }>(table, b, xs, ctx, words, pairs, None),
        128 => LaneRows::mark::<V, 2, 4, { avx2_span(4) }>(table, b, xs, ctx, words, pairs, None),
        256 => LaneRows::mark::<V, 4, 8, { avx2_span(8) }>(table, b, xs, ctx, words, pairs, None),
        512 => match Halves::of(ctx, b, &xs) {
            Some(h) => LaneRows::mark::<V, 4, 8, { avx2_span(8) }>(
                table,
                b,
                xs,
                ctx,
                words,
                pairs,
                Some(h),
            ),
            None => ByteRows::<512>::mark(table, b, xs, ctx, words, bytes),
        },
        1024 => ByteRows::<1024>::mark(table, b, xs, ctx, words, bytes),
        _ => BitRows::mark(table, b, xs, ctx, words),
    }
}

/// What the marks of a chunk reuse from the chunk before, so that they allocate nothing: the
/// pairs the lane rows gather and the rows of one byte a value.
#[derive(Default)]
pub(super) struct Scratch {
    pairs: Vec<(usize, u32)>,
    bytes: Vec<u8>,
}

/// The option values of consecutive positions from `x0`. The loops over one split kind run
/// over the positions innermost, so that the partners they read are consecutive table
/// entries: one cache line serves 64 positions.
trait Rows {
    /// Marks value `with` XOR `partners[i]` at position `from` + i, for each i.
    fn mark_each<V: Value>(&mut self, from: u64, partners: &[V], with: u32);

    /// Marks, at every position x of `xs`, the splits of x − j with the rare heaps r of `rare`
    /// (with their values), each a split of every such x.
    #[inline]
    fn mark_rare_run<V: Value>(
        &mut self,
        table: &[V],
        xs: &std::ops::Range<u64>,
        j: u64,
        rare: &[(u64, u32)],
    ) {
        for &(r, rv) in rare {
            self.mark_shifted(table, xs.clone(), j + r, rv);
        }
    }

    /// Marks value `with` XOR g(x − `shift`) at every position x of `xs`.
    #[inline]
    fn mark_shifted<V: Value>(
        &mut self,
        table: &[V],
        xs: std::ops::Range<u64>,
        shift: u64,
        with: u32,
    ) {
        if !xs.is_empty() {
            self.mark_each(xs.start, partners(table, &xs, shift), with);
        }
    }
}

/// The partners g(x − `shift`) of the positions x of `xs` (not empty).
#[inline]
fn partners<'t, V: Value>(table: &'t [V], xs: &std::ops::Range<u64>, shift: u64) -> &'t [V] {
    &table[(xs.start - shift) as usize..(xs.end - shift) as usize]
}

/// Positions whose marks [`far_marks`] computes in one pass over the pairs: each pair's
/// partners of the span, 64 bytes of 16-bit values (one or two cache lines), are fetched once.
/// With AVX-512 the span's lanes (at most 16 vectors) stay in its 32 registers; with AVX2,
/// which has 16, a span holds the positions of eight vectors ([`avx2_span`]).
const SPAN: usize = 32;

/// The span of lanes of `W32` words of 32 bits with AVX2: eight vectors of eight lanes, so
/// that the marks stay in registers instead of going through memory at each pair (at 2^22 on
/// one thread, `.6` 11.4–13.1 → 10.0–11.0 s, `.172` 16.2–17.0 → 15.2–15.5 s with eight
/// positions a span instead of 32).
const fn avx2_span(w32: usize) -> usize {
    64 / w32
}

/// Bitsets of W + 1 words a position (values below 64 · W: `WL` lanes of type `L`). The
/// splits that every position of the chunk has (nearly all: only a rare heap's split whose
/// partner reaches the block stops within it) are gathered as pairs (shift, value) and marked
/// [`SPAN`] positions a pass by [`far_marks`], one vector shift a pair for eight or 16 of
/// them where the processor has them; the others, and a chunk's last positions short of a
/// span, position by position.
struct LaneRows<'a> {
    bits: BitRows<'a>,
    xs: std::ops::Range<u64>,
    pairs: &'a mut Vec<(usize, u32)>,
    /// The pairs of rare heaps, first in `pairs`.
    rare_heaps: usize,
}

impl<'a> LaneRows<'a> {
    /// [`mark_known_splits`] for a bound of 64 · W, or with `halves` of 128 · W: the lanes
    /// are of 32 bits (`W32` of them a position) where the processor has vectors (AVX-512: 16
    /// positions a vector, against eight with 64-bit lanes, for the same compares; AVX2: eight
    /// against four), else of 64. From the checkpoint of Grundy's game at 1.89·10^8
    /// (`scripts/bench-checkpoint-rate.sh`, nine runs each, interleaved), with AVX-512: 32-bit
    /// lanes went 4% further a CPU second; 16-bit lanes 35% less far (AVX-512 has no masked OR
    /// of 16-bit lanes: a blend each). With AVX2 only, at 2^24 on one thread, 32-bit lanes
    /// took 0.70–0.85 of the time of 64-bit ones for the frontier games but `.167`, whose
    /// values fit one word (`scripts/bench-frontier.sh`).
    fn mark<V: Value, const W: usize, const W32: usize, const AVX2_SPAN: usize>(
        table: &[V],
        b: u64,
        xs: std::ops::Range<u64>,
        ctx: &Context,
        words: &mut [u64],
        pairs: &mut Vec<(usize, u32)>,
        halves: Option<Halves>,
    ) {
        let rows = LaneRows::gather(table, b, xs, ctx, words, pairs);
        match detect() {
            #[cfg(target_arch = "x86_64")]
            isa @ Isa::Avx512 => rows.fill::<V, u32, W32, SPAN>(isa, table, halves),
            #[cfg(target_arch = "x86_64")]
            isa @ Isa::Avx2 => rows.fill::<V, u32, W32, AVX2_SPAN>(isa, table, halves),
            isa => rows.fill::<V, u64, W, SPAN>(isa, table, halves),
        }
    }

    /// The rows of the positions `xs` over `words`, with the pairs of the splits every
    /// position has gathered in `pairs` and the others marked.
    fn gather<V: Value>(
        table: &[V],
        b: u64,
        xs: std::ops::Range<u64>,
        ctx: &Context,
        words: &'a mut [u64],
        pairs: &'a mut Vec<(usize, u32)>,
    ) -> LaneRows<'a> {
        pairs.clear();
        let mut rows = LaneRows {
            bits: BitRows {
                words,
                room: Context::room(ctx.bound),
                x0: xs.start,
            },
            xs: xs.clone(),
            pairs,
            rare_heaps: 0,
        };
        rare_splits(&mut rows, table, b, xs.clone(), ctx);
        rows.rare_heaps = rows.pairs.len();
        small_splits(&mut rows, table, b, xs, ctx);
        rows
    }

    /// Marks the gathered pairs in `WL` lanes of type `L` a position, with `isa`, `P`
    /// positions a pass over the pairs.
    fn fill<V: Value, L: Lane, const WL: usize, const P: usize>(
        self,
        isa: Isa,
        table: &[V],
        halves: Option<Halves>,
    ) {
        let LaneRows {
            bits,
            xs,
            pairs,
            rare_heaps,
        } = self;
        let room = bits.room;
        // With halves, the rare heaps' pairs have common values; the small heaps' pairs of a
        // common value have rare values, and those of a rare value are rare heaps' pairs too:
        // the small heaps' pairs keep only those of a common value.
        if let Some(h) = halves {
            let mut listed = 0;
            pairs.retain(|&(_, c)| {
                listed += 1;
                listed <= rare_heaps || !is_rare(c, h.mask)
            });
        }
        let (to_common, to_rare) = pairs.split_at(rare_heaps);
        // Words of 64 bits a position that the lanes fill.
        let w64 = WL * L::BITS as usize / 64;
        let spans = bits.words.chunks_mut(room * P);
        for (x0, span) in xs.step_by(P).zip(spans) {
            let rows = span.chunks_exact_mut(room);
            let at = x0 as usize;
            match &halves {
                _ if rows.len() < P => {
                    for (x, row) in (x0..).zip(rows) {
                        let values = pairs.iter().map(|&(d, c)| c ^ table[x as usize - d].into());
                        mark_all(row, values);
                    }
                }
                Some(h) => {
                    let common: [[L; P]; WL] = far_marks(isa, table, at, to_common);
                    let rare: [[L; P]; WL] = far_marks(isa, table, at, to_rare);
                    for (i, row) in rows.enumerate() {
                        for (w, word) in row.iter_mut().take(2 * w64).enumerate() {
                            let is_rare = h.rare_values[w];
                            let (common, rare) = (far_word(&common, w, i), far_word(&rare, w, i));
                            *word |= common & !is_rare | rare & is_rare;
                        }
                    }
                }
                None => {
                    let marks: [[L; P]; WL] = far_marks(isa, table, at, pairs);
                    for (i, row) in rows.enumerate() {
                        for (w, word) in row.iter_mut().take(w64).enumerate() {
                            *word |= far_word(&marks, w, i);
                        }
                    }
                }
            }
        }
    }
}

/// Lanes half as wide as the bound: when the mask has the bit of half the bound and every
/// partner of a chunk's listed splits is common, a split's value is common when its listed
/// heap's value is rare and rare when that is common, and a value below the bound is known by
/// its class and its remainder modulo half the bound (the mask's bit of half the bound sets
/// the class). The lanes then mark remainders, the pairs of each class apart: Grundy's game
/// (mask 510, values below 512) from heap 2 · 48,399,022 + 1 on, past its last rare position.
#[derive(Clone, Copy)]
struct Halves<'a> {
    mask: u32,
    /// The rare values ([`Context::rare_values`]).
    rare_values: &'a [u64],
}

impl<'a> Halves<'a> {
    /// The halves for the positions `xs` of the block from b, when they apply.
    fn of(ctx: &Context<'a>, b: u64, xs: &std::ops::Range<u64>) -> Option<Halves<'a>> {
        let Mode::Sparse(mask) = ctx.mode else {
            return None;
        };
        let last = ctx.rare.last().map_or(0, |&(r, _)| r);
        let j = *ctx.moves.splits.last()?;
        // The listed heaps: the rare ones, and small ones below those of `small_splits`.
        let small = (xs.end - b) + ctx.scanned_first + 1;
        // Every partner x − j − heap lies past the last rare position.
        let partners_common = xs.start > j + last.max(small) + last;
        (mask & (ctx.bound / 2) != 0 && partners_common).then_some(Halves {
            mask,
            rare_values: ctx.rare_values,
        })
    }
}

impl Rows for LaneRows<'_> {
    #[inline]
    fn mark_each<V: Value>(&mut self, from: u64, partners: &[V], with: u32) {
        self.bits.mark_each(from, partners, with);
    }

    #[inline]
    fn mark_rare_run<V: Value>(
        &mut self,
        _: &[V],
        xs: &std::ops::Range<u64>,
        j: u64,
        rare: &[(u64, u32)],
    ) {
        // A run is of the rows' own positions: its splits are pairs, as in `mark_shifted`.
        debug_assert_eq!(*xs, self.xs);
        let pairs = rare.iter().map(|&(r, rv)| ((j + r) as usize, rv));
        self.pairs.extend(pairs);
    }

    // Called for every split with a small heap: left to the inliner, it was not always inlined
    // (`.161` to 2^22 4–6% slower with it called).
    #[inline(always)]
    fn mark_shifted<V: Value>(
        &mut self,
        table: &[V],
        xs: std::ops::Range<u64>,
        shift: u64,
        with: u32,
    ) {
        if xs == self.xs {
            self.pairs.push((shift as usize, with));
        } else if !xs.is_empty() {
            self.mark_each(xs.start, partners(table, &xs, shift), with);
        }
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
        small_splits(&mut rows, table, b, xs, ctx);
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

/// Marks, in the bitsets `words` of the positions `xs` of a block from b, the values of the
/// splits with a rare heap of `ctx.rare` whose partner is one of the block's positions before
/// `xs`, whose values `decided` holds: a row a heap, so that no mark waits for the one before,
/// where position after position each would. A rare heap lies below b and such a partner not:
/// the split is never the equal one.
pub(super) fn mark_decided_rare_splits(
    words: &mut [u64],
    xs: std::ops::Range<u64>,
    b: u64,
    decided: &[u32],
    ctx: &Context,
) {
    let mut rows = BitRows {
        words,
        room: Context::room(ctx.bound),
        x0: xs.start,
    };
    for &j in &ctx.moves.splits {
        // The partner x − j − r of x lies in b..xs.start for x in b + j + r..xs.start + j + r.
        for &(r, rv) in ctx.rare.iter().take_while(|&&(r, _)| r + j + b < xs.end) {
            debug_assert!(r < b, "rare heaps lie below the block");
            let d = j + r;
            let (from, to) = (xs.start.max(b + d), xs.end.min(xs.start + d));
            if from < to {
                let partners = &decided[(from - d - b) as usize..(to - d - b) as usize];
                rows.mark_each(from, partners, rv);
            }
        }
    }
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
        // The rare heaps r whose split is one of every position x of xs (partner x − j − r
        // below b, and 2r + j below xs: both heaps below s = x − j, not equal) are a run of
        // the list: the rows take it whole.
        let first = ctx.rare.partition_point(|&(r, _)| r + j + b < xs.end);
        let end = ctx.rare.partition_point(|&(r, _)| 2 * r + j < xs.start);
        let (every, others) = match ctx.rare.get(first..end) {
            Some(every) => (every, [&ctx.rare[..first], &ctx.rare[end..]]),
            None => (&[][..], [ctx.rare, &[][..]]),
        };
        rows.mark_rare_run(table, &xs, j, every);
        for &(r, rv) in others.into_iter().flatten() {
            // r < s = x − j, and the partner x − j − r below b.
            let from = xs.start.max(r + j + 1);
            let to = xs.end.min(b + j + r);
            // The split (r, r) of x = 2r + j is left out ([`CodeMoves::halves_at`]).
            let equal = 2 * r + j;
            if (from..to).contains(&equal) {
                rows.mark_shifted(table, from..equal, j + r, rv);
                rows.mark_shifted(table, equal + 1..to, j + r, rv);
            } else {
                rows.mark_shifted(table, from..to, j + r, rv);
            }
        }
    }
}

/// Marks, for the positions `xs`, the values of the splits by the first splitting removal
/// j whose small heap is one of the [`Context::scanned_first`] smallest that leave every
/// partner below b.
fn small_splits<V: Value>(
    rows: &mut impl Rows,
    table: &[V],
    b: u64,
    xs: std::ops::Range<u64>,
    ctx: &Context,
) {
    let Some(&j) = ctx.moves.splits.first() else {
        return;
    };
    if xs.start < j + 2 {
        return;
    }
    let first = (xs.end - 1 - j).saturating_sub(b) + 1;
    // Small heaps below their partner at every position.
    let end = (first + ctx.scanned_first).min((xs.start - j).div_ceil(2));
    for a in first.max(1)..end {
        let va: u32 = table[a as usize].into();
        rows.mark_shifted(table, xs.clone(), j + a, va);
    }
}

#[cfg(test)]
mod tests {
    use super::byte_rows::BYTE_ROWS_BYTES;
    use super::*;
    use crate::engine::isa::every_here;
    use crate::engine::rare_values::context::CodeMoves;
    use crate::xorshift::xorshift;

    /// The moves of Grundy's game (splits into unequal heaps), Kayles and 0.00404.
    fn codes() -> [CodeMoves; 3] {
        let code = |splits, singles, unequal| CodeMoves::listed(splits, singles, vec![], unequal);
        [
            code(vec![0], vec![], true),
            code(vec![1, 2], vec![1, 2], false),
            code(vec![3, 5], vec![], false),
        ]
    }

    /// The marks of [`LaneRows`] (`W` words a position, `W32` lanes of 32 bits), with lanes
    /// of 32 bits (spans of [`SPAN`] and of eight positions) and of 64, each compiled plainly
    /// and for every instruction set this processor has; the pairs gathered in one list
    /// throughout, as a chunk's marks reuse the list of the chunk before.
    fn every_lanes<const W: usize, const W32: usize>(
        table: &[u16],
        b: u64,
        xs: &std::ops::Range<u64>,
        ctx: &Context,
        halves: Option<Halves>,
    ) -> Vec<(Isa, Vec<u64>)> {
        let len = (xs.end - xs.start) as usize * Context::room(ctx.bound);
        let mut every = Vec::new();
        let pairs = &mut vec![(0, 1)];
        for isa in every_here() {
            let mut words = vec![0u64; len];
            let rows = LaneRows::gather(table, b, xs.clone(), ctx, &mut words, pairs);
            rows.fill::<u16, u32, W32, SPAN>(isa, table, halves);
            every.push((isa, words));
            let mut words = vec![0u64; len];
            let rows = LaneRows::gather(table, b, xs.clone(), ctx, &mut words, pairs);
            rows.fill::<u16, u32, W32, 8>(isa, table, halves);
            every.push((isa, words));
            let mut words = vec![0u64; len];
            let rows = LaneRows::gather(table, b, xs.clone(), ctx, &mut words, pairs);
            rows.fill::<u16, u64, W, SPAN>(isa, table, halves);
            every.push((isa, words));
        }
        every
    }

    /// Lanes (bounds 64 to 256) and byte rows (up to 1024) mark what the bitsets mark, on
    /// chunks of whole spans and not; lanes of 32 and 64 bits, plain and vectorised, alike. One
    /// [`Scratch`] serves every chunk, bound and code, as the chunks of a block reuse theirs.
    #[test]
    fn lanes_and_byte_rows_mark_what_bitsets_mark() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut random = |below: u64| next() % below;
        let mut scratch = Scratch::default();
        for bound in [64u32, 128, 256, 512, 1024, 2048] {
            for moves in codes() {
                let splits = &moves.splits;
                let table: Vec<u16> = (0..6000).map(|_| random(bound as u64) as u16).collect();
                let b = 5000;
                let rare: Vec<(u64, u32)> = (1..b)
                    .filter(|_| random(8) == 0)
                    .map(|r| (r, table[r as usize] as u32))
                    .collect();
                let ctx = Context::sparse_for_test(&moves, bound - 2, &rare, bound, &[]);
                let room = Context::room(bound);
                // Positions marked at once (beyond, the two choose their small heaps
                // differently, both correct).
                let len = (BYTE_ROWS_BYTES as u64 / bound as u64).clamp(1, 64);
                for xs in [b..b + len, b + 100..b + 100 + len, b + 7..b + 7 + len - 3] {
                    let len = (xs.end - xs.start) as usize;
                    let mut bytes = vec![0u64; len * room];
                    mark_known_splits(&table, b, xs.clone(), &ctx, &mut bytes, &mut scratch);
                    let mut bits = vec![0u64; len * room];
                    BitRows::mark(&table, b, xs.clone(), &ctx, &mut bits);
                    assert_eq!(bytes, bits, "bound {bound}, splits {splits:?}, {xs:?}");
                    assert!(bits.iter().any(|&w| w != 0));
                    let lanes = match bound {
                        64 => every_lanes::<1, 2>(&table, b, &xs, &ctx, None),
                        128 => every_lanes::<2, 4>(&table, b, &xs, &ctx, None),
                        256 => every_lanes::<4, 8>(&table, b, &xs, &ctx, None),
                        _ => vec![],
                    };
                    for (isa, lanes) in lanes {
                        assert_eq!(lanes, bits, "{isa:?}, bound {bound}, {splits:?}, {xs:?}");
                    }
                }
            }
        }
    }

    /// Past the last rare position, under a mask with the bit of half the bound, lanes half as
    /// wide mark what bitsets mark; a rare position whose split reaches the chunk turns them
    /// off.
    #[test]
    fn halved_lanes_mark_what_bitsets_mark_past_the_last_rare_position() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let (bound, mask) = (512u32, 510);
        let room = Context::room(bound);
        let rare_values = crate::sparse_space::rare_values(mask, room);
        for moves in codes() {
            let splits = &moves.splits;
            let b = 5000u64;
            for last in [700u64, 3000] {
                // Rare values only up to `last`: past it the class bit is flipped to common.
                let table: Vec<u16> = (0..6000u64)
                    .map(|x| {
                        let v = (next() % u64::from(bound)) as u32;
                        let flip = x > last && is_rare(v, mask);
                        (if flip { v ^ (bound / 2) } else { v }) as u16
                    })
                    .collect();
                let rare: Vec<(u64, u32)> = (1..b)
                    .filter(|&r| is_rare(table[r as usize].into(), mask))
                    .map(|r| (r, table[r as usize].into()))
                    .collect();
                let ctx = Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values);
                for xs in [b..b + 64, b + 100..b + 164, b + 7..b + 68] {
                    let halves = Halves::of(&ctx, b, &xs);
                    assert_eq!(halves.is_some(), last == 700, "{xs:?}");
                    if halves.is_none() {
                        // Byte rows, marking fewer positions at once, choose other small heaps.
                        continue;
                    }
                    let len = (xs.end - xs.start) as usize;
                    let mut lanes = vec![0u64; len * room];
                    mark_known_splits(
                        &table,
                        b,
                        xs.clone(),
                        &ctx,
                        &mut lanes,
                        &mut Scratch::default(),
                    );
                    let mut bits = vec![0u64; len * room];
                    BitRows::mark(&table, b, xs.clone(), &ctx, &mut bits);
                    assert_eq!(lanes, bits, "splits {splits:?}, {xs:?}");
                    for (isa, lanes) in every_lanes::<4, 8>(&table, b, &xs, &ctx, halves) {
                        assert_eq!(lanes, bits, "{isa:?}, splits {splits:?}, {xs:?}");
                    }
                }
            }
        }
    }
}
