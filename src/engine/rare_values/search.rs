//! The search for the rare values that a position's splits exclude: the splits with the
//! smallest heaps of every rest a batch at a time (past the first [`SCANNED_FIRST`] while
//! many values are missing), then each rare value still missing alone, at the heaps
//! remembered for it ([`Witnesses`]), among the heaps of high values ([`High`]) or in the
//! [`Region`].

use super::context::{CodeMoves, Context, Value, equal_split};
use super::marks::{first_clear, mark, mark_splits};
use super::region::Region;

/// Splits with the smallest heaps allowed that are scanned, a [`BATCH`] at a time, before the
/// rare values still missing are searched one by one (and that a block marks for the first
/// splitting removal with the splits of rare heaps). 1,024 rather than 512: Grundy's game
/// resumed at 1.89·10^8 positions (`scripts/bench-checkpoint-rate.sh`, 40 s runs interleaved,
/// 2 threads, 32-bit lanes) went 501,000–577,000 positions a CPU second against
/// 447,000–491,000; 2,048 and 4,096 went slower. (512 rather than 256 had gained 15–20% at
/// 1.35·10^7.)
pub(super) const SCANNED_FIRST: u64 = 1024;
/// Splits scanned between two checks for missing rare values, among the [`SCANNED_FIRST`].
const BATCH: u64 = 32;
/// Splits of each rest scanned between two checks past the [`SCANNED_FIRST`].
const SWEPT: u64 = 128;
/// Missing rare values from which the splits are scanned on past the [`SCANNED_FIRST`]
/// rather than searched for one value at a time. When the first removal's
/// [`SCANNED_FIRST`] were marked before the search, its next ones count among the first only
/// from this many missing too: to 2^18, Grundy's game and `.161` (one splitting removal)
/// then take 8% and 18% fewer instructions (callgrind, one thread) than when any missing
/// value scanned them; `.565` and `.364` (three and two) 5% and 1.5% more to 2^16.
const SWEPT_WHILE: usize = 16;
/// Splits searched for each missing rare value outside the [`Region`].
pub(super) const SEARCHED: u64 = 1 << 16;

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
    pub(super) fn of(moves: &CodeMoves) -> Ahead {
        if moves.singles.is_empty() {
            Ahead::First
        } else {
            Ahead::Second
        }
    }
}

/// The splits with the smallest heaps marked before a search of a position one after another:
/// those with a heap below `from` of the first `rests` rests (by removal, the smallest first).
#[derive(Clone, Copy)]
pub(super) struct Marked {
    pub(super) from: u64,
    pub(super) rests: usize,
}

/// No split marked before the search.
pub(super) const NONE_MARKED: Marked = Marked { from: 1, rests: 0 };

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
    /// Scan the splits with the smallest heaps first, past those marked already, unless
    /// [`mark_known_splits`] has marked them (`None`).
    pub(super) scan_past: Option<Marked>,
    /// The small heaps the table keeps ([`Context::head`]): no split with a small heap from
    /// here on is read.
    pub(super) head: u64,
    /// The splits with the smallest heaps of each rest scanned before the rare values still
    /// missing are searched one by one ([`Context::scanned_first`]).
    pub(super) scanned_first: u64,
}

