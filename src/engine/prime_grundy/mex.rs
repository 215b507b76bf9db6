//! One position's value in the `prime-grundy` engine: the candidate values `0, 1, 2, …` are
//! decided in turn, from the history of the last 64 positions (prime distances below 64),
//! then from the residue lists of the value class, else by trying primes in increasing order
//! (past a fixed distance all remaining primes at once, on the rayon pool).

use super::classes::{Classes, MODULUS};
use super::values::{WIDTH, Work, get};
use crate::game::sieve_odd_primes;
use rayon::prelude::*;

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

/// Prime distances below this are tried one by one for a position; past it,
/// all remaining ones are examined together, in parallel.
pub(super) const SCAN_LIMIT: u64 = 1 << 20;

/// Bitset of the odd primes: bit `j` is set iff `2j + 1` is prime.
pub(super) struct PrimeBits {
    words: Vec<u64>,
}

impl PrimeBits {
    /// The odd primes below `limit`, with a word to spare past them for the cursor of
    /// [`value_at`].
    pub(super) fn new(limit: u64) -> Self {
        let mut words = vec![0u64; (limit / 128 + 2) as usize];
        sieve_odd_primes(limit, &mut words);
        PrimeBits { words }
    }

    /// Whether the odd number `i` is prime.
    #[inline]
    fn is_odd(&self, i: u64) -> bool {
        debug_assert!(i & 1 == 1);
        (self.words[(i >> 7) as usize] >> ((i >> 1) & 63)) & 1 != 0
    }
}

/// For each value, which of the last 64 positions hold it: bit `k` of `bits[v]`
/// is set iff position `pos - 1 - k` has value `v`.
pub(super) struct History {
    pub(super) bits: [u64; WIDTH],
}

impl History {
    #[inline]
    pub(super) fn push(&mut self, v: u32) {
        for b in self.bits.iter_mut() {
            *b <<= 1;
        }
        self.bits[v as usize] |= 1;
    }
}

/// Fixed parameters of a run.
#[derive(Clone, Copy)]
pub(super) struct Limits {
    /// Smallest position a move may lead to.
    pub(super) min_m: u64,
    /// See [`SCAN_LIMIT`].
    pub(super) scan_limit: u64,
}

/// Grundy value of `pos`, given final values below it.
#[inline]
pub(super) fn value_at(
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
