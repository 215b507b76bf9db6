//! A finite commutative monoid with a P-portion (a bipartite monoid), its sets of elements, and
//! its reduction: the coarsest congruence that keeps P apart from the rest (elements that no
//! product tells apart become one).

use std::collections::HashMap;

/// A set of elements of a monoid, one bit an element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ElementSet {
    words: Vec<u64>,
}

impl ElementSet {
    /// The empty set of a monoid of `size` elements.
    pub fn empty(size: usize) -> ElementSet {
        ElementSet {
            words: vec![0; size.div_ceil(64)],
        }
    }

    /// The set of `words` (bit x of word x / 64 for element x).
    pub fn from_words(words: Vec<u64>) -> ElementSet {
        ElementSet { words }
    }

    /// Its words (bit x of word x / 64 for element x).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Adds `x`.
    pub fn insert(&mut self, x: u32) {
        self.words[x as usize / 64] |= 1 << (x % 64);
    }

    /// True when `x` is in the set.
    pub fn contains(&self, x: u32) -> bool {
        self.words[x as usize / 64] >> (x % 64) & 1 == 1
    }

    /// True when the set has no element.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The elements, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + bit
                })
            })
        })
    }
}

/// A finite commutative monoid with an identified subset P; element 0 is the identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monoid {
    size: usize,
    table: Vec<u32>,
    p: ElementSet,
}

impl Monoid {
    /// The monoid {1} with an empty P-portion: the quotient of the empty game (an N-position
    /// in misère play).
    pub fn trivial() -> Monoid {
        Monoid {
            size: 1,
            table: vec![0],
            p: ElementSet::empty(1),
        }
    }

    /// The monoid of `size` elements whose products `product` gives, with P-portion `p`.
    pub fn from_fn(size: usize, p: ElementSet, product: impl Fn(u32, u32) -> u32) -> Monoid {
        let table = (0..size * size)
            .map(|i| product((i / size) as u32, (i % size) as u32))
            .collect();
        Monoid { size, table, p }
    }

    /// The monoid of `size` elements whose product xy is `table[x·size + y]`, with P-portion
    /// `p`.
    pub fn from_table(size: usize, table: Vec<u32>, p: ElementSet) -> Monoid {
        debug_assert_eq!(table.len(), size * size);
        Monoid { size, table, p }
    }

    /// The number of elements.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The product xy.
    #[inline]
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.size + y as usize]
    }

    /// The products xy of `x` and every y, by y.
    #[inline]
    pub fn products(&self, x: u32) -> &[u32] {
        &self.table[x as usize * self.size..][..self.size]
    }

    /// True when x is in the P-portion.
    #[inline]
    pub fn is_p(&self, x: u32) -> bool {
        self.p.contains(x)
    }

    /// The P-portion.
    pub fn p_portion(&self) -> &ElementSet {
        &self.p
    }

    /// The elements y with xy in P: what x looks like to every test position, distinct for
    /// distinct elements of a reduced monoid.
    pub fn row(&self, x: u32) -> ElementSet {
        let mut out = ElementSet::empty(self.size);
        (0..self.size as u32)
            .filter(|&y| self.is_p(self.mul(x, y)))
            .for_each(|y| out.insert(y));
        out
    }

    /// The reduction of this monoid, which `generators` generate: the classes of elements that
    /// no product tells apart (x ~ y when xz ∈ P ⟺ yz ∈ P for every z), found by refining the
    /// split P / not P by the generators' actions ([`minimize`]). Returns the reduced monoid
    /// and each element's class; the identity's class is 0.
    pub fn reduce(&self, generators: &[u32]) -> (Monoid, Vec<u32>) {
        let (class, count) = minimize(
            self.size,
            |x| self.is_p(x as u32),
            generators.len(),
            |x, g| self.mul(x as u32, generators[g]) as usize,
        );
        let member = first_members(&class, count);
        let mut p = ElementSet::empty(count);
        (0..count as u32)
            .filter(|&c| self.is_p(member[c as usize]))
            .for_each(|c| p.insert(c));
        let reduced = Monoid::from_fn(count, p, |a, b| {
            class[self.mul(member[a as usize], member[b as usize]) as usize]
        });
        (reduced, class)
    }
}

/// Moore's minimisation: the classes of `n` states (numbered from 0, state 0's class 0) that
/// neither `is_p` nor any sequence of the `letters` transitions `next` tells apart, and their
/// number.
fn minimize(
    n: usize,
    is_p: impl Fn(usize) -> bool,
    letters: usize,
    next: impl Fn(usize, usize) -> usize,
) -> (Vec<u32>, usize) {
    let mut class: Vec<u32> = (0..n).map(|x| u32::from(is_p(x))).collect();
    let mut count = 0;
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let next_class: Vec<u32> = (0..n)
            .map(|x| {
                let key: Vec<u32> = std::iter::once(class[x])
                    .chain((0..letters).map(|l| class[next(x, l)]))
                    .collect();
                let fresh = ids.len() as u32;
                *ids.entry(key).or_insert(fresh)
            })
            .collect();
        class = next_class;
        if ids.len() == count {
            return (class, count);
        }
        count = ids.len();
    }
}

/// The first state of each of `count` classes.
fn first_members(class: &[u32], count: usize) -> Vec<u32> {
    let mut member = vec![0u32; count];
    for x in (0..class.len()).rev() {
        member[class[x] as usize] = x as u32;
    }
    member
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_list_their_elements() {
        let mut s = ElementSet::empty(130);
        for x in [0, 63, 64, 129] {
            s.insert(x);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 63, 64, 129]);
        assert!(s.contains(64) && !s.contains(65) && !s.is_empty());
    }

    #[test]
    fn reduction_merges_what_no_product_separates() {
        // Z/4 with P = {1, 3}: x and x + 2 are never told apart, so Z/2 is left.
        let mut p = ElementSet::empty(4);
        p.insert(1);
        p.insert(3);
        let z4 = Monoid::from_fn(4, p, |a, b| (a + b) % 4);
        let (z2, class) = z4.reduce(&[1]);
        assert_eq!(z2.size(), 2);
        assert_eq!(class, [0, 1, 0, 1]);
        assert!(z2.is_p(1) && !z2.is_p(0));
        assert_eq!(z2.mul(1, 1), 0);
    }
}
