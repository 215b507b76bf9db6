//! Value tables: what engines write and what analysis and emitters read.

pub mod bits;

use crate::game::Play;

/// What the numbers of a table mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// Sprague–Grundy values (normal play).
    Grundy,
    /// Outcomes under misère play: 0 = P (previous player wins), 1 = N.
    Outcome,
}

impl ValueKind {
    /// The kind of table a game of this play produces.
    pub fn of(play: Play) -> ValueKind {
        match play {
            Play::Normal => ValueKind::Grundy,
            Play::Misere => ValueKind::Outcome,
        }
    }
}

/// The value of every position 0 ≤ x < n, in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// What the values mean.
    pub kind: ValueKind,
    /// `values[x]` for x below the table's length.
    pub values: Vec<u32>,
}

impl Table {
    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    /// True when the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The P-positions (value 0), ascending.
    pub fn p_positions(&self) -> Vec<u64> {
        self.values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == 0)
            .map(|(x, _)| x as u64)
            .collect()
    }
}
