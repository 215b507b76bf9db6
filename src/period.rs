//! Exact periodicity of value sequences whose recurrence looks back a bounded distance.
//!
//! For a finite subtraction set with largest element m, g(x) is a fixed function of
//! g(x−m..x) once every step is legal at x (x ≥ `uniform_from`). Then if g(x+p) = g(x) on a
//! window of m consecutive positions x0..x0+m with x0 + m ≥ `uniform_from`, it holds for every
//! x ≥ x0 (induction). The search below returns the smallest period proven that way and the
//! smallest preperiod for it; a sequence proven periodic with some period is proven with its
//! smallest, since the smallest needs no more data.

use serde::{Deserialize, Serialize};

/// A proven eventual period: g(x + period) = g(x) for every x ≥ preperiod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    /// The smallest x0 from which the sequence repeats.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
}

/// Finds the smallest proven period of `values`, whose recurrence looks back at most `window`
/// positions and is the same at every x ≥ `uniform_from`; None when `values` is too short to
/// prove any period.
pub fn find(values: &[u32], window: u64, uniform_from: u64) -> Option<Period> {
    find_by(
        values.len() as u64,
        |x| values[x as usize],
        window,
        uniform_from,
    )
}

/// [`find`] for the `len` values given by `value` (a packed table, say).
pub fn find_by(
    len: u64,
    value: impl Fn(u64) -> u32,
    window: u64,
    uniform_from: u64,
) -> Option<Period> {
    let window = window.max(1);
    (1..len).find_map(|p| {
        // The last x whose value differs one period later.
        let last_mismatch = (0..len - p).rev().find(|&x| value(x) != value(x + p));
        let preperiod = last_mismatch.map_or(0, |x| x + 1);
        let proof_start = preperiod.max(uniform_from.saturating_sub(window));
        (proof_start + window + p <= len).then_some(Period {
            preperiod,
            period: p,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{Period, find};

    #[test]
    fn finds_period_and_preperiod() {
        let seq = [5, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1];
        assert_eq!(
            find(&seq, 3, 3),
            Some(Period {
                preperiod: 1,
                period: 3
            })
        );
        assert_eq!(find(&seq[..5], 3, 3), None, "too short to prove");
        assert_eq!(
            find(&[7; 6], 2, 2),
            Some(Period {
                preperiod: 0,
                period: 1
            })
        );
    }
}
