//! The law the counting plot draws beside C(x), only where one means something: the linear
//! density of P-positions when the table's values are proven periodic, a power law fitted to
//! the upper half of the decades when enough P-positions lie in the upper half of the table,
//! and otherwise none, with the reason for the legend.

use super::{axes, legend::Part};
use crate::analysis::power_law::PowerLaw;
use crate::period::Period;

/// Points the power law is fitted through.
const FIT_SAMPLES: usize = 64;
/// The fewest P-positions in the upper half of the table, N/2 ≤ x < N, for a power law: with
/// fewer, C(x) has stopped growing or grows too little to measure an exponent.
pub(super) const MIN_GROWTH: u64 = 8;

/// C(x): the P-positions below x.
pub(super) fn count_below(positions: &[u64], x: u64) -> u64 {
    positions.partition_point(|&p| p < x) as u64
}

/// What the counting plot shows beside C(x).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Law {
    /// C(x) ≈ a·x^b, fitted over `lo` ≤ x ≤ `hi`.
    Power {
        /// The fitted law.
        law: PowerLaw,
        /// The least x of the fit.
        lo: u64,
        /// The largest x of the fit.
        hi: u64,
    },
    /// C(x) ≈ (`count` / period)·x: the values repeat with `period`, `count` of a period 0.
    Linear {
        /// P-positions in one period.
        count: u64,
        /// The proven period of the table's values.
        period: Period,
    },
    /// No law; the words say why.
    Without(String),
}

/// The range [√N, N] a law is fitted over and drawn on.
fn upper_decades(n: u64) -> (u64, u64) {
    (((n as f64).sqrt().ceil() as u64).max(1), n.max(1))
}

/// The law for the P-positions `positions` (ascending) of a table of `n` positions whose
/// values have the proven `period`, if any.
pub(super) fn choose(positions: &[u64], n: u64, period: Option<Period>) -> Law {
    let last = positions.last().copied().unwrap_or(0);
    if let Some(period) = period.filter(|p| p.preperiod + p.period <= n) {
        let start = period.preperiod;
        // With a saltus the values grow by it every period: none beyond the first is 0.
        let count = if period.saltus > 0 {
            0
        } else {
            count_below(positions, start + period.period) - count_below(positions, start)
        };
        if count > 0 {
            return Law::Linear { count, period };
        }
        return Law::Without(format!(
            "no law: the values are periodic from {} with period {} and none of a period is 0, \
             so the last P-position is {}",
            axes::grouped(start),
            axes::grouped(period.period),
            axes::grouped(last)
        ));
    }
    let half = n / 2;
    let upper = count_below(positions, n) - count_below(positions, half);
    if upper < MIN_GROWTH {
        let range = format!("{} ≤ x < {}", axes::grouped(half), axes::grouped(n));
        return Law::Without(if upper == 0 {
            format!(
                "no law fitted: the last P-position is {} and none lie in {range}, so C(x) has stopped growing",
                axes::grouped(last)
            )
        } else {
            format!(
                "no law fitted: only {upper} P-positions in {range}, too few to show how C(x) grows"
            )
        });
    }
    let (lo, hi) = upper_decades(n);
    let points: Vec<(f64, f64)> = axes::log_samples(lo, hi, FIT_SAMPLES)
        .into_iter()
        .map(|x| (x as f64, count_below(positions, x) as f64))
        .collect();
    match PowerLaw::fit(&points) {
        Some(law) => Law::Power { law, lo, hi },
        None => Law::Without("too few positions to fit a power law".into()),
    }
}

