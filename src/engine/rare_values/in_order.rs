//! Positions one after another on one thread, for games with few rare positions (`.1777`,
//! `.056`): the rare heaps' partners are then the positions just computed, and a block would
//! have little to compute in parallel. While values stay below 256, [`Lanes`] marks the
//! splits whose partners lie a few positions back for eight positions at once: those with a
//! rare heap and those with the smallest heaps of the first splitting removal, or of every one
//! where the searches would sweep many more ([`super::lane_rests`]); with a second thread, the
//! far ones are marked there ahead of the positions ([`super::ahead`]).

use super::ahead::{Ahead, Cells, Group};
use super::block::{Block, Found, mark_rare_splits};
use super::context::{CodeMoves, Context, Value};
use super::group_width::GroupWidth;
use super::marks::mark_all;
use super::region::{Region, Regions};
use super::search::{High, Marked, NONE_MARKED, Search, Witnesses};
use crate::engine::isa::{Isa, detect};

/// The values of positions b.. (at most `len` of them) in sparse mode, one position after
/// another, each written into `table` once final (as long as it fits). Ends early as
/// [`super::block::compute`] does, after a value that `V` cannot hold. With the values, the
/// splits its searches swept ([`Witnesses::swept`]).
pub fn compute<V: Value>(
    table: &mut [V],
    b: u64,
    len: u64,
    ctx: &Context,
    regions: &mut Regions,
) -> (Vec<u32>, u64) {
    match ctx.bound {
        128 => stretch::<V, 2>(table, b, len, ctx, regions),
        LANES_BOUND => stretch::<V, 4>(table, b, len, ctx, regions),
        // A bound of 64, or one past the lanes' reach (no lanes then).
        _ => stretch::<V, 1>(table, b, len, ctx, regions),
    }
}

/// [`compute`] with lanes of `W` words when the bound is 64 · `W`; with more than one thread,
/// the lanes' far pairs marked ahead on another ([`Ahead`]) where the stretch is long enough.
fn stretch<V: Value, const W: usize>(
    table: &mut [V],
    b: u64,
    len: u64,
    ctx: &Context,
    regions: &mut Regions,
) -> (Vec<u32>, u64) {
    let region = regions.of(table, b, ctx.moves);
    let mut lanes = Lanes::<W>::of(table, b, ctx);
    let ahead = match &mut lanes {
        Some(lanes) if rayon::current_num_threads() > 1 && len >= AHEAD_LEAST => {
            Ahead::of(&mut lanes.far, b, len, lanes.isa)
        }
        _ => None,
    };
    let cells = Cells::new(table);
    let positions = || positions(cells, b, len, ctx, region, lanes, ahead.as_ref());
    match &ahead {
        Some(ahead) => ahead.beside(cells, positions),
        None => positions(),
    }
}

/// The shortest stretch whose far pairs are marked ahead: the other worker takes some
/// microseconds to start.
const AHEAD_LEAST: u64 = 1024;

