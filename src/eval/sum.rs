//! A sum of heaps of one game (Sprague–Grundy): each heap's value and how it was found, the
//! nim-sum, the outcome and the winning moves.

use super::Outcome;
use super::heap_options::{HeapOption, HeapOptions};
use super::heap_values::{HeapValues, Method, TableOptions};
use super::split_classes::{SplitClass, winning_splits};
use crate::error::{Error, Result};
use crate::game::{Game, Play, Rule, SubtractionSet, TakeBreak};
use crate::period::Period;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The most options of one heap examined; a heap with more lists the winning moves among its
/// options with the fewest objects removed.
pub const OPTION_BUDGET: usize = 1 << 24;

/// The most winning moves listed for a heap whose options are not all examined.
pub(super) const LISTED_WHEN_PARTIAL: usize = 10_000;

/// One move of a multi-heap position.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct HeapMove {
    /// Index of the heap, from 0.
    pub heap: usize,
    /// Its size before the move.
    pub from: u64,
    /// The objects left of it after the move (in the heaps of a split).
    pub to: u64,
    /// Take-and-break games: the two heaps (a ≤ b, a + b = `to`) or, for hexadecimal codes,
    /// three heaps (a ≤ b ≤ c, a + b + c = `to`) when the move splits what is left; absent for
    /// a move that leaves one heap (or none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<Vec<u64>>,
}

impl HeapMove {
    /// The move of heap number `heap`, of size `from`, to its option `option`.
    pub fn of(heap: usize, from: u64, option: HeapOption) -> HeapMove {
        let (to, split) = match option {
            HeapOption::One(to) => (to, None),
            HeapOption::Two(a, b) => (a + b, Some(vec![a, b])),
            HeapOption::Three(a, b, c) => (a + b + c, Some(vec![a, b, c])),
            HeapOption::Many(parts) => (parts.iter().sum(), Some(parts)),
        };
        HeapMove {
            heap,
            from,
            to,
            split,
        }
    }
}

/// One heap of an evaluated sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HeapReport {
    /// The heap's size.
    pub size: u64,
    /// Its Grundy value.
    pub value: u64,
    /// How the value was found.
    pub method: Method,
}

/// The evaluation of a sum of heaps (the JSON form of `nimsieve eval -f json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumEvaluation {
    /// The canonical game spec.
    pub game: String,
    /// Each heap: size, value and method.
    pub heaps: Vec<HeapReport>,
    /// The Grundy value of each heap.
    pub values: Vec<u64>,
    /// The XOR of the values.
    pub nim_sum: u64,
    /// P when the player to move loses.
    pub outcome: Outcome,
    /// The moves to a P-position, by heap, then by the objects left, a move leaving one heap
    /// before the splits leaving as many, splits by their heaps in order (a split into three
    /// before one into two with the same smallest heap).
    pub winning_moves: Vec<HeapMove>,
    /// The winning splits of heaps beyond a table with a pure period, by residue class of the
    /// smaller heap (by heap, removal and residue); the splits of such a heap that no class
    /// holds are in `winning_moves`.
    pub winning_classes: Vec<SplitClass>,
    /// False when some heap has more options than eval examines ([`OPTION_BUDGET`]): its
    /// winning moves are then those among the options with the fewest objects removed.
    pub all_winning_moves: bool,
}

/// The winning moves of a sum of heaps: those listed one by one and the classes of splits.
pub trait WinningMoves {
    /// The moves listed one by one, sorted.
    fn listed_moves(&self) -> &[HeapMove];

    /// The winning splits by residue class of the smaller heap.
    fn classes(&self) -> &[SplitClass];

    /// The number of heaps of the position.
    fn heap_count(&self) -> usize;

    /// Who wins the position.
    fn outcome(&self) -> Outcome;

    /// False when some heap has more options than eval examines.
    fn all_listed(&self) -> bool;

    /// The number of winning moves, the members of every class included.
    fn winning_move_count(&self) -> u128 {
        let classes: u128 = self.classes().iter().map(|c| u128::from(c.count)).sum();
        self.listed_moves().len() as u128 + classes
    }

    /// Every winning move in the order of the listed moves, the classes expanded lazily.
    fn all_moves(&self) -> impl Iterator<Item = HeapMove> + '_ {
        let mut streams: Vec<Box<dyn Iterator<Item = HeapMove> + '_>> =
            vec![Box::new(self.listed_moves().iter().cloned())];
        streams.extend(
            self.classes()
                .iter()
                .map(|c| Box::new(c.moves()) as Box<dyn Iterator<Item = HeapMove>>),
        );
        merge(streams)
    }
}

