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

/// The values the options of the current position reach: `at[v]` is the last position an
/// option of which has value v.
struct Seen {
    at: Vec<u64>,
    /// The last position with an option.
    moved: u64,
    play: Play,
}

impl Seen {
    fn new(play: Play) -> Seen {
        Seen {
            at: Vec::new(),
            moved: u64::MAX,
            play,
        }
    }

    /// An option of x has value v.
    fn mark(&mut self, x: u64, v: u32) {
        if self.at.len() <= v as usize {
            self.at.resize(v as usize + 1, u64::MAX);
        }
        self.at[v as usize] = x;
        self.moved = x;
    }

    /// The value or outcome of x ([`settled`]), once its options are marked.
    fn settle(&self, x: u64) -> u32 {
        let mex = (0..self.at.len())
            .find(|&v| self.at[v] != x)
            .unwrap_or(self.at.len()) as u32;
        settled(self.play, self.moved == x, mex)
    }
}

/// The value (normal play) or outcome (misère: N when there is no option or a P option) of a
/// position whose options' values have this mex.
fn settled(play: Play, has_option: bool, mex: u32) -> u32 {
    match play {
        Play::Normal => mex,
        Play::Misere => u32::from(!has_option || mex > 0),
    }
}

/// Computes the value (normal play) or outcome (misère) of every position below `n`.
pub fn compute(game: &Game, n: u64, progress: &Progress) -> Result<Table> {
    super::check_in_memory_size(n)?;
    let moves = game.moves(n);
    let mut values: Vec<u32> = crate::table::reserve(n, "the table")?;
    let written_down = game.general().map(|general| general.compile(n));

    match &moves {
        _ if written_down.is_some() => {
            let rules = written_down.as_ref().expect("rules written down");
            let mut seen = Seen::new(game.play);
            for x in 0..n {
                rules.for_each_option(x, &mut |heaps| {
                    let v = heaps.iter().fold(0, |v, &h| v ^ values[h as usize]);
                    seen.mark(x, if heaps.is_empty() { values[0] } else { v });
                    std::ops::ControlFlow::Continue(())
                });
                values.push(seen.settle(x));
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
                values.push(settled(game.play, has_option, mex));
                if x % PROGRESS_EVERY == 0 {
                    progress.set(x);
                    interrupt::check(x, n)?;
                }
            }
        }
        _ => {
            let mut options = Vec::new();
            let mut splits = Vec::new();
            let mut seen = Seen::new(game.play);
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
                for v in option_values.chain(split_values).chain(triple_values) {
                    seen.mark(x, v);
                }
                values.push(seen.settle(x));
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
