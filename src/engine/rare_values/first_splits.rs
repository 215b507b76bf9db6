//! How many splits with the smallest heaps a block marks before it searches for the rare
//! values still missing: chosen from the searches they leave.

use super::search::SCANNED_FIRST;

/// The most splits with the smallest heaps [`FirstSplits`] chooses.
const SCANNED_MOST: u64 = 8192;
/// Searches of many splits a position, on average, above which [`FirstSplits`] doubles the
/// first splits; below [`SEARCHED_FEWER`] it halves them again.
const SEARCHED_MORE: u64 = 5;
/// See [`SEARCHED_MORE`]: 1.5 searches a position, as a fraction.
const SEARCHED_FEWER: (u64, u64) = (3, 2);
/// Choices for which a count found too few, by a doubling right after a halving, is not
/// halved to again.
const HELD: u32 = 32;
/// Positions of blocks between two choices of [`FirstSplits`].
const CHOSEN_EVERY: u64 = 1 << 16;

/// How many splits with the smallest heaps a block marks before its searches: from
/// [`SCANNED_FIRST`] up to [`SCANNED_MOST`], doubled while the rare values they leave missing
/// need more than [`SEARCHED_MORE`] searches of the region (or of many splits) a position, each
/// about as many splits as there are values; halved below [`SEARCHED_FEWER`]. Values found at
/// the heaps remembered for them cost no such search: Grundy's game leaves 4.7 values missing
/// a position after 1,024 splits, most found there. At 2^22, one thread, with 1,024: searches
/// a position (and user seconds with 1,024, then with the splits doubled) `.172` 8.8 (11.9 s,
/// 9.0), `.014` 7.5 (9.9 s, 9.0), `.6` 6.9 (7.7 s, 6.3); but Grundy's game 3.6 (4.8 s, 5.7
/// when doubled on the values missing), `.034` 1.9, `.161` 1.3, `.364` 0.4 (doubling made
/// these no faster). A count that a halving made too few, doubled back at the next choice, is
/// kept for [`HELD`] choices before a halving tries again: `.172` at 2^22 left 5.4 searches a
/// position with 2,048 and 1.4 with 4,096, and swung between the two at every choice (1–5% of
/// its time on one thread, docs/performance.md). The count depends only on the values, never
/// on the threads.
#[derive(Clone, Copy)]
pub(super) struct FirstSplits {
    /// The splits marked first.
    pub(super) count: u64,
    /// Searches of many splits, over `positions` positions since the last choice.
    searched: u64,
    positions: u64,
    /// Whether the last choice halved the count.
    halved: bool,
    /// The count that a doubling right after a halving came back to.
    floor: u64,
    /// Choices left for which no halving goes below `floor`.
    held: u32,
}

impl Default for FirstSplits {
    fn default() -> FirstSplits {
        FirstSplits {
            count: SCANNED_FIRST,
            searched: 0,
            positions: 0,
            halved: false,
            floor: SCANNED_FIRST,
            held: 0,
        }
    }
}

impl FirstSplits {
    /// Notes a block of `positions` whose first splits left `searched` searches of many
    /// splits, and chooses again every [`CHOSEN_EVERY`] positions.
    pub(super) fn note(&mut self, searched: u64, positions: u64) {
        self.searched += searched;
        self.positions += positions;
        if self.positions < CHOSEN_EVERY {
            return;
        }
        let (fewer, per) = SEARCHED_FEWER;
        let more = self.searched > SEARCHED_MORE * self.positions;
        let few = self.searched * per < fewer * self.positions;
        self.held = self.held.saturating_sub(1);
        let halved = self.halved;
        self.halved = false;
        if more && self.count < SCANNED_MOST {
            self.count *= 2;
            if halved {
                (self.floor, self.held) = (self.count, HELD);
            }
        } else if few && self.count > SCANNED_FIRST && (self.held == 0 || self.count > self.floor) {
            self.count /= 2;
            self.halved = true;
        }
        (self.searched, self.positions) = (0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first splits double while they leave more than [`SEARCHED_MORE`] searches a
    /// position, up to [`SCANNED_MOST`], and halve below [`SEARCHED_FEWER`], down to
    /// [`SCANNED_FIRST`]; a choice comes every [`CHOSEN_EVERY`] positions.
    #[test]
    fn the_first_splits_follow_the_searches_they_leave() {
        let mut first = FirstSplits::default();
        let block = |missing_each: u64| (missing_each * 256, 256);
        let choose = |first: &mut FirstSplits, missing_each| {
            for _ in 0..CHOSEN_EVERY / 256 {
                let (missing, positions) = block(missing_each);
                first.note(missing, positions);
            }
            first.count
        };
        assert_eq!(choose(&mut first, 20), 2 * SCANNED_FIRST);
        assert_eq!(choose(&mut first, 5), 2 * SCANNED_FIRST);
        let counts: Vec<u64> = (0..5).map(|_| choose(&mut first, 20)).collect();
        assert_eq!(
            counts,
            [4096, SCANNED_MOST, SCANNED_MOST, SCANNED_MOST, SCANNED_MOST]
        );
        let counts: Vec<u64> = (0..5).map(|_| choose(&mut first, 1)).collect();
        assert_eq!(
            counts,
            [4096, 2048, SCANNED_FIRST, SCANNED_FIRST, SCANNED_FIRST]
        );
        // No choice before CHOSEN_EVERY positions.
        first.note(100 * 256, 256);
        assert_eq!(first.count, SCANNED_FIRST);
    }

    /// A count found too few, by a doubling right after a halving, is not halved to again for
    /// [`HELD`] choices: the counts do not swing between two at every choice.
    #[test]
    fn a_count_too_few_is_held() {
        // Searches each count leaves a position, much as in `.172` at 2^22.
        let left = |count| match count {
            1024 => 9,
            2048 => 6,
            _ => 1,
        };
        let mut first = FirstSplits::default();
        let counts: Vec<u64> = (0..40)
            .map(|_| {
                let searched = left(first.count);
                for _ in 0..CHOSEN_EVERY / 256 {
                    first.note(searched * 256, 256);
                }
                first.count
            })
            .collect();
        // Doubled twice; halved at one search a position, doubled back at once, and held
        // there until tried again.
        assert_eq!(counts[..4], [2048, 4096, 2048, 4096]);
        let held = 4 + HELD as usize - 1;
        assert!(counts[4..held].iter().all(|&c| c == 4096), "{counts:?}");
        assert_eq!(counts[held..held + 3], [2048, 4096, 4096], "{counts:?}");
    }
}
