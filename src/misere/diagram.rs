//! Sets of words in the generators as decision diagrams: one level a generator, the largest
//! generator on top, equal sets one node, so that a set is compared in one step however many
//! words it holds.
//!
//! A node of level i is a set of words in the generators 0 to i − 1 (an exponent of generator j
//! from 0 to its index + 1, cut by x^(A+2) = x^A): its children, one an exponent of generator
//! i − 1, are sets of level i − 1; level 0 holds the empty set and the set of the empty word.
//! Nodes are never skipped, so each set of a level has exactly one node.
//!
//! [`Diagram::solve`] settles the misère outcomes of the words (each generator's options are
//! words in smaller generators) a column of one generator's exponent at a time, and
//! [`Diagram::shift`] gives the set {w : wx ∈ S}: the residual of S by x, which is how
//! [`super::rebuild`] tells the candidate's elements apart without listing words.

use super::presentation::Word;
use std::collections::HashMap;

/// The empty set of level 0.
const EMPTY: u32 = 0;
/// The set of the empty word (level 0).
const ALL: u32 = 1;

/// The most nodes a diagram holds (about 80 bytes each).
pub const MAX_NODES: usize = 1 << 23;

/// The diagram passed [`MAX_NODES`] nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

/// The exponent `e` of a generator of index `a`, cut to below a + 2 by x^(a+2) = x^a.
pub fn cut(a: u32, e: u32) -> u32 {
    match e < a + 2 {
        true => e,
        false => a + (e - a) % 2,
    }
}

/// A node, or [`Full`].
type Grown = Result<u32, Full>;

/// The nodes of sets of words in generators with given exponent cuts, with the options of each
/// generator (words in the smaller ones).
#[derive(Debug)]
pub struct Diagram {
    /// Each generator's exponent index A (x^(A+2) = x^A).
    indices: Vec<u32>,
    /// The distinct words each generator's options leave.
    options: Vec<Vec<Word>>,
    level: Vec<u32>,
    first: Vec<usize>,
    kids: Vec<u32>,
    unique: HashMap<Vec<u32>, u32>,
    /// The empty set and the set of every word, by level.
    constants: Vec<[u32; 2]>,
    /// Results of `and_not` (tag 0) and `or` (tag 1).
    combined: HashMap<(u8, u32, u32), u32>,
    shifted: HashMap<(u32, u32), u32>,
    solved: HashMap<u32, u32>,
}

impl Diagram {
    /// The diagram of words in generators with exponent indices `indices`, whose options leave
    /// the words `options` (those of generator i in generators below i).
    pub fn new(indices: &[u32], options: Vec<Vec<Word>>) -> Result<Diagram, Full> {
        let mut d = Diagram {
            indices: indices.to_vec(),
            options,
            level: vec![0, 0],
            first: vec![0, 0],
            kids: Vec::new(),
            unique: HashMap::new(),
            constants: vec![[EMPTY, ALL]],
            combined: HashMap::new(),
            shifted: HashMap::new(),
            solved: HashMap::new(),
        };
        for i in 0..indices.len() {
            let [empty, all] = d.constants[i];
            let radix = d.radix(i);
            let constants = [d.node(&vec![empty; radix])?, d.node(&vec![all; radix])?];
            d.constants.push(constants);
        }
        Ok(d)
    }

    /// The exponents of generator `i` a word holds: 0 to its index + 1.
    fn radix(&self, i: usize) -> usize {
        self.indices[i] as usize + 2
    }

    /// The children of node `a`.
    fn children(&self, a: u32) -> &[u32] {
        let level = self.level[a as usize] as usize;
        match level {
            0 => &[],
            _ => &self.kids[self.first[a as usize]..][..self.radix(level - 1)],
        }
    }

    /// The node of level i + 1 with the children `kids` (of level i).
    fn node(&mut self, kids: &[u32]) -> Grown {
        if let Some(&id) = self.unique.get(kids) {
            return Ok(id);
        }
        if self.level.len() >= MAX_NODES {
            return Err(Full);
        }
        let id = self.level.len() as u32;
        self.level.push(self.level[kids[0] as usize] + 1);
        self.first.push(self.kids.len());
        self.kids.extend_from_slice(kids);
        self.unique.insert(kids.to_vec(), id);
        Ok(id)
    }

