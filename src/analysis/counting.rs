//! The counting function of a P-position set: counts below powers of two and by residue.

/// P-position counts that researchers fit and compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PCounts {
    /// Element k: the number of P-positions below 2^k, for every 2^k ≤ n.
    pub at_powers_of_two: Vec<u64>,
    /// The modulus of `by_residue`.
    pub modulus: u64,
    /// Element r: the number of P-positions ≡ r (mod `modulus`).
    pub by_residue: Vec<u64>,
}

impl PCounts {
    /// Counts the ascending P-positions `positions` of a table of `n` positions.
    pub fn of(positions: &[u64], n: u64, modulus: u64) -> PCounts {
        let at_powers_of_two = (0..64)
            .map(|k| 1u64 << k)
            .take_while(|&bound| bound <= n)
            .map(|bound| positions.partition_point(|&p| p < bound) as u64)
            .collect();
        let mut by_residue = vec![0; modulus as usize];
        for &p in positions {
            by_residue[(p % modulus) as usize] += 1;
        }
        PCounts {
            at_powers_of_two,
            modulus,
            by_residue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PCounts;

    #[test]
    fn counts_below_powers_of_two_and_by_residue() {
        let c = PCounts::of(&[0, 2, 5, 7, 10, 12], 16, 5);
        assert_eq!(c.at_powers_of_two, [1, 1, 2, 4, 6]);
        assert_eq!(c.by_residue, [3, 0, 3, 0, 0]);
    }
}
