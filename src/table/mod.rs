//! Value tables: what engines write and what analysis and emitters read.

pub mod bits;
pub mod packed;
pub mod words;
pub mod work_file;

use crate::analysis::period::Period;
use crate::game::Play;
use packed::PackedValues;

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

/// The value of every position 0 ≤ x < len, packed.
#[derive(Debug)]
pub struct Table {
    /// What the values mean.
    pub kind: ValueKind,
    /// The values.
    pub values: PackedValues,
    /// The proven eventual period, for games where the engine can prove one.
    pub period: Option<Period>,
}

impl Table {
    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.values.len()
    }

    /// True when the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of position x.
    pub fn get(&self, x: u64) -> u32 {
        self.values.get(x)
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.values.iter()
    }

    /// The P-positions (value 0), ascending.
    pub fn p_positions(&self) -> Vec<u64> {
        self.iter()
            .enumerate()
            .filter(|(_, v)| *v == 0)
            .map(|(x, _)| x as u64)
            .collect()
    }
}
