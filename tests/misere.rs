//! Misère quotients against a plain game-tree search: every position of up to four heaps of
//! at most 12, its outcome and (through `eval`) its winning moves; the quotient's properties;
//! sizes published by Plambeck and Siegel.

use nimsieve::misere::Quotient;
use std::collections::HashMap;

/// The rules, written here independently of the library: the heaps each option of a heap leaves.
#[derive(Clone, Copy)]
enum Rule {
    /// An octal code's digits d1 d2 …, with `+unequal`.
    Octal(&'static [u8], bool),
    /// Grundy's game: split into two different heaps.
    Grundy,
    /// Lasker's Nim: remove any number, or split into two heaps.
    Lasker,
    /// Subtract an element of the set.
    Sub(&'static [u64]),
    /// Nim.
    Nim,
}

impl Rule {
    fn options(self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let splits = |rest: u64, unequal: bool, out: &mut Vec<Vec<u64>>| {
            for a in 1..=rest / 2 {
                if !(unequal && 2 * a == rest) {
                    out.push(vec![a, rest - a]);
                }
            }
        };
        match self {
            Rule::Octal(digits, unequal) => {
                for (i, &d) in digits.iter().enumerate() {
                    let j = i as u64 + 1;
                    if d & 1 != 0 && j == n {
                        out.push(vec![]);
                    }
                    if d & 2 != 0 && j < n {
                        out.push(vec![n - j]);
                    }
                    if d & 4 != 0 && j < n {
                        splits(n - j, unequal, &mut out);
                    }
                }
            }
            Rule::Grundy => splits(n, true, &mut out),
            Rule::Lasker => {
                out.extend((0..n).map(|m| if m == 0 { vec![] } else { vec![m] }));
                splits(n, false, &mut out);
            }
            Rule::Sub(set) => out.extend(
                set.iter()
                    .filter(|&&s| s <= n)
                    .map(|&s| if s == n { vec![] } else { vec![n - s] }),
            ),
            Rule::Nim => out.extend((0..n).map(|m| if m == 0 { vec![] } else { vec![m] })),
        }
        out
    }
}

/// Misère outcomes by memoised search on sorted heap tuples (true: P).
struct Oracle {
    rule: Rule,
    memo: HashMap<Vec<u64>, bool>,
}

impl Oracle {
    fn new(rule: Rule) -> Oracle {
        Oracle {
            rule,
            memo: HashMap::new(),
        }
    }

    /// The positions one move from `position` (sorted).
    fn moves(&self, position: &[u64]) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &h) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == h {
                continue;
            }
            for parts in self.rule.options(h) {
                let mut next: Vec<u64> = position[..i].to_vec();
                next.extend_from_slice(&position[i + 1..]);
                next.extend(parts);
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }

    fn is_p(&mut self, position: &[u64]) -> bool {
        if let Some(&p) = self.memo.get(position) {
            return p;
        }
        let moves = self.moves(position);
        let p = !moves.is_empty() && moves.iter().all(|m| !self.is_p(m));
        self.memo.insert(position.to_vec(), p);
        p
    }
}

/// Every position of one to `count` heaps of 1 to `top`, sorted.
fn positions(count: usize, top: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..count {
        let mut next = Vec::new();
        for p in &layer {
            let from = p.last().copied().unwrap_or(1);
            for h in from..=top {
                let mut q: Vec<u64> = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

const GAMES: [(&str, Rule); 8] = [
    ("kayles", Rule::Octal(&[7, 7], false)),
    ("dawsons-kayles", Rule::Octal(&[0, 7], false)),
    ("octal:0.75", Rule::Octal(&[7, 5], false)),
    ("octal:0.137", Rule::Octal(&[1, 3, 7], false)),
    ("lasker", Rule::Lasker),
    ("grundys-game", Rule::Grundy),
    ("sub:1,3,4", Rule::Sub(&[1, 3, 4])),
    ("nim", Rule::Nim),
];

#[test]
fn outcomes_of_the_quotient_are_the_game_trees() {
    for (spec, rule) in GAMES {
        let q = Quotient::compute(spec, 13, 100_000).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut oracle = Oracle::new(rule);
        for position in positions(4, 12) {
            let x = q.product(&position).expect("heaps below N");
            assert_eq!(
                q.is_p(x),
                oracle.is_p(&position),
                "{spec} at {position:?} (element {})",
                q.name(x)
            );
        }
    }
}
