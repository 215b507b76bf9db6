//! Rules a researcher writes down: a take-and-break code of CGSuite's grammar (`tb:CODE`), a
//! digit applied to a subtraction set (`SET@DIGIT`: remove an element, then leave the rest as
//! the digit allows), and unions of these (`A|B`: the moves of both).

use super::code::{Code, Constraint, Digit, Visit, for_each_leaving};
use super::{Rule, SubtractionSet, TakeBreak};
use std::fmt;

/// A union of removal rules; each says which removals a heap allows and what a removal leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct General {
    parts: Vec<Part>,
}

/// One rule of a union.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Remove j objects and leave the rest as digit j of the code allows.
    Code(Code),
    /// Remove an element of `set` and leave the rest as `digit` allows.
    Set {
        /// The elements that may be removed.
        set: SubtractionSet,
        /// The set as its spec writes it, e.g. `squares` or `sub:1,2,3`.
        name: String,
        /// What the rest may be left as.
        digit: Digit,
    },
}

impl General {
    /// The union of `parts` (one part: that rule alone).
    pub fn new(parts: Vec<Part>) -> General {
        General { parts }
    }

    /// The rules of the union.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The same rules where no move may take the whole heap (`+leave1`).
    pub fn with_leave1(self) -> General {
        let parts = self
            .parts
            .into_iter()
            .map(|part| match part {
                Part::Code(code) => {
                    let listed = code.digits().len() - code.period();
                    let digits: Vec<Digit> = code
                        .digits()
                        .iter()
                        .map(Digit::without_zero_heaps)
                        .collect();
                    let repeating = digits[listed..].to_vec();
                    Part::Code(Code::normalized(digits[..listed].to_vec(), repeating))
                }
                Part::Set { set, name, digit } => Part::Set {
                    set,
                    name,
                    digit: digit.without_zero_heaps(),
                },
            })
            .collect();
        General { parts }
    }

    /// The largest removal, when every rule's removals are finite.
    pub fn last_removal(&self) -> Option<u64> {
        self.parts.iter().try_fold(0, |most, part| {
            let last = match part {
                Part::Code(code) => code.last_removal()?,
                Part::Set { set, .. } => set.finite_max()?,
            };
            Some(most.max(last))
        })
    }

    /// Every digit the rules use, once each.
    pub fn digits(&self) -> Vec<Digit> {
        let mut all: Vec<Digit> = self
            .parts
            .iter()
            .flat_map(|part| match part {
                Part::Code(code) => code.digits().to_vec(),
                Part::Set { digit, .. } => vec![digit.clone()],
            })
            .filter(|d| !d.is_zero())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// The most heaps a move leaves; None when a digit allows any number.
    pub fn max_heaps(&self) -> Option<u64> {
        self.digits()
            .iter()
            .try_fold(0, |most, d| Some(most.max(d.max_heaps()?)))
    }

    /// True when every split is free of `!`, `?` and `=`.
    pub fn splits_are_free(&self) -> bool {
        self.digits().iter().all(|d| {
            d.listed().all(|(_, c)| c == Constraint::Any)
                && d.more().is_none_or(|(_, c)| c == Constraint::Any)
        })
    }

    /// The catalogued rule these rules are, when there is one, so that its engines compute
    /// it: a subtraction set (every digit 3, or removals without splits), Nim (`0.[3]`),
    /// Lasker's Nim (`4.[3]`), or an octal or hexadecimal code (finite, at most three heaps,
    /// one constraint for every split, `!` or none).
    pub fn catalogued(&self) -> Option<Rule> {
        let subtract = Digit::of_bits(3, Constraint::Any);
        if let [Part::Set { set, digit, .. }] = self.parts.as_slice()
            && *digit == subtract
        {
            return Some(Rule::Subtraction(set.clone()));
        }
        if let [Part::Code(code)] = self.parts.as_slice() {
            let lasker = TakeBreak::lasker();
            if *code == lasker.as_code() {
                return Some(Rule::TakeBreak(lasker));
            }
            if *code == Code::normalized(vec![Digit::zero()], vec![subtract.clone()]) {
                return Some(Rule::Subtraction(SubtractionSet::Nim));
            }
        }
        let last = self.last_removal()?;
        let mut digits = vec![Digit::zero(); last as usize + 1];
        for part in &self.parts {
            match part {
                Part::Code(code) => {
                    for (j, d) in code.digits().iter().enumerate() {
                        digits[j] = digits[j].union(d)?;
                    }
                }
                Part::Set { set, digit, .. } => {
                    for j in set.elements_below(last + 1) {
                        digits[j as usize] = digits[j as usize].union(digit)?;
                    }
                }
            }
        }
        if digits[0].is_zero() && digits.iter().all(|d| d.is_zero() || *d == subtract) {
            let steps = (1..=last).filter(|&j| !digits[j as usize].is_zero());
            return Some(Rule::Subtraction(SubtractionSet::Finite(steps.collect())));
        }
        let mut unequal = None;
        let mut bits = Vec::with_capacity(digits.len());
        for digit in &digits {
            let (b, splits) = digit.hex_bits()?;
            if splits.is_some() && unequal.is_some_and(|u| Some(u) != splits) {
                return None;
            }
            unequal = unequal.or(splits);
            bits.push(b);
        }
        TakeBreak::from_digits(bits, unequal.unwrap_or(false)).map(Rule::TakeBreak)
    }

    /// What each removal may leave, when the removals are finite and no move leaves more than
    /// two heaps, two equal heaps only where two heaps of any sizes are allowed (no `=` on a
    /// split; `?` of two heaps is `!`); None for the others.
    pub fn two_heap_removals(&self) -> Option<TwoHeapRemovals> {
        if self.max_heaps()? > 2 {
            return None;
        }
        let last = self.last_removal()?;
        let mut out = TwoHeapRemovals::default();
        let mut unequal = Vec::new();
        let mut refused = false;
        self.compile(last + 1)
            .for_each_removal(last, &mut |j, digit| {
                for (k, constraint) in digit.listed() {
                    match (k, constraint) {
                        (0, _) if j > 0 => out.wholes.push(j),
                        (1, _) if j > 0 => out.singles.push(j),
                        (2, Constraint::Any) => out.free_splits.push(j),
                        (2, Constraint::Unequal | Constraint::SomeUnequal) => unequal.push(j),
                        (2, Constraint::AllEqual) => refused = true,
                        _ => {}
                    }
                }
            });
        if refused {
            return None;
        }
        for list in [
            &mut out.wholes,
            &mut out.singles,
            &mut out.free_splits,
            &mut unequal,
        ] {
            list.sort_unstable();
            list.dedup();
        }
        // A removal some rule lets split freely is free.
        unequal.retain(|j| out.free_splits.binary_search(j).is_err());
        out.unequal_splits = unequal;
        Some(out)
    }

    /// The rules compiled for heaps below `bound`: each set's elements listed.
    pub fn compile(&self, bound: u64) -> Compiled<'_> {
        let parts = self
            .parts
            .iter()
            .map(|part| match part {
                Part::Code(code) => Removals::Code(code),
                Part::Set { set, digit, .. } => Removals::Listed(set.elements_below(bound), digit),
            })
            .collect();
        Compiled { parts }
    }
}

