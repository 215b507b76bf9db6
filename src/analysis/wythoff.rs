//! The additive periodicity of the rows of Wythoff's game, proven from a finite table.
//!
//! Row x is additively periodic (Dress, Flammenkamp and Pink 1999; Landman 2002): there are a
//! preperiod q, a period p and a saltus s with G(x, y + p) = G(x, y) + s for every y ≥ q, and
//! s = p, since a row holds every value exactly once. A finite table only shows the relation
//! up to its edge; this module proves it, row after row, as Landman's finite-state argument
//! does. Let rows 0..x − 1 be proven, L the lcm of their periods and Q = x + their largest
//! preperiod. For y ≥ Q the values of column y and of the diagonal through (x, y) above row x
//! shift by exactly L when y does. The value G(x, y) is the smallest value in neither those
//! nor the row's cells to the left of y, and what that leaves of the row is its holes: the
//! values missing from G(x, 0..y), all at least the row's mex, with everything from one past
//! its largest value on. If the holes, taken relative to y, are the same at two columns
//! y1 < y2, both at least Q with y2 − y1 a multiple of L, the row repeats from y1 on with
//! G(x, y + (y2 − y1)) = G(x, y) + (y2 − y1) for every y ≥ y1, beyond the table too (by
//! induction on y). The smallest period is then a divisor of y2 − y1, checked over one such
//! block; the smallest preperiod for it is read from the table below y1.

use crate::table::Table;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The proven additive periodicity of row x: G(x, y + period) = G(x, y) + saltus for every
/// y ≥ preperiod (not only within the table), with the smallest period and, for it, the
/// smallest preperiod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowPeriod {
    /// The row x.
    pub row: u64,
    /// The first y from which the relation holds.
    pub preperiod: u64,
    /// The smallest p.
    pub period: u64,
    /// The increase over one period (equal to the period in Wythoff's game).
    pub saltus: u64,
}

/// The rows 0, 1, 2, … of the square `n`×`n` table `table` (row-major) whose periodicity it
/// proves, in order, up to the first it cannot prove: each proof needs the rows above it and
/// a repeat of the row's holes within the table.
pub fn proven_row_periods(table: &Table, n: u64) -> Vec<RowPeriod> {
    let mut proven = Vec::new();
    let mut lcm = 1u64;
    let mut preperiod = 0u64;
    for x in 0..n {
        let row: Vec<u64> = (0..n).map(|y| u64::from(table.get(x * n + y))).collect();
        let Some(found) = prove_row(x, &row, lcm, preperiod + x) else {
            break;
        };
        lcm = match lcm_of(lcm, found.period) {
            Some(l) if l <= n => l,
            _ => {
                proven.push(found);
                break;
            }
        };
        preperiod = preperiod.max(found.preperiod);
        proven.push(found);
    }
    proven
}

/// Row x's periodicity, from its values `row` = G(x, 0..n), when the rows above have periods
/// dividing `step` and all shift by `step` from column `start` − x on.
fn prove_row(x: u64, row: &[u64], step: u64, start: u64) -> Option<RowPeriod> {
    let (first, block) = repeat_of_holes(row, step, start)?;
    // G(x, y) for any y, from the block that repeats from `first` on.
    let value = |y: u64| match y.checked_sub(first) {
        Some(past) => row[(first + past % block) as usize] + past / block * block,
        None => row[y as usize],
    };
    let shifts = |p: u64, y: u64| value(y + p) == value(y) + p;
    let period = (1..=block)
        .filter(|&p| block.is_multiple_of(p))
        .find(|&p| (first..first + block).all(|y| shifts(p, y)))?;
    let preperiod = (0..first)
        .rev()
        .find(|&y| !shifts(period, y))
        .map_or(0, |y| y + 1);
    Some(RowPeriod {
        row: x,
        preperiod,
        period,
        saltus: period,
    })
}

/// The first two columns y1 < y2 (from `start` on, `step` apart) at which the row's holes,
/// relative to the column, are the same: (y1, y2 − y1).
fn repeat_of_holes(row: &[u64], step: u64, start: u64) -> Option<(u64, u64)> {
    let n = row.len() as u64;
    let largest = row.iter().copied().max().unwrap_or(0);
    let mut used = vec![0u64; (largest / 64 + 1) as usize];
    let has = |used: &[u64], v: u64| used[(v / 64) as usize] >> (v % 64) & 1 == 1;
    let (mut mex, mut end) = (0u64, 0u64);
    let mut seen: HashMap<(i64, i64, Vec<u64>), u64> = HashMap::new();
    for y in 0..=n {
        if y >= start && (y - start).is_multiple_of(step) {
            // The holes: mex and the end relative to y, and which values between them are used.
            let between: Vec<u64> = (mex..end)
                .collect::<Vec<_>>()
                .chunks(64)
                .map(|c| c.iter().fold(0, |w, &v| w << 1 | u64::from(has(&used, v))))
                .collect();
            let key = (mex as i64 - y as i64, end as i64 - y as i64, between);
            if let Some(&earlier) = seen.get(&key) {
                return Some((earlier, y - earlier));
            }
            seen.insert(key, y);
        }
        if y == n {
            break;
        }
        let v = row[y as usize];
        used[(v / 64) as usize] |= 1 << (v % 64);
        end = end.max(v + 1);
        while mex < end && has(&used, mex) {
            mex += 1;
        }
    }
    None
}

/// lcm(a, b), None when it passes 2^64 − 1.
fn lcm_of(a: u64, b: u64) -> Option<u64> {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    (a / gcd(a, b)).checked_mul(b)
}