/// The positions of [`stretch`], computed on this thread, written through `cells`.
fn positions<V: Value, const W: usize>(
    cells: Cells<'_, V>,
    b: u64,
    len: u64,
    ctx: &Context,
    region: Option<Region<V>>,
    mut lanes: Option<Lanes<W>>,
    ahead: Option<&Ahead<W>>,
) -> (Vec<u32>, u64) {
    let room = Context::room(ctx.bound);
    let mut witnesses = Witnesses::new(room * 64);
    let mut found = Found {
        rare: ctx.rare.to_vec(),
        high: Vec::new(),
    };
    let mut marks = vec![0u64; room];
    let mut out = Vec::with_capacity(len as usize);
    let scan_past = lanes.as_ref().map_or(NONE_MARKED, |lanes| lanes.marked);
    for x in b..b + len {
        marks.fill(0);
        // SAFETY: positions are written at x and on, after `known`'s last use.
        let known = unsafe { cells.below(x) };
        let here = Context {
            rare: &found.rare,
            ..*ctx
        };
        // The rare heaps whose splits are marked position by position: with lanes, those the
        // lanes leave; else all of them.
        let one_by_one = match &mut lanes {
            Some(lanes) => {
                lanes.mark(known, x, &mut marks, ahead);
                &lanes.late
            }
            None => &found.rare,
        };
        mark_rare_heaps(known, x, here.moves, one_by_one, &mut marks);
        // Every option but the splits of two common heaps is marked (and those with the
        // smallest heaps that `scan_past` says): `value` adds the one-heap options and covers
        // the rare values below the mex.
        let block = Block {
            table: known,
            b: x,
            out: &[],
            rows_from: x,
            found_rare: &[],
            found_high: &found.high,
        };
        let search = Search {
            table: known,
            region,
            witnesses: &mut witnesses,
            rare_values: here.rare_values,
            high: High::of(&here, &found.high),
            scan_past: Some(scan_past),
            head: here.head,
            scanned_first: here.scanned_first,
        };
        let value = block.value(x, &here, &mut marks, search);
        out.push(value);
        let Ok(stored) = V::try_from(value) else {
            break;
        };
        // SAFETY: `known` is no longer used, and the other worker reads only the positions of
        // the groups before the last one [`Ahead::add`] took, x's or before.
        unsafe { cells.write(x, stored) };
        let rare_before = found.rare.len();
        if !found.note(x, value, ctx) {
            break;
        }
        if let (Some(lanes), Some(&new)) = (&mut lanes, found.rare.get(rare_before)) {
            lanes.late.push(new);
        }
    }
    (out, witnesses.swept)
}

/// Marks the splits of x with the rare heaps of `rare` (ascending, with their values), whose
/// partners `table` holds.
fn mark_rare_heaps<V: Value>(
    table: &[V],
    x: u64,
    moves: &CodeMoves,
    rare: &[(u64, u32)],
    marks: &mut [u64],
) {
    let at = |q: u64| -> u32 { table[q as usize].into() };
    for s in moves.rests(x) {
        let below = rare.iter().take_while(|&&(r, _)| r < s);
        mark_rare_splits(s, below, at, marks);
    }
}

/// Positions whose option bitsets [`Lanes`] fills at once.
pub(super) const LANE_COUNT: usize = 8;
/// The largest bound of the values that [`Lanes`] marks (four words a position).
pub(super) const LANES_BOUND: u32 = 256;
/// Splits with the smallest heaps (1, 2, …) of each rest that [`Lanes`] marks, beside the
/// splits with a rare heap. In `.1777` a position needs a median of 42 of them, and 215 at the
/// 99th percentile, before no rare value below its mex is missing. 192 rather than 128: the
/// heaps past 128 were swept a batch of 32 at a time by the stretch's thread, and are now marked
/// eight positions at once, on two threads by the other worker (`.167` near 1.6·10^11 on two
/// threads 1.08–1.14 times the values a second; over the 63 three-digit codes with lanes at 2^20
/// a geometric mean of 1.04 on two threads, 1.01 on one).
const LANE_SMALL: u64 = 192;

/// The option bitsets (values below 64 · `W`: `W` words) of the splits with a rare heap and of
/// the splits with the [`LANE_SMALL`] smallest heaps of the rests that
/// [`super::lane_rests::LaneRests`] says. A split by removal j with heap h of value c gives
/// position x the value c XOR g(x − d), d = j + h.
/// For the pairs (d, c) with d ≥ [`LANE_COUNT`] the partners of [`LANE_COUNT`] consecutive
/// positions are consecutive table entries below the first of them: one pass over a pair
/// marks them all, with vector instructions where the processor has them. The pairs with a
/// smaller d are marked position by position, and so are the splits with a rare heap that is
/// not a split of every position of the stretch (a heap less than a removal behind its start,
/// the rare positions found in it) or whose equal split, not a move, falls in it.
struct Lanes<const W: usize> {
    /// The pairs (d, c) with d ≥ [`LANE_COUNT`].
    far: Vec<(usize, u32)>,
    /// The pairs with d < [`LANE_COUNT`].
    near: Vec<(usize, u32)>,
    /// The rare heaps, with their values, whose splits are marked position by position.
    late: Vec<(u64, u32)>,
    /// The splits with the smallest heaps it marks.
    marked: Marked,
    /// The marks of the far pairs at positions x0..x0 + [`LANE_COUNT`], word by word.
    group: Group<W>,
    /// Whether the next group's far pairs are marked in one word.
    width: GroupWidth,
    x0: u64,
    isa: Isa,
}

