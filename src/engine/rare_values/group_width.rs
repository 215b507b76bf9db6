//! The far marks of a group of positions one after another with bitsets of several words,
//! made in one word while every value they mark lies below 64. Past heap 332,129,728 `.167`
//! has the value 64, so its bitsets have two words, yet only 44 of its first 1.6·10^11 heaps
//! have it: nearly every group marks values below 64 only, and one word of lanes is about half
//! the work of two.

use super::ahead::Group;
use super::context::Value;
use super::in_order::LANE_COUNT;
use super::isa::{far_marks, far_marks_reaching};
use crate::engine::isa::Isa;

/// Groups marked in every word after a group whose values reached past 64, before one word is
/// tried again: a value of 64 or more among the partners is met again by the groups after
/// (`.167`'s pairs reach 1,300 positions back, some 160 groups), and each try costs a pass.
/// Each miss after another doubles the wait, up to [`WIDE_LONGEST`]: where such values are
/// common, one word is rarely tried.
const WIDE_AFTER_MISS: u32 = 64;
/// The longest wait after misses one after another.
const WIDE_LONGEST: u32 = 1 << 14;

/// Which width the next group is marked in.
#[derive(Clone, Copy, Debug)]
pub(super) struct GroupWidth {
    /// Groups still to mark in every word.
    wide_for: u32,
    /// The wait after the next miss.
    wait: u32,
}

impl Default for GroupWidth {
    fn default() -> Self {
        GroupWidth {
            wide_for: 0,
            wait: WIDE_AFTER_MISS,
        }
    }
}

impl GroupWidth {
    /// The marks of the `pairs` at the group of positions from x0 (their partners in `table`),
    /// as [`far_marks`] makes them in `W` words: in one where every value marked lies below 64
    /// (the other words clear), else in every word.
    #[inline]
    pub(super) fn marks<V: Value, const W: usize>(
        &mut self,
        isa: Isa,
        table: &[V],
        x0: usize,
        pairs: &[(usize, u32)],
    ) -> Group<W> {
        if W > 1 {
            if self.wide_for == 0 {
                let (low, reach) = far_marks_reaching::<V, LANE_COUNT>(isa, table, x0, pairs);
                if reach < 64 {
                    self.wait = WIDE_AFTER_MISS;
                    let mut group = [[0; LANE_COUNT]; W];
                    group[0] = low;
                    return group;
                }
                self.wide_for = self.wait;
                self.wait = (2 * self.wait).min(WIDE_LONGEST);
            } else {
                self.wide_for -= 1;
            }
        }
        far_marks(isa, table, x0, pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;
    use crate::xorshift::xorshift;

    /// Groups marked through [`GroupWidth`] equal those marked in every word, over a table whose
    /// values lie below 64 but for a few scattered ones (and pairs whose own value is past 64),
    /// for bitsets of two and four words and every instruction set here.
    #[test]
    fn groups_in_one_word_where_the_values_allow_equal_those_in_every_word() {
        fn check<const W: usize>(table: &[u8], pairs: &[(usize, u32)]) {
            for isa in every_here() {
                let mut width = GroupWidth::default();
                let (mut narrow, mut wide) = (0, 0);
                for x0 in (1100..table.len() - LANE_COUNT).step_by(LANE_COUNT) {
                    let got: Group<W> = width.marks(isa, table, x0, pairs);
                    let want: Group<W> = far_marks(isa, table, x0, pairs);
                    assert_eq!(got, want, "{isa:?}, x0 = {x0}, W = {W}");
                    if got[1..].iter().flatten().all(|&w| w == 0) {
                        narrow += 1;
                    } else {
                        wide += 1;
                    }
                }
                assert!(
                    narrow > 100 && wide > 10,
                    "{narrow} groups narrow, {wide} wide"
                );
            }
        }
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut table: Vec<u8> = (0..20_000).map(|_| (next() % 64) as u8).collect();
        for x in [3000, 3004, 9000, 15_000] {
            table[x] = 64 + (next() % 64) as u8;
        }
        let pairs: Vec<(usize, u32)> = (8..1000)
            .step_by(7)
            .map(|d| (d, (next() % 64) as u32))
            .collect();
        check::<2>(&table, &pairs);
        check::<4>(&table, &pairs);
        let mut past_64 = pairs.clone();
        past_64.push((500, 100));
        let wide: Group<2> = GroupWidth::default().marks(Isa::Portable, &table, 5000, &past_64);
        assert!(wide[1].iter().any(|&w| w != 0), "a pair's value past 64");
    }
}
