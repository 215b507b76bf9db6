//! The region of small heaps that [`Search`](super::search::Search) compares one value at a
//! time, kept in reverse from block to block.

use super::context::{CodeMoves, Value};
use super::isa;
use crate::engine::isa::{Isa, detect};

/// The first small heap of the region searched one value at a time: past every position of
/// a block, so that the partner s − a of a split lies below the block.
pub(super) const REGION_FIRST: u64 = super::BLOCK + 1;
/// Splits (a, s − a) with a small heap a in [REGION_FIRST, REGION_FIRST + REGION_LEN): the
/// values of the small heaps in reverse, so that a search compares two slices running the same
/// way, which the compiler vectorises.
#[derive(Clone, Copy)]
pub(super) struct Region<'a, V> {
    pub(super) reversed: &'a [V],
    /// The instruction set [`Region::find`] compares with.
    pub(super) isa: Isa,
}

/// The most small heaps of a [`Region`].
const REGION_MOST: usize = 1 << 15;

/// The small heaps of the last [`Region`] built, in reverse, kept from block to block: a region
/// grows with the block's start only up to [`REGION_MOST`] heaps (blocks from about 66,000 on),
/// so later blocks share one instead of copying it anew each time. One `Regions` serves the
/// blocks of one table only.
#[derive(Default)]
pub struct Regions {
    /// The values as bytes, in words so that any [`Value`] may view them.
    words: Vec<u32>,
    /// Small heaps held.
    len: usize,
    /// Bytes a value held.
    width: usize,
}

impl Regions {
    /// The region of a block starting at b, when every split of the block's positions has its
    /// small heap in it, below its partner.
    pub(super) fn of<V: Value>(
        &mut self,
        table: &[V],
        b: u64,
        moves: &CodeMoves,
    ) -> Option<Region<'_, V>> {
        let j = *moves.splits.last()?;
        // Every small heap a < end must stay below half of every s ≥ b − j, for every
        // splitting removal j.
        let room =
            ((b.saturating_sub(j) / 2).saturating_sub(REGION_FIRST) as usize).min(REGION_MOST);
        let len = room / LANES * LANES;
        if len == 0 {
            return None;
        }
        let width = size_of::<V>();
        if (self.len, self.width) != (len, width) {
            // Positions below b are final, so a region of the same length and width holds the
            // same values.
            self.words = vec![0; len * width / size_of::<u32>()];
            let end = REGION_FIRST as usize + len;
            let heaps = table[REGION_FIRST as usize..end].iter().rev();
            let reversed: &mut [V] = bytemuck::cast_slice_mut(&mut self.words);
            reversed.iter_mut().zip(heaps).for_each(|(r, &v)| *r = v);
            (self.len, self.width) = (len, width);
        }
        Some(Region {
            reversed: bytemuck::cast_slice(&self.words),
            isa: detect(),
        })
    }
}

impl<V: Value> Region<'_, V> {
    /// The small heaps the region holds.
    pub(super) fn heaps(&self) -> std::ops::Range<u64> {
        REGION_FIRST..REGION_FIRST + self.reversed.len() as u64
    }

    /// The small heap a of a split (a, s − a) of value v, if the region has one.
    #[inline]
    pub(super) fn find(&self, table: &[V], s: u64, v: u32) -> Option<u64> {
        let v = V::try_from(v).ok()?;
        isa::find_in_region(self.isa, self.reversed, table, s, v)
    }
}

/// Splits a [`Region`] compares at once.
pub(super) const LANES: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;
    use crate::xorshift::xorshift;

    /// A region finds the first split of each value, and every instruction set this processor
    /// has finds the same one.
    #[test]
    fn regions_find_the_first_split_of_a_value_with_every_instruction_set() {
        let moves = CodeMoves::splits_only(vec![0], true);
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let table: Vec<u16> = (0..20_000).map(|_| (next() % 300) as u16).collect();
        let b = 12_000;
        let mut regions = Regions::default();
        let region = regions
            .of(&table, b, &moves)
            .expect("a region past 2 · 257");
        let len = region.reversed.len() as u64;
        let isas = every_here();
        let (mut found, mut missed) = (0, 0);
        for s in (b..b + 40).step_by(7) {
            for v in 0..520u32 {
                // The largest small heap first: the region's order.
                let want = (REGION_FIRST..REGION_FIRST + len)
                    .rev()
                    .find(|&a| u32::from(table[a as usize] ^ table[(s - a) as usize]) == v);
                for &isa in &isas {
                    let with = Region { isa, ..region };
                    assert_eq!(with.find(&table, s, v), want, "s = {s}, v = {v}");
                }
                found += usize::from(want.is_some());
                missed += usize::from(want.is_none());
            }
        }
        assert!(found > 0 && missed > 0, "{found} found, {missed} missed");
    }
}
