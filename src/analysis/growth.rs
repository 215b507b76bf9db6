//! How the P-position count C(x) grows: a density (C(x)/x tending to a constant) or a power
//! law C(x) ≈ a·x^b, both fitted over the upper decades √N ≤ x ≤ N with their errors, and the
//! one the data supports. A count of positions below x cannot grow faster than x, so a power
//! law whose exponent is not clearly below 1 is a density; otherwise the power law is chosen
//! when its error is at most half the density's (it has a parameter more).

use super::power_law::PowerLaw;
use serde::{Deserialize, Serialize};

/// The fewest sample points a fit takes.
const FEWEST_POINTS: usize = 3;

/// Which law describes C(x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fit {
    /// C(x) ≈ density·x.
    Density,
    /// C(x) ≈ coefficient·x^exponent.
    Power,
}

/// Both fits of C(x) over `from` ≤ x ≤ `to`, with their errors and the chosen one, field by
/// field in the order the JSON summary writes them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Growth {
    /// The law the data supports.
    pub fit: Fit,
    /// The least x of the fit (about √N).
    pub from: u64,
    /// The largest x of the fit (N).
    pub to: u64,
    /// C(N)/N, the density at the end of the table.
    pub density: f64,
    /// How far C(x)/x strays from `density` over the fit: the root mean square of
    /// ln(C(x)/x) − ln(density), about a relative error (0.04: ±4%).
    pub density_error: f64,
    /// The power law's factor a.
    pub coefficient: f64,
    /// The power law's exponent b.
    pub exponent: f64,
    /// The standard error of the exponent, from the least squares of ln C on ln x.
    pub exponent_error: f64,
    /// The root mean square of ln C(x) − ln(a·x^b) over the fit, about a relative error.
    pub power_error: f64,
}

impl Growth {
    /// The fits of C(x) through `points` (x, C(x)), x ascending, the last at N; None when fewer
    /// than three points have C(x) > 0 or C does not grow over them.
    pub fn of(points: &[(f64, f64)]) -> Option<Growth> {
        let points: Vec<(f64, f64)> = points
            .iter()
            .copied()
            .filter(|&(x, c)| x > 0.0 && c > 0.0)
            .collect();
        let (&(from, first), &(to, last)) = (points.first()?, points.last()?);
        if points.len() < FEWEST_POINTS || last <= first {
            return None;
        }
        let power = PowerLaw::fit(&points)?;
        let density = last / to;
        let density_error = (points
            .iter()
            .map(|&(x, c)| (c / x).ln() - density.ln())
            .map(|r| r * r)
            .sum::<f64>()
            / points.len() as f64)
            .sqrt();
        let below_one = power.law.exponent + 2.0 * power.exponent_error < 1.0;
        // The power law takes a parameter more: it must halve the error to be preferred.
        let fit = if below_one && power.rms < density_error / 2.0 {
            Fit::Power
        } else {
            Fit::Density
        };
        Some(Growth {
            fit,
            from: from as u64,
            to: to as u64,
            density,
            density_error,
            coefficient: power.law.coefficient,
            exponent: power.law.exponent,
            exponent_error: power.exponent_error,
            power_error: power.rms,
        })
    }

    /// The power law fitted.
    pub fn power_law(&self) -> PowerLaw {
        PowerLaw {
            coefficient: self.coefficient,
            exponent: self.exponent,
        }
    }

    /// Why the law not chosen was not: `an exponent not below 1 …` or `a larger error`.
    pub fn rejected_because(&self) -> &'static str {
        match self.fit {
            Fit::Density if self.exponent + 2.0 * self.exponent_error >= 1.0 => {
                "its exponent is not below 1, yet C(x) ≤ x"
            }
            Fit::Density => "it does not halve the density's error",
            Fit::Power => "its error is the larger",
        }
    }
}

/// The sample points of the counting function the JSON summary holds: C(2^k) for √N ≤ 2^k
/// < N (`at_powers_of_two[k]` = C(2^k)) and C(N) = `p_count` at N.
pub fn summary_points(at_powers_of_two: &[u64], p_count: u64, n: u64) -> Vec<(f64, f64)> {
    let from = (n as f64).sqrt();
    at_powers_of_two
        .iter()
        .enumerate()
        .map(|(k, &c)| ((k as f64).exp2(), c as f64))
        .filter(|&(x, _)| x >= from && x < n as f64)
        .chain([(n as f64, p_count as f64)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C(x) at 64 points from √n to n for the P-positions `p`.
    fn points(p: impl Fn(f64) -> f64, n: f64) -> Vec<(f64, f64)> {
        (0..=64)
            .map(|i| {
                let x = n.sqrt() * n.sqrt().powf(f64::from(i) / 64.0);
                (x, p(x))
            })
            .collect()
    }

    #[test]
    fn a_square_root_count_is_a_power_law() {
        let g = Growth::of(&points(|x| x.sqrt().ceil(), 1e6)).unwrap();
        assert_eq!(g.fit, Fit::Power, "{g:?}");
        assert!(
            (g.exponent - 0.5).abs() < 0.01 && g.exponent_error < 0.01,
            "{g:?}"
        );
        assert!(g.power_error < g.density_error);
    }

    #[test]
    fn a_count_that_grows_like_x_is_a_density() {
        // A density creeping up (as subtract-a-prime's does): the power law's exponent is
        // above 1, which no count of positions below x can keep.
        let g = Growth::of(&points(|x| 0.05 * x * x.ln().powf(0.5), 1e6)).unwrap();
        assert!(g.exponent > 1.0, "{g:?}");
        assert_eq!(g.fit, Fit::Density, "{g:?}");
        assert!((g.density - 0.05 * 1e6f64.ln().sqrt()).abs() < 1e-9);
        assert!(g.rejected_because().contains("not below 1"));
        // A plain density.
        let g = Growth::of(&points(|x| (x / 7.0).floor() + 1.0, 1e6)).unwrap();
        assert_eq!(g.fit, Fit::Density, "{g:?}");
        assert!(g.density_error < 0.01, "{g:?}");
    }

    #[test]
    fn a_count_that_stops_growing_has_no_fit() {
        assert_eq!(Growth::of(&points(|_| 42.0, 1e6)), None);
        assert_eq!(Growth::of(&[(1.0, 1.0), (2.0, 2.0)]), None);
        assert_eq!(
            summary_points(&[1, 1, 2, 2, 3, 5, 8, 13, 21, 34, 55], 60, 1000),
            [
                (32.0, 5.0),
                (64.0, 8.0),
                (128.0, 13.0),
                (256.0, 21.0),
                (512.0, 34.0),
                (1000.0, 60.0)
            ]
        );
    }
}
