//! Families of games: `subK:M` (every K-element subtraction set with largest element ≤ M),
//! `NAME:A..B` (one integer parameter over a range) and `octalK` / `octalK:4` (every octal code
//! `0.d1…dK` / `4.d1…dK` with dK ≠ 0), each optionally followed by a digit applied to every set
//! (`sub2:12@7`: remove an element, leave nothing, one heap or two) and by modifiers
//! (`+leave1`, `+misere`, `+unequal`). A family is a numbered list of game specs, produced on
//! demand.

use crate::error::{Error, Param, Result};
use crate::game::Game;
use crate::number::{NotASize, parse};
use crate::text;
use std::ops::Range;

/// A numbered list of game specs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    /// The family as written (trimmed), e.g. `sub3:40+misere`.
    pub text: String,
    kind: Kind,
    /// The digit applied to every set, e.g. `@7` (empty for none).
    digit: String,
    /// Modifiers appended to every spec, e.g. `+misere` (empty for none).
    modifiers: String,
    len: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Every `k`-element subset of {1, …, `max`}, in lexicographic order of the sorted elements.
    Subsets { k: u64, max: u64 },
    /// `name:i` for i = `first` ..= `last`.
    Range { name: String, first: u64 },
    /// Every octal code `lead.d1…dK` with dK ≠ 0, in lexicographic order of the digits.
    Octal { digits: u32, lead: char },
}

/// The most digits of an octal family (7·8^5 = 229,376 codes).
const MOST_OCTAL_DIGITS: u64 = 6;

/// The most elements of the sets of a `subK:M` family, 2^16: every game's spec lists them all
/// (a `sub:` spec of more would not fit a command line).
const MOST_SET_ELEMENTS: u64 = 1 << 16;

const SYNTAX: &str = "write subK:M (every K-element subtraction set with largest element <= M, \
                      e.g. sub3:40), NAME:A..B (e.g. powers:2..6, bachet:1..20) or octalK / \
                      octalK:4 (every octal code 0.d1...dK / 4.d1...dK, dK non-zero, e.g. \
                      octal3), optionally followed by @DIGIT (e.g. sub2:12@7) and by +leave1, \
                      +misere or +unequal";

impl Family {
    /// Parses a family and checks that its first and last specs are valid games. Its size is
    /// found in closed form (C(M, K) for `subK:M`), so any size is known at once.
    pub fn parse(text: &str) -> Result<Family> {
        let text = text.trim();
        let err = |reason: String| Error::Input(format!("bad family '{text}': {reason}"));
        // A `+` inside braces is part of a digit (`@{2+}`), not a modifier.
        let mut depth = 0i32;
        let plus = text.char_indices().find(|&(_, c)| {
            depth += i32::from(c == '{') - i32::from(c == '}');
            c == '+' && depth == 0
        });
        let (base, modifiers) = text.split_at(plus.map_or(text.len(), |(i, _)| i));
        let (base, digit) = base.split_at(base.find('@').unwrap_or(base.len()));
        let (name, args) = match base.split_once(':') {
            Some(split) => split,
            None if base.starts_with("octal") => (base, "0"),
            None => return Err(err(format!("no ':' found; {SYNTAX}"))),
        };
        let number = |t: &str, what: &str| {
            parse(t).map_err(|why| match why {
                NotASize::TooLarge => err(format!("{what} '{t}' is larger than 2^64 - 1")),
                NotASize::Malformed(why) => {
                    err(format!("{what} '{t}' is not a number ({why}); {SYNTAX}"))
                }
            })
        };
        let (kind, len) = if let Some((a, b)) = args.split_once("..") {
            let (first, last) = (number(a, "A")?, number(b, "B")?);
            if first > last {
                return Err(err(format!("the range {first}..{last} is empty (A > B)")));
            }
            let len = (last - first)
                .checked_add(1)
                .ok_or_else(|| err("the range is too long".into()))?;
            let name = name.trim().to_string();
            (Kind::Range { name, first }, len)
        } else if let Some(k) = name.strip_prefix("octal").filter(|k| !k.is_empty()) {
            let digits = number(k, "K")?;
            if !(1..=MOST_OCTAL_DIGITS).contains(&digits) {
                return Err(err(format!(
                    "K = {digits} digits: octal families have 1 to {MOST_OCTAL_DIGITS} digits after the point"
                )));
            }
            let lead = match args.trim() {
                "0" => '0',
                "4" => '4',
                other => {
                    return Err(err(format!(
                        "'{other}' after ':' must be 0 (codes 0.d1...dK) or 4 (codes 4.d1...dK)"
                    )));
                }
            };
            let len = 7 * 8u64.pow(digits as u32 - 1);
            (
                Kind::Octal {
                    digits: digits as u32,
                    lead,
                },
                len,
            )
        } else if let Some(k) = name.strip_prefix("sub").filter(|k| !k.is_empty()) {
            let (k, max) = (number(k, "K")?, number(args, "M")?);
            if k == 0 {
                return Err(err("K must be at least 1".into()));
            }
            if k > MOST_SET_ELEMENTS {
                return Err(err(format!(
                    "K = {k}: the sets of a family have at most {MOST_SET_ELEMENTS} elements; use a smaller K"
                )));
            }
            if max < k {
                return Err(err(format!(
                    "there is no {k}-element set of steps from 1 to {max} (M must be at least K)"
                )));
            }
            let len = binomial(max, k)
                .and_then(|c| u64::try_from(c).ok())
                .ok_or_else(|| err("the family has more than 2^64 - 1 games".into()))?;
            (Kind::Subsets { k, max }, len)
        } else {
            return Err(err(SYNTAX.to_string()));
        };
        let family = Family {
            text: text.to_string(),
            kind,
            digit: digit.to_string(),
            modifiers: modifiers.to_string(),
            len,
        };
        for index in [0, len - 1] {
            Game::parse(&family.spec(index)).map_err(|e| {
                Error::invalid(
                    Param::Game,
                    text!(format!("bad family '{text}': "), e.text()),
                )
            })?;
        }
        Ok(family)
    }