    /// A new node from `a`'s children each mapped by `f`.
    fn map(&mut self, a: u32, mut f: impl FnMut(&mut Self, u32) -> Grown) -> Grown {
        let kids = self.children(a).to_vec();
        let mut out = Vec::with_capacity(kids.len());
        for k in kids {
            out.push(f(self, k)?);
        }
        self.node(&out)
    }

    /// True when `a` is the empty set of its level (`value` false) or the set of all words.
    fn is(&self, a: u32, value: bool) -> bool {
        self.constants[self.level[a as usize] as usize][usize::from(value)] == a
    }

    /// The words in `a` and not in `b` (of one level).
    fn and_not(&mut self, a: u32, b: u32) -> Grown {
        if a == b || self.is(b, true) {
            return Ok(self.constants[self.level[a as usize] as usize][0]);
        }
        if self.is(a, false) || self.is(b, false) {
            return Ok(a);
        }
        if let Some(&c) = self.combined.get(&(0, a, b)) {
            return Ok(c);
        }
        let bs = self.children(b).to_vec();
        let mut at = 0;
        let c = self.map(a, |d, k| {
            at += 1;
            d.and_not(k, bs[at - 1])
        })?;
        self.combined.insert((0, a, b), c);
        Ok(c)
    }

    /// The words in `a` or in `b` (of one level).
    fn or(&mut self, a: u32, b: u32) -> Grown {
        if a == b || self.is(b, false) || self.is(a, true) {
            return Ok(a);
        }
        if self.is(a, false) || self.is(b, true) {
            return Ok(b);
        }
        let key = (1, a.min(b), a.max(b));
        if let Some(&c) = self.combined.get(&key) {
            return Ok(c);
        }
        let bs = self.children(b).to_vec();
        let mut at = 0;
        let c = self.map(a, |d, k| {
            at += 1;
            d.or(k, bs[at - 1])
        })?;
        self.combined.insert(key, c);
        Ok(c)
    }

    /// {w : w·g_j ∈ a}, for a generator `j` below `a`'s level.
    pub fn shift(&mut self, a: u32, j: usize) -> Grown {
        let level = self.level[a as usize] as usize;
        if self.is(a, false) || self.is(a, true) {
            return Ok(a);
        }
        if let Some(&c) = self.shifted.get(&(a, j as u32)) {
            return Ok(c);
        }
        let c = match level == j + 1 {
            true => {
                let kids = self.children(a);
                let out: Vec<u32> = (0..kids.len())
                    .map(|e| kids[cut(self.indices[j], e as u32 + 1) as usize])
                    .collect();
                self.node(&out)?
            }
            false => self.map(a, |d, k| d.shift(k, j))?,
        };
        self.shifted.insert((a, j as u32), c);
        Ok(c)
    }

    /// {w : wx ∈ a} for the word x (in generators below `a`'s level).
    fn shift_by(&mut self, mut a: u32, x: &[u32]) -> Grown {
        for (j, &e) in x.iter().enumerate() {
            for _ in 0..e {
                a = self.shift(a, j)?;
            }
        }
        Ok(a)
    }

    /// True when the empty word is in `a`.
    pub fn holds_one(&self, mut a: u32) -> bool {
        while self.level[a as usize] > 0 {
            a = self.children(a)[0];
        }
        a == ALL
    }

    /// The misère P-positions among all words in the generators: the top node of the words
    /// that have an option and no option in the set.
    pub fn p_positions(&mut self) -> Grown {
        let mut moving = EMPTY;
        for i in 0..self.indices.len() {
            let stuck = moving;
            let has = match self.options[i].is_empty() {
                true => stuck,
                false => self.constants[i][1],
            };
            let mut kids = vec![has; self.radix(i)];
            kids[0] = stuck;
            moving = self.node(&kids)?;
        }
        self.solve(moving)
    }

