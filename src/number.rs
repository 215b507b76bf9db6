//! Parsing of the sizes users type: `1000000`, `1_000_000`, `1e6`, `2.5e6`, `2^20`, `2^20+1`.

use crate::error::{Error, Param, Result};
use std::fmt;

/// Why a text is not a size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotASize {
    /// A well-formed number larger than 2^64 − 1.
    TooLarge,
    /// Not a number in an accepted form; the text says what is wrong.
    Malformed(String),
}

impl fmt::Display for NotASize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotASize::TooLarge => f.write_str("larger than 2^64 - 1"),
            NotASize::Malformed(why) => f.write_str(why),
        }
    }
}

/// The error of a size of 0, which asks for a table of no positions.
pub fn no_positions() -> Error {
    Error::invalid(
        Param::Size,
        crate::text!(
            Param::Size,
            " must be at least 1 (the table holds the positions 0 to N - 1); give e.g. ",
            Param::Size.given(1000),
            " or ",
            Param::Size.given("1e6"),
        ),
    )
}

/// Parses a size with [`parse`]; the error names the text and the accepted forms.
///
/// ```
/// assert_eq!(nimsieve::number::parse_u64("2^20").unwrap(), 1 << 20);
/// assert_eq!(nimsieve::number::parse_u64("1e6").unwrap(), 1_000_000);
/// assert_eq!(nimsieve::number::parse_u64("1.2e7").unwrap(), 12_000_000);
/// assert_eq!(nimsieve::number::parse_u64("2^36+1").unwrap(), (1 << 36) + 1);
/// ```
pub fn parse_u64(text: &str) -> Result<u64> {
    parse(text).map_err(|why| {
        Error::Input(format!(
            "'{text}' is not a valid size: {why} (write e.g. 1000000, 1_000_000, 1e6, 2.5e6, 2^20 or 2^20+1)"
        ))
    })
}

/// Parses a non-negative integer written as digits (underscores allowed between digits), `AeB`
/// (A may have a decimal point when the result is whole; so may a number without `e`) or `A^B`,
/// or a sum of such terms joined by `+` (`2^36+1`: the n whose frequency file ends at 2^36).
/// Spaces around the whole text and around `^`, `e` and `+` are ignored.
pub fn parse(text: &str) -> std::result::Result<u64, NotASize> {
    let t = text.trim();
    let malformed = |why: &str| Err(NotASize::Malformed(why.to_string()));
    if t.is_empty() {
        return malformed("it is empty");
    }
    if t.starts_with('-') {
        return malformed("it is negative");
    }
    if t.starts_with('+') {
        return malformed("write it without '+'");
    }
    if t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x")) {
        return malformed("hexadecimal is not accepted");
    }
    if let Some((left, right)) = t.rsplit_once('+') {
        let term = |part: &str| match part.trim() {
            "" => malformed("a term of the sum is missing"),
            part => parse(part),
        };
        // A malformed term is named before a sum too large.
        return match (term(left), term(right)) {
            (Err(NotASize::Malformed(why)), _) | (_, Err(NotASize::Malformed(why))) => {
                Err(NotASize::Malformed(why))
            }
            (Ok(a), Ok(b)) => a.checked_add(b).ok_or(NotASize::TooLarge),
            _ => Err(NotASize::TooLarge),
        };
    }
    if let Some((base, exp)) = t.split_once('^') {
        let base = digits(base.trim(), "the base")?;
        return match exponent(exp.trim())? {
            0 => Ok(1),
            exp => power(value(&base)?, exp),
        };
    }
    if let Some((mantissa, exp)) = t.split_once(['e', 'E']) {
        let exp = exponent(exp.trim())?;
        return scaled(mantissa.trim(), "the mantissa", exp);
    }
    if t.contains('.') {
        return scaled(t, "the number", 0);
    }
    if !t.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
        return malformed("not a number");
    }
    value(&digits(t, "the number")?)
}

/// The digits of `part` (named `name` in messages) without its underscores, which may stand
/// only between digits.
fn digits(part: &str, name: &str) -> std::result::Result<String, NotASize> {
    if part.is_empty() {
        return Err(NotASize::Malformed(format!("{name} is missing")));
    }
    if !part.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
        return Err(NotASize::Malformed(format!(
            "{name} '{part}' is not a whole number"
        )));
    }
    if part.starts_with('_') || part.ends_with('_') || part.contains("__") {
        return Err(NotASize::Malformed(
            "an underscore may stand only between two digits".into(),
        ));
    }
    Ok(part.replace('_', ""))
}

/// The value of a string of ASCII digits.
fn value(digits: &str) -> std::result::Result<u64, NotASize> {
    digits
        .bytes()
        .try_fold(0u64, |acc, b| {
            acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        })
        .ok_or(NotASize::TooLarge)
}

/// An exponent; u64::MAX stands for any larger one (every number above 1 raised to it
/// overflows).
fn exponent(part: &str) -> std::result::Result<u64, NotASize> {
    match value(&digits(part, "the exponent")?) {
        Err(NotASize::TooLarge) => Ok(u64::MAX),
        result => result,
    }
}