impl<const W: usize> Lanes<W> {
    /// The lanes of a stretch from b, when the bound is 64 · `W` and b lies far enough past
    /// the smallest heaps that each is below half of every rest it marks from b on. A rare
    /// heap r gives pairs when it is a split of every position from b on (r + j < b for each
    /// removal j) and its equal split (x = 2r + j) is a move or lies before b: the searches
    /// leave out the equal split, whose value 0 [`super::context::CodeMoves::halves_at`] gives.
    fn of<V: Value>(table: &[V], b: u64, ctx: &Context) -> Option<Self> {
        let moves = ctx.moves;
        let rests = ctx.lane_rests.count(moves);
        let splits = &moves.splits[..rests];
        let last = *splits.last()?;
        if ctx.bound as usize != 64 * W || b <= 2 * (last + LANE_SMALL) {
            return None;
        }
        let split_ahead =
            |j: u64, r: u64| r + j < b && (2 * r + j < b || moves.halves.contains(&j));
        let (ahead, late): (Vec<_>, Vec<_>) =
            (ctx.rare.iter()).partition(|&&(r, _)| moves.splits.iter().all(|&j| split_ahead(j, r)));
        let rare =
            (moves.splits.iter()).flat_map(|&j| ahead.iter().map(move |&(r, rv)| (j + r, rv)));
        let marked = Marked {
            from: 1 + LANE_SMALL,
            rests,
        };
        let small = (splits.iter())
            .flat_map(|&j| (1..marked.from).map(move |a| (j + a, table[a as usize].into())));
        let mut pairs: Vec<(u64, u32)> = rare.chain(small).collect();
        // A rare heap among the smallest is one pair.
        pairs.sort_unstable();
        pairs.dedup();
        let (near, far): (Vec<_>, Vec<_>) = pairs
            .into_iter()
            .map(|(d, c)| (d as usize, c))
            .partition(|&(d, _)| d < LANE_COUNT);
        Some(Lanes {
            far,
            near,
            late,
            marked,
            group: [[0; LANE_COUNT]; W],
            width: GroupWidth::default(),
            x0: u64::MAX,
            isa: detect(),
        })
    }

    /// Marks the splits of position x given by the pairs, whose table holds every position
    /// below x, in `marks` (cleared, [`Context::room`] words); the [`Lanes::late`] rare heaps'
    /// splits are left to [`mark_rare_heaps`], and the far pairs [`Ahead::of`] took out to
    /// `ahead`. Positions come in increasing order.
    #[inline]
    fn mark<V: Value>(&mut self, table: &[V], x: u64, marks: &mut [u64], ahead: Option<&Ahead<W>>) {
        let mut i = x.wrapping_sub(self.x0);
        if i >= LANE_COUNT as u64 {
            self.x0 = x;
            self.group = self.width.marks(self.isa, table, x as usize, &self.far);
            if let Some(ahead) = ahead {
                ahead.add(table, x, &mut self.group);
            }
            i = 0;
        }
        for (w, word) in marks[..W].iter_mut().enumerate() {
            *word = self.group[w][i as usize];
        }
        let near = self
            .near
            .iter()
            .map(|&(d, c)| table[x as usize - d].into() ^ c);
        mark_all(marks, near);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;
    use crate::engine::rare_values::context::equal_split;
    use crate::engine::rare_values::lane_rests::LaneRests;
    use crate::sparse_space::is_rare;
    use crate::xorshift::xorshift;

    /// Positions one after another whose values outgrow their table's type: the first value
    /// that does not fit ends the stretch unwritten, and the wider table takes it, both equal
    /// to the mex over every split.
    #[test]
    fn in_order_values_past_eight_bits_end_the_stretch_and_fit_a_wider_table() {
        let moves = CodeMoves::splits_only(vec![0], true);
        let mask = 254;
        let bound = 256;
        // Values below 256 that nearly every split of a long heap covers.
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut small: Vec<u8> = (0..6000).map(|_| (next() >> 24) as u8).collect();
        small[0] = 0;
        let rare: Vec<(u64, u32)> = (1..small.len())
            .filter(|&x| is_rare(small[x] as u32, mask))
            .map(|x| (x as u64, small[x] as u32))
            .collect();
        let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
        let ctx = Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values);
        let b = small.len() as u64;
        let mex_of_splits = |table: &[u16], x: usize| {
            let options: std::collections::HashSet<u16> = (1..x.div_ceil(2))
                .map(|a| table[a] ^ table[x - a])
                .collect();
            (0..).find(|v| !options.contains(v)).unwrap() as u32
        };
        let mut narrow = small.clone();
        narrow.resize(b as usize + 8, 0);
        let (out, _) = compute(&mut narrow, b, 8, &ctx, &mut Regions::default());
        let wide_before: Vec<u16> = small.iter().map(|&v| v as u16).collect();
        let want = mex_of_splits(&wide_before, b as usize);
        assert_eq!(want, 256, "the test needs a first value past eight bits");
        assert_eq!(
            out,
            vec![256],
            "the stretch ends at the value u8 cannot hold"
        );
        assert_eq!(narrow[b as usize], 0, "and does not write it");
        let mut wide = wide_before;
        wide.resize(b as usize + 8, 0);
        let (out, _) = compute(&mut wide, b, 8, &ctx, &mut Regions::default());
        assert_eq!(out, vec![256], "a value at the bound ends the stretch too");
        assert_eq!(wide[b as usize], 256);
    }

