//! Take-and-break codes as CGSuite writes them (`tb:0.77`, `tb:4!.0`, `tb:0.[37]`,
//! `tb:{2+}!.0`): digit j says into how many non-empty heaps, and how equal, the rest of a heap
//! may be left after j objects are removed; a bracketed tail repeats forever.

mod digit;

pub use digit::{Constraint, Digit, MAX_COUNT};
use std::fmt;
use std::ops::ControlFlow;

/// A take-and-break code: digits d0, d1, …, the last `period` of which repeat.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Code {
    /// d0 (a split without removing anything), d1, d2, …; never empty.
    digits: Vec<Digit>,
    /// How many of the last digits repeat (0: every digit past the listed ones is 0).
    period: usize,
}

impl Code {
    /// Reads a code such as `0.77`, `4!.0`, `0.[37]`, `{2+}.0` or `0.[{0+}=]`.
    pub fn parse(text: &str) -> Result<Code, String> {
        let text = text.trim();
        let (lead, tail) = text.split_once('.').ok_or_else(|| {
            format!("'{text}' has no point: write a code as d0.d1d2..., e.g. 0.77 or 4!.0")
        })?;
        let lead = read_digits(lead)?;
        if lead.len() > 1 {
            return Err(format!(
                "'{text}' has {} digits before the point: digits left of d0 add objects to a heap, which makes a game that may never end; write one digit before the point",
                lead.len()
            ));
        }
        let d0 = lead.into_iter().next().unwrap_or_else(Digit::zero);
        if d0.allows(1).is_some() {
            return Err(format!(
                "d0 = '{d0}' in '{text}' allows leaving one heap without removing anything, a move that can repeat forever; d0 may only split (4, 8, {{2+}}, ...)"
            ));
        }
        let (listed, repeating) = match tail.split_once('[') {
            Some((listed, rest)) => {
                let inner = rest.strip_suffix(']').ok_or_else(|| {
                    format!(
                        "'{text}': a repeating tail is written in brackets at the end, e.g. 0.[37]"
                    )
                })?;
                (listed, Some(inner))
            }
            None => (tail, None),
        };
        if listed.contains([']', '[']) || repeating.is_some_and(|r| r.contains(['[', ']'])) {
            return Err(format!(
                "'{text}': one repeating tail in brackets, at the end, e.g. 0.300303330[3]"
            ));
        }
        let mut digits = vec![d0.without_zero_heaps()];
        digits.extend(read_digits(listed)?);
        let repeating = match repeating {
            Some(r) => read_digits(r)?,
            None => Vec::new(),
        };
        if repeating.is_empty() && tail.ends_with("[]") {
            return Err(format!(
                "'{text}': the brackets repeat nothing; give digits in them"
            ));
        }
        let code = Code::normalized(digits, repeating);
        if code.digits.iter().all(Digit::is_zero) {
            return Err(format!(
                "the code '{text}' allows no move (every digit is 0); give a non-zero digit"
            ));
        }
        Ok(code)
    }

    /// The code of the digits `listed` followed by `repeating` forever, written the shortest
    /// way: no zero tail, no trailing zeros, the shortest repeating block, rolled back as far
    /// as the listed digits repeat it.
    pub fn normalized(mut digits: Vec<Digit>, mut repeating: Vec<Digit>) -> Code {
        if repeating.iter().all(Digit::is_zero) {
            repeating.clear();
        }
        if let Some(p) = (1..=repeating.len()).find(|&p| {
            repeating.len().is_multiple_of(p)
                && (p..repeating.len()).all(|i| repeating[i] == repeating[i - p])
        }) {
            repeating.truncate(p);
        }
        if repeating.is_empty() {
            while digits.len() > 1 && digits.last().is_some_and(Digit::is_zero) {
                digits.pop();
            }
        }
        while digits.len() > 1 && !repeating.is_empty() && digits.last() == repeating.last() {
            digits.pop();
            repeating.rotate_right(1);
        }
        let period = repeating.len();
        digits.extend(repeating);
        Code { digits, period }
    }

