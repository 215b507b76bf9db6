//! A sieve of Eratosthenes for the prime-based subtraction sets.

/// All primes below `limit`, ascending.
pub fn primes_below(limit: u64) -> Vec<u64> {
    let limit = usize::try_from(limit).expect("prime limit fits in memory");
    let mut composite = vec![false; limit];
    let mut primes = Vec::new();
    for p in 2..limit {
        if !composite[p] {
            primes.push(p as u64);
            for multiple in (p.saturating_mul(p)..limit).step_by(p) {
                composite[multiple] = true;
            }
        }
    }
    primes
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_primes() {
        assert_eq!(super::primes_below(2), Vec::<u64>::new());
        assert_eq!(super::primes_below(100).len(), 25);
        assert_eq!(super::primes_below(1_000_000).len(), 78_498);
    }
}
