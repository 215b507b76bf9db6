//! The law the counting plot draws beside C(x), only where one means something: the linear
//! density of P-positions when the table's values are proven periodic; when enough P-positions
//! lie in the upper half of the table, a density or a power law fitted to the upper half of
//! the decades (`analysis::growth`: the one that fits, or the one asked for), with the other
//! described beside it; and otherwise none, with the reason for the legend.

use super::{axes, legend::Part};
use crate::analysis::growth::{Fit, Growth};
use crate::choice::Choice;
use crate::period::Period;

/// Points the density and the power law are fitted through.
const FIT_SAMPLES: usize = 64;
/// The fewest P-positions in the upper half of the table, N/2 ≤ x < N, for a power law: with
/// fewer, C(x) has stopped growing or grows too little to measure an exponent.
pub(super) const MIN_GROWTH: u64 = 8;

/// C(x): the P-positions below x.
pub(super) fn count_below(positions: &[u64], x: u64) -> u64 {
    positions.partition_point(|&p| p < x) as u64
}

/// Which law the counting plot draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FitChoice {
    /// The law the data supports: the linear density of proven periodic values, else the
    /// density or the power law as [`Growth::of`] chooses.
    #[default]
    Auto,
    /// The power law.
    Power,
    /// The density C(N)/N.
    Density,
    /// No law.
    None,
}

impl Choice for FitChoice {
    const ALL: &'static [FitChoice] = &[
        FitChoice::Auto,
        FitChoice::Power,
        FitChoice::Density,
        FitChoice::None,
    ];

    fn name(self) -> &'static str {
        match self {
            FitChoice::Auto => "auto",
            FitChoice::Power => "power",
            FitChoice::Density => "density",
            FitChoice::None => "none",
        }
    }

    fn help(self) -> &'static str {
        match self {
            FitChoice::Auto => "the law the data supports (the default)",
            FitChoice::Power => "a power law a·x^b",
            FitChoice::Density => "a density: C(x) ≈ (C(N)/N)·x",
            FitChoice::None => "no law",
        }
    }
}

