//! Evaluation of a position of several heaps: heap values, nim-sum, outcome and every winning move.

use crate::engine;
use crate::error::{Error, Result};
use crate::game::{Game, Moves, Play, Rule, SubtractionSet};
use crate::progress::Progress;
use serde::Serialize;

/// Who wins a position with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// The previous player (the one who just moved) wins.
    P,
    /// The next player (the one to move) wins.
    N,
}

/// One move of a multi-heap position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct HeapMove {
    /// Index of the heap, from 0.
    pub heap: usize,
    /// Its size before the move.
    pub from: u64,
    /// The objects left of it after the move (in the two heaps of a split).
    pub to: u64,
    /// Take-and-break games: the two heaps (a ≤ b, a + b = `to`) when the move splits what is
    /// left; absent for a move that leaves one heap (or none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<[u64; 2]>,
}

/// The evaluation of a position (the JSON form of `nimsieve eval --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// The Grundy value of each heap.
    pub values: Vec<u32>,
    /// The XOR of the values.
    pub nim_sum: u32,
    /// P when the player to move loses.
    pub outcome: Outcome,
    /// Every move to a P-position, by heap, then by the objects left, a move leaving one heap
    /// before the splits leaving as many, splits by their smaller heap.
    pub winning_moves: Vec<HeapMove>,
}

/// Evaluates the sum of one-heap games `heaps` of `game`.
///
/// Normal play uses Sprague–Grundy: the moves to a heap of value g(h) XOR nim-sum win, whatever
/// that value's size relative to g(h). Misère sums are not determined by heap outcomes, so misère
/// play is supported for Nim only (Bouton's misère rule).
pub fn evaluate(game: &Game, heaps: &[u64]) -> Result<Evaluation> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let bound = largest
        .checked_add(1)
        .ok_or_else(|| Error::Input("heap too large".into()))?;
    let is_nim = matches!(game.rule, Rule::Subtraction(SubtractionSet::Nim)) && !game.leave1;
    if game.play == Play::Misere && !is_nim {
        return Err(Error::Input(format!(
            "eval supports misère play only for 'nim+misere': a misère sum of '{}' is not determined by its heaps' outcomes",
            game.spec
        )));
    }
    let normal = Game {
        play: Play::Normal,
        ..game.clone()
    };
    let table = engine::choose(&normal, bound).grundy(
        &normal,
        bound,
        false,
        Default::default(),
        &Progress::hidden(),
    )?;
    let value = |h: u64| table.get(h);
    let values: Vec<u32> = heaps.iter().map(|&h| value(h)).collect();
    let nim_sum = values.iter().fold(0, |acc, v| acc ^ v);
    let is_p = |sizes: &[u64], sum: u32| match game.play {
        Play::Normal => sum == 0,
        Play::Misere if sizes.iter().all(|&h| h <= 1) => sizes.iter().sum::<u64>() % 2 == 1,
        Play::Misere => sum == 0,
    };
    let moves: Moves = normal.moves(bound);
    let mut winning_moves = Vec::new();
    let mut options = Vec::new();
    let mut splits = Vec::new();
    let mut after = heaps.to_vec();
    for (heap, &from) in heaps.iter().enumerate() {
        options.clear();
        moves.options(from, &mut options);
        for &to in &options {
            after[heap] = to;
            if is_p(&after, nim_sum ^ value(from) ^ value(to)) {
                winning_moves.push(HeapMove {
                    heap,
                    from,
                    to,
                    split: None,
                });
            }
        }
        after[heap] = from;
        // Splits exist only in take-and-break games, which are played normally.
        splits.clear();
        moves.splits(from, &mut splits);
        for &(a, b) in &splits {
            if nim_sum ^ value(from) ^ value(a) ^ value(b) == 0 {
                winning_moves.push(HeapMove {
                    heap,
                    from,
                    to: a + b,
                    split: Some([a, b]),
                });
            }
        }
    }
    winning_moves.sort_unstable();
    Ok(Evaluation {
        outcome: if is_p(heaps, nim_sum) {
            Outcome::P
        } else {
            Outcome::N
        },
        values,
        nim_sum,
        winning_moves,
    })
}
