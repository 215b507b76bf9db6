//! Sprague–Grundy values of the subtract-a-prime game.
//!
//! From `n` a move goes to `n - p` for a prime `p <= n` (or `p < n` with `leave1`),
//! and `g(n) = mex { g(n - p) }`. Positions are computed in increasing order; for
//! each one the candidate values `0, 1, 2, ...` are decided in turn, exactly:
//!
//! * values at the prime distances below 64 are read from a bit-sliced history of
//!   the last 64 positions;
//! * every value class is split by residue modulo 30. A member `m` whose distance
//!   `n - m` shares a factor with 30 is at a composite distance unless that
//!   distance is 2, 3 or 5, already covered by the history. So when, for value
//!   `v`, the lists of all residues at a distance coprime to 30 from `n` are
//!   complete, `v` is an option iff one of those listed members is at a prime
//!   distance. Value classes concentrate on few residues (mostly one parity),
//!   so the lists that decide a position's own value are short;
//! * otherwise primes are tried in increasing order until `v` shows up; past a
//!   fixed distance all remaining primes are swept at once on the rayon pool.
//!
//! Memory besides the values: a bitset of the odd primes (`n / 16` bytes) and the residue
//! lists (4 bytes per listed member; a list is dropped once it holds one in
//! 16 of the positions with its residue).

use crate::engine::resumable::Outcome;
use rayon::prelude::*;
use std::ops::ControlFlow;

/// A value above 15 occurred; positions below `at` are final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooWide {
    /// Position whose value does not fit in 4 bits.
    pub at: u64,
    /// That value.
    pub value: u32,
}

/// Modulus used to split every value class into residue classes.
const MODULUS: u64 = 30;
/// Primes dividing [`MODULUS`].
const SMALL_PRIMES: [u64; 3] = [2, 3, 5];
/// Bit `k` is set iff `k + 1` is prime (the primes below 64).
const PRIME_DISTANCES: u64 = {
    let primes = [
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
    ];
    let mut bits = 0u64;
    let mut i = 0;
    while i < primes.len() {
        bits |= 1 << (primes[i] - 1);
        i += 1;
    }
    bits
};
/// A residue list is always kept while it has at most this many members.
const LIST_MIN_CAP: usize = 4096;
/// Beyond [`LIST_MIN_CAP`], a residue list is kept while it holds fewer than one in
/// `LIST_DENSITY` of the positions with its residue.
const LIST_DENSITY: u64 = 16;
/// Prime distances below this are tried one by one for a position; past it,
/// all remaining ones are examined together, in parallel.
const SCAN_LIMIT: u64 = 1 << 20;
/// Positions between two progress reports.
const REPORT_EVERY: u64 = 1 << 20;
/// Largest supported `n` (list entries are `u32` multiples of [`MODULUS`]).
/// The largest n the engine handles (its residue lists index members with 32 bits).
pub const MAX_N: u64 = MODULUS << 32;
/// Number of representable values.
const WIDTH: usize = 16;

/// Bitset of the odd primes: bit `j` is set iff `2j + 1` is prime.
struct PrimeBits {
    words: Vec<u64>,
}

impl PrimeBits {
    /// Sieves every number below `limit` (and a little beyond).
    fn new(limit: u64) -> Self {
        let nwords = (limit / 128 + 2) as usize;
        let root = (limit as f64).sqrt() as u64 + 2;
        let mut small = vec![true; root as usize + 1];
        let mut base = Vec::new();
        for i in 2..=root as usize {
            if small[i] {
                if i > 2 {
                    base.push(i as u64);
                }
                let mut j = i * i;
                while j <= root as usize {
                    small[j] = false;
                    j += i;
                }
            }
        }
        let mut words = vec![0u64; nwords];
        const SEG: usize = 1 << 12;
        words.par_chunks_mut(SEG).enumerate().for_each(|(ci, seg)| {
            // Bit indices [lo, hi) of this segment.
            let lo = (ci * SEG * 64) as u64;
            let hi = lo + (seg.len() * 64) as u64;
            seg.fill(u64::MAX);
            for &q in &base {
                // Odd multiples of q from q*q on; in bit indices they step by q.
                let mut k = (q * q - 1) / 2;
                if k >= hi {
                    break;
                }
                if k < lo {
                    k += (lo - k).div_ceil(q) * q;
                }
                while k < hi {
                    let b = k - lo;
                    seg[(b >> 6) as usize] &= !(1u64 << (b & 63));
                    k += q;
                }
            }
            if ci == 0 {
                // 1 is not prime.
                seg[0] &= !1;
            }
        });
        PrimeBits { words }
    }

    /// Whether the odd number `i` is prime.
    #[inline]
    fn is_odd(&self, i: u64) -> bool {
        debug_assert!(i & 1 == 1);
        (self.words[(i >> 7) as usize] >> ((i >> 1) & 63)) & 1 != 0
    }

