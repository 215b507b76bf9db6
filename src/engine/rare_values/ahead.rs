//! The far pairs' marks of a stretch one position after another, made ahead on a second core.
//! A pair (d, c) of the lanes needs the values of positions d back: while the stretch's thread
//! computes a group of [`LANE_COUNT`] positions, the pairs with d ≥ [`AHEAD_FROM`] of groups up
//! to a few further on have their partners final already, and another worker marks them. The
//! stretch's thread takes each group's marks when they are ready and makes them itself when
//! they are not (the other worker busy or not started): it never waits, and the marks, hence
//! the values, are the same either way. Each exchange of a cache line between the cores costs
//! the stretch's thread time, so the two threads share few: one counter, the groups the stretch
//! has taken, which also says which positions are written; the slots of the marks; and the
//! values of the groups just written, handed on in lines of their own, which the worker copies.
//! It reads the table itself only [`MIRROR_BACK`] positions back, in cache lines the stretch no
//! longer writes (where it read the table's latest lines, the stretch's own reads of its latest
//! values there took `.167`'s thread a third longer).

use super::context::Value;
use super::group_width::GroupWidth;
use super::in_order::LANE_COUNT;
use super::partner::Over;
use crate::engine::isa::Isa;
use crossbeam_utils::CachePadded;
use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering, fence};

/// The smallest d of the pairs marked ahead, a multiple of [`LANE_COUNT`]: a group's marks
/// can be made once the group `AHEAD_FROM / LANE_COUNT − 1` before it is written, while the
/// stretch computes that one's successor.
const AHEAD_FROM: usize = 32;
/// The fewest pairs marked ahead: with fewer the stretch's thread saves about what the
/// exchanges with the other core cost it (to 2^22 on two threads, every stretch marking ahead:
/// `.454`, 116 pairs, 0.40–0.43 s against 0.37–0.38 without, `.477` 0.33 against 0.38–0.39;
/// `.167` with 238 pairs and `.354` with 317 gain).
const AHEAD_LEAST_PAIRS: usize = 192;
/// The d from which the worker reads the partners from the table: the lines it reads there
/// lie a cache line of one-byte values behind those the stretch writes. Pairs with a smaller d
/// read its copy of the latest values.
const MIRROR_BACK: usize = AHEAD_FROM + 64;
/// Groups whose values wait handed on at once: a worker further behind reads them from the
/// table, which the stretch has left by then.
const HANDOFFS: usize = 16;
/// Groups whose marks wait ready at once: how far the other worker may run ahead.
const SLOTS: usize = 8;
/// Spins of the other worker waiting for the stretch before it yields its core.
const SPINS: u32 = 256;

/// The marks of a group, word by word (word w of position i at `[w][i]`).
pub(super) type Group<const W: usize> = [[u64; LANE_COUNT]; W];

/// The table of a stretch: written one position after another at its end by the stretch's
/// thread while the positions below are read, there and by the worker that marks ahead.
#[derive(Clone, Copy)]
pub(super) struct Cells<'a, V> {
    ptr: *mut V,
    len: usize,
    table: PhantomData<&'a mut [V]>,
}

// SAFETY: a position is written by one thread only before [`Ahead::taken`] says so, and read by
// the other only after (`Cells::below`'s contract).
unsafe impl<V: Send + Sync> Send for Cells<'_, V> {}
// SAFETY: as for `Send`.
unsafe impl<V: Send + Sync> Sync for Cells<'_, V> {}

impl<'a, V: Value> Cells<'a, V> {
    /// The cells of `table`, which they borrow.
    pub(super) fn new(table: &'a mut [V]) -> Self {
        Cells {
            ptr: table.as_mut_ptr(),
            len: table.len(),
            table: PhantomData,
        }
    }

    /// The positions below x.
    ///
    /// # Safety
    /// No position below x is written while the slice lives.
    pub(super) unsafe fn below(&self, x: u64) -> &'a [V] {
        assert!(x as usize <= self.len);
        // SAFETY: within the table; no write below x meanwhile (the caller's contract).
        unsafe { std::slice::from_raw_parts(self.ptr, x as usize) }
    }

    /// Writes position x.
    ///
    /// # Safety
    /// No slice of [`Cells::below`] that holds x lives, on any thread.
    pub(super) unsafe fn write(&self, x: u64, v: V) {
        assert!((x as usize) < self.len);
        // SAFETY: within the table; nothing reads x meanwhile (the caller's contract).
        unsafe { self.ptr.add(x as usize).write(v) }
    }
}

