//! One digit of a take-and-break code: after j objects are removed, into how many heaps the
//! rest may be left, and how those heaps must compare.

use std::fmt;

/// The most heaps a digit may name; `{k+}` allows any number past k.
pub const MAX_COUNT: u64 = 63;

/// How the heaps a move leaves must compare. It constrains splits into two or more heaps:
/// zero heaps or one heap always meets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Constraint {
    /// Any sizes.
    Any,
    /// `!`: the heaps are pairwise unequal.
    Unequal,
    /// `?`: the heaps are not all equal.
    SomeUnequal,
    /// `=`: the heaps are all equal.
    AllEqual,
}

impl Constraint {
    /// The modifier that writes it: `!`, `?`, `=`, or nothing.
    fn mark(self) -> &'static str {
        match self {
            Constraint::Any => "",
            Constraint::Unequal => "!",
            Constraint::SomeUnequal => "?",
            Constraint::AllEqual => "=",
        }
    }

    /// The constraint a modifier character writes.
    fn of_mark(c: char) -> Option<Constraint> {
        match c {
            '!' => Some(Constraint::Unequal),
            '?' => Some(Constraint::SomeUnequal),
            '=' => Some(Constraint::AllEqual),
            _ => None,
        }
    }

    /// True when the heaps `parts` (ascending) meet it.
    pub fn holds(self, parts: &[u64]) -> bool {
        if parts.len() < 2 {
            return true;
        }
        let first_equal = parts.windows(2).any(|w| w[0] == w[1]);
        let all_equal = parts.first() == parts.last();
        match self {
            Constraint::Any => true,
            Constraint::Unequal => !first_equal,
            Constraint::SomeUnequal => !all_equal,
            Constraint::AllEqual => all_equal,
        }
    }
}

/// A generalized digit: which numbers of heaps the rest may be left as, each with its
/// constraint.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit {
    /// `counts[k]`: the constraint of leaving k heaps, None when k heaps are not allowed;
    /// counts 0 and 1 are [`Constraint::Any`].
    counts: Vec<Option<Constraint>>,
    /// The constraint of every number of heaps from `counts.len()` on, when they are allowed
    /// (`{2+}`, `*`).
    more: Option<Constraint>,
}

impl Digit {
    /// The digit that allows no move.
    pub fn zero() -> Digit {
        Digit {
            counts: Vec::new(),
            more: None,
        }
    }

    /// The digit whose bit k allows k heaps, each split with `constraint`: 0–9, A–Z.
    pub fn of_bits(bits: u64, constraint: Constraint) -> Digit {
        let counts = (0..64)
            .map(|k| (bits >> k & 1 == 1).then_some(constraint))
            .collect();
        Digit::normalized(counts, None)
    }

    /// Frees counts 0 and 1 of constraints (they have no two heaps to compare), and trims the
    /// listed counts that `more` covers or that allow nothing, so that equal digits are equal
    /// values.
    fn normalized(mut counts: Vec<Option<Constraint>>, more: Option<Constraint>) -> Digit {
        for c in counts.iter_mut().take(2).flatten() {
            *c = Constraint::Any;
        }
        loop {
            let k = counts.len();
            match (counts.last(), more) {
                (Some(None), None) => {}
                (Some(Some(c)), Some(m)) if *c == m || k <= 2 => {}
                _ => break,
            }
            counts.pop();
        }
        Digit { counts, more }
    }

    /// True when the digit allows no move.
    pub fn is_zero(&self) -> bool {
        self.counts.is_empty() && self.more.is_none()
    }

    /// The constraint of leaving `k` heaps, None when the digit does not allow it.
    pub fn allows(&self, k: u64) -> Option<Constraint> {
        match self.counts.get(k as usize) {
            Some(c) => *c,
            None => self.more.map(|c| match k {
                0 | 1 => Constraint::Any,
                _ => c,
            }),
        }
    }

    /// The most heaps a move may leave; None when any number past some count is allowed.
    pub fn max_heaps(&self) -> Option<u64> {
        match self.more {
            Some(_) => None,
            None => Some(self.counts.len().saturating_sub(1) as u64),
        }
    }

