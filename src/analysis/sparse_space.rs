//! The sparse-space facts researchers publish for a take-and-break game's table: the mask with
//! the fewest rare positions, how many there are, the last one, and the largest value.

use crate::sparse_space::{best_split, is_rare};
use crate::table::Table;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The sparse space of a table (see [`crate::sparse_space`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparseSpace {
    /// The mask with the fewest rare positions (the smallest such mask on ties; bits above the
    /// largest value's do not matter).
    pub mask: u32,
    /// Positions x (0 included) whose value v has popcount(v & mask) even.
    pub rare_positions: u64,
    /// The largest rare position.
    pub last_rare_position: u64,
    /// The largest value.
    pub max_value: u32,
}

/// Positions read by one task when looking for the last rare position.
const CHUNK: u64 = 1 << 20;

impl SparseSpace {
    /// The facts of `table`, whose value histogram is `counts`; None when every value is 0.
    pub fn of(table: &Table, counts: &[u64]) -> Option<SparseSpace> {
        let split = best_split(counts)?;
        let chunks = table.len().div_ceil(CHUNK);
        // Rare positions thin out: the last is found scanning chunks from the end.
        let last = (0..chunks).into_par_iter().find_map_last(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(table.len());
            table.values.read_once(start..end, |range| {
                range.rev().find(|&x| is_rare(table.get(x), split.mask))
            })
        })?;
        Some(SparseSpace {
            mask: split.mask,
            rare_positions: split.rare,
            last_rare_position: last,
            max_value: counts.len().saturating_sub(1) as u32,
        })
    }
}
