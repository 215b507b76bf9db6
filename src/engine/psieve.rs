//! Segmented forward sieve for the P-positions of a subtraction game.
//!
//! With step set `S`, position `q` is a P-position iff no `q - s` (`s` in `S`,
//! `s <= q`) is a P-position. The forward sieve scans positions upward: an
//! unmarked position is P and marks `q + s` for every step.
//!
//! This implementation processes the positions in segments of `B` positions.
//! It keeps the sorted list of P-positions found so far and, for every step
//! `s`, a cursor into that list. Before a segment `[lo, hi)` is scanned, every
//! step marks the targets of its sources that are already known (`p < lo`):
//! those sources form a contiguous slice of the P list, `lo - s <= p <
//! min(lo, hi - s)`, and the cursor of the step only moves forward. This phase
//! runs in parallel over chunks of steps, each worker marking its own segment
//! map (one byte per position); the maps are OR-ed afterwards, so the result does not depend on
//! the number of threads. The segment is then scanned sequentially: each
//! unmarked position is P and marks `q + s` inside the segment.

use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::Mutex;

/// Default segment length in positions (one byte each while marking).
pub const DEFAULT_SEGMENT: usize = 1 << 16;

/// Minimum number of steps handled by one parallel task.
const MIN_STEPS_PER_TASK: usize = 64;

/// Result of [`sieve_ppos`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every position below `n` is final.
    Completed {
        /// Number of set bits (P-positions, including preset ones) below `n`.
        p_count: u64,
    },
    /// The progress callback asked to stop; positions below `at` are final.
    Stopped {
        /// First position that is not final; pass it as `resume_from` to continue.
        at: u64,
        /// Number of set bits below `at`.
        p_count: u64,
    },
}

/// Computes the P-positions `0..n` of the subtraction game with step set `steps`.
///
/// Bit `i` of `words[i / 64]` (LSB first) is set iff position `i` is a
/// P-position. `steps` must be sorted ascending, distinct and `>= 1`.
/// Positions below `start` are taken as preset in `words` and never mark
/// anything. Positions below `resume_from` (rounded down to a multiple of 64)
/// are taken as final; use `0` for a fresh run or a position reported by
/// `progress` (or returned in [`Outcome::Stopped`]) to resume. `progress` is
/// called after each segment with the number of final positions and the
/// number of set bits below it; returning `Break` stops the run cleanly.
/// Uses the ambient rayon pool; the result is independent of its size.
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
    debug_assert!(steps.windows(2).all(|w| w[0] < w[1]));
    debug_assert!(steps.first().is_none_or(|&s| s >= 1));
    if n <= 1u64 << 32 {
        run::<u32, B>(steps, n, start, words, resume_from, progress)
    } else {
        run::<u64, B>(steps, n, start, words, resume_from, progress)
    }
}