impl<V: Value> Search<'_, V> {
    /// Marks rare values that splits of x into two heaps below `below` exclude: every rare
    /// value below the first or second common value `marks` lacks, as `ahead` says. While a
    /// rare value is missing, the splits with the smallest heaps come first, a batch of each
    /// removal in turn, marking whatever values they have ([`Search::sweep`]); then, removal
    /// by removal, each rare value still missing is looked for alone: at the remembered
    /// [`Witnesses`], then in the [`Region`], which needs one comparison a split.
    pub(super) fn cover(
        &mut self,
        at: impl Fn(u64) -> u32,
        below: u64,
        x: u64,
        moves: &CodeMoves,
        ahead: Ahead,
        marks: &mut [u64],
    ) {
        let rare = self.rare_values;
        let common_from =
            |marks: &[u64], from| first_clear(from, marks.len(), |w| marks[w] | rare[w]);
        let first = common_from(marks, 0);
        let limit = match ahead {
            Ahead::First => first,
            Ahead::Second => common_from(marks, first + 1),
        };
        self.witnesses.swept += self.sweep(below, x, moves, limit, marks);
        for s in moves.rests(x) {
            if missing_from(rare, marks, 0) >= limit {
                break;
            }
            self.cover_rest(&at, below, s, limit, marks);
        }
    }

    /// Marks the splits of every rest of x with the smallest heaps, a batch of each rest in
    /// turn: the first [`SCANNED_FIRST`] of each rest while a rare value below `limit` is
    /// missing (the next ones of a first removal whose first are marked already only from
    /// [`SWEPT_WHILE`] missing), then on while at least [`SWEPT_WHILE`] are. Many missing
    /// values are then found by one pass over the splits instead of a search each. Returns the
    /// number of splits marked.
    fn sweep(&self, below: u64, x: u64, moves: &CodeMoves, limit: u32, marks: &mut [u64]) -> u64 {
        let rare = self.rare_values;
        // The first removal's smallest heaps marked already are followed by as many more only
        // while many values are missing: else a search of each costs less.
        let again = count_missing(rare, marks, limit) >= SWEPT_WHILE;
        // Each rest s with the small heaps of its first splits still to scan and those past
        // them.
        let rests = || {
            moves.rests(x).enumerate().filter_map(move |(k, s)| {
                let (lo, last) = split_heaps(s, below)?;
                // Marked already: the first removal's smallest heaps in a block, those of the
                // rests `scan_past` says one position after another.
                let from = match (k, self.scan_past) {
                    (0, None) => lo + self.scanned_first,
                    (k, Some(marked)) if k < marked.rests => lo.max(marked.from),
                    _ => lo,
                };
                let first = if k == 0 && self.scan_past.is_none() && !again {
                    0
                } else {
                    self.scanned_first
                };
                // Partners in `table`: s − a below its length; none past the last heap or
                // outside the head the table keeps.
                let end = (last + 1).min(self.head);
                let from = from
                    .max((s + 1).saturating_sub(self.table.len() as u64))
                    .min(end);
                let past = (from + first).min(end);
                Some((s, from..past, past..end))
            })
        };
        let longest = rests().map(|(_, first, _)| first.end - first.start).max();
        let mut swept = 0;
        let mut scanned = 0;
        while scanned < longest.unwrap_or(0) && count_missing(rare, marks, limit) > 0 {
            for (s, first, _) in rests() {
                let a = (first.start + scanned).min(first.end);
                let batch = a..(a + BATCH).min(first.end);
                swept += batch.end - batch.start;
                mark_splits(self.table, s, batch, marks);
            }
            scanned += BATCH;
        }
        let mut further = 0;
        while count_missing(rare, marks, limit) >= SWEPT_WHILE {
            let mut more = false;
            for (s, _, past) in rests() {
                let a = (past.start + further).min(past.end);
                let batch = a..(a + SWEPT).min(past.end);
                swept += batch.end - batch.start;
                mark_splits(self.table, s, batch, marks);
                more |= a + SWEPT < past.end;
            }
            if !more {
                break;
            }
            further += SWEPT;
        }
        swept
    }

    /// [`Search::cover`] for the splits (a, s − a) of one rest s: each rare value still
    /// missing alone.
    fn cover_rest(
        &mut self,
        at: &impl Fn(u64) -> u32,
        below: u64,
        s: u64,
        limit: u32,
        marks: &mut [u64],
    ) {
        let Some((lo, hi)) = split_heaps(s, below).map(|(lo, _)| (lo, s / 2)) else {
            return;
        };
        let rare = self.rare_values;
        let searched = lo..(lo + SEARCHED).min(hi + 1).min(self.head);
        let valid = |a: u64| lo <= a && a <= hi && !equal_split(a, s);
        let mut v = missing_from(rare, marks, 0);
        while v < limit {
            let remembered = self.witnesses.heaps[v as usize]
                .iter()
                .any(|&q| q < s && s - q < self.head && valid(s - q) && at(s - q) ^ at(q) == v);
            // The first splits of a block's positions are marked before the search: count
            // what they left to a search of many splits.
            self.witnesses.searched += u64::from(!remembered && self.scan_past.is_none());
            let found = remembered
                || match self.high {
                    Some(high) if v >= high.from => high.reaches(s, v, below, at),
                    _ => false,
                }
                || match self.region {
                    Some(region) => region.find(self.table, s, v),
                    None => searched
                        .clone()
                        .find(|&a| !equal_split(a, s) && at(a) ^ at(s - a) == v),
                }
                .map(|a| self.witnesses.put(v, s - a))
                .is_some();
            if found {
                mark(marks, v);
            }
            v = missing_from(rare, marks, v + 1);
        }
    }
}