    /// Whether `i` is prime.
    #[cfg(test)]
    fn is(&self, i: u64) -> bool {
        if i & 1 == 0 { i == 2 } else { self.is_odd(i) }
    }
}

#[inline]
fn get(words: &[u64], m: u64) -> u32 {
    ((words[(m >> 4) as usize] >> ((m & 15) * 4)) & 15) as u32
}

#[inline]
fn set(words: &mut [u64], m: u64, v: u32) {
    words[(m >> 4) as usize] |= (v as u64) << ((m & 15) * 4);
}

/// For each value, which of the last 64 positions hold it: bit `k` of `bits[v]`
/// is set iff position `pos - 1 - k` has value `v`.
struct History {
    bits: [u64; WIDTH],
}

impl History {
    #[inline]
    fn push(&mut self, v: u32) {
        for b in self.bits.iter_mut() {
            *b <<= 1;
        }
        self.bits[v as usize] |= 1;
    }
}

/// What a run counts: positions for which every prime up to the position was examined
/// (the tests check that the long search path runs).
#[derive(Default, Clone, Copy)]
struct Work {
    full_scans: u64,
}

/// Members of each value class, split by residue modulo [`MODULUS`].
///
/// A residue list is complete (all members so far, ascending) until it becomes
/// too dense, after which it is dropped for good and marked in `dense`.
struct Classes {
    /// Members `m` of value `v` with residue `r`, stored as `m / MODULUS` in
    /// `lists[v * MODULUS + r]`.
    lists: Vec<Vec<u32>>,
    dense: [u32; WIDTH],
    nonempty: [u32; WIDTH],
    /// Bit `r` of `coprime[a]` is set iff `a - r` is coprime to [`MODULUS`].
    coprime: [u32; MODULUS as usize],
    min_cap: usize,
    density: u64,
}

impl Classes {
    fn new(min_cap: usize, density: u64) -> Self {
        Classes {
            min_cap,
            density,
            lists: (0..WIDTH * MODULUS as usize).map(|_| Vec::new()).collect(),
            dense: [0; WIDTH],
            nonempty: [0; WIDTH],
            coprime: coprime_masks(),
        }
    }

    #[inline]
    fn add(&mut self, pos: u64, v: usize) {
        let r = (pos % MODULUS) as usize;
        if self.dense[v] >> r & 1 != 0 {
            return;
        }
        let list = &mut self.lists[v * MODULUS as usize + r];
        if list.len() >= self.min_cap
            && (list.len() as u64)
                .saturating_mul(self.density)
                .saturating_mul(MODULUS)
                >= pos
        {
            self.dense[v] |= 1 << r;
            *list = Vec::new();
            return;
        }
        list.push((pos / MODULUS) as u32);
        self.nonempty[v] |= 1 << r;
    }
}

/// For each residue `a` of a position, the residues `r` of members whose distance
/// `a - r` is coprime to [`MODULUS`].
fn coprime_masks() -> [u32; MODULUS as usize] {
    let mut out = [0u32; MODULUS as usize];
    for (a, m) in out.iter_mut().enumerate() {
        for r in 0..MODULUS {
            let d = (a as u64 + MODULUS - r) % MODULUS;
            if SMALL_PRIMES.iter().all(|&q| !d.is_multiple_of(q)) {
                *m |= 1 << r;
            }
        }
    }
    out
}

/// Computes the Grundy values of positions `0..n` of subtract-a-prime into `words`.
///
/// With `leave1`, a move must leave at least one object. Values are 4-bit nibbles,
/// value `i` in bits `4*(i%16)..` of `words[i/16]`; `words` needs at least
/// `ceil(n/16)` entries. Positions below `resume_from` must already hold final
/// values (from an earlier run) and the rest must be zero; any state is rebuilt
/// from them, so the result equals an uninterrupted run. `progress` is called
/// with the number of final positions about every 2^20 positions; returning
/// `Break` stops the run. A value above 15 stops the run with [`TooWide`], its
/// position left zero. Results do not depend on the rayon pool's thread count.
///
/// # Panics
/// If `words` is too short, `resume_from > n` or `n > 30 * 2^32`.
pub fn prime_grundy(
    n: u64,
    leave1: bool,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Result<Outcome, TooWide> {
    run(
        n,
        leave1,
        words,
        resume_from,
        progress,
        &mut Work::default(),
        &Tuning::default(),
    )
}

/// Internal knobs of a run; the results never depend on them except through `max_value`.
struct Tuning {
    /// Values above this are reported as [`TooWide`].
    max_value: u32,
    /// See [`LIST_MIN_CAP`].
    list_min_cap: usize,
    /// See [`LIST_DENSITY`].
    list_density: u64,
    /// See [`SCAN_LIMIT`].
    scan_limit: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            max_value: WIDTH as u32 - 1,
            list_min_cap: LIST_MIN_CAP,
            list_density: LIST_DENSITY,
            scan_limit: SCAN_LIMIT,
        }
    }
}

