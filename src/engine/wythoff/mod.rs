//! Wythoff's game: the Grundy values G(x, y) of two heaps x and y, as a square table or one
//! value at a time, from the kernel in [`strip`] (cost O(1) word operations a cell, not the
//! O(x + y) of the mex over every option), and the mex by the definition as the oracle.

mod strip;

use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use std::sync::Mutex;

/// The largest side of a table: values stay below 2N ≤ 2^32.
pub const MAX_SIDE: u64 = 1 << 31;

/// The most work [`value`] takes on, in the units of [`value_work`] (2^14 × 2^14 takes 3·10^10
/// and `100 10^7` 9·10^9: both refused; `8000 8000` takes 1.6·10^9). docs/games.md gives the
/// time a unit takes where it was measured.
pub const VALUE_WORK: f64 = 4.0e9;

/// The bits a value of the table of side `n` takes: the fewest that hold 2n − 2
/// (G(x, y) ≤ x + y).
pub fn bits(n: u64) -> u32 {
    PackedValues::bits_for((2 * n).saturating_sub(2) as u32)
}

/// The table of G(x, y), 0 ≤ x, y < n, row-major (cell (x, y) at position x·n + y), with the
/// fewest bits that hold 2n − 2 (G(x, y) ≤ x + y), in the work file when one is given.
/// Computed on `rayon::current_num_threads()` threads; `progress` counts the cells computed
/// (those with x ≤ y, about n²/2; the others follow by symmetry).
pub fn table(n: u64, work_file: Option<&WorkFile>, progress: &Progress) -> Result<PackedValues> {
    assert!(n <= MAX_SIDE, "a side of at most 2^31");
    let cells = n * n;
    let bits = bits(n);
    let values = match work_file {
        Some(file) => PackedValues::zeroed(cells, bits, bits, Some(file))?,
        None => PackedValues::in_memory(cells, bits)?,
    };
    if n == 0 {
        return Ok(values);
    }
    let values = Mutex::new(values);
    strip::run(
        n,
        n,
        rayon::current_num_threads(),
        progress,
        &|first: u64, block: &[Vec<u32>]| {
            store(
                &mut values.lock().expect("no writer panics"),
                n,
                first,
                block,
            );
        },
    )?;
    Ok(values.into_inner().expect("no writer panics"))
}

/// Writes a block of columns G(0..=t, t), t = first, first + 1, …, into the table of side n
/// at (t, s) and (s, t): rows t, then the block's runs of rows s. Directly as bytes, u16 or
/// u32 when the table is stored so.
fn store(values: &mut PackedValues, n: u64, first: u64, block: &[Vec<u32>]) {
    let each = |set: &mut dyn FnMut(u64, u32)| {
        for (t, column) in (first..).zip(block) {
            for (s, &v) in (0..).zip(column) {
                set(t * n + s, v);
            }
        }
        for s in 0..block.last().map_or(0, Vec::len) {
            for (t, column) in (first..).zip(block) {
                if let Some(&v) = column.get(s) {
                    set(s as u64 * n + t, v);
                }
            }
        }
    };
    if let Some(cells) = values.as_mut_slice::<u16>() {
        each(&mut |at, v| cells[at as usize] = v as u16);
    } else if let Some(cells) = values.as_mut_slice::<u32>() {
        each(&mut |at, v| cells[at as usize] = v);
    } else if let Some(cells) = values.as_mut_slice::<u8>() {
        each(&mut |at, v| cells[at as usize] = v as u8);
    } else {
        each(&mut |at, v| values.set(at, v));
    }
}

/// An estimate of the work of [`value`] for G(a, b): the strip of rows s ≤ min(a, b) and
/// columns s ≤ t ≤ max(a, b), eight units a cell and one for each of the about s/64 words its
/// search crosses: Σ (C − s)(8 + s/64) over s < R, R = min + 1, C = max + 1.
pub fn value_work(a: u64, b: u64) -> f64 {
    let (r, c) = (a.min(b) as f64 + 1.0, a.max(b) as f64 + 1.0);
    let cells = r * c - r * (r - 1.0) / 2.0;
    let searched = c * r * (r - 1.0) / 2.0 - (r - 1.0) * r * (2.0 * r - 1.0) / 6.0;
    8.0 * cells + searched / 64.0
}