    /// The number of games (at least 1).
    pub fn count(&self) -> u64 {
        self.len
    }

    /// The game spec at `index` (below [`Family::count`]).
    pub fn spec(&self, index: u64) -> String {
        self.specs(index..index + 1).next().expect("index in range")
    }

    /// The game specs at `range`, in family order.
    pub fn specs(&self, range: Range<u64>) -> impl Iterator<Item = String> + '_ {
        let count = range.end.min(self.len).saturating_sub(range.start) as usize;
        let mut subset = match self.kind {
            Kind::Subsets { k, max } if count > 0 => unrank(range.start, k, max),
            _ => Vec::new(),
        };
        (range.start..range.start + count as u64).map(move |index| {
            let base = match &self.kind {
                Kind::Range { name, first } => format!("{name}:{}", first + index),
                Kind::Subsets { max, .. } => {
                    let joined = subset
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(",");
                    next_subset(&mut subset, *max);
                    format!("sub:{joined}")
                }
                Kind::Octal { digits, lead } => {
                    // Digits d1…d(K−1) are index / 7 in base 8; dK is 1 + index mod 7.
                    let head = index / 7;
                    let code: String = (1..*digits)
                        .rev()
                        .map(|place| char::from(b'0' + (head >> (3 * (place - 1)) & 7) as u8))
                        .chain([char::from(b'1' + (index % 7) as u8)])
                        .collect();
                    format!("octal:{lead}.{code}")
                }
            };
            format!("{base}{}{}", self.digit, self.modifiers)
        })
    }
}

/// C(n, k), or None past u128.
fn binomial(n: u64, k: u64) -> Option<u128> {
    let k = k.min(n.saturating_sub(k));
    (0..u128::from(k)).try_fold(1u128, |c, j| {
        Some(c.checked_mul(u128::from(n) - j)? / (j + 1))
    })
}

/// The `rank`-th (from 0) `k`-element subset of {1, …, `max`} in lexicographic order, in
/// O(k log `max`) binomials. Of the subsets that share the elements before a slot (the next
/// one at least `lo`, `after` elements to follow it), those whose element at the slot lies
/// below c number C(max − lo + 1, after + 1) − C(max − c + 1, after + 1) (the hockey-stick
/// identity), so the element is found by a binary search on C(m, after + 1), m = max − c + 1.
fn unrank(mut rank: u64, k: u64, max: u64) -> Vec<u64> {
    let mut subset = Vec::with_capacity(k as usize);
    let mut lo = 1;
    for after in (0..k).rev() {
        let count = |m: u64| binomial(m, after + 1).expect("bounded by the family size");
        let all = count(max - lo + 1);
        // The smallest m whose count leaves at most `rank` subsets skipped.
        let target = all - u128::from(rank);
        let (mut m, mut high) = (after + 1, max - lo + 1);
        while m < high {
            let mid = m + (high - m) / 2;
            if count(mid) >= target {
                high = mid;
            } else {
                m = mid + 1;
            }
        }
        rank -= (all - count(m)) as u64;
        let element = max - m + 1;
        subset.push(element);
        // The last slot may hold u64::MAX, after which nothing follows.
        lo = element.saturating_add(1);
    }
    subset
}

