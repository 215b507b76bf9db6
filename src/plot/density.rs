//! The share of each value class among the positions below x, as x grows (log x axis). The
//! classes (`classes.rs`: the values 0 to 8 by default) get a line each; the rest are lumped
//! together as "other". Every line has a
//! dash pattern and a marker of its own besides its colour (markers staggered along x so
//! lines that run together still show theirs), so the picture reads in greyscale too; the
//! legend sits in a band below the chart, clear of the lines.

use super::classes::{self, MOST, ValueClasses};
use super::lines::{self, DASH_DOT, DASHED, DOTTED, Marker, SHORT_DASHED, SOLID, Stroke};
use super::{Drawn, axes, legend};
use crate::table::ValueKind;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Tick labels on the share axis, at most: 0.0, 0.1, …, 1.0.
const Y_LABELS: usize = 11;
/// Points each line is drawn through.
const SAMPLES: usize = 300;

/// Line styles, one per class: a colour (Tableau 10, less its grey, which marks
/// "other"), a dash pattern and a marker, no two alike in pattern and marker together.
const STROKES: [Stroke; MOST] = [
    stroke(RGBColor(31, 119, 180), SOLID, Marker::Disc),
    stroke(RGBColor(255, 127, 14), DASHED, Marker::Square),
    stroke(RGBColor(44, 160, 44), DOTTED, Marker::Triangle),
    stroke(RGBColor(214, 39, 40), DASH_DOT, Marker::Diamond),
    stroke(RGBColor(148, 103, 189), SOLID, Marker::Ring),
    stroke(RGBColor(140, 86, 75), DASHED, Marker::Cross),
    stroke(RGBColor(227, 119, 194), DOTTED, Marker::OpenSquare),
    stroke(RGBColor(188, 189, 34), DASH_DOT, Marker::Plus),
    stroke(RGBColor(23, 190, 207), SHORT_DASHED, Marker::OpenTriangle),
];
/// The "other" line: grey, thicker, without markers.
const OTHER: Stroke = Stroke {
    colour: RGBColor(127, 127, 127),
    width: 3,
    dashes: SOLID,
    marker: Marker::None,
};

/// A line 2 pixels wide of `colour`, with `dashes` and `marker`.
const fn stroke(colour: RGBColor, dashes: &'static [u32], marker: Marker) -> Stroke {
    Stroke {
        colour,
        width: 2,
        dashes,
        marker,
    }
}

/// Series k holds the shares of class k (the last series, "other", the values in no class)
/// at each sample x: the fraction of positions below x with a value of the class.
fn shares(values: &[u32], classes: &ValueClasses, samples: &[u64]) -> Vec<Vec<(f64, f64)>> {
    let max = values.iter().copied().max().unwrap_or(0);
    let other = classes.len();
    let series_of: Vec<usize> = (0..=max)
        .map(|v| classes.class_of(v).unwrap_or(other))
        .collect();
    let mut counts = vec![0u64; other + 1];
    let mut lines = vec![Vec::with_capacity(samples.len()); other + 1];
    let mut done = 0;
    for &x in samples {
        for &v in &values[done..x as usize] {
            counts[series_of[v as usize]] += 1;
        }
        done = x as usize;
        for (line, &c) in lines.iter_mut().zip(&counts) {
            line.push((x as f64, c as f64 / x as f64));
        }
    }
    lines
}

/// Draws the shares of the value classes `classes` in `values`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    values: &[u32],
    kind: ValueKind,
    classes: &ValueClasses,
) -> Drawn<DB> {
    let n = values.len() as u64;
    let mut present = Vec::new();
    for &v in values {
        if v as usize >= present.len() {
            present.resize(v as usize + 1, false);
        }
        present[v as usize] = true;
    }
    // The values that occur in no class.
    let rest: Vec<u32> = (0..present.len() as u32)
        .filter(|&v| present[v as usize] && classes.class_of(v).is_none())
        .collect();
    let samples = axes::log_samples(1, n, SAMPLES);
    let lines = shares(values, classes, &samples);
    // A class no position has gets no line; one the user asked for still gets its entry.
    let mut series = Vec::with_capacity(lines.len());
    let mut absent = Vec::new();
    for (k, line) in lines.into_iter().enumerate() {
        let occurs = line.last().is_some_and(|p| p.1 > 0.0);
        if k < classes.len() {
            let label = classes.label(k, kind);
            if occurs {
                series.push((STROKES[k], label, line));
            } else if classes.explicit() {
                absent.push(format!("{label}: none below N"));
            }
        } else if occurs {
            // Lumping a single value into "other" would hide its name for nothing.
            let label = match rest.as_slice() {
                [v] => classes::name(*v, kind),
                _ => format!("other: the remaining {} values together", rest.len()),
            };
            series.push((OTHER, label, line));
        }
    }
    let entries: Vec<legend::Entry> = series
        .iter()
        .map(|(stroke, label, _)| {
            legend::Entry(vec![
                legend::Part::Line(*stroke),
                legend::Part::Text(label.clone()),
            ])
        })
        .chain(
            absent
                .into_iter()
                .map(|text| legend::Entry(vec![legend::Part::Text(text)])),
        )
        .collect();
    let area = legend::below(root, &entries)?;
    // A little room above 1 and below 0 too, so a line there is not hidden by the frame.
    let (x_range, y_range) = (axes::log_range(n), -0.015..1.015);
    let x_ticks = axes::Ticks::log(x_range.clone());
    let y_ticks = axes::Ticks::linear(y_range.clone(), Y_LABELS);
    let mut chart = axes::frame(&area, title).build_cartesian_2d(x_range.log_scale(), y_range)?;
    chart
        .configure_mesh()
        .x_desc("x")
        .y_desc("share of the positions below x")
        .label_style(axes::label_style())
        .x_label_formatter(&|x| x_ticks.label(*x))
        .y_label_formatter(&|y| y_ticks.label(*y))
        .y_labels(Y_LABELS)
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()?;
    let (left, _) = chart.backend_coord(&(1.0, 0.0));
    let stagger = lines::MARKER_EVERY / series.len() as f64;
    for (k, (stroke, _, line)) in series.iter().enumerate() {
        // From the last sample before the value's first occurrence: the lines of values
        // not yet seen would all lie on 0.
        let seen = line.iter().position(|p| p.1 > 0.0).unwrap_or(0);
        let pixels: Vec<(f64, f64)> = line[seen.saturating_sub(1)..]
            .iter()
            .map(|p| {
                let (x, y) = chart.backend_coord(p);
                (f64::from(x), f64::from(y))
            })
            .collect();
        let first = f64::from(left) + stagger * (k as f64 + 0.5);
        lines::draw_line(root, &pixels, stroke, first)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_fractions_of_the_positions_below_x() {
        let values = [0, 1, 2, 0, 1, 3, 0, 1];
        let classes = ValueClasses::parse("0,1").unwrap();
        let lines = shares(&values, &classes, &[1, 4, 8]);
        assert_eq!(lines[0], [(1.0, 1.0), (4.0, 0.5), (8.0, 3.0 / 8.0)]);
        assert_eq!(lines[1], [(1.0, 0.0), (4.0, 0.25), (8.0, 3.0 / 8.0)]);
        assert_eq!(lines[2], [(1.0, 0.0), (4.0, 0.25), (8.0, 0.25)]);
    }
}