/// G(a, b), computed from the rows 0..=min(a, b) up to column max(a, b) (by symmetry
/// G(a, b) = G(b, a)) on `rayon::current_num_threads()` threads. Refused with one line when
/// that is more than [`VALUE_WORK`]: whether (a, b) is a P-position, and the moves to
/// P-positions, are exact for every size in [`crate::game::wythoff`].
pub fn value(a: u64, b: u64) -> Result<u64> {
    let work = value_work(a, b);
    if work > VALUE_WORK {
        return Err(Error::unsupported(format!(
            "G({a}, {b}) of Wythoff's game would take about {:.0} s (rows 0 to {} up to column {}), more than the 10 s one value may; whether it is a P-position and its winning moves are exact for any heaps",
            10.0 * work / VALUE_WORK,
            a.min(b),
            a.max(b)
        )));
    }
    let (rows, columns) = (a.min(b) + 1, a.max(b) + 1);
    let found = Mutex::new(0);
    strip::run(
        rows,
        columns,
        rayon::current_num_threads(),
        &Progress::hidden(),
        &|first: u64, block: &[Vec<u32>]| {
            if let Some(column) = block.get((columns - 1 - first) as usize) {
                *found.lock().expect("no writer panics") = column[(rows - 1) as usize];
            }
        },
    )?;
    Ok(u64::from(found.into_inner().expect("no writer panics")))
}

/// G(x, y) for 0 ≤ x, y < n, row-major, by the definition: the mex of the values of every
/// option (x′, y), (x, y′) and (x − d, y − d). O(n³); the oracle the kernel is tested and
/// measured against.
pub fn reference(n: usize) -> Vec<u32> {
    let mut g = vec![0u32; n * n];
    let mut seen = vec![usize::MAX; 2 * n + 1];
    for x in 0..n {
        for y in 0..n {
            let cell = x * n + y;
            let options = (0..x)
                .map(|x2| x2 * n + y)
                .chain((0..y).map(|y2| x * n + y2))
                .chain((1..=x.min(y)).map(|d| cell - d * (n + 1)));
            for option in options {
                seen[g[option] as usize] = cell;
            }
            g[cell] = (0..)
                .find(|&v| seen[v] != cell)
                .expect("a value is missing") as u32;
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_of_every_shape_agree_with_the_definition() {
        let n = 150;
        let g = reference(n);
        for threads in [1, 2, 3] {
            for rows in [1, 2, 3, 5, 12, 40] {
                for columns in [rows, rows + 1, 2 * rows + 3, 64, 65, 150] {
                    let seen = Mutex::new(vec![false; columns as usize]);
                    strip::run(
                        rows,
                        columns,
                        threads,
                        &Progress::hidden(),
                        &|first, block| {
                            for (t, column) in (first as usize..).zip(block) {
                                seen.lock().unwrap()[t] = true;
                                let expected: Vec<u32> =
                                    (0..column.len()).map(|s| g[s * n + t]).collect();
                                assert_eq!(column, &expected, "column {t} of {rows}x{columns}");
                            }
                        },
                    )
                    .unwrap();
                    assert!(seen.into_inner().unwrap().iter().all(|&s| s));
                }
            }
        }
    }

    #[test]
    fn values_and_the_first_rows() {
        let g = reference(60);
        for (a, b) in [(0, 0), (1, 2), (2, 1), (5, 59), (59, 5), (30, 30), (0, 59)] {
            assert_eq!(
                value(a, b).unwrap(),
                u64::from(g[a as usize * 60 + b as usize])
            );
        }
        // Row 1 of Wythoff's game: 1 2 0 4 5 3, then +3 every 3.
        assert_eq!(&g[60..66], [1, 2, 0, 4, 5, 3]);
        let refused = value(1 << 20, 1 << 20).unwrap_err().to_string();
        assert!(
            refused.contains("more than the 10 s one value may"),
            "{refused}"
        );
        assert!(value(100, 10_000_000).is_err() && value_work(8000, 8000) < VALUE_WORK);
    }
}