impl WinningMoves for SumEvaluation {
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

/// The items of sorted streams, in order.
fn merge<'a, T: Ord + 'a>(
    mut streams: Vec<Box<dyn Iterator<Item = T> + 'a>>,
) -> impl Iterator<Item = T> + 'a {
    let mut heads: BinaryHeap<Reverse<(T, usize)>> = streams
        .iter_mut()
        .enumerate()
        .filter_map(|(i, s)| s.next().map(|x| Reverse((x, i))))
        .collect();
    std::iter::from_fn(move || {
        let Reverse((x, i)) = heads.pop()?;
        if let Some(next) = streams[i].next() {
            heads.push(Reverse((next, i)));
        }
        Some(x)
    })
}

/// Evaluates the sum of heaps `heaps` of `game`.
///
/// Normal play uses Sprague–Grundy: the moves to a heap of value g(h) XOR nim-sum win, whatever
/// that value's size relative to g(h). Misère sums are not determined by heap outcomes, so
/// misère play is supported for Nim only (Bouton's misère rule).
pub fn evaluate(game: &Game, heaps: &[u64], tables: &TableOptions) -> Result<SumEvaluation> {
    let is_nim = matches!(game.rule, Rule::Subtraction(SubtractionSet::Nim)) && !game.leave1;
    let misere = game.play == Play::Misere;
    if misere && !is_nim {
        return Err(Error::unsupported(format!(
            "eval supports misère play only for 'nim+misere': a misère sum of '{}' is not determined by its heaps' outcomes",
            game.spec
        )));
    }
    let normal = Game {
        play: Play::Normal,
        ..game.clone()
    };
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let values = HeapValues::new(&normal, largest, tables)?;
    let options = HeapOptions::new(&normal, largest);
    let heap_values: Vec<u64> = heaps.iter().map(|&h| values.value(h)).collect();
    let nim_sum = heap_values.iter().fold(0, |acc, v| acc ^ v);
    let is_p = |after: &[u64], sum: u64| match misere {
        true if after.iter().all(|&h| h <= 1) => after.iter().sum::<u64>() % 2 == 1,
        _ => sum == 0,
    };
    let outcome = if is_p(heaps, nim_sum) {
        Outcome::P
    } else {
        Outcome::N
    };
    let mut moves = PositionMoves::new();
    if outcome == Outcome::N {
        let mut after = heaps.to_vec();
        for (heap, &from) in heaps.iter().enumerate() {
            let target = heap_values[heap] ^ nim_sum;
            let wins = |option: &HeapOption| match *option {
                HeapOption::One(to) => {
                    after[heap] = to;
                    is_p(&after, nim_sum ^ heap_values[heap] ^ values.value(to))
                }
                HeapOption::Two(a, b) => values.value(a) ^ values.value(b) == target,
                HeapOption::Three(a, b, c) => {
                    values.value(a) ^ values.value(b) ^ values.value(c) == target
                }
                HeapOption::Many(ref parts) => {
                    parts.iter().fold(0, |v, &h| v ^ values.value(h)) == target
                }
            };
            let found = heap_moves(heap, from, target, misere, &values, &options, wins);
            after[heap] = from;
            found.add_to(heap, from, &mut moves);
        }
    }
    moves.listed.sort_unstable();
    Ok(SumEvaluation {
        game: game.spec.clone(),
        heaps: heaps
            .iter()
            .zip(&heap_values)
            .map(|(&size, &value)| HeapReport {
                size,
                value,
                method: values.method(size),
            })
            .collect(),
        values: heap_values,
        nim_sum,
        outcome,
        winning_moves: moves.listed,
        winning_classes: moves.classes,
        all_winning_moves: moves.all,
    })
}

/// The winning moves of a position, heap by heap.
pub(super) struct PositionMoves {
    /// The moves listed one by one.
    pub listed: Vec<HeapMove>,
    /// The splits by residue class.
    pub classes: Vec<SplitClass>,
    /// Whether these are all the winning moves.
    pub all: bool,
}

impl PositionMoves {
    /// No move yet, every one found so far.
    pub fn new() -> PositionMoves {
        PositionMoves {
            listed: Vec::new(),
            classes: Vec::new(),
            all: true,
        }
    }
}

