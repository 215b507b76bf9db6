//! Lines that stay apart without colour: each series has a dash pattern and a marker of its
//! own besides its colour, so a picture printed in greyscale still tells them apart. Lines are
//! drawn in pixel coordinates, so a dash pattern runs on across the sample points of a line
//! instead of starting again at each of them.

use super::Drawn;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A marker shape, drawn at intervals along a line and once in its legend key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    /// No marker.
    None,
    /// A filled circle.
    Disc,
    /// An open circle.
    Ring,
    /// A filled square.
    Square,
    /// An open square.
    OpenSquare,
    /// A filled triangle, point up.
    Triangle,
    /// An open triangle, point up.
    OpenTriangle,
    /// A filled diamond.
    Diamond,
    /// A diagonal cross.
    Cross,
    /// An upright cross.
    Plus,
}

/// How one series is drawn.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stroke {
    /// The colour of the line and its markers.
    pub colour: RGBColor,
    /// The line's width in pixels.
    pub width: u32,
    /// Lengths in pixels of dash, gap, dash, gap, …, repeated; empty for a solid line.
    pub dashes: &'static [u32],
    /// The marker drawn along the line.
    pub marker: Marker,
}

/// A solid line.
pub(super) const SOLID: &[u32] = &[];
/// Long dashes.
pub(super) const DASHED: &[u32] = &[12, 6];
/// Dots.
pub(super) const DOTTED: &[u32] = &[3, 4];
/// A long dash and a dot.
pub(super) const DASH_DOT: &[u32] = &[12, 4, 3, 4];
/// Short dashes.
pub(super) const SHORT_DASHED: &[u32] = &[6, 5];

/// Half the width of a marker, in pixels.
const MARKER_RADIUS: i32 = 5;
/// Pixels along x between two markers of one line.
pub(super) const MARKER_EVERY: f64 = 90.0;
/// Length of a legend key's line, in pixels.
pub(super) const KEY_LENGTH: u32 = 44;

/// The pieces of the polyline `points` that the dash pattern `pattern` draws, the pattern
/// running on from one segment to the next. A solid pattern draws the whole polyline.
fn dash(points: &[(f64, f64)], pattern: &[u32]) -> Vec<Vec<(f64, f64)>> {
    if pattern.is_empty() || points.len() < 2 {
        return vec![points.to_vec()];
    }
    let mut pieces = Vec::new();
    let mut piece = vec![points[0]];
    let mut element = 0;
    let mut left = f64::from(pattern[0]);
    for segment in points.windows(2) {
        let (mut a, b) = (segment[0], segment[1]);
        let mut length = (b.0 - a.0).hypot(b.1 - a.1);
        while length > left {
            let t = left / length;
            let cut = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            if element % 2 == 0 {
                piece.push(cut);
                pieces.push(std::mem::take(&mut piece));
            } else {
                piece = vec![cut];
            }
            a = cut;
            length -= left;
            element = (element + 1) % pattern.len();
            left = f64::from(pattern[element]);
        }
        left -= length;
        if element % 2 == 0 {
            piece.push(b);
        }
    }
    if element % 2 == 0 && piece.len() > 1 {
        pieces.push(piece);
    }
    pieces
}

/// The points of the polyline `points` (x never decreasing) at x = `first`, `first` +
/// `every`, … within its x range.
fn spots(points: &[(f64, f64)], first: f64, every: f64) -> Vec<(f64, f64)> {
    let mut found = Vec::new();
    let Some(&(end, _)) = points.last() else {
        return found;
    };
    let mut x = first;
    let mut segments = points.windows(2).peekable();
    while x <= end {
        while let Some(s) = segments.peek() {
            if s[1].0 < x || s[1].0 == s[0].0 {
                segments.next();
            } else {
                break;
            }
        }
        let Some(s) = segments.peek() else { break };
        if s[0].0 <= x {
            let t = (x - s[0].0) / (s[1].0 - s[0].0);
            found.push((x, s[0].1 + (s[1].1 - s[0].1) * t));
        }
        x += every;
    }
    found
}

fn pixel((x, y): (f64, f64)) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

/// Draws the polyline `points` (pixel coordinates of `area`) with `stroke`, its markers at
/// x = `first`, `first` + [`MARKER_EVERY`], … (half way along when none of those is on it).
pub(super) fn draw_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(f64, f64)],
    stroke: &Stroke,
    first: f64,
) -> Drawn<DB> {
    let style = stroke.colour.stroke_width(stroke.width);
    for piece in dash(points, stroke.dashes) {
        area.draw(&PathElement::new(
            piece.into_iter().map(pixel).collect::<Vec<_>>(),
            style,
        ))?;
    }
    if stroke.marker != Marker::None {
        let mut at = spots(points, first, MARKER_EVERY);
        if let (true, Some(start), Some(end)) = (at.is_empty(), points.first(), points.last()) {
            // A line shorter than the markers' spacing still gets one, half way along.
            at = spots(points, (start.0 + end.0) / 2.0, f64::INFINITY);
        }
        for spot in at {
            draw_marker(area, pixel(spot), stroke.marker, stroke.colour)?;
        }
    }
    Ok(())
}

