//! A segmented sieve of Eratosthenes on the odd numbers, for the prime-based subtraction sets.

use rayon::prelude::*;

/// Words a segment of the sieve covers (2^18 odd numbers, 32 KiB of bits).
const SEGMENT_WORDS: usize = 1 << 12;

/// All primes below `limit`, ascending.
pub fn primes_below(limit: u64) -> Vec<u64> {
    let mut bits = vec![0u64; limit.div_ceil(128) as usize];
    sieve_odd_primes(limit, &mut bits);
    let odd = bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = w as u64 * 64 + u64::from(rest.trailing_zeros());
                rest &= rest - 1;
                2 * i + 1
            })
        })
    });
    (limit > 2).then_some(2).into_iter().chain(odd).collect()
}

/// Marks the odd primes below `limit` in `bits`, which must hold at least ⌈limit/128⌉ words:
/// bit i % 64 of word i / 64 stands for 2i + 1 and is set exactly when that number is a prime
/// below `limit`. Segments of the bitmap are sieved in parallel, each crossing off the odd
/// multiples of the odd primes up to √limit.
pub fn sieve_odd_primes(limit: u64, bits: &mut [u64]) {
    let root = limit.isqrt();
    let base: Vec<u64> = if root >= 3 {
        primes_below(root + 1).into_iter().skip(1).collect()
    } else {
        Vec::new()
    };
    // Odd numbers below `limit` have indices below limit / 2.
    let end = limit / 2;
    bits.par_chunks_mut(SEGMENT_WORDS)
        .enumerate()
        .for_each(|(c, chunk)| {
            let first = (c * SEGMENT_WORDS * 64) as u64;
            let last = (first + chunk.len() as u64 * 64).min(end);
            for (k, word) in chunk.iter_mut().enumerate() {
                let lo = first + k as u64 * 64;
                *word = match last.saturating_sub(lo) {
                    64.. => u64::MAX,
                    below => (1 << below) - 1,
                };
            }
            for &p in &base {
                // p² is the first multiple left to cross off; its index is (p² − 1) / 2, and
                // odd multiples are p apart in index.
                let square = (p * p - 1) / 2;
                let mut i = if square >= first {
                    square
                } else {
                    first + (p - (first - square) % p) % p
                };
                while i < last {
                    chunk[((i - first) / 64) as usize] &= !(1 << (i % 64));
                    i += p;
                }
            }
        });
    // 1 is not a prime.
    if let Some(word) = bits.first_mut() {
        *word &= !1;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_primes() {
        assert_eq!(super::primes_below(2), Vec::<u64>::new());
        assert_eq!(super::primes_below(3), [2]);
        assert_eq!(super::primes_below(10), [2, 3, 5, 7]);
        assert_eq!(super::primes_below(12), [2, 3, 5, 7, 11]);
        assert_eq!(super::primes_below(100).len(), 25);
        assert_eq!(super::primes_below(1_000_000).len(), 78_498);
        assert_eq!(super::primes_below(20_000_000).len(), 1_270_607);
    }

    #[test]
    fn trial_division_agrees() {
        let prime = |p: u64| {
            p >= 2
                && (2..)
                    .take_while(|d| d * d <= p)
                    .all(|d| !p.is_multiple_of(d))
        };
        for limit in 0..300 {
            let expected: Vec<u64> = (0..limit).filter(|&p| prime(p)).collect();
            assert_eq!(super::primes_below(limit), expected, "below {limit}");
        }
    }
}
