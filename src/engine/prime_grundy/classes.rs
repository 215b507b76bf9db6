//! The value classes of the `prime-grundy` engine, split by residue modulo 30: a member `m`
//! whose distance `n - m` shares a factor with 30 is at a composite distance unless that
//! distance is 2, 3 or 5 (which the history of the last 64 positions covers), so the members
//! at distances coprime to 30, when their lists are complete, decide whether a value is an
//! option. A list is dropped once it is too dense to be worth keeping.

use super::values::WIDTH;

/// Modulus used to split every value class into residue classes.
pub(super) const MODULUS: u64 = 30;

/// Primes dividing [`MODULUS`].
const SMALL_PRIMES: [u64; 3] = [2, 3, 5];

/// A residue list is always kept while it has at most this many members.
pub(super) const LIST_MIN_CAP: usize = 4096;

/// Beyond [`LIST_MIN_CAP`], a residue list is kept while it holds fewer than one in
/// `LIST_DENSITY` of the positions with its residue.
pub(super) const LIST_DENSITY: u64 = 16;

/// Members of each value class, split by residue modulo [`MODULUS`].
///
/// A residue list is complete (all members so far, ascending) until it becomes
/// too dense, after which it is dropped for good and marked in `dense`.
pub(super) struct Classes {
    /// Members `m` of value `v` with residue `r`, stored as `m / MODULUS` in
    /// `lists[v * MODULUS + r]`.
    pub(super) lists: Vec<Vec<u32>>,
    pub(super) dense: [u32; WIDTH],
    pub(super) nonempty: [u32; WIDTH],
    /// Bit `r` of `coprime[a]` is set iff `a - r` is coprime to [`MODULUS`].
    pub(super) coprime: [u32; MODULUS as usize],
    min_cap: usize,
    density: u64,
}

impl Classes {
    pub(super) fn new(min_cap: usize, density: u64) -> Self {
        Classes {
            min_cap,
            density,
            lists: (0..WIDTH * MODULUS as usize).map(|_| Vec::new()).collect(),
            dense: [0; WIDTH],
            nonempty: [0; WIDTH],
            coprime: coprime_masks(),
        }
    }

    #[inline]
    pub(super) fn add(&mut self, pos: u64, v: usize) {
        let r = (pos % MODULUS) as usize;
        if self.dense[v] >> r & 1 != 0 {
            return;
        }
        let list = &mut self.lists[v * MODULUS as usize + r];
        if list.len() >= self.min_cap
            && (list.len() as u64)
                .saturating_mul(self.density)
                .saturating_mul(MODULUS)
                >= pos
        {
            self.dense[v] |= 1 << r;
            *list = Vec::new();
            return;
        }
        list.push((pos / MODULUS) as u32);
        self.nonempty[v] |= 1 << r;
    }
}

/// For each residue `a` of a position, the residues `r` of members whose distance
/// `a - r` is coprime to [`MODULUS`].
fn coprime_masks() -> [u32; MODULUS as usize] {
    let mut out = [0u32; MODULUS as usize];
    for (a, m) in out.iter_mut().enumerate() {
        for r in 0..MODULUS {
            let d = (a as u64 + MODULUS - r) % MODULUS;
            if SMALL_PRIMES.iter().all(|&q| !d.is_multiple_of(q)) {
                *m |= 1 << r;
            }
        }
    }
    out
}