/// Draws a legend key of `stroke` from `(x, y)` rightwards: [`KEY_LENGTH`] pixels of its line
/// with its marker in the middle.
pub(super) fn draw_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    stroke: &Stroke,
) -> Drawn<DB> {
    let end = x + KEY_LENGTH as i32;
    let line = [(f64::from(x), f64::from(y)), (f64::from(end), f64::from(y))];
    let solo = Stroke {
        marker: Marker::None,
        ..*stroke
    };
    draw_line(area, &line, &solo, 0.0)?;
    draw_marker(area, ((x + end) / 2, y), stroke.marker, stroke.colour)
}

/// Draws `marker` centred on `(x, y)`. Open shapes are filled white, so the line they sit on
/// does not show through them.
pub(super) fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    marker: Marker,
    colour: RGBColor,
) -> Drawn<DB> {
    let r = MARKER_RADIUS;
    let outline = colour.stroke_width(2);
    let square = [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)];
    let triangle = vec![(x, y - r), (x + r, y + r - 1), (x - r, y + r - 1)];
    match marker {
        Marker::None => {}
        Marker::Disc => area.draw(&Circle::new((x, y), r, colour.filled()))?,
        Marker::Ring => {
            area.draw(&Circle::new((x, y), r - 1, WHITE.filled()))?;
            area.draw(&Circle::new((x, y), r - 1, outline))?;
        }
        Marker::Square => area.draw(&Rectangle::new(square, colour.filled()))?,
        Marker::OpenSquare => {
            area.draw(&Rectangle::new(square, WHITE.filled()))?;
            area.draw(&Rectangle::new(square, outline))?;
        }
        Marker::Triangle => area.draw(&Polygon::new(triangle, colour.filled()))?,
        Marker::OpenTriangle => {
            area.draw(&Polygon::new(triangle.clone(), WHITE.filled()))?;
            let closed: Vec<_> = triangle.iter().chain(&triangle[..2]).copied().collect();
            area.draw(&PathElement::new(closed, outline))?;
        }
        Marker::Diamond => {
            let d = r + 1;
            let corners = vec![(x, y - d), (x + d, y), (x, y + d), (x - d, y)];
            area.draw(&Polygon::new(corners, colour.filled()))?;
        }
        Marker::Cross => {
            let d = r - 1;
            area.draw(&PathElement::new([(x - d, y - d), (x + d, y + d)], outline))?;
            area.draw(&PathElement::new([(x - d, y + d), (x + d, y - d)], outline))?;
        }
        Marker::Plus => {
            area.draw(&PathElement::new([(x - r, y), (x + r, y)], outline))?;
            area.draw(&PathElement::new([(x, y - r), (x, y + r)], outline))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(piece: &[(f64, f64)]) -> f64 {
        piece
            .windows(2)
            .map(|s| (s[1].0 - s[0].0).hypot(s[1].1 - s[0].1))
            .sum()
    }

    #[test]
    fn dashes_run_on_across_points() {
        // 40 pixels in steps of 3: the pattern must not restart at every point.
        let points: Vec<(f64, f64)> = (0..=40).step_by(3).map(|x| (f64::from(x), 0.0)).collect();
        let pieces = dash(&points, DASHED);
        let starts: Vec<f64> = pieces.iter().map(|p| p[0].0).collect();
        assert_eq!(starts, [0.0, 18.0, 36.0]);
        assert!((length(&pieces[0]) - 12.0).abs() < 1e-9);
        assert!((length(&pieces[1]) - 12.0).abs() < 1e-9);
        assert!((length(&pieces[2]) - 3.0).abs() < 1e-9);
        let solid = dash(&points, SOLID);
        assert_eq!(solid, std::slice::from_ref(&points));
        let dots = dash(&[(0.0, 0.0), (0.0, 14.0)], DASH_DOT);
        assert_eq!(dots, [vec![(0.0, 0.0), (0.0, 12.0)]]);
    }

    #[test]
    fn spots_interpolate_along_x() {
        let line = [(0.0, 0.0), (10.0, 10.0), (10.0, 20.0), (30.0, 0.0)];
        assert_eq!(
            spots(&line, 5.0, 10.0),
            [(5.0, 5.0), (15.0, 15.0), (25.0, 5.0)]
        );
        assert!(spots(&[], 0.0, 10.0).is_empty());
        assert!(spots(&line, 31.0, 10.0).is_empty());
    }
}
