//! The splits into two of a heap beyond a table whose values have a pure period, by residue
//! class of the smaller heap.
//!
//! With preperiod t and period p (saltus 0), g(x) depends only on x mod p from x = t on. A
//! removal j leaves r = h − j to split into a + (r − a); while both a and r − a are at least t,
//! g(a) and g(r − a) depend only on a mod p, so each residue class of a wins throughout its
//! range or nowhere in it. The a below t, and those whose partner r − a is below t, are judged
//! one by one: at most 2t splits a removal, whatever the heap's size. Those that continue a
//! class join it; a class of fewer than [`SMALLEST_CLASS`] moves is listed move by move.

use super::heap_options::HeapOption;
use super::sum::HeapMove;
use crate::game::{TWO, TakeBreak};
use crate::period::Period;
use serde::Serialize;
use std::collections::BTreeSet;

/// A class of fewer moves is listed move by move.
const SMALLEST_CLASS: u64 = 10;

/// The winning splits of one removal whose smaller heap a runs through a residue class: every
/// move of heap `heap` from `from` to a + (from − removal − a) with a ≡ `residue` (mod
/// `modulus`) and `first` ≤ a ≤ `last`, `count` of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SplitClass {
    /// Index of the heap, from 0.
    pub heap: usize,
    /// Its size before the move.
    pub from: u64,
    /// The objects the move removes before splitting the rest.
    pub removal: u64,
    /// The residue of the smaller heap a, below `modulus`.
    pub residue: u64,
    /// The modulus of the class (a divisor of the period).
    pub modulus: u64,
    /// The smallest a of the class.
    pub first: u64,
    /// The largest a of the class.
    pub last: u64,
    /// The number of moves in the class.
    pub count: u64,
}

impl SplitClass {
    /// The objects left to split: a + b for every move of the class.
    pub fn rest(&self) -> u64 {
        self.from - self.removal
    }

    /// The class's moves, smaller heap increasing.
    pub fn moves(&self) -> impl Iterator<Item = HeapMove> + '_ {
        (0..self.count).map(move |i| {
            let a = self.first + i * self.modulus;
            HeapMove::of(self.heap, self.from, HeapOption::Two(a, self.rest() - a))
        })
    }
}

/// The winning splits into two of heap number `heap` of size `from`: the splits judged one by
/// one, and the classes of the rest. `period` is pure, and `wins(a, b)` says whether the split
/// into a + b wins; for a and b at least the preperiod it may depend only on a and b modulo the
/// period (a nim-sum of Grundy values in normal play, a product of misère elements).
pub(super) fn winning_splits(
    code: &TakeBreak,
    heap: usize,
    from: u64,
    period: Period,
    wins: impl Fn(u64, u64) -> bool,
) -> (Vec<HeapOption>, Vec<SplitClass>) {
    debug_assert_eq!(period.saltus, 0);
    let (t, p) = (period.preperiod, period.period);
    let wins = |a: u64, rest: u64| wins(a, rest - a);
    let mut singles = Vec::new();
    let mut classes = Vec::new();
    for removal in code.removals(TWO, from.saturating_sub(1)) {
        let rest = from - removal;
        let half = if code.unequal {
            (rest - 1) / 2
        } else {
            rest / 2
        };
        // The a whose partner rest − a is at least t as well.
        let (start, end) = (t.max(1), half.min(rest.saturating_sub(t)));
        // Fewer than a period of such a: nothing to gain from classes.
        let by_class = end >= start && end - start >= p;
        // Judged one by one: a ≤ low and a ≥ high (every a without classes).
        let (low, high) = match by_class {
            true => (start - 1, end + 1),
            false => (half, half + 1),
        };
        let one_by_one = (1..=low).chain(high..=half);
        let mut lone: BTreeSet<u64> = one_by_one.filter(|&a| wins(a, rest)).collect();
        if by_class {
            // Whether the class of a mod p wins, from its member in [start, start + p).
            let mut winning = vec![false; p as usize];
            for a in start..start + p {
                winning[(a % p) as usize] = wins(a, rest);
            }
            let modulus = coarsest_modulus(&winning);
            for residue in (0..modulus).filter(|&c| winning[c as usize]) {
                let mut first = start + (residue + modulus - start % modulus) % modulus;
                let mut last = end - (end % modulus + modulus - residue) % modulus;
                // The winning splits judged one by one that continue the class join it.
                while first > modulus && lone.remove(&(first - modulus)) {
                    first -= modulus;
                }
                while lone.remove(&(last + modulus)) {
                    last += modulus;
                }
                let count = (last - first) / modulus + 1;
                if count < SMALLEST_CLASS {
                    lone.extend((0..count).map(|i| first + i * modulus));
                    continue;
                }
                classes.push(SplitClass {
                    heap,
                    from,
                    removal,
                    residue,
                    modulus,
                    first,
                    last,
                    count,
                });
            }
        }
        singles.extend(lone.into_iter().map(|a| HeapOption::Two(a, rest - a)));
    }
    (singles, classes)
}

/// The smallest m dividing the period (the length of `winning`) such that whether a residue
/// wins depends only on it mod m.
fn coarsest_modulus(winning: &[bool]) -> u64 {
    let p = winning.len();
    (1..=p)
        .filter(|&m| p.is_multiple_of(m))
        .find(|&m| (0..p).all(|c| winning[c] == winning[(c + m) % p]))
        .unwrap_or(p) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_merge_to_the_smallest_modulus_that_describes_them() {
        assert_eq!(coarsest_modulus(&[true, false, true, false]), 2);
        assert_eq!(coarsest_modulus(&[true, true, true]), 1);
        assert_eq!(coarsest_modulus(&[false, false, true]), 3);
        assert_eq!(
            coarsest_modulus(&[true, false, false, true, false, false]),
            3
        );
    }

    #[test]
    fn classes_expand_to_exactly_the_winning_splits() {
        // A made-up game with period 4 from 3: g(0..3) = 0 1 2, then 3 0 3 1 repeating.
        let value = |x: u64| match x {
            0..3 => x,
            _ => [3, 0, 3, 1][((x - 3) % 4) as usize],
        };
        let period = Period::pure(3, 4);
        let cases = [false, true]
            .into_iter()
            .flat_map(|unequal| (20..60).chain(400..420).map(move |from| (unequal, from)));
        let mut seen = 0;
        for (unequal, from) in cases {
            let code = TakeBreak::parse_code("0.64").unwrap();
            let code = if unequal { code.with_unequal() } else { code };
            for target in 0..4 {
                let wins = |a: u64, b: u64| value(a) ^ value(b) == target;
                let (singles, classes) = winning_splits(&code, 0, from, period, wins);
                let mut got: Vec<(u64, u64)> = singles
                    .iter()
                    .map(|o| match o {
                        HeapOption::Two(a, b) => (*a, *b),
                        other => panic!("not a split: {other:?}"),
                    })
                    .chain(classes.iter().flat_map(|c| c.moves()).map(|m| {
                        let s = m.split.unwrap();
                        (s[0], s[1])
                    }))
                    .collect();
                got.sort_unstable();
                let mut want = Vec::new();
                for removal in [1, 2] {
                    let rest = from - removal;
                    want.extend(
                        (1..=rest / 2)
                            .filter(|&a| !(unequal && 2 * a == rest))
                            .filter(|&a| value(a) ^ value(rest - a) == target)
                            .map(|a| (a, rest - a)),
                    );
                }
                want.sort_unstable();
                assert_eq!(got, want, "{from} {target} {unequal}");
                seen += classes.len();
            }
        }
        assert!(seen > 0, "some classes");
    }
}
