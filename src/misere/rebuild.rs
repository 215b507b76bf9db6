//! The candidate computed afresh from words in the generators, when an identification among
//! smaller heaps did not survive a larger heap.
//!
//! An identification made among smaller heaps need not survive a larger one: in Kayles, two
//! heaps of 5 are indistinguishable from nothing among the heaps below 9, not once heap 9 is
//! there. Then every position is written as a word in the generator heaps g_1 < … < g_r (each
//! other heap by the word it was found equal to), exponents cut to below A + 2 by
//! x^(A+2) = x^A. The outcome of each such word follows from its options' outcomes: an option
//! replaces one g_i by the words of the heaps a move leaves, all of generators below g_i. Each
//! generator has its own A, so that a generator of order two (x² = 1) costs two exponents, not
//! four.
//!
//! The words are not listed (their number is the product of the exponent ranges): the
//! P-positions among them are a [`Diagram`], settled a column of one generator's exponent at a
//! time, and the elements of the candidate are its residuals {z : xz ∈ P}, found by closure
//! from the empty word's, one multiplication by each generator an element. Two words are one
//! element exactly when their residuals are equal, so this is the reduction of the monoid of
//! all words, at a cost of elements × generators steps on the diagram. The proof then accepts
//! the candidate, or names a position it fails on ([`super::build`] repairs the candidate from
//! there).

use super::diagram::{Diagram, cut};
use super::heaps::HeapRules;
use super::monoid::{ElementSet, Monoid};
use super::presentation::{Word, least_words};
use std::collections::{HashMap, HashSet};

/// Why no candidate was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The candidate has more elements than allowed (its closure stops there).
    Size,
    /// The diagram of its P-positions passed [`super::diagram::MAX_NODES`] nodes.
    Diagram,
}

/// The candidate from the heaps' `words` (heap 0 to N − 1, in the generator heaps `free`) with
/// the exponent of generator i cut at `indices[i]`: the reduced monoid and each heap's image,
/// each heap written with generator heaps no larger than itself (as [`least_words`] writes a
/// heap of a proven quotient, whose element is a product of the generators up to it), so that
/// the heaps a generator's options leave are words in smaller generators;
/// its elements numbered in the order of their least words (the exponent of the largest
/// generator most significant). The closure stops as soon as it finds more than `max_size`
/// elements.
pub fn rebuild(
    words: &[Word],
    free: &[u64],
    rules: &HeapRules,
    indices: &[u32],
    max_size: usize,
) -> Result<(Monoid, Vec<u32>), Refusal> {
    let r = free.len();
    // The distinct words each generator heap's options leave.
    let options: Vec<Vec<Word>> = free
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            let mut seen = HashSet::new();
            rules.for_each_option(g, |parts| {
                let mut sum = vec![0u32; r];
                for &h in parts {
                    (0..r).for_each(|i| sum[i] = cut(indices[i], sum[i] + words[h as usize][i]));
                }
                seen.insert(sum);
            });
            debug_assert!(
                seen.iter().all(|w| w[i..].iter().all(|&e| e == 0)),
                "generator heap {g} has an option written with a generator heap not below {g}"
            );
            seen.into_iter().collect()
        })
        .collect();
    let mut diagram = Diagram::new(indices, options).map_err(|_| Refusal::Diagram)?;
    let p = diagram.p_positions().map_err(|_| Refusal::Diagram)?;
    // The residuals, breadth first from the empty word's, with each one times each generator.
    let mut residuals = vec![p];
    let mut found: HashMap<u32, u32> = HashMap::from([(p, 0)]);
    let mut times: Vec<u32> = Vec::new();
    let mut parent: Vec<(u32, usize)> = vec![(0, 0)];
    let mut at = 0;
    while at < residuals.len() {
        for j in 0..r {
            let next = diagram
                .shift(residuals[at], j)
                .map_err(|_| Refusal::Diagram)?;
            let element = *found.entry(next).or_insert_with(|| {
                residuals.push(next);
                parent.push((at as u32, j));
                residuals.len() as u32 - 1
            });
            if residuals.len() > max_size {
                return Err(Refusal::Size);
            }
            times.push(element);
        }
        at += 1;
    }
    let size = residuals.len();
    // Renumber by least words, then the products column by column along the closure's tree.
    let (order, _) = least_words(size, r, &times);
    let mut number = vec![0u32; size];
    order
        .iter()
        .enumerate()
        .for_each(|(k, &x)| number[x as usize] = k as u32);
    let mut step = vec![0u32; size * r];
    for x in 0..size {
        for j in 0..r {
            step[number[x] as usize * r + j] = number[times[x * r + j] as usize];
        }
    }
    let mut table = vec![0u32; size * size];
    (0..size).for_each(|a| table[a * size] = a as u32);
    for (b, &(from, j)) in parent.iter().enumerate().skip(1) {
        let (b, from) = (number[b] as usize, number[from as usize] as usize);
        for a in 0..size {
            table[a * size + b] = step[table[a * size + from] as usize * r + j];
        }
    }
    let mut p = ElementSet::empty(size);
    (0..size)
        .filter(|&x| diagram.holds_one(residuals[x]))
        .for_each(|x| p.insert(number[x]));
    let images = words
        .iter()
        .map(|word| {
            word.iter().enumerate().fold(0, |x, (j, &e)| {
                (0..e).fold(x, |x, _| step[x as usize * r + j])
            })
        })
        .collect();
    Ok((Monoid::from_table(size, table, p), images))
}
