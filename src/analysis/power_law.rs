//! Fitting a power law y ≈ a·x^b by least squares of ln y against ln x, with the errors of
//! the fit.

/// A power law y = `coefficient` · x^`exponent`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerLaw {
    /// The factor a.
    pub coefficient: f64,
    /// The exponent b.
    pub exponent: f64,
}

/// A power law fitted through points, with its errors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// The law.
    pub law: PowerLaw,
    /// The standard error of the exponent.
    pub exponent_error: f64,
    /// The root mean square of ln y − ln(a·x^b) over the points: about a relative error.
    pub rms: f64,
}

impl PowerLaw {
    /// The least-squares fit of ln y = ln a + b·ln x through `points` (x, y). Points with
    /// x ≤ 0 or y ≤ 0 have no logarithm and are skipped; `None` when fewer than two distinct
    /// x remain.
    pub fn fit(points: &[(f64, f64)]) -> Option<Fitted> {
        let logs: Vec<(f64, f64)> = points
            .iter()
            .filter(|(x, y)| *x > 0.0 && *y > 0.0)
            .map(|(x, y)| (x.ln(), y.ln()))
            .collect();
        let count = logs.len() as f64;
        let mean_x = logs.iter().map(|p| p.0).sum::<f64>() / count;
        let mean_y = logs.iter().map(|p| p.1).sum::<f64>() / count;
        let sxx: f64 = logs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
        let sxy: f64 = logs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
        // sxx is 0 (or NaN for no points) unless two x differ.
        (sxx > 0.0).then(|| {
            let exponent = sxy / sxx;
            let intercept = mean_y - exponent * mean_x;
            let rss: f64 = logs
                .iter()
                .map(|(x, y)| (y - intercept - exponent * x).powi(2))
                .sum();
            Fitted {
                law: PowerLaw {
                    coefficient: intercept.exp(),
                    exponent,
                },
                exponent_error: (rss / (count - 2.0).max(1.0) / sxx).sqrt(),
                rms: (rss / count).sqrt(),
            }
        })
    }

    /// The law's value at x.
    pub fn at(&self, x: f64) -> f64 {
        self.coefficient * x.powf(self.exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::PowerLaw;

    #[test]
    fn recovers_an_exact_power_law() {
        let points: Vec<(f64, f64)> = (1..=50)
            .map(|i| {
                let x = f64::from(i * i * 7);
                (x, x.sqrt())
            })
            .collect();
        let law = PowerLaw::fit(&points).unwrap().law;
        assert!((law.exponent - 0.5).abs() < 1e-12, "{law:?}");
        assert!((law.coefficient - 1.0).abs() < 1e-12, "{law:?}");
        let scaled: Vec<(f64, f64)> = [2.0, 8.0, 1000.0]
            .iter()
            .map(|&x: &f64| (x, 3.0 * x.powf(0.7)))
            .collect();
        let law = PowerLaw::fit(&scaled).unwrap().law;
        assert!((law.exponent - 0.7).abs() < 1e-12 && (law.coefficient - 3.0).abs() < 1e-9);
        assert!((law.at(1000.0) - 3.0 * 1000f64.powf(0.7)).abs() < 1e-6);
    }

    #[test]
    fn needs_two_distinct_positive_points() {
        assert_eq!(PowerLaw::fit(&[]), None);
        assert_eq!(PowerLaw::fit(&[(4.0, 2.0), (4.0, 3.0)]), None);
        assert_eq!(PowerLaw::fit(&[(4.0, 2.0), (9.0, 0.0), (0.0, 1.0)]), None);
    }
}
