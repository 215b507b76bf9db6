//! A presentation of a quotient by its generators: each element's normal form (the least word
//! of it, by degree then lexicographically, a before b), and the relations w = nf(w) for the
//! least words that are not normal forms (every proper divisor of such a word is one). Normal
//! forms are closed under division (the order is a monomial order), so these relations
//! rewrite every word to its normal form: they present the quotient.

use super::monoid::Monoid;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// A word: the exponent of each generator.
pub type Word = Vec<u32>;

/// The normal form of every element and the relations.
#[derive(Debug, Clone)]
pub struct Presentation {
    /// The normal form of each element, by element.
    pub normal_forms: Vec<Word>,
    /// The relations (word, the element it equals).
    pub relations: Vec<(Word, u32)>,
}

/// The key that orders words: degree, then lexicographically with a before b (of two words of
/// one degree, the one with more a's comes first).
fn key(word: &Word) -> (u32, Reverse<Word>) {
    (word.iter().sum(), Reverse(word.clone()))
}

/// The presentation of `monoid` by the generator images `generators`, which generate it.
pub fn present(monoid: &Monoid, generators: &[u32]) -> Presentation {
    let r = generators.len();
    let mut normal_forms: Vec<Option<Word>> = vec![None; monoid.size()];
    let mut normal: HashSet<Word> = HashSet::new();
    let mut relations = Vec::new();
    let mut queued: HashSet<Word> = HashSet::new();
    let mut queue = BinaryHeap::new();
    let one = vec![0u32; r];
    queued.insert(one.clone());
    queue.push(Reverse((key(&one), one, 0u32)));
    while let Some(Reverse((_, word, element))) = queue.pop() {
        if normal_forms[element as usize].is_none() {
            normal_forms[element as usize] = Some(word.clone());
            normal.insert(word.clone());
            for (i, &g) in generators.iter().enumerate() {
                let mut next = word.clone();
                next[i] += 1;
                if queued.insert(next.clone()) {
                    queue.push(Reverse((key(&next), next, monoid.mul(element, g))));
                }
            }
        } else {
            let minimal = (0..r).filter(|&i| word[i] > 0).all(|i| {
                let mut divisor = word.clone();
                divisor[i] -= 1;
                normal.contains(&divisor)
            });
            if minimal {
                relations.push((word, element));
            }
        }
    }
    Presentation {
        normal_forms: normal_forms
            .into_iter()
            .map(|w| w.expect("the generators generate the monoid"))
            .collect(),
        relations,
    }
}

/// Each element's least word when the last generator weighs most (an elimination order: the
/// least exponent of the last generator, then the least word of the rest), and the elements in
/// that order; `times[x·r + j]` is the product of element x and generator j, `r` generators.
/// An element of the submonoid of generators 0 to i has its least word in those alone, so a
/// heap that is a product of smaller generator heaps is written with those only.
pub fn least_words(size: usize, r: usize, times: &[u32]) -> (Vec<u32>, Vec<Word>) {
    let mut order = vec![0u32];
    let mut words = vec![vec![0u32; r]; size];
    let mut seen = vec![usize::MAX; size];
    for i in 0..r {
        let mut next = Vec::with_capacity(size);
        let mut powers = order.clone();
        // x·g^k for the elements x of generators 0 to i − 1, k = 0, 1, …: once a power adds
        // nothing new, no later one does (its products by g are the earlier powers' products).
        for k in 0.. {
            let before = next.len();
            for (&x, &from) in powers.iter().zip(&order) {
                if seen[x as usize] != i {
                    seen[x as usize] = i;
                    next.push(x);
                    words[x as usize] = words[from as usize].clone();
                    words[x as usize][i] = k;
                }
            }
            if next.len() == before {
                break;
            }
            powers
                .iter_mut()
                .for_each(|x| *x = times[*x as usize * r + i]);
        }
        order = next;
    }
    (order, words)
}

/// The name of generator `i`: a, b, …, z, then g27, g28, ….
pub fn generator_name(i: usize) -> String {
    match i {
        0..26 => char::from(b'a' + i as u8).to_string(),
        _ => format!("g{}", i + 1),
    }
}

/// A word as text: `1`, `a`, `a^2b`, `bc^3`.
pub fn word_text(word: &Word) -> String {
    let text: String = word
        .iter()
        .enumerate()
        .filter(|&(_, &e)| e > 0)
        .map(|(i, &e)| match e {
            1 => generator_name(i),
            e => format!("{}^{e}", generator_name(i)),
        })
        .collect();
    if text.is_empty() { "1".into() } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::monoid::ElementSet;

    #[test]
    fn z2_is_presented_by_a_squared() {
        let mut p = ElementSet::empty(2);
        p.insert(1);
        let z2 = Monoid::from_fn(2, p, |a, b| a ^ b);
        let pr = present(&z2, &[1]);
        assert_eq!(pr.normal_forms, [vec![0], vec![1]]);
        assert_eq!(pr.relations, [(vec![2], 0)]);
        assert_eq!(word_text(&vec![2, 0, 1]), "a^2c");
    }
}
