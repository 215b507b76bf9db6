//! Take-and-break games: a move removes j objects from one heap and may leave what is left as
//! one heap or split it into two non-empty heaps, as an octal code `0.d1d2…` or `4.d1d2…` says
//! (Guy and Smith), or also into three non-empty heaps, as a hexadecimal code says (digit bit 8,
//! as in CGSuite's take-and-break codes); with the `+unequal` variant where no two heaps a split
//! leaves may be equal.

use super::code::{Code, Constraint, Digit};

/// Bit of a code digit: j may be removed when it is the whole heap.
pub const WHOLE: u8 = 1;
/// Bit of a code digit: j may be removed from a larger heap, leaving one heap.
pub const ONE: u8 = 2;
/// Bit of a code digit: j may be removed and the rest split into two non-empty heaps.
pub const TWO: u8 = 4;
/// Bit of a hexadecimal code digit: j may be removed and the rest split into three non-empty
/// heaps.
pub const THREE: u8 = 8;

/// The most digits a code may have after the point.
pub const MAX_DIGITS: usize = 64;

/// The rule of a take-and-break game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeBreak {
    /// Digit j (j = 0, 1, …): a sum of [`WHOLE`], [`ONE`], [`TWO`] and [`THREE`]; digit 0 is 0 or [`TWO`]
    /// (a split without removing anything). No trailing zero digits past digit 0.
    digits: Vec<u8>,
    /// The digit of every j past the listed ones: 0 for an octal code, 3 for Lasker's Nim
    /// (remove any number).
    rest: u8,
    /// No two heaps a split leaves may be equal.
    pub unequal: bool,
}

impl TakeBreak {
    /// The game of an octal code such as `0.77`, `.07` or `4.0` (digits 0–7 after the point;
    /// 0 or 4 before it), canonical without trailing zeros.
    pub fn parse_code(code: &str) -> Result<TakeBreak, String> {
        TakeBreak::parse_digits(code, Radix::Octal)
    }

    /// The game of a hexadecimal code such as `0.8` or `4.F7` (digits 0–9 and A–F, either case,
    /// after the point; 0 or 4 before it): digit bit 8 lets the rest be split into three
    /// non-empty heaps. A code whose digits are all at most 7 is the octal code's game.
    pub fn parse_hex(code: &str) -> Result<TakeBreak, String> {
        TakeBreak::parse_digits(code, Radix::Hex)
    }

