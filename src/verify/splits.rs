//! Take-and-break games by the definition, every split of every position: (a) no option has
//! g(n), comparing the values of all splits (a, s − a) with g(n) as two slices running the same
//! way (the table and a reversed copy of it), which the compiler vectorises; (b) every value
//! below g(n) is among the options: the first splits' values are gathered, then each value
//! still missing is searched for the same way, stopping where it is found. Independent of the
//! engines' sparse space and periods.
//!
//! A P-position list is checked against the values computed from the definition the same way,
//! position after position: the mex is the smallest value that (b) finds no option has.
//!
//! Cost: (a) n²/4 comparisons for each removal that splits; (b) usually far fewer; computing
//! the values of a list, about n²/4 a splitting removal, on one thread. The table is unpacked
//! (and reversed), 4 or 8 bytes a position, so [`MOST`] positions at most.
//!
//! A hexadecimal code that splits into three heaps is checked by listing every option of every
//! position ([`TakeBreak::options`]): no option has g(n), and every value below g(n) is an
//! option's; a P-position list, by computing the mex of every position the same way. About
//! n³/36 splits a removal that splits into three, so [`MOST_THREE_WAY`] positions at most.

use super::{Fault, FirstFault};
use crate::error::{Error, Result};
use crate::game::{TWO, TakeBreak, TakeBreakOption};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use rayon::prelude::*;
use std::ops::BitXor;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most positions checked: the cost grows with the square.
pub const MOST: u64 = 1 << 24;

/// The most positions checked of a code that splits into three: the cost grows with the cube.
pub const MOST_THREE_WAY: u64 = 1 << 12;

/// Splits compared at once.
const LANES: usize = 64;

/// Checks every position of `g`, a table of the take-and-break game `code`; returns the cost.
pub(super) fn check(
    g: &PackedValues,
    code: &TakeBreak,
    first: &FirstFault,
    progress: &Progress,
) -> Result<String> {
    if code.splits_in_three() {
        check_three_way_size(g.len())?;
        let options = AtomicU64::new(0);
        (0..g.len()).into_par_iter().for_each(|x| {
            if first.beyond(x) {
                return;
            }
            let (fault, examined) = judge_by_options(code, x, g.get(x), |m| g.get(m));
            options.fetch_add(examined, Ordering::Relaxed);
            if let Some(fault) = fault {
                first.record(fault);
            }
        });
        progress.set(g.len());
        return Ok(format!("{} options examined", options.into_inner()));
    }
    check_size(g.len())?;
    let pairs = match g.max() {
        max if max < 1 << 16 => check_typed::<u16>(g, code, first, progress),
        _ => check_typed::<u32>(g, code, first, progress),
    }?;
    Ok(format!("{pairs} split comparisons"))
}

/// Refuses more than [`MOST`] positions.
fn check_size(n: u64) -> Result<()> {
    if n > MOST {
        return Err(Error::unsupported(format!(
            "verify checks a take-and-break table split by split, n²/4 comparisons a splitting removal: at most {MOST} positions, not {n}; verify a shorter table"
        )));
    }
    Ok(())
}

/// Refuses more than [`MOST_THREE_WAY`] positions of a code that splits into three.
fn check_three_way_size(n: u64) -> Result<()> {
    if n > MOST_THREE_WAY {
        return Err(Error::unsupported(format!(
            "verify checks a table of a code that splits into three heaps option by option, about n³/36 splits a removal: at most {MOST_THREE_WAY} positions, not {n}; verify a shorter table"
        )));
    }
    Ok(())
}

/// Judges g(x) = `gx` from the values of every option of x (`value` gives g below x): the
/// first option with value `gx`, or else the smallest value below `gx` no option has; with
/// the number of options examined.
fn judge_by_options(
    code: &TakeBreak,
    x: u64,
    gx: u32,
    value: impl Fn(u64) -> u32,
) -> (Option<Fault>, u64) {
    let mut found = vec![false; gx as usize];
    let mut examined = 0;
    for option in code.options(x) {
        examined += 1;
        let v = option_value(option, &value);
        if v == gx {
            let fault = match option {
                TakeBreakOption::One(m) => Fault::Conflict { n: x, option: m },
                TakeBreakOption::Two(a, b) => Fault::SplitConflict {
                    n: x,
                    heaps: vec![a, b],
                },
                TakeBreakOption::Three(a, b, c) => Fault::SplitConflict {
                    n: x,
                    heaps: vec![a, b, c],
                },
            };
            return (Some(fault), examined);
        }
        if let Some(slot) = found.get_mut(v as usize) {
            *slot = true;
        }
    }
    let missing = found.iter().position(|&f| !f).map(|v| Fault::Missing {
        n: x,
        value: v as u32,
    });
    (missing, examined)
}

