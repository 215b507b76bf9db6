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

/// The most cells [`value`] computes (rows 0..=min(a, b) of columns 0..=max(a, b), on and
/// above the diagonal): about 10 s on one core of a 2-core x86-64 machine, and at most 1.5
/// GiB of row and diagonal sets.
pub const VALUE_CELLS: u64 = 1 << 30;

/// The table of G(x, y), 0 ≤ x, y < n, row-major (cell (x, y) at position x·n + y), with the
/// fewest bits that hold 2n − 2 (G(x, y) ≤ x + y), in the work file when one is given.
/// Computed on `rayon::current_num_threads()` threads; `progress` counts the cells computed
/// (those with x ≤ y, about n²/2; the others follow by symmetry).
pub fn table(n: u64, work_file: Option<&WorkFile>, progress: &Progress) -> Result<PackedValues> {
    assert!(n <= MAX_SIDE, "a side of at most 2^31");
    let cells = n * n;
    let bits = PackedValues::bits_for((2 * n).saturating_sub(2) as u32);
    let values = match work_file {
        Some(file) => PackedValues::zeroed(cells, bits, bits, Some(file))?,
        None => PackedValues::try_in_memory(cells, bits)?,
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
            let mut values = values.lock().expect("no writer panics");
            // Row t of the block's columns, then the block's columns as runs of row s.
            for (t, column) in (first..).zip(block) {
                for (s, &v) in (0..).zip(column) {
                    values.set(t * n + s, v);
                }
            }
            for s in 0..block.last().map_or(0, Vec::len) {
                for (t, column) in (first..).zip(block) {
                    if let Some(&v) = column.get(s) {
                        values.set(s as u64 * n + t, v);
                    }
                }
            }
        },
    )?;
    Ok(values.into_inner().expect("no writer panics"))
}

/// The cells [`value`] computes for G(a, b): the strip of rows 0..=min(a, b) and columns
/// 0..=max(a, b) on and above its diagonal.
pub fn value_cells(a: u64, b: u64) -> u128 {
    let (rows, columns) = (u128::from(a.min(b)) + 1, u128::from(a.max(b)) + 1);
    rows * (rows + 1) / 2 + (columns - rows) * rows
}

/// G(a, b), computed from the rows 0..=min(a, b) up to column max(a, b) (by symmetry
/// G(a, b) = G(b, a)) on `rayon::current_num_threads()` threads. Refused with one line when
/// that is more than [`VALUE_CELLS`] cells: whether (a, b) is a P-position, and the moves to
/// P-positions, are exact for every size in [`crate::game::wythoff`].
pub fn value(a: u64, b: u64) -> Result<u64> {
    let cells = value_cells(a, b);
    if cells > u128::from(VALUE_CELLS) {
        return Err(Error::Input(format!(
            "G({a}, {b}) of Wythoff's game needs {cells} cells of the table, more than the {VALUE_CELLS} (2^30, about 10 s) computed for one value; whether it is a P-position and its winning moves are exact for any heaps"
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
        assert!(refused.contains("more than the 1073741824"), "{refused}");
    }
}
