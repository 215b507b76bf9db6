//! The counting function C(x) = #{P-positions < x} on log-log axes, with the law `law.rs`
//! chooses (a power law, the linear density of periodic values, or none and why). The
//! counting function is a solid line, the law a dashed one drawn over it (the data shows
//! between the dashes), so the two stay apart in greyscale; the legend sits below the chart.
//! With no P-position but one there is no function to draw, and the picture says so.

use super::law::{self, FitChoice, count_below};
use super::lines::{self, DASHED, Marker, SOLID, Stroke};
use super::{Drawn, axes, legend};
use crate::period::Period;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Points the counting function is drawn through.
const CURVE_SAMPLES: usize = 400;

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

/// Draws C(x) for the P-positions `positions` of a table of `n` positions whose values
/// have the proven `period`, if any, with the law `fit` asks for.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    positions: &[u64],
    n: u64,
    period: Option<Period>,
    fit: FitChoice,
) -> Drawn<DB> {
    if positions.len() <= 1 {
        return say_nothing_grows(root, title, positions, n);
    }
    let samples: Vec<(u64, u64)> = axes::log_samples(1, n.max(2), CURVE_SAMPLES)
        .into_iter()
        .map(|x| (x, count_below(positions, x)))
        .filter(|&(_, c)| c > 0)
        .collect();
    let curve = staircase(&samples);
    let law = law::choose(positions, n, period, fit);
    let mut law_entry = law.describe();
    if law.span(n).is_some() {
        law_entry.insert(0, legend::Part::Line(FITTED));
    }
    let mut entries = vec![
        legend::Entry(vec![
            legend::Part::Line(MEASURED),
            legend::Part::Text("C(x), the number of P-positions below x".into()),
        ]),
        legend::Entry(law_entry),
    ];
    entries.extend(law.other().map(legend::Entry));
    let area = legend::below(root, &entries)?;
    let total = positions.len() as f64;
    let first = curve.first().map_or(1.0, |p| p.1);
    let (x_range, y_range) = (axes::log_range(n), first.min(total) * 0.8..total * 1.5);
    let (x_ticks, y_ticks) = (
        axes::Ticks::log(x_range.clone()),
        axes::Ticks::log(y_range.clone()),
    );
    let mut chart =
        axes::frame(&area, title).build_cartesian_2d(x_range.log_scale(), y_range.log_scale())?;
    chart
        .configure_mesh()
        .x_desc("x")
        .y_desc("C(x) = #{P-positions < x}")
        .label_style(axes::label_style())
        .x_label_formatter(&|x| x_ticks.label(*x))
        .y_label_formatter(&|y| y_ticks.label(*y))
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
    if let Some((lo, hi)) = law.span(n) {
        let mut line = axes::log_samples(lo, hi, 32)
            .into_iter()
            .map(|x| (x as f64, law.at(x as f64)));
        lines::draw_line(root, &pixels(&mut line), &FITTED, 0.0)?;
    }
    Ok(())
}

/// The picture of a table with one P-position or none: the title, and in place of the chart
/// the words saying there is no counting function to draw.
fn say_nothing_grows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    positions: &[u64],
    n: u64,
) -> Drawn<DB> {
    let message = match positions.first() {
        None => format!("No P-positions below N = {}", axes::grouped(n)),
        Some(p) => format!(
            "The only P-position below N = {} is {}",
            axes::grouped(n),
            axes::grouped(*p)
        ),
    };
    // The frame draws the title; the words go in the middle of the picture.
    axes::frame(root, title).build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
    let (width, height) = root.dim_in_pixel();
    let centre = Pos::new(HPos::Center, VPos::Center);
    let middle = (width as i32 / 2, height as i32 / 2);
    let area = root;
    area.draw(&Text::new(
        message,
        (middle.0, middle.1 - 14),
        axes::label_style().pos(centre),
    ))?;
    area.draw(&Text::new(
        "C(x) does not grow: no counting function to draw, no law to fit",
        (middle.0, middle.1 + 14),
        axes::label_style().pos(centre),
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