    /// The digit of removing j objects.
    pub fn digit(&self, j: u64) -> &Digit {
        static ZERO: std::sync::OnceLock<Digit> = std::sync::OnceLock::new();
        match self.position(j) {
            Some(i) => &self.digits[i],
            None => ZERO.get_or_init(Digit::zero),
        }
    }

    /// Where the digit of removing j stands in [`Code::digits`]; None past a code without a
    /// repeating tail.
    pub fn position(&self, j: u64) -> Option<usize> {
        let listed = self.digits.len() as u64;
        if j < listed {
            return Some(j as usize);
        }
        let period = (self.period > 0).then_some(self.period as u64)?;
        let start = listed - period;
        Some((start + (j - start) % period) as usize)
    }

    /// The removals from a heap of n the code may allow: 0 to n, or to its last removal.
    pub fn removals(&self, n: u64) -> std::ops::RangeInclusive<u64> {
        0..=self.last_removal().map_or(n, |last| last.min(n))
    }

    /// Every digit written (d0, the listed ones and one block of the repeating tail).
    pub fn digits(&self) -> &[Digit] {
        &self.digits
    }

    /// The largest number of objects a move removes; None when a tail repeats.
    pub fn last_removal(&self) -> Option<u64> {
        (self.period == 0).then(|| self.digits.len() as u64 - 1)
    }

    /// How many of the last digits of [`Code::digits`] repeat forever (0: none).
    pub fn period(&self) -> usize {
        self.period
    }
}

/// The digits written one after another in `text`.
fn read_digits(mut text: &str) -> Result<Vec<Digit>, String> {
    let mut digits = Vec::new();
    while !text.is_empty() {
        let (digit, read) = Digit::parse_prefix(text)?;
        digits.push(digit);
        text = &text[read..];
    }
    Ok(digits)
}

impl fmt::Display for Code {
    /// The code as CGSuite writes it: `0.77`, `4!.0`, `0.[37]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = self.digits.len() - self.period;
        let word = |digits: &[Digit]| digits.iter().map(Digit::to_string).collect::<String>();
        write!(f, "{}.", self.digits[0])?;
        match (start, self.period) {
            (1, 0) => f.write_str("0"),
            (_, 0) => f.write_str(&word(&self.digits[1..])),
            _ => write!(
                f,
                "{}[{}]",
                word(&self.digits[1..start]),
                word(&self.digits[start..])
            ),
        }
    }
}

/// What a visitor of options says: go on, or stop.
pub type Visit = ControlFlow<()>;

/// Calls `visit` with every way `digit` lets r objects be left: no heap (r = 0), one heap,
/// or a split into heaps that meet their constraint, each ascending; until `visit` stops.
pub fn for_each_leaving(digit: &Digit, r: u64, visit: &mut dyn FnMut(&[u64]) -> Visit) -> Visit {
    if r == 0 {
        if digit.allows(0).is_some() {
            visit(&[])?;
        }
        return Visit::Continue(());
    }
    if digit.allows(1).is_some() {
        visit(&[r])?;
    }
    let mut parts = Vec::new();
    for k in 2..=r {
        if let Some(constraint) = digit.allows(k) {
            partitions(r, k, 1, constraint, &mut parts, visit)?;
        } else if digit.max_heaps().is_some_and(|max| k > max) {
            break;
        }
    }
    Visit::Continue(())
}