/// What the removals of rules leaving at most two heaps may leave
/// ([`General::two_heap_removals`]), each list ascending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TwoHeapRemovals {
    /// Removals j ≥ 1 that may take the whole heap.
    pub wholes: Vec<u64>,
    /// Removals j ≥ 1 that may leave one heap.
    pub singles: Vec<u64>,
    /// Removals after which the rest may be split into two heaps of any sizes.
    pub free_splits: Vec<u64>,
    /// Removals after which the rest may be split into two different heaps only.
    pub unequal_splits: Vec<u64>,
}

/// The removals of one rule, for heaps below a bound.
#[derive(Debug)]
pub enum Removals<'a> {
    /// Every j, with digit j of the code.
    Code(&'a Code),
    /// The listed removals, each with one digit.
    Listed(Vec<u64>, &'a Digit),
}

/// [`General`] rules compiled for heaps below a bound.
#[derive(Debug)]
pub struct Compiled<'a> {
    /// One entry a rule of the union.
    pub parts: Vec<Removals<'a>>,
}

impl Compiled<'_> {
    /// Calls `visit(j, digit)` for every removal from a heap of n a rule allows (a removal
    /// two rules allow comes twice).
    pub fn for_each_removal(&self, n: u64, visit: &mut dyn FnMut(u64, &Digit)) {
        for part in &self.parts {
            match part {
                Removals::Code(code) => {
                    for j in code.removals(n) {
                        let digit = code.digit(j);
                        if !digit.is_zero() {
                            visit(j, digit);
                        }
                    }
                }
                Removals::Listed(steps, digit) => {
                    for &j in steps.iter().take_while(|&&j| j <= n) {
                        visit(j, digit);
                    }
                }
            }
        }
    }

    /// Calls `visit` with every option of a heap of n, each the heaps it leaves (ascending;
    /// none when the move takes the whole heap), fewest objects removed first in each rule:
    /// straight from the definition, one partition at a time, until `visit` stops.
    pub fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64]) -> Visit) {
        let mut stopped = false;
        self.for_each_removal(n, &mut |j, digit| {
            if !stopped {
                stopped = for_each_leaving(digit, n - j, visit).is_break();
            }
        });
    }
}

impl fmt::Display for General {
    /// The rules as a spec writes them: `tb:CODE`, `SET@DIGIT`, joined by `|`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str("|")?;
            }
            match part {
                Part::Code(code) => write!(f, "tb:{code}")?,
                // `SET@3` subtracts: written as the set alone.
                Part::Set { name, digit, .. } if *digit == Digit::of_bits(3, Constraint::Any) => {
                    f.write_str(name)?
                }
                Part::Set { name, digit, .. } => write!(f, "{name}@{digit}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> General {
        General::new(vec![Part::Code(Code::parse(text).unwrap())])
    }

    #[test]
    fn codes_of_catalogued_games_are_those_games() {
        let octal = |c: &str| Rule::TakeBreak(TakeBreak::parse_code(c).unwrap());
        assert_eq!(code("0.77").catalogued(), Some(octal("0.77")));
        assert_eq!(
            code("4!.0").catalogued(),
            Some(Rule::TakeBreak(
                TakeBreak::parse_code("4.0").unwrap().with_unequal()
            ))
        );
        assert_eq!(
            code("0.[3]").catalogued(),
            Some(Rule::Subtraction(SubtractionSet::Nim))
        );
        assert_eq!(
            code("4.[3]").catalogued(),
            Some(Rule::TakeBreak(TakeBreak::lasker()))
        );
        assert_eq!(
            code("0.333").catalogued(),
            Some(Rule::Subtraction(SubtractionSet::Finite(vec![1, 2, 3])))
        );
        assert_eq!(
            code("0.8").catalogued(),
            Some(Rule::TakeBreak(TakeBreak::parse_hex("0.8").unwrap()))
        );
        for general in ["0.[37]", "8!.0", "8?.0", "{2+}.0", "0.7?", "0.7!4"] {
            assert_eq!(code(general).catalogued(), None, "{general}");
        }
    }

    #[test]
    fn leave1_takes_away_the_whole_heap_moves() {
        let kayles = code("0.77").with_leave1();
        assert_eq!(kayles.to_string(), "tb:0.66");
    }
}