    /// The code `code` written with the digits of `radix`.
    fn parse_digits(code: &str, radix: Radix) -> Result<TakeBreak, String> {
        let code = code.trim();
        let (lead, tail) = code.split_once('.').ok_or_else(|| {
            format!(
                "'{code}' is not {} code: write it as 0.d1d2... or 4.d1d2..., e.g. {}",
                radix.name(),
                radix.example()
            )
        })?;
        let first = match lead {
            "" | "0" => 0,
            "4" => TWO,
            other => {
                return Err(format!(
                    "the digit before the point is '{other}'; it must be 0, or 4 for a split without removing anything"
                ));
            }
        };
        let mut digits = vec![first];
        for c in tail.chars() {
            match c.to_digit(radix.base()) {
                Some(d) => digits.push(d as u8),
                None => return Err(radix.bad_digit(c, code)),
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_DIGITS + 1 {
            return Err(format!(
                "the code has {} digits after the point; at most {MAX_DIGITS} are supported",
                digits.len() - 1
            ));
        }
        if digits == [0] {
            return Err(format!(
                "the code '{code}' allows no move (every digit is 0); give a non-zero digit"
            ));
        }
        Ok(TakeBreak {
            digits,
            rest: 0,
            unequal: false,
        })
    }

    /// The game of hexadecimal digits d0, d1, … (d0 0 or [`TWO`]; at most [`MAX_DIGITS`]
    /// after the point; trailing zeros dropped), with `+unequal` when `unequal`; None for
    /// digits these codes cannot write.
    pub fn from_digits(mut digits: Vec<u8>, unequal: bool) -> Option<TakeBreak> {
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        let fits = digits.len() <= MAX_DIGITS + 1 && digits.iter().all(|&d| d < 16);
        let lead = matches!(digits.first(), Some(&0) | Some(&TWO));
        (fits && lead && digits.iter().any(|&d| d != 0)).then_some(TakeBreak {
            digits,
            rest: 0,
            unequal,
        })
    }

    /// The code as CGSuite's take-and-break grammar writes it (`4.[3]` for Lasker's Nim; `!`
    /// after every digit that splits under `+unequal`).
    pub fn as_code(&self) -> Code {
        let constraint = match self.unequal {
            true => Constraint::Unequal,
            false => Constraint::Any,
        };
        let digit = |d: u8| Digit::of_bits(u64::from(d), constraint);
        let repeating = match self.rest {
            0 => Vec::new(),
            rest => vec![digit(rest)],
        };
        Code::normalized(self.digits.iter().map(|&d| digit(d)).collect(), repeating)
    }

    /// Lasker's Nim: remove any number of objects from a heap, or split it into two non-empty
    /// heaps (`4.333…`).
    pub fn lasker() -> TakeBreak {
        TakeBreak {
            digits: vec![TWO],
            rest: WHOLE | ONE,
            unequal: false,
        }
    }

    /// The same code with the `+unequal` rule: splits into two equal heaps are forbidden.
    pub fn with_unequal(self) -> TakeBreak {
        TakeBreak {
            unequal: true,
            ..self
        }
    }

    /// The digit of j.
    #[inline]
    pub fn digit(&self, j: u64) -> u8 {
        self.digits.get(j as usize).copied().unwrap_or(self.rest)
    }

    /// The code as written after `octal:` or `hex:`, e.g. `0.77` or `0.8F` (upper-case digits;
    /// None for Lasker's Nim, whose code is infinite).
    pub fn code(&self) -> Option<String> {
        if self.rest != 0 {
            return None;
        }
        let lead = if self.digits[0] == TWO { '4' } else { '0' };
        let tail: String = match self.digits.len() {
            1 => "0".into(),
            _ => self.digits[1..]
                .iter()
                .map(|&d| {
                    char::from_digit(u32::from(d), 16).map_or('?', |c| c.to_ascii_uppercase())
                })
                .collect(),
        };
        Some(format!("{lead}.{tail}"))
    }

    /// The name of the code's notation in a spec: `hex` when a digit splits into three heaps,
    /// else `octal` (a hexadecimal code of digits up to 7 is written as the octal code).
    pub fn notation(&self) -> &'static str {
        if self.splits_in_three() {
            "hex"
        } else {
            "octal"
        }
    }

    /// True when some move splits a heap into three (a digit with [`THREE`]).
    pub fn splits_in_three(&self) -> bool {
        self.rest & THREE != 0 || self.digits.iter().any(|d| d & THREE != 0)
    }

    /// The largest number of objects a move removes, for a finite code (None for Lasker's Nim).
    pub fn last_removal(&self) -> Option<u64> {
        (self.rest == 0).then(|| self.digits.len() as u64 - 1)
    }

    /// True for Lasker's Nim itself (no `+unequal`), whose values a theorem gives.
    pub fn is_lasker(&self) -> bool {
        *self == TakeBreak::lasker()
    }

    /// The j below `bound` whose digit has `bit`, ascending.
    pub fn removals(&self, bit: u8, bound: u64) -> Vec<u64> {
        let listed = (self.digits.len() as u64).min(bound);
        let mut out: Vec<u64> = (0..listed).filter(|&j| self.digit(j) & bit != 0).collect();
        if self.rest & bit != 0 {
            out.extend(listed..bound);
        }
        out
    }

    /// The heaps a move from n may leave as one heap (0 when the move removes the whole heap),
    /// ascending, appended to `out`.
    pub fn one_heap_options(&self, n: u64, out: &mut Vec<u64>) {
        let start = out.len();
        out.extend((0..=self.largest_removal(n)).filter_map(|j| self.one_heap_after(n, j)));
        out[start..].sort_unstable();
    }

    /// The splits a move from n may leave, as pairs (a, b) with 1 ≤ a ≤ b (a < b under
    /// `+unequal`), by increasing removal then increasing a, appended to `out`.
    pub fn split_options(&self, n: u64, out: &mut Vec<(u64, u64)>) {
        out.extend(self.splits(n));
    }

    /// The splits of [`TakeBreak::split_options`], lazily (for heaps of any size).
    pub fn splits(&self, n: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let removals = self.removals(TWO, n.saturating_sub(1));
        removals
            .into_iter()
            .flat_map(move |j| self.splits_after(n, j))
    }

    /// The splits into three heaps [a, b, c] a move from n may leave, 1 ≤ a ≤ b ≤ c (a < b < c
    /// under `+unequal`), by increasing removal, then a, then b, lazily (about n²/12 a removal).
    pub fn three_way_splits(&self, n: u64) -> impl Iterator<Item = [u64; 3]> + '_ {
        let removals = self.removals(THREE, n.saturating_sub(2));
        removals
            .into_iter()
            .flat_map(move |j| self.three_way_after(n, j))
    }

