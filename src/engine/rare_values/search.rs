//! The search for the rare values that a position's splits exclude: the splits with the
//! smallest heaps a batch at a time, then each rare value still missing alone, at the heaps
//! remembered for it ([`Witnesses`]), among the heaps of high values ([`High`]) or in the
//! [`Region`].

use super::context::{Context, Moves, Value};
use super::marks::{first_clear, mark, mark_splits};
use super::region::Region;

/// Splits with the smallest heaps allowed that are scanned, a [`BATCH`] at a time, before the
/// rare values still missing are searched one by one.
pub(super) const SCANNED_FIRST: u64 = 256;
/// Splits scanned between two checks for missing rare values.
const BATCH: u64 = 32;
/// Splits searched for each missing rare value outside the [`Region`].
const SEARCHED: u64 = 1 << 16;

/// Up to which common value `marks` lacks [`Search::cover`] covers the rare values.
#[derive(Clone, Copy)]
pub(super) enum Ahead {
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
    pub(super) fn of(moves: &Moves) -> Ahead {
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
    pub(super) fn cover(
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
    pub(super) from: u32,
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
    pub(super) fn reaches(
        &self,
        s: u64,
        v: u32,
        below: u64,
        at: impl Fn(u64) -> u32,
        moves: &Moves,
    ) -> bool {
        let end = below.min(s);
        self.below
            .iter()
            .chain(self.since)
            .take_while(|&&(p, _)| p < end)
            .any(|&(p, pv)| s - p < below && !moves.forbids(p, s) && at(s - p) ^ pv == v)
    }
}

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
    use crate::engine::rare_values::region::{REGION_FIRST, Regions};
    use crate::sparse_space::is_rare;
    use crate::xorshift::xorshift;

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
}