/// A group's marks made ahead, and which group they are of.
struct Slot<const W: usize> {
    /// One more than the index of the group whose marks `group` holds (0: none yet).
    seq: AtomicU64,
    group: UnsafeCell<Group<W>>,
}

/// The values of a group handed on to the worker, and which group they are of.
#[derive(Default)]
struct Handoff {
    /// One more than the index of the group whose values `values` holds; 0 while they change.
    seq: AtomicU64,
    values: [AtomicU32; LANE_COUNT],
}

/// The far pairs of a stretch from `b` marked ahead, and what the two threads tell each other.
pub(super) struct Ahead<const W: usize> {
    /// The pairs (d, c), d ≥ [`AHEAD_FROM`], by d.
    pairs: Vec<(usize, u32)>,
    /// The pairs before this have d < [`MIRROR_BACK`].
    recent: usize,
    b: u64,
    /// Groups in the stretch.
    groups: u64,
    isa: Isa,
    slots: [CachePadded<Slot<W>>; SLOTS],
    handoffs: [CachePadded<Handoff>; HANDOFFS],
    /// Groups the stretch has marked (taken from a slot or made itself): the positions before
    /// the last of them are written.
    taken: CachePadded<AtomicU64>,
    /// Whether the stretch is over.
    over: AtomicBool,
}

// SAFETY: a slot's group is written by the worker only while the stretch does not read it
// (`taken` has passed its last use, `seq` not yet set to the new one) and read by the stretch
// only after `seq` says it is whole.
unsafe impl<const W: usize> Sync for Ahead<W> {}

impl<const W: usize> Ahead<W> {
    /// Takes the pairs with d ≥ [`AHEAD_FROM`] out of `far` (sorted by d) to mark them ahead
    /// for the `len` positions from b, if there are at least [`AHEAD_LEAST_PAIRS`].
    pub(super) fn of(far: &mut Vec<(usize, u32)>, b: u64, len: u64, isa: Isa) -> Option<Self> {
        let first = far.partition_point(|&(d, _)| d < AHEAD_FROM);
        if far.len() - first < AHEAD_LEAST_PAIRS || b < MIRROR_BACK as u64 {
            return None;
        }
        let pairs = far.split_off(first);
        let recent = pairs.partition_point(|&(d, _)| d < MIRROR_BACK);
        Some(Ahead {
            pairs,
            recent,
            b,
            groups: len.div_ceil(LANE_COUNT as u64),
            isa,
            slots: std::array::from_fn(|_| {
                CachePadded::new(Slot {
                    seq: AtomicU64::new(0),
                    group: UnsafeCell::new([[0; LANE_COUNT]; W]),
                })
            }),
            handoffs: Default::default(),
            taken: CachePadded::new(AtomicU64::new(0)),
            over: AtomicBool::new(false),
        })
    }

    /// Adds the pairs' marks of the group from x0 (the stretch's next, every position below x0
    /// written and in `table`) to `group`, from its slot if the worker has made them, else made
    /// here; whether the worker had.
    pub(super) fn add<V: Value>(&self, table: &[V], x0: u64, group: &mut Group<W>) -> bool {
        let k = (x0 - self.b) / LANE_COUNT as u64;
        let slot = &self.slots[k as usize % SLOTS];
        let made_ahead = slot.seq.load(Ordering::Acquire) == k + 1;
        let marks = if made_ahead {
            // SAFETY: whole (`seq`), and the worker writes the slot again only after `taken`
            // passes k.
            unsafe { *slot.group.get() }
        } else {
            GroupWidth::default().marks(self.isa, table, x0 as usize, &self.pairs)
        };
        or_into(group, &marks);
        if k > 0 {
            // Hands on the group before, whose positions are the last written (a seqlock).
            let handoff = &self.handoffs[(k - 1) as usize % HANDOFFS];
            handoff.seq.store(0, Ordering::Relaxed);
            fence(Ordering::Release);
            let last = &table[x0 as usize - LANE_COUNT..x0 as usize];
            for (value, &v) in handoff.values.iter().zip(last) {
                value.store(v.into(), Ordering::Relaxed);
            }
            handoff.seq.store(k, Ordering::Release);
        }
        self.taken.store(k + 1, Ordering::Release);
        // The worker is usually groups ahead: the next group's marks are fetched to this core
        // while the group's positions are computed.
        let next = &self.slots[(k + 1) as usize % SLOTS];
        prefetch(std::ptr::from_ref(&next.seq).cast());
        for line in 0..W {
            prefetch(next.group.get().cast::<u64>().wrapping_add(line * 8).cast());
        }
        made_ahead
    }

