//! Subtract-a-prime and Pim: sets whose elements are all odd but one (2). A move between
//! positions of the same parity is then the even step, and between opposite parities an odd
//! one, so each value class is split by parity (far out, every class is almost entirely one
//! parity: its majority; the few members of the other parity are its minority).
//!
//! (a): same-parity conflicts are g(x) = g(x − 2), compared along the table; opposite-parity
//! conflicts are found by testing every pair (minority member, majority member) of a class for
//! a step distance in a bitmap of the odd steps.
//! (b): for n and each value w below g(n), the first few steps are tried; a value not found
//! there is searched exactly among the even step and the members of class w of the other
//! parity below n, nearest first, each tested for a step distance: from the class's minority
//! list, or, for its majority, by reading the table backwards.
//!
//! Memory: the bitmap (n/16 bytes), the minority lists (8 bytes a member, at most
//! [`MINORITY_BUDGET`] members at a time: more are taken in parts, each part a pass of pair
//! tests, and (b) then reads the table for minorities too) and per-block buffers; the table is
//! read in place. The pair tests and class-member tests are counted and reported.

use super::{Fault, FirstFault, Rules};
use crate::error::Result;
use crate::game::{SubtractionSet, sieve_odd_primes};
use crate::progress::Progress;
use crate::table::allocate;
use crate::table::packed::PackedValues;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions a worker takes at a time in the (b) pass.
const BLOCK: u64 = 1 << 14;
/// Positions a worker takes at a time when counting classes and collecting minorities.
const COUNT_BLOCK: u64 = 1 << 20;
/// Positions whose majority members a worker tests against the minority lists at a time (their
/// step distances then fall in a few KiB of the bitmap).
const SEGMENT: u64 = 1 << 16;
/// Steps tried per position before the exact search.
const QUICK_STEPS: usize = 24;
/// Minority members held in memory at a time.
const MINORITY_BUDGET: u64 = 1 << 24;

/// The steps of subtract-a-prime or Pim below n.
pub(super) struct OddSteps {
    /// Bit d / 2 is set when the odd number d is a step.
    odd: Vec<u64>,
    /// The even steps: 2, when n > 2.
    even: Vec<u64>,
    /// The smallest steps, ascending, tried before the exact search.
    quick: Vec<u64>,
}

impl OddSteps {
    /// The steps of `set` (primes or Pim) below `n`; an input error when the bitmap cannot be
    /// allocated.
    pub(super) fn new(set: &SubtractionSet, n: u64) -> Result<OddSteps> {
        let mut odd = allocate(n.div_ceil(128), 0u64, "the bitmap of odd steps")?;
        sieve_odd_primes(n, &mut odd);
        if *set == SubtractionSet::Pim && n > 1 {
            odd[0] |= 1;
        }
        let even = if n > 2 { vec![2] } else { Vec::new() };
        let mut steps = OddSteps {
            odd,
            even,
            quick: Vec::new(),
        };
        steps.quick = (1..n)
            .filter(|&d| steps.is_step(d))
            .take(QUICK_STEPS)
            .collect();
        Ok(steps)
    }