/// The smallest and the largest small heap a of the splits (a, s − a) of s whose partner lies
/// below `below` (a < s − a: the equal split is left out), if there are any.
fn split_heaps(s: u64, below: u64) -> Option<(u64, u64)> {
    let lo = (s.saturating_sub(below) + 1).max(1);
    let hi = s / 2;
    let last = if equal_split(hi, s) { hi - 1 } else { hi };
    (lo <= last).then_some((lo, last))
}

/// The smallest rare value from `from` on that `marks` lacks.
#[inline]
fn missing_from(rare: &[u64], marks: &[u64], from: u32) -> u32 {
    first_clear(from, marks.len(), |w| marks[w] | !rare[w])
}

/// The rare values below `limit` that `marks` lacks.
#[inline]
fn count_missing(rare: &[u64], marks: &[u64], limit: u32) -> usize {
    let (full, part) = ((limit / 64) as usize, limit % 64);
    let lacking = |w: usize| rare[w] & !marks[w];
    let whole: u32 = (0..full).map(|w| lacking(w).count_ones()).sum();
    let last = if part == 0 {
        0
    } else {
        (lacking(full) & ((1 << part) - 1)).count_ones()
    };
    (whole + last) as usize
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
    pub(super) fn reaches(&self, s: u64, v: u32, below: u64, at: impl Fn(u64) -> u32) -> bool {
        let end = below.min(s);
        self.below
            .iter()
            .chain(self.since)
            .take_while(|&&(p, _)| p < end)
            .any(|&(p, pv)| s - p < below && !equal_split(p, s) && at(s - p) ^ pv == v)
    }
}

/// Witnesses remembered a value.
const REMEMBERED: usize = 4;

/// The larger heaps q of the last splits (s − q, q) found to have each rare value. Values of
/// nearby small heaps often repeat with a short shift (Grundy's game nearly repeats with shift
/// 3), so for a later s the split (s − q, q) often has the same value: one comparison instead
/// of a search.
#[derive(Default)]
pub(super) struct Witnesses {
    heaps: Vec<[u64; REMEMBERED]>,
    /// Splits the sweeps of the searches marked ([`Search::sweep`]): what the searches cost.
    pub(super) swept: u64,
    /// Rare values that the first splits marked before the searches left to a search of the
    /// region or of many splits ([`super::first_splits::FirstSplits`]).
    pub(super) searched: u64,
}

impl Witnesses {
    pub(super) fn new(room: usize) -> Witnesses {
        Witnesses {
            heaps: vec![[u64::MAX; REMEMBERED]; room],
            swept: 0,
            searched: 0,
        }
    }