    /// The moves of the lane tests: splits after removing 1, 2 or 3 (after 2 unequal only
    /// when `unequal`), removals of 1 and 3 leaving one heap, and 4 taking a whole heap.
    fn lane_moves(unequal: bool) -> CodeMoves {
        CodeMoves {
            halves: if unequal { vec![1, 3] } else { vec![1, 2, 3] },
            ..CodeMoves::listed(vec![1, 2, 3], vec![1, 3], vec![4], false)
        }
    }

    /// A table of `len` values below `bound` (at most 256): any value at positions 1 to 40,
    /// common ones (under `mask`) accepted by `later` from there on, and the rare positions it
    /// has.
    fn lane_table(
        len: usize,
        mask: u32,
        bound: u32,
        seed: u64,
        later: fn(u8) -> bool,
    ) -> (Vec<u8>, Vec<(u64, u32)>) {
        let mut next = xorshift(seed);
        let table: Vec<u8> = (0..len)
            .map(|x| {
                loop {
                    let v = (next() % bound as u64) as u8;
                    if x == 0 {
                        break 0;
                    }
                    if x <= 40 || (!is_rare(v as u32, mask) && later(v)) {
                        break v;
                    }
                }
            })
            .collect();
        let rare = rare_positions(&table, mask);
        (table, rare)
    }

    /// The rare positions of `table` under `mask`, with their values.
    fn rare_positions(table: &[u8], mask: u32) -> Vec<(u64, u32)> {
        (1..table.len())
            .filter(|&x| is_rare(table[x] as u32, mask))
            .map(|x| (x as u64, table[x] as u32))
            .collect()
    }

    /// The value of x in `table` (final below x) by the definition: the mex over every move.
    fn mex_of_every_move(table: &[u8], x: u64, moves: &CodeMoves) -> u32 {
        let g = |q: u64| table[q as usize] as u32;
        let mut options = std::collections::HashSet::new();
        if moves.wholes.contains(&x) || moves.halves_at(x) {
            options.insert(0);
        }
        for &j in moves.singles.iter().filter(|&&j| j < x) {
            options.insert(g(x - j));
        }
        for s in moves.rests(x) {
            for a in (1..=s / 2).filter(|&a| !equal_split(a, s)) {
                options.insert(g(a) ^ g(s - a));
            }
        }
        (0..).find(|v| !options.contains(v)).unwrap()
    }

