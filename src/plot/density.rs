//! The share of each value among the positions below x, as x grows (log x axis). The most
//! common values get a line each; the rest are lumped together as "other". Every line has a
//! dash pattern and a marker of its own besides its colour (markers staggered along x so
//! lines that run together still show theirs), so the picture reads in greyscale too; the
//! legend sits in a band below the chart, clear of the lines.

use super::lines::{self, DASH_DOT, DASHED, DOTTED, Marker, SHORT_DASHED, SOLID, Stroke};
use super::{Drawn, axes, legend};
use crate::table::ValueKind;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Values drawn on their own line; any others share the "other" line.
const SHOWN: usize = 9;
/// Points each line is drawn through.
const SAMPLES: usize = 300;

/// Line styles, one per shown value: a colour (Tableau 10, less its grey, which marks
/// "other"), a dash pattern and a marker, no two alike in pattern and marker together.
const STROKES: [Stroke; SHOWN] = [
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

/// The values given a line of their own: the `SHOWN` most common (ties to the smaller
/// value), ordered by value; and how many distinct values are left over.
fn most_common(counts: &[u64]) -> (Vec<u32>, usize) {
    let mut present: Vec<u32> = (0..counts.len() as u32)
        .filter(|&v| counts[v as usize] > 0)
        .collect();
    present.sort_by_key(|&v| (std::cmp::Reverse(counts[v as usize]), v));
    // Lumping a single value into "other" would hide it for nothing.
    let keep = if present.len() <= SHOWN + 1 {
        present.len()
    } else {
        SHOWN
    };
    let rest = present.len() - keep;
    present.truncate(keep);
    present.sort_unstable();
    (present, rest)
}

/// Series k holds the shares of `shown[k]` (the last series, "other", the rest) at each
/// sample x: the fraction of positions below x with that value.
fn shares(values: &[u32], shown: &[u32], samples: &[u64]) -> Vec<Vec<(f64, f64)>> {
    let max = values.iter().copied().max().unwrap_or(0) as usize;
    let mut series_of = vec![shown.len(); max + 1];
    for (k, &v) in shown.iter().enumerate() {
        series_of[v as usize] = k;
    }
    let mut counts = vec![0u64; shown.len() + 1];
    let mut lines = vec![Vec::with_capacity(samples.len()); shown.len() + 1];
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

/// Draws the shares of the values in `values`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    values: &[u32],
    kind: ValueKind,
) -> Drawn<DB> {
    let n = values.len() as u64;
    let mut counts = Vec::new();
    for &v in values {
        if v as usize >= counts.len() {
            counts.resize(v as usize + 1, 0u64);
        }
        counts[v as usize] += 1;
    }
    let (shown, rest) = most_common(&counts);
    let samples = axes::log_samples(1, n, SAMPLES);
    let lines = shares(values, &shown, &samples);
    let name = |v: u32| match (kind, v) {
        (ValueKind::Outcome, 0) => "P (outcome 0)".to_string(),
        (ValueKind::Outcome, _) => "N (outcome 1)".to_string(),
        (ValueKind::Grundy, v) => format!("g = {v}"),
    };
    let mut series = Vec::with_capacity(lines.len());
    for (k, line) in lines.into_iter().enumerate() {
        match shown.get(k) {
            Some(&v) => series.push((STROKES[k], name(v), line)),
            None if rest > 0 => series.push((
                OTHER,
                format!("other: the remaining {rest} values together"),
                line,
            )),
            None => {}
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
        .collect();
    let area = legend::below(root, &entries)?;
    // A little room above 1 and below 0 too, so a line there is not hidden by the frame.
    let mut chart = axes::frame(&area, title)
        .build_cartesian_2d(axes::log_range(n).log_scale(), -0.015..1.015)?;
    chart
        .configure_mesh()
        .x_desc("x")
        .y_desc("share of the positions below x")
        .label_style(axes::label_style())
        .x_label_formatter(&|x| axes::log_tick(*x))
        .y_label_formatter(&|y| axes::tick(*y))
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
    fn keeps_the_most_common_values_and_counts_the_rest() {
        let counts: Vec<u64> = (0..20).map(|v| if v == 3 { 0 } else { 100 - v }).collect();
        let (shown, rest) = most_common(&counts);
        assert_eq!(shown, [0, 1, 2, 4, 5, 6, 7, 8, 9]);
        assert_eq!(rest, 10);
        let (shown, rest) = most_common(&[5, 0, 7]);
        assert_eq!((shown, rest), (vec![0, 2], 0));
        let ten: Vec<u64> = vec![1; 10];
        assert_eq!(most_common(&ten), ((0..10).collect(), 0));
    }

    #[test]
    fn shares_are_fractions_of_the_positions_below_x() {
        let values = [0, 1, 2, 0, 1, 3, 0, 1];
        let lines = shares(&values, &[0, 1], &[1, 4, 8]);
        assert_eq!(lines[0], [(1.0, 1.0), (4.0, 0.5), (8.0, 3.0 / 8.0)]);
        assert_eq!(lines[1], [(1.0, 0.0), (4.0, 0.25), (8.0, 3.0 / 8.0)]);
        assert_eq!(lines[2], [(1.0, 0.0), (4.0, 0.25), (8.0, 0.25)]);
    }
}