    /// The words w of `allowed` (a node of level i) with no option in the result, an option
    /// replacing one generator by one of its options' words: the P-positions of the game on
    /// words in generators below i, when `allowed` is the words with an option.
    fn solve(&mut self, allowed: u32) -> Grown {
        let level = self.level[allowed as usize] as usize;
        if level == 0 || self.is(allowed, false) {
            return Ok(allowed);
        }
        if let Some(&c) = self.solved.get(&allowed) {
            return Ok(c);
        }
        // Column e (exponent e of the top generator) is the words below it whose options with
        // one top generator fewer (column e − 1) are all N, solved among themselves.
        let kids = self.children(allowed).to_vec();
        let options = std::mem::take(&mut self.options[level - 1]);
        let mut columns: Vec<u32> = Vec::with_capacity(kids.len());
        let mut result = Ok(());
        for (e, &kid) in kids.iter().enumerate() {
            let column = match e {
                0 => self.solve(kid),
                _ => self.column(kid, columns[e - 1], &options),
            };
            match column {
                Ok(c) => columns.push(c),
                Err(full) => {
                    result = Err(full);
                    break;
                }
            }
        }
        self.options[level - 1] = options;
        result?;
        let c = self.node(&columns)?;
        self.solved.insert(allowed, c);
        Ok(c)
    }

    /// The column of the words of `allowed` none of whose options `options` (each taking one
    /// top generator away) lands in the column `before`, solved among themselves.
    fn column(&mut self, allowed: u32, before: u32, options: &[Word]) -> Grown {
        let mut blocked = self.constants[self.level[before as usize] as usize][0];
        for o in options {
            let b = self.shift_by(before, o)?;
            blocked = self.or(blocked, b)?;
        }
        let left = self.and_not(allowed, blocked)?;
        self.solve(left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::xorshift;

    /// Every word of the exponent ranges, numbered in mixed radix (generator 0 least
    /// significant, so that an option, which takes away one generator and adds smaller ones, has
    /// a smaller number).
    fn all_words(indices: &[u32]) -> Vec<Word> {
        let mut words = vec![vec![]];
        for &a in indices {
            words = (0..a + 2)
                .flat_map(|e| words.iter().map(move |w: &Word| [&w[..], &[e]].concat()))
                .collect();
        }
        words
    }

    fn product(indices: &[u32], x: &[u32], y: &[u32]) -> Word {
        (0..indices.len())
            .map(|i| cut(indices[i], x[i] + y[i]))
            .collect()
    }

    fn member(d: &Diagram, mut a: u32, word: &[u32]) -> bool {
        for &e in word.iter().rev() {
            a = d.children(a)[e as usize];
        }
        a == ALL
    }

    /// The P-positions and the residuals of random word games against the listing of every word:
    /// each word's outcome from its options', and two words one element exactly when no third
    /// word tells them apart.
    #[test]
    fn outcomes_and_residuals_agree_with_the_listing() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..40 {
            let r = 1 + (next() % 4) as usize;
            let indices: Vec<u32> = (0..r).map(|_| (next() % 3) as u32).collect();
            let words = all_words(&indices);
            let below = |i: usize| words.iter().filter(move |w| w[i..].iter().all(|&e| e == 0));
            let options: Vec<Vec<Word>> = (0..r)
                .map(|i| {
                    let o: Vec<Word> = below(i)
                        .filter(|_| next().is_multiple_of(3))
                        .cloned()
                        .collect();
                    o
                })
                .collect();
            let mut d = Diagram::new(&indices, options.clone()).unwrap();
            let p = d.p_positions().unwrap();
            let number = |w: &Word| {
                (w.iter().zip(&indices).rev())
                    .fold(0, |n, (&e, &a)| n * (a as usize + 2) + e as usize)
            };
            let mut is_p = vec![false; words.len()];
            for (x, w) in words.iter().enumerate() {
                let mut moving = false;
                let mut all_n = true;
                for i in (0..r).filter(|&i| w[i] > 0) {
                    for o in &options[i] {
                        moving = true;
                        let mut after = w.clone();
                        after[i] -= 1;
                        let after = number(&product(&indices, &after, o));
                        assert!(after < x);
                        all_n &= !is_p[after];
                    }
                }
                is_p[x] = moving && all_n;
                assert_eq!(
                    member(&d, p, w),
                    is_p[x],
                    "{indices:?} {options:?} at {w:?}"
                );
            }
            let residuals: Vec<u32> = words.iter().map(|w| d.shift_by(p, w).unwrap()).collect();
            for (x, rx) in words.iter().zip(&residuals) {
                for (y, ry) in words.iter().zip(&residuals) {
                    let apart = (words.iter()).any(|z| {
                        is_p[number(&product(&indices, x, z))]
                            != is_p[number(&product(&indices, y, z))]
                    });
                    assert_eq!(rx == ry, !apart, "{indices:?} {options:?}: {x:?} and {y:?}");
                }
            }
        }
    }
}
