//! g(n) against n. Small tables draw every point; large ones are aggregated per pixel: each
//! pixel column marks the pixel rows of the values present among its positions, so the
//! picture shows every value that occurs while the work stays one pass over the table.

use super::{Drawn, axes};
use crate::table::ValueKind;
use plotters::coord::Shift;
use plotters::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;

/// Tables with at most this many pixels per position are drawn with one marker per point.
const MARKER_SPACING: u64 = 3;

/// The colour of the points.
const INK: RGBColor = RGBColor(31, 87, 165);

/// Draws the scatter of `values` (position x has value `values[x]`).
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    values: &[u32],
    kind: ValueKind,
) -> Drawn<DB> {
    let n = values.len() as f64;
    let max = f64::from(values.par_iter().copied().max().unwrap_or(0));
    let y_pad = (max * 0.02).max(0.5);
    let x_pad = n * 0.01;
    let mut chart = axes::frame(root, title)
        .build_cartesian_2d(-x_pad..n - 1.0 + x_pad, -y_pad..max + y_pad)?;
    let y_desc = match kind {
        ValueKind::Grundy => "g(n)",
        ValueKind::Outcome => "outcome (0 = P, 1 = N)",
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("n")
        .y_desc(y_desc)
        .label_style(axes::label_style())
        .x_label_formatter(&|x| axes::tick(*x))
        .y_label_formatter(&|y| axes::tick(*y))
        // Asking for no more labels than integers in range keeps every tick on an integer.
        .x_labels(values.len().clamp(2, 10))
        .y_labels((max as usize + 1).clamp(2, 10))
        .draw()?;
    let (left, _) = chart.backend_coord(&(0.0, 0.0));
    let (right, _) = chart.backend_coord(&(n - 1.0, 0.0));
    let columns = (right - left + 1).max(1) as u64;
    let width = u64::from(chart.plotting_area().dim_in_pixel().0);
    if values.len() as u64 * MARKER_SPACING <= width {
        chart.draw_series(
            values
                .iter()
                .enumerate()
                .map(|(x, &v)| Circle::new((x as f64, f64::from(v)), 3, INK.filled())),
        )?;
        return Ok(());
    }
    // Pixel rows run down from the maximum's (offset 0) to 0's (offset `span`).
    let (_, row_of_0) = chart.backend_coord(&(0.0, 0.0));
    let (_, row_of_max) = chart.backend_coord(&(0.0, max));
    let span = f64::from(row_of_0 - row_of_max);
    let spacing = if max > 0.0 { span / max } else { 0.0 };
    let offset = |v: u32| (span - f64::from(v) * spacing + 0.5) as usize;
    // Marks grow to 3 pixels tall where values lie far enough apart to stay distinct.
    let reach = if max == 0.0 || spacing >= 4.0 { 1 } else { 0 };
    let runs: Vec<Vec<(i32, i32)>> = (0..columns)
        .into_par_iter()
        .map(|c| {
            let (start, end) = column_span(c, columns, values.len() as u64);
            let mut marked = vec![false; span as usize + 1];
            for &v in &values[start..end] {
                marked[offset(v)] = true;
            }
            runs_of(&marked, row_of_max)
        })
        .collect();
    for (first, last, top, bottom) in merge_across(&runs) {
        // A rectangle covers [x0, x1) × [y0, y1): here columns first..=last, rows top..=bottom.
        root.draw(&Rectangle::new(
            [
                (left + first as i32, top - reach),
                (left + last as i32 + 1, bottom + reach + 1),
            ],
            INK.filled(),
        ))?;
    }
    Ok(())
}

/// Positions [start, end) of pixel column `c` of `columns` spread over `n` positions.
fn column_span(c: u64, columns: u64, n: u64) -> (usize, usize) {
    let edge = |c: u64| ((u128::from(c) * u128::from(n)).div_ceil(u128::from(columns))) as usize;
    (edge(c), edge(c + 1))
}

/// The runs of consecutive marked rows, as (first row, last row) offset by `first`.
fn runs_of(marked: &[bool], first: i32) -> Vec<(i32, i32)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, &m) in marked.iter().chain([&false]).enumerate() {
        match (m, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((first + s as i32, first + i as i32 - 1));
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// The runs of every column joined with the same run in the columns next to it, as
/// (first column, last column, top row, bottom row), so a value present along a stretch of
/// positions becomes one rectangle rather than one per pixel column.
fn merge_across(columns: &[Vec<(i32, i32)>]) -> Vec<(usize, usize, i32, i32)> {
    let mut done = Vec::new();
    let mut open: HashMap<(i32, i32), usize> = HashMap::new();
    for (c, column) in columns.iter().enumerate() {
        open.retain(|&(top, bottom), &mut first| {
            let continues = column.binary_search(&(top, bottom)).is_ok();
            if !continues {
                done.push((first, c - 1, top, bottom));
            }
            continues
        });
        for &run in column {
            open.entry(run).or_insert(c);
        }
    }
    let end = columns.len().saturating_sub(1);
    done.extend(
        open.into_iter()
            .map(|((top, bottom), first)| (first, end, top, bottom)),
    );
    done.sort_unstable();
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_partition_the_positions() {
        for (columns, n) in [(900, 1_000_000), (900, 1000), (7, 3), (1, 5)] {
            let spans: Vec<_> = (0..columns).map(|c| column_span(c, columns, n)).collect();
            assert_eq!(spans[0].0, 0);
            assert_eq!(spans.last().unwrap().1, n as usize);
            assert!(spans.windows(2).all(|w| w[0].1 == w[1].0));
        }
    }

    #[test]
    fn runs_join_across_columns() {
        let columns = vec![
            vec![(1, 2), (5, 5)],
            vec![(1, 2)],
            vec![(1, 2), (5, 5)],
            vec![(0, 2)],
        ];
        assert_eq!(
            merge_across(&columns),
            [(0, 0, 5, 5), (0, 2, 1, 2), (2, 2, 5, 5), (3, 3, 0, 2)]
        );
        assert_eq!(merge_across(&[]), []);
    }

    #[test]
    fn runs_cover_the_marked_rows() {
        let marked = [true, true, false, true, false, false, true];
        assert_eq!(runs_of(&marked, 10), [(10, 11), (13, 13), (16, 16)]);
        assert_eq!(runs_of(&[false, false], 0), []);
    }
}
