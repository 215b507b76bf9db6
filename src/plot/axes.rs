//! What every picture shares: the bundled font, the chart frame, number formats for titles
//! and ticks, and log-spaced sample points.

use crate::error::{Error, Result};
use plotters::coord::Shift;
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

/// A tick label: 250, 12,500, or 2.5·10⁶ from 10⁵ on (10⁶ for a power of ten).
pub(super) fn tick(x: f64) -> String {
    if x.abs() < 1e5 {
        if x == x.round() {
            let magnitude = grouped(x.abs() as u64);
            return if x < 0.0 {
                format!("−{magnitude}")
            } else {
                magnitude
            };
        }
        let fraction = format!("{x:.3}");
        return fraction
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
    }
    let power = x.abs().log10().floor() as i32;
    let mantissa = x / 10f64.powi(power);
    let mantissa = format!("{mantissa:.2}");
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    match mantissa {
        "1" => format!("10{}", superscript(power)),
        m => format!("{m}·10{}", superscript(power)),
    }
}

/// A tick label on a log axis: powers of ten from 100 on as 10², 10³, …; others as [`tick`].
pub(super) fn log_tick(x: f64) -> String {
    let power = x.log10().round();
    if power >= 2.0 && (x / 10f64.powf(power) - 1.0).abs() < 1e-9 {
        format!("10{}", superscript(power as i32))
    } else {
        tick(x)
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
        assert_eq!(tick(12_500.0), "12,500");
        assert_eq!(tick(2_500_000.0), "2.5·10⁶");
        assert_eq!(tick(1e8), "10⁸");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(0.30000000000000004), "0.3");
        assert_eq!(tick(1.0000000000000002), "1");
        assert_eq!(log_tick(10.0), "10");
        assert_eq!(log_tick(1000.0), "10³");
        assert_eq!(log_tick(2000.0), "2,000");
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
