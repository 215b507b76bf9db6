//! The kernels of the `rare-values` engine, as portable bodies that [`isa`](super::isa)
//! compiles for each instruction set: the search of a region for a split of one value, and
//! the marks of lane groups of the in-order path and of a chunk's rows.

use super::context::Value;
use super::in_order::LANE_COUNT;
use super::region::{LANES, REGION_FIRST};

/// The small heap a of a split (a, s − a) of value v whose small heap the region's reversed
/// values `reversed` hold, if there is one.
#[inline(always)]
pub(super) fn find_in_region_body<V: Value>(
    reversed: &[V],
    table: &[V],
    s: u64,
    v: V,
) -> Option<u64> {
    // reversed[i] is heap end − 1 − i, whose partner is s − end + 1 + i.
    let len = reversed.len();
    let end = REGION_FIRST + len as u64;
    let first = (s + 1 - end) as usize;
    let partners = &table[first..first + len];
    let chunks = partners
        .chunks_exact(LANES)
        .zip(reversed.chunks_exact(LANES));
    for (c, (p, r)) in chunks.enumerate() {
        if p.iter()
            .zip(r)
            .fold(false, |hit, (&x, &y)| hit | (x ^ y == v))
        {
            let i = c * LANES + p.iter().zip(r).position(|(&x, &y)| x ^ y == v)?;
            return Some(end - 1 - i as u64);
        }
    }
    None
}

/// The marks of the pairs (d, c) at positions x0..x0 + `G` · [`LANE_COUNT`] (each pair's
/// partners x − d below x0 + `G` · [`LANE_COUNT`] − d in `table`), as bitsets of `W` words (a
/// power of two), in `G` groups of [`LANE_COUNT`] positions, word by word: word w of position
/// g · [`LANE_COUNT`] + i is `marks[g][w][i]`. A value v's bit goes into word (v / 64) mod `W`
/// by a masked OR, one vector shift serving all `W` words: values below 64 · `W` each have
/// their own bit, larger ones share the bit of v mod 64 · `W`. A pair's partners of all `G`
/// groups are read at once, so that each cache line of the table is fetched once a pair.
#[inline(always)]
pub(super) fn far_marks_body<V: Value, const W: usize, const G: usize>(
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> [[[u64; LANE_COUNT]; W]; G] {
    let mut marks = [[[0u64; LANE_COUNT]; W]; G];
    for &(d, c) in pairs {
        let span = &table[x0 - d..x0 - d + G * LANE_COUNT];
        for (group, partners) in marks.iter_mut().zip(span.chunks_exact(LANE_COUNT)) {
            let values: [u32; LANE_COUNT] = std::array::from_fn(|i| partners[i].into() ^ c);
            for (w, words) in group.iter_mut().enumerate() {
                for (word, &v) in words.iter_mut().zip(&values) {
                    let bit = 1 << (v & 63);
                    *word |= if W == 1 || (v >> 6) & (W as u32 - 1) == w as u32 {
                        bit
                    } else {
                        0
                    };
                }
            }
        }
    }
    marks
}