/// Advances `subset` to the next subset of {1, …, `max`} of its size in lexicographic order
/// (leaves the last one unchanged).
fn next_subset(subset: &mut [u64], max: u64) {
    let k = subset.len() as u64;
    let Some(i) = (0..subset.len())
        .rev()
        .find(|&i| subset[i] < max - (k - 1 - i as u64))
    else {
        return;
    };
    subset[i] += 1;
    for j in i + 1..subset.len() {
        subset[j] = subset[j - 1] + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_in_lexicographic_order() {
        let f = Family::parse("sub3:5").unwrap();
        assert_eq!(f.count(), 10);
        let all: Vec<String> = f.specs(0..10).collect();
        assert_eq!(all[0], "sub:1,2,3");
        assert_eq!(all[1], "sub:1,2,4");
        assert_eq!(all[3], "sub:1,3,4");
        assert_eq!(all[9], "sub:3,4,5");
        let mut sorted = all.clone();
        sorted.sort_by_key(|s| {
            s[4..]
                .split(',')
                .map(|e| e.parse::<u64>().unwrap())
                .collect::<Vec<_>>()
        });
        sorted.dedup();
        assert_eq!(sorted, all, "distinct and in lexicographic order");
        for start in 0..10 {
            let tail: Vec<String> = f.specs(start..10).collect();
            assert_eq!(tail, all[start as usize..], "unranked from {start}");
        }
        assert_eq!(Family::parse("sub3:40").unwrap().count(), 9880);
    }

    #[test]
    fn unranking_follows_the_order_from_every_rank() {
        for max in 1..=9 {
            for k in 1..=max {
                let mut subset: Vec<u64> = (1..=k).collect();
                let count = binomial(max, k).unwrap() as u64;
                for rank in 0..count {
                    assert_eq!(unrank(rank, k, max), subset, "rank {rank} of sub{k}:{max}");
                    next_subset(&mut subset, max);
                }
            }
        }
    }

    #[test]
    fn huge_families_are_counted_and_unranked_in_closed_form() {
        let f = Family::parse("sub1:18446744073709551615").unwrap();
        assert_eq!(f.count(), u64::MAX);
        assert_eq!(f.spec(u64::MAX - 1), "sub:18446744073709551615");
        assert_eq!(f.spec(12_345), "sub:12346");
        let f = Family::parse("sub2:2^32").unwrap();
        assert_eq!(f.count(), (1 << 31) * ((1 << 32) - 1));
        assert_eq!(f.spec(f.count() - 1), "sub:4294967295,4294967296");
        assert_eq!(f.spec((1 << 32) - 1), "sub:2,3");
        let f = Family::parse("sub65536:65537").unwrap();
        assert_eq!(f.count(), 65537);
        assert!(f.spec(0).ends_with(",65535,65536"));
        assert!(f.spec(65536).starts_with("sub:2,3,"));
        for huge in ["sub65537:65537", "sub1e18:1e18"] {
            let e = Family::parse(huge).unwrap_err().to_string();
            assert!(e.contains("at most 65536 elements"), "{huge}: {e}");
        }
    }

    #[test]
    fn ranges_and_modifiers() {
        let f = Family::parse("bachet:2..4+misere").unwrap();
        let specs: Vec<String> = f.specs(0..3).collect();
        assert_eq!(
            specs,
            ["bachet:2+misere", "bachet:3+misere", "bachet:4+misere"]
        );
        assert_eq!(f.spec(1), "bachet:3+misere");
        assert_eq!(
            Family::parse("sub2:4+leave1").unwrap().spec(5),
            "sub:3,4+leave1"
        );
    }

    #[test]
    fn bad_families_are_input_errors() {
        for bad in [
            "sub3",
            "sub0:5",
            "sub3:2",
            "sub:40",
            "subx:4",
            "powers:6..2",
            "powers:2..99",
            "squares:1..3",
            "bachet:0..3",
            "bachet:a..3",
            "bachet:1..18446744073709551616",
            "bachet:0..18446744073709551615",
            "sub2:5+foo",
            "nosuch:1..2",
            "",
        ] {
            let e = Family::parse(bad).unwrap_err();
            assert!(
                matches!(e, Error::Input(_) | Error::Invalid { .. }),
                "{bad}: {e}"
            );
            assert!(e.to_string().starts_with("bad family"), "{bad}: {e}");
        }
        assert_eq!(Family::parse("sub2:100000").unwrap().count(), 4_999_950_000);
        assert!(Family::parse("sub100:200").is_err(), "too many games");
    }
}
