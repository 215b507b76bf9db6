//! Formulas for g(n) that theorems give for every n (normal play), so that a heap of any size
//! has its value at once.
//!
//! - `nim`: g(n) = n.
//! - `bachet:k`, `pim`, `powers-of-2`: g(n) = n mod p ([`SubtractionSet::proven_period`]).
//! - `lasker`: g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3 (Lasker;
//!   *Winning Ways*, ch. 4).
//! - `aliquot`: g(n) = ν₂(n), the exponent of 2 in n (g(0) = 0); `divisors`: ν₂(n) + 1 for
//!   n ≥ 1.
//! - `to-divisor`: g(n) = Ω(n), the number of prime factors with multiplicity (a divisor d < n
//!   has Ω(d) < Ω(n), and every smaller count is reached by dropping factors).
//! - `even-if-not-all`: g(2k − 1) = k, g(2k) = k − 1, g(0) = 0.
//! - `half`: g(2m) = m and g(2m + 1) = g(m): n with its trailing 1-bits and one more bit shifted
//!   out.
//!
//! The tests check every formula against the reference engine.
//!
//! `+leave1` shifts a subtraction game by one position (n ≥ 1 moving to n − s ≥ 1 is n − 1
//! moving to n − 1 − s ≥ 0), so g(n) = g'(n − 1) for n ≥ 1 with g' the game without it. For the
//! divisor games `+leave1` changes nothing but `divisors`, which becomes `aliquot` (the move
//! to 0 is the one it forbids); `half` never moves to 0 from n ≥ 2.

use super::{DivisorRule, Game, Play, Rule, SubtractionSet};
use crate::period::Period;

/// A formula for every value of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClosedForm {
    /// g(n) = n.
    Identity,
    /// g(n) = n mod p.
    Modulo(u64),
    /// Lasker's Nim.
    Lasker,
    /// g(n) = ν₂(n) (+ 1 when `plus_one`) for n ≥ 1, g(0) = 0.
    TwoAdic {
        /// Add one (`divisors`).
        plus_one: bool,
    },
    /// g(n) = Ω(n), the prime factors of n with multiplicity.
    PrimeFactors,
    /// `even-if-not-all`.
    EvenIfNotAll,
    /// `half`.
    Half,
    /// g(n) = f(n − 1) for n ≥ 1, g(0) = 0 (`+leave1` on a subtraction game).
    Shifted(Box<ClosedForm>),
}

impl Game {
    /// The formula of this game's values when a theorem gives one (normal play only).
    pub fn closed_form(&self) -> Option<ClosedForm> {
        if self.play != Play::Normal {
            return None;
        }
        let form = match &self.rule {
            Rule::Subtraction(set) => {
                let form = match set {
                    SubtractionSet::Nim | SubtractionSet::Powers(1) => ClosedForm::Identity,
                    set => ClosedForm::Modulo(set.proven_period()?),
                };
                return Some(match self.leave1 {
                    true => ClosedForm::Shifted(Box::new(form)),
                    false => form,
                });
            }
            Rule::TakeBreak(code) if code.is_lasker() => ClosedForm::Lasker,
            Rule::Divisor(DivisorRule::Aliquot) => ClosedForm::TwoAdic { plus_one: false },
            Rule::Divisor(DivisorRule::Divisors) => ClosedForm::TwoAdic {
                plus_one: !self.leave1,
            },
            Rule::Divisor(DivisorRule::ToDivisor) => ClosedForm::PrimeFactors,
            Rule::EvenIfNotAll if !self.leave1 => ClosedForm::EvenIfNotAll,
            Rule::Half => ClosedForm::Half,
            _ => return None,
        };
        Some(form)
    }
}

/// Lasker's Nim's formula as an arithmetic period: g(n + 4) = g(n) + 4 for n ≥ 1.
pub const LASKER_PERIOD: Period = Period {
    preperiod: 1,
    period: 4,
    saltus: 4,
};

/// g(x) of Lasker's Nim, for x below 2^64 − 1 (g(2^64 − 1) = 2^64; see
/// [`ClosedForm::largest_heap`]).
pub fn lasker(x: u64) -> u64 {
    match x % 4 {
        0 if x > 0 => x - 1,
        3 => x + 1,
        _ => x,
    }
}

/// Ω(n): the prime factors of n ≥ 1 counted with multiplicity (0 for 0 and 1).
pub fn prime_factor_count(n: u64) -> u64 {
    if n < 2 {
        return 0;
    }
    num_prime::nt_funcs::factorize64(n)
        .values()
        .map(|&m| m as u64)
        .sum()
}

impl ClosedForm {
    /// The largest n whose g(n) fits in u64: 2^64 − 2 for Lasker's Nim, where g(2^64 − 1) =
    /// 2^64; 2^64 − 1 for the others, whose values never pass n.
    pub fn largest_heap(&self) -> u64 {
        match self {
            ClosedForm::Lasker => u64::MAX - 1,
            ClosedForm::Shifted(inner) => inner.largest_heap().saturating_add(1),
            _ => u64::MAX,
        }
    }