    /// Every option of a heap of n, lazily (for heaps of any size): by increasing removal, and
    /// for each removal the heap it leaves (or none), then its splits into two by increasing
    /// smaller heap, then its splits into three by increasing smallest, then middle heap.
    pub fn options(&self, n: u64) -> impl Iterator<Item = TakeBreakOption> + '_ {
        (0..=self.largest_removal(n)).flat_map(move |j| {
            let one = self.one_heap_after(n, j).map(TakeBreakOption::One);
            one.into_iter()
                .chain(
                    self.splits_after(n, j)
                        .map(|(a, b)| TakeBreakOption::Two(a, b)),
                )
                .chain(
                    self.three_way_after(n, j)
                        .map(|[a, b, c]| TakeBreakOption::Three(a, b, c)),
                )
        })
    }

    /// The most objects a move from a heap of n can remove.
    fn largest_removal(&self, n: u64) -> u64 {
        self.last_removal().map_or(n, |last| last.min(n))
    }

    /// The one heap left by removing j from a heap of n (0 when j is the whole heap), if the
    /// code allows it.
    pub fn one_heap_after(&self, n: u64, j: u64) -> Option<u64> {
        let digit = self.digit(j);
        match j {
            0 => None,
            _ if j == n => (digit & WHOLE != 0).then_some(0),
            _ => (j < n && digit & ONE != 0).then(|| n - j),
        }
    }

    /// The splits (a, b), a ≤ b, left by removing j from a heap of n, if the code allows them.
    fn splits_after(&self, n: u64, j: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let rest = n.saturating_sub(j);
        let allowed = j < n && self.digit(j) & TWO != 0;
        let last = if allowed { rest / 2 } else { 0 };
        (1..=last)
            .filter(move |&a| !(self.unequal && 2 * a == rest))
            .map(move |a| (a, rest - a))
    }

    /// The splits (a, b, c), a ≤ b ≤ c, left by removing j from a heap of n, if the code allows
    /// them; under `+unequal` no two are equal.
    fn three_way_after(&self, n: u64, j: u64) -> impl Iterator<Item = [u64; 3]> + '_ {
        let rest = n.saturating_sub(j);
        let allowed = j < n && self.digit(j) & THREE != 0;
        let gap = u64::from(self.unequal);
        let last_a = if allowed { rest / 3 } else { 0 };
        (1..=last_a).flat_map(move |a| {
            // a ≤ b ≤ c (a < b < c under `+unequal`) with b + c = rest − a.
            let left = rest - a;
            let last_b = if self.unequal {
                (left - 1) / 2
            } else {
                left / 2
            };
            (a + gap..=last_b).map(move |b| [a, b, left - b])
        })
    }
}

