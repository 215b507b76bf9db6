//! Divisor games and the smallest-prime-factor sieve that lists divisors without trial division.

/// The four divisor rules of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivisorRule {
    /// `aliquot`: n → n − d for d ∣ n, d < n.
    Aliquot,
    /// `proper-divisors`: n → n − d for d ∣ n, 1 < d < n.
    ProperDivisors,
    /// `divisors`: n → n − d for d ∣ n, d ≤ n.
    Divisors,
    /// `to-divisor`: n → d for d ∣ n, d < n.
    ToDivisor,
}

impl DivisorRule {
    /// The option reached from `n` through its divisor `d`, if the rule allows that divisor.
    pub fn option(self, n: u64, d: u64) -> Option<u64> {
        match self {
            DivisorRule::Aliquot => (d < n).then(|| n - d),
            DivisorRule::ProperDivisors => (1 < d && d < n).then(|| n - d),
            DivisorRule::Divisors => Some(n - d),
            DivisorRule::ToDivisor => (d < n).then_some(d),
        }
    }

    /// Replaces the divisors of `n` in `out[start..]` by the options they give that reach at
    /// least `min_target`.
    pub fn keep_options(self, n: u64, out: &mut Vec<u64>, start: usize, min_target: u64) {
        let mut kept = start;
        for i in start..out.len() {
            if let Some(m) = self.option(n, out[i]).filter(|&m| m >= min_target) {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Multiplies each divisor in `out[start..]` by p, p², …, p^multiplicity, appending the
/// products: the divisors of a number grow this way one prime power at a time.
fn extend_by_prime_power(out: &mut Vec<u64>, start: usize, p: u64, multiplicity: u32) {
    let existing = out.len();
    for i in start..existing {
        let mut d = out[i];
        for _ in 0..multiplicity {
            d *= p;
            out.push(d);
        }
    }
}

/// Every divisor of `n` ≥ 1, ascending, from its factorisation (Pollard's rho and Miller–Rabin
/// through `num-prime`: microseconds for any n below 2^64).
pub fn divisors_of(n: u64) -> Vec<u64> {
    let mut out = vec![1];
    for (p, multiplicity) in num_prime::nt_funcs::factorize64(n) {
        extend_by_prime_power(&mut out, 0, p, multiplicity as u32);
    }
    out.sort_unstable();
    out
}

/// Smallest prime factor of every position below a bound, sieved once.
#[derive(Debug, Clone)]
pub struct SmallestFactors {
    /// `spf[n]` is the smallest prime factor of n (0 for n < 2).
    spf: Vec<u32>,
}

impl SmallestFactors {
    /// Sieves smallest prime factors below `limit` (at most 2^32).
    pub fn below(limit: u64) -> Self {
        let limit = usize::try_from(limit).expect("limit fits in memory");
        let mut spf = vec![0u32; limit];
        for p in 2..limit {
            if spf[p] == 0 {
                for multiple in (p..limit).step_by(p) {
                    if spf[multiple] == 0 {
                        spf[multiple] = p as u32;
                    }
                }
            }
        }
        SmallestFactors { spf }
    }

    /// Appends every divisor of `n` (1 ≤ n < limit) to `out`, in no particular order.
    pub fn divisors(&self, n: u64, out: &mut Vec<u64>) {
        let start = out.len();
        out.push(1);
        let mut rest = n;
        while rest > 1 {
            let p = u64::from(self.spf[rest as usize]);
            let mut multiplicity = 0;
            while rest.is_multiple_of(p) {
                rest /= p;
                multiplicity += 1;
            }
            extend_by_prime_power(out, start, p, multiplicity);
        }
    }
}

/// The prime factors up to √end of every position of a block start..end, sieved with the
/// primes up to √end: the segmented counterpart of [`SmallestFactors`], for positions beyond
/// what one table of factors can hold. A position has at most 15 such factors (the product of
/// the first 16 primes exceeds 2^64).
#[derive(Debug, Clone)]
pub struct BlockFactors {
    start: u64,
    /// Factors of position start + i at 16·i …, `count[i]` of them.
    factors: Vec<u32>,
    count: Vec<u8>,
}

impl BlockFactors {
    /// Factors positions start..end with `primes`, every prime up to √(end − 1), ascending.
    pub fn new(start: u64, end: u64, primes: &[u64]) -> Self {
        let len = (end - start) as usize;
        let mut block = BlockFactors {
            start,
            factors: vec![0; 16 * len],
            count: vec![0; len],
        };
        for &p in primes.iter().take_while(|&&p| p * p < end) {
            let mut m = start.max(1).next_multiple_of(p);
            while m < end {
                let i = (m - start) as usize;
                block.factors[16 * i + usize::from(block.count[i])] = p as u32;
                block.count[i] += 1;
                m += p;
            }
        }
        block
    }

    /// Appends every divisor of `n` (1 ≤ n, a position of the block) to `out`, in no
    /// particular order.
    pub fn divisors(&self, n: u64, out: &mut Vec<u64>) {
        let start = out.len();
        out.push(1);
        let i = (n - self.start) as usize;
        let mut rest = n;
        for &p in &self.factors[16 * i..16 * i + usize::from(self.count[i])] {
            let p = u64::from(p);
            let mut multiplicity = 0;
            while rest.is_multiple_of(p) {
                rest /= p;
                multiplicity += 1;
            }
            extend_by_prime_power(out, start, p, multiplicity);
        }
        // What is left has no prime factor up to √n: 1 or a prime.
        if rest > 1 {
            extend_by_prime_power(out, start, rest, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BlockFactors, SmallestFactors, divisors_of};

    #[test]
    fn lists_divisors() {
        let f = SmallestFactors::below(1000);
        for n in 1..1000u64 {
            let mut got = Vec::new();
            f.divisors(n, &mut got);
            got.sort_unstable();
            let want: Vec<u64> = (1..=n).filter(|d| n % d == 0).collect();
            assert_eq!(got, want, "divisors of {n}");
            assert_eq!(divisors_of(n), want, "factorised divisors of {n}");
        }
        assert_eq!(divisors_of(u64::MAX).len(), 128);
    }

    #[test]
    fn blocks_list_the_same_divisors() {
        let f = SmallestFactors::below(5000);
        let primes = crate::game::primes_below(100);
        for (start, end) in [(1, 700), (700, 701), (4000, 5000)] {
            let block = BlockFactors::new(start, end, &primes);
            for n in start..end {
                let (mut got, mut want) = (Vec::new(), Vec::new());
                block.divisors(n, &mut got);
                f.divisors(n, &mut want);
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "divisors of {n}");
            }
        }
    }
}
