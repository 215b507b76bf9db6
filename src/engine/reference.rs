//! The reference engine: g(n) = mex of the values of n's options, straight from the definition.
//!
//! Options come from [`Moves`]: explicit lists (subtraction steps, divisors) cost O(options) a
//! position; window rules (Nim, all-but, bachet, half, even-if-not-all) keep value counts of the
//! window ([`WindowCounts`]) and cost O(log n) a position; take-and-break games add every
//! split of n into two heaps (a, b), of value g(a) XOR g(b): O(n) a position, O(n²) in all;
//! and a hexadecimal code every split into three heaps (a, b, c), of value g(a) XOR g(b) XOR
//! g(c): about n²/12 a removal that allows it, O(n³) in all. Misère play tabulates outcomes:
//! a position is N when it has no option or an option that is P. Single-threaded, in memory.

use super::window::WindowCounts;
use crate::error::Result;
use crate::game::{Game, Moves, Play};
use crate::interrupt;
use crate::period;
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::{Table, ValueKind};

/// How often the progress bar is updated, in positions.
const PROGRESS_EVERY: u64 = 1 << 16;

/// Computes the value (normal play) or outcome (misère) of every position below `n`.
pub fn compute(game: &Game, n: u64, progress: &Progress) -> Result<Table> {
    super::check_in_memory_size(n)?;
    let moves = game.moves(n);
    let mut values: Vec<u32> = crate::table::reserve(n, "the table")?;
    let written_down = game.general().map(|general| general.compile(n));
    let settle = |has_option: bool, mex: u32| match game.play {
        Play::Normal => mex,
        Play::Misere => u32::from(!has_option || mex > 0),
    };
    match &moves {
        _ if written_down.is_some() => {
            let rules = written_down.as_ref().expect("rules written down");
            let mut seen: Vec<u64> = Vec::new();
            for x in 0..n {
                let mut has_option = false;
                rules.for_each_option(x, &mut |heaps| {
                    let v = heaps.iter().fold(0, |v, &h| v ^ values[h as usize]);
                    let v = if heaps.is_empty() { values[0] } else { v };
                    if seen.len() <= v as usize {
                        seen.resize(v as usize + 1, u64::MAX);
                    }
                    seen[v as usize] = x;
                    has_option = true;
                    std::ops::ControlFlow::Continue(())
                });
                let mex = (0..seen.len())
                    .find(|&v| seen[v] != x)
                    .unwrap_or(seen.len()) as u32;
                values.push(settle(has_option, mex));
                if x % PROGRESS_EVERY == 0 {
                    progress.set(x);
                    interrupt::check(x, n)?;
                }
            }
        }
        Moves::Window { rule, min_target } => {
            let mut classes: Vec<Option<WindowCounts>> = Vec::new();
            for x in 0..n {
                let w = rule.window(x, *min_target);
                if classes.is_empty() {
                    classes.resize_with(w.step as usize, || None);
                }
                let class = classes[(w.lo % w.step) as usize]
                    .get_or_insert_with(|| WindowCounts::new(w.lo));
                class.slide(w.lo, w.hi, w.step, &values);
                let removed: Vec<u32> = w.except.iter().map(|&m| values[m as usize]).collect();
                let (has_option, mex) =
                    class.mex_adjusted(&removed, w.extra.map(|m| values[m as usize]));
                values.push(settle(has_option, mex));
                if x % PROGRESS_EVERY == 0 {
                    progress.set(x);
                    interrupt::check(x, n)?;
                }
            }
        }
        _ => {
            let mut options = Vec::new();
            let mut splits = Vec::new();
            let mut seen: Vec<u64> = Vec::new();
            let code = game.take_break();
            for x in 0..n {
                options.clear();
                splits.clear();
                moves.options(x, &mut options);
                moves.splits(x, &mut splits);
                let option_values = options.iter().map(|&m| values[m as usize]);
                let split_values = splits
                    .iter()
                    .map(|&(a, b)| values[a as usize] ^ values[b as usize]);
                // Splits into three are too many to list (about x²/12 a removal).
                let triple_values = code
                    .into_iter()
                    .flat_map(|code| code.three_way_splits(x))
                    .map(|[a, b, c]| values[a as usize] ^ values[b as usize] ^ values[c as usize]);
                let mut has_option = false;
                for v in option_values.chain(split_values).chain(triple_values) {
                    if seen.len() <= v as usize {
                        seen.resize(v as usize + 1, u64::MAX);
                    }
                    seen[v as usize] = x;
                    has_option = true;
                }
                let mex = (0..seen.len())
                    .find(|&v| seen[v] != x)
                    .unwrap_or(seen.len()) as u32;
                values.push(settle(has_option, mex));
                if x % PROGRESS_EVERY == 0 {
                    progress.set(x);
                    interrupt::check(x, n)?;
                }
            }
        }
    }
    progress.set(n);
    let period = game
        .period_criterion()
        .and_then(|criterion| period::find_by(n, |x| values[x as usize], &criterion));
    Ok(Table {
        kind: ValueKind::of(game.play),
        values: PackedValues::from_values(&values)?,
        period,
        shape: crate::table::Shape::Line,
    })
}