/// The mex of the values of every option of x (`value` gives g below x).
fn mex_by_options(code: &TakeBreak, x: u64, value: impl Fn(u64) -> u32) -> u32 {
    let mut found: Vec<bool> = Vec::new();
    for option in code.options(x) {
        let v = option_value(option, &value) as usize;
        if found.len() <= v {
            found.resize(v + 1, false);
        }
        found[v] = true;
    }
    found.iter().position(|&f| !f).unwrap_or(found.len()) as u32
}

/// The value of one option.
fn option_value(option: TakeBreakOption, value: impl Fn(u64) -> u32) -> u32 {
    match option {
        TakeBreakOption::One(m) => value(m),
        TakeBreakOption::Two(a, b) => value(a) ^ value(b),
        TakeBreakOption::Three(a, b, c) => value(a) ^ value(b) ^ value(c),
    }
}

/// Checks `listed`, a P-position list of the take-and-break game `code` as a 0/1 table (0 =
/// listed). A list does not give the values of the heaps a split leaves, so the values are
/// computed here from the definition, position after position, and the list must be the
/// positions of value 0; the first position where they differ is the fault. Returns the cost.
pub(super) fn check_positions(
    listed: &PackedValues,
    code: &TakeBreak,
    first: &FirstFault,
    progress: &Progress,
) -> Result<String> {
    let n = listed.len();
    if code.splits_in_three() {
        check_three_way_size(n)?;
        let mut values: Vec<u32> = crate::table::reserve(n, "the computed values")?;
        for x in 0..n {
            let value = mex_by_options(code, x, |m| values[m as usize]);
            values.push(value);
            if (value == 0) != (listed.get(x) == 0) {
                first.record(Fault::Value { n: x, value });
                break;
            }
        }
        return Ok(format!(
            "{} values computed from the definition",
            values.len()
        ));
    }
    check_size(n)?;
    let computed = match compute::<u16>(listed, code, first, progress)? {
        Some(computed) => computed,
        None => compute::<u32>(listed, code, first, progress)?.expect("every value fits 32 bits"),
    };
    Ok(format!("{computed} values computed from the definition"))
}

/// Computes the values of `code` in order and compares their zeros with `listed` (0 = listed),
/// stopping at the first difference, which it records; returns the positions computed, or
/// None when a value does not fit `V`.
fn compute<V>(
    listed: &PackedValues,
    code: &TakeBreak,
    first: &FirstFault,
    progress: &Progress,
) -> Result<Option<u64>>
where
    V: Copy + Default + Into<u32> + TryFrom<u32> + BitXor<Output = V> + PartialEq,
{
    let n = listed.len();
    let mut table = Tables {
        values: crate::table::allocate(n, V::default(), "the computed values")?,
        reversed: crate::table::allocate(n, V::default(), "the computed values")?,
    };
    let (mut one_heap, mut largest) = (Vec::new(), 0u32);
    for x in 0..n {
        one_heap.clear();
        code.one_heap_options(x, &mut one_heap);
        // Options' values, XORs of values so far, lie below the power of two above them all,
        // so the mex is at most that power.
        let bound = (largest + 1).next_power_of_two();
        let g = missing(bound + 1, &one_heap, &splits(code, x), &table)
            .expect("a value up to the power of two above the values so far is missing");
        let Ok(v) = V::try_from(g) else {
            return Ok(None);
        };
        table.values[x as usize] = v;
        table.reversed[(n - 1 - x) as usize] = v;
        largest = largest.max(g);
        if (g == 0) != (listed.get(x) == 0) {
            first.record(Fault::Value { n: x, value: g });
            return Ok(Some(x + 1));
        }
        if x.is_multiple_of(1 << 12) {
            progress.set(x);
        }
    }
    Ok(Some(n))
}

/// The splits of a heap of `x`: for each removal that splits, the rest `s` and the largest
/// smaller heap `last` of a split (a, s − a).
fn splits(code: &TakeBreak, x: u64) -> Vec<(u64, u64)> {
    code.removals(TWO, x.saturating_sub(1))
        .into_iter()
        .map(|j| {
            let s = x - j;
            let last = if code.unequal { (s - 1) / 2 } else { s / 2 };
            (s, last)
        })
        .collect()
}

