//! Sprague–Grundy values of the subtract-a-prime game, position after position.
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

use super::classes::{Classes, LIST_DENSITY, LIST_MIN_CAP, MODULUS};
use super::mex::{History, Limits, PrimeBits, SCAN_LIMIT, value_at};
use crate::engine::resumable::StepEnd;
use std::ops::ControlFlow;

/// A value above 15 occurred; positions below `at` are final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooWide {
    /// Position whose value does not fit in 4 bits.
    pub at: u64,
    /// That value.
    pub value: u32,
}

/// Positions between two progress reports.
const REPORT_EVERY: u64 = 1 << 20;

/// The largest n the engine handles (its residue lists hold members as 32-bit multiples of 30).
pub const MAX_N: u64 = MODULUS << 32;

/// Number of representable values.
pub(super) const WIDTH: usize = 16;

/// The value of position `m` in a table of 4-bit values.
#[inline]
pub(super) fn get(words: &[u64], m: u64) -> u32 {
    ((words[(m >> 4) as usize] >> ((m & 15) * 4)) & 15) as u32
}

/// Stores value `v` at position `m`, whose 4 bits must be clear.
#[inline]
fn set(words: &mut [u64], m: u64, v: u32) {
    words[(m >> 4) as usize] |= (v as u64) << ((m & 15) * 4);
}

/// What a run counts: positions for which every prime up to the position was examined
/// (the tests check that the long search path runs).
#[derive(Default, Clone, Copy)]
pub(super) struct Work {
    pub(super) full_scans: u64,
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
) -> Result<StepEnd, TooWide> {
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

/// [`prime_grundy`] with the knobs of `tuning`, counting its work in `work`.
fn run(
    n: u64,
    leave1: bool,
    words: &mut [u64],
    resume_from: u64,
    progress: &mut dyn FnMut(u64) -> ControlFlow<()>,
    work: &mut Work,
    tuning: &Tuning,
) -> Result<StepEnd, TooWide> {
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
            return Ok(StepEnd::Stopped { at: pos });
        }
    }
    Ok(StepEnd::Completed)
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
        assert_eq!(done, Ok(StepEnd::Completed));
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
        assert_eq!(r, Ok(StepEnd::Completed));
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
                assert_eq!(r, Ok(StepEnd::Completed));
                assert!((0..n).all(|m| get(&words, m) == want[m as usize]));
                assert_eq!(work.full_scans > 0, tuning.scan_limit == 200);
            }
        }
    }
}
