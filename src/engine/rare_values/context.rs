//! What a block computation reads besides the table: the type a value is stored in, how
//! the split options are searched, the moves of the code by kind, and the context of a block.

use crate::game::{ONE, TWO, TakeBreak, WHOLE};
use crate::sparse_space::is_rare;
use std::ops::BitXor;

/// A table value as stored: u8, u16 or u32.
pub trait Value:
    Copy + Send + Sync + Into<u32> + TryFrom<u32> + BitXor<Output = Self> + PartialEq + bytemuck::Pod
{
}
impl<T> Value for T where
    T: Copy
        + Send
        + Sync
        + Into<u32>
        + TryFrom<u32>
        + BitXor<Output = T>
        + PartialEq
        + bytemuck::Pod
{
}

/// How the split options are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every split: O(n) a position.
    Full,
    /// Sparse space with this mask: the splits with a rare heap, then the splits of two
    /// common heaps only until every rare value below the mex is excluded.
    Sparse(u32),
}

impl Mode {
    /// True when position x with value `value` belongs in the list of rare positions: sparse
    /// mode, x ≥ 1 (position 0 is never a partner) and a rare value.
    #[inline]
    pub fn lists_rare(self, x: u64, value: u32) -> bool {
        matches!(self, Mode::Sparse(mask) if x > 0 && is_rare(value, mask))
    }
}

/// The moves of a finite code, by kind.
#[derive(Debug, Clone)]
pub struct CodeMoves {
    /// Removals that may leave two heaps, ascending.
    pub splits: Vec<u64>,
    /// Removals j ≥ 1 that may leave one heap (from heaps larger than j).
    pub singles: Vec<u64>,
    /// Removals j ≥ 1 allowed when they take the whole heap.
    pub wholes: Vec<u64>,
    /// Splits must leave two different heaps.
    pub unequal: bool,
}

impl CodeMoves {
    /// Moves that only split what a removal of one of `splits` leaves into two heaps (unequal
    /// ones when `unequal`): Grundy's game is `splits_only(vec![0], true)`.
    #[cfg(test)]
    pub(super) fn splits_only(splits: Vec<u64>, unequal: bool) -> CodeMoves {
        CodeMoves {
            splits,
            singles: vec![],
            wholes: vec![],
            unequal,
        }
    }

    /// The moves of a finite code whose largest removal is `last_removal`.
    pub fn of(code: &TakeBreak, last_removal: u64) -> CodeMoves {
        let bound = last_removal + 1;
        let positive = |bit| {
            let mut js = code.removals(bit, bound);
            js.retain(|&j| j > 0);
            js
        };
        CodeMoves {
            splits: code.removals(TWO, bound),
            singles: positive(ONE),
            wholes: positive(WHOLE),
            unequal: code.unequal,
        }
    }

    /// What is left of x after each removal that may split it into two non-empty heaps
    /// (x − j ≥ 2), by increasing removal.
    #[inline]
    pub(super) fn rests(&self, x: u64) -> impl Iterator<Item = u64> + '_ {
        self.splits
            .iter()
            .take_while(move |&&j| x >= j + 2)
            .map(move |&j| x - j)
    }

    /// True when the split (a, s − a) is forbidden (`+unequal` and a = s − a).
    #[inline]
    pub(super) fn forbids(&self, a: u64, s: u64) -> bool {
        self.unequal && 2 * a == s
    }
}

/// What a block computation reads besides the table.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The game's moves.
    pub moves: &'a CodeMoves,
    /// How splits are searched.
    pub mode: Mode,
    /// Rare positions below the block (x ≥ 1), ascending, with their values.
    pub rare: &'a [(u64, u32)],
    /// A power of two above every value below the block (at least 64).
    pub bound: u32,
    /// In sparse mode, the rare values below `bound` as a bitset of [`Context::room`] words
    /// ([`crate::sparse_space::rare_values`]).
    pub rare_values: &'a [u64],
    /// Every position below the block whose value is at least `bound / 2`, ascending, with its
    /// value, when they are few enough to be listed ([`High`]).
    pub high: Option<&'a [(u64, u32)]>,
    /// The small heaps the table keeps: a run that keeps only a window of its table reads a
    /// split (a, s − a) only when a lies below this (its partner then lies in the kept tail);
    /// `u64::MAX` for a whole table.
    pub head: u64,
    /// Splits with the smallest heaps of each rest marked before the rare values still
    /// missing are searched for ([`super::search::FirstSplits`]).
    pub scanned_first: u64,
}

impl<'a> Context<'a> {
    /// The context of a test in sparse mode: a whole table, no high values listed, the
    /// least first splits.
    #[cfg(test)]
    pub(super) fn sparse_for_test(
        moves: &'a CodeMoves,
        mask: u32,
        rare: &'a [(u64, u32)],
        bound: u32,
        rare_values: &'a [u64],
    ) -> Context<'a> {
        Context {
            moves,
            mode: Mode::Sparse(mask),
            rare,
            bound,
            rare_values,
            high: None,
            head: u64::MAX,
            scanned_first: super::search::SCANNED_FIRST,
        }
    }

    /// Words of a position's bitset of option values: one past `bound`, whose bit stays clear.
    pub fn room(bound: u32) -> usize {
        bound as usize / 64 + 1
    }
}
