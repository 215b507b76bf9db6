//! The prime sieve: a segmented sieve of Eratosthenes on the odd numbers, one bit a number
//! (n / 16 bytes for the numbers below n), segments of 32 KiB sieved in parallel. Engines and
//! checks that test distances for primality read the bitmap; the prime-based subtraction sets
//! list their elements from it.

use rayon::prelude::*;

/// Words a segment of the sieve covers (2^18 odd numbers, 32 KiB of bits).
const SEGMENT_WORDS: usize = 1 << 12;

/// All primes below `limit`, ascending: 8 bytes a prime, in one allocation of the exact
/// length, listed segment by segment in parallel from the bitmap of odd primes.
pub fn primes_below(limit: u64) -> Vec<u64> {
    let mut bits = vec![0u64; limit.div_ceil(128) as usize];
    sieve_odd_primes(limit, &mut bits);
    let counts: Vec<usize> = bits
        .par_chunks(SEGMENT_WORDS)
        .map(|chunk| chunk.iter().map(|w| w.count_ones() as usize).sum())
        .collect();
    let two = usize::from(limit > 2);
    let mut primes = vec![0u64; two + counts.iter().sum::<usize>()];
    let (head, mut rest) = primes.split_at_mut(two);
    head.fill(2);
    let mut parts = Vec::with_capacity(counts.len());
    for &count in &counts {
        let (part, tail) = rest.split_at_mut(count);
        parts.push(part);
        rest = tail;
    }
    parts
        .into_par_iter()
        .zip(bits.par_chunks(SEGMENT_WORDS))
        .enumerate()
        .for_each(|(c, (part, chunk))| {
            let mut out = part.iter_mut();
            for (w, &word) in chunk.iter().enumerate() {
                let first = ((c * SEGMENT_WORDS + w) * 64) as u64;
                let mut rest = word;
                while rest != 0 {
                    let i = first + u64::from(rest.trailing_zeros());
                    *out.next().expect("counted") = 2 * i + 1;
                    rest &= rest - 1;
                }
            }
        });
    primes
}

/// Marks the odd primes below `limit` in `bits`, which must hold at least ⌈limit/128⌉ words:
/// bit i % 64 of word i / 64 stands for 2i + 1 and is set exactly when that number is a prime
/// below `limit` (words past ⌈limit/128⌉ are cleared). Segments of the bitmap are sieved in
/// parallel, each crossing off the odd multiples of the odd primes up to √limit.
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
                if square >= last {
                    // The base primes ascend: no later one crosses off anything here either.
                    break;
                }
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
        assert_eq!(super::primes_below(0), Vec::<u64>::new());
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

    /// Across segment boundaries and past the limit, the bitmap is exactly the odd primes below
    /// the limit (checked against a plain sieve of Eratosthenes).
    #[test]
    fn bitmap_spans_segments() {
        let limit = 3_000_001u64;
        let mut composite = vec![false; limit as usize];
        for i in 2..limit as usize {
            if !composite[i] {
                for j in (i * i..limit as usize).step_by(i) {
                    composite[j] = true;
                }
            }
        }
        // Room for more words than the limit needs: they must come out cleared.
        let mut bits = vec![u64::MAX; limit.div_ceil(128) as usize + 2];
        super::sieve_odd_primes(limit, &mut bits);
        for i in 0..bits.len() as u64 * 64 {
            let d = 2 * i + 1;
            let want = d > 1 && d < limit && !composite[d as usize];
            assert_eq!(bits[(i / 64) as usize] >> (i % 64) & 1 == 1, want, "{d}");
        }
    }
}
