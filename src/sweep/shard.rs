//! `--shard I/K`: the I-th of K contiguous, disjoint parts of a family, so that the parts'
//! rows, concatenated in order, are the rows of the whole family.

use crate::error::{Error, Param, Result};
use crate::text;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Part `index` (1-based) of `parts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 1 to `parts`.
    pub index: u64,
    /// How many parts.
    pub parts: u64,
}

impl Shard {
    /// The whole family as one part.
    pub const WHOLE: Shard = Shard { index: 1, parts: 1 };

    /// Parses `I/K` with 1 ≤ I ≤ K.
    pub fn parse(text: &str) -> Result<Shard> {
        let bad = |why: &str| {
            Error::invalid(
                Param::Shard,
                text!(
                    "bad ",
                    Param::Shard.given(format!("'{text}'")),
                    format!(
                        ": {why} (write I/K with 1 <= I <= K, e.g. 2/3 for the second of three parts)"
                    ),
                ),
            )
        };
        let (i, k) = text.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let number = |t: &str| {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(&format!("'{t}' is not a whole number")));
            }
            t.parse::<u64>()
                .map_err(|_| bad(&format!("'{t}' is larger than 2^64 - 1")))
        };
        let (index, parts) = (number(i)?, number(k)?);
        if parts == 0 {
            return Err(bad("K must be at least 1"));
        }
        if index == 0 || index > parts {
            return Err(bad(&format!("I must be from 1 to {parts}")));
        }
        Ok(Shard { index, parts })
    }

    /// The indices of this part of `games` games: part I of K holds ⌊(I−1)·games/K⌋ up to
    /// ⌊I·games/K⌋, so every part is non-empty when K ≤ games.
    pub fn range(self, games: u64) -> Result<Range<u64>> {
        if self.parts > games {
            return Err(Error::invalid(
                Param::Shard,
                text!(
                    Param::Shard.given(format!("{}/{}", self.index, self.parts)),
                    format!(
                        ": the family has {games} game{}, so it cannot be split into {} parts",
                        if games == 1 { "" } else { "s" },
                        self.parts
                    ),
                ),
            ));
        }
        let cut = |i: u64| (u128::from(i) * u128::from(games) / u128::from(self.parts)) as u64;
        Ok(cut(self.index - 1)..cut(self.index))
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn parts_cover_the_family_in_order() {
        for games in 1..30 {
            for parts in 1..=games {
                let ranges: Vec<_> = (1..=parts)
                    .map(|index| Shard { index, parts }.range(games).unwrap())
                    .collect();
                assert_eq!(ranges[0].start, 0);
                assert_eq!(ranges.last().unwrap().end, games);
                assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
                assert!(ranges.iter().all(|r| !r.is_empty()));
            }
        }
        assert!(Shard { index: 1, parts: 4 }.range(3).is_err());
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, parts: 3 });
        for bad in ["0/3", "4/3", "1/0", "1", "a/3", "-1/3", "1/", "/3", "1/3/4"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let huge = Shard::parse("1/99999999999999999999")
            .unwrap_err()
            .to_string();
        assert!(huge.contains("larger than 2^64 - 1"), "{huge}");
    }
}