    /// The heap counts listed before the ones `more` covers, with their constraints.
    pub fn listed(&self) -> impl Iterator<Item = (u64, Constraint)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter_map(|(k, c)| c.map(|c| (k as u64, c)))
    }

    /// The first heap count of the unbounded range `{k+}` allows, with its constraint.
    pub fn more(&self) -> Option<(u64, Constraint)> {
        self.more.map(|c| (self.counts.len() as u64, c))
    }

    /// The same digit without zero heaps (`+leave1`: a move may not take the whole heap).
    pub fn without_zero_heaps(&self) -> Digit {
        let mut counts = self.counts.clone();
        if counts.is_empty() && self.more.is_some() {
            // `*` without zero heaps is `{1+}`.
            counts = vec![None, Some(Constraint::Any)];
        }
        if let Some(first) = counts.first_mut() {
            *first = None;
        }
        Digit::normalized(counts, self.more)
    }

    /// The bits of the digit as a hexadecimal digit (1 leave nothing, 2 one heap, 4 two heaps,
    /// 8 three heaps) and whether its splits must be unequal (None when it has none): for the
    /// digits of at most three heaps without `?` or `=`, and with one constraint for both
    /// splits. None for the others.
    pub fn hex_bits(&self) -> Option<(u8, Option<bool>)> {
        if self.more.is_some() || self.counts.len() > 4 {
            return None;
        }
        let splits: Vec<Constraint> = self.counts.iter().skip(2).flatten().copied().collect();
        let unequal = match splits.first() {
            None => None,
            Some(first) if splits.iter().any(|c| c != first) => return None,
            Some(Constraint::Any) => Some(false),
            Some(Constraint::Unequal) => Some(true),
            Some(_) => return None,
        };
        let bits = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_some())
            .fold(0u8, |bits, (k, _)| bits | 1 << k);
        Some((bits, unequal))
    }

    /// The digit with every heap count allowed by either.
    pub fn union(&self, other: &Digit) -> Option<Digit> {
        let more = match (self.more, other.more) {
            (Some(a), Some(b)) if a != b => return None,
            (a, b) => a.or(b),
        };
        // Past both lists, the counts are those of `more`.
        let len = match (self.more, other.more) {
            (Some(_), Some(_)) => self.counts.len().min(other.counts.len()),
            (Some(_), None) => self.counts.len().max(other.counts.len()),
            (None, Some(_)) => other.counts.len().max(self.counts.len()),
            (None, None) => self.counts.len().max(other.counts.len()),
        };
        let mut counts = Vec::with_capacity(len);
        for k in 0..len as u64 {
            counts.push(match (self.allows(k), other.allows(k)) {
                (Some(a), Some(b)) if a != b => return None,
                (a, b) => a.or(b),
            });
        }
        if let Some(m) = more {
            // A count past one list allowed by the other with another constraint.
            let (lo, hi) = (len, self.counts.len().max(other.counts.len()));
            for k in lo..hi {
                let c = self.allows(k as u64).or(other.allows(k as u64));
                if c.is_some_and(|c| c != m) && k >= 2 {
                    return None;
                }
            }
        }
        Some(Digit::normalized(counts, more))
    }

    /// Reads one digit at the start of `text`: a character 0–9 or A–Z (10–35), `*` (any
    /// number of heaps), `&N;` (the bits of N), or a brace list `{2,3}`, `{2+}`, `{2!,3}`,
    /// each followed by an optional modifier `!`, `?` or `=`. Returns the digit and the
    /// characters read.
    pub fn parse_prefix(text: &str) -> Result<(Digit, usize), String> {
        let first = text.chars().next().ok_or("a digit is missing")?;
        let (digit_of, read) = match first {
            '{' => {
                let end = text.find('}').ok_or_else(|| {
                    format!(
                        "'{text}' opens a brace that is not closed: write a heap list as {{2,3}}"
                    )
                })?;
                (Body::List(&text[1..end]), end + 1)
            }
            '&' => {
                let end = text.find(';').ok_or_else(|| {
                    format!("'{text}': a digit written '&N;' ends with ';', e.g. &64;")
                })?;
                let bits = parse_count(&text[1..end], u64::MAX)?;
                (Body::Bits(bits), end + 1)
            }
            '*' => (Body::Star, 1),
            c => match c.to_digit(36) {
                Some(d) => (Body::Bits(u64::from(d)), 1),
                None => {
                    return Err(format!(
                        "'{c}' is not a digit: digits are 0-9 and A-Z (bit k: leave k heaps), {{...}} lists of heap counts, or *"
                    ));
                }
            },
        };
        let modifier = text[read..].chars().next().and_then(Constraint::of_mark);
        let read = read + usize::from(modifier.is_some());
        let digit = match digit_of {
            Body::Bits(bits) => Digit::of_bits(bits, modifier.unwrap_or(Constraint::Any)),
            Body::Star => Digit::normalized(Vec::new(), Some(modifier.unwrap_or(Constraint::Any))),
            Body::List(list) => parse_list(list, modifier)?,
        };
        Ok((digit, read))
    }
}

/// What a digit is written as, before its modifier.
enum Body<'a> {
    Bits(u64),
    Star,
    List(&'a str),
}

/// A heap count or the bits of `&N;`, at most `max`.
fn parse_count(text: &str, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let n: u128 = t.parse().map_err(|_| match t.is_empty() {
        true => "a heap count is empty (write counts as {2,3} or {2+})".to_string(),
        false => format!("'{t}' is not a heap count (write counts as {{2,3}} or {{2+}})"),
    })?;
    if n > u128::from(max) {
        return Err(format!(
            "a heap count of {t} is too many: a digit names at most {MAX_COUNT} heaps, and {{{MAX_COUNT}+}} any number from {MAX_COUNT}"
        ));
    }
    Ok(n as u64)
}

