//! The segment loop of the `value-layers` engine: positions are computed in segments `[a, b)`, each
//! through all its value layers ([`layers`](super::layers)) before the next, so a run can stop
//! at any segment boundary and continue from the table alone. The steps of these sets reach
//! back to position 0, so every layer of a segment first rebuilds its bitset over `[0, a)` from
//! the stored values ([`window`](super::window), a scan of `2a` bytes); segments much longer
//! than the per-layer sieve work keep that small. A segment with a value wider than the table
//! widens it first.

use super::layers::{Watch, layered};
use crate::engine::resumable::StepEnd;
use crate::table::packed::PackedValues;
use std::ops::ControlFlow;

/// Errors reported by [`layered_grundy`].
#[derive(Debug)]
pub enum LayeredGrundyError {
    /// A step of size zero was given; such a game is not well founded.
    ZeroStep,
    /// The value at `position` would exceed `u16::MAX`.
    ValueOverflow {
        /// First position whose value does not fit in a `u16`.
        position: u64,
    },
    /// `n` does not fit in memory addressing on this platform.
    TooLarge,
    /// The table could not be widened.
    Table(crate::error::Error),
}

impl std::fmt::Display for LayeredGrundyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ZeroStep => write!(f, "step set contains 0"),
            Self::ValueOverflow { position } => {
                write!(
                    f,
                    "the value of position {position} exceeds 65535, the largest the engine stores"
                )
            }
            Self::TooLarge => write!(f, "number of positions too large"),
            Self::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LayeredGrundyError {}

/// How a run of [`layered_grundy`] proceeds: segment by segment, stopping or dropping a segment
/// when the caller says so.
pub struct Pace<'a> {
    /// Positions per segment (any length from 1 on; results do not depend on it).
    pub segment: u64,
    /// Called after each segment but the last with the first position not yet final; a Break
    /// answer ends the run there.
    pub stop: &'a mut dyn FnMut(u64) -> ControlFlow<()>,
    /// Polled while a segment is computed: when it returns true the segment is dropped and the
    /// run ends at its start.
    pub abandon: &'a (dyn Fn() -> bool + Sync),
    /// Called while a segment is computed, after each value layer, with the segment's start
    /// plus the number of its positions whose value is known so far (for a progress bar; they
    /// are final only when the segment ends).
    pub resolved: &'a (dyn Fn(u64) + Sync),
}

/// Fills the Grundy values of the subtraction game with `steps` into `table` (n values), whose
/// positions below `done` are already final. A segment with a value wider than the table
/// widens it first ([`PackedValues::widen`]); the table's storage must have room for 16 bits.
///
/// `g(p) = mex { g(p - s) : s in steps, s <= p - min_target }`; positions
/// below `min_target` have no moves (value 0).  `steps` may be in any order and may
/// contain duplicates.  Positions are computed `pace.segment` at a time.  The result is
/// identical for any rayon pool size and any segment length.
pub fn layered_grundy(
    steps: &[u64],
    n: u64,
    min_target: u64,
    table: &mut PackedValues,
    done: u64,
    pace: Pace,
) -> Result<StepEnd, LayeredGrundyError> {
    if steps.contains(&0) {
        return Err(LayeredGrundyError::ZeroStep);
    }
    let total = usize::try_from(n).map_err(|_| LayeredGrundyError::TooLarge)?;
    assert!(table.len() >= n, "table too short");
    let shift = min_target.min(n) as usize;
    // g(p) = G(p - min_target) for p >= min_target, where G is the plain game.
    let m = total - shift;
    let mut st: Vec<usize> = steps
        .iter()
        .filter(|&&s| s < m as u64)
        .map(|&s| s as usize)
        .collect();
    st.sort_unstable();
    st.dedup();
    let segment = usize::try_from(pace.segment.max(1)).unwrap_or(usize::MAX);
    let mut a = (done as usize).saturating_sub(shift).min(m);
    while a < m {
        let b = a.saturating_add(segment).min(m);
        let seg_steps = &st[..st.partition_point(|&s| s < b)];
        let resolved = |k: usize| (pace.resolved)((a + shift + k.min(b - a)) as u64);
        let watch = Watch {
            abandon: pace.abandon,
            resolved: &resolved,
        };
        let Some(values) = layered(seg_steps, table, shift, a, b, watch).map_err(|p| {
            LayeredGrundyError::ValueOverflow {
                position: (p + shift) as u64,
            }
        })?
        else {
            return Ok(StepEnd::Stopped {
                at: (a + shift) as u64,
            });
        };
        // The segment's sieve starts at a block boundary: values below `a` were recomputed.
        let values = &values[values.len() - (b - a)..];
        let largest = u32::from(values.iter().copied().max().unwrap_or(0));
        if largest > table.capacity() {
            crate::engine::resumable::widen(
                table,
                PackedValues::bits_for(largest),
                (a + shift) as u64,
            )
            .map_err(LayeredGrundyError::Table)?;
        }
        for (p, &v) in (a..b).zip(values) {
            table.set((p + shift) as u64, v.into());
        }
        a = b;
        if a < m && (pace.stop)((a + shift) as u64).is_break() {
            return Ok(StepEnd::Stopped {
                at: (a + shift) as u64,
            });
        }
    }
    Ok(StepEnd::Completed)
}
