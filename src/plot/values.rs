//! g(n) against n, drawn so that a reader can use it at any size.
//!
//! - A table with at most a third as many positions as the plot is pixels wide gets a marker
//!   per position.
//! - Larger tables are drawn per pixel column: each column stands for the positions it spans
//!   ([`column_span`]) and each value present among them is a band at that value's height
//!   (bands of neighbouring values touch when values lie less than 4 pixels apart; values
//!   that share a pixel row are counted together). Below [`SHADED_FROM`] positions a column
//!   the bands are plain marks. From there on each band is shaded by how many of the
//!   column's positions have the value, on a log scale in [`LEVELS`] greys from one position
//!   (light grey, so a value that occurs once among 10^8 still shows) to all of them (nearly
//!   black). Marks alone fill the region under the largest values as a solid block, saying
//!   only which values occur; the shading says how often, so a distribution that drifts, a
//!   rare value or a missing one reads at a glance.
//! - The running maximum max{g(m) : m ≤ n} of a Grundy table is a line of its own colour:
//!   where the largest value grows, and how fast. Over markers it runs through the record
//!   values; over bands it runs along the upper edge of the largest value's band, a blank
//!   row between, so it never covers a band.
//!
//! No min–max envelope is drawn: the lowest and highest bands of a column already mark its
//! range, and filling the range would hide the values that do not occur. Counting is one
//! pass over the table, in parallel over the columns.

use super::lines::{self, Marker, SOLID, Stroke};
use super::{Drawn, axes, legend};
use crate::table::ValueKind;
use plotters::coord::Shift;
use plotters::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;

/// Tables with at most this many pixels per position are drawn with one marker per point.
const MARKER_SPACING: u64 = 3;
/// Pixel columns are shaded when they hold at least this many positions each.
const SHADED_FROM: u64 = 4;
/// Grey levels of the shading.
const LEVELS: usize = 8;
/// The tallest band of one value, in pixels.
const BAND: i32 = 9;

/// The colour of points and plain marks.
const INK: RGBColor = RGBColor(31, 87, 165);
/// The running maximum's line.
const RECORD: Stroke = Stroke {
    colour: RGBColor(213, 94, 0),
    width: 2,
    dashes: SOLID,
    marker: Marker::None,
};

/// How the values are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A marker per position.
    Points,
    /// Per pixel column, a mark for each value present.
    Marks,
    /// Per pixel column, a band for each value present, shaded by how often it occurs.
    Shaded,
}

/// The grey of shading level `level`, from light grey (0) to nearly black (`LEVELS - 1`;
/// the frame and text keep pure black).
fn grey(level: usize) -> RGBColor {
    let g = (215 - 195 * level / (LEVELS - 1)) as u8;
    RGBColor(g, g, g)
}

/// The shading level of a value that `count` of a column's `size` positions have: level
/// ⌊LEVELS · ln count / ln size⌋, so one position is level 0 and all of them the last.
fn level(count: u64, size: u64) -> usize {
    if size <= 1 {
        return LEVELS - 1;
    }
    let t = (count as f64).ln() / (size as f64).ln();
    ((t * LEVELS as f64) as usize).min(LEVELS - 1)
}

/// Where values go in pixel rows, counted down from the maximum's row (0) to 0's (`span`).
#[derive(Debug, Clone, Copy)]
struct Rows {
    /// Rows from the maximum's centre to 0's.
    span: f64,
    /// Rows from one value to the next.
    spacing: f64,
}

impl Rows {
    /// The bucket value `v` is counted in: the value itself when each value has a row of
    /// its own, else its row.
    fn bucket(self, v: u32) -> usize {
        if self.spacing >= 1.0 || self.span == 0.0 {
            v as usize
        } else {
            (self.span - f64::from(v) * self.spacing + 0.5) as usize
        }
    }

    /// How many buckets there are for values up to `max`.
    fn buckets(self, max: u32) -> usize {
        self.bucket(max).max(self.bucket(0)) + 1
    }

    /// The first and last row of bucket `b`.
    fn extent(self, b: usize) -> (i32, i32) {
        if self.span == 0.0 {
            return (-BAND / 2, BAND / 2);
        }
        if self.spacing < 1.0 {
            return (b as i32, b as i32);
        }
        let centre = self.span - b as f64 * self.spacing;
        if self.spacing < 4.0 {
            let half = self.spacing / 2.0;
            let top = (centre - half).round() as i32;
            let bottom = ((centre + half).round() as i32 - 1).max(top);
            return (top, bottom);
        }
        let height = ((self.spacing / 2.0).round() as i32).clamp(3, BAND);
        let top = centre.round() as i32 - height / 2;
        (top, top + height - 1)
    }
}