    /// Whether the odd distance `d` (below n) is a step.
    #[inline]
    fn odd_step(&self, d: u64) -> bool {
        let i = d / 2;
        self.odd[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// Whether `d` (below n) is a step.
    fn is_step(&self, d: u64) -> bool {
        if d % 2 == 1 {
            self.odd_step(d)
        } else {
            self.even.contains(&d)
        }
    }
}

/// One check's inputs and what it knows about the classes.
struct Check<'a> {
    g: &'a PackedValues,
    steps: &'a OddSteps,
    min_target: u64,
    rules: Rules,
    first: &'a FirstFault,
    /// Members of each class by parity, over positions from `min_target`.
    counts: Vec<[u64; 2]>,
    /// The parity of each class's minority.
    minority: Vec<u64>,
    /// Masks of the table's fields, for comparing a word of values at a time.
    fields: Fields,
}

/// Masks of the fields of a word of values `bits` wide.
#[derive(Clone, Copy)]
struct Fields {
    /// The lowest bit of each field.
    ones: u64,
    /// Every bit of each field but its highest.
    low: u64,
    /// The highest bit of each field.
    high: u64,
    /// Every bit of the even-numbered fields (positions of even parity).
    even: u64,
}

impl Fields {
    fn of(bits: u32) -> Fields {
        let field = u64::MAX >> (64 - bits);
        let (mut ones, mut even) = (0u64, 0u64);
        for f in 0..64 / bits {
            ones |= 1 << (f * bits);
            if f % 2 == 0 {
                even |= field << (f * bits);
            }
        }
        let high = ones << (bits - 1);
        Fields {
            ones,
            low: (ones * field) & !high,
            high,
            even,
        }
    }
}

/// Checks every position of `g` (values at most `max`, below 64) for `steps`, moves reaching at
/// least `min_target`; returns what the pair tests and class-member tests cost.
pub(super) fn check(
    g: &PackedValues,
    max: u32,
    steps: &OddSteps,
    min_target: u64,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) -> Result<String> {
    let n = g.len();
    let classes = max as usize + 1;
    // Members of each class by parity, per block of COUNT_BLOCK positions.
    let block_counts: Vec<Vec<[u64; 2]>> = (0..n.div_ceil(COUNT_BLOCK))
        .into_par_iter()
        .map(|c| {
            let mut counts = vec![[0u64; 2]; classes];
            let start = (c * COUNT_BLOCK).max(min_target);
            let mut x = start;
            g.each(start, ((c + 1) * COUNT_BLOCK).min(n), |v| {
                counts[v as usize][(x % 2) as usize] += 1;
                x += 1;
            });
            counts
        })
        .collect();
    let mut counts = vec![[0u64; 2]; classes];
    for block in &block_counts {
        for (total, part) in counts.iter_mut().zip(block) {
            total[0] += part[0];
            total[1] += part[1];
        }
    }
    let minority: Vec<u64> = counts.iter().map(|c| u64::from(c[0] > c[1])).collect();
    // Parts of the table whose minority members fit the budget together.
    let mut parts: Vec<Range<u64>> = Vec::new();
    let mut held = 0;
    for (c, block) in block_counts.iter().enumerate() {
        let members: u64 = block
            .iter()
            .zip(&minority)
            .map(|(part, &p)| part[p as usize])
            .sum();
        let end = ((c as u64 + 1) * COUNT_BLOCK).min(n);
        match parts.last_mut() {
            Some(part) if held + members <= MINORITY_BUDGET => part.end = end,
            _ => {
                parts.push(c as u64 * COUNT_BLOCK..end);
                held = 0;
            }
        }
        held += members;
    }
    let check = Check {
        g,
        steps,
        min_target,
        rules,
        first,
        counts,
        minority,
        fields: Fields::of(g.bits()),
    };
    // All minority lists at once when they fit; (b) reads the table for them otherwise.
    let whole = match parts.as_slice() {
        [part] => Some(check.minority_lists(part.clone())),
        _ => None,
    };
    let tried = check.exact_pass(whole.as_ref(), progress);
    let mut pairs = 0;
    match whole {
        Some(lists) => pairs += check.pair_pass(&lists),
        None => {
            for part in parts {
                pairs += check.pair_pass(&check.minority_lists(part));
            }
        }
    }
    Ok(format!(
        "{pairs} opposite-parity pair tests, {tried} class-member tests"
    ))
}

impl Check<'_> {
    /// Whether a conflict between two positions of value v counts: every value in a Grundy
    /// table, P (0) in a 0/1 table.
    fn checked(&self, v: u32) -> bool {
        self.rules.every_value || v == 0
    }

    /// The minority members of every class among positions `range` (from `min_target`),
    /// ascending.
    fn minority_lists(&self, range: Range<u64>) -> Vec<Vec<u64>> {
        let classes = self.counts.len();
        let start = range.start.max(self.min_target);
        let blocks: Vec<Vec<Vec<u64>>> = (start / COUNT_BLOCK..range.end.div_ceil(COUNT_BLOCK))
            .into_par_iter()
            .map(|c| {
                let mut lists = vec![Vec::new(); classes];
                let lo = (c * COUNT_BLOCK).max(start);
                let mut x = lo;
                self.g
                    .each(lo, ((c + 1) * COUNT_BLOCK).min(range.end), |v| {
                        if x % 2 == self.minority[v as usize] {
                            lists[v as usize].push(x);
                        }
                        x += 1;
                    });
                lists
            })
            .collect();
        (0..classes)
            .map(|v| blocks.iter().flat_map(|b| b[v].iter().copied()).collect())
            .collect()
    }

    /// (a) for the even step and (b) for every position, in parallel blocks; returns the
    /// number of class members tested in exact searches.
    fn exact_pass(&self, lists: Option<&Vec<Vec<u64>>>, progress: &Progress) -> u64 {
        let (g, steps, min_target, rules, first) =
            (self.g, self.steps, self.min_target, self.rules, self.first);
        let n = g.len();
        let smallest = steps.quick.first().map_or(u64::MAX, |&s| s + min_target);
        let tried = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        (0..n.div_ceil(BLOCK)).into_par_iter().for_each(|b| {
            let start = b * BLOCK;
            let end = (start + BLOCK).min(n);
            if first.beyond(start) {
                return;
            }
            let mut counted = 0u64;
            for x in start..end {
                let gx = g.get(x);
                if rules.misere && x < smallest {
                    if gx == 0 {
                        first.record(Fault::Terminal { n: x });
                        break;
                    }
                    continue;
                }
                let mut wrong = false;
                for &e in steps.even.iter().filter(|&&e| e + min_target <= x) {
                    if self.checked(gx) && g.get(x - e) == gx {
                        first.record(Fault::Conflict {
                            n: x,
                            option: x - e,
                        });
                        wrong = true;
                    }
                }
                let want = (1u64 << gx) - 1;
                let mut found = 0u64;
                for &s in &steps.quick {
                    if s + min_target > x || found == want {
                        break;
                    }
                    found |= (1u64 << g.get(x - s)) & want;
                }
                let missing = (0..gx)
                    .filter(|&w| found >> w & 1 == 0)
                    .find(|&w| !self.search(x, w, lists, &mut counted));
                if let Some(value) = missing.filter(|_| !first.beyond(x)) {
                    first.record(Fault::Missing { n: x, value });
                    wrong = true;
                }
                if wrong {
                    break;
                }
            }
            tried.fetch_add(counted, Ordering::Relaxed);
            let total = done.fetch_add(end - start, Ordering::Relaxed);
            progress.set(total + (end - start));
        });
        tried.into_inner()
    }

