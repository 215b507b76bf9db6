//! The counting function C(x) = #{P-positions < x} on log-log axes, with the power law
//! fitted to its upper half: least squares of ln C against ln x over log-spaced x from √N to N.
//! The counting function is a solid line, the law a dashed one drawn over it (the data shows
//! between the dashes), so the two stay apart in greyscale; the legend sits below the chart.

use super::lines::{self, DASHED, Marker, SOLID, Stroke};
use super::{Drawn, axes, legend};
use crate::analysis::power_law::PowerLaw;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Points the counting function is drawn through.
const CURVE_SAMPLES: usize = 400;
/// Points the power law is fitted through.
const FIT_SAMPLES: usize = 64;

/// C(x): the P-positions below x.
fn count_below(positions: &[u64], x: u64) -> u64 {
    positions.partition_point(|&p| p < x) as u64
}

/// The fitted law and the range [lo, hi] of x it was fitted over: √N ≤ x ≤ N, the upper
/// half of the decades; `None` when that range holds fewer than two sample points.
pub(super) fn fit(positions: &[u64], n: u64) -> Option<(PowerLaw, u64, u64)> {
    let lo = (n as f64).sqrt().ceil() as u64;
    let points: Vec<(f64, f64)> = axes::log_samples(lo.max(1), n.max(1), FIT_SAMPLES)
        .into_iter()
        .map(|x| (x as f64, count_below(positions, x) as f64))
        .collect();
    PowerLaw::fit(&points).map(|law| (law, lo, n))
}

/// The legend text of a fitted law: `C(x) ≈ 0.872·x^0.702`.
pub(super) fn describe(law: &PowerLaw) -> String {
    let coefficient = if (0.01..1e4).contains(&law.coefficient) {
        format!("{:.3}", law.coefficient)
    } else {
        format!("{:.3e}", law.coefficient)
    };
    format!("C(x) ≈ {coefficient}·x^{:.3}", law.exponent)
}

/// The points of the curve through samples (x, C(x)). Between consecutive integers C is
/// constant, so there the curve is a step; between farther samples it is a straight line.
fn staircase(samples: &[(u64, u64)]) -> Vec<(f64, f64)> {
    let mut curve = Vec::with_capacity(2 * samples.len());
    for (i, &(x, c)) in samples.iter().enumerate() {
        if i > 0 && samples[i - 1].0 + 1 == x {
            curve.push((x as f64, samples[i - 1].1 as f64));
        }
        curve.push((x as f64, c as f64));
    }
    curve
}

/// The counting function's line.
const MEASURED: Stroke = Stroke {
    colour: RGBColor(31, 87, 165),
    width: 2,
    dashes: SOLID,
    marker: Marker::None,
};
/// The fitted law's line.
const FITTED: Stroke = Stroke {
    colour: RGBColor(214, 96, 30),
    width: 3,
    dashes: DASHED,
    marker: Marker::None,
};

/// Draws C(x) for the P-positions `positions` of a table of `n` positions.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    positions: &[u64],
    n: u64,
) -> Drawn<DB> {
    let samples: Vec<(u64, u64)> = axes::log_samples(1, n.max(2), CURVE_SAMPLES)
        .into_iter()
        .map(|x| (x, count_below(positions, x)))
        .filter(|&(_, c)| c > 0)
        .collect();
    let curve = staircase(&samples);
    let fitted = fit(positions, n);
    let fit_label = match &fitted {
        Some((law, lo, hi)) => format!(
            "{}, least squares of log C on log x over {} ≤ x ≤ {}",
            describe(law),
            axes::grouped(*lo),
            axes::grouped(*hi)
        ),
        None => "too few positions to fit a power law".to_string(),
    };
    let mut fit_entry = vec![legend::Part::Text(fit_label)];
    if fitted.is_some() {
        fit_entry.insert(0, legend::Part::Line(FITTED));
    }
    let entries = [
        legend::Entry(vec![
            legend::Part::Line(MEASURED),
            legend::Part::Text("C(x), the number of P-positions below x".into()),
        ]),
        legend::Entry(fit_entry),
    ];
    let area = legend::below(root, &entries)?;
    let total = positions.len() as f64;
    let first = curve.first().map_or(1.0, |p| p.1);
    let mut chart = axes::frame(&area, title).build_cartesian_2d(
        axes::log_range(n).log_scale(),
        (first.min(total) * 0.8..total * 1.5).log_scale(),
    )?;
    chart
        .configure_mesh()
        .x_desc("x")
        .y_desc("C(x) = #{P-positions < x}")
        .label_style(axes::label_style())
        .x_label_formatter(&|x| axes::log_tick(*x))
        .y_label_formatter(&|y| axes::log_tick(*y))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()?;
    let pixels = |points: &mut dyn Iterator<Item = (f64, f64)>| -> Vec<(f64, f64)> {
        points
            .map(|p| {
                let (x, y) = chart.backend_coord(&p);
                (f64::from(x), f64::from(y))
            })
            .collect()
    };
    lines::draw_line(root, &pixels(&mut curve.into_iter()), &MEASURED, 0.0)?;
    if let Some((law, lo, hi)) = fitted {
        let mut line = axes::log_samples(lo, hi, 32)
            .into_iter()
            .map(|x| (x as f64, law.at(x as f64)));
        lines::draw_line(root, &pixels(&mut line), &FITTED, 0.0)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_the_square_numbers_with_exponent_one_half() {
        // The squares below x number ⌈√x⌉, so C(x) ≈ x^0.5.
        let squares: Vec<u64> = (0..1000u64).map(|k| k * k).collect();
        let (law, lo, hi) = fit(&squares, 1_000_000).unwrap();
        assert_eq!((lo, hi), (1000, 1_000_000));
        assert!((law.exponent - 0.5).abs() < 0.01, "{law:?}");
        assert!((law.coefficient - 1.0).abs() < 0.1, "{law:?}");
        let law = PowerLaw {
            coefficient: 0.8721,
            exponent: 0.7,
        };
        assert_eq!(describe(&law), "C(x) ≈ 0.872·x^0.700");
        assert_eq!(count_below(&squares, 100), 10);
        assert_eq!(count_below(&squares, 101), 11);
    }

    #[test]
    fn steps_between_consecutive_integers_only() {
        let curve = staircase(&[(1, 1), (2, 1), (3, 2), (10, 4)]);
        assert_eq!(
            curve,
            [
                (1.0, 1.0),
                (2.0, 1.0),
                (2.0, 1.0),
                (3.0, 1.0),
                (3.0, 2.0),
                (10.0, 4.0)
            ]
        );
    }

    #[test]
    fn too_small_a_table_has_no_fit() {
        assert!(fit(&[0], 1).is_none());
    }
}
