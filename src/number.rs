//! Parsing of the sizes users type: `1000000`, `1_000_000`, `1e6`, `2.5e6`, `2^20`.

use crate::error::{Error, Result};

/// Parses a non-negative integer written as digits (underscores allowed), `AeB` (A may have a
/// decimal point when the result is whole) or `A^B`.
///
/// ```
/// assert_eq!(nimsieve::number::parse_u64("2^20").unwrap(), 1 << 20);
/// assert_eq!(nimsieve::number::parse_u64("1e6").unwrap(), 1_000_000);
/// assert_eq!(nimsieve::number::parse_u64("1.2e7").unwrap(), 12_000_000);
/// ```
pub fn parse_u64(text: &str) -> Result<u64> {
    let t = text.trim();
    let bad = |why: &str| {
        Error::Input(format!(
            "'{text}' is not a valid size: {why} (write e.g. 1000000, 1_000_000, 1e6, 2.5e6 or 2^20)"
        ))
    };
    if let Some((base, exp)) = t.split_once('^') {
        let (base, exp) = (digits(base).ok_or_else(|| bad("bad base"))?, digits(exp));
        let exp = exp.ok_or_else(|| bad("bad exponent"))?;
        let exp = u32::try_from(exp).map_err(|_| bad("exponent too large"))?;
        return base
            .checked_pow(exp)
            .ok_or_else(|| bad("larger than 2^64 - 1"));
    }
    if let Some((mantissa, exp)) = t.split_once(['e', 'E']) {
        // A decimal point moves the digits: 1.25e6 is 125 · 10^4.
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if mantissa.contains('.')
            && (fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()))
        {
            return Err(bad("bad mantissa"));
        }
        let mantissa = digits(&format!("{whole}{fraction}")).ok_or_else(|| bad("bad mantissa"))?;
        let exp = digits(exp).ok_or_else(|| bad("bad exponent"))?;
        let exp = u32::try_from(exp).map_err(|_| bad("exponent too large"))?;
        let scale = |e: u32| {
            10u64
                .checked_pow(e)
                .ok_or_else(|| bad("larger than 2^64 - 1"))
        };
        let places = fraction.len() as u32;
        return if exp >= places {
            scale(exp - places)?
                .checked_mul(mantissa)
                .ok_or_else(|| bad("larger than 2^64 - 1"))
        } else {
            let divisor = scale(places - exp)?;
            if mantissa % divisor != 0 {
                return Err(bad("not a whole number"));
            }
            Ok(mantissa / divisor)
        };
    }
    if t.bytes().all(|b| b.is_ascii_digit() || b == b'_') && t.bytes().any(|b| b.is_ascii_digit()) {
        return digits(t).ok_or_else(|| bad("larger than 2^64 - 1"));
    }
    Err(bad("not a number"))
}

/// Digits with optional underscores, or None when malformed or over u64.
fn digits(text: &str) -> Option<u64> {
    let t = text.trim();
    if t.is_empty() || t.starts_with('_') || !t.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
        return None;
    }
    t.bytes().filter(|b| *b != b'_').try_fold(0u64, |acc, b| {
        acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::parse_u64;

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
        assert!(parse_u64("2^64").is_err());
        assert_eq!(parse_u64("18446744073709551615").unwrap(), u64::MAX);
    }

    #[test]
    fn rejects_garbage_and_overflow() {
        for bad in [
            "",
            "-5",
            "1.5",
            "abc",
            "1e",
            "^3",
            "2^",
            "18446744073709551616",
            "1e20",
            "_1",
            "0x10",
            "1.25e1",
            "1.e5",
            "1.2.3e4",
            "1.-2e3",
            "2.5e19",
        ] {
            assert!(parse_u64(bad).is_err(), "{bad} should be rejected");
        }
    }
}
