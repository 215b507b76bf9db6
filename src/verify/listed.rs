//! Divisor games (and subtraction tables with values of 2^16 or more): each position's options
//! listed from the rule (divisors from the smallest-prime-factor sieve), their values sorted and
//! searched. Cost: the number of options, about ln n a position for divisor games, parallel
//! over blocks.

use super::{FirstFault, Rules, judge};
use crate::game::Moves;
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions a worker takes at a time.
const BLOCK: usize = 1 << 14;

/// Checks every position of `g` with options listed by `moves`.
pub(super) fn check(
    g: &[u32],
    moves: &Moves,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) {
    let done = AtomicU64::new(0);
    (0..g.len().div_ceil(BLOCK)).into_par_iter().for_each_init(
        || (Vec::new(), Vec::new()),
        |(options, seen): &mut (Vec<u64>, Vec<u32>), b| {
            let start = b * BLOCK;
            let end = (start + BLOCK).min(g.len());
            if first.beyond(start as u64) {
                return;
            }
            for x in start..end {
                options.clear();
                moves.options(x as u64, options);
                let gx = g[x];
                seen.clear();
                seen.extend(options.iter().map(|&m| g[m as usize]));
                seen.sort_unstable();
                let has = |v: u32| seen.binary_search(&v).is_ok();
                let conflict = || {
                    *options
                        .iter()
                        .filter(|&&m| g[m as usize] == gx)
                        .max()
                        .expect("a conflicting option exists")
                };
                let fault = judge(x as u64, gx, options.is_empty(), rules, has, conflict);
                if let Some(fault) = fault {
                    first.record(fault);
                    break;
                }
            }
            let total = done.fetch_add((end - start) as u64, Ordering::Relaxed);
            progress.set(total + (end - start) as u64);
        },
    );
}
