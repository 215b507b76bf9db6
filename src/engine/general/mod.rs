//! Rules written down (`tb:` codes that are not octal or hexadecimal codes, `SET@DIGIT`,
//! unions `A|B`): g(n) is the mex of the values the removals from n reach, where the values a
//! digit reaches when it leaves r objects are computed once for each r and kept.
//!
//! What a digit reaches from r is the set of nim-sums over the partitions of r it allows. The
//! nim-sum does not depend on the order of the parts, so partitions into k parts reach what
//! ordered ones do: A_k(r) = ∪ g(a) ⊕ A_{k−1}(r − a), kept for every r; "k or more parts" and
//! "not all equal" have recursions of the same shape, "all equal" a formula (k | r). Parts
//! pairwise unequal (`!`) into three or more come from a knapsack over the parts
//! ([`unequal::UnequalParts`]), to at most [`UNEQUAL_MOST`] positions.
//! Single-threaded, in memory; misère play only for rules without splits (outcomes).

mod unequal;
mod value_set;

use crate::error::{Error, Param, Result};
use crate::game::code::{Code, Constraint, Digit};
use crate::game::general::Part;
use crate::game::{Game, General, Play};
use crate::interrupt;
use crate::period;
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::{Shape, Table, ValueKind};
use crate::text;
use unequal::UnequalParts;
use value_set::ValueSet;

/// How often the progress bar is updated and an interrupt looked for, in positions.
const CHECK_EVERY: u64 = 1 << 10;

/// The recursions kept for every r, one table of sets a number of parts.
#[derive(Debug, Default)]
struct Tables {
    /// `exact[k][r]`: nim-sums of the partitions of r into exactly k parts (k ≥ 2; kept only
    /// when a digit splits into three or more, two parts are summed where they are needed).
    exact: Vec<Vec<ValueSet>>,
    /// `more[k][r]`: into k or more parts (k ≥ 1).
    more: Vec<Vec<ValueSet>>,
    /// `uneven[k][r]`: into exactly k parts, not all equal (k ≥ 2; kept as `exact` is).
    uneven: Vec<Vec<ValueSet>>,
    /// `uneven_more[k][r]`: into k or more parts, not all equal (k ≥ 2).
    uneven_more: Vec<Vec<ValueSet>>,
}

/// The nim-sums of the splits of r into two parts of `g` (two unequal parts when `unequal`).
fn pairs(g: &[u32], r: u64, unequal: bool) -> ValueSet {
    let mut set = ValueSet::default();
    for a in 1..=r / 2 {
        if !(unequal && 2 * a == r) {
            set.insert(g[a as usize] ^ g[(r - a) as usize]);
        }
    }
    set
}

/// The most positions of rules with pairwise unequal parts into three or more heaps: each
/// position costs a union of sets for every smaller one (`tb:{2+}!.0`, whose values grow as
/// the heap: 0.14 s to 3,000 positions, 10.5 s to 10^4, minutes to 2·10^4).
pub const UNEQUAL_MOST: u64 = 1 << 20;

/// The values of g so far and what the recursions keep.
struct Sieve<'a> {
    g: Vec<u32>,
    tables: Tables,
    unequal: UnequalParts,
    digits: &'a [Digit],
    /// `reach[d][r]`: the values digit d reaches leaving r objects.
    reach: Vec<Vec<ValueSet>>,
}