/// `base` to the power `exp`, for `exp` at least 1.
fn power(base: u64, exp: u64) -> std::result::Result<u64, NotASize> {
    match (base, exp) {
        (0 | 1, _) => Ok(base),
        (_, 64..) => Err(NotASize::TooLarge),
        _ => base.checked_pow(exp as u32).ok_or(NotASize::TooLarge),
    }
}

/// `mantissa` (digits with an optional decimal point, named `name` in messages) times 10^`exp`,
/// when that is whole.
fn scaled(mantissa: &str, name: &str, exp: u64) -> std::result::Result<u64, NotASize> {
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if mantissa.contains('.') && (fraction.is_empty() || fraction.contains('.')) {
        return Err(NotASize::Malformed(format!(
            "{name} '{mantissa}' is not a decimal number (write e.g. 2.5)"
        )));
    }
    let whole = if whole.is_empty() && !fraction.is_empty() {
        String::new()
    } else {
        digits(whole, name)?
    };
    let fraction = if fraction.is_empty() {
        String::new()
    } else {
        digits(fraction, "the digits after the decimal point")?
    };
    // Trailing zeros of the fraction do not change the value. What remains ends in a nonzero
    // digit, so the number is whole exactly when the exponent moves every place left of the
    // point.
    let fraction = fraction.trim_end_matches('0');
    let places = fraction.len() as u64;
    if places > exp {
        return Err(NotASize::Malformed("not a whole number".into()));
    }
    // The digits' value is at most the number's, so an overflow here is the number's.
    let digits = value(&format!("{whole}{fraction}"))?;
    match (digits, exp - places) {
        (0, _) => Ok(0),
        (_, shift @ 0..=19) => 10u64
            .pow(shift as u32)
            .checked_mul(digits)
            .ok_or(NotASize::TooLarge),
        _ => Err(NotASize::TooLarge),
    }
}

#[cfg(test)]
mod tests {
    use super::{NotASize, parse, parse_u64};
    use proptest::prelude::*;

    #[test]
    fn accepts_the_documented_forms() {
        assert_eq!(parse_u64("1000000").unwrap(), 1_000_000);
        assert_eq!(parse_u64("1_000_000").unwrap(), 1_000_000);
        assert_eq!(parse_u64("1e6").unwrap(), 1_000_000);
        assert_eq!(parse_u64("3E2").unwrap(), 300);
        assert_eq!(parse_u64("1.2e7").unwrap(), 12_000_000);
        assert_eq!(parse_u64("2.5E6").unwrap(), 2_500_000);
        assert_eq!(parse_u64("1.50e1").unwrap(), 15);
        assert_eq!(parse_u64(".5e3").unwrap(), 500);
        assert_eq!(parse_u64("1.8446744073709551615e19").unwrap(), u64::MAX);
        assert_eq!(parse_u64("2^20").unwrap(), 1_048_576);
        assert_eq!(parse_u64(" 2 ^ 20 ").unwrap(), 1_048_576);
        assert!(parse_u64("2^64").is_err());
        assert_eq!(parse_u64("18446744073709551615").unwrap(), u64::MAX);
        assert_eq!(parse_u64("2.0").unwrap(), 2);
        assert_eq!(parse_u64("1.00000000000000000000000e1").unwrap(), 10);
        assert_eq!(parse_u64("0e99999999999999999999").unwrap(), 0);
        assert_eq!(parse_u64("1^99999999999999999999").unwrap(), 1);
        assert_eq!(parse_u64("2^36+1").unwrap(), (1 << 36) + 1);
        assert_eq!(parse_u64("2^20 + 1e3 + 5").unwrap(), (1 << 20) + 1005);
        assert_eq!(parse_u64("18446744073709551614+1").unwrap(), u64::MAX);
        assert_eq!(parse_u64("0^5").unwrap(), 0);
        assert_eq!(parse_u64("000000000000000000000000000007").unwrap(), 7);
    }

    #[test]
    fn each_malformed_text_gets_its_own_reason() {
        for (bad, why) in [
            ("", "it is empty"),
            ("   ", "it is empty"),
            ("-5", "negative"),
            ("+5", "without '+'"),
            ("0x10", "hexadecimal"),
            ("abc", "not a number"),
            ("1 000", "not a number"),
            ("1.5", "not a whole number"),
            ("1.25e1", "not a whole number"),
            ("1e", "the exponent is missing"),
            ("e5", "the mantissa is missing"),
            ("1e-3", "the exponent '-3' is not a whole number"),
            ("^3", "the base is missing"),
            ("2^", "the exponent is missing"),
            ("2.5^2", "the base '2.5' is not a whole number"),
            ("1 .5", "the number '1 ' is not a whole number"),
            ("2^3^4", "'3^4' is not a whole number"),
            ("_1", "between two digits"),
            ("1_", "between two digits"),
            ("1__0", "between two digits"),
            ("1_e3", "between two digits"),
            ("2^_3", "between two digits"),
            ("1.e5", "not a decimal number"),
            ("1.2.3e4", "not a decimal number"),
            (".", "not a decimal number"),
            ("1.-2e3", "'-2' is not a whole number"),
            ("18446744073709551616", "larger than 2^64 - 1"),
            ("1e20", "larger than 2^64 - 1"),
            ("2.5e19", "larger than 2^64 - 1"),
            ("1e99999999999999999999", "larger than 2^64 - 1"),
            ("3^99999999999999999999", "larger than 2^64 - 1"),
            ("99999999999999999999999e-1", "'-1' is not a whole number"),
            ("2^20+", "a term of the sum is missing"),
            ("2^20++1", "a term of the sum is missing"),
            ("1e+5", "the exponent is missing"),
            ("2^64+x", "not a number"),
            ("18446744073709551615+1", "larger than 2^64 - 1"),
        ] {
            let message = parse_u64(bad).unwrap_err().to_string();
            assert!(message.contains(why), "{bad:?}: {message}");
            assert!(message.contains(&format!("'{bad}'")), "{bad:?}: {message}");
        }
    }

