//! Tables of Wythoff's two-heap game checked against its definition: G(x, y) is the mex of
//! the values in its row before it (G(x, y′), y′ < y), its column (G(x′, y), x′ < x) and its
//! diagonal (G(x − j, y − j), j ≥ 1). The cells are taken row by row, keeping a bitset of each
//! column's and each diagonal's values so far and one of the row's, so a cell costs the search
//! from its row's mex to its own value, and 3n²/4 bytes of sets; a row's columns are shared
//! out among the worker threads (docs/games.md gives measured times). A cell
//! below the diagonal (y < x) only has to equal its mirror G(y, x), checked before it. The
//! P-pairs are compared with ⌊kφ⌋, ⌊kφ⌋ + k.

use crate::error::Result;
use crate::format::two_heaps::Grid;
use crate::game::wythoff::{p_pair, pairs_below};
use crate::progress::Progress;
use crate::table::reserve;
use rayon::prelude::*;

/// `len` zero words, or an input error saying what could not be allocated.
fn zeroed(len: u64) -> Result<Vec<u64>> {
    let mut words = reserve(len, "the row, column and diagonal sets that verify keeps")?;
    words.resize(len as usize, 0);
    Ok(words)
}

/// The first cell of `grid` in row-major order whose value is not the mex of its options,
/// described in one line; None when every cell is right. Each row is split into as many runs
/// of columns as there are worker threads, checked side by side: a run's columns and
/// diagonals are its own, and the row's values before it come from the file.
pub fn check_grid(grid: &Grid, progress: &Progress) -> Result<Option<String>> {
    let n = grid.n;
    if n == 0 {
        return Ok(None);
    }
    // Values up to 2n − 2 (G(x, y) ≤ x + y once every earlier cell is right).
    let w = (2 * n - 1).div_ceil(64) as usize;
    let mut columns = zeroed(n * w as u64)?;
    let mut diagonals = zeroed((2 * n - 1) * w as u64)?;
    let run = n.div_ceil(rayon::current_num_threads() as u64) as usize;
    let mut row = Vec::with_capacity(n as usize);
    for x in 0..n {
        row.clear();
        grid.values.each(x * n, (x + 1) * n, |v| row.push(v));
        // Cell (x, y) is on diagonal y + n − 1 − x: the row's diagonals are n in a row.
        let row_diagonals = &mut diagonals[(n - 1 - x) as usize * w..][..n as usize * w];
        let fault = columns
            .par_chunks_mut(run * w)
            .zip(row_diagonals.par_chunks_mut(run * w))
            .enumerate()
            .map(|(i, (columns, diagonals))| {
                let cells = Cells {
                    grid,
                    x,
                    row: &row,
                    w,
                };
                cells.check_run(i * run, columns, diagonals)
            })
            .find_first(Option::is_some)
            .flatten();
        if fault.is_some() {
            return Ok(fault);
        }
        progress.set((x + 1) * n);
    }
    Ok(None)
}

/// One row of a table being checked, with the width of its value sets.
struct Cells<'a> {
    grid: &'a Grid,
    x: u64,
    row: &'a [u32],
    w: usize,
}

impl Cells<'_> {
    /// Checks the row's cells from column `first` on, one for each set of `columns` (and of
    /// `diagonals`, in the same order), and adds their values to those sets; the first wrong
    /// cell in one line.
    fn check_run(
        &self,
        first: usize,
        columns: &mut [u64],
        diagonals: &mut [u64],
    ) -> Option<String> {
        let (w, x) = (self.w, self.x);
        let set = |bits: &mut [u64], v: u32| bits[v as usize / 64] |= 1 << (v % 64);
        // The row's values before the run; one too large is a fault found in an earlier run.
        let mut row_set = vec![0u64; w];
        for &v in self.row[..first].iter().filter(|&&v| (v as usize) < w * 64) {
            set(&mut row_set, v);
        }
        let mut row_mex = 0u32;
        let advance = |row_set: &[u64], row_mex: &mut u32| {
            while (*row_mex as usize) < w * 64
                && row_set[*row_mex as usize / 64] >> (*row_mex % 64) & 1 == 1
            {
                *row_mex += 1;
            }
        };
        advance(&row_set, &mut row_mex);
        for (i, (column, diagonal)) in columns
            .chunks_mut(w)
            .zip(diagonals.chunks_mut(w))
            .enumerate()
        {
            let y = (first + i) as u64;
            let g = self.row[first + i];
            let mex = if y < x {
                self.grid.values.get(y * self.grid.n + x)
            } else {
                let mut mex = w as u32 * 64;
                for i in row_mex as usize / 64..w {
                    let seen = row_set[i] | column[i] | diagonal[i];
                    if seen != u64::MAX {
                        mex = i as u32 * 64 + seen.trailing_ones();
                        break;
                    }
                }
                mex
            };
            if g != mex {
                return Some(format!(
                    "G({x}, {y}) = {g} in the file, but the mex of the values before it in its row, column and diagonal is {mex}"
                ));
            }
            set(&mut row_set, g);
            set(column, g);
            set(diagonal, g);
            advance(&row_set, &mut row_mex);
        }
        None
    }
}

/// The first of `pairs` that is not the P-pair (⌊kφ⌋, ⌊kφ⌋ + k), or a list that does not
/// hold every pair with a_k < `n`, described in one line; None when the list is right.
pub fn check_pairs(pairs: &[[u64; 2]], n: u64) -> Option<String> {
    for (k, &[a, b]) in pairs.iter().enumerate() {
        let k = k as u64;
        match p_pair(k) {
            Some(pair) if pair == (a, b) => {}
            Some((pa, pb)) => {
                return Some(format!(
                    "pair {k} is ({a}, {b}) in the file, but the P-pair {k} of Wythoff's game is ({pa}, {pb})"
                ));
            }
            None => return Some(format!("pair {k}: no P-pair {k} has b_k below 2^64")),
        }
    }
    let expected = pairs_below(n);
    (pairs.len() as u64 != expected).then(|| {
        format!(
            "the file holds {} pairs, but {expected} P-pairs have a_k < {n}",
            pairs.len()
        )
    })
}