impl Sieve<'_> {
    /// The nim-sum of m heaps of b.
    fn equal_parts(&self, b: u64, m: u64) -> u32 {
        if m % 2 == 1 { self.g[b as usize] } else { 0 }
    }

    /// Extends every table the digits need to r (g known below r; `with_r` when g(r) is known
    /// too, for the tables of one part or more).
    fn extend_tables(&mut self, r: u64, with_r: bool) {
        let ri = r as usize;
        let g = &self.g;
        if !with_r {
            for k in 2..self.tables.exact.len() {
                let set = match k {
                    2 => pairs(g, r, false),
                    _ => {
                        let mut set = ValueSet::default();
                        for a in 1..r.saturating_sub(k as u64 - 2) {
                            set.add_xor(&self.tables.exact[k - 1][ri - a as usize], g[a as usize]);
                        }
                        set
                    }
                };
                self.tables.exact[k].push(set);
            }
            for k in 2..self.tables.more.len() {
                let mut set = ValueSet::default();
                for a in 1..r {
                    set.add_xor(&self.tables.more[k - 1][ri - a as usize], g[a as usize]);
                }
                self.tables.more[k].push(set);
            }
            for k in 2..self.tables.uneven.len() {
                let set = match k {
                    2 => pairs(g, r, true),
                    _ => {
                        let mut set = ValueSet::default();
                        let m = k as u64 - 1;
                        for a in 1..r {
                            set.add_xor(&self.tables.uneven[k - 1][ri - a as usize], g[a as usize]);
                            let rest = r - a;
                            if rest.is_multiple_of(m) && rest / m != a && rest >= m {
                                set.insert(g[a as usize] ^ self.equal_parts(rest / m, m));
                            }
                        }
                        set
                    }
                };
                self.tables.uneven[k].push(set);
            }
            for k in 2..self.tables.uneven_more.len() {
                let mut set = ValueSet::default();
                for a in 1..r {
                    let rest = r - a;
                    // The rest in k − 1 or more parts not all equal (for k = 2: two or more).
                    let below = self.tables.uneven_more[(k - 1).max(2)].get(rest as usize);
                    if let Some(below) = below {
                        set.add_xor(below, g[a as usize]);
                    }
                    // The rest in m ≥ k − 1 equal parts b ≠ a.
                    for m in (k as u64 - 1)..=rest {
                        if rest.is_multiple_of(m) && rest / m != a {
                            set.insert(g[a as usize] ^ self.equal_parts(rest / m, m));
                        }
                    }
                }
                self.tables.uneven_more[k].push(set);
            }
        } else if self.tables.more.len() > 1 {
            let mut set = ValueSet::default();
            if r > 0 {
                set.insert(g[ri]);
            }
            for a in 1..r {
                set.add_xor(&self.tables.more[1][ri - a as usize], g[a as usize]);
            }
            self.tables.more[1].push(set);
        }
    }

    /// The values digit `d` reaches leaving r objects, from the splits into two or more heaps
    /// only (what a move that removes nothing reaches), or every leaving when `all`.
    fn reach_of(&self, d: usize, r: u64, all: bool) -> ValueSet {
        let digit = &self.digits[d];
        let mut set = ValueSet::default();
        let ri = r as usize;
        if all && r == 0 && digit.allows(0).is_some() {
            set.insert(self.g[0]);
        }
        if all && r > 0 && digit.allows(1).is_some() {
            set.insert(self.g[ri]);
        }
        for (k, constraint) in digit.listed().filter(|&(k, _)| k >= 2 && k <= r) {
            let k = k as usize;
            match constraint {
                Constraint::Any | Constraint::SomeUnequal | Constraint::Unequal if k == 2 => {
                    set.add(&pairs(&self.g, r, constraint != Constraint::Any))
                }
                Constraint::Any => set.add(&self.tables.exact[k][ri]),
                Constraint::SomeUnequal => set.add(&self.tables.uneven[k][ri]),
                Constraint::AllEqual if r.is_multiple_of(k as u64) => {
                    set.insert(self.equal_parts(r / k as u64, k as u64))
                }
                Constraint::AllEqual => {}
                Constraint::Unequal => self.unequal.reach(r, k as u64, false, &mut set),
            }
        }
        if let Some((from, constraint)) = digit.more() {
            let k = from.max(2);
            match constraint {
                Constraint::Any => set.add(&self.tables.more[k as usize][ri]),
                Constraint::SomeUnequal => set.add(&self.tables.uneven_more[k as usize][ri]),
                Constraint::AllEqual => {
                    for m in (k..=r).filter(|&m| r.is_multiple_of(m)) {
                        set.insert(self.equal_parts(r / m, m));
                    }
                }
                Constraint::Unequal => self.unequal.reach(r, k, true, &mut set),
            }
        }
        set
    }
}

