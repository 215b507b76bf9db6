//! Engines: algorithms that fill a [`Table`](crate::table::Table) with the values of a game.
//!
//! [`reference`] computes any game by the definition and is the oracle every other engine is
//! tested against. [`choose`] picks the engine a command uses.

pub mod reference;
mod window;

use crate::error::{Error, Result};
use crate::game::Game;
use crate::progress::Progress;
use crate::table::Table;

/// The engines a table can be computed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    /// The mex recursion over explicit options ([`reference`]).
    Reference,
}

impl EngineKind {
    /// The name reported in JSON summaries.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Reference => "reference",
        }
    }

    /// Computes the values of `game` for positions below `n`.
    pub fn grundy(self, game: &Game, n: u64, progress: &Progress) -> Result<Table> {
        match self {
            EngineKind::Reference => reference::compute(game, n, progress),
        }
    }
}

/// The engine used for `game` up to `n`.
pub fn choose(_game: &Game, _n: u64) -> EngineKind {
    EngineKind::Reference
}

/// Rejects sizes the in-memory engines cannot hold.
pub fn check_in_memory_size(n: u64) -> Result<()> {
    const LIMIT: u64 = 1 << 32;
    if n > LIMIT {
        return Err(Error::Input(format!(
            "n = {n} is too large for an in-memory table (4 bytes per position); use n <= 2^32"
        )));
    }
    Ok(())
}