/// The greatest common divisor of `a` and `b`.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Law {
    /// The range of x the law is drawn over: where it was fitted, or √N ≤ x ≤ N for the
    /// linear density; `None` without a law.
    pub(super) fn span(&self, n: u64) -> Option<(u64, u64)> {
        match self {
            Law::Power { lo, hi, .. } => Some((*lo, *hi)),
            Law::Linear { .. } => Some(upper_decades(n)),
            Law::Without(_) => None,
        }
    }

    /// C(x) by the law.
    pub(super) fn at(&self, x: f64) -> f64 {
        match self {
            Law::Power { law, .. } => law.at(x),
            Law::Linear { count, period } => *count as f64 / period.period as f64 * x,
            Law::Without(_) => 0.0,
        }
    }

    /// The legend entry's text: `C(x) ≈ 0.872·x` with the exponent `0.702` raised, and how
    /// the law was found.
    pub(super) fn describe(&self) -> Vec<Part> {
        match self {
            Law::Power { law, lo, hi } => {
                let coefficient = if (0.01..1e4).contains(&law.coefficient) {
                    format!("{:.3}", law.coefficient)
                } else {
                    format!("{:.3e}", law.coefficient)
                };
                vec![
                    Part::Text(format!("C(x) ≈ {coefficient}·x")),
                    Part::Raised(format!("{:.3}", law.exponent)),
                    Part::Text(format!(
                        ", least squares of log C on log x over {} ≤ x ≤ {}",
                        axes::grouped(*lo),
                        axes::grouped(*hi)
                    )),
                ]
            }
            Law::Linear { count, period } => {
                let common = gcd(*count, period.period);
                let (top, bottom) = (count / common, period.period / common);
                let top = if top == 1 {
                    String::new()
                } else {
                    axes::grouped(top)
                };
                let slope = if bottom == 1 {
                    format!("{top}x")
                } else {
                    format!("{top}x/{}", axes::grouped(bottom))
                };
                vec![Part::Text(format!(
                    "C(x) ≈ {slope}: the values are periodic from {} with period {}, {} of them 0",
                    axes::grouped(period.preperiod),
                    axes::grouped(period.period),
                    axes::grouped(*count)
                ))]
            }
            Law::Without(why) => vec![Part::Text(why.clone())],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legend text, the exponent in ^(…).
    fn text(law: &Law) -> String {
        law.describe()
            .iter()
            .map(|part| match part {
                Part::Text(t) => t.clone(),
                Part::Raised(t) => format!("^({t})"),
                _ => unreachable!("a law is described in words"),
            })
            .collect()
    }

    #[test]
    fn fits_the_square_numbers_with_exponent_one_half() {
        // The squares below x number ⌈√x⌉, so C(x) ≈ x^0.5.
        let squares: Vec<u64> = (0..1000u64).map(|k| k * k).collect();
        let Law::Power { law, lo, hi } = choose(&squares, 1_000_000, None) else {
            panic!("no fit");
        };
        assert_eq!((lo, hi), (1000, 1_000_000));
        assert!((law.exponent - 0.5).abs() < 0.01, "{law:?}");
        assert!((law.coefficient - 1.0).abs() < 0.1, "{law:?}");
        let law = Law::Power {
            law: PowerLaw {
                coefficient: 0.8721,
                exponent: 0.7,
            },
            lo: 10,
            hi: 100,
        };
        assert_eq!(
            text(&law),
            "C(x) ≈ 0.872·x^(0.700), least squares of log C on log x over 10 ≤ x ≤ 100"
        );
        assert_eq!(count_below(&squares, 100), 10);
        assert_eq!(count_below(&squares, 101), 11);
    }

    #[test]
    fn a_set_that_stops_growing_gets_no_power_law() {
        // 42 P-positions, the last at 1,222, as in Grundy's game below 10^5.
        let finite: Vec<u64> = (0..42).map(|k| k * 29 + 33).collect();
        let law = choose(&finite, 100_000, None);
        assert_eq!(
            text(&law),
            "no law fitted: the last P-position is 1,222 and none lie in 50,000 ≤ x < 100,000, \
             so C(x) has stopped growing"
        );
        // A few in the upper half: still no law; a handful more: a law.
        let few: Vec<u64> = finite
            .iter()
            .copied()
            .chain([60_000, 70_000, 90_000])
            .collect();
        assert!(text(&choose(&few, 100_000, None)).contains("only 3 P-positions"));
        let grown: Vec<u64> = finite
            .iter()
            .copied()
            .chain((0..MIN_GROWTH).map(|k| 50_000 + k * 1000))
            .collect();
        assert!(matches!(choose(&grown, 100_000, None), Law::Power { .. }));
        assert!(matches!(choose(&[0], 1, None), Law::Without(_)));
    }

    #[test]
    fn periodic_values_give_the_linear_density() {
        // sub:1,3,4: P-positions x ≡ 0, 2 (mod 7).
        let ppos: Vec<u64> = (0..2000).filter(|x| x % 7 == 0 || x % 7 == 2).collect();
        let law = choose(&ppos, 2000, Some(Period::pure(0, 7)));
        assert_eq!(
            text(&law),
            "C(x) ≈ 2x/7: the values are periodic from 0 with period 7, 2 of them 0"
        );
        assert!((law.at(700.0) - 200.0).abs() < 1e-9);
        let law = choose(&[0, 3, 6, 9], 12, Some(Period::pure(0, 6)));
        assert!(text(&law).starts_with("C(x) ≈ x/3:"), "{}", text(&law));
        // A period without a 0: the P-positions end in the preperiod.
        let law = choose(&[0, 5], 1000, Some(Period::pure(71, 12)));
        assert!(
            text(&law).contains("the last P-position is 5"),
            "{}",
            text(&law)
        );
        let arithmetic = Period {
            preperiod: 0,
            period: 2,
            saltus: 1,
        };
        assert!(matches!(
            choose(&[0], 100, Some(arithmetic)),
            Law::Without(_)
        ));
        // A table shorter than its period's proof: the period is not used.
        assert!(matches!(
            choose(&ppos, 2000, Some(Period::pure(1990, 20))),
            Law::Power { .. }
        ));
    }
}