/// The removals of every rule of a union, each with the index of its digit among the digits
/// the rules use.
enum Removals<'a> {
    /// Digit j of a code: the indices of its digits d0, d1, … as [`Code::digits`] lists them
    /// (None for a zero digit).
    Code {
        code: &'a Code,
        indices: Vec<Option<usize>>,
    },
    /// The listed removals (below the bound), each with one digit.
    Listed(Vec<u64>, usize),
}

impl Removals<'_> {
    /// The removals of `general`'s rules below `bound`.
    fn of<'a>(general: &'a General, digits: &[Digit], bound: u64) -> Vec<Removals<'a>> {
        let index = |d: &Digit| match d.is_zero() {
            true => None,
            false => Some(digits.binary_search(d).expect("every digit is listed")),
        };
        general
            .parts()
            .iter()
            .map(|part| match part {
                Part::Code(code) => Removals::Code {
                    code,
                    indices: code.digits().iter().map(index).collect(),
                },
                Part::Set { set, digit, .. } => Removals::Listed(
                    set.elements_below(bound),
                    index(digit).expect("a set's digit is not zero"),
                ),
            })
            .collect()
    }
}

/// Calls `visit(j, digit index)` for every removal from a heap of n the rules allow.
trait EachRemoval {
    fn each(&self, n: u64, visit: impl FnMut(u64, usize));
}

impl EachRemoval for Vec<Removals<'_>> {
    fn each(&self, n: u64, mut visit: impl FnMut(u64, usize)) {
        for part in self {
            match part {
                Removals::Code { code, indices } => {
                    for j in code.removals(n) {
                        let i = code.position(j).expect("a removal of the code");
                        if let Some(d) = indices[i] {
                            visit(j, d);
                        }
                    }
                }
                Removals::Listed(steps, d) => {
                    for &j in steps.iter().take_while(|&&j| j <= n) {
                        visit(j, *d);
                    }
                }
            }
        }
    }
}

/// The number of parts each table needs, from the digits that use it.
fn sized_tables(digits: &[Digit]) -> Tables {
    let mut tables = Tables::default();
    let need = |table: &mut Vec<Vec<ValueSet>>, k: u64| {
        if table.len() <= k as usize {
            table.resize_with(k as usize + 1, Vec::new);
        }
    };
    for digit in digits {
        for (k, c) in digit.listed().filter(|&(k, _)| k >= 3) {
            match c {
                Constraint::Any => need(&mut tables.exact, k),
                Constraint::SomeUnequal => need(&mut tables.uneven, k),
                Constraint::AllEqual | Constraint::Unequal => {}
            }
        }
        if let Some((from, c)) = digit.more() {
            match c {
                Constraint::Any => need(&mut tables.more, from.max(2)),
                Constraint::SomeUnequal => need(&mut tables.uneven_more, from.max(2)),
                Constraint::AllEqual | Constraint::Unequal => {}
            }
        }
    }
    // The tables below the ones needed keep values too (index 0, and 1 of `exact` and the
    // uneven ones, stay empty and unused).
    tables
}

/// The parts [`UnequalParts`] keeps exactly, plus one for "that many or more": one more than
/// the most listed with `!` (three or more), and at least the fewest of a `{k+}!`; 0 when no
/// digit needs them.
fn unequal_top(digits: &[Digit]) -> usize {
    let listed = (digits.iter())
        .flat_map(|d| d.listed())
        .filter(|&(k, c)| k >= 3 && c == Constraint::Unequal)
        .map(|(k, _)| k + 1);
    let more = (digits.iter())
        .filter_map(|d| d.more())
        .filter(|&(_, c)| c == Constraint::Unequal)
        .map(|(from, _)| from.max(2));
    listed.chain(more).max().unwrap_or(0) as usize
}

/// True for the games the engine computes: rules written down, and the normal play of
/// hexadecimal codes that split into three heaps (whose sets of three-part nim-sums it builds
/// from those of two parts instead of listing every split).
pub fn applies(game: &Game) -> bool {
    rules_of(game).is_some()
}