/// The engine.
fn run(
    n: u64,
    leave1: bool,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64) -> ControlFlow<()>,
    work: &mut Work,
    tuning: &Tuning,
) -> Result<Outcome, TooWide> {
    assert!(words.len() as u64 >= n.div_ceil(16), "words too short");
    assert!(resume_from <= n, "resume_from beyond n");
    assert!(n <= MAX_N, "n too large");
    let min_m = leave1 as u64;
    let primes = PrimeBits::new(n + 64);
    let mut classes = Classes::new(tuning.list_min_cap, tuning.list_density);
    for m in min_m..resume_from {
        classes.add(m, get(words, m) as usize);
    }
    let mut history = History { bits: [0; WIDTH] };
    for m in resume_from.saturating_sub(64)..resume_from {
        history.push(get(words, m));
    }
    let limits = Limits {
        min_m,
        scan_limit: tuning.scan_limit,
    };
    let mut pos = resume_from;
    while pos < n {
        let stop = (pos + REPORT_EVERY - pos % REPORT_EVERY).min(n);
        while pos < stop {
            let g = value_at(pos, words, &primes, &classes, &history, limits, work);
            if g > tuning.max_value {
                return Err(TooWide { at: pos, value: g });
            }
            set(words, pos, g);
            history.push(g);
            if pos >= min_m {
                classes.add(pos, g as usize);
            }
            pos += 1;
        }
        if progress(pos).is_break() && pos < n {
            return Ok(Outcome::Stopped { at: pos });
        }
    }
    Ok(Outcome::Completed)
}

/// Fixed parameters of a run.
#[derive(Clone, Copy)]
struct Limits {
    /// Smallest position a move may lead to.
    min_m: u64,
    /// See [`SCAN_LIMIT`].
    scan_limit: u64,
}

/// Grundy value of `pos`, given final values below it.
#[inline]
fn value_at(
    pos: u64,
    words: &[u64],
    primes: &PrimeBits,
    classes: &Classes,
    history: &History,
    limits: Limits,
    work: &mut Work,
) -> u32 {
    let min_m = limits.min_m;
    // Largest allowed prime.
    let maxp = pos.saturating_sub(min_m);
    // Largest prime tried one at a time.
    let mut bound = maxp.min(limits.scan_limit);
    // Distances below 65 that are prime and allowed.
    let near = if maxp >= 64 {
        PRIME_DISTANCES
    } else {
        PRIME_DISTANCES & ((1u64 << maxp) - 1)
    };
    // Values seen while scanning primes above 64.
    let mut mask: u32 = 0;
    let relm = classes.coprime[(pos % MODULUS) as usize];
    // Cursor over primes above 64, ascending: word `wi`, bits `cur` left in it.
    let mut wi: usize = 0;
    let mut cur: u64 = primes.words[0] & (u64::MAX << 32);
    let mut exhausted = false;
    let mut v: u32 = 0;
    loop {
        while (v as usize) < WIDTH && (mask >> v & 1 != 0 || history.bits[v as usize] & near != 0) {
            v += 1;
        }
        if v as usize >= WIDTH {
            return v;
        }
        let vu = v as usize;
        if classes.dense[vu] & relm == 0 {
            // Every member at a distance coprime to MODULUS is listed.
            let mut cand = classes.nonempty[vu] & relm;
            let mut found = false;
            while cand != 0 {
                let r = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                let list = &classes.lists[vu * MODULUS as usize + r];
                // pos - m for the member m = q * MODULUS + r.
                let base = pos - r as u64;
                for &q in list.iter().rev() {
                    // The distance is coprime to MODULUS, hence odd.
                    if primes.is_odd(base - q as u64 * MODULUS) {
                        found = true;
                        break;
                    }
                }
                if found {
                    break;
                }
            }
            if found {
                mask |= 1 << v;
                continue;
            }
            return v;
        }
        if exhausted {
            return v;
        }
        loop {
            while cur == 0 {
                wi += 1;
                if (wi as u64) * 128 >= bound {
                    break;
                }
                cur = primes.words[wi];
            }
            if cur == 0 {
                exhausted = true;
                break;
            }
            let p = wi as u64 * 128 + 2 * cur.trailing_zeros() as u64 + 1;
            cur &= cur - 1;
            if p > bound {
                exhausted = true;
                cur = 0;
                break;
            }
            mask |= 1 << get(words, pos - p);
            if mask >> v & 1 != 0 {
                break;
            }
        }
        if exhausted && mask >> v & 1 == 0 {
            work.full_scans += 1;
            if bound < maxp {
                // Long search: collect every remaining value at once.
                mask |= values_at_prime_distances(pos, maxp, words, primes, bound + 1);
                bound = maxp;
            }
            if mask >> v & 1 == 0 {
                return v;
            }
        }
    }
}

