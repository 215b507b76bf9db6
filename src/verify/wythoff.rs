//! Tables of Wythoff's two-heap game checked against its definition: G(x, y) is the mex of
//! the values in its row before it (G(x, y′), y′ < y), its column (G(x′, y), x′ < x) and its
//! diagonal (G(x − j, y − j), j ≥ 1). The cells are taken row by row, keeping a bitset of each
//! column's and each diagonal's values so far and one of the row's, so a cell costs the search
//! from its row's mex to its own value, about x/64 words: n³/384 words for the table of side
//! n (n = 2^12 in well under a second, 2^14 in some seconds), and 3n²/4 bytes of sets. A cell
//! below the diagonal (y < x) only has to equal its mirror G(y, x), checked before it. The
//! P-pairs are compared with ⌊kφ⌋, ⌊kφ⌋ + k.

use crate::error::Result;
use crate::format::wythoff::Grid;
use crate::game::wythoff::{p_pair, pairs_below};
use crate::progress::Progress;
use crate::table::reserve;

/// `len` zero words, or an input error saying what could not be allocated.
fn zeroed(len: u64) -> Result<Vec<u64>> {
    let mut words = reserve(len, "the row, column and diagonal sets that verify keeps")?;
    words.resize(len as usize, 0);
    Ok(words)
}

/// The first cell of `grid` in row-major order whose value is not the mex of its options,
/// described in one line; None when every cell is right.
pub fn check_grid(grid: &Grid, progress: &Progress) -> Result<Option<String>> {
    let n = grid.n;
    if n == 0 {
        return Ok(None);
    }
    // Values up to 2n − 2 (G(x, y) ≤ x + y once every earlier cell is right).
    let w = (2 * n - 1).div_ceil(64) as usize;
    let mut columns = zeroed(n * w as u64)?;
    let mut diagonals = zeroed((2 * n - 1) * w as u64)?;
    let mut row_set = vec![0u64; w];
    let mut row = Vec::with_capacity(n as usize);
    let set = |bits: &mut [u64], v: u32| bits[v as usize / 64] |= 1 << (v % 64);
    for x in 0..n {
        row.clear();
        grid.values.each(x * n, (x + 1) * n, |v| row.push(v));
        row_set.fill(0);
        let mut row_mex = 0u32;
        for y in 0..n {
            let g = row[y as usize];
            let column = &mut columns[y as usize * w..][..w];
            let d = (y + n - 1 - x) as usize;
            let diagonal = &mut diagonals[d * w..][..w];
            let mex = if y < x {
                grid.values.get(y * n + x)
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
                return Ok(Some(format!(
                    "G({x}, {y}) = {g} in the file, but the mex of the values before it in its row, column and diagonal is {mex}"
                )));
            }
            set(&mut row_set, g);
            set(column, g);
            set(diagonal, g);
            while row_set[row_mex as usize / 64] >> (row_mex % 64) & 1 == 1 {
                row_mex += 1;
            }
        }
        progress.set((x + 1) * n);
    }
    Ok(None)
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