/// The digits a code is written in.
#[derive(Debug, Clone, Copy)]
enum Radix {
    Octal,
    Hex,
}

impl Radix {
    fn base(self) -> u32 {
        match self {
            Radix::Octal => 8,
            Radix::Hex => 16,
        }
    }

    /// "an octal" or "a hexadecimal", as a message names a code.
    fn name(self) -> &'static str {
        match self {
            Radix::Octal => "an octal",
            Radix::Hex => "a hexadecimal",
        }
    }

    fn example(self) -> &'static str {
        match self {
            Radix::Octal => "0.77",
            Radix::Hex => "0.8",
        }
    }

    /// The error for a character `c` of `code` that is not a digit.
    fn bad_digit(self, c: char, code: &str) -> String {
        match self {
            Radix::Octal => format!(
                "'{c}' in '{code}' is not an octal digit (each digit is 0 to 7: 1 whole heap, 2 leave one heap, 4 leave two)"
            ),
            Radix::Hex => format!(
                "'{c}' is not a hexadecimal digit (in '{code}'; each digit is 0 to 9 or A to F: 1 whole heap, 2 leave one heap, 4 leave two, 8 leave three)"
            ),
        }
    }
}

/// One option of a take-and-break heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakeBreakOption {
    /// One heap of this size (0: nothing left).
    One(u64),
    /// Two non-empty heaps (a, b), a ≤ b.
    Two(u64, u64),
    /// Three non-empty heaps (a, b, c), a ≤ b ≤ c (hexadecimal codes).
    Three(u64, u64, u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_to_canonical_digits() {
        let k = TakeBreak::parse_code(".770").unwrap();
        assert_eq!(k.code().as_deref(), Some("0.77"));
        assert_eq!(k.last_removal(), Some(2));
        assert_eq!(
            TakeBreak::parse_code("4.").unwrap().code().as_deref(),
            Some("4.0")
        );
        assert_eq!(TakeBreak::lasker().code(), None);
        for (bad, want) in [
            ("77", "not an octal code"),
            ("0.78", "not an octal digit"),
            ("2.7", "must be 0, or 4"),
            ("0.000", "allows no move"),
        ] {
            let msg = TakeBreak::parse_code(bad).unwrap_err();
            assert!(msg.contains(want), "{bad}: {msg}");
        }
    }

    #[test]
    fn hex_codes_parse_and_octal_digits_are_the_octal_code() {
        let hex = TakeBreak::parse_hex("4.f70").unwrap();
        assert_eq!(hex.code().as_deref(), Some("4.F7"));
        assert_eq!((hex.notation(), hex.splits_in_three()), ("hex", true));
        let low = TakeBreak::parse_hex("0.77").unwrap();
        assert_eq!(low, TakeBreak::parse_code("0.77").unwrap());
        assert_eq!(low.notation(), "octal");
        for (bad, want) in [
            ("0.8G", "'G' is not a hexadecimal digit"),
            ("0.x", "'x' is not a hexadecimal digit"),
            ("8.1", "must be 0, or 4"),
            ("08", "not a hexadecimal code"),
            ("0.00", "allows no move"),
        ] {
            let msg = TakeBreak::parse_hex(bad).unwrap_err();
            assert!(msg.contains(want), "{bad}: {msg}");
        }
    }

    #[test]
    fn three_way_splits_follow_bit_8() {
        // 0.8: remove 1, split the rest into three non-empty heaps.
        let code = TakeBreak::parse_hex("0.8").unwrap();
        let all: Vec<_> = code.three_way_splits(8).collect();
        assert_eq!(all, [[1, 1, 5], [1, 2, 4], [1, 3, 3], [2, 2, 3]]);
        let unequal: Vec<_> = code.clone().with_unequal().three_way_splits(10).collect();
        assert_eq!(unequal, [[1, 2, 6], [1, 3, 5], [2, 3, 4]]);
        assert_eq!(code.three_way_splits(3).count(), 0);
        // By brute force: every multiset of three parts of n − j, for j with bit 8.
        let code = TakeBreak::parse_hex("4.9C").unwrap();
        for unequal in [false, true] {
            let code = if unequal {
                code.clone().with_unequal()
            } else {
                code.clone()
            };
            for n in 0..30u64 {
                let mut want = Vec::new();
                for j in 0..n {
                    if code.digit(j) & THREE == 0 {
                        continue;
                    }
                    let r = n - j;
                    for a in 1..r {
                        for b in a..r {
                            let c = r.saturating_sub(a + b);
                            if c >= b && a + b + c == r && !(unequal && (a == b || b == c)) {
                                want.push([a, b, c]);
                            }
                        }
                    }
                }
                let got: Vec<_> = code.three_way_splits(n).collect();
                assert_eq!(got, want, "{code:?} at {n}");
            }
        }
    }

    #[test]
    fn options_follow_the_digits() {
        // 0.77 (Kayles): remove 1 or 2, leaving zero, one or two heaps.
        let kayles = TakeBreak::parse_code("0.77").unwrap();
        let mut one = Vec::new();
        kayles.one_heap_options(2, &mut one);
        assert_eq!(one, [0, 1]);
        let mut two = Vec::new();
        kayles.split_options(5, &mut two);
        assert_eq!(two, [(1, 3), (2, 2), (1, 2)]);
        let unequal = TakeBreak::parse_code("4.0").unwrap().with_unequal();
        two.clear();
        unequal.split_options(6, &mut two);
        assert_eq!(two, [(1, 5), (2, 4)]);
        // Lasker's Nim: any removal, and splits without removal.
        one.clear();
        TakeBreak::lasker().one_heap_options(3, &mut one);
        assert_eq!(one, [0, 1, 2]);
    }

    #[test]
    fn lazy_options_are_the_listed_ones_by_removal() {
        let codes = [
            "0.77", "0.07", "4.0", "0.00404", "0.1777", "4.37", "0.8", "4.F9C",
        ];
        let games = codes
            .iter()
            .map(|c| TakeBreak::parse_hex(c).unwrap())
            .flat_map(|g| [g.clone(), g.with_unequal()])
            .chain([TakeBreak::lasker()]);
        for game in games {
            for n in 0..40 {
                let (mut one, mut two) = (Vec::new(), Vec::new());
                game.one_heap_options(n, &mut one);
                game.split_options(n, &mut two);
                let three: Vec<_> = game.three_way_splits(n).collect();
                let (mut lazy_one, mut lazy_two, mut lazy_three) =
                    (Vec::new(), Vec::new(), Vec::new());
                for option in game.options(n) {
                    match option {
                        TakeBreakOption::One(m) => lazy_one.push(m),
                        TakeBreakOption::Two(a, b) => lazy_two.push((a, b)),
                        TakeBreakOption::Three(a, b, c) => lazy_three.push([a, b, c]),
                    }
                }
                lazy_one.sort_unstable();
                assert_eq!(
                    (lazy_one, lazy_two, lazy_three),
                    (one, two, three),
                    "{game:?} at {n}"
                );
            }
        }
        // Lazily, a heap of any size.
        let kayles = TakeBreak::parse_code("0.77").unwrap();
        let first: Vec<_> = kayles.options(1 << 60).take(2).collect();
        assert_eq!(
            first,
            [
                TakeBreakOption::One((1 << 60) - 1),
                TakeBreakOption::Two(1, (1 << 60) - 2)
            ]
        );
    }
}
