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
            let existing = out.len();
            for i in start..existing {
                let mut d = out[i];
                for _ in 0..multiplicity {
                    d *= p;
                    out.push(d);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SmallestFactors;

    #[test]
    fn lists_divisors() {
        let f = SmallestFactors::below(1000);
        for n in 1..1000u64 {
            let mut got = Vec::new();
            f.divisors(n, &mut got);
            got.sort_unstable();
            let want: Vec<u64> = (1..=n).filter(|d| n % d == 0).collect();
            assert_eq!(got, want, "divisors of {n}");
        }
    }
}
