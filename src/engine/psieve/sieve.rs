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

use super::mark::{Map, far_premark, new_map, premark, used};
use super::scan::{range_mask, scan};
use crate::engine::resumable::StepEnd;
use std::ops::ControlFlow;
use std::sync::Mutex;

/// Default segment length in positions (one byte each while marking).
pub const DEFAULT_SEGMENT: usize = 1 << 15;

/// Segments processed per batch (one parallel round).
const BATCH_SEGMENTS: usize = 8;

/// Computes the P-positions `0..n` of the subtraction game with step set `steps`.
///
/// Bit `i` of `words[i / 64]` (LSB first) is set iff position `i` is a
/// P-position. `steps` must be sorted ascending, distinct and `>= 1`.
/// Positions below `start` are taken as preset in `words` and never mark
/// anything. Positions below `resume_from` (rounded down to a multiple of 64)
/// are taken as final; use `0` for a fresh run or a position reported by
/// `progress` (or returned in [`StepEnd::Stopped`]) to resume. `progress` is
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
) -> StepEnd {
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
) -> StepEnd {
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

/// Storage type of the P-list: `u32` when every position fits, else `u64`.
pub(super) trait Pos: Copy + Send + Sync + 'static {
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

/// [`sieve_ppos_seg`] with a P-list of `T`: batch after batch, the far steps of the next one
/// marked in parallel while the current one is scanned.
fn run<T: Pos, const B: usize>(
    steps: &[u64],
    n: u64,
    start: u64,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> StepEnd {
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
            return StepEnd::Stopped { at: hi };
        }
        std::mem::swap(&mut cur_maps, &mut next_maps);
        std::mem::swap(&mut cur_segs, &mut next_segs);
    }
    StepEnd::Completed
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
