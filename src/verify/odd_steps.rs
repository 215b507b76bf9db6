//! Subtract-a-prime and Pim: sets whose elements are all odd but a few (2). A move between
//! positions of the same parity is then an even step, and between opposite parities an odd
//! one, so each value class is split by parity (far out, every class is almost entirely one
//! parity).
//!
//! (a): same-parity conflicts are g(x) = g(x − e) for the few even steps e, compared along the
//! table; opposite-parity conflicts are found by testing every pair (minority member,
//! majority member) of a class for a step distance in a bitmap of the set.
//! (b): for n and each value w below g(n), the first few steps are tried; a value not found
//! there is searched exactly among the even steps and the members of class w of the other
//! parity below n, nearest first, each tested for a step distance.
//! The pair tests and list lookups are counted and reported.

use super::{Fault, FirstFault, Rules};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions a worker takes at a time.
const BLOCK: usize = 1 << 14;
/// Steps tried per position before the exact search by class lists.
const QUICK_STEPS: usize = 24;

/// Checks every position of `g` (values below 64) for `steps`, moves reaching at least
/// `min_target`; returns what the pair tests and list lookups cost.
pub(super) fn check(
    g: &[u32],
    steps: &[u64],
    min_target: u64,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) -> String {
    let n = g.len();
    let mut is_step = vec![0u64; n.div_ceil(64) + 1];
    for &s in steps {
        is_step[s as usize / 64] |= 1 << (s % 64);
    }
    let step = |d: usize| is_step[d / 64] >> (d % 64) & 1 == 1;
    let even: Vec<usize> = steps
        .iter()
        .filter(|&&s| s % 2 == 0)
        .map(|&s| s as usize)
        .collect();
    let min_target = min_target as usize;
    let conflicting = |a: u32, b: u32| a == b && (rules.every_value || a == 0);
    let classes = g.iter().copied().max().map_or(0, |m| m as usize + 1);
    // lists[v][p]: positions >= min_target with value v and parity p, ascending.
    let mut lists: Vec<[Vec<u32>; 2]> = vec![[Vec::new(), Vec::new()]; classes];
    for (x, &v) in g.iter().enumerate().skip(min_target) {
        lists[v as usize][x % 2].push(x as u32);
    }

    // (a), same parity: the even steps.
    for &e in &even {
        let from = e + min_target;
        let hit = (from..n)
            .into_par_iter()
            .find_first(|&x| conflicting(g[x], g[x - e]));
        if let Some(x) = hit {
            first.record(Fault::Conflict {
                n: x as u64,
                option: (x - e) as u64,
            });
        }
    }
    // (b) before the pair tests: on a wrong table it finds a fault early, and the pairs
    // beyond it are skipped.
    let lookups = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let smallest = steps
        .first()
        .map_or(usize::MAX, |&s| s as usize + min_target);
    (0..n.div_ceil(BLOCK)).into_par_iter().for_each(|b| {
        let start = b * BLOCK;
        let end = (start + BLOCK).min(n);
        if first.beyond(start as u64) {
            return;
        }
        let mut counted = 0u64;
        for x in start..end {
            let gx = g[x];
            if rules.misere && x < smallest {
                if gx == 0 {
                    first.record(Fault::Terminal { n: x as u64 });
                    break;
                }
                continue;
            }
            let want = (1u64 << gx) - 1;
            let mut found = 0u64;
            for &s in steps.iter().take(QUICK_STEPS) {
                let s = s as usize;
                if s + min_target > x || found == want {
                    break;
                }
                found |= (1u64 << g[x - s]) & want;
            }
            let missing = (0..gx).filter(|&w| found >> w & 1 == 0).find(|&w| {
                let by_even = even.iter().any(|&e| e + min_target <= x && g[x - e] == w);
                let found = by_even || {
                    let other = &lists[w as usize][1 - x % 2];
                    let below = other.partition_point(|&m| (m as usize) < x);
                    let mut tried = 0u64;
                    let hit = other[..below].iter().rev().any(|&m| {
                        tried += 1;
                        step(x - m as usize)
                    });
                    counted += tried;
                    hit
                };
                !found
            });
            if let Some(value) = missing.filter(|_| !first.beyond(x as u64)) {
                first.record(Fault::Missing { n: x as u64, value });
                break;
            }
        }
        lookups.fetch_add(counted, Ordering::Relaxed);
        let total = done.fetch_add((end - start) as u64, Ordering::Relaxed);
        progress.set(total + (end - start) as u64);
    });
    // (a), opposite parity: minority × majority pairs of each class.
    let mut pairs = 0u64;
    for (v, [evens, odds]) in lists.iter().enumerate() {
        if !(rules.every_value || v == 0) {
            continue;
        }
        let (minority, majority) = if evens.len() <= odds.len() {
            (evens, odds)
        } else {
            (odds, evens)
        };
        pairs += minority.len() as u64 * majority.len() as u64;
        minority.par_iter().for_each(|&y| {
            if first.beyond(u64::from(y)) {
                return;
            }
            let y = y as usize;
            let split = majority.partition_point(|&z| (z as usize) < y);
            // Options of y: the nearest member below at a step distance.
            if let Some(&z) = majority[..split]
                .iter()
                .rev()
                .find(|&&z| step(y - z as usize))
            {
                first.record(Fault::Conflict {
                    n: y as u64,
                    option: u64::from(z),
                });
            }
            // Positions above y that have y as an option: the nearest one.
            let above = majority[split..]
                .iter()
                .take_while(|&&z| !first.beyond(u64::from(z)))
                .find(|&&z| step(z as usize - y));
            if let Some(&z) = above {
                first.record(Fault::Conflict {
                    n: u64::from(z),
                    option: y as u64,
                });
            }
        });
    }

    format!(
        "{pairs} opposite-parity pair tests, {} class-list lookups",
        lookups.into_inner()
    )
}
