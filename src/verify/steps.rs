//! Subtraction sets listed element by element (squares, cubes, triangular, finite sets, …):
//! blocks of positions, each with one bit per value per position. For every step s, the
//! block's options g[x − s] are read as one contiguous slice and each sets bit g(x − s) of
//! position x; then (a) and (b) are read off the bits. Cost: one scatter per (position, step),
//! n·|S| in all, on cache-resident bits, parallel over blocks.

use super::{FirstFault, Rules, judge};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of value bits a block may use (kept within the second-level cache).
const BITS_BUDGET: usize = 256 << 10;

/// Checks every position of `g` for the steps `steps` (ascending), moves reaching at least
/// `min_target`; returns the cost, the number of (position, option) pairs read.
pub(super) fn check(
    g: &[u16],
    steps: &[u64],
    min_target: u64,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) -> String {
    let max = g.iter().map(|v| u32::from(*v)).max().unwrap_or(0) as usize;
    let words = (max + 1).div_ceil(64).next_power_of_two();
    let run = Run {
        g,
        steps,
        min_target: min_target as usize,
        rules,
        first,
        progress,
    };
    match words {
        1 => run.blocks::<1>(),
        2 => run.blocks::<2>(),
        4 => run.blocks::<4>(),
        8 => run.blocks::<8>(),
        16 => run.blocks::<16>(),
        32 => run.blocks::<32>(),
        64 => run.blocks::<64>(),
        _ => run.blocks::<1024>(),
    }
    let n = g.len() as u64;
    let pairs: u64 = steps
        .iter()
        .map(|&s| n.saturating_sub(s + min_target))
        .sum();
    format!("{pairs} option reads ({} steps)", steps.len())
}

/// One check's inputs.
struct Run<'a> {
    g: &'a [u16],
    steps: &'a [u64],
    min_target: usize,
    rules: Rules,
    first: &'a FirstFault,
    progress: &'a Progress,
}

impl Run<'_> {
    /// The check with `W` words of value bits a position (values below 64·W; the last
    /// instance, 65,536 values, covers every table stored in 16 bits).
    fn blocks<const W: usize>(&self) {
        let Run {
            g,
            steps,
            min_target,
            rules,
            first,
            progress,
        } = *self;
        let block = (BITS_BUDGET / (W * 8)).clamp(64, 1 << 16);
        let done = AtomicU64::new(0);
        let smallest = steps
            .first()
            .map_or(usize::MAX, |&s| s as usize + min_target);
        (0..g.len().div_ceil(block)).into_par_iter().for_each_init(
            Vec::new,
            |bits: &mut Vec<[u64; W]>, b| {
                let start = b * block;
                let end = (start + block).min(g.len());
                if first.beyond(start as u64) {
                    return;
                }
                bits.clear();
                bits.resize(end - start, [0u64; W]);
                for &s in steps {
                    let s = s as usize;
                    if s + min_target >= end {
                        break;
                    }
                    let lo = start.max(s + min_target);
                    for (row, v) in bits[lo - start..].iter_mut().zip(&g[lo - s..end - s]) {
                        let v = usize::from(*v);
                        row[(v / 64) % W] |= 1 << (v % 64);
                    }
                }
                for x in start..end {
                    let own = &bits[x - start];
                    let has = |v: u32| own[v as usize / 64] >> (v % 64) & 1 == 1;
                    let gx = u32::from(g[x]);
                    // Values 0..=g(x) as words: the ones below must all be set, g(x) itself not.
                    let (full, rest) = (gx as usize / 64, gx % 64);
                    let below = (1u64 << rest) - 1;
                    if own[..full].iter().all(|&w| w == u64::MAX)
                        && own[full] & below == below
                        && (own[full] >> rest & 1 == 0 || !(rules.every_value || gx == 0))
                        && !(rules.misere && x < smallest)
                    {
                        continue;
                    }
                    let conflict = || {
                        let s = steps
                            .iter()
                            .find(|&&s| {
                                s as usize + min_target <= x && u32::from(g[x - s as usize]) == gx
                            })
                            .expect("a conflicting step exists");
                        x as u64 - s
                    };
                    if let Some(fault) = judge(x as u64, gx, x < smallest, rules, has, conflict) {
                        first.record(fault);
                        break;
                    }
                }
                let total = done.fetch_add((end - start) as u64, Ordering::Relaxed);
                progress.set(total + (end - start) as u64);
            },
        );
    }
}
