//! The counting function of a P-position set: counts below powers of two and by residue.
//! Counts are gathered position by position in any order, so chunks can be counted in
//! parallel and merged.

use rayon::prelude::*;

/// The largest modulus of the counts by residue, 2^16: the summaries list one count a residue
/// (a JSON array, a column of the xlsx summary), which stays readable, and each of the
/// counters that parallel chunks fill stays at 512 KiB.
pub const MAX_MODULUS: u64 = 1 << 16;

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

/// Counts being gathered: P-positions by bit length and by residue.
#[derive(Debug, Clone)]
pub struct PCounter {
    /// Element j: P-positions of bit length j (0 has bit length 0).
    by_bit_length: [u64; 65],
    modulus: u64,
    by_residue: Vec<u64>,
}

impl PCounter {
    /// No positions counted yet; `modulus` is from 1 to [`MAX_MODULUS`].
    pub fn new(modulus: u64) -> PCounter {
        assert!(
            (1..=MAX_MODULUS).contains(&modulus),
            "modulus {modulus} out of range"
        );
        PCounter {
            by_bit_length: [0; 65],
            modulus,
            by_residue: vec![0; modulus as usize],
        }
    }

    /// The counts by bit length and by residue, to save.
    pub fn parts(&self) -> (Vec<u64>, Vec<u64>) {
        (self.by_bit_length.to_vec(), self.by_residue.clone())
    }

    /// A counter with the saved counts `parts` ([`PCounter::parts`]) by residue `modulus`, or
    /// None when they are not 65 bit lengths and `modulus` residues.
    pub fn from_parts(modulus: u64, parts: (Vec<u64>, Vec<u64>)) -> Option<PCounter> {
        let (by_bit_length, by_residue) = parts;
        (by_residue.len() as u64 == modulus && (1..=MAX_MODULUS).contains(&modulus))
            .then_some(())?;
        Some(PCounter {
            by_bit_length: by_bit_length.try_into().ok()?,
            modulus,
            by_residue,
        })
    }

    /// The modulus of the counts by residue.
    pub fn modulus(&self) -> u64 {
        self.modulus
    }

    /// Counts one P-position.
    #[inline]
    pub fn add(&mut self, p: u64) {
        self.by_bit_length[(64 - p.leading_zeros()) as usize] += 1;
        self.by_residue[(p % self.modulus) as usize] += 1;
    }

    /// Counts the P-positions among `values`, those of positions `first`, `first` + 1, …: one
    /// bit length at a time, the residues stepped rather than divided for.
    pub fn add_zeros(&mut self, first: u64, values: &[u32]) {
        let mut residue = first % self.modulus;
        let mut at = 0;
        while at < values.len() {
            let p = first + at as u64;
            let length = 64 - p.leading_zeros();
            // Positions below 2^length have this bit length.
            let end = 1u64.checked_shl(length).map_or(values.len(), |next| {
                (next - first).min(values.len() as u64) as usize
            });
            let mut zeros = 0;
            for &v in &values[at..end] {
                if v == 0 {
                    zeros += 1;
                    self.by_residue[residue as usize] += 1;
                }
                residue += 1;
                if residue == self.modulus {
                    residue = 0;
                }
            }
            self.by_bit_length[length as usize] += zeros;
            at = end;
        }
    }

    /// Adds the counts of another counter with the same modulus.
    pub fn merge(mut self, other: PCounter) -> PCounter {
        self.by_bit_length
            .iter_mut()
            .zip(other.by_bit_length)
            .for_each(|(a, b)| *a += b);
        self.by_residue
            .iter_mut()
            .zip(other.by_residue)
            .for_each(|(a, b)| *a += b);
        self
    }

    /// The counts of a table of `n` positions (p < 2^k exactly when its bit length is ≤ k).
    pub fn finish(self, n: u64) -> PCounts {
        let powers = (0..64).take_while(|&k| 1u64 << k <= n);
        let at_powers_of_two = powers
            .map(|k| self.by_bit_length[..=k].iter().sum())
            .collect();
        PCounts {
            at_powers_of_two,
            modulus: self.modulus,
            by_residue: self.by_residue,
        }
    }
}

impl PCounts {
    /// Counts the P-positions `positions` of a table of `n` positions.
    pub fn of(positions: &[u64], n: u64, modulus: u64) -> PCounts {
        positions
            .par_chunks(1 << 16)
            .map(|chunk| {
                let mut counter = PCounter::new(modulus);
                chunk.iter().for_each(|&p| counter.add(p));
                counter
            })
            .reduce(|| PCounter::new(modulus), PCounter::merge)
            .finish(n)
    }
}

#[cfg(test)]
mod tests {
    use super::{PCounter, PCounts};

    #[test]
    fn counts_below_powers_of_two_and_by_residue() {
        let c = PCounts::of(&[0, 2, 5, 7, 10, 12], 16, 5);
        assert_eq!(c.at_powers_of_two, [1, 1, 2, 4, 6]);
        assert_eq!(c.by_residue, [3, 0, 3, 0, 0]);
        assert_eq!(PCounts::of(&[0, 1], 1, 2).at_powers_of_two, [1]);
    }

    /// Counting the zeros of a run of values, from any first position, in pieces or whole,
    /// gives what counting their positions one by one gives.
    #[test]
    fn the_zeros_of_runs_count_as_their_positions() {
        let values: Vec<u32> = (0..300u32).map(|x| (x * 7 + x / 3) % 4).collect();
        for first in [0, 1, 3, 64, 1000] {
            for modulus in [1, 5, 7] {
                let mut by_positions = PCounter::new(modulus);
                (0..values.len())
                    .filter(|&i| values[i] == 0)
                    .for_each(|i| by_positions.add(first + i as u64));
                let mut whole = PCounter::new(modulus);
                whole.add_zeros(first, &values);
                let mut pieces = PCounter::new(modulus);
                pieces.add_zeros(first, &values[..37]);
                pieces.add_zeros(first + 37, &values[37..]);
                let n = first + values.len() as u64;
                let want = by_positions.finish(n);
                assert_eq!(whole.finish(n), want, "first {first}, modulus {modulus}");
                assert_eq!(pieces.finish(n), want, "first {first}, modulus {modulus}");
            }
        }
    }
}