    /// The marks of the lanes, with those of the rare heaps they leave to be marked position
    /// by position, are those of the splits with a rare heap and of the smallest heaps'
    /// splits of the first or of every rest, for positions in and across lane groups, with
    /// every instruction set this processor has, for bitsets of one, two and four words.
    #[test]
    fn lanes_mark_the_splits_with_rare_and_smallest_heaps() {
        lanes_mark_what_the_splits_have::<1>();
        lanes_mark_what_the_splits_have::<2>();
        lanes_mark_what_the_splits_have::<4>();
        let mask = 0b10_1101;
        let short = lane_table(300, mask, 64, 4, |_| true);
        let moves = lane_moves(false);
        let ctx = Context::sparse_for_test(&moves, mask, &short.1, 64, &[]);
        assert!(
            Lanes::<1>::of(&short.0, 200, &ctx).is_none(),
            "no lanes before twice the smallest heaps' farthest pair"
        );
        let other_bound = Context::sparse_for_test(&moves, mask, &short.1, 128, &[]);
        assert!(
            Lanes::<1>::of(&short.0, 1000, &other_bound).is_none(),
            "no lanes of one word for values past 64"
        );
    }

    /// [`lanes_mark_the_splits_with_rare_and_smallest_heaps`] for bitsets of `W` words.
    fn lanes_mark_what_the_splits_have<const W: usize>() {
        for lane_rests in [LaneRests::First, LaneRests::Every] {
            lanes_of_these_rests_mark_what_the_splits_have::<W>(lane_rests);
        }
    }

