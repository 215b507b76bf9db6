//! Subtraction sets listed element by element (squares, cubes, triangular, finite sets, …):
//! blocks of positions, each with one bit per value per position. For every step s, the
//! block's options g[x − s] are read as one contiguous slice and each sets bit g(x − s) of
//! position x; then (a) and (b) are read off the bits. The slices are the table itself when it
//! is stored 8 or 16 bits a value, and are unpacked into a buffer of the worker's otherwise
//! (once per block when its options are near, per step when they are not). Cost: one scatter
//! per (position, step), n·|S| in all, on cache-resident bits, parallel over blocks. Tables of
//! one bit a value go 64 positions a word instead: n·|S|/64 word operations. Memory: the
//! blocks' bits and buffers, whatever the size of the table.

use super::{FirstFault, Rules, by_pieces, judge};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of value bits a block may use (kept within the second-level cache).
const BITS_BUDGET: usize = 256 << 10;
/// A block of a table stored narrower than a byte unpacks the positions from its farthest
/// option on at once when they are at most this many times the block's.
const SPAN: usize = 8;

/// Checks every position of `g` (values at most `max`, below 2^16) for the steps `steps`
/// (ascending), moves reaching at least `min_target`; returns the cost, the number of
/// (position, option) pairs read.
pub(super) fn check(
    g: &PackedValues,
    max: u32,
    steps: &[u64],
    min_target: u64,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) -> String {
    let words = (max as usize + 1).div_ceil(64).next_power_of_two();
    let check = Check {
        g,
        steps,
        min_target: min_target as usize,
        rules,
        first,
        progress,
    };
    // One-bit tables go 64 positions a word; values of at most 8 bits are read as bytes,
    // wider ones as 16-bit numbers.
    match (g.bits() <= 8, words) {
        _ if g.bits() == 1 => check.bit_blocks(),
        (true, 1) => check.blocks::<1, u8>(),
        (true, 2) => check.blocks::<2, u8>(),
        (true, _) => check.blocks::<4, u8>(),
        (false, 1) => check.blocks::<1, u16>(),
        (false, 2) => check.blocks::<2, u16>(),
        (false, 4) => check.blocks::<4, u16>(),
        (false, 8) => check.blocks::<8, u16>(),
        (false, 16) => check.blocks::<16, u16>(),
        (false, 32) => check.blocks::<32, u16>(),
        (false, 64) => check.blocks::<64, u16>(),
        (false, _) => check.blocks::<1024, u16>(),
    }
    let n = g.len();
    let pairs: u64 = steps
        .iter()
        .map(|&s| n.saturating_sub(s + min_target))
        .sum();
    format!("{pairs} option reads ({} steps)", steps.len())
}

/// The integer type a block reads values as.
trait Narrow: bytemuck::Pod + Default + Into<u32> + Send + Sync {
    /// `v`, which fits.
    fn from_value(v: u32) -> Self;
}

impl Narrow for u8 {
    fn from_value(v: u32) -> Self {
        v as u8
    }
}

impl Narrow for u16 {
    fn from_value(v: u32) -> Self {
        v as u16
    }
}

/// One check's inputs.
struct Check<'a> {
    g: &'a PackedValues,
    steps: &'a [u64],
    min_target: usize,
    rules: Rules,
    first: &'a FirstFault,
    progress: &'a Progress,
}

/// The 64 bits of `words` from bit `at` on (bits before bit 0 and past the end read as 0).
fn window(words: &[u64], at: i64) -> u64 {
    if at < 0 {
        return words
            .first()
            .map_or(0, |&w| w.checked_shl((-at) as u32).unwrap_or(0));
    }
    let (k, shift) = ((at / 64) as usize, at % 64);
    let low = words.get(k).map_or(0, |&w| w >> shift);
    let high = match words.get(k + 1) {
        Some(&w) if shift > 0 => w << (64 - shift),
        _ => 0,
    };
    low | high
}

/// Ones at bits lo..hi of a word (0 ≤ lo ≤ hi ≤ 64).
fn ones(lo: u64, hi: u64) -> u64 {
    let below = |b: u64| if b >= 64 { u64::MAX } else { (1 << b) - 1 };
    below(hi) & !below(lo)
}