    /// Runs `stretch` (which writes the positions through `cells` and marks each group after
    /// the last one's positions with [`Ahead::add`]) on this thread while another worker, if one
    /// takes it, marks the groups ahead.
    pub(super) fn beside<V: Value, R: Send>(
        &self,
        cells: Cells<'_, V>,
        stretch: impl FnOnce() -> R + Send,
    ) -> R {
        let (out, ()) = rayon::join(
            || {
                let _over = Over(&self.over);
                stretch()
            },
            || self.make(cells),
        );
        out
    }

    /// Marks the groups ahead of the stretch until it is over.
    fn make<V: Value>(&self, cells: Cells<'_, V>) {
        let mut k = 0;
        // The values of positions `base`.. as far as handed on (`mirror`), the stretch's
        // groups among them (`mirrored`).
        let base = self.b - MIRROR_BACK as u64;
        // SAFETY: positions before the stretch are final.
        let mut mirror = unsafe { cells.below(self.b) }[base as usize..].to_vec();
        let mut mirrored = 0;
        let (mut old_width, mut recent_width) = (GroupWidth::default(), GroupWidth::default());
        loop {
            let mut spins = 0;
            let written = loop {
                if self.over.load(Ordering::Acquire) {
                    return;
                }
                // Groups the stretch has marked need no marks.
                let taken = self.taken.load(Ordering::Acquire);
                k = k.max(taken);
                if k >= self.groups {
                    return;
                }
                // The partners of group k lie below its end less AHEAD_FROM; the positions
                // of the groups before the last taken are written.
                let written = self.b + taken.saturating_sub(1) * LANE_COUNT as u64;
                let needed = self.b + (k + 1) * LANE_COUNT as u64;
                if written + AHEAD_FROM as u64 >= needed && k < taken + SLOTS as u64 {
                    break written;
                }
                spins += 1;
                if spins < SPINS {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            };
            // SAFETY: the positions below `written` are final: the stretch writes past them.
            let table = unsafe { cells.below(written) };
            let x0 = self.b + k * LANE_COUNT as u64;
            // The recent pairs' partners lie in the groups before k − 3.
            while mirrored + AHEAD_FROM as u64 / LANE_COUNT as u64 <= k {
                self.copy(mirrored, table, &mut mirror);
                mirrored += 1;
            }
            let (recent, old) = self.pairs.split_at(self.recent);
            let mut marks = old_width.marks(self.isa, table, x0 as usize, old);
            let recent_marks = recent_width.marks(self.isa, &mirror, (x0 - base) as usize, recent);
            or_into(&mut marks, &recent_marks);
            let slot = &self.slots[k as usize % SLOTS];
            // SAFETY: the stretch has taken group k − SLOTS, the slot's last, and reads the slot
            // again only once `seq` says k.
            unsafe { *slot.group.get() = marks };
            slot.seq.store(k + 1, Ordering::Release);
            k += 1;
        }
    }
}

impl<const W: usize> Ahead<W> {
    /// Appends the values of group g, which `table` holds, to `mirror`: as handed on, or from
    /// the table where the stretch has handed on another group since (and so left g's lines).
    fn copy<V: Value>(&self, g: u64, table: &[V], mirror: &mut Vec<V>) {
        let handoff = &self.handoffs[g as usize % HANDOFFS];
        if handoff.seq.load(Ordering::Acquire) == g + 1 {
            let values: [u32; LANE_COUNT] =
                std::array::from_fn(|i| handoff.values[i].load(Ordering::Relaxed));
            fence(Ordering::Acquire);
            if handoff.seq.load(Ordering::Relaxed) == g + 1 {
                mirror.extend(values.map(|v| V::try_from(v).ok().expect("a value of the table")));
                return;
            }
        }
        let x = (self.b + g * LANE_COUNT as u64) as usize;
        mirror.extend_from_slice(&table[x..x + LANE_COUNT]);
    }
}

/// ORs `marks` into `group`.
fn or_into<const W: usize>(group: &mut Group<W>, marks: &Group<W>) {
    for (words, more) in group.iter_mut().zip(marks) {
        for (word, &mark) in words.iter_mut().zip(more) {
            *word |= mark;
        }
    }
}

/// Asks the processor to fetch the cache line at `p` into this core's cache.
#[inline(always)]
fn prefetch(p: *const i8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees, at any address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0)
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;
    use crate::engine::rare_values::isa::far_marks;
    use crate::xorshift::xorshift;
    use std::time::{Duration, Instant};

