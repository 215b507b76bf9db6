//! Divisor games (and subtraction tables with values of 2^16 or more): each position's options
//! listed from the rule, their values sorted and searched. Divisors come from the prime factors
//! of each block of positions, sieved with the primes up to √n, so memory stays a block's
//! whatever n. Cost: the number of options, about ln n a position for divisor games, parallel
//! over blocks.

use super::{FirstFault, Rules, judge};
use crate::game::{BlockFactors, DivisorRule, Moves, primes_below};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions a worker takes at a time.
const BLOCK: u64 = 1 << 14;

/// Where each position's options come from.
pub(super) enum Options<'a> {
    /// A compiled rule's option lists.
    Moves(&'a Moves),
    /// A divisor rule, and the smallest position a move may reach.
    Divisors(DivisorRule, u64),
}

/// Checks every position of `g` with options listed by `options`.
pub(super) fn check(
    g: &PackedValues,
    options: &Options,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) {
    let n = g.len();
    let primes = match options {
        Options::Divisors(..) => primes_below(n.saturating_sub(1).isqrt() + 1),
        Options::Moves(_) => Vec::new(),
    };
    let done = AtomicU64::new(0);
    (0..n.div_ceil(BLOCK)).into_par_iter().for_each_init(
        || (Vec::new(), Vec::new()),
        |(listed, seen): &mut (Vec<u64>, Vec<u32>), b| {
            let start = b * BLOCK;
            let end = (start + BLOCK).min(n);
            if first.beyond(start) {
                return;
            }
            let factors = match options {
                Options::Divisors(..) => Some(BlockFactors::new(start, end, &primes)),
                Options::Moves(_) => None,
            };
            for x in start..end {
                listed.clear();
                match (options, &factors) {
                    (Options::Moves(moves), _) => moves.options(x, listed),
                    (&Options::Divisors(rule, min_target), Some(factors)) if x > 0 => {
                        factors.divisors(x, listed);
                        rule.keep_options(x, listed, 0, min_target);
                    }
                    (Options::Divisors(..), _) => {}
                }
                let gx = g.get(x);
                seen.clear();
                seen.extend(listed.iter().map(|&m| g.get(m)));
                seen.sort_unstable();
                let has = |v: u32| seen.binary_search(&v).is_ok();
                let conflict = || {
                    *listed
                        .iter()
                        .filter(|&&m| g.get(m) == gx)
                        .max()
                        .expect("a conflicting option exists")
                };
                let fault = judge(x, gx, listed.is_empty(), rules, has, conflict);
                if let Some(fault) = fault {
                    first.record(fault);
                    break;
                }
            }
            let total = done.fetch_add(end - start, Ordering::Relaxed);
            progress.set(total + (end - start));
        },
    );
}
