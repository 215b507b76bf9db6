//! Segmented forward sieve for the P-positions of a subtraction game.
//!
//! With step set `S`, position `q` is a P-position iff no `q - s` (`s` in `S`,
//! `s <= q`) is a P-position. The forward sieve scans positions upward: an
//! unmarked position is P and marks `q + s` for every step.
//!
//! Positions are processed in segments of `B` positions, marked in a byte map
//! that stays in L1, and segments are grouped in batches. The sorted list of
//! P-positions found so far is kept, with, for every step `s`, a cursor into it.
//! The targets of step `s` inside a segment `[lo, hi)` coming from already known
//! sources `p < lo` are `p + s` for the contiguous slice `lo - s <= p <
//! min(lo, hi - s)` of the list, and the cursor of the step only moves forward.
//!
//! Steps `s >= 2 * batch` ("far") have all their sources for the next batch
//! below the start of the current one. So while one thread scans the current
//! batch (marking from the near steps, then walking each segment: an unmarked
//! position is P and marks `q + s` inside the segment), the far steps of the
//! next batch are marked in parallel over chunks of steps, each worker writing
//! the maps of its own thread. The maps are OR-ed before scanning, so the bit
//! table does not depend on the number of threads.

use crate::engine::resumable::Outcome;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::Mutex;

/// Default segment length in positions (one byte each while marking).
pub const DEFAULT_SEGMENT: usize = 1 << 15;

/// Segments processed per batch (one parallel round).
const BATCH_SEGMENTS: usize = 8;

/// Marks per bounds check in the inner loop.
const UNROLL: usize = 16;

/// How many steps ahead the start of a step's source slice is prefetched.
const PREFETCH_AHEAD: usize = 2;

/// Parallel tasks per thread and batch (load balancing granularity).
const TASKS_PER_THREAD: usize = 32;

/// Minimum number of steps handled by one parallel task.
const MIN_STEPS_PER_TASK: usize = 64;

/// Computes the P-positions `0..n` of the subtraction game with step set `steps`.
///
/// Bit `i` of `words[i / 64]` (LSB first) is set iff position `i` is a
/// P-position. `steps` must be sorted ascending, distinct and `>= 1`.
/// Positions below `start` are taken as preset in `words` and never mark
/// anything. Positions below `resume_from` (rounded down to a multiple of 64)
/// are taken as final; use `0` for a fresh run or a position reported by
/// `progress` (or returned in [`Outcome::Stopped`]) to resume. `progress` is
/// called after each batch of segments (`2^18` positions by default) with the
/// number of final positions and the number of set bits below it; returning
/// `Break` stops the run cleanly, with everything reported final in `words`.
/// Uses the ambient rayon pool; the result is independent of its size.
///
/// Panics if `steps` is not strictly increasing, contains 0, or if `words` is
/// shorter than `ceil(n / 64)`.
pub fn sieve_ppos(
    steps: &[u64],
    n: u64,
    start: u64,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> Outcome {
    sieve_ppos_seg::<DEFAULT_SEGMENT>(steps, n, start, words, resume_from, progress)
}

/// Same as [`sieve_ppos`] with segments of `B` positions (`B` a power of two,
/// `64 <= B <= 2^31`). Any `resume_from` that is a multiple of 64 is accepted.
pub fn sieve_ppos_seg<const B: usize>(
    steps: &[u64],
    n: u64,
    start: u64,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> Outcome {
    assert!(
        B.is_power_of_two() && (64..=1 << 31).contains(&B),
        "segment length must be a power of two in 64..=2^31"
    );
    assert!(
        words.len() as u64 >= n.div_ceil(64),
        "bit table too short for n positions"
    );
    assert!(
        steps.first().is_none_or(|&s| s >= 1) && steps.windows(2).all(|w| w[0] < w[1]),
        "steps must be >= 1, strictly increasing"
    );
    if n <= 1u64 << 32 {
        run::<u32, B>(steps, n, start, words, resume_from, progress)
    } else {
        run::<u64, B>(steps, n, start, words, resume_from, progress)
    }
}

/// Storage type of the P list.
trait Pos: Copy + Send + Sync + 'static {
    /// Converts a position (which must fit).
    fn from_u64(v: u64) -> Self;
    /// The stored position.
    fn get(self) -> u64;
}

impl Pos for u32 {
    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        v as u32
    }
    #[inline(always)]
    fn get(self) -> u64 {
        self as u64
    }
}

impl Pos for u64 {
    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        v
    }
    #[inline(always)]
    fn get(self) -> u64 {
        self
    }
}

/// Mask of the bits of the word covering `[base, base + 64)` that lie in `[a, b)`.
#[inline]
fn range_mask(base: u64, a: u64, b: u64) -> u64 {
    let a = a.clamp(base, base + 64) - base;
    let b = b.clamp(base, base + 64) - base;
    if a >= b {
        return 0;
    }
    let hi = if b == 64 { !0 } else { (1u64 << b) - 1 };
    hi & (!0u64 << a)
}

