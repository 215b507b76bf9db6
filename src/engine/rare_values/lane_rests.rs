//! Which rests the lanes of a stretch one position after another mark the smallest heaps of
//! ([`super::in_order`]): the first splitting removal's, or every one's where the searches
//! would sweep many more splits without them. The choice changes the time, not the values.

use super::context::CodeMoves;

/// Splits a position, for each splitting removal past the first, that a stretch with the first
/// removal's smallest heaps marked must sweep for the next stretches to mark every removal's.
/// To 2^20 with the first removal's only, `.167` swept 77 a position, `.174` 49 and `.245` 304
/// (two splitting removals each), and with every removal's 36, 15 and 188, in 0.15 s against
/// 0.18, 0.17 against 0.20 and 0.76 against 0.82; `.354` (two) swept 20 and was 8% slower
/// with every removal's, `.454` and `.1777` (three) 10 and 13–16% slower, `.056` (two) 21 and
/// 4% faster. The run of `.167` near 7·10^10 went 5.33·10^6 values a second with every
/// removal's against 4.61.
const EVERY_REST_FROM: u64 = 32;
/// Stretches with every removal's smallest heaps marked before one with the first's alone
/// shows again whether the sweeps still need them.
const CHECKED_AFTER: u32 = 16;

/// The rests whose splits with the smallest heaps a stretch's lanes mark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LaneRests {
    /// The first splitting removal's (that of [`CodeMoves::rests`]'s first).
    First,
    /// Every splitting removal's.
    Every,
}

impl LaneRests {
    /// How many splitting removals of `moves`, the smallest first, it covers.
    pub(super) fn count(self, moves: &CodeMoves) -> usize {
        match self {
            LaneRests::First => moves.splits.len().min(1),
            LaneRests::Every => moves.splits.len(),
        }
    }
}

/// Chooses the [`LaneRests`] of each stretch: the first removal's until a stretch with them
/// sweeps more than [`EVERY_REST_FROM`] splits a position for each further removal, then
/// every removal's, with the first's again every [`CHECKED_AFTER`] stretches to see whether
/// the sweeps still need more.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LaneChoice {
    every: bool,
    /// Stretches since the last with the first removal's alone.
    since_first: u32,
}

impl LaneChoice {
    /// The rests of the next stretch.
    pub(super) fn rests(self) -> LaneRests {
        if self.every && self.since_first < CHECKED_AFTER {
            LaneRests::Every
        } else {
            LaneRests::First
        }
    }

    /// Notes a stretch of `len` positions with `rests` whose searches swept `swept` splits.
    pub(super) fn note(&mut self, rests: LaneRests, swept: u64, len: u64, moves: &CodeMoves) {
        match rests {
            LaneRests::First => {
                let further = moves.splits.len().saturating_sub(1) as u64;
                self.every = further > 0 && swept > EVERY_REST_FROM * further * len;
                self.since_first = 0;
            }
            LaneRests::Every => self.since_first += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every removal's once the first's leave many splits to sweep for each further removal,
    /// the first's again for one stretch in each [`CHECKED_AFTER`], and back to the first's
    /// when that one sweeps little; with one splitting removal, always the first's.
    #[test]
    fn every_rest_while_the_first_alone_leaves_many_splits_to_sweep() {
        let two = CodeMoves::splits_only(vec![2, 3], false);
        let three = CodeMoves::splits_only(vec![1, 2, 3], false);
        let mut choice = LaneChoice::default();
        assert_eq!(choice.rests(), LaneRests::First);
        choice.note(LaneRests::First, 33 * 100, 100, &two);
        let mut seen = Vec::new();
        for _ in 0..2 * (CHECKED_AFTER + 1) {
            let rests = choice.rests();
            seen.push(rests);
            choice.note(rests, 50 * 100, 100, &two);
        }
        let firsts = seen.iter().filter(|&&r| r == LaneRests::First).count();
        assert_eq!(
            firsts, 2,
            "one stretch with the first's alone in each {CHECKED_AFTER}"
        );
        assert_eq!(seen[CHECKED_AFTER as usize], LaneRests::First);
        choice.note(LaneRests::First, 31 * 100, 100, &two);
        assert_eq!(choice.rests(), LaneRests::First, "31 a position is few");
        choice.note(LaneRests::First, 33 * 100, 100, &three);
        assert_eq!(
            choice.rests(),
            LaneRests::First,
            "33 for two further removals is few"
        );
        choice.note(LaneRests::First, 65 * 100, 100, &three);
        assert_eq!(choice.rests(), LaneRests::Every);
        let one = CodeMoves::splits_only(vec![1], false);
        choice.note(LaneRests::First, 1000 * 100, 100, &one);
        assert_eq!(choice.rests(), LaneRests::First, "no further removal");
        assert_eq!(LaneRests::Every.count(&three), 3);
        assert_eq!(LaneRests::First.count(&three), 1);
    }
}