/// Set of values at positions `pos - p` for odd primes `from <= p <= maxp`.
#[cold]
#[inline(never)]
fn values_at_prime_distances(
    pos: u64,
    maxp: u64,
    words: &[u64],
    primes: &PrimeBits,
    from: u64,
) -> u32 {
    let of_word = |w: usize, mut bits: u64| {
        let mut m = 0u32;
        while bits != 0 {
            let p = w as u64 * 128 + 2 * bits.trailing_zeros() as u64 + 1;
            if p > maxp {
                break;
            }
            m |= 1 << get(words, pos - p);
            bits &= bits - 1;
        }
        m
    };
    if from > maxp {
        return 0;
    }
    // Bit index of the first odd number >= from.
    let j = from / 2;
    let first = (j / 64) as usize;
    let last = (maxp / 128) as usize;
    let head = of_word(first, primes.words[first] & (u64::MAX << (j % 64)));
    head | primes.words[first + 1..=last]
        .par_iter()
        .enumerate()
        .with_min_len(1 << 12)
        .map(|(k, &b)| of_word(first + 1 + k, b))
        .reduce(|| 0, |a, b| a | b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_wide_stops_at_first_wide_value() {
        let n = 2000;
        let mut full = vec![0u64; n / 16 + 1];
        let done = prime_grundy(n as u64, false, &mut full, 0, &mut |_| {
            ControlFlow::Continue(())
        });
        assert_eq!(done, Ok(Outcome::Completed));
        let first9 = (0..n as u64).find(|&m| get(&full, m) == 9).unwrap();
        let mut words = vec![0u64; n / 16 + 1];
        let r = run(
            n as u64,
            false,
            &mut words,
            0,
            &mut |_| ControlFlow::Continue(()),
            &mut Work::default(),
            &Tuning {
                max_value: 8,
                ..Tuning::default()
            },
        );
        assert_eq!(
            r,
            Err(TooWide {
                at: first9,
                value: 9
            })
        );
        assert!((0..first9).all(|m| get(&words, m) == get(&full, m)));
        // Resuming with the full width finishes identically.
        let r = prime_grundy(n as u64, false, &mut words, first9, &mut |_| {
            ControlFlow::Continue(())
        });
        assert_eq!(r, Ok(Outcome::Completed));
        assert_eq!(words, full);
    }

    /// Values by the plain definition.
    fn plain(n: u64, leave1: bool) -> Vec<u32> {
        let primes: Vec<u64> = (2..n)
            .filter(|&k| (2..k).take_while(|d| d * d <= k).all(|d| k % d != 0))
            .collect();
        let mut g = vec![0u32; n as usize];
        for pos in 0..n {
            let mut mask = 0u32;
            for &p in primes.iter().take_while(|&&p| p + leave1 as u64 <= pos) {
                mask |= 1 << g[(pos - p) as usize];
            }
            g[pos as usize] = (!mask).trailing_zeros();
        }
        g
    }

    #[test]
    fn every_search_path_is_exact() {
        let n = 20_000u64;
        for leave1 in [false, true] {
            let want = plain(n, leave1);
            // No lists at all: every value is decided by searching primes, with the
            // parallel sweep taking over early; and lists that are never dropped.
            for tuning in [
                Tuning {
                    list_min_cap: 0,
                    list_density: u64::MAX,
                    scan_limit: 200,
                    ..Tuning::default()
                },
                Tuning {
                    list_min_cap: usize::MAX,
                    ..Tuning::default()
                },
            ] {
                let mut words = vec![0u64; n.div_ceil(16) as usize];
                let mut work = Work::default();
                let r = run(
                    n,
                    leave1,
                    &mut words,
                    0,
                    &mut |_| ControlFlow::Continue(()),
                    &mut work,
                    &tuning,
                );
                assert_eq!(r, Ok(Outcome::Completed));
                assert!((0..n).all(|m| get(&words, m) == want[m as usize]));
                assert_eq!(work.full_scans > 0, tuning.scan_limit == 200);
            }
        }
    }

    #[test]
    fn prime_table_spans_segments() {
        let limit = 3_000_000u64;
        let primes = PrimeBits::new(limit);
        let mut is = vec![true; limit as usize];
        is[0] = false;
        is[1] = false;
        for i in 2..limit as usize {
            if is[i] {
                for j in (i * i..limit as usize).step_by(i) {
                    is[j] = false;
                }
            }
        }
        assert!((0..limit).all(|i| primes.is(i) == is[i as usize]));
        assert_eq!((0..1_000_000).filter(|&i| primes.is(i)).count(), 78_498);
    }
}
