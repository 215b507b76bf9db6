//! Marking of the `psieve` engine: the targets inside a segment of P-positions already known,
//! from the slice of the sorted P-list each step reaches, into the segment's byte map; the far
//! steps of a batch in parallel over chunks of steps, each worker writing its thread's maps.

use super::sieve::Pos;
use rayon::prelude::*;
use std::sync::Mutex;

/// Marks per bounds check in the inner loop.
const UNROLL: usize = 16;

/// How many steps ahead the start of a step's source slice is prefetched.
const PREFETCH_AHEAD: usize = 2;

/// Parallel tasks per thread and batch (load balancing granularity).
const TASKS_PER_THREAD: usize = 32;

/// Minimum number of steps handled by one parallel task.
const MIN_STEPS_PER_TASK: usize = 64;

/// Segment map: one byte (0 or 1) per position, 1 = reached by a move from a P-position.
pub(super) type Map<const B: usize> = Box<[u8; B]>;

/// A zeroed segment map.
pub(super) fn new_map<const B: usize>() -> Map<B> {
    vec![0u8; B]
        .into_boxed_slice()
        .try_into()
        .expect("length is B")
}

/// Number of map bytes used by a segment (its length rounded up to 64).
pub(super) fn used(seg: (u64, u64)) -> usize {
    (64 * (seg.1 - seg.0).div_ceil(64)) as usize
}

/// Marks, for every step, the targets in `[lo, hi)` of the known sources `p < lo`.
pub(super) fn premark<T: Pos, const B: usize>(
    map: &mut [u8; B],
    steps: &[u64],
    cursors: &mut [usize],
    plist: &[T],
    lo: u64,
    hi: u64,
) {
    let len = plist.len();
    for i in 0..steps.len().min(cursors.len()) {
        if let Some(&next) = cursors.get(i + PREFETCH_AHEAD) {
            prefetch(plist.as_ptr().wrapping_add(next));
        }
        let s = steps[i];
        let lower = lo.saturating_sub(s);
        let upper = lo.min(hi - s);
        let mut c = cursors[i];
        while c < len && plist[c].get() < lower {
            c += 1;
        }
        // `base + p` addresses the map byte of target `p + s`; it is only
        // dereferenced for `lower <= p < upper`, i.e. `0 <= p + s - lo < hi - lo <= B`.
        let base = map.as_mut_ptr().wrapping_add(s.wrapping_sub(lo) as usize);
        while c + UNROLL <= len && plist[c + UNROLL - 1].get() < upper {
            let chunk: &[T; UNROLL] = plist[c..c + UNROLL].try_into().expect("chunk");
            for &p in chunk {
                debug_assert!(p.get() >= lower && p.get() < upper);
                // SAFETY: the list is strictly increasing, `plist[c] >= lower` and
                // the last element of the chunk is `< upper`, so every target is in
                // `0..hi - lo`, inside `map`, which is borrowed mutably.
                unsafe { *base.wrapping_add(p.get() as usize) = 1 };
            }
            c += UNROLL;
        }
        for &p in &plist[c..] {
            if p.get() >= upper {
                break;
            }
            map[(p.get() + s - lo) as usize] = 1;
            c += 1;
        }
        cursors[i] = c;
    }
}

/// Hints the cache to load the line at `p` (no effect on other targets).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86_64 baseline, and a prefetch never
        // faults or reads memory observably, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Marks, in parallel over chunks of `steps`, the targets in every segment of
/// `segs` of the sources in `plist`. Each worker writes the maps of its thread.
pub(super) fn far_premark<T: Pos, const B: usize>(
    steps: &[u64],
    cursors: &mut [usize],
    plist: &[T],
    segs: &[(u64, u64)],
    thread_maps: &[Mutex<Vec<Map<B>>>],
) {
    let Some(&(_, last_hi)) = segs.last() else {
        return;
    };
    if plist.is_empty() {
        return;
    }
    let active = steps.partition_point(|&s| s < last_hi);
    if active == 0 {
        return;
    }
    let threads = thread_maps.len();
    let chunk = active
        .div_ceil(TASKS_PER_THREAD * threads)
        .max(MIN_STEPS_PER_TASK);
    cursors[..active]
        .par_chunks_mut(chunk)
        .zip(steps[..active].par_chunks(chunk))
        .for_each(|(cc, ss)| {
            let idx = rayon::current_thread_index().unwrap_or(0) % threads;
            let mut maps = thread_maps[idx].lock().unwrap_or_else(|e| e.into_inner());
            for (map, &(lo, hi)) in maps.iter_mut().zip(segs) {
                let k = ss.partition_point(|&s| s < hi);
                premark(map, &ss[..k], &mut cc[..k], plist, lo, hi);
            }
        });
}
