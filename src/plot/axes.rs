//! What every picture shares: the bundled font, the chart frame, number formats for titles
//! and ticks, and log-spaced sample points.

use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::sync::OnceLock;

/// DejaVu Sans (licence in `assets/fonts/LICENSE-DejaVu.txt`), so drawing text needs no
/// system font.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font as plotters' `sans-serif` (once per process).
pub(super) fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_ok()
    });
    ok.then_some(())
        .ok_or_else(|| Error::Plot("the bundled font cannot be read".into()))
}

/// Text size of titles, in pixels.
const TITLE_SIZE: u32 = 24;
/// Text size of axis descriptions, tick labels and legends, in pixels.
pub(super) const LABEL_SIZE: u32 = 16;

/// Blank space on the left, top and bottom of every picture, in pixels.
const MARGIN: u32 = 16;
/// Blank space on the right, in pixels: room for half of the last tick label.
pub(super) const RIGHT_MARGIN: i32 = 32;
/// Width of the area for the y tick labels and the y description, in pixels.
const Y_LABEL_AREA: u32 = 80;
/// The left edge of every plot area, in pixels from the picture's; legends start there too.
pub(super) const PLOT_LEFT: i32 = (MARGIN + Y_LABEL_AREA) as i32;

/// A chart frame on `root` with `title` above it and room for tick labels.
pub(super) fn frame<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, ("sans-serif", TITLE_SIZE))
        .margin(MARGIN)
        .margin_right(RIGHT_MARGIN)
        .x_label_area_size(50)
        .y_label_area_size(Y_LABEL_AREA);
    builder
}

/// The style of axis descriptions and tick labels.
pub(super) fn label_style() -> TextStyle<'static> {
    ("sans-serif", LABEL_SIZE).into_font().into()
}

/// `x` with thousands separators: 16,777,216.
pub(super) fn grouped(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A table size for titles: 1,000,000, or 2²⁴ = 16,777,216 for powers of two from 2¹⁰.
pub(super) fn size(n: u64) -> String {
    if n.is_power_of_two() && n >= 1 << 10 {
        format!(
            "2{} = {}",
            superscript(n.trailing_zeros() as i32),
            grouped(n)
        )
    } else {
        grouped(n)
    }
}

/// Linear axes whose labels stay below this are labelled in plain digits with thousands
/// separators (9,000,000 still fits ten times across a plot); larger ones as m·10ᵏ.
const PLAIN_BELOW: f64 = 1e7;

/// How the tick labels of one axis are written, the same way for every label of the axis:
/// plain numbers (12,500; 0.25) with as many decimals as the finest label needs, m·10ᵏ with
/// one k for the whole axis, or (log axes over two decades or more) powers of ten alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Ticks {
    /// Digits with thousands separators and `decimals` decimals.
    Plain {
        /// Decimals after the point.
        decimals: usize,
    },
    /// m·10ᵏ for k = `power`, m with `decimals` decimals (0 alone as 0).
    Scaled {
        /// The axis' k.
        power: i32,
        /// Decimals of m.
        decimals: usize,
    },
    /// 10⁰, 10¹, 10², … at the powers of ten, no label between them.
    Powers,
}

/// The fewest decimals (at most 3) that write every number of `xs` exactly.
fn decimals(xs: &[f64]) -> usize {
    (0..3)
        .find(|&d| {
            let scale = 10f64.powi(d as i32);
            xs.iter()
                .all(|x| ((x * scale).round() - x * scale).abs() < 1e-6 * scale.max(x.abs()))
        })
        .unwrap_or(3)
}

impl Ticks {
    /// The style of a linear axis over `range` with at most `labels` labels (what the mesh
    /// is asked for, so the labels are the points plotters picks).
    pub(super) fn linear(range: std::ops::Range<f64>, labels: usize) -> Ticks {
        let points = RangedCoordf64::from(range).key_points(labels);
        let largest = points.iter().fold(0f64, |m, x| m.max(x.abs()));
        if largest < PLAIN_BELOW {
            return Ticks::Plain {
                decimals: decimals(&points),
            };
        }
        let power = largest.log10().floor() as i32;
        let mantissas: Vec<f64> = points.iter().map(|x| x / 10f64.powi(power)).collect();
        Ticks::Scaled {
            power,
            decimals: decimals(&mantissas),
        }
    }

    /// The style of a log axis over `range` (positive): powers of ten alone when the range
    /// holds three of them or more, plain numbers otherwise (1, 2, 3, …, 10, 20, …).
    pub(super) fn log(range: std::ops::Range<f64>) -> Ticks {
        let first = range.start.log10().ceil();
        let last = range.end.log10().floor();
        if last - first >= 2.0 {
            Ticks::Powers
        } else {
            Ticks::Plain { decimals: 0 }
        }
    }

    /// The label at `x`.
    pub(super) fn label(&self, x: f64) -> String {
        match *self {
            Ticks::Plain { decimals } => plain(x, decimals),
            Ticks::Scaled { power, decimals } => {
                let mantissa = x / 10f64.powi(power);
                if mantissa.abs() < 1e-9 {
                    "0".into()
                } else {
                    format!("{}·10{}", plain(mantissa, decimals), superscript(power))
                }
            }
            Ticks::Powers => {
                let power = x.log10().round();
                if (x / 10f64.powf(power) - 1.0).abs() < 1e-9 {
                    format!("10{}", superscript(power as i32))
                } else {
                    String::new()
                }
            }
        }
    }
}

