//! A game's moves compiled for positions below a bound: explicit step lists, divisor lists, or
//! windows of consecutive positions for rules whose option sets grow with n.

use super::divisor::{DivisorRule, SmallestFactors};
use super::{Rule, TakeBreak};

/// The options of every position below a bound, in the form that suits the rule.
#[derive(Debug, Clone)]
pub enum Moves {
    /// n → n − s for each step s ≤ n − min_target; `steps` sorted ascending.
    Steps {
        /// The subtraction set's elements below the bound.
        steps: Vec<u64>,
        /// The smallest position a move may reach.
        min_target: u64,
    },
    /// Options are a window of positions (see [`Window`]).
    Window {
        /// Which window each position has.
        rule: WindowRule,
        /// The smallest position a move may reach.
        min_target: u64,
    },
    /// Options come from the divisors of n.
    Divisor {
        /// Which divisor rule.
        rule: DivisorRule,
        /// Smallest prime factors below the bound.
        factors: SmallestFactors,
        /// The smallest position a move may reach.
        min_target: u64,
    },
    /// A take-and-break game: options of one heap, and splits into two ([`Moves::splits`]);
    /// splits into three, too many to list, are [`TakeBreak::three_way_splits`].
    TakeBreak(TakeBreak),
}

/// Rules whose options form a window of positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowRule {
    /// Every step except the listed ones (Nim when the list is empty).
    CoFinite(Vec<u64>),
    /// Steps 1..=k.
    Bachet(u64),
    /// Remove 1..=n/2.
    Half,
    /// Remove an even number leaving at least one, or everything when n is odd.
    EvenIfNotAll,
}

/// The options of one position: the positions lo, lo+step, … below hi, less `except`, plus
/// `extra`. As n grows, lo and hi of each residue class mod step never decrease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// First position of the window.
    pub lo: u64,
    /// End of the window (exclusive).
    pub hi: u64,
    /// Distance between positions of the window (1 or 2).
    pub step: u64,
    /// Positions of the window that are not options.
    pub except: Vec<u64>,
    /// One option outside the window.
    pub extra: Option<u64>,
}

impl Window {
    /// Every option, window positions first.
    pub fn positions(&self) -> impl Iterator<Item = u64> + '_ {
        (self.lo..self.hi.max(self.lo))
            .step_by(self.step as usize)
            .filter(|m| !self.except.contains(m))
            .chain(self.extra)
    }

    /// Every option, nearest first: the window from its top down, then `extra` (lazily, for
    /// windows of any size).
    pub fn into_descending(self) -> impl Iterator<Item = u64> {
        let count = self.hi.saturating_sub(self.lo).div_ceil(self.step);
        let Window {
            lo,
            step,
            except,
            extra,
            ..
        } = self;
        (0..count)
            .map(move |i| lo + (count - 1 - i) * step)
            .filter(move |m| !except.contains(m))
            .chain(extra)
    }

    /// True when `m` is an option.
    pub fn contains(&self, m: u64) -> bool {
        let in_window = (self.lo..self.hi).contains(&m) && (m - self.lo).is_multiple_of(self.step);
        (in_window && !self.except.contains(&m)) || self.extra == Some(m)
    }
}

impl WindowRule {
    /// The options of `n` when moves must reach at least `min_target`.
    pub fn window(&self, n: u64, min_target: u64) -> Window {
        let (lo, hi, step, except, extra) = match self {
            WindowRule::CoFinite(excluded) => {
                let except = excluded
                    .iter()
                    .filter(|&&e| e <= n && n - e >= min_target)
                    .map(|&e| n - e)
                    .collect();
                (min_target, n, 1, except, None)
            }
            WindowRule::Bachet(k) => (n.saturating_sub(*k), n, 1, Vec::new(), None),
            WindowRule::Half => (n.div_ceil(2), n, 1, Vec::new(), None),
            WindowRule::EvenIfNotAll => {
                let whole = (n % 2 == 1).then_some(0);
                (2 - n % 2, n.saturating_sub(1), 2, Vec::new(), whole)
            }
        };
        Window {
            lo: lo.max(min_target),
            hi,
            step,
            except,
            extra: extra.filter(|&m| m >= min_target),
        }
    }
}

impl Moves {
    /// Compiles `rule` for positions below `bound`.
    pub fn new(rule: &Rule, min_target: u64, bound: u64) -> Moves {
        let window = |rule| Moves::Window { rule, min_target };
        match rule {
            Rule::Subtraction(set) => match set.window_rule() {
                Some(rule) => window(rule),
                None => Moves::Steps {
                    steps: set.elements_below(bound),
                    min_target,
                },
            },
            Rule::Divisor(rule) => Moves::Divisor {
                rule: *rule,
                factors: SmallestFactors::below(bound),
                min_target,
            },
            Rule::Half => window(WindowRule::Half),
            Rule::EvenIfNotAll => window(WindowRule::EvenIfNotAll),
            Rule::TakeBreak(code) => Moves::TakeBreak(code.clone()),
            // A game of two heaps has no one-heap moves (no engine takes its one-heap table);
            // rules written down list theirs through `General::compile`.
            Rule::Wythoff | Rule::General(_) => Moves::Steps {
                steps: Vec::new(),
                min_target,
            },
        }
    }

    /// Appends every option of `n` that splits it into two heaps (a, b), a ≤ b, to `out`: none
    /// but for take-and-break games.
    pub fn splits(&self, n: u64, out: &mut Vec<(u64, u64)>) {
        if let Moves::TakeBreak(code) = self {
            code.split_options(n, out);
        }
    }

    /// Appends every option of `n` (n below the bound) that leaves one heap to `out` (the
    /// splits of a take-and-break game are [`Moves::splits`]).
    pub fn options(&self, n: u64, out: &mut Vec<u64>) {
        match self {
            Moves::Steps { steps, min_target } => out.extend(
                steps
                    .iter()
                    .take_while(|&&s| s + min_target <= n)
                    .map(|&s| n - s),
            ),
            Moves::Window { rule, min_target } => {
                out.extend(rule.window(n, *min_target).positions())
            }
            Moves::Divisor {
                rule,
                factors,
                min_target,
            } => {
                if n == 0 {
                    return;
                }
                let start = out.len();
                factors.divisors(n, out);
                rule.keep_options(n, out, start, *min_target);
            }
            Moves::TakeBreak(code) => code.one_heap_options(n, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WindowRule;

    #[test]
    fn windows_list_and_contain_the_same_positions() {
        let rules = [
            WindowRule::CoFinite(vec![]),
            WindowRule::CoFinite(vec![2, 5]),
            WindowRule::Bachet(3),
            WindowRule::Half,
            WindowRule::EvenIfNotAll,
        ];
        for rule in rules {
            for min_target in [0, 1] {
                for n in 0..30 {
                    let window = rule.window(n, min_target);
                    let mut listed: Vec<u64> = window.positions().collect();
                    let mut descending: Vec<u64> = window.clone().into_descending().collect();
                    let contained: Vec<u64> = (0..40).filter(|&m| window.contains(m)).collect();
                    listed.sort_unstable();
                    descending.sort_unstable();
                    assert_eq!(listed, contained, "{rule:?} at {n}");
                    assert_eq!(descending, contained, "{rule:?} at {n}");
                }
            }
        }
    }
}
