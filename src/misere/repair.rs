//! Which identifications a refuted candidate breaks.
//!
//! A candidate computed afresh ([`super::rebuild`]) settles the outcome of every word in the
//! generator heaps, taking each other heap m to be the word w it was found equal to. Over such a
//! candidate, a position's state (image, options' images) changes by a heap of image h and
//! options' images O as (y, S) ↦ (yh, Sh ∪ yO), and the word w, as a position of generators,
//! changes it by its own image and the images of its own options. When heap m's options have
//! the images of w's options, m and w change every state alike and the proof cannot fail
//! because of m. So when the proof fails on a position, the identifications that can have
//! broken are those of its heaps whose options' images differ from their words': only these are
//! given up (each heap a generator of its own), as a solver repairs a candidate at its failure.
//! When there is none, an exponent cut x^(A+2) = x^A was too early, and A grows for the
//! generators the position holds past their cut.

use super::heaps::{HeapRules, option_images};
use super::monoid::{ElementSet, Monoid};
use super::presentation::Word;

/// The largest exponent index A (x^(A+2) = x^A) a generator is given.
pub const MAX_INDEX: u32 = 8;

/// The smallest index A ≤ [`MAX_INDEX`] with x^(A+2) = x^A in `monoid` ([`MAX_INDEX`] when
/// there is none).
pub fn power_index(monoid: &Monoid, x: u32) -> u32 {
    let mut powers = vec![0u32];
    for _ in 0..MAX_INDEX + 2 {
        powers.push(monoid.mul(*powers.last().expect("a power"), x));
    }
    (0..MAX_INDEX)
        .find(|&a| powers[a as usize + 2] == powers[a as usize])
        .unwrap_or(MAX_INDEX)
}

/// The element of `word` in the generators whose images are `generators`.
fn word_image(monoid: &Monoid, generators: &[u32], word: &[u32]) -> u32 {
    word.iter().zip(generators).fold(0, |acc, (&e, &g)| {
        (0..e).fold(acc, |acc, _| monoid.mul(acc, g))
    })
}

/// The images of the options of `word`, a position of the generator heaps `free`: one
/// generator replaced by one of its options.
fn word_options(
    monoid: &Monoid,
    images: &[u32],
    rules: &HeapRules,
    free: &[u64],
    word: &[u32],
) -> ElementSet {
    let generators: Vec<u32> = free.iter().map(|&g| images[g as usize]).collect();
    let mut out = ElementSet::empty(monoid.size());
    for (i, &g) in free.iter().enumerate().filter(|&(i, _)| word[i] > 0) {
        let mut rest = word.to_vec();
        rest[i] -= 1;
        let rest = word_image(monoid, &generators, &rest);
        option_images(monoid, images, rules, g)
            .iter()
            .for_each(|o| out.insert(monoid.mul(rest, o)));
    }
    out
}

/// The heaps of `position` (a refuted candidate's) that are not generators and whose options'
/// images differ from those of the word they were found equal to, ascending, without repeats.
pub fn broken(
    monoid: &Monoid,
    images: &[u32],
    rules: &HeapRules,
    free: &[u64],
    words: &[Word],
    position: &[u64],
) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for &m in position {
        if free.contains(&m) || out.contains(&m) {
            continue;
        }
        let own = option_images(monoid, images, rules, m);
        if own != word_options(monoid, images, rules, free, &words[m as usize]) {
            out.push(m);
        }
    }
    out
}

/// The generators (positions in `free`) whose exponent in `position` (its heaps' words added)
/// passes the cut of its index in `indices`.
pub fn cut_short(words: &[Word], indices: &[u32], position: &[u64]) -> Vec<usize> {
    (0..indices.len())
        .filter(|&i| {
            let e: u32 = position.iter().map(|&h| words[h as usize][i]).sum();
            e >= indices[i] + 2
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_of_a_power() {
        // Z/2 (a² = 1: index 0), and {1, b, b²} with b³ = b (index 1).
        let z2 = Monoid::from_fn(2, ElementSet::empty(2), |a, b| a ^ b);
        assert_eq!(power_index(&z2, 1), 0);
        let mul = |a: u32, b: u32| match a + b {
            0 => 0,
            s => 2 - s % 2,
        };
        let b = Monoid::from_fn(3, ElementSet::empty(3), mul);
        assert_eq!(power_index(&b, 1), 1);
        assert_eq!(power_index(&b, 0), 0);
    }
}