    /// Whether some option of x has value w: x − 2, or a member of class w of the other parity
    /// at a step distance (nearest first), counting the members tested.
    fn search(&self, x: u64, w: u32, lists: Option<&Vec<Vec<u64>>>, counted: &mut u64) -> bool {
        let (g, steps, min_target) = (self.g, self.steps, self.min_target);
        if steps
            .even
            .iter()
            .any(|&e| e + min_target <= x && g.get(x - e) == w)
        {
            return true;
        }
        let parity = 1 - x % 2;
        if self.counts[w as usize][parity as usize] == 0 || x < min_target + 1 {
            return false;
        }
        if let Some(lists) = lists.filter(|_| self.minority[w as usize] == parity) {
            let list = &lists[w as usize];
            let below = list.partition_point(|&m| m < x);
            return list[..below].iter().rev().any(|&m| {
                *counted += 1;
                steps.odd_step(x - m)
            });
        }
        self.scan(x, w, parity, |m| {
            *counted += 1;
            steps.odd_step(x - m)
        })
    }

    /// Whether `hit` holds for some position m of the given parity with g(m) = `w`,
    /// `min_target` ≤ m < x, trying them nearest first: a word of the table at a time, its
    /// fields equal to w found all at once.
    fn scan(&self, x: u64, w: u32, parity: u64, mut hit: impl FnMut(u64) -> bool) -> bool {
        let Fields {
            ones,
            low,
            high,
            even,
        } = self.fields;
        let bits = u64::from(self.g.bits());
        let per = 64 / bits;
        let wanted = high & if parity == 0 { even } else { even << bits };
        let pattern = ones * u64::from(w);
        let words = self.g.words();
        let (top, bottom) = ((x - 1) / per, self.min_target / per);
        for i in (bottom..=top).rev() {
            let diff = words[i as usize] ^ pattern;
            // The high bit of each field that is zero, i.e. equal to w.
            let mut equal = !(((diff & low) + low) | diff) & wanted;
            if i == top {
                let end = ((x - 1) % per + 1) * bits;
                if end < 64 {
                    equal &= (1 << end) - 1;
                }
            }
            if i == bottom {
                equal &= u64::MAX << (self.min_target % per * bits);
            }
            while equal != 0 {
                let bit = 63 - u64::from(equal.leading_zeros());
                if hit(i * per + bit / bits) {
                    return true;
                }
                equal &= !(1 << bit);
            }
        }
        false
    }

    /// (a) for odd steps: every minority member of a checked class in `lists` against every
    /// majority member of its class, segment by segment of the table in parallel; returns the
    /// number of pairs tested.
    fn pair_pass(&self, lists: &[Vec<u64>]) -> u64 {
        let (g, steps, first) = (self.g, self.steps, self.first);
        let n = g.len();
        let tested: Vec<u32> = (0..lists.len() as u32)
            .filter(|&v| self.checked(v) && !lists[v as usize].is_empty())
            .collect();
        if tested.is_empty() {
            return 0;
        }
        let classes = lists.len();
        (0..n.div_ceil(SEGMENT)).into_par_iter().for_each_init(
            || vec![Vec::new(); classes],
            |majority: &mut Vec<Vec<u64>>, s| {
                let start = (s * SEGMENT).max(self.min_target);
                let end = ((s + 1) * SEGMENT).min(n);
                if first.beyond(start) || start >= end {
                    return;
                }
                majority.iter_mut().for_each(Vec::clear);
                let mut x = start;
                g.each(start, end, |v| {
                    if x % 2 != self.minority[v as usize] {
                        majority[v as usize].push(x);
                    }
                    x += 1;
                });
                for &v in &tested {
                    let zs = &majority[v as usize];
                    if zs.is_empty() {
                        continue;
                    }
                    for &y in &lists[v as usize] {
                        let split = zs.partition_point(|&z| z < y);
                        // Below y the conflict is at y, with the smallest option; above, at the
                        // smallest z.
                        if !first.beyond(y)
                            && let Some(&z) = zs[..split].iter().find(|&&z| steps.odd_step(y - z))
                        {
                            first.record(Fault::Conflict { n: y, option: z });
                        }
                        let above = zs[split..]
                            .iter()
                            .take_while(|&&z| !first.beyond(z))
                            .find(|&&z| steps.odd_step(z - y));
                        if let Some(&z) = above {
                            first.record(Fault::Conflict { n: z, option: y });
                        }
                    }
                }
            },
        );
        tested
            .iter()
            .map(|&v| {
                let majority = self.counts[v as usize][1 - self.minority[v as usize] as usize];
                lists[v as usize].len() as u64 * majority
            })
            .sum()
    }
}
