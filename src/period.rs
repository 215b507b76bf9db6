//! Exact periodicity of value sequences, proven from a finite table by a criterion that the
//! game's recurrence justifies ([`Criterion`]).
//!
//! For a finite subtraction set with largest element m, g(x) is a fixed function of
//! g(x−m..x) once every step is legal at x (x ≥ `uniform_from`). Then if g(x+p) = g(x) on a
//! window of m consecutive positions x0..x0+m with x0 + m ≥ `uniform_from`, it holds for every
//! x ≥ x0 (induction). For a take-and-break code whose largest removal is t, Guy and Smith's
//! criterion applies instead: g(n + p) = g(n) for n0 ≤ n < 2·n0 + p + t proves it for every
//! n ≥ n0 (a split of n + p ≥ 2·n0 + 2p + t, less j ≤ t, has a part of at least n0 + p, which
//! shifts down by p; a split of n has a part of at least n0, which shifts up). The search
//! below returns the smallest period proven and the smallest preperiod for it; a sequence
//! proven periodic with some period is proven with its smallest, since the smallest needs no
//! more data.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A proven eventual period: g(x + period) = g(x) for every x ≥ preperiod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    /// The smallest x0 from which the sequence repeats.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
}

/// What proves a period from a finite table of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Criterion {
    /// g(x) is a fixed function of the `window` values before it from `uniform_from` on
    /// (finite subtraction sets).
    Window {
        /// How far back the recurrence looks.
        window: u64,
        /// The first position from which every move is legal.
        uniform_from: u64,
    },
    /// A take-and-break code whose largest removal is `last_removal` (Guy–Smith).
    ///
    /// With `unequal_splits` (the removals after which a split must leave two different
    /// heaps, `+unequal`), shifting a split of n + p down by p can give an equal split, which
    /// is forbidden: n + p has the option (a, a + p), of value 0 once a ≥ n0, where n has no
    /// option (a, a). The values then agree unless g(n) = 0 and n − j is even for such a j,
    /// so a period is accepted only when no zero of its periodic part meets that: none when
    /// p is odd (n and n + p take both parities), none with x − j even when p is even.
    TakeBreak {
        /// The largest number of objects a move removes.
        last_removal: u64,
        /// The removals j followed by a split that must be unequal (empty without `+unequal`).
        unequal_splits: Vec<u64>,
    },
}

impl Criterion {
    /// The fewest positions that prove a period `p` from `preperiod`.
    pub fn proof_length(&self, p: Period) -> u64 {
        match *self {
            Criterion::Window {
                window,
                uniform_from,
            } => p.preperiod.max(uniform_from.saturating_sub(window)) + window.max(1) + p.period,
            Criterion::TakeBreak { last_removal, .. } => {
                2 * p.preperiod + 2 * p.period + last_removal
            }
        }
    }

    /// True when the periodic part's values allow the induction (see [`Criterion::TakeBreak`]).
    fn admits(&self, p: Period, value: &(impl Fn(u64) -> u32 + Sync)) -> bool {
        let Criterion::TakeBreak { unequal_splits, .. } = self else {
            return true;
        };
        if unequal_splits.is_empty() {
            return true;
        }
        let span = p.preperiod..p.preperiod + p.period;
        !span.into_par_iter().any(|x| {
            value(x) == 0
                && (!p.period.is_multiple_of(2)
                    || unequal_splits.iter().any(|j| (x + j).is_multiple_of(2)))
        })
    }
}

/// Finds the smallest proven period of `values`, whose recurrence looks back at most `window`
/// positions and is the same at every x ≥ `uniform_from`; None when `values` is too short to
/// prove any period.
pub fn find(values: &[u32], window: u64, uniform_from: u64) -> Option<Period> {
    find_by(
        values.len() as u64,
        |x| values[x as usize],
        &Criterion::Window {
            window,
            uniform_from,
        },
    )
}

/// The smallest period that `criterion` proves from the `len` values given by `value` (a
/// packed table, say), with its smallest preperiod. Candidate periods are tried in parallel;
/// each is rejected at its last mismatch, which for a wrong period lies near the end.
pub fn find_by(
    len: u64,
    value: impl Fn(u64) -> u32 + Sync,
    criterion: &Criterion,
) -> Option<Period> {
    (1..len).into_par_iter().find_map_first(|p| {
        let shortest = Period {
            preperiod: 0,
            period: p,
        };
        if criterion.proof_length(shortest) > len {
            return None;
        }
        // The last x whose value differs one period later.
        let last_mismatch = (0..len - p).rev().find(|&x| value(x) != value(x + p));
        let found = Period {
            preperiod: last_mismatch.map_or(0, |x| x + 1),
            period: p,
        };
        (criterion.proof_length(found) <= len && criterion.admits(found, &value)).then_some(found)
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