/// Bits of `map[64 * i..64 * i + 64]` (bytes that are 0 or 1) that are zero.
#[inline(always)]
fn zero_bits<const B: usize>(map: &[u8; B], i: usize) -> u64 {
    let mut m = 0u64;
    for k in 0..8 {
        let o = 64 * i + 8 * k;
        let x = u64::from_le_bytes(map[o..o + 8].try_into().expect("8 bytes"));
        let z = !x & 0x0101_0101_0101_0101;
        m |= (z.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    m
}

/// Marks, for every step, the targets in `[lo, hi)` of the known sources `p < lo`.
fn premark<T: Pos, const B: usize>(
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

/// Segment map: one byte (0 or 1) per position, 1 = reached by a move from a P-position.
type Map<const B: usize> = Box<[u8; B]>;

/// A zeroed segment map.
fn new_map<const B: usize>() -> Map<B> {
    vec![0u8; B]
        .into_boxed_slice()
        .try_into()
        .expect("length is B")
}

/// Number of map bytes used by a segment (its length rounded up to 64).
fn used(seg: (u64, u64)) -> usize {
    (64 * (seg.1 - seg.0).div_ceil(64)) as usize
}

/// Splits `[lo, hi)` into segments that end at multiples of `b` (or at `hi`).
fn split(lo: u64, hi: u64, b: u64, out: &mut Vec<(u64, u64)>) {
    out.clear();
    let mut x = lo;
    while x < hi {
        let y = ((x / b + 1) * b).min(hi);
        out.push((x, y));
        x = y;
    }
}

/// Marks, in parallel over chunks of `steps`, the targets in every segment of
/// `segs` of the sources in `plist`. Each worker writes the maps of its thread.
fn far_premark<T: Pos, const B: usize>(
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

/// Scans segment `[lo, hi)`: unmarked positions `>= start` are P-positions; each
/// is appended to `found` and marks its targets inside the segment. Writes the
/// segment's words of the bit table and returns their number of set bits.
fn scan<T: Pos, const B: usize>(
    map: &mut [u8; B],
    steps: &[u64],
    (lo, hi): (u64, u64),
    start: u64,
    words: &mut [u64],
    found: &mut Vec<T>,
) -> u64 {
    let q0 = lo.max(start);
    let seg_len = hi - lo;
    let nw = (hi - lo).div_ceil(64) as usize;
    let w0 = (lo / 64) as usize;
    let keep_end = start.min(hi);
    let mut count = 0;
    for (wi, out) in words[w0..w0 + nw].iter_mut().enumerate() {
        let base = lo + 64 * wi as u64;
        let valid = range_mask(base, q0, hi);
        let mut pbits = 0u64;
        if valid != 0 {
            let word_end = 64 * (wi as u64 + 1);
            let mut w = zero_bits(map, wi) & valid;
            while w != 0 {
                let b = w.trailing_zeros() as u64;
                pbits |= 1 << b;
                let q = base + b;
                found.push(T::from_u64(q));
                let off = q - lo;
                let mut touched = false;
                for &s in steps {
                    let t = off + s;
                    if t >= seg_len {
                        break;
                    }
                    map[t as usize % B] = 1;
                    touched |= t < word_end;
                }
                w &= w - 1;
                if touched {
                    w &= zero_bits(map, wi);
                }
            }
        }
        let v = (*out & range_mask(base, base, keep_end)) | pbits;
        *out = v;
        count += v.count_ones() as u64;
    }
    count
}

/// Sequential part of a batch: combines the maps filled by the far steps, marks
/// from the near steps and scans each segment, leaving the maps cleared.
/// `recent` receives the P-positions usable as sources of near steps followed by
/// the new ones; returns the number of set bits written and the index in
/// `recent` where the new P-positions begin.
#[allow(clippy::too_many_arguments)]
fn near_batch<T: Pos, const B: usize>(
    steps: &[u64],
    near: usize,
    plist: &[T],
    recent: &mut Vec<T>,
    near_cur: &mut Vec<usize>,
    thread_maps: &[Mutex<Vec<Map<B>>>],
    segs: &[(u64, u64)],
    start: u64,
    words: &mut [u64],
) -> (u64, usize) {
    let lo_b = segs[0].0;
    let reach = if near > 0 { steps[near - 1] } else { 0 };
    let from = lo_b.saturating_sub(reach);
    recent.clear();
    recent.extend_from_slice(&plist[plist.partition_point(|p| p.get() < from)..]);
    let base_len = recent.len();
    near_cur.clear();
    near_cur.extend(steps[..near].iter().map(|&s| {
        let lower = lo_b.saturating_sub(s);
        recent.partition_point(|p| p.get() < lower)
    }));
    let mut count = 0;
    let (first, others) = thread_maps.split_first().expect("at least one thread");
    let mut maps = first.lock().unwrap_or_else(|e| e.into_inner());
    for (j, (map, &seg)) in maps.iter_mut().zip(segs).enumerate() {
        let nb = used(seg);
        for other in others {
            let mut o = other.lock().unwrap_or_else(|e| e.into_inner());
            for (d, v) in map[..nb].iter_mut().zip(o[j][..nb].iter_mut()) {
                *d |= *v;
                *v = 0;
            }
        }
        let k = steps[..near].partition_point(|&s| s < seg.1);
        premark(map, &steps[..k], &mut near_cur[..k], recent, seg.0, seg.1);
        count += scan(map, steps, seg, start, words, recent);
        map[..nb].fill(0);
    }
    (count, base_len)
}

fn run<T: Pos, const B: usize>(
    steps: &[u64],
    n: u64,
    start: u64,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> Outcome {
    let seg = B as u64;
    let batch = seg * BATCH_SEGMENTS as u64;
    let resume = resume_from.min(n) & !63;
    let max_step = steps.last().copied().unwrap_or(0);
    // Steps below `2 * batch` may have sources in the batch before the target
    // batch; they are handled sequentially. The others run ahead in parallel.
    let near = steps.partition_point(|&s| s < 2 * batch);

    // Rebuild the state from the final bits below `resume`.
    let mut count: u64 = words[..(resume / 64) as usize]
        .iter()
        .map(|w| w.count_ones() as u64)
        .sum();
    let mut plist: Vec<T> = Vec::new();
    for (i, &w) in words[..(resume / 64) as usize].iter().enumerate() {
        let base = 64 * i as u64;
        let mut w = w & range_mask(base, start, resume);
        while w != 0 {
            plist.push(T::from_u64(base + w.trailing_zeros() as u64));
            w &= w - 1;
        }
    }
    let mut far_cur: Vec<usize> = steps[near..]
        .iter()
        .map(|&s| {
            let lower = resume.saturating_sub(s);
            plist.partition_point(|p| p.get() < lower)
        })
        .collect();
    let far_steps = &steps[near..];

    let threads = rayon::current_num_threads().max(1);
    // Per-thread maps of the batch being scanned and of the batch being premarked.
    let new_set = || -> Vec<Mutex<Vec<Map<B>>>> {
        (0..threads)
            .map(|_| Mutex::new((0..BATCH_SEGMENTS).map(|_| new_map()).collect()))
            .collect()
    };
    let mut cur_maps = new_set();
    let mut next_maps = new_set();
    let mut recent: Vec<T> = Vec::new();
    let mut near_cur: Vec<usize> = Vec::new();
    let mut cur_segs = Vec::new();
    let mut next_segs = Vec::new();

    let batch_end = |lo: u64| ((lo / batch + 1) * batch).min(n);
    split(resume, batch_end(resume), seg, &mut cur_segs);
    far_premark(far_steps, &mut far_cur, &plist, &cur_segs, &cur_maps);

    while let Some(&(_, hi)) = cur_segs.last() {
        split(hi, batch_end(hi), seg, &mut next_segs);
        let ((added, base_len), ()) = rayon::join(
            || {
                near_batch(
                    steps,
                    near,
                    &plist,
                    &mut recent,
                    &mut near_cur,
                    &cur_maps,
                    &cur_segs,
                    start,
                    words,
                )
            },
            || far_premark(far_steps, &mut far_cur, &plist, &next_segs, &next_maps),
        );
        plist.extend_from_slice(&recent[base_len..]);
        count += added;

        // Drop P-positions no step can reach from here on.
        let min_needed = hi.saturating_sub(max_step);
        if plist.len() >= 1 << 16 && plist[plist.len() / 2].get() < min_needed {
            let d = plist.partition_point(|p| p.get() < min_needed);
            plist.drain(..d);
            for c in far_cur.iter_mut() {
                *c = c.saturating_sub(d);
            }
        }

        if progress(hi, count).is_break() && hi < n {
            return Outcome::Stopped { at: hi };
        }
        std::mem::swap(&mut cur_maps, &mut next_maps);
        std::mem::swap(&mut cur_segs, &mut next_segs);
    }
    Outcome::Completed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 64-bit list storage (used when `n > 2^32`) gives the same table.
    #[test]
    fn wide_storage_matches() {
        let n = 200_003u64;
        let steps: Vec<u64> = (1..).map(|k: u64| k * k).take_while(|&s| s < n).collect();
        for start in [0u64, 1] {
            let mut a = vec![0u64; n.div_ceil(64) as usize];
            a[0] = start;
            let mut b = a.clone();
            let mut cont = |_: u64, _: u64| ControlFlow::Continue(());
            let ra = run::<u32, 1024>(&steps, n, start, &mut a, 0, &mut cont);
            let rb = run::<u64, 1024>(&steps, n, start, &mut b, 0, &mut cont);
            assert_eq!(ra, rb);
            assert_eq!(a, b);
        }
    }
}
