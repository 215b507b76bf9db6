//! Rows of one byte a value: the marks of the splits a chunk of positions has below the
//! block, for bounds of 512 and 1024, packed into the bitsets once the chunk is marked.

use super::{Rows, rare_splits, small_splits};
use crate::engine::rare_values::context::{Context, Value};

/// Bytes of the byte rows marked at once: half the first-level data cache, so that they stay
/// there while the table's partners stream through.
pub(super) const BYTE_ROWS_BYTES: usize = 16 * 1024;

/// Rows of `B` bytes a position, one a value below `B` (a power of two): a mark is one store
/// with no bounds check, where a bitset needs a load, a shift and a store.
pub(super) struct ByteRows<'a, const B: usize> {
    rows: &'a mut [[u8; B]],
    x0: u64,
}

impl<const B: usize> ByteRows<'_, B> {
    /// [`super::mark_known_splits`] through rows of `B` bytes, as many positions at a time as
    /// [`BYTE_ROWS_BYTES`] holds, in `bytes`.
    pub(super) fn mark<V: Value>(
        table: &[V],
        b: u64,
        xs: std::ops::Range<u64>,
        ctx: &Context,
        words: &mut [u64],
        bytes: &mut Vec<u8>,
    ) {
        let room = Context::room(ctx.bound);
        let at_once = (BYTE_ROWS_BYTES / B).max(1);
        bytes.resize(at_once * B, 0);
        let (all_rows, _) = bytes.as_chunks_mut::<B>();
        for (c, words) in words.chunks_mut(room * at_once).enumerate() {
            let x0 = xs.start + (c * at_once) as u64;
            let count = words.len() / room;
            let rows = &mut all_rows[..count];
            rows.iter_mut().for_each(|row| row.fill(0));
            let mut byte_rows = ByteRows { rows, x0 };
            let part = x0..x0 + count as u64;
            rare_splits(&mut byte_rows, table, b, part.clone(), ctx);
            small_splits(&mut byte_rows, table, b, part, ctx);
            for (row, bits) in byte_rows.rows.iter().zip(words.chunks_exact_mut(room)) {
                for (word, eight_bytes) in bits.iter_mut().zip(row.chunks_exact(64)) {
                    *word |= pack_bytes(eight_bytes);
                }
            }
        }
    }
}

impl<const B: usize> Rows for ByteRows<'_, B> {
    #[inline]
    fn mark_each<V: Value>(&mut self, from: u64, partners: &[V], with: u32) {
        let start = (from - self.x0) as usize;
        let rows = &mut self.rows[start..start + partners.len()];
        let mark = |row: &mut [u8; B], t: V| row[(with ^ t.into()) as usize & (B - 1)] = MARKED;
        // Groups of a fixed size unroll into marks at fixed offsets, with no loop bookkeeping
        // between them.
        let (row_groups, rows_left) = rows.as_chunks_mut::<UNROLLED>();
        let (partner_groups, partners_left) = partners.as_chunks::<UNROLLED>();
        for (rows, partners) in row_groups.iter_mut().zip(partner_groups) {
            for (row, &t) in rows.iter_mut().zip(partners) {
                mark(row, t);
            }
        }
        for (row, &t) in rows_left.iter_mut().zip(partners_left) {
            mark(row, t);
        }
    }
}

/// Marks [`ByteRows::mark_each`] makes in one unrolled group.
const UNROLLED: usize = 8;

/// A marked byte of a [`ByteRows`] row: its top bit, which [`pack_bytes`] gathers.
const MARKED: u8 = 0x80;

/// The bitset of 64 bytes, each [`MARKED`] or 0: bit i set when byte i is marked. Eight
/// bytes at a time, one multiplication gathers their top bits into the top byte.
#[inline]
fn pack_bytes(bytes: &[u8]) -> u64 {
    bytes
        .chunks_exact(8)
        .enumerate()
        .fold(0, |bits, (k, eight)| {
            let top_bits =
                u64::from_le_bytes(eight.try_into().expect("eight bytes")) & 0x8080_8080_8080_8080;
            bits | (top_bits.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * k)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_bytes_are_the_marked_ones() {
        for seed in 0..200u64 {
            let bits = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seed << 7);
            let bytes: Vec<u8> = (0..64)
                .map(|i| if bits >> i & 1 == 1 { MARKED } else { 0 })
                .collect();
            assert_eq!(pack_bytes(&bytes), bits);
        }
    }
}