    /// [`lanes_mark_what_the_splits_have`] with the smallest heaps of `lane_rests`.
    fn lanes_of_these_rests_mark_what_the_splits_have<const W: usize>(lane_rests: LaneRests) {
        let mask = 0b10_1101;
        let bound = 64 * W as u32;
        let rare_below_bound: Vec<u8> = (0..bound)
            .filter(|&v| is_rare(v, mask))
            .map(|v| v as u8)
            .collect();
        for (seed, unequal) in [(1, false), (2, true), (3, true), (4, false)] {
            let (mut table, _) = lane_table(2000, mask, bound, seed, |_| true);
            // Rare heaps whose splits are not those of every position from b = 1000 on: one
            // whose equal split after removing 2 (a move unless `unequal`) lands at 1012, two
            // within a removal of b and two past it.
            for (k, r) in [505, 998, 999, 1003, 1013].into_iter().enumerate() {
                table[r] = rare_below_bound[(k + seed as usize) * 7 % rare_below_bound.len()];
            }
            let rare = rare_positions(&table, mask);
            let moves = lane_moves(unequal);
            let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
            let ctx = Context {
                lane_rests,
                ..Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values)
            };
            let b = 1000;
            let g = |q: u64| table[q as usize] as u32;
            let isas = every_here();
            for isa in isas {
                let mut lanes = Lanes::<W>::of(&table, b, &ctx).expect("lanes past every pair");
                let late: Vec<u64> = lanes.late.iter().map(|&(r, _)| r).collect();
                let want_late = [505, 998, 999, 1003, 1013]
                    .into_iter()
                    .skip(usize::from(!unequal));
                assert_eq!(late, want_late.collect::<Vec<_>>(), "seed {seed}, W = {W}");
                lanes.isa = isa;
                for x in b..b + 3 * LANE_COUNT as u64 + 5 {
                    let mut want = vec![0u64; Context::room(bound)];
                    let mut note = |v: u32| want[v as usize / 64] |= 1 << (v % 64);
                    for s in moves.rests(x) {
                        for &(r, rv) in rare.iter().filter(|&&(r, _)| r < s) {
                            if !equal_split(r, s) {
                                note(rv ^ g(s - r));
                            }
                        }
                    }
                    for s in moves.rests(x).take(lane_rests.count(&moves)) {
                        for a in 1..=LANE_SMALL {
                            note(g(a) ^ g(s - a));
                        }
                    }
                    let mut got = vec![0; Context::room(bound)];
                    lanes.mark(&table, x, &mut got, None);
                    mark_rare_heaps(&table, x, &moves, &lanes.late, &mut got);
                    // Where two equal heaps are a move, their value 0 is marked anyway
                    // (`halves_at`): the lanes may mark it through the equal split.
                    if moves.halves_at(x) {
                        got[0] &= !1;
                        want[0] &= !1;
                    }
                    assert_eq!(got, want, "x = {x}, seed {seed}, W = {W}");
                }
            }
        }
    }

    /// Stretches with lanes (of one, two and four words; of the first rest's smallest heaps or
    /// every rest's) give the mex over every move, past the new rare positions they find, whose
    /// successors need them among their rare heaps. Where the common values all have bit 1
    /// clear (not in the mask), no split of two common heaps has the rare value 2, so positions
    /// of value 2 come soon.
    #[test]
    fn stretches_with_lanes_give_every_moves_mex_past_new_rare_positions() {
        let mask = 0b10_1101;
        let (mut past_rare, mut whole) = (0, 0);
        let rests = [LaneRests::First, LaneRests::Every];
        for (seed, lane_rests) in (1..=12).flat_map(|seed| rests.map(|r| (seed, r))) {
            let unequal = seed % 3 == 0;
            let moves = lane_moves(unequal);
            let later: fn(u8) -> bool = if seed % 2 == 0 {
                |v| v & 2 == 0
            } else {
                |_| true
            };
            let bound = 64 << ((seed / 3) % 3);
            let (start, rare) = lane_table(1000, mask, bound, seed, later);
            let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
            let ctx = Context {
                lane_rests,
                ..Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values)
            };
            let b = start.len() as u64;
            let has_lanes = match bound {
                64 => Lanes::<1>::of(&start, b, &ctx).is_some(),
                128 => Lanes::<2>::of(&start, b, &ctx).is_some(),
                _ => Lanes::<4>::of(&start, b, &ctx).is_some(),
            };
            assert!(has_lanes, "bound {bound}");
            let mut table = start.clone();
            table.resize(b as usize + 200, 0);
            let (out, _) = compute(&mut table, b, 200, &ctx, &mut Regions::default());
            let mut want = start;
            for x in b..b + out.len() as u64 {
                let v = mex_of_every_move(&want, x, &moves);
                want.push(v as u8);
            }
            let got: Vec<u32> = out.clone();
            let expected: Vec<u32> = want[b as usize..].iter().map(|&v| v as u32).collect();
            assert_eq!(got, expected, "seed {seed}, bound {bound}, {lane_rests:?}");
            let last = *out.last().unwrap();
            if out.len() < 200 {
                assert!(last >= bound, "seed {seed}: ended early");
            } else {
                whole += 1;
            }
            past_rare += usize::from(out[..out.len() - 1].iter().any(|&v| is_rare(v, mask)));
        }
        assert!(
            past_rare > 0,
            "the test needs a stretch that goes on past a new rare position"
        );
        assert!(whole > 0, "and one that is whole");
    }

    /// A stretch long enough for its far pairs to be marked ahead gives on two threads the
    /// values it gives on one, the mex over every move, with lanes of one, two and four words:
    /// `.167` (mask 125) from heap 1,500, its values below 64.
    #[test]
    fn a_long_stretch_gives_every_moves_mex_on_two_threads_as_on_one() {
        let (mask, b, len) = (125, 1500, 1500);
        assert!(len >= AHEAD_LEAST);
        let moves = CodeMoves::listed(vec![2, 3], vec![2, 3], vec![1, 3], false);
        let mut want = vec![0u8];
        for x in 1..b + len {
            let v = mex_of_every_move(&want, x, &moves);
            want.push(v as u8);
        }
        let start = &want[..b as usize];
        let rare = rare_positions(start, mask);
        for bound in [64, 128, 256] {
            let rare_values = crate::sparse_space::rare_values(mask, Context::room(bound));
            let ctx = Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values);
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut table = start.to_vec();
                table.resize((b + len) as usize, 0);
                let regions = &mut Regions::default();
                let (out, _) = pool.install(|| compute(&mut table, b, len, &ctx, regions));
                let expected: Vec<u32> = want[b as usize..].iter().map(|&v| v as u32).collect();
                assert_eq!(out, expected, "bound {bound}, {threads} threads");
            }
        }
    }
}