/// The winning moves of one heap.
pub(super) struct HeapWins {
    /// The winning options listed one by one.
    pub options: Vec<HeapOption>,
    /// The winning splits by residue class.
    pub classes: Vec<SplitClass>,
    /// Whether these are all the winning moves.
    pub all: bool,
}

impl HeapWins {
    /// The winning options of heap number `heap`, of size `from`, of a finite take-and-break
    /// `code` whose values (or misère elements) have the pure `period` at `from` and past it:
    /// the few one-heap options that `wins` accepts, the splits into two by residue class as
    /// `wins_split(a, b)` decides (it may depend only on a and b modulo the period from the
    /// preperiod on), and the splits into three examined, at most [`OPTION_BUDGET`] of them.
    pub fn by_class(
        code: &TakeBreak,
        heap: usize,
        from: u64,
        period: Period,
        options: &HeapOptions,
        mut wins: impl FnMut(&HeapOption) -> bool,
        wins_split: impl Fn(u64, u64) -> bool,
    ) -> HeapWins {
        let mut one_heap = Vec::new();
        code.one_heap_options(from, &mut one_heap);
        let mut found: Vec<HeapOption> = one_heap
            .into_iter()
            .map(HeapOption::One)
            .filter(|option| wins(option))
            .collect();
        let (singles, classes) = winning_splits(code, heap, from, period, wins_split);
        found.extend(singles);
        let mut found = HeapWins {
            options: found,
            classes,
            all: true,
        };
        found.examine(options.three_way_splits(from), wins);
        found
    }

    /// Adds these winning moves of heap number `heap`, of size `from`, to those of a position.
    pub fn add_to(self, heap: usize, from: u64, moves: &mut PositionMoves) {
        moves.all &= self.all;
        moves.classes.extend(self.classes);
        (moves.listed)
            .extend((self.options.into_iter()).map(|option| HeapMove::of(heap, from, option)));
    }

    /// Adds the options of `scan` that `wins` accepts, at most [`OPTION_BUDGET`] of them
    /// examined; past that, keeps only [`LISTED_WHEN_PARTIAL`] and notes that not all are
    /// listed.
    pub fn examine(
        &mut self,
        scan: impl Iterator<Item = HeapOption>,
        mut wins: impl FnMut(&HeapOption) -> bool,
    ) {
        for (examined, option) in scan.enumerate() {
            if examined == OPTION_BUDGET {
                self.all = false;
                break;
            }
            if wins(&option) {
                self.options.push(option);
            }
        }
        if !self.all {
            self.options.truncate(LISTED_WHEN_PARTIAL);
        }
    }
}

/// The winning options of heap number `heap`, of size `from`, whose winning one-heap options
/// have value `target` (normal play), as `wins` decides, and whether they are all of them.
///
/// When the closed form lists the positions of `target` and the rule tells its one-heap
/// options at once, those positions are the candidates (with 0 and 1 in misère Nim, where a
/// move to them can win otherwise); only splits are then searched. A take-and-break heap
/// beyond a table with a pure period has its few one-heap options examined and its splits into
/// two found by residue class. Otherwise the options are examined fewest objects removed
/// first, at most [`OPTION_BUDGET`] of them (splits into three included).
fn heap_moves(
    heap: usize,
    from: u64,
    target: u64,
    misere: bool,
    values: &HeapValues,
    options: &HeapOptions,
    mut wins: impl FnMut(&HeapOption) -> bool,
) -> HeapWins {
    if let Some((period, code)) = values.pure_period_past(from).zip(options.finite_code()) {
        let wins_split = |a: u64, b: u64| values.value(a) ^ values.value(b) == target;
        return HeapWins::by_class(code, heap, from, period, options, wins, wins_split);
    }
    let candidates = values
        .closed_form()
        .and_then(|form| form.positions_of_value(target))
        .filter(|_| options.has_one_heap_option(from, 0).is_some());
    let mut found = HeapWins {
        options: Vec::new(),
        classes: Vec::new(),
        all: true,
    };
    let scan = if let Some(mut candidates) = candidates {
        if misere {
            candidates.extend([0, 1]);
            candidates.sort_unstable();
            candidates.dedup();
        }
        found.options.extend(
            candidates
                .into_iter()
                .filter(|&m| options.has_one_heap_option(from, m) == Some(true))
                .map(HeapOption::One)
                .filter(|option| wins(option)),
        );
        options.splits(from)
    } else {
        found.all = options.lists_all(from);
        options.options(from)
    };
    found.examine(scan, wins);
    found
}
