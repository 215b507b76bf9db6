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
//! accepts it, or a larger A is tried.

use super::heaps::HeapRules;
use super::monoid::{ElementSet, Monoid, first_members, minimize};
use super::presentation::Word;
use std::collections::HashSet;

/// The most words a candidate is computed from.
pub const MAX_WORDS: usize = 1 << 24;

/// The words of exponents below `index + 2`, with x^(index+2) = x^index.
struct Words {
    index: u32,
    strides: Vec<usize>,
    count: usize,
}

impl Words {
    /// The exponent e cut to below index + 2.
    fn cut(&self, e: u32) -> u32 {
        match e < self.index + 2 {
            true => e,
            false => self.index + (e - self.index) % 2,
        }
    }

    /// The number of a word (cut first).
    fn encode(&self, word: &[u32]) -> usize {
        word.iter()
            .zip(&self.strides)
            .map(|(&e, &s)| self.cut(e) as usize * s)
            .sum()
    }

    /// The word of a number.
    fn decode(&self, mut x: usize) -> Word {
        let radix = self.index as usize + 2;
        (0..self.strides.len())
            .map(|_| {
                let e = x % radix;
                x /= radix;
                e as u32
            })
            .collect()
    }
}

/// The candidate from the heaps' `words` (heap 0 to N − 1, in the generator heaps `free`) with
/// exponents cut at `index`: the reduced monoid and each heap's image. `Err(None)` when it takes
/// more than [`MAX_WORDS`] words, `Err(Some(size))` when it passes `max_size` elements.
pub fn rebuild(
    words: &[Word],
    free: &[u64],
    rules: &HeapRules,
    index: u32,
    max_size: usize,
) -> Result<(Monoid, Vec<u32>), Option<usize>> {
    let radix = index as usize + 2;
    let mut strides = Vec::with_capacity(free.len());
    let mut count = 1usize;
    for _ in free {
        strides.push(count);
        count = count
            .checked_mul(radix)
            .filter(|&c| c <= MAX_WORDS)
            .ok_or(None)?;
    }
    let w = Words {
        index,
        strides,
        count,
    };
    // The distinct words each generator heap's options leave.
    let options: Vec<Vec<Word>> = free
        .iter()
        .map(|&g| {
            let mut seen = HashSet::new();
            rules.for_each_option(g, |parts| {
                let mut sum = vec![0u32; free.len()];
                for &h in parts {
                    sum.iter_mut()
                        .zip(&words[h as usize])
                        .for_each(|(s, &e)| *s = w.cut(*s + e));
                }
                seen.insert(sum);
            });
            seen.into_iter().collect()
        })
        .collect();
    let mut is_p = vec![false; w.count];
    for x in 1..w.count {
        let word = w.decode(x);
        let moving = || (0..free.len()).filter(|&i| word[i] > 0 && !options[i].is_empty());
        is_p[x] = moving().next().is_some()
            && moving().all(|i| {
                let mut base = word.clone();
                base[i] -= 1;
                options[i].iter().all(|o| {
                    let after: Word = base.iter().zip(o).map(|(&a, &b)| a + b).collect();
                    !is_p[w.encode(&after)]
                })
            });
    }
    let times = |x: usize, g: usize| {
        let e = (x / w.strides[g]) % radix;
        x - e * w.strides[g] + w.cut(e as u32 + 1) as usize * w.strides[g]
    };
    let (class, size) = minimize(w.count, |x| is_p[x], free.len(), times);
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