    /// These witnesses emptied, for `room` values, in the memory they already hold when that
    /// is enough: what [`Witnesses::new`] gives, without an allocation.
    pub(super) fn emptied(&mut self, room: usize) -> &mut Witnesses {
        if self.heaps.len() == room {
            self.heaps.fill([u64::MAX; REMEMBERED]);
        } else {
            *self = Witnesses::new(room);
        }
        self
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

    /// A search of `table` with no region and no list of high values, scanning the smallest
    /// heaps' splits past `scan_past` (None: marked already).
    fn search_of<'a>(
        table: &'a [u16],
        witnesses: &'a mut Witnesses,
        rare_values: &'a [u64],
        scan_past: Option<Marked>,
    ) -> Search<'a, u16> {
        Search {
            table,
            region: None,
            witnesses,
            rare_values,
            high: None,
            scan_past,
            head: u64::MAX,
            scanned_first: SCANNED_FIRST,
        }
    }

    /// The search covers the rare values of every splitting removal, not only the first: with
    /// removals 2 and 3 and bit 5 of a value set exactly at odd positions, the splits of an
    /// even rest have values below 32 and those of an odd rest values from 32 on, so half the
    /// rare values of each position come from one removal only.
    #[test]
    fn every_splitting_removal_is_searched() {
        let moves = CodeMoves::splits_only(vec![2, 3], false);
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
                scan_past: Some(NONE_MARKED),
                head: u64::MAX,
                scanned_first: SCANNED_FIRST,
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
    /// With hundreds of rare values missing after the first [`SCANNED_FIRST`] splits, the
    /// sweep goes on past them, over every removal, and marks only values of allowed splits
    /// (partners below `below`, never the equal split, which the searches leave out): values
    /// found only past the first splits are marked, every marked value is an option (never 0,
    /// which only an equal split has), and it stops with fewer than
    /// [`SWEPT_WHILE`] missing or every split scanned.
    #[test]
    fn the_sweep_goes_on_while_many_values_are_missing_and_marks_only_splits() {
        let (mask, bound) = (8191, 8192);
        let room = Context::room(bound);
        let rare_values = crate::sparse_space::rare_values(mask, room);
        // Distinct values, so that only an equal split has value 0.
        let mut next = xorshift(0x6A09_E667_F3BC_C908);
        let mut table: Vec<u16> = (0..6000).collect();
        for i in (1..table.len()).rev() {
            table.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let at = |q: u64| -> u32 { table[q as usize].into() };
        let mut swept_past = 0;
        let moves = CodeMoves::splits_only(vec![1, 2], false);
        for (x, below) in [(4000, 4000), (4001, 3800), (2404, 2404)] {
            let mut witnesses = Witnesses::new(room * 64);
            let search = search_of(
                &table[..below as usize],
                &mut witnesses,
                &rare_values,
                Some(NONE_MARKED),
            );
            let mut marks = vec![0u64; room];
            let limit = 1000;
            search.sweep(below, x, &moves, limit, &mut marks);
            let allowed = |s: u64, lo: u64| {
                (lo..=s / 2).filter(move |&a| s - a < below && !equal_split(a, s))
            };
            let options = |lo: u64| -> Vec<bool> {
                let mut has = vec![false; 64 * room];
                for s in moves.rests(x) {
                    allowed(s, lo).for_each(|a| has[(at(a) ^ at(s - a)) as usize] = true);
                }
                has
            };
            let (every, past_first) = (options(1), options(1 + SCANNED_FIRST));
            let early = {
                let mut has = vec![false; 64 * room];
                for s in moves.rests(x) {
                    allowed(s, 1)
                        .take(SCANNED_FIRST as usize)
                        .for_each(|a| has[(at(a) ^ at(s - a)) as usize] = true);
                }
                has
            };
            let marked = |v: u32| marks[(v / 64) as usize] >> (v % 64) & 1 == 1;
            for v in 0..64 * room as u32 - 1 {
                assert!(!marked(v) || every[v as usize], "x = {x}: {v} is no option");
                let late = past_first[v as usize] && !early[v as usize];
                swept_past += usize::from(marked(v) && late);
            }
            let missing = count_missing(&rare_values, &marks, limit);
            let all_rare = (0..limit)
                .filter(|&v| is_rare(v, mask) && every[v as usize])
                .all(marked);
            assert!(
                missing < SWEPT_WHILE || all_rare,
                "x = {x}: {missing} missing"
            );
        }
        assert!(
            swept_past > 0,
            "the test needs values found past the first splits"
        );
    }

    /// A block just past the first positions whose heaps below [`SCANNED_FIRST`] past the
    /// smallest reach beyond the table (the splits' first heaps marked already, `scan_past`
    /// `None`): the sweep marks the splits there are and reads nothing past the table.
    #[test]
    fn a_sweep_past_every_split_of_a_short_table_marks_what_there_is() {
        let (mask, bound) = (255, 256);
        let room = Context::room(bound);
        let rare_values = crate::sparse_space::rare_values(mask, room);
        let mut next = xorshift(0x510E_527F_ADE6_82D1);
        let table: Vec<u16> = (0..1100).map(|_| (next() % 256) as u16).collect();
        let moves = CodeMoves::splits_only(vec![0, 1], true);
        let mut witnesses = Witnesses::new(room * 64);
        for x in [1100u64, 1200, 1300] {
            let search = search_of(&table, &mut witnesses, &rare_values, None);
            let mut marks = vec![0u64; room];
            search.sweep(table.len() as u64, x, &moves, 256, &mut marks);
            // The values of the splits (a, s − a) whose partner lies in the table.
            let mut options = [false; 256];
            for s in moves.rests(x) {
                let first = (s + 1).saturating_sub(table.len() as u64).max(1);
                for a in first..=(s - 1) / 2 {
                    options[usize::from(table[a as usize] ^ table[(s - a) as usize])] = true;
                }
            }
            for v in 0..256 {
                let marked = marks[v / 64] >> (v % 64) & 1 == 1;
                assert!(!marked || options[v], "x = {x}: {v} is no split's value");
            }
        }
    }

    /// When the first removal's smallest splits were marked before the search (`scan_past`
    /// `None`, the only removal of Grundy's game) and fewer than [`SWEPT_WHILE`] rare
    /// values are missing, the sweep marks nothing: each is searched alone; from that many on,
    /// it scans the next [`SCANNED_FIRST`] and finds values there.
    #[test]
    fn marked_first_splits_are_followed_only_while_many_values_are_missing() {
        let (mask, bound) = (255, 256);
        let room = Context::room(bound);
        let rare_values = crate::sparse_space::rare_values(mask, room);
        let mut next = xorshift(0xBB67_AE85_84CA_A73B);
        let table: Vec<u16> = (0..8000).map(|_| (next() % 256) as u16).collect();
        let at = |q: u64| -> u32 { table[q as usize].into() };
        let moves = CodeMoves::splits_only(vec![0], true);
        let (x, below, limit) = (7000u64, 7000u64, 200u32);
        let lo = x - below + 1;
        let values_of = |heaps: std::ops::Range<u64>| -> Vec<u32> {
            heaps.map(|a| at(a) ^ at(x - a)).collect()
        };
        let next_values = values_of(lo + SCANNED_FIRST..lo + 2 * SCANNED_FIRST);
        let mut witnesses = Witnesses::new(room * 64);
        let search = search_of(&table[..below as usize], &mut witnesses, &rare_values, None);
        for missing in [SWEPT_WHILE - 1, SWEPT_WHILE] {
            // Every value marked but `missing` rare values below `limit` that the next splits
            // have.
            let mut lacking: Vec<u32> = next_values
                .iter()
                .copied()
                .filter(|&v| v < limit && is_rare(v, mask))
                .collect();
            lacking.sort_unstable();
            lacking.dedup();
            assert!(lacking.len() >= missing, "the test needs {missing} values");
            lacking.truncate(missing);
            let mut marks = vec![0u64; room];
            (0..bound)
                .filter(|v| !lacking.contains(v))
                .for_each(|v| mark(&mut marks, v));
            let before = marks.clone();
            search.sweep(below, x, &moves, limit, &mut marks);
            let found: Vec<u32> = lacking
                .iter()
                .copied()
                .filter(|&v| marks[(v / 64) as usize] >> (v % 64) & 1 == 1)
                .collect();
            if missing < SWEPT_WHILE {
                assert_eq!(marks, before, "{missing} missing");
            } else {
                assert!(!found.is_empty(), "{missing} missing, none found");
                assert!(
                    found.iter().all(|v| next_values.contains(v)),
                    "{missing} missing: {found:?} not all of the next splits"
                );
            }
        }
    }
}
