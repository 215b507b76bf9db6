//! The candidate computed afresh from words in the generators, when an identification among
//! smaller heaps did not survive a larger heap.
//!
//! An identification made among smaller heaps need not survive a larger one: in Kayles, two
//! heaps of 5 are indistinguishable from nothing among the heaps below 9, not once heap 9 is
//! there. Then every position is written as a word in the generator heaps g_1 < … < g_r (each
//! other heap by the word it was found equal to), exponents cut to below A + 2 by
//! x^(A+2) = x^A. The outcome of each such word follows from its options' outcomes: an option
//! replaces one g_i by the words of the heaps a move leaves, all of generators below g_i, so it
//! is a smaller number in the mixed radix whose most significant digit is g_r's exponent, and
//! the words are settled in increasing order. Reduced, this is the candidate; the proof then
//! accepts it, or names a position it fails on ([`super::build`] repairs the candidate from
//! there). Each generator has its own A, so that a generator of order two (x² = 1) costs two
//! exponents, not four.

use super::heaps::HeapRules;
use super::monoid::{ElementSet, Monoid, first_members, minimize};
use super::presentation::Word;
use std::collections::HashSet;

/// The most words a candidate is computed from.
pub const MAX_WORDS: usize = 1 << 24;

/// The words whose exponent of generator i is below `indices[i] + 2`, with
/// x^(A+2) = x^A for A = `indices[i]`, numbered in mixed radix.
struct Words {
    indices: Vec<u32>,
    strides: Vec<usize>,
    count: usize,
}

impl Words {
    /// The exponent `e` of generator `i`, cut to below its index + 2.
    fn cut(&self, i: usize, e: u32) -> u32 {
        let a = self.indices[i];
        match e < a + 2 {
            true => e,
            false => a + (e - a) % 2,
        }
    }

    /// The number of a word (cut first).
    fn encode(&self, word: &[u32]) -> usize {
        word.iter()
            .zip(&self.strides)
            .enumerate()
            .map(|(i, (&e, &s))| self.cut(i, e) as usize * s)
            .sum()
    }

    /// The exponent of generator `i` in word number `x`.
    fn digit(&self, x: usize, i: usize) -> u32 {
        ((x / self.strides[i]) % (self.indices[i] as usize + 2)) as u32
    }

    /// The word of a number, into `word`.
    fn decode_into(&self, x: usize, word: &mut [u32]) {
        (0..word.len()).for_each(|i| word[i] = self.digit(x, i));
    }

    /// The word of a number.
    fn decode(&self, x: usize) -> Word {
        let mut word = vec![0; self.strides.len()];
        self.decode_into(x, &mut word);
        word
    }
}

/// The candidate from the heaps' `words` (heap 0 to N − 1, in the generator heaps `free`) with
/// the exponent of generator i cut at `indices[i]`: the reduced monoid and each heap's image.
/// `Err(None)` when it takes more than [`MAX_WORDS`] words, `Err(Some(size))` when it passes
/// `max_size` elements.
pub fn rebuild(
    words: &[Word],
    free: &[u64],
    rules: &HeapRules,
    indices: &[u32],
    max_size: usize,
) -> Result<(Monoid, Vec<u32>), Option<usize>> {
    let mut strides = Vec::with_capacity(free.len());
    let mut count = 1usize;
    for &index in indices {
        strides.push(count);
        count = count
            .checked_mul(index as usize + 2)
            .filter(|&c| c <= MAX_WORDS)
            .ok_or(None)?;
    }
    let w = Words {
        indices: indices.to_vec(),
        strides,
        count,
    };
    let r = free.len();
    // The distinct words each generator heap's options leave.
    let options: Vec<Vec<Word>> = free
        .iter()
        .map(|&g| {
            let mut seen = HashSet::new();
            rules.for_each_option(g, |parts| {
                let mut sum = vec![0u32; r];
                for &h in parts {
                    (0..r).for_each(|i| sum[i] = w.cut(i, sum[i] + words[h as usize][i]));
                }
                seen.insert(sum);
            });
            seen.into_iter().collect()
        })
        .collect();
    let mut is_p = vec![false; w.count];
    let mut word = vec![0u32; r];
    for x in 1..w.count {
        w.decode_into(x, &mut word);
        let mut moving = false;
        let mut p = true;
        'generators: for i in (0..r).filter(|&i| word[i] > 0 && !options[i].is_empty()) {
            moving = true;
            // x with one g_i fewer and each option's word added.
            for o in &options[i] {
                let after: usize = (0..r)
                    .map(|j| {
                        let e = word[j] - u32::from(j == i) + o[j];
                        w.cut(j, e) as usize * w.strides[j]
                    })
                    .sum();
                if is_p[after] {
                    p = false;
                    break 'generators;
                }
            }
        }
        is_p[x] = moving && p;
    }
    let times = |x: usize, g: usize| {
        let e = w.digit(x, g);
        x - e as usize * w.strides[g] + w.cut(g, e + 1) as usize * w.strides[g]
    };
    let (class, size) = minimize(w.count, |x| is_p[x], r, times);
    if size > max_size {
        return Err(Some(size));
    }
    let member = first_members(&class, size);
    let mut p = ElementSet::empty(size);
    (0..size)
        .filter(|&c| is_p[member[c] as usize])
        .for_each(|c| p.insert(c as u32));
    let member_words: Vec<Word> = member.iter().map(|&x| w.decode(x as usize)).collect();
    let monoid = Monoid::from_fn(size, p, |a, b| {
        let sum: Word = member_words[a as usize]
            .iter()
            .zip(&member_words[b as usize])
            .map(|(&x, &y)| x + y)
            .collect();
        class[w.encode(&sum)]
    });
    let images = words.iter().map(|word| class[w.encode(word)]).collect();
    Ok((monoid, images))
}