    /// g(n), for n up to [`ClosedForm::largest_heap`].
    pub fn value(&self, n: u64) -> u64 {
        match self {
            ClosedForm::Identity => n,
            ClosedForm::Modulo(p) => n % p,
            ClosedForm::Lasker => lasker(n),
            ClosedForm::TwoAdic { .. } if n == 0 => 0,
            ClosedForm::TwoAdic { plus_one } => {
                u64::from(n.trailing_zeros()) + u64::from(*plus_one)
            }
            ClosedForm::PrimeFactors => prime_factor_count(n),
            ClosedForm::EvenIfNotAll if n == 0 => 0,
            ClosedForm::EvenIfNotAll if n % 2 == 1 => n.div_ceil(2),
            ClosedForm::EvenIfNotAll => n / 2 - 1,
            ClosedForm::Half => n.checked_shr(n.trailing_ones() + 1).unwrap_or(0),
            ClosedForm::Shifted(_) if n == 0 => 0,
            ClosedForm::Shifted(inner) => inner.value(n - 1),
        }
    }

    /// Every position of value `t`, ascending, when they are finitely many (the formulas that
    /// take each value a few times); None for the others.
    pub fn positions_of_value(&self, t: u64) -> Option<Vec<u64>> {
        Some(match self {
            ClosedForm::Identity => vec![t],
            // An involution: it swaps 4k + 3 and 4k + 4 (2^64 − 1 and 2^64 at the top).
            ClosedForm::Lasker if t == u64::MAX => Vec::new(),
            ClosedForm::Lasker => vec![lasker(t)],
            ClosedForm::EvenIfNotAll if t == 0 => vec![0, 2],
            ClosedForm::EvenIfNotAll => {
                // 2t − 1 and 2t + 2, while they fit.
                let mut at: Vec<u64> = u64::try_from(2 * u128::from(t) - 1).into_iter().collect();
                at.extend(t.checked_add(1).and_then(|u| u.checked_mul(2)));
                at
            }
            // n = t·2^(j+1) + 2^j − 1 for j ≥ 0, while it fits.
            ClosedForm::Half => (0..64u32)
                .map_while(|j| {
                    let shifted = t.checked_mul(2u64.checked_pow(j + 1)?)?;
                    shifted.checked_add((1u64 << j) - 1)
                })
                .collect(),
            ClosedForm::Shifted(inner) => {
                let mut at = inner.positions_of_value(t)?;
                at.retain(|&x| x < u64::MAX);
                at.iter_mut().for_each(|x| *x += 1);
                if t == 0 {
                    at.insert(0, 0);
                }
                at
            }
            ClosedForm::Modulo(_) | ClosedForm::TwoAdic { .. } | ClosedForm::PrimeFactors => {
                return None;
            }
        })
    }

    /// The theorem, in a few words, for `nimsieve games` and docs/games.md.
    pub fn statement(&self) -> String {
        match self {
            ClosedForm::Identity => "g(n) = n".into(),
            ClosedForm::Modulo(p) => format!("g(n) = n mod {p}"),
            ClosedForm::Lasker => {
                "g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3".into()
            }
            ClosedForm::TwoAdic { plus_one: false } => "g(n) = the exponent of 2 in n".into(),
            ClosedForm::TwoAdic { plus_one: true } => {
                "g(n) = the exponent of 2 in n, plus 1".into()
            }
            ClosedForm::PrimeFactors => "g(n) = the number of prime factors of n".into(),
            ClosedForm::EvenIfNotAll => "g(2k-1) = k, g(2k) = k-1".into(),
            ClosedForm::Half => "g(2m) = m, g(2m+1) = g(m)".into(),
            ClosedForm::Shifted(inner) => format!(
                "g(n) = f(n-1) where {}",
                inner.statement().replacen("g(", "f(", 1)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverses_list_exactly_the_positions_of_each_value() {
        let forms = [
            ClosedForm::Identity,
            ClosedForm::Lasker,
            ClosedForm::EvenIfNotAll,
            ClosedForm::Half,
            ClosedForm::Shifted(Box::new(ClosedForm::Identity)),
        ];
        for form in forms {
            for t in 0..40 {
                let want: Vec<u64> = (0..5000).filter(|&n| form.value(n) == t).collect();
                let got: Vec<u64> = form
                    .positions_of_value(t)
                    .unwrap()
                    .into_iter()
                    .filter(|&n| n < 5000)
                    .collect();
                assert_eq!(got, want, "{form:?}, value {t}");
            }
        }
    }

    #[test]
    fn formulas_hold_at_the_top_of_the_range() {
        assert_eq!(ClosedForm::Half.value(u64::MAX), 0);
        assert_eq!(ClosedForm::Half.value(u64::MAX - 1), u64::MAX >> 1);
        assert_eq!(ClosedForm::EvenIfNotAll.value(u64::MAX), 1 << 63);
        assert_eq!(ClosedForm::PrimeFactors.value(1 << 63), 63);
        assert_eq!(ClosedForm::PrimeFactors.value(u64::MAX), 7);
        assert_eq!(ClosedForm::TwoAdic { plus_one: true }.value(96), 6);
        assert_eq!(ClosedForm::Half.positions_of_value(u64::MAX), Some(vec![]));
        // Positions past 2^64 − 1 are left out, not wrapped to small ones.
        let top = 1 << 63;
        assert_eq!(
            ClosedForm::EvenIfNotAll.positions_of_value(top),
            Some(vec![u64::MAX])
        );
        assert_eq!(
            ClosedForm::EvenIfNotAll.positions_of_value(top + 1),
            Some(vec![])
        );
        assert_eq!(
            ClosedForm::Lasker.positions_of_value(u64::MAX),
            Some(vec![])
        );
        assert_eq!(ClosedForm::Lasker.value(u64::MAX - 1), u64::MAX - 1);
        assert_eq!(ClosedForm::Lasker.largest_heap(), u64::MAX - 1);
    }
}
