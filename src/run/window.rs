//! The window of a run that keeps no table: its size, and the refusal of one given where the
//! run would keep its whole table anyway.

use super::Request;
use crate::choice::Choice;
use crate::error::{Error, Param, Result};
use crate::text;

/// Positions a run that keeps no table keeps whole before it keeps only a window
/// ([`Request::window`]): 2^26, whose head and tail take 64 MiB at 8 bits a value.
pub const DEFAULT_WINDOW: u64 = 1 << 26;

/// The smallest window: its head holds every small heap a position's search reads.
pub const MIN_WINDOW: u64 = 1 << 18;

/// The window of a run: the size `given` (at least [`MIN_WINDOW`]), else [`DEFAULT_WINDOW`],
/// when its outputs are only summaries (`summaries`); else None, and a size given is refused,
/// with `summaries_are` saying which runs those are.
pub fn window_of(given: Option<&str>, summaries: bool, summaries_are: &str) -> Result<Option<u64>> {
    let Some(text) = given else {
        return Ok(summaries.then_some(DEFAULT_WINDOW));
    };
    let size = crate::number::parse_u64(text)?;
    if !summaries || size < MIN_WINDOW {
        return Err(Error::invalid(
            Param::Window,
            text!(
                Param::Window.given(text),
                format!(
                    ": a window applies to {summaries_are}, of at least {MIN_WINDOW} (2^18) positions; give such a run and size, or leave "
                ),
                Param::Window,
                " out"
            ),
        ));
    }
    Ok(Some(size))
}

impl Request {
    /// Refuses a window given as `given` for a run that would keep its whole table past it: a
    /// game or engine other than take-and-break on `rare-values`, or a run that stops at its
    /// period ([`Request::windowed`]). A window the run does not reach keeps the table whole
    /// anyway, and is let be.
    pub fn check_window_given(&self, given: &str) -> Result<()> {
        if self.windowed().is_some() || self.window.is_none_or(|from| self.n <= from) {
            return Ok(());
        }
        let why = if self.until_period {
            text!(
                ": a run with ",
                Param::UntilPeriod,
                " keeps its whole table (its period is proven from it); leave ",
                Param::Window,
                " or ",
                Param::UntilPeriod,
                " out"
            )
        } else {
            text!(
                format!(
                    ": {} on the {} engine keeps its whole table (only take-and-break games on the rare-values engine keep a window); leave ",
                    self.game.spec,
                    self.engine_kind().name()
                ),
                Param::Window,
                " out"
            )
        };
        Err(Error::invalid(
            Param::Window,
            text!(Param::Window.given(given), why),
        ))
    }
}