/// Storage type of the P list.
trait Pos: Copy + Send + Sync + 'static {
    fn from_u64(v: u64) -> Self;
    fn get(self) -> u64;
    fn low32(self) -> u32;
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
    #[inline(always)]
    fn low32(self) -> u32 {
        self
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
    #[inline(always)]
    fn low32(self) -> u32 {
        self as u32
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
    for (&s, cur) in steps.iter().zip(cursors.iter_mut()) {
        let lower = lo.saturating_sub(s);
        let upper = lo.min(hi - s);
        let mut c = *cur;
        while c < len && plist[c].get() < lower {
            c += 1;
        }
        let delta = s.wrapping_sub(lo) as u32;
        while c + 8 <= len && plist[c + 7].get() < upper {
            for &p in &plist[c..c + 8] {
                map[p.low32().wrapping_add(delta) as usize % B] = 1;
            }
            c += 8;
        }
        for &p in &plist[c..] {
            if p.get() >= upper {
                break;
            }
            map[p.low32().wrapping_add(delta) as usize % B] = 1;
            c += 1;
        }
        *cur = c;
    }
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
    let resume = resume_from.min(n) & !63;
    let max_step = steps.last().copied().unwrap_or(0);

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
    let mut cursors: Vec<usize> = steps
        .iter()
        .map(|&s| {
            let lower = resume.saturating_sub(s);
            plist.partition_point(|p| p.get() < lower)
        })
        .collect();

    let threads = rayon::current_num_threads().max(1);
    let new_map = || -> Box<[u8; B]> {
        vec![0u8; B]
            .into_boxed_slice()
            .try_into()
            .expect("length is B")
    };
    let mut map = new_map();
    let bufs: Vec<Mutex<Box<[u8; B]>>> = if threads > 1 {
        (0..threads).map(|_| Mutex::new(new_map())).collect()
    } else {
        Vec::new()
    };

    let mut lo = resume;
    while lo < n {
        let hi = ((lo / seg + 1) * seg).min(n);
        let nw = (hi - lo).div_ceil(64) as usize;
        let nb = 64 * nw;
        map[..nb].fill(0);

        // Phase 1: marks from sources below `lo`.
        let active = steps.partition_point(|&s| s < hi);
        if active > 0 && !plist.is_empty() {
            let (act_steps, act_curs) = (&steps[..active], &mut cursors[..active]);
            if bufs.is_empty() || active < 2 * MIN_STEPS_PER_TASK {
                premark(&mut map, act_steps, act_curs, &plist, lo, hi);
            } else {
                let chunk = active.div_ceil(8 * threads).max(MIN_STEPS_PER_TASK);
                let pl = &plist[..];
                act_curs
                    .par_chunks_mut(chunk)
                    .zip(act_steps.par_chunks(chunk))
                    .for_each(|(cc, ss)| {
                        let idx = rayon::current_thread_index().unwrap_or(0) % bufs.len();
                        let mut guard = bufs[idx].lock().unwrap_or_else(|e| e.into_inner());
                        premark(&mut guard, ss, cc, pl, lo, hi);
                    });
                for b in &bufs {
                    let mut guard = b.lock().unwrap_or_else(|e| e.into_inner());
                    for (d, x) in map[..nb].iter_mut().zip(guard[..nb].iter_mut()) {
                        *d |= *x;
                        *x = 0;
                    }
                }
            }
        }

        // Phase 2: sequential scan, marking inside the segment.
        let q0 = lo.max(start);
        let seg_len = hi - lo;
        let w0 = (lo / 64) as usize;
        let keep_end = start.min(hi);
        for wi in 0..nw {
            let base = lo + 64 * wi as u64;
            let valid = range_mask(base, q0, hi);
            let mut pbits = 0u64;
            if valid != 0 {
                let mut w = zero_bits(&map, wi) & valid;
                while w != 0 {
                    let b = w.trailing_zeros() as u64;
                    pbits |= 1 << b;
                    let q = base + b;
                    plist.push(T::from_u64(q));
                    let off = q - lo;
                    let mut touched = false;
                    for &s in steps {
                        let t = off + s;
                        if t >= seg_len {
                            break;
                        }
                        map[t as usize % B] = 1;
                        touched |= t < 64 * (wi as u64 + 1);
                    }
                    w &= w - 1;
                    if touched {
                        w &= zero_bits(&map, wi);
                    }
                }
            }
            let out = &mut words[w0 + wi];
            let v = (*out & range_mask(base, base, keep_end)) | pbits;
            *out = v;
            count += v.count_ones() as u64;
        }

        // Drop P-positions no step can reach from here on.
        let min_needed = hi.saturating_sub(max_step);
        if plist.len() >= 1 << 16 && plist[plist.len() / 2].get() < min_needed {
            let d = plist.partition_point(|p| p.get() < min_needed);
            plist.drain(..d);
            for c in cursors.iter_mut() {
                *c = c.saturating_sub(d);
            }
        }

        lo = hi;
        if progress(hi, count).is_break() && hi < n {
            return Outcome::Stopped {
                at: hi,
                p_count: count,
            };
        }
    }
    Outcome::Completed { p_count: count }
}
