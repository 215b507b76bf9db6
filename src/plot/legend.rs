//! Legends in a band of their own below the chart, so they never cover what is plotted. The
//! band is as tall as its rows: entries are laid out left to right from the plot area's left
//! edge, each kept on one line, a new row begun when the next would pass the right margin.

use super::lines::{self, KEY_LENGTH, Marker, Stroke};
use super::{Drawn, axes};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One piece of a legend entry.
pub(super) enum Part {
    /// Text in the label style.
    Text(String),
    /// Smaller text raised above the line, right after the text before it: an exponent.
    Raised(String),
    /// A line key: a short stretch of the line with its marker.
    Line(Stroke),
    /// A marker alone.
    Marker(Marker, RGBColor),
    /// A square of one colour.
    Swatch(RGBColor),
    /// Adjacent squares of these colours, a colour scale.
    Ramp(Vec<RGBColor>),
}

/// A legend entry: its parts side by side, kept together on one row.
pub(super) struct Entry(pub Vec<Part>);

/// Height of a legend row, in pixels.
const ROW: i32 = 24;
/// Side of a swatch or of one step of a ramp, in pixels.
const SQUARE: i32 = 14;
/// Space between the parts of an entry, in pixels.
const PART_GAP: i32 = 6;
/// Space between entries on a row, in pixels.
const ENTRY_GAP: i32 = 28;
/// Space below the last row, in pixels.
const BOTTOM: i32 = 12;
/// Text size of an exponent, in pixels.
const RAISED_SIZE: u32 = axes::LABEL_SIZE * 3 / 4;
/// How far an exponent's middle lies above the row's, in pixels.
const RAISE: i32 = 6;

/// The style of an exponent.
fn raised_style() -> TextStyle<'static> {
    ("sans-serif", RAISED_SIZE).into_font().into()
}

/// True for the parts that are text, which follow one another without a gap.
fn is_text(part: &Part) -> bool {
    matches!(part, Part::Text(_) | Part::Raised(_))
}

/// The space between two adjacent parts of an entry, in pixels.
fn gap(left: &Part, right: &Part) -> i32 {
    if is_text(left) && is_text(right) {
        0
    } else {
        PART_GAP
    }
}

/// Width in pixels of `part` drawn on `area`.
fn width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    part: &Part,
) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    Ok(match part {
        Part::Text(text) => area.estimate_text_size(text, &axes::label_style())?.0 as i32,
        Part::Raised(text) => area.estimate_text_size(text, &raised_style())?.0 as i32,
        Part::Line(_) => KEY_LENGTH as i32,
        Part::Marker(..) | Part::Swatch(_) => SQUARE,
        Part::Ramp(colours) => SQUARE * colours.len() as i32,
    })
}

/// The top-left corner of each entry relative to the band's first row, for rows from 0 to
/// `room` pixels wide, and the number of rows.
fn layout(widths: &[i32], room: i32) -> (Vec<(i32, i32)>, i32) {
    let mut corners = Vec::with_capacity(widths.len());
    let (mut x, mut row) = (0, 0);
    for &w in widths {
        if x > 0 && x + w > room {
            x = 0;
            row += 1;
        }
        corners.push((x, row * ROW));
        x += w + ENTRY_GAP;
    }
    let rows = if widths.is_empty() { 0 } else { row + 1 };
    (corners, rows)
}

/// Draws `entries` in a band at the bottom of `root` and returns the area above it, where
/// the chart goes.
pub(super) fn below<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[Entry],
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let (total_width, total_height) = root.dim_in_pixel();
    let mut part_widths = Vec::with_capacity(entries.len());
    for entry in entries {
        let mut widths = Vec::with_capacity(entry.0.len());
        for part in &entry.0 {
            widths.push(width(root, part)?);
        }
        part_widths.push(widths);
    }
    let entry_widths: Vec<i32> = entries
        .iter()
        .zip(&part_widths)
        .map(|(entry, w)| {
            let gaps: i32 = entry.0.windows(2).map(|p| gap(&p[0], &p[1])).sum();
            w.iter().sum::<i32>() + gaps
        })
        .collect();
    let room = total_width as i32 - axes::PLOT_LEFT - axes::RIGHT_MARGIN;
    let (corners, rows) = layout(&entry_widths, room);
    let band = rows * ROW + BOTTOM;
    let (chart, legend) = root.split_vertically(total_height as i32 - band);
    for ((entry, widths), (x, y)) in entries.iter().zip(&part_widths).zip(corners) {
        let mut x = axes::PLOT_LEFT + x;
        let middle = y + ROW / 2;
        for (i, (part, w)) in entry.0.iter().zip(widths).enumerate() {
            draw_part(&legend, part, (x, middle))?;
            x += w + entry.0.get(i + 1).map_or(0, |next| gap(part, next));
        }
    }
    Ok(chart)
}

/// Draws `part` on `area` from `(x, middle)` rightwards, centred on the row's middle.
fn draw_part<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    part: &Part,
    (x, middle): (i32, i32),
) -> Drawn<DB> {
    let half = SQUARE / 2;
    match part {
        Part::Text(text) => area.draw(&Text::new(
            text.as_str(),
            (x, middle),
            axes::label_style().pos(Pos::new(HPos::Left, VPos::Center)),
        )),
        Part::Raised(text) => area.draw(&Text::new(
            text.as_str(),
            (x, middle - RAISE),
            raised_style().pos(Pos::new(HPos::Left, VPos::Center)),
        )),
        Part::Line(stroke) => lines::draw_key(area, (x, middle), stroke),
        Part::Marker(marker, colour) => {
            lines::draw_marker(area, (x + half, middle), *marker, *colour)
        }
        Part::Swatch(colour) => area.draw(&Rectangle::new(
            [(x, middle - half), (x + SQUARE, middle + half)],
            colour.filled(),
        )),
        Part::Ramp(colours) => {
            for (i, colour) in colours.iter().enumerate() {
                let left = x + SQUARE * i as i32;
                area.draw(&Rectangle::new(
                    [(left, middle - half), (left + SQUARE, middle + half)],
                    colour.filled(),
                ))?;
            }
            area.draw(&Rectangle::new(
                [
                    (x, middle - half),
                    (x + SQUARE * colours.len() as i32, middle + half),
                ],
                BLACK.mix(0.4),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_wrap_to_new_rows() {
        let (corners, rows) = layout(&[300, 300, 300, 50], 700);
        assert_eq!(corners, [(0, 0), (328, 0), (0, ROW), (328, ROW)]);
        assert_eq!(rows, 2);
        // An entry wider than the room still gets a row of its own.
        let (corners, rows) = layout(&[900, 10], 700);
        assert_eq!((corners, rows), (vec![(0, 0), (0, ROW)], 2));
        assert_eq!(layout(&[], 700), (vec![], 0));
    }
}
