//! A misère sum of heaps through the game's misère quotient: the product of the heaps'
//! elements decides the outcome, and a move wins when it leaves a product in the P-portion.
//! Heaps past those computed take their element from the proven period of the heaps' elements.

use super::Outcome;
use super::heap_options::HeapOptions;
use super::sum::{HeapMove, LISTED_WHEN_PARTIAL, OPTION_BUDGET};
use crate::error::{Error, Result};
use crate::misere::{DEFAULT_MAX_SIZE, Quotient};
use serde::Serialize;

/// The most heaps whose quotient eval computes: larger heaps need a proven period.
pub const QUOTIENT_HEAPS: u64 = 2048;

/// The evaluation of a misère sum through the quotient (the JSON of `eval GAME+misere`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MisereEvaluation {
    /// The canonical game spec, ending in `+misere`.
    pub game: String,
    /// The heap sizes.
    pub heaps: Vec<u64>,
    /// Each heap's element of the quotient (its normal form).
    pub elements: Vec<String>,
    /// The element of the whole position.
    pub element: String,
    /// The quotient's size and the heaps it was computed for (below this).
    pub quotient_size: usize,
    /// The quotient is that of the heaps below this.
    pub heaps_below: u64,
    /// P when the player to move loses (misère play: whoever cannot move wins).
    pub outcome: Outcome,
    /// The moves to a P-position, by heap, then by the objects left, a move leaving one heap
    /// before the splits leaving as many.
    pub winning_moves: Vec<HeapMove>,
    /// False when some heap has more options than eval examines.
    pub all_winning_moves: bool,
}

/// Evaluates the misère sum `heaps` of the game `spec` (a one-heap game, `+misere` given).
pub fn evaluate(spec: &str, heaps: &[u64]) -> Result<MisereEvaluation> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let n = largest.saturating_add(1).min(QUOTIENT_HEAPS);
    let q = Quotient::compute(spec, n, DEFAULT_MAX_SIZE)?;
    let element = |h: u64| {
        q.element(h).ok_or_else(|| {
            Error::Input(format!(
                "heap {h} is past the {n} heaps whose misère quotient eval computes, and the heaps' elements have no proven period there; use heaps below {n}"
            ))
        })
    };
    let elements = heaps
        .iter()
        .map(|&h| element(h))
        .collect::<Result<Vec<u32>>>()?;
    let total = elements.iter().fold(0, |acc, &x| q.mul(acc, x));
    let outcome = Outcome::of(q.is_p(total));
    let options = HeapOptions::new(q.game(), largest);
    let mut winning_moves = Vec::new();
    let mut all_winning_moves = true;
    if outcome == Outcome::N {
        for (i, &from) in heaps.iter().enumerate() {
            let rest = elements
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(0, |acc, (_, &x)| q.mul(acc, x));
            let mut found = Vec::new();
            let mut all = options.lists_all(from);
            for (examined, option) in options.options(from).enumerate() {
                if examined == OPTION_BUDGET {
                    all = false;
                    break;
                }
                let move_ = HeapMove::of(i, from, option);
                let parts = move_.split.clone().unwrap_or_else(|| vec![move_.to]);
                let left = parts
                    .iter()
                    .try_fold(rest, |acc, &h| Ok::<_, Error>(q.mul(acc, element(h)?)))?;
                if q.is_p(left) {
                    found.push(move_);
                }
            }
            if !all {
                found.truncate(LISTED_WHEN_PARTIAL);
            }
            all_winning_moves &= all;
            winning_moves.extend(found);
        }
    }
    winning_moves.sort_unstable();
    Ok(MisereEvaluation {
        game: q.spec(),
        heaps: heaps.to_vec(),
        elements: elements.iter().map(|&x| q.name(x)).collect(),
        element: q.name(total),
        quotient_size: q.size(),
        heaps_below: n,
        outcome,
        winning_moves,
        all_winning_moves,
    })
}