/// One pixel column: its runs of rows (first row, last row, colour index) from the top, and
/// the largest value among its positions.
struct Column {
    runs: Vec<(i32, i32, u8)>,
    max: u32,
}

/// Counts the values of one pixel column's positions by bucket and turns them into runs of
/// rows, colour index the shading level (`shaded`) or 0.
fn column(values: &[u32], rows: Rows, buckets: usize, shaded: bool) -> Column {
    let mut counts = vec![0u64; buckets];
    let mut max = 0;
    for &v in values {
        counts[rows.bucket(v)] += 1;
        max = max.max(v);
    }
    let size = values.len() as u64;
    let mut runs: Vec<(i32, i32, u8)> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(b, &c)| {
            let (top, bottom) = rows.extent(b);
            let colour = if shaded { level(c, size) as u8 } else { 0 };
            (top, bottom, colour)
        })
        .collect();
    runs.sort_unstable();
    // Touching bands of one colour become one run.
    let mut joined: Vec<(i32, i32, u8)> = Vec::with_capacity(runs.len());
    for run in runs {
        match joined.last_mut() {
            Some(last) if last.1 + 1 >= run.0 && last.2 == run.2 => last.1 = last.1.max(run.1),
            _ => joined.push(run),
        }
    }
    Column { runs: joined, max }
}

