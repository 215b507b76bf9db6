//! The options of one heap of any size, fewest objects removed first, listed lazily (a heap of
//! 10^12 in Nim has 10^12 options; the caller takes as many as it can afford).

use super::sum::OPTION_BUDGET;
use crate::game::code::Visit;
use crate::game::{Game, Rule, TakeBreak, TakeBreakOption, Window, WindowRule, divisors_of};

/// One option of a heap: one heap (0 when nothing is left), two heaps a ≤ b, three a ≤ b ≤ c,
/// or, for rules written down, four heaps or more, ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapOption {
    /// One heap of this size (0: nothing left).
    One(u64),
    /// Two non-empty heaps (a, b), a ≤ b.
    Two(u64, u64),
    /// Three non-empty heaps (a, b, c), a ≤ b ≤ c.
    Three(u64, u64, u64),
    /// Four non-empty heaps or more, ascending.
    Many(Vec<u64>),
}

impl From<TakeBreakOption> for HeapOption {
    fn from(option: TakeBreakOption) -> HeapOption {
        match option {
            TakeBreakOption::One(m) => HeapOption::One(m),
            TakeBreakOption::Two(a, b) => HeapOption::Two(a, b),
            TakeBreakOption::Three(a, b, c) => HeapOption::Three(a, b, c),
        }
    }
}

/// Steps of a subtraction set listed beyond this are not listed: past the options any heap
/// has examined (2^24 primes lie below 3.2·10^8).
const STEP_LIMIT: u64 = 320_000_000;

/// The options of the heaps of one game.
#[derive(Debug)]
pub struct HeapOptions {
    rule: Rule,
    min_target: u64,
    /// The steps below `steps_below` of a subtraction set listed element by element (every
    /// step of the set when it is None).
    steps: Vec<u64>,
    steps_below: Option<u64>,
}

impl HeapOptions {
    /// The options of `game`'s heaps up to `largest`.
    pub fn new(game: &Game, largest: u64) -> HeapOptions {
        let (steps, steps_below) = match &game.rule {
            Rule::Subtraction(set) if set.window_rule().is_none() => match set.ascending() {
                // At most one step more than a heap's options examined.
                Some(ascending) => {
                    let steps: Vec<u64> = ascending
                        .take_while(|&s| s <= largest)
                        .take(OPTION_BUDGET + 1)
                        .collect();
                    let below = (steps.len() > OPTION_BUDGET).then(|| steps[OPTION_BUDGET]);
                    (steps, below)
                }
                None => {
                    let below = largest.saturating_add(1).min(STEP_LIMIT);
                    (set.elements_below(below), Some(below))
                }
            },
            _ => (Vec::new(), None),
        };
        HeapOptions {
            rule: game.rule.clone(),
            min_target: game.min_target(),
            steps,
            steps_below,
        }
    }

    /// The window of options of n, for the rules whose options form one.
    fn window(&self, n: u64) -> Option<Window> {
        let rule = match &self.rule {
            Rule::Subtraction(set) => set.window_rule()?,
            Rule::Half => WindowRule::Half,
            Rule::EvenIfNotAll => WindowRule::EvenIfNotAll,
            _ => return None,
        };
        Some(rule.window(n, self.min_target))
    }

    /// Every option of a heap of n, fewest objects removed first (for take-and-break games, the
    /// heap left by each removal before its splits), as far as [`HeapOptions::lists_all`]
    /// says.
    pub fn options(&self, n: u64) -> Box<dyn Iterator<Item = HeapOption> + '_> {
        if let Some(window) = self.window(n) {
            return Box::new(window.into_descending().map(HeapOption::One));
        }
        match &self.rule {
            Rule::Subtraction(_) => Box::new(
                self.steps
                    .iter()
                    .take_while(move |&&s| s <= n && n - s >= self.min_target)
                    .map(move |&s| HeapOption::One(n - s)),
            ),
            Rule::Divisor(rule) if n > 0 => {
                let mut options: Vec<u64> = divisors_of(n)
                    .into_iter()
                    .filter_map(|d| rule.option(n, d))
                    .filter(|&m| m >= self.min_target)
                    .collect();
                options.sort_unstable_by_key(|&m| std::cmp::Reverse(m));
                Box::new(options.into_iter().map(HeapOption::One))
            }
            Rule::TakeBreak(code) => Box::new(code.options(n).map(HeapOption::from)),
            Rule::General(general) => {
                // At most one option more than eval examines.
                let mut listed = Vec::new();
                general
                    .compile(n.saturating_add(1))
                    .for_each_option(n, &mut |heaps| {
                        let option = match *heaps {
                            [] => HeapOption::One(0),
                            [a] => HeapOption::One(a),
                            [a, b] => HeapOption::Two(a, b),
                            [a, b, c] => HeapOption::Three(a, b, c),
                            _ => HeapOption::Many(heaps.to_vec()),
                        };
                        listed.push(option);
                        match listed.len() > OPTION_BUDGET {
                            true => Visit::Break(()),
                            false => Visit::Continue(()),
                        }
                    });
                Box::new(listed.into_iter())
            }
            _ => Box::new(std::iter::empty()),
        }
    }

    /// The options of a heap of n that split it (take-and-break games): into two, then into
    /// three heaps, each by increasing removal.
    pub fn splits(&self, n: u64) -> Box<dyn Iterator<Item = HeapOption> + '_> {
        match &self.rule {
            Rule::TakeBreak(code) => Box::new(
                code.splits(n)
                    .map(|(a, b)| HeapOption::Two(a, b))
                    .chain(self.three_way_splits(n)),
            ),
            _ => Box::new(std::iter::empty()),
        }
    }

    /// The options of a heap of n that split it into three heaps (hexadecimal codes), by
    /// increasing removal.
    pub fn three_way_splits(&self, n: u64) -> Box<dyn Iterator<Item = HeapOption> + '_> {
        match &self.rule {
            Rule::TakeBreak(code) => Box::new(
                code.three_way_splits(n)
                    .map(|[a, b, c]| HeapOption::Three(a, b, c)),
            ),
            _ => Box::new(std::iter::empty()),
        }
    }

    /// The code of a take-and-break game with a largest removal (not Lasker's Nim).
    pub fn finite_code(&self) -> Option<&TakeBreak> {
        match &self.rule {
            Rule::TakeBreak(code) if code.last_removal().is_some() => Some(code),
            _ => None,
        }
    }

    /// False when [`HeapOptions::options`] leaves out options of n: steps of a listed
    /// subtraction set past the options examined, or primes past 3.2·10^8.
    pub fn lists_all(&self, n: u64) -> bool {
        self.steps_below.is_none_or(|below| n < below)
    }

    /// Whether m is a one-heap option of n, for the rules that answer at once (windows of
    /// positions, and take-and-break codes); None for the others.
    pub fn has_one_heap_option(&self, n: u64, m: u64) -> Option<bool> {
        if let Some(window) = self.window(n) {
            return Some(window.contains(m));
        }
        match &self.rule {
            Rule::TakeBreak(code) => Some(m < n && code.one_heap_after(n, n - m).is_some()),
            _ => None,
        }
    }
}