    /// The groups of a stretch marked through [`Ahead`] are the far marks of every pair on the
    /// final table, with two threads (every other group waited for, so that at least half come
    /// from the other worker) and with one (none does). The positions not yet written hold a
    /// value they never get, so that marks made from them would differ. The values lie below
    /// 64 but one, so that groups are marked in one word and, where their partners reach that
    /// one, in two ([`GroupWidth`]).
    #[test]
    fn groups_made_ahead_are_the_far_marks_of_the_written_table() {
        let (b, len) = (1200u64, 2996u64);
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut values: Vec<u8> = (0..b + len).map(|_| (next() % 64) as u8).collect();
        values[2500] = 100;
        let pairs: Vec<(usize, u32)> = (8..1000)
            .step_by(3)
            .map(|d| (d, d as u32 * 7 % 64))
            .collect();
        for (threads, isa) in [1, 2]
            .into_iter()
            .flat_map(|t| every_here().into_iter().map(move |isa| (t, isa)))
        {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut table = values.clone();
            table[b as usize..].fill(200);
            let mut near = pairs.clone();
            let mut few = pairs[..AHEAD_LEAST_PAIRS].to_vec();
            assert!(Ahead::<2>::of(&mut few, b, len, isa).is_none());
            assert_eq!(
                few,
                pairs[..AHEAD_LEAST_PAIRS],
                "too few to mark ahead: kept"
            );
            let ahead = Ahead::<2>::of(&mut near, b, len, isa).expect("pairs far enough");
            assert!(near.iter().all(|&(d, _)| d < AHEAD_FROM));
            assert!(ahead.pairs.iter().all(|&(d, _)| d >= AHEAD_FROM));
            assert_eq!(near.len() + ahead.pairs.len(), pairs.len());
            let cells = Cells::new(&mut table);
            let deadline = Instant::now() + Duration::from_secs(10);
            let made_ahead = pool.install(|| {
                ahead.beside(cells, || {
                    let mut made_ahead = 0;
                    for x0 in (b..b + len).step_by(LANE_COUNT) {
                        // SAFETY: written below x0 only, after the slice's last use.
                        let known = unsafe { cells.below(x0) };
                        let mut group: Group<2> = far_marks(isa, known, x0 as usize, &near);
                        // On two threads every other group waits for the worker's marks (for
                        // ten seconds in all: other tests may hold the cores).
                        let k = (x0 - b) / LANE_COUNT as u64;
                        while threads == 2
                            && k.is_multiple_of(2)
                            && ahead.slots[k as usize % SLOTS].seq.load(Ordering::Acquire) != k + 1
                            && Instant::now() < deadline
                        {
                            std::thread::yield_now();
                        }
                        made_ahead += u64::from(ahead.add(known, x0, &mut group));
                        let want: Group<2> = far_marks(isa, &values, x0 as usize, &pairs);
                        assert_eq!(group, want, "{isa:?}, {threads} threads, x0 = {x0}");
                        for x in x0..(x0 + LANE_COUNT as u64).min(b + len) {
                            // SAFETY: no slice of `cells` holds x.
                            unsafe { cells.write(x, values[x as usize]) };
                        }
                    }
                    made_ahead
                })
            });
            assert_eq!(table, values);
            let groups = len.div_ceil(LANE_COUNT as u64);
            match threads {
                1 => assert_eq!(made_ahead, 0, "{isa:?}: no other worker"),
                _ => assert!(
                    made_ahead > groups / 2,
                    "{isa:?}: {made_ahead} of {groups} made ahead"
                ),
            }
        }
    }

    /// A group's values come from its handoff while that holds them, else from the table.
    #[test]
    fn values_come_handed_on_or_from_the_table() {
        let mut far: Vec<(usize, u32)> = (AHEAD_FROM..AHEAD_FROM + 300).map(|d| (d, 1)).collect();
        let b = 1000;
        let ahead = Ahead::<1>::of(&mut far, b, 256, Isa::Portable).expect("pairs enough");
        let table: Vec<u8> = (0..1100).map(|x| (x % 50) as u8).collect();
        let handoff = &ahead.handoffs[0];
        for (i, value) in handoff.values.iter().enumerate() {
            value.store(60 + i as u32, Ordering::Relaxed);
        }
        handoff.seq.store(1, Ordering::Release);
        let mut mirror = vec![7u8];
        ahead.copy(0, &table, &mut mirror);
        assert_eq!(mirror, [7, 60, 61, 62, 63, 64, 65, 66, 67]);
        // Group 16 has the same handoff.
        handoff.seq.store(HANDOFFS as u64 + 1, Ordering::Release);
        ahead.copy(0, &table, &mut mirror);
        assert_eq!(mirror[9..], table[1000..1008]);
        ahead.copy(HANDOFFS as u64, &table, &mut mirror);
        assert_eq!(mirror[17..], [60, 61, 62, 63, 64, 65, 66, 67]);
    }
}