/// Draws the values `values` (position x has value `values[x]`).
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    values: &[u32],
    kind: ValueKind,
) -> Drawn<DB> {
    let n = values.len() as u64;
    let max = values.par_iter().copied().max().unwrap_or(0);
    let grundy = kind == ValueKind::Grundy;
    let plot_width = root.dim_in_pixel().0 as i32 - axes::PLOT_LEFT - axes::RIGHT_MARGIN;
    let plot_width = plot_width.max(1) as u64;
    let mode = if n * MARKER_SPACING <= plot_width {
        Mode::Points
    } else if n >= SHADED_FROM * plot_width {
        Mode::Shaded
    } else {
        Mode::Marks
    };
    let what = if grundy { "g(n)" } else { "outcome" };
    let mut entries = vec![match mode {
        Mode::Points => legend::Entry(vec![
            legend::Part::Marker(Marker::Disc, INK),
            legend::Part::Text(what.into()),
        ]),
        Mode::Marks => legend::Entry(vec![
            legend::Part::Swatch(INK),
            legend::Part::Text("values present among a pixel column's positions".into()),
        ]),
        Mode::Shaded => legend::Entry(vec![
            legend::Part::Text("positions of a column with the value: one".into()),
            legend::Part::Ramp((0..LEVELS).map(grey).collect()),
            legend::Part::Text("all (log scale)".into()),
        ]),
    }];
    if grundy {
        entries.push(legend::Entry(vec![
            legend::Part::Line(RECORD),
            legend::Part::Text("running maximum max{g(m) : m ≤ n}".into()),
        ]));
    }
    let area = legend::below(root, &entries)?;

    let top = f64::from(max);
    let y_pad = (top * 0.02).max(0.5);
    let x_pad = n as f64 * 0.01;
    let (x_range, y_range) = (-x_pad..(n - 1) as f64 + x_pad, -y_pad..top + y_pad);
    // Asking for no more labels than integers in range keeps every tick on an integer.
    let (x_labels, y_labels) = (values.len().clamp(2, 10), (max as usize + 1).clamp(2, 10));
    let x_ticks = axes::Ticks::linear(x_range.clone(), x_labels);
    let y_ticks = axes::Ticks::linear(y_range.clone(), y_labels);
    let mut chart = axes::frame(&area, title).build_cartesian_2d(x_range, y_range)?;
    let (left, row_of_0) = chart.backend_coord(&(0.0, 0.0));
    let (right, row_of_max) = chart.backend_coord(&((n - 1) as f64, top));
    let columns = (right - left + 1).max(1) as u64;
    let x_desc = match mode {
        Mode::Points => "n".to_string(),
        _ => {
            let (fewest, most) = (n / columns, n.div_ceil(columns));
            let per_column = if fewest == most {
                axes::grouped(fewest)
            } else {
                format!("{}–{}", axes::grouped(fewest), axes::grouped(most))
            };
            format!("n ({per_column} positions a pixel column)")
        }
    };
    let y_desc = match kind {
        ValueKind::Grundy => "g(n)",
        ValueKind::MisereOutcome => "outcome (0 = P, 1 = N)",
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(axes::label_style())
        .x_label_formatter(&|x| x_ticks.label(*x))
        .y_label_formatter(&|y| y_ticks.label(*y))
        .x_labels(x_labels)
        .y_labels(y_labels)
        .draw()?;
    if mode == Mode::Points {
        if grundy {
            let y_of = |v: u32| f64::from(chart.backend_coord(&(0.0, f64::from(v))).1);
            // Under the points, so a point on the line still shows.
            let running = running_maximum(values.iter().copied());
            let x_of = |i: usize| f64::from(chart.backend_coord(&(i as f64, 0.0)).0);
            lines::draw_line(root, &steps(&running, x_of, y_of), &RECORD, 0.0)?;
        }
        chart.draw_series(
            values
                .iter()
                .enumerate()
                .map(|(x, &v)| Circle::new((x as f64, f64::from(v)), 3, INK.filled())),
        )?;
        return Ok(());
    }

    let span = f64::from(row_of_0 - row_of_max);
    let rows = Rows {
        span,
        spacing: if max > 0 { span / top } else { 0.0 },
    };
    let buckets = rows.buckets(max);
    let shaded = mode == Mode::Shaded;
    let drawn: Vec<Column> = (0..columns)
        .into_par_iter()
        .map(|c| {
            let (start, end) = column_span(c, columns, n);
            column(&values[start..end], rows, buckets, shaded)
        })
        .collect();
    let palette: Vec<RGBColor> = if shaded {
        (0..LEVELS).map(grey).collect()
    } else {
        vec![INK]
    };
    let (runs, maxima): (Vec<_>, Vec<_>) = drawn.into_iter().map(|c| (c.runs, c.max)).unzip();
    for (first, last, (top, bottom, colour)) in merge_across(&runs) {
        // A rectangle covers [x0, x1) × [y0, y1): here columns first..=last, rows top..=bottom.
        root.draw(&Rectangle::new(
            [
                (left + first as i32, row_of_max + top),
                (left + last as i32 + 1, row_of_max + bottom + 1),
            ],
            palette[colour as usize].filled(),
        ))?;
    }
    if grundy {
        let running = running_maximum(maxima.into_iter());
        // Along the upper edge of the band of the largest value so far, a blank row between,
        // rising just left of the column where a new largest value appears: the line never
        // covers a band, not even that of a value that occurs once.
        let x_of = |c: usize| f64::from(left) + c as f64 - 2.0;
        // A line 2 pixels wide at row y covers rows y - 1 to y + 1.
        let y_of = |v: u32| f64::from(row_of_max + rows.extent(rows.bucket(v)).0 - 3);
        let line = steps(&running, x_of, y_of);
        lines::draw_line(root, &line, &RECORD, 0.0)?;
    }
    Ok(())
}

/// The running maximum of `values`: element i is the largest of the first i + 1.
fn running_maximum(values: impl Iterator<Item = u32>) -> Vec<u32> {
    values
        .scan(0, |m, v| {
            *m = (*m).max(v);
            Some(*m)
        })
        .collect()
}

/// The step line through `levels`: level i holds from x(i) to x(i + 1), and the line rises
/// straight up between; in pixel coordinates from `x` and `y`.
fn steps(levels: &[u32], x: impl Fn(usize) -> f64, y: impl Fn(u32) -> f64) -> Vec<(f64, f64)> {
    let mut line = Vec::new();
    for (i, &v) in levels.iter().enumerate() {
        if i == 0 || levels[i - 1] != v {
            line.push((x(i), y(v)));
        }
        let next = levels.get(i + 1);
        if next.is_none_or(|&w| w != v) {
            line.push((x(i + 1), y(v)));
        }
    }
    line
}

/// Positions [start, end) of pixel column `c` of `columns` spread over `n` positions.
fn column_span(c: u64, columns: u64, n: u64) -> (usize, usize) {
    let edge = |c: u64| ((u128::from(c) * u128::from(n)).div_ceil(u128::from(columns))) as usize;
    (edge(c), edge(c + 1))
}

/// The runs of every column joined with the same run in the columns next to it, as
/// (first column, last column, run), so a value present along a stretch of positions
/// becomes one rectangle rather than one per pixel column.
fn merge_across<R: Copy + Ord + std::hash::Hash>(columns: &[Vec<R>]) -> Vec<(usize, usize, R)> {
    let mut done = Vec::new();
    let mut open: HashMap<R, usize> = HashMap::new();
    for (c, column) in columns.iter().enumerate() {
        open.retain(|&run, &mut first| {
            let continues = column.binary_search(&run).is_ok();
            if !continues {
                done.push((first, c - 1, run));
            }
            continues
        });
        for &run in column {
            open.entry(run).or_insert(c);
        }
    }
    let end = columns.len().saturating_sub(1);
    done.extend(open.into_iter().map(|(run, first)| (first, end, run)));
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
            [
                (0, 0, (5, 5)),
                (0, 2, (1, 2)),
                (2, 2, (5, 5)),
                (3, 3, (0, 2))
            ]
        );
        assert_eq!(merge_across::<(i32, i32)>(&[]), []);
    }

    #[test]
    fn shading_runs_from_one_position_to_all() {
        assert_eq!(level(1, 1000), 0);
        assert_eq!(level(1000, 1000), LEVELS - 1);
        assert_eq!(level(999, 1000), LEVELS - 1);
        // √1000 ≈ 31.6 is half way on the log scale.
        assert_eq!(level(31, 1000), LEVELS / 2 - 1);
        assert_eq!(level(32, 1000), LEVELS / 2);
        assert_eq!(level(1, 1), LEVELS - 1);
        assert_eq!((grey(0).0, grey(LEVELS - 1).0), (215, 20));
    }

    #[test]
    fn bands_tile_when_values_are_close() {
        // 2.5 rows a value: every row from the top band's to the bottom band's belongs to
        // exactly one value.
        let rows = Rows {
            span: 100.0,
            spacing: 2.5,
        };
        let mut covered = Vec::new();
        for v in (0..=40).rev() {
            let (top, bottom) = rows.extent(rows.bucket(v));
            covered.extend(top..=bottom);
        }
        let expected: Vec<i32> = (covered[0]..=*covered.last().unwrap()).collect();
        assert_eq!(covered, expected);
        // Far apart: bands of at most BAND rows around each value's row, with gaps between.
        let rows = Rows {
            span: 100.0,
            spacing: 50.0,
        };
        assert_eq!(rows.extent(1), (46, 54));
        // More values than rows: values share rows.
        let rows = Rows {
            span: 100.0,
            spacing: 0.1,
        };
        assert_eq!(rows.bucket(0), 100);
        assert_eq!(rows.bucket(1000), 0);
        assert_eq!(rows.bucket(3), rows.bucket(4));
        assert_eq!(rows.buckets(1000), 101);
        assert_eq!(rows.extent(7), (7, 7));
    }

    #[test]
    fn a_column_counts_its_values() {
        let rows = Rows {
            span: 30.0,
            spacing: 10.0,
        };
        // Values 0..=3, ten rows apart: bands of 5 rows around rows 30, 20, 10, 0.
        let values = [0, 0, 0, 0, 0, 0, 0, 0, 3, 1];
        let shaded = column(&values, rows, rows.buckets(3), true);
        assert_eq!(shaded.max, 3);
        assert_eq!(
            shaded.runs,
            [
                (-2, 2, level(1, 10) as u8),
                (18, 22, level(1, 10) as u8),
                (28, 32, level(8, 10) as u8)
            ]
        );
        let marks = column(&values, rows, rows.buckets(3), false);
        assert_eq!(marks.runs, [(-2, 2, 0), (18, 22, 0), (28, 32, 0)]);
    }

    #[test]
    fn the_running_maximum_is_a_step_line() {
        assert_eq!(
            running_maximum([1, 0, 3, 2, 5].into_iter()),
            [1, 1, 3, 3, 5]
        );
        let line = steps(&[1, 1, 3, 3], |i| i as f64, |v| f64::from(v) * 10.0);
        assert_eq!(line, [(0.0, 10.0), (2.0, 10.0), (2.0, 30.0), (4.0, 30.0)]);
    }
}
