//! Subtraction sets: finite lists and the infinite families of the catalogue.

use super::moves::WindowRule;
use super::primes::primes_below;

/// The set S of a subtraction game (move from n to n − s for s ∈ S, s ≤ n).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubtractionSet {
    /// `nim`: every s ≥ 1.
    Nim,
    /// `sub:a,b,…`: a finite set, sorted ascending.
    Finite(Vec<u64>),
    /// `set-file:PATH`: a finite set read from a file, sorted ascending.
    File {
        /// The path as written in the spec.
        path: String,
        /// The elements, sorted ascending.
        elements: Vec<u64>,
    },
    /// `bachet:k`: {1, …, k}.
    Bachet(u64),
    /// `allbut:a,b,…`: every s ≥ 1 except the listed ones (sorted ascending).
    AllBut(Vec<u64>),
    /// `powers-of-2`: {1, 2, 4, 8, …}.
    PowersOfTwo,
    /// `squares` (k = 2), `cubes` (k = 3), `powers:k`: {j^k : j ≥ 1}.
    Powers(u32),
    /// `triangular`: {1, 3, 6, 10, …}.
    Triangular,
    /// `fibonacci`: {1, 2, 3, 5, 8, …}.
    Fibonacci,
    /// `primes`: the primes.
    Primes,
    /// `pim`: {1} ∪ primes.
    Pim,
}

impl SubtractionSet {
    /// The largest element when the set is finite.
    pub fn finite_max(&self) -> Option<u64> {
        match self {
            SubtractionSet::Finite(s) | SubtractionSet::File { elements: s, .. } => {
                s.last().copied()
            }
            SubtractionSet::Bachet(k) => Some(*k),
            _ => None,
        }
    }

    /// The period p of g in normal play when a theorem gives g(n) = n mod p: the set holds
    /// 1, …, p − 1 and no multiple of p, so the options of n reach every residue below n mod p
    /// and never n mod p itself. `bachet:k` has p = k + 1, `powers-of-2` p = 3 (1 and 2 are
    /// moves; no power of two is a multiple of 3), `pim` p = 4 (1, 2 and 3 are moves; neither
    /// 1 nor a prime is a multiple of 4).
    pub fn proven_period(&self) -> Option<u64> {
        match self {
            SubtractionSet::Bachet(k) => k.checked_add(1),
            SubtractionSet::PowersOfTwo => Some(3),
            SubtractionSet::Pim => Some(4),
            _ => None,
        }
    }

    /// The window form of sets whose options are a range of positions (co-finite sets,
    /// `bachet`, `powers:1`); None for sets listed element by element.
    pub fn window_rule(&self) -> Option<WindowRule> {
        match self {
            SubtractionSet::Nim | SubtractionSet::Powers(1) => {
                Some(WindowRule::CoFinite(Vec::new()))
            }
            SubtractionSet::AllBut(excluded) => Some(WindowRule::CoFinite(excluded.clone())),
            SubtractionSet::Bachet(k) => Some(WindowRule::Bachet(*k)),
            _ => None,
        }
    }

    /// The elements below `limit`, sorted ascending (for sets listed element by element).
    pub fn elements_below(&self, limit: u64) -> Vec<u64> {
        match self {
            SubtractionSet::Primes => primes_below(limit),
            SubtractionSet::Pim => {
                let mut s = primes_below(limit);
                if limit > 1 {
                    s.insert(0, 1);
                }
                s
            }
            set => set
                .ascending()
                .expect("every set but the prime ones lists its elements in order")
                .take_while(|&s| s < limit)
                .collect(),
        }
    }

    /// The elements in increasing order, lazily, for every set but `primes` and `pim` (whose
    /// elements come from a sieve below a bound).
    pub fn ascending(&self) -> Option<Box<dyn Iterator<Item = u64> + '_>> {
        Some(match self {
            SubtractionSet::Finite(s) | SubtractionSet::File { elements: s, .. } => {
                Box::new(s.iter().copied())
            }
            SubtractionSet::Bachet(k) => Box::new(1..=*k),
            SubtractionSet::Nim => Box::new(1..),
            SubtractionSet::AllBut(excluded) => {
                Box::new((1..).filter(|s| excluded.binary_search(s).is_err()))
            }
            SubtractionSet::PowersOfTwo => Box::new((0..64).map(|e| 1u64 << e)),
            SubtractionSet::Powers(k) => Box::new((1u64..).map_while(|j| j.checked_pow(*k))),
            SubtractionSet::Triangular => {
                Box::new((1u64..).map_while(|j| j.checked_mul(j + 1).map(|t| t / 2)))
            }
            SubtractionSet::Fibonacci => {
                let fib = std::iter::successors(Some((1u64, 2u64)), |&(a, b)| {
                    a.checked_add(b).map(|c| (b, c))
                });
                Box::new(fib.map(|(a, _)| a))
            }
            SubtractionSet::Primes | SubtractionSet::Pim => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::SubtractionSet as S;

    #[test]
    fn families_list_their_first_elements() {
        assert_eq!(S::Powers(2).elements_below(50), [1, 4, 9, 16, 25, 36, 49]);
        assert_eq!(S::Powers(3).elements_below(65), [1, 8, 27, 64]);
        assert_eq!(S::Triangular.elements_below(16), [1, 3, 6, 10, 15]);
        assert_eq!(S::Fibonacci.elements_below(22), [1, 2, 3, 5, 8, 13, 21]);
        assert_eq!(S::PowersOfTwo.elements_below(17), [1, 2, 4, 8, 16]);
        assert_eq!(S::Primes.elements_below(20), [2, 3, 5, 7, 11, 13, 17, 19]);
        assert_eq!(S::Pim.elements_below(8), [1, 2, 3, 5, 7]);
        assert_eq!(S::AllBut(vec![2, 4]).elements_below(7), [1, 3, 5, 6]);
        assert_eq!(S::Bachet(3).elements_below(10), [1, 2, 3]);
    }
}