/// Every partition of r into k parts, each at least `min`, ascending, meeting `constraint`,
/// after the parts already in `parts`.
fn partitions(
    r: u64,
    k: u64,
    min: u64,
    constraint: Constraint,
    parts: &mut Vec<u64>,
    visit: &mut dyn FnMut(&[u64]) -> Visit,
) -> Visit {
    if k == 1 {
        parts.push(r);
        let flow = match constraint.holds(parts) {
            true => visit(parts),
            false => Visit::Continue(()),
        };
        parts.pop();
        return flow;
    }
    // Parts of at least `a` each (distinct: a, a+1, …) must fit.
    let step = u64::from(constraint == Constraint::Unequal);
    let mut a = min;
    while a.saturating_mul(k) + step * k * (k - 1) / 2 <= r {
        if constraint != Constraint::AllEqual || parts.first().is_none_or(|&p| p == a) {
            parts.push(a);
            let flow = partitions(r - a, k - 1, a + step, constraint, parts, visit);
            parts.pop();
            flow?;
        }
        a += 1;
    }
    Visit::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_and_write_back_in_shortest_form() {
        for (text, canonical) in [
            ("0.77", "0.77"),
            (".07", "0.07"),
            ("4!.0", "4!.0"),
            ("0.[3]", "0.[3]"),
            ("0.3[3]", "0.[3]"),
            ("0.[33]", "0.[3]"),
            ("0.[37]", "0.[37]"),
            ("0.300303330[3]", "0.300303330[3]"),
            ("{2+}.0", "{2+}.0"),
            ("{2+}!.0", "{2+}!.0"),
            ("0.[{0+}=]", "0.[*=]"),
            ("0.{2,3}", "0.C"),
            ("8?.0", "8?.0"),
            ("0.770", "0.77"),
            ("0.7[0]", "0.7"),
            ("5.7", "4.7"),
        ] {
            let code = Code::parse(text).unwrap();
            assert_eq!(code.to_string(), canonical, "{text}");
            assert_eq!(Code::parse(canonical).unwrap(), code, "{text}");
        }
        let code = Code::parse("0.1[37]").unwrap();
        let digits: Vec<String> = (0..7).map(|j| code.digit(j).to_string()).collect();
        assert_eq!(digits, ["0", "1", "3", "7", "3", "7", "3"]);
        assert_eq!(code.last_removal(), None);
        assert_eq!(Code::parse("0.77").unwrap().last_removal(), Some(2));
    }

    #[test]
    fn bad_codes_say_what_is_wrong() {
        for (text, want) in [
            ("77", "no point"),
            ("14.0", "digits left of d0"),
            ("2.7", "repeat forever"),
            ("*.7", "repeat forever"),
            ("0.[37", "in brackets at the end"),
            ("0.[3]7", "in brackets at the end"),
            ("0.[]", "repeat nothing"),
            ("0.000", "allows no move"),
            ("0.{2,3", "not closed"),
            ("0.7#", "not a digit"),
        ] {
            let msg = Code::parse(text).unwrap_err();
            assert!(msg.contains(want), "{text}: {msg}");
        }
    }

    #[test]
    fn leavings_are_the_partitions_the_digit_allows() {
        let count = |digit: &str, r: u64| {
            let (d, _) = Digit::parse_prefix(digit).unwrap();
            let mut all = Vec::new();
            let _ = for_each_leaving(&d, r, &mut |parts| {
                all.push(parts.to_vec());
                Visit::Continue(())
            });
            all
        };
        assert_eq!(count("7", 4), [vec![4], vec![1, 3], vec![2, 2]]);
        assert_eq!(count("4!", 6), [vec![1, 5], vec![2, 4]]);
        assert_eq!(count("8?", 6), [vec![1, 1, 4], vec![1, 2, 3]]);
        assert_eq!(count("8=", 6), [vec![2, 2, 2]]);
        assert_eq!(count("{2+}!", 6).len(), 3); // 1+5, 2+4, 1+2+3
        assert_eq!(count("{2+}", 6).len(), 10); // p(6) − 1
        assert_eq!(count("*=", 6).len(), 4); // 6, 3+3, 2+2+2, 1×6
        assert_eq!(count("1", 0), [Vec::<u64>::new()]);
        assert!(count("2", 0).is_empty());
    }
}