fn check_typed<V>(
    g: &PackedValues,
    code: &TakeBreak,
    first: &FirstFault,
    progress: &Progress,
) -> Result<u64>
where
    V: Copy + Send + Sync + Into<u32> + TryFrom<u32> + BitXor<Output = V> + PartialEq,
{
    let n = g.len() as usize;
    let mut values: Vec<V> = crate::table::reserve(n as u64, "the unpacked table")?;
    g.each_once(0, n as u64, |v| {
        values.push(V::try_from(v).ok().expect("values fit the chosen width"))
    });
    let reversed: Vec<V> = values.iter().rev().copied().collect();
    let table = Tables { values, reversed };
    let values = &table.values;
    let compared = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    (0..n)
        .into_par_iter()
        .with_min_len(16)
        .for_each_init(Vec::new, |one_heap, x| {
            let x = x as u64;
            if first.beyond(x) {
                return;
            }
            let gx = values[x as usize];
            one_heap.clear();
            code.one_heap_options(x, one_heap);
            if let Some(&m) = one_heap.iter().find(|&&m| values[m as usize] == gx) {
                first.record(Fault::Conflict { n: x, option: m });
                return;
            }
            let splits = splits(code, x);
            for &(s, last) in &splits {
                compared.fetch_add(last, Ordering::Relaxed);
                if let Some(a) = first_equal(table.left(last), table.right(s, last), gx) {
                    let a = a as u64 + 1;
                    first.record(Fault::SplitConflict {
                        n: x,
                        heaps: vec![a, s - a],
                    });
                    return;
                }
            }
            if let Some(value) = missing(table.at(x), one_heap, &splits, &table) {
                first.record(Fault::Missing { n: x, value });
            }
            let total = done.fetch_add(1, Ordering::Relaxed) + 1;
            if total.is_multiple_of(1 << 12) {
                progress.set(total);
            }
        });
    Ok(compared.into_inner())
}

/// The index of the first i with left[i] XOR right[i] = v, comparing [`LANES`] at a time.
fn first_equal<V>(left: &[V], right: &[V], v: V) -> Option<usize>
where
    V: Copy + BitXor<Output = V> + PartialEq,
{
    let chunks = left.chunks(LANES).zip(right.chunks(LANES));
    for (c, (l, r)) in chunks.enumerate() {
        if l.iter()
            .zip(r)
            .fold(false, |hit, (&p, &q)| hit | (p ^ q == v))
        {
            let i = l.iter().zip(r).position(|(&p, &q)| p ^ q == v)?;
            return Some(c * LANES + i);
        }
    }
    None
}

/// Splits whose values are gathered before the values still missing are searched one by one.
const GATHERED: u64 = 256;

/// The smallest value below `gx` that no option has: the values of the one-heap options and
/// of the first [`GATHERED`] splits of each removal are gathered, then each value still
/// missing is searched for among all splits (vectorised, stopping at the first found).
fn missing<V>(gx: u32, one_heap: &[u64], splits: &[(u64, u64)], table: &Tables<V>) -> Option<u32>
where
    V: Copy + Into<u32> + TryFrom<u32> + BitXor<Output = V> + PartialEq,
{
    let mut found = vec![false; gx as usize];
    let mut see = |v: u32| {
        if let Some(slot) = found.get_mut(v as usize) {
            *slot = true;
        }
    };
    one_heap.iter().for_each(|&m| see(table.at(m)));
    for &(s, last) in splits {
        (1..=last.min(GATHERED)).for_each(|a| see(table.at(a) ^ table.at(s - a)));
    }
    (0..gx).find(|&v| {
        !found[v as usize]
            && V::try_from(v).ok().is_none_or(|v| {
                splits.iter().all(|&(s, last)| {
                    first_equal(table.left(last), table.right(s, last), v).is_none()
                })
            })
    })
}

/// The table, and the same reversed, so that the two heaps of the splits of one position run
/// the same way.
struct Tables<V> {
    values: Vec<V>,
    reversed: Vec<V>,
}

impl<V: Copy + Into<u32>> Tables<V> {
    fn at(&self, q: u64) -> u32 {
        self.values[q as usize].into()
    }

    /// g(1), …, g(last): the smaller heaps of the splits (a, s − a), a ≤ last.
    fn left(&self, last: u64) -> &[V] {
        &self.values[1..=last as usize]
    }

    /// g(s − 1), …, g(s − last): their partners.
    fn right(&self, s: u64, last: u64) -> &[V] {
        let n = self.values.len();
        &self.reversed[n - s as usize..n - s as usize + last as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::resident::tests::{rss, written_with};
    use crate::table::words::RELEASE_ALIGN;

    /// The check unpacks the table a piece at a time, releasing each: of a file-backed or
    /// mapped table it keeps nothing beyond the pieces' edges (`.3`: x mod 2, no splits).
    #[test]
    fn unpacking_keeps_little_of_a_mapped_table() {
        let n = 1 << 24;
        let (_dir, g) = written_with(n, 8, |x| (x % 2) as u32);
        let code = TakeBreak::parse_code(".3").unwrap();
        let first = FirstFault::new();
        check(&g, &code, &first, &Progress::hidden()).unwrap();
        assert!(first.take().is_none());
        let kept = rss(&g);
        assert!(kept <= 8 * RELEASE_ALIGN, "{kept} of {n} bytes kept");
    }
}