/// The rules of `game` as the engine takes them; None for the games it does not compute.
pub fn rules_of(game: &Game) -> Option<std::borrow::Cow<'_, General>> {
    if let Some(general) = game.general() {
        return Some(std::borrow::Cow::Borrowed(general));
    }
    let code = game
        .take_break()
        .filter(|code| code.splits_in_three() && game.play == Play::Normal)?;
    let rules = General::new(vec![Part::Code(code.as_code())]);
    Some(std::borrow::Cow::Owned(rules))
}

/// Computes the value (normal play) or outcome (misère, rules without splits) of every
/// position below `n`.
pub fn compute(
    general: &General,
    play: Play,
    n: u64,
    period_criterion: Option<period::Criterion>,
    progress: &Progress,
) -> Result<Table> {
    super::check_in_memory_size(n)?;
    let values = sieve(general, play, n, progress, |_, computed| Some(computed))?;
    let period = period_criterion
        .and_then(|criterion| period::find_by(n, |x| values[x as usize], &criterion));
    Ok(Table {
        kind: ValueKind::of(play),
        values: PackedValues::from_values(&values)?,
        period,
        shape: Shape::Line,
    })
}

/// The first position below `given.len()` where `given` (values when `every_value`, else
/// 0 = P and anything else N) disagrees with the definition, with the value the definition
/// gives there; None when it agrees everywhere.
pub fn first_difference(
    general: &General,
    play: Play,
    given: &PackedValues,
    every_value: bool,
    progress: &Progress,
) -> Result<Option<(u64, u32)>> {
    let mut found = None;
    sieve(general, play, given.len(), progress, |x, computed| {
        let value = given.get(x);
        let agrees = match every_value {
            true => value == computed,
            false => (value == 0) == (computed == 0),
        };
        if !agrees {
            found = Some((x, computed));
        }
        agrees.then_some(computed)
    })?;
    Ok(found)
}

/// The values of positions below n in order, each the mex the definition gives as `keep`
/// takes it (None stops the sieve there).
fn sieve(
    general: &General,
    play: Play,
    n: u64,
    progress: &Progress,
    mut keep: impl FnMut(u64, u32) -> Option<u32>,
) -> Result<Vec<u32>> {
    let digits = general.digits();
    let removals = Removals::of(general, &digits, n);
    let last_removal = general.last_removal();
    let top = unequal_top(&digits);
    if top > 0 && n > UNEQUAL_MOST {
        return Err(Error::invalid(
            Param::Size,
            text!(
                Param::Size.given(n),
                " is too many positions for a rule that splits into three or more pairwise unequal heaps (each position costs work for every smaller one); use ",
                Param::Size,
                " <= 2^20",
            ),
        ));
    }
    let mut sieve = Sieve {
        g: crate::table::reserve(n, "the table")?,
        tables: sized_tables(&digits),
        unequal: UnequalParts::new(top, n),
        digits: &digits,
        reach: vec![Vec::new(); digits.len()],
    };
    for x in 0..n {
        sieve.extend_tables(x, false);
        let mut reached = ValueSet::default();
        removals.each(x, |j, d| match j {
            0 => reached.add(&sieve.reach_of(d, x, false)),
            _ => reached.add(&sieve.reach[d][(x - j) as usize]),
        });
        let computed = match play {
            Play::Normal => reached.mex(),
            Play::Misere => u32::from(reached.is_empty() || reached.mex() > 0),
        };
        let Some(value) = keep(x, computed) else {
            break;
        };
        sieve.g.push(value);
        if x > 0 {
            sieve.unequal.add_part(x, value);
        }
        sieve.extend_tables(x, true);
        for d in 0..digits.len() {
            let set = sieve.reach_of(d, x, true);
            sieve.reach[d].push(set);
            // No removal reaches further back than the largest.
            if let Some(old) = last_removal.and_then(|t| x.checked_sub(t + 1)) {
                sieve.reach[d][old as usize] = ValueSet::default();
            }
        }
        if x % CHECK_EVERY == 0 {
            progress.set(x);
            interrupt::check(x, n)?;
        }
    }
    progress.set(n);
    Ok(sieve.g)
}