/// What the counting plot shows beside C(x).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Law {
    /// A density or a power law fitted over `growth.from` ≤ x ≤ `growth.to`; `shown` the one
    /// drawn.
    Fitted {
        /// Both fits.
        growth: Growth,
        /// The one drawn.
        shown: Fit,
        /// True when asked for rather than chosen.
        asked: bool,
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
/// values have the proven `period`, if any, as `fit` asks.
pub(super) fn choose(positions: &[u64], n: u64, period: Option<Period>, fit: FitChoice) -> Law {
    let last = positions.last().copied().unwrap_or(0);
    if fit == FitChoice::None {
        return Law::Without("no law drawn, as asked".into());
    }
    if let Some(period) = period.filter(|p| p.preperiod + p.period <= n && fit == FitChoice::Auto) {
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
    match Growth::of(&points) {
        Some(growth) => Law::Fitted {
            growth,
            shown: match fit {
                FitChoice::Power => Fit::Power,
                FitChoice::Density => Fit::Density,
                _ => growth.fit,
            },
            asked: fit != FitChoice::Auto,
        },
        None => Law::Without("too few positions to fit a law".into()),
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
            Law::Fitted { growth, .. } => Some((growth.from, growth.to)),
            Law::Linear { .. } => Some(upper_decades(n)),
            Law::Without(_) => None,
        }
    }

    /// C(x) by the law.
    pub(super) fn at(&self, x: f64) -> f64 {
        match self {
            Law::Fitted {
                growth,
                shown: Fit::Power,
                ..
            } => growth.power_law().at(x),
            Law::Fitted { growth, .. } => growth.density * x,
            Law::Linear { count, period } => *count as f64 / period.period as f64 * x,
            Law::Without(_) => 0.0,
        }
    }

    /// The legend entry's text: `C(x) ≈ 0.872·x` with the exponent `0.702` raised, its
    /// error, and how the law was found.
    pub(super) fn describe(&self) -> Vec<Part> {
        match self {
            Law::Fitted { growth, shown, .. } => {
                let mut parts = fitted(growth, *shown);
                parts.push(Part::Text(format!(
                    ", over {} ≤ x ≤ {}",
                    axes::grouped(growth.from),
                    axes::grouped(growth.to)
                )));
                parts
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

    /// The legend entry of the fit not drawn, and why not; None without one.
    pub(super) fn other(&self) -> Option<Vec<Part>> {
        let Law::Fitted {
            growth,
            shown,
            asked,
        } = self
        else {
            return None;
        };
        let other = match shown {
            Fit::Power => Fit::Density,
            Fit::Density => Fit::Power,
        };
        let mut parts = vec![Part::Text("not drawn: ".into())];
        parts.extend(fitted(growth, other));
        parts.push(Part::Text(match (asked, other == growth.fit) {
            (true, true) => " (the better fit; another was asked for)".into(),
            (true, false) => " (another was asked for)".into(),
            _ => format!(" ({})", growth.rejected_because()),
        }));
        Some(parts)
    }
}

/// The words of one of `growth`'s laws with its error: `C(x) ≈ 0.081·x^1.053±0.002, ±1.4%`
/// or `C(x) ≈ 0.164·x (the density C(N)/N), C(x)/x within ±19%`.
fn fitted(growth: &Growth, fit: Fit) -> Vec<Part> {
    let percent = |error: f64| format!("{:.1}%", 100.0 * error);
    match fit {
        Fit::Power => {
            let a = growth.coefficient;
            let coefficient = if (0.01..1e4).contains(&a) {
                format!("{a:.3}")
            } else {
                format!("{a:.3e}")
            };
            vec![
                Part::Text(format!("C(x) ≈ {coefficient}·x")),
                Part::Raised(format!(
                    "{:.3}±{:.3}",
                    growth.exponent, growth.exponent_error
                )),
                Part::Text(format!(", off by ±{}", percent(growth.power_error))),
            ]
        }
        Fit::Density => vec![Part::Text(format!(
            "C(x) ≈ {:.4}·x, the density C(N)/N (C(x)/x within ±{})",
            growth.density,
            percent(growth.density_error)
        ))],
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
        let law = choose(&squares, 1_000_000, None, FitChoice::Auto);
        let Law::Fitted {
            growth,
            shown: Fit::Power,
            asked: false,
        } = law
        else {
            panic!("no power law: {law:?}");
        };
        assert_eq!((growth.from, growth.to), (1000, 1_000_000));
        assert!((growth.exponent - 0.5).abs() < 0.01, "{growth:?}");
        assert!((growth.coefficient - 1.0).abs() < 0.1, "{growth:?}");
        let said = text(&law);
        assert!(said.starts_with("C(x) ≈ 1.0"), "{said}");
        assert!(said.contains("·x^(0.498±0.000), off by ±0.4%"), "{said}");
        assert!(said.ends_with(", over 1,000 ≤ x ≤ 1,000,000"), "{said}");
        let other = law.other().unwrap();
        let other = String::new()
            + &other
                .iter()
                .map(|p| match p {
                    Part::Text(t) => t.clone(),
                    Part::Raised(t) => format!("^({t})"),
                    _ => unreachable!(),
                })
                .collect::<String>();
        assert!(other.starts_with("not drawn: C(x) ≈ 0.0"), "{other}");
        assert!(other.ends_with("(its error is the larger)"), "{other}");
        // Asked for, the density is drawn and the power law said beside it.
        let asked = choose(&squares, 1_000_000, None, FitChoice::Density);
        assert!(
            text(&asked).contains(", the density C(N)/N (C(x)/x within ±"),
            "{}",
            text(&asked)
        );
        assert!((asked.at(1e6) - 1000.0).abs() < 1e-6);
        assert_eq!(
            choose(&squares, 1_000_000, None, FitChoice::None),
            Law::Without("no law drawn, as asked".into())
        );
        assert_eq!(count_below(&squares, 100), 10);
        assert_eq!(count_below(&squares, 101), 11);
    }

    /// A density creeping up, as subtract-a-prime's P-positions: a power law's exponent above 1
    /// is refused, and the density drawn.
    #[test]
    fn a_count_growing_like_x_is_drawn_as_a_density() {
        let ppos: Vec<u64> = (1..1_000_000u64)
            .filter(|x| x % 6 == 0 || (x % 6 == 1 && *x > 500_000))
            .collect();
        let law = choose(&ppos, 1_000_000, None, FitChoice::Auto);
        assert!(
            matches!(
                law,
                Law::Fitted {
                    shown: Fit::Density,
                    ..
                }
            ),
            "{law:?}"
        );
        let other: String = law
            .other()
            .unwrap()
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.clone(),
                Part::Raised(t) => format!("^({t})"),
                _ => unreachable!(),
            })
            .collect();
        assert!(other.contains("its exponent is not below 1"), "{other}");
    }

    #[test]
    fn a_set_that_stops_growing_gets_no_power_law() {
        // 42 P-positions, the last at 1,222, as in Grundy's game below 10^5.
        let finite: Vec<u64> = (0..42).map(|k| k * 29 + 33).collect();
        let law = choose(&finite, 100_000, None, FitChoice::Auto);
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
        assert!(text(&choose(&few, 100_000, None, FitChoice::Auto)).contains("only 3 P-positions"));
        let grown: Vec<u64> = finite
            .iter()
            .copied()
            .chain((0..MIN_GROWTH).map(|k| 50_000 + k * 1000))
            .collect();
        assert!(matches!(
            choose(&grown, 100_000, None, FitChoice::Auto),
            Law::Fitted { .. }
        ));
        assert!(matches!(
            choose(&[0], 1, None, FitChoice::Auto),
            Law::Without(_)
        ));
    }

    #[test]
    fn periodic_values_give_the_linear_density() {
        // sub:1,3,4: P-positions x ≡ 0, 2 (mod 7).
        let ppos: Vec<u64> = (0..2000).filter(|x| x % 7 == 0 || x % 7 == 2).collect();
        let law = choose(&ppos, 2000, Some(Period::pure(0, 7)), FitChoice::Auto);
        assert_eq!(
            text(&law),
            "C(x) ≈ 2x/7: the values are periodic from 0 with period 7, 2 of them 0"
        );
        assert!((law.at(700.0) - 200.0).abs() < 1e-9);
        let law = choose(&[0, 3, 6, 9], 12, Some(Period::pure(0, 6)), FitChoice::Auto);
        assert!(text(&law).starts_with("C(x) ≈ x/3:"), "{}", text(&law));
        // A period without a 0: the P-positions end in the preperiod.
        let law = choose(&[0, 5], 1000, Some(Period::pure(71, 12)), FitChoice::Auto);
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
            choose(&[0], 100, Some(arithmetic), FitChoice::Auto),
            Law::Without(_)
        ));
        // A table shorter than its period's proof: the period is not used.
        assert!(matches!(
            choose(&ppos, 2000, Some(Period::pure(1990, 20)), FitChoice::Auto),
            Law::Fitted { .. }
        ));
    }
}