/// A brace list `2,3`, `2+`, `2!,3` with the modifier written after the brace.
fn parse_list(list: &str, outer: Option<Constraint>) -> Result<Digit, String> {
    let (list, more) = match list.trim().strip_suffix('+') {
        Some(rest) => (rest, true),
        None => (list, false),
    };
    let mut counts: Vec<Option<Constraint>> = Vec::new();
    let mut last = 0;
    for item in list.split(',') {
        let item = item.trim();
        let own = item.chars().last().and_then(Constraint::of_mark);
        let number = if own.is_some() {
            &item[..item.len() - 1]
        } else {
            item
        };
        if own.is_some() && outer.is_some() {
            return Err(format!(
                "'{{{list}}}' gives a modifier both inside and after the braces; give one"
            ));
        }
        let k = parse_count(number, MAX_COUNT)?;
        if counts.len() <= k as usize {
            counts.resize(k as usize + 1, None);
        }
        counts[k as usize] = Some(own.or(outer).unwrap_or(Constraint::Any));
        last = last.max(k);
    }
    // `+` extends the largest count listed, with its constraint.
    let more = match more {
        true => counts[last as usize],
        false => None,
    };
    Ok(Digit::normalized(counts, more))
}

impl fmt::Display for Digit {
    /// The shortest way CGSuite's grammar writes it: a character with its modifier when one
    /// constraint covers its splits, else a brace list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut splits: Vec<Constraint> = self.counts.iter().skip(2).flatten().copied().collect();
        splits.extend(self.more);
        let one = splits.first().copied().unwrap_or(Constraint::Any);
        let uniform = splits.iter().all(|&c| c == one);
        if self.is_zero() {
            return f.write_str("0");
        }
        if uniform && self.more.is_none() {
            let bits: u64 = self.listed().map(|(k, _)| 1u64 << k).sum();
            return match char::from_digit(bits as u32, 36).filter(|_| bits < 36) {
                Some(c) => write!(f, "{}{}", c.to_ascii_uppercase(), one.mark()),
                None => write!(f, "&{bits};{}", one.mark()),
            };
        }
        if uniform && self.counts.is_empty() {
            return write!(f, "*{}", one.mark());
        }
        let mut items: Vec<String> = self
            .listed()
            .map(|(k, c)| match uniform {
                true => k.to_string(),
                false => format!("{k}{}", c.mark()),
            })
            .collect();
        if let Some((from, c)) = self.more() {
            items.push(match uniform {
                true => format!("{from}+"),
                false => format!("{from}{}+", c.mark()),
            });
        }
        let mark = if uniform { one.mark() } else { "" };
        write!(f, "{{{}}}{mark}", items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digit(text: &str) -> Digit {
        let (d, read) = Digit::parse_prefix(text).unwrap();
        assert_eq!(read, text.len(), "{text}");
        d
    }

    #[test]
    fn digits_read_and_write_back() {
        for (text, canonical) in [
            ("7", "7"),
            ("4!", "4!"),
            ("3!", "3"),
            ("8?", "8?"),
            ("Z", "Z"),
            ("{2,3}", "C"),
            ("{2+}", "{2+}"),
            ("{2+}!", "{2+}!"),
            ("{0+}=", "*="),
            ("*", "*"),
            ("{2!,3}", "{2!,3}"),
            ("&4;", "4"),
            ("{0,1}", "3"),
        ] {
            assert_eq!(digit(text).to_string(), canonical, "{text}");
            assert_eq!(digit(canonical), digit(text), "{text}");
        }
        let d = digit("{2+}");
        assert_eq!(
            (d.allows(1), d.allows(2), d.allows(40), d.max_heaps()),
            (None, Some(Constraint::Any), Some(Constraint::Any), None)
        );
        assert_eq!(digit("7!").hex_bits(), Some((7, Some(true))));
        assert_eq!(digit("3").hex_bits(), Some((3, None)));
        assert_eq!(digit("7?").hex_bits(), None);
        assert_eq!(digit("{0+}").without_zero_heaps().to_string(), "{1+}");
    }

    #[test]
    fn bad_digits_say_what_is_wrong() {
        for (text, want) in [
            ("{2,3", "not closed"),
            ("{64}", "at most 63"),
            ("{18446744073709551616}", "too many"),
            ("{x}", "not a heap count"),
            ("{2!,3}!", "both inside and after"),
            ("#", "not a digit"),
            ("{,}", "empty"),
        ] {
            let msg = Digit::parse_prefix(text).unwrap_err();
            assert!(msg.contains(want), "{text}: {msg}");
        }
    }

    #[test]
    fn constraints_compare_the_heaps_of_a_split() {
        use Constraint::*;
        assert!(Unequal.holds(&[1, 2, 3]) && !Unequal.holds(&[1, 1, 3]));
        assert!(SomeUnequal.holds(&[1, 1, 3]) && !SomeUnequal.holds(&[2, 2, 2]));
        assert!(AllEqual.holds(&[2, 2, 2]) && !AllEqual.holds(&[1, 2, 2]));
        assert!(
            [Any, Unequal, SomeUnequal, AllEqual]
                .iter()
                .all(|c| c.holds(&[5]))
        );
    }
}
