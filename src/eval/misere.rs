//! A misère sum of heaps through the game's misère quotient: the product of the heaps'
//! elements decides the outcome, and a move wins when it leaves a product in the P-portion.
//! Heaps past those computed take their element from the proven period of the heaps' elements.

use super::Outcome;
use super::heap_options::{HeapOption, HeapOptions};
use super::split_classes::SplitClass;
use super::sum::{HeapMove, HeapWins, PositionMoves, WinningMoves};
use crate::error::{Error, Result};
use crate::misere::Quotient;
use crate::period::Period;
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
    /// The winning splits of heaps past those computed, whose elements have a proven period,
    /// by residue class of the smaller heap (by heap, removal and residue); the splits of such
    /// a heap that no class holds are in `winning_moves`.
    pub winning_classes: Vec<SplitClass>,
    /// False when some heap has more options than eval examines.
    pub all_winning_moves: bool,
}

impl WinningMoves for MisereEvaluation {
    fn listed_moves(&self) -> &[HeapMove] {
        &self.winning_moves
    }

    fn classes(&self) -> &[SplitClass] {
        &self.winning_classes
    }

    fn heap_count(&self) -> usize {
        self.heaps.len()
    }

    fn outcome(&self) -> Outcome {
        self.outcome
    }

    fn all_listed(&self) -> bool {
        self.all_winning_moves
    }
}

/// Evaluates the misère sum `heaps` of the game `spec` (a one-heap game, `+misere` given).
pub fn evaluate(spec: &str, heaps: &[u64]) -> Result<MisereEvaluation> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let n = largest.saturating_add(1).min(QUOTIENT_HEAPS);
    let q = Quotient::for_eval(spec, n)?;
    let element = |h: u64| {
        q.element(h).ok_or_else(|| {
            Error::unsupported(format!(
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
    // Past the heaps computed, a finite code's heap has its splits judged by residue class of
    // the proven period of the elements.
    let period = q.period().filter(|p| p.proven);
    let by_class = period.zip(options.finite_code());
    let mut moves = PositionMoves::new();
    if outcome == Outcome::N {
        for (i, &from) in heaps.iter().enumerate() {
            let rest = elements
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(0, |acc, (_, &x)| q.mul(acc, x));
            let mut failed = None;
            let mut wins = |option: &HeapOption| {
                let move_ = HeapMove::of(i, from, option.clone());
                let parts = move_.split.unwrap_or_else(|| vec![move_.to]);
                match parts
                    .iter()
                    .try_fold(rest, |acc, &h| Ok(q.mul(acc, element(h)?)))
                {
                    Ok(left) => q.is_p(left),
                    Err(e) => {
                        failed.get_or_insert(e);
                        false
                    }
                }
            };
            let found = match by_class.filter(|_| from >= n) {
                Some((p, code)) => {
                    let period = Period::pure(p.preperiod, p.period);
                    // A proven period gives every heap's element.
                    let e = |h: u64| q.element(h).expect("a proven period gives every element");
                    let wins_split = |a: u64, b: u64| q.is_p(q.mul(q.mul(rest, e(a)), e(b)));
                    HeapWins::by_class(code, i, from, period, &options, &mut wins, wins_split)
                }
                None => {
                    let mut found = HeapWins {
                        options: Vec::new(),
                        classes: Vec::new(),
                        all: options.lists_all(from),
                    };
                    found.examine(options.options(from), &mut wins);
                    found
                }
            };
            if let Some(e) = failed {
                return Err(e);
            }
            found.add_to(i, from, &mut moves);
        }
    }
    moves.listed.sort_unstable();
    Ok(MisereEvaluation {
        game: q.spec(),
        heaps: heaps.to_vec(),
        elements: elements.iter().map(|&x| q.name(x)).collect(),
        element: q.name(total),
        quotient_size: q.size(),
        heaps_below: n,
        outcome,
        winning_moves: moves.listed,
        winning_classes: moves.classes,
        all_winning_moves: moves.all,
    })
}
