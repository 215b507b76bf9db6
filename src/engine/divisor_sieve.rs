//! Divisor games (`aliquot`, `proper-divisors`, `divisors`, `to-divisor`) by sieving divisors
//! segment by segment instead of factoring each n.
//!
//! For a segment [lo, hi), every option whose target lies below lo is already known: all pairs
//! (n, e) with e ∣ n come from the small divisors d ≤ √hi and their cofactors n/d, marked into
//! a bit mask of option values per position. Options whose target lies in the segment itself
//! (small e for the n − e rules) are listed per position. Both are done in parallel, each thread
//! on its own part of the segment; a sequential pass then reads the listed options and takes
//! each mex. Cost about 3·N·ln N simple operations; values
//! must stay below 64 (they are 2-adic valuations or prime-factor counts, far below that).

use super::resumable::{self, StepEnd, Storage};
use crate::error::{Error, Result};
use crate::game::{DivisorRule, Game, Play};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::{Table, ValueKind};
use rayon::prelude::*;

/// Positions per segment.
const SEGMENT: u64 = 1 << 16;

/// Bits a normal-play value of the table: values stay below 64.
pub(crate) const WIDEST: u32 = 8;

/// The table of `game` (a divisor game) for positions below `n`, kept and resumed as
/// `storage` says.
pub fn compute(
    game: &Game,
    rule: DivisorRule,
    n: u64,
    storage: Storage,
    progress: &Progress,
) -> Result<Table> {
    // Normal-play values stay below 64 (8 bits); the table starts at 1 bit and widens as larger
    // values appear. Misère tables hold outcomes, 1 bit.
    let widest = match game.play {
        Play::Normal => WIDEST,
        Play::Misere => 1,
    };
    let (mut values, done) = resumable::open_packed(game, n, widest, storage)?;
    let moves = DivisorMoves {
        rule,
        min_target: game.min_target(),
    };
    resumable::drive(
        game,
        n,
        widest,
        storage,
        &mut values,
        done,
        |values, done, stop| {
            let mut lo = done;
            while lo < n {
                let hi = (lo + SEGMENT).min(n);
                moves.fill_segment(values, game.play, lo, hi)?;
                progress.set(hi);
                lo = hi;
                if lo < n && stop(lo).is_break() {
                    return Ok(StepEnd::Stopped { at: lo });
                }
            }
            Ok(StepEnd::Completed)
        },
    )?;
    Ok(Table {
        kind: ValueKind::of(game.play),
        values,
        period: None,
        shape: crate::table::Shape::Line,
    })
}

/// Option values already known for one position of the segment.
#[derive(Debug, Clone, Copy, Default)]
struct Known {
    mask: u64,
    has_option: bool,
}

/// Which options a rule gives.
struct DivisorMoves {
    rule: DivisorRule,
    min_target: u64,
}

impl DivisorMoves {
    /// Computes the values of positions lo..hi from the final values below lo.
    fn fill_segment(&self, values: &mut PackedValues, play: Play, lo: u64, hi: u64) -> Result<()> {
        // One part of the segment per thread gathers its positions' options in parallel; the
        // values are then taken in order, since in-segment options need the values before them.
        let part = (hi - lo).div_ceil(rayon::current_num_threads().max(1) as u64);
        let parts: Vec<(u64, u64)> = (lo..hi)
            .step_by(part.max(1) as usize)
            .map(|a| (a, (a + part).min(hi)))
            .collect();
        let options: Vec<(Vec<Known>, Vec<usize>, Vec<u64>)> = parts
            .par_iter()
            .map(|&(a, b)| {
                let (offsets, targets) = self.in_segment_options(lo, a, b);
                (self.known_options(values, lo, a, b), offsets, targets)
            })
            .collect();
        for (&(a, b), (known, offsets, targets)) in parts.iter().zip(&options) {
            for x in a..b {
                let i = (x - a) as usize;
                let mut mask = known[i].mask;
                let mut has_option = known[i].has_option;
                for &t in &targets[offsets[i]..offsets[i + 1]] {
                    mask |= 1 << values.get(t);
                    has_option = true;
                }
                let mex = (!mask).trailing_zeros();
                let v = match play {
                    Play::Normal if mex >= 64 => {
                        return Err(Error::unsupported(crate::text!(
                            format!(
                                "position {x} has value {mex} or more, beyond the divisor engine's limit of 63; use "
                            ),
                            crate::error::Param::Engine.given("reference"),
                        )));
                    }
                    Play::Normal => mex,
                    Play::Misere => u32::from(!has_option || mex > 0),
                };
                if v > values.capacity() {
                    resumable::widen(values, PackedValues::bits_for(v), x)?;
                }
                values.set(x, v);
            }
        }
        Ok(())
    }

    /// The target reached from n through its divisor e, if the rule and `+leave1` allow it.
    #[inline]
    fn target(&self, n: u64, e: u64) -> Option<u64> {
        self.rule.option(n, e).filter(|&t| t >= self.min_target)
    }

    /// For each position of [a, b), the values of its options whose targets lie below lo.
    fn known_options(&self, values: &PackedValues, lo: u64, a: u64, b: u64) -> Vec<Known> {
        let root = (b as f64).sqrt() as u64 + 1;
        let mut known = vec![Known::default(); (b - a) as usize];
        for d in 1..=root {
            let first = a.div_ceil(d).max(1) * d;
            for n in (first..b).step_by(d as usize) {
                let cofactor = n / d;
                if d > cofactor {
                    continue;
                }
                let slot = &mut known[(n - a) as usize];
                for e in [d, cofactor] {
                    if let Some(t) = self.target(n, e).filter(|&t| t < lo) {
                        slot.mask |= 1 << values.get(t);
                        slot.has_option = true;
                    }
                }
            }
        }
        known
    }

    /// Options of the positions of [a, b) whose targets lie in the segment from lo on, listed
    /// per position: position a + i has targets `targets[offsets[i]..offsets[i + 1]]`.
    fn in_segment_options(&self, lo: u64, a: u64, b: u64) -> (Vec<usize>, Vec<u64>) {
        let len = (b - a) as usize;
        // A target t ≥ lo is n − e with e ≤ n − lo < b − lo, or e itself (to-divisor) with e ≥ lo.
        let divisors = match self.rule {
            DivisorRule::ToDivisor => lo.max(1)..b.div_ceil(2),
            _ => 1..b - lo,
        };
        // Two passes over the same pairs: count per position, then place.
        let each_pair = |visit: &mut dyn FnMut(usize, u64)| {
            for e in divisors.clone() {
                let first = a.div_ceil(e).max(1) * e;
                for n in (first..b).step_by(e as usize) {
                    if let Some(t) = self.target(n, e).filter(|&t| t >= lo) {
                        visit((n - a) as usize, t);
                    }
                }
            }
        };
        let mut offsets = vec![0; len + 1];
        each_pair(&mut |i, _| offsets[i + 1] += 1);
        for i in 0..len {
            offsets[i + 1] += offsets[i];
        }
        let mut targets = vec![0; offsets[len]];
        let mut cursor = offsets.clone();
        each_pair(&mut |i, t| {
            targets[cursor[i]] = t;
            cursor[i] += 1;
        });
        (offsets, targets)
    }
}