/// `x` with `decimals` decimals and thousands separators, a true minus sign when negative.
fn plain(x: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, x.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let whole = grouped(whole.parse().unwrap_or(0));
    let sign = if x < 0.0 && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        "−"
    } else {
        ""
    };
    match fraction {
        "" => format!("{sign}{whole}"),
        f => format!("{sign}{whole}.{f}"),
    }
}

/// `k` in superscript digits.
fn superscript(k: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let sign = if k < 0 { "⁻" } else { "" };
    let digits: String = k
        .unsigned_abs()
        .to_string()
        .bytes()
        .map(|b| DIGITS[(b - b'0') as usize])
        .collect();
    format!("{sign}{digits}")
}

/// The range of a log axis over x from 1 to `n`, with 1% of the axis' length as room on
/// either side, so lines and markers at the ends stay clear of the frame.
pub(super) fn log_range(n: u64) -> std::ops::Range<f64> {
    let room = (n.max(2) as f64).powf(0.01);
    1.0 / room..n.max(2) as f64 * room
}

/// About `count` integers from `lo` to `hi` (both included, lo ≥ 1) evenly spaced on a log
/// scale, ascending and distinct.
pub(super) fn log_samples(lo: u64, hi: u64, count: usize) -> Vec<u64> {
    let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
    let steps = count.max(2) - 1;
    let mut samples: Vec<u64> = (0..=steps)
        .map(|i| (a + (b - a) * i as f64 / steps as f64).exp().round() as u64)
        .map(|x| x.clamp(lo, hi))
        .chain([lo, hi])
        .collect();
    samples.sort_unstable();
    samples.dedup();
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(16_777_216), "16,777,216");
        assert_eq!(size(1_000_000), "1,000,000");
        assert_eq!(size(1 << 24), "2²⁴ = 16,777,216");
    }

    #[test]
    fn every_label_of_an_axis_is_written_one_way() {
        let labels = |ticks: Ticks, xs: &[f64]| -> Vec<String> {
            xs.iter().map(|&x| ticks.label(x)).collect()
        };
        // Up to 10⁷ plain digits, also at 100,000 (once 10⁵ among 80,000).
        let ticks = Ticks::linear(-1000.0..101_000.0, 10);
        assert_eq!(ticks, Ticks::Plain { decimals: 0 });
        assert_eq!(
            labels(ticks, &[0.0, 80_000.0, 100_000.0]),
            ["0", "80,000", "100,000"]
        );
        // Shares: one decimal on every label, 1.0 included.
        let ticks = Ticks::linear(-0.015..1.015, 11);
        assert_eq!(
            labels(ticks, &[0.0, 0.30000000000000004, 1.0]),
            ["0.0", "0.3", "1.0"]
        );
        // From 10⁷ on one power of ten for the axis (once 5·10⁵ next to 10⁶).
        let ticks = Ticks::linear(0.0..3.06e7, 10);
        assert_eq!(
            ticks,
            Ticks::Scaled {
                power: 7,
                decimals: 1
            }
        );
        assert_eq!(
            labels(ticks, &[0.0, 5e6, 1e7, 3e7]),
            ["0", "0.5·10⁷", "1.0·10⁷", "3.0·10⁷"]
        );
        // Log axes over two decades or more: every label a power of ten, 1 and 10 too.
        let ticks = Ticks::log(0.9..110_000.0);
        assert_eq!(ticks, Ticks::Powers);
        assert_eq!(
            labels(ticks, &[1.0, 10.0, 1000.0, 2000.0]),
            ["10⁰", "10¹", "10³", ""]
        );
        // Less than two decades: plain numbers.
        let ticks = Ticks::log(0.8..63.0);
        assert_eq!(
            labels(ticks, &[1.0, 2.0, 10.0, 60.0]),
            ["1", "2", "10", "60"]
        );
        assert_eq!(plain(-1234.5, 1), "−1,234.5");
        assert_eq!(plain(-0.0001, 0), "0");
    }

    #[test]
    fn log_axes_leave_room_at_the_ends() {
        let r = log_range(1_000_000);
        assert!((r.start.ln() + 0.01 * 6.0 * 10f64.ln()).abs() < 1e-9);
        assert!((r.end.ln() - 1.01 * 6.0 * 10f64.ln()).abs() < 1e-9);
        assert!(log_range(1).end > 2.0);
    }

    #[test]
    fn log_samples_span_the_range() {
        let s = log_samples(1, 1000, 4);
        assert_eq!(s, [1, 10, 100, 1000]);
        assert_eq!(log_samples(5, 5, 10), [5]);
        let s = log_samples(1, 1 << 20, 300);
        assert!(s.windows(2).all(|w| w[0] < w[1]) && s[0] == 1 && *s.last().unwrap() == 1 << 20);
    }
}
