//! What a block computation reads besides the table: the type a value is stored in, how
//! the split options are searched, the moves of the code by kind, and the context of a block.

use super::lane_rests::LaneRests;
use crate::game::{ONE, TWO, TakeBreak, TwoHeapRemovals, WHOLE};
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

/// The moves of a finite code, by kind. The split (s/2, s/2) of an even rest always has the
/// value 0, so the searches of splits leave it out and `halves` says where it is a move.
#[derive(Debug, Clone)]
pub struct CodeMoves {
    /// Removals that may leave two different heaps, ascending.
    pub splits: Vec<u64>,
    /// Removals j ≥ 1 that may leave one heap (from heaps larger than j).
    pub singles: Vec<u64>,
    /// Removals j ≥ 1 allowed when they take the whole heap.
    pub wholes: Vec<u64>,
    /// Removals that may also leave two equal heaps (the splits not bound to be unequal),
    /// ascending.
    pub halves: Vec<u64>,
}

impl CodeMoves {
    /// Moves that only split what a removal of one of `splits` leaves into two heaps (unequal
    /// ones when `unequal`): Grundy's game is `splits_only(vec![0], true)`.
    #[cfg(test)]
    pub(super) fn splits_only(splits: Vec<u64>, unequal: bool) -> CodeMoves {
        CodeMoves::listed(splits, vec![], vec![], unequal)
    }

    /// The moves of these removals, every split unequal when `unequal`.
    #[cfg(test)]
    pub(super) fn listed(
        splits: Vec<u64>,
        singles: Vec<u64>,
        wholes: Vec<u64>,
        unequal: bool,
    ) -> CodeMoves {
        let halves = if unequal { vec![] } else { splits.clone() };
        CodeMoves {
            splits,
            singles,
            wholes,
            halves,
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
        let splits = code.removals(TWO, bound);
        CodeMoves {
            halves: if code.unequal { vec![] } else { splits.clone() },
            splits,
            singles: positive(ONE),
            wholes: positive(WHOLE),
        }
    }

    /// The moves of rules written down whose moves leave at most two heaps.
    pub fn of_two_heaps(removals: TwoHeapRemovals) -> CodeMoves {
        let TwoHeapRemovals {
            wholes,
            singles,
            free_splits,
            unequal_splits,
        } = removals;
        let mut splits: Vec<u64> = free_splits.iter().chain(&unequal_splits).copied().collect();
        splits.sort_unstable();
        CodeMoves {
            splits,
            singles,
            wholes,
            halves: free_splits,
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

    /// True when x has a move to two equal heaps (of value 0).
    #[inline]
    pub(super) fn halves_at(&self, x: u64) -> bool {
        self.halves
            .iter()
            .take_while(|&&j| x >= j + 2)
            .any(|&j| (x - j).is_multiple_of(2))
    }
}

/// True when the split (a, s − a) is one the searches leave out: the equal split, whose value
/// 0 [`CodeMoves::halves_at`] gives.
#[inline]
pub(super) fn equal_split(a: u64, s: u64) -> bool {
    2 * a == s
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
    /// The rests whose splits with the smallest heaps the lanes of a stretch one position
    /// after another mark ([`LaneRests`]).
    pub lane_rests: LaneRests,
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
            lane_rests: LaneRests::First,
        }
    }

    /// Words of a position's bitset of option values: one past `bound`, whose bit stays clear.
    pub fn room(bound: u32) -> usize {
        bound as usize / 64 + 1
    }
}