impl Check<'_> {
    /// The check for tables of one bit a value (values 0 and 1: P-position lists, misère
    /// outcomes, some Grundy tables), 64 positions a word: for each step the options' bits are
    /// one shifted word of the table, OR-ed into "some option has 0" and "some option has 1".
    /// Only words with a fault go position by position.
    fn bit_blocks(&self) {
        let Check {
            g,
            steps,
            min_target,
            rules,
            first,
            progress,
        } = *self;
        let n = g.len() as usize;
        let table = g.words();
        // Positions a block holds: a multiple of 64.
        let block = 1 << 16;
        let done = AtomicU64::new(0);
        let smallest = steps
            .first()
            .map_or(usize::MAX, |&s| s as usize + min_target);
        by_pieces(
            g,
            block as u64,
            self.reach(),
            || (Vec::new(), Vec::new()),
            |(zero, one): &mut (Vec<u64>, Vec<u64>), b| {
                let b = b as usize;
                let start = b * block;
                let end = (start + block).min(n);
                if first.beyond(start as u64) {
                    return;
                }
                let words = (end - start).div_ceil(64);
                zero.clear();
                zero.resize(words, 0);
                one.clear();
                one.resize(words, 0);
                for &s in steps {
                    let s = s as usize;
                    if s + min_target >= end {
                        break;
                    }
                    let lo = start.max(s + min_target);
                    for j in (lo - start) / 64..words {
                        let x0 = start + 64 * j;
                        let valid = ones(lo.saturating_sub(x0) as u64, (end - x0).min(64) as u64);
                        let options = window(table, x0 as i64 - s as i64);
                        zero[j] |= !options & valid;
                        one[j] |= options & valid;
                    }
                }
                'words: for j in 0..words {
                    let x0 = start + 64 * j;
                    let valid = ones(0, (end - x0).min(64) as u64);
                    let own = window(table, x0 as i64);
                    let terminal = if rules.misere {
                        ones(0, smallest.saturating_sub(x0).min(64) as u64)
                    } else {
                        0
                    };
                    let repeated = if rules.every_value { own & one[j] } else { 0 };
                    let wrong = (((!own & zero[j]) | repeated | (own & !zero[j])) & !terminal
                        | (!own & terminal))
                        & valid;
                    let mut rest = wrong;
                    while rest != 0 {
                        let x = x0 + rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let bit = 1u64 << (x - x0);
                        let gx = u32::from(own & bit != 0);
                        let has = |v: u32| [zero[j], one[j]][v as usize] & bit != 0;
                        let conflict = || {
                            let s = steps
                                .iter()
                                .find(|&&s| {
                                    s as usize + min_target <= x
                                        && g.get((x - s as usize) as u64) == gx
                                })
                                .expect("a conflicting step exists");
                            x as u64 - s
                        };
                        if let Some(fault) = judge(x as u64, gx, x < smallest, rules, has, conflict)
                        {
                            first.record(fault);
                            break 'words;
                        }
                    }
                }
                let total = done.fetch_add((end - start) as u64, Ordering::Relaxed);
                progress.set(total + (end - start) as u64);
            },
        );
    }

    /// How far back a position's options lie at most: the largest step.
    fn reach(&self) -> u64 {
        self.steps.last().copied().unwrap_or(0)
    }

    /// The values of positions `start..end`, unpacked into `buffer`.
    fn unpack<'b, T: Narrow>(&self, start: usize, end: usize, buffer: &'b mut Vec<T>) -> &'b [T] {
        buffer.clear();
        buffer.reserve(end - start);
        self.g
            .each(start as u64, end as u64, |v| buffer.push(T::from_value(v)));
        buffer
    }

    /// The check with `W` words of value bits a position (values below 64·W; the last
    /// instance, 65,536 values, covers every table of values below 2^16), reading values as `T`.
    fn blocks<const W: usize, T: Narrow>(&self) {
        let Check {
            g,
            steps,
            min_target,
            rules,
            first,
            progress,
        } = *self;
        let n = g.len() as usize;
        let direct = g.as_slice::<T>();
        let block = (BITS_BUDGET / (W * 8)).clamp(64, 1 << 16);
        let done = AtomicU64::new(0);
        let smallest = steps
            .first()
            .map_or(usize::MAX, |&s| s as usize + min_target);
        by_pieces(
            g,
            block as u64,
            self.reach(),
            || (Vec::new(), Vec::new(), Vec::new()),
            |(bits, reach, scratch): &mut (Vec<[u64; W]>, Vec<T>, Vec<T>), b| {
                let b = b as usize;
                let start = b * block;
                let end = (start + block).min(n);
                if first.beyond(start as u64) {
                    return;
                }
                bits.clear();
                bits.resize(end - start, [0u64; W]);
                // What the block reads: the table itself; or, unpacked once, the positions from
                // its farthest option on when they are few (small steps); else each step's
                // options unpacked in turn.
                let farthest = steps
                    .iter()
                    .take_while(|&&s| s as usize + min_target < end)
                    .last()
                    .map_or(0, |&s| s as usize);
                let from = start.saturating_sub(farthest);
                let local = match direct {
                    Some(table) => Some((0, table)),
                    None if end - from <= SPAN * (end - start) => {
                        Some((from, self.unpack(from, end, reach)))
                    }
                    None => None,
                };
                for &s in steps {
                    let s = s as usize;
                    if s + min_target >= end {
                        break;
                    }
                    let lo = start.max(s + min_target);
                    let sources = match local {
                        Some((base, values)) => &values[lo - s - base..end - s - base],
                        None => self.unpack(lo - s, end - s, scratch),
                    };
                    for (row, v) in bits[lo - start..].iter_mut().zip(sources) {
                        let v = (*v).into() as usize;
                        row[(v / 64) % W] |= 1 << (v % 64);
                    }
                }
                let own = match local {
                    Some((base, values)) => &values[start - base..end - base],
                    None => self.unpack(start, end, scratch),
                };
                for x in start..end {
                    let row = &bits[x - start];
                    let has = |v: u32| row[v as usize / 64] >> (v % 64) & 1 == 1;
                    let gx: u32 = own[x - start].into();
                    // Values 0..=g(x) as words: the ones below must all be set, g(x) itself not.
                    let (full, rest) = (gx as usize / 64, gx % 64);
                    let below = (1u64 << rest) - 1;
                    if row[..full].iter().all(|&w| w == u64::MAX)
                        && row[full] & below == below
                        && (row[full] >> rest & 1 == 0 || !(rules.every_value || gx == 0))
                        && !(rules.misere && x < smallest)
                    {
                        continue;
                    }
                    let conflict = || {
                        let s = steps
                            .iter()
                            .find(|&&s| {
                                s as usize + min_target <= x && g.get((x - s as usize) as u64) == gx
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::packed::PASS;
    use crate::table::resident::tests::{rss, written_with};
    use crate::table::words::RELEASE_ALIGN;

    /// A check of a finite subtraction set keeps of a file-backed or mapped table the positions
    /// its steps reach back and a piece, not the table: at one bit a value (64 positions a
    /// word) and at 16.
    #[test]
    fn a_check_of_finite_steps_keeps_little_of_a_mapped_table() {
        let rules = Rules {
            every_value: true,
            misere: false,
        };
        // Subtracting 1 (x mod 2) and subtracting 1 or 2 (x mod 3).
        for (n, bits, steps) in [(1u64 << 26, 1, vec![1]), (1 << 24, 16, vec![1, 2])] {
            let period = steps.len() as u64 + 1;
            let (_dir, g) = written_with(n, bits, |x| (x % period) as u32);
            let first = FirstFault::new();
            let cost = check(&g, 2, &steps, 0, rules, &first, &Progress::hidden());
            assert!(first.take().is_none(), "{cost}");
            let (table, piece) = (n * u64::from(bits) / 8, PASS * u64::from(bits) / 8);
            let kept = rss(&g);
            assert!(
                kept <= piece + 4 * RELEASE_ALIGN,
                "{kept} of {table} bytes kept at {bits} bits"
            );
        }
    }
}