    /// The value of a text of digits (no underscores), `A^B` or `MeE` (M with an optional
    /// decimal point, or a decimal number alone), or a sum of these joined by `+`, in exact
    /// arithmetic, saturating at u128::MAX; None for anything else or a number that is not
    /// whole. Short texts only.
    fn exact(text: &str) -> Option<u128> {
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let big = |s: &str| s.parse::<u128>().unwrap_or(u128::MAX);
        let t = text.trim();
        if t.contains('+') {
            let terms: Option<Vec<u128>> = t
                .split('+')
                .map(|term| exact(term).filter(|_| !term.trim().is_empty()))
                .collect();
            return terms.map(|terms| terms.into_iter().fold(0u128, u128::saturating_add));
        }
        if let Some((a, b)) = t.split_once('^') {
            let (a, b) = (a.trim(), b.trim());
            if !all_digits(a) || !all_digits(b) {
                return None;
            }
            let (a, b) = (big(a), big(b));
            return Some(match (a, b) {
                (_, 0) | (1, _) => 1,
                (0, _) => 0,
                _ => u32::try_from(b)
                    .ok()
                    .and_then(|b| a.checked_pow(b))
                    .unwrap_or(u128::MAX),
            });
        }
        let (m, e) = match t.split_once(['e', 'E']) {
            Some((m, e)) if all_digits(e.trim()) => (m.trim(), big(e.trim())),
            Some(_) => return None,
            None => (t, 0),
        };
        let (whole, fraction) = match m.split_once('.') {
            Some((w, f)) if all_digits(f) && (w.is_empty() || all_digits(w)) => (w, f),
            Some(_) => return None,
            None if all_digits(m) => (m, ""),
            None => return None,
        };
        let mut numerator = big(&format!("{whole}{fraction}"));
        let mut places = fraction.len() as u128;
        let mut e = e;
        while places > 0 && e > 0 {
            (places, e) = (places - 1, e - 1);
        }
        for _ in 0..places {
            if numerator % 10 != 0 {
                return None;
            }
            numerator /= 10;
        }
        if numerator == 0 {
            return Some(0);
        }
        Some(
            u32::try_from(e)
                .ok()
                .and_then(|e| 10u128.checked_pow(e))
                .and_then(|scale| scale.checked_mul(numerator))
                .unwrap_or(u128::MAX),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Without underscores, the accepted texts are exactly those of whole values up to
        /// 2^64 − 1, read right; the larger ones are refused as too large.
        #[test]
        fn values_are_exact(text in "[0-9 .eE^x+-]{0,9}") {
            match (parse(&text), exact(&text)) {
                (Ok(v), Some(x)) => prop_assert_eq!(u128::from(v), x, "{:?}", text),
                (Err(NotASize::TooLarge), Some(x)) => prop_assert!(x > u128::from(u64::MAX), "{:?}", text),
                (Err(NotASize::Malformed(_)), None) => {}
                (got, want) => prop_assert!(false, "{:?}: got {:?}, want {:?}", text, got, want),
            }
        }

        /// Underscores between digits change nothing; any text gives a value or a one-line
        /// message that quotes it, never a panic.
        #[test]
        fn underscores_and_any_text(text in "[0-9_ .eE^x+-]{0,14}", any in "(?s).{0,12}") {
            let bare = text.replace('_', "");
            let ok = !text.contains("__")
                && text.split(|c: char| !c.is_ascii_digit() && c != '_')
                    .all(|run| !run.starts_with('_') && !run.ends_with('_'));
            match (parse(&text), parse(&bare)) {
                (Ok(v), bare) => prop_assert_eq!(bare, Ok(v)),
                (Err(e), Err(bare)) if ok => prop_assert_eq!(
                    e == NotASize::TooLarge, bare == NotASize::TooLarge, "{:?}", text
                ),
                (Err(_), bare) => prop_assert!(!ok, "{:?}: {:?}", text, bare),
            }
            for t in [&text, &any] {
                if let Err(e) = parse_u64(t) {
                    let quoted = format!("'{t}'");
                    prop_assert!(e.to_string().contains(&quoted));
                }
            }
        }
    }
}
