//! A table of Wythoff's game as a picture: G(x, y) as colour on the viridis scale (dark blue
//! for 0, yellow for the largest value; it reads in greyscale and to colour-blind eyes), x to
//! the right and y upwards from the origin at the bottom left, the colour scale in the legend
//! below. A table wider than the plot is drawn in squares of cells, each in the colour of the
//! least value among its cells, so the P-positions (0) and the small values near them stay
//! visible however large the table.

use super::{Drawn, ImageFormat, Kind, Picture, axes, encode, legend};
use crate::error::{Error, Param, Result};
use crate::format::two_heaps::Grid;
use crate::text;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Width and height of the picture, in pixels: about square plot area.
pub const SIZE: (u32, u32) = (900, 922);

/// The most squares a side in an SVG, which holds one rectangle a square (160² of them take
/// about 2.5 MB); a PNG has one a pixel.
const SVG_SQUARES: u64 = 160;

/// Steps of the colour scale in the legend.
const SCALE_STEPS: usize = 24;
/// Tick labels on each axis, at most.
const LABELS: usize = 10;

/// Draws the table `grid` (a `.bin` or `.npy` of `grundy wythoff`) as `--kind values`, the
/// only kind it has, and returns the encoded image.
pub fn render(grid: &Grid, kind: Kind, format: ImageFormat) -> Result<Vec<u8>> {
    if kind != Kind::Values {
        return Err(Error::invalid(
            Param::Kind,
            text!(
                Param::Kind.given(kind.name()),
                ": a table of Wythoff's game is drawn with ",
                Param::Kind.given("values"),
                " (each G(x, y) as a colour)",
            ),
        ));
    }
    if grid.n == 0 {
        return Err(Error::unsupported(
            "the table is empty: there is nothing to plot",
        ));
    }
    // The plot's width in pixels: a square a pixel wide.
    let room = (SIZE.0 as i32 - axes::PLOT_LEFT - axes::RIGHT_MARGIN) as u64;
    let squares = match format {
        ImageFormat::Png => grid.n.min(room),
        ImageFormat::Svg => grid.n.min(SVG_SQUARES),
    };
    let matrix = Matrix {
        n: grid.n,
        squares,
        least: least_values(grid, squares),
        max: grid.values.max(),
    };
    encode(&matrix, format, SIZE)
}

/// What the picture draws: `squares`×`squares` squares of the n×n table, each with the
/// least value among its cells (`least`, row by row of x).
struct Matrix {
    n: u64,
    squares: u64,
    least: Vec<u32>,
    max: u32,
}

/// The square a cell's coordinate falls in, out of `squares` along a side of n cells.
fn square_of(coordinate: u64, n: u64, squares: u64) -> usize {
    (coordinate * squares / n) as usize
}

/// The least value of each square of cells, one pass over the table.
fn least_values(grid: &Grid, squares: u64) -> Vec<u32> {
    let n = grid.n;
    let of_y: Vec<usize> = (0..n).map(|y| square_of(y, n, squares)).collect();
    let mut least = vec![u32::MAX; (squares * squares) as usize];
    for x in 0..n {
        let row = &mut least[square_of(x, n, squares) * squares as usize..][..squares as usize];
        let mut y = 0;
        grid.values.each(x * n, (x + 1) * n, |v| {
            let square = &mut row[of_y[y]];
            *square = (*square).min(v);
            y += 1;
        });
    }
    least
}

impl Matrix {
    /// The colour of value v.
    fn colour(&self, v: u32) -> RGBColor {
        ViridisRGB.get_color(v as f32 / self.max.max(1) as f32)
    }
}

impl Picture for Matrix {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        let (n, squares) = (self.n, self.squares);
        let scale = (0..SCALE_STEPS)
            .map(|i| {
                self.colour((u64::from(self.max) * i as u64 / (SCALE_STEPS as u64 - 1)) as u32)
            })
            .collect();
        let mut entries = vec![legend::Entry(vec![
            legend::Part::Text("G(x, y): 0".into()),
            legend::Part::Ramp(scale),
            legend::Part::Text(axes::grouped(u64::from(self.max))),
        ])];
        if squares < n {
            entries.push(legend::Entry(vec![legend::Part::Text(format!(
                "each square: the least value of its {}×{} cells",
                n.div_ceil(squares),
                n.div_ceil(squares)
            ))]));
        }
        let area = legend::below(root, &entries)?;
        let title = format!("wythoff: Grundy values G(x, y), N = {}", axes::size(n));
        let side = n as f64;
        let ticks = axes::Ticks::linear(0.0..side, LABELS);
        let mut chart = axes::frame(&area, &title).build_cartesian_2d(0.0..side, 0.0..side)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x (first heap)")
            .y_desc("y (second heap)")
            .label_style(axes::label_style())
            .axis_desc_style(axes::label_style())
            .x_label_formatter(&|v| ticks.label(*v))
            .y_label_formatter(&|v| ticks.label(*v))
            .x_labels(LABELS)
            .y_labels(LABELS)
            .draw()?;
        // Square i spans the cells x with x·squares/n = i: from ⌈i·n/squares⌉ on.
        let edge = |i: u64| (i * n).div_ceil(squares) as f64;
        let cells = (0..squares).flat_map(|i| (0..squares).map(move |j| (i, j)));
        chart.draw_series(cells.map(|(i, j)| {
            let v = self.least[(i * squares + j) as usize];
            Rectangle::new(
                [(edge(i), edge(j)), (edge(i + 1), edge(j + 1))],
                self.colour(v).filled(),
            )
        }))?;
        Ok(())
    }
}
