//! Pictures of tables nimsieve wrote, drawn with plotters to PNG or SVG: the values g(n)
//! (`values.rs`), the P-position counting function (`counting.rs`) with the law `law.rs`
//! chooses, and the share of each value class below x (`density.rs`, classes in
//! `classes.rs`). `axes.rs` holds the frame and the tick label styles they share, `lines.rs` the dash patterns and markers that keep lines apart in
//! greyscale, `legend.rs` the legend band below the chart. `wythoff.rs` draws a table of
//! Wythoff's game, G(x, y) as colour.

mod axes;
mod classes;
mod counting;
mod density;
mod law;
mod legend;
mod lines;
mod values;
pub mod wythoff;

pub use classes::ValueClasses;
pub use law::FitChoice;

use crate::error::{Error, Param, Result};
use crate::format::{Contents, Loaded};
use crate::period::Period;
use crate::regular_file::stem_of;
use crate::table::{ValueKind, unpacked};
use crate::text;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Width and height of every picture, in pixels.
pub const SIZE: (u32, u32) = (1000, 600);

/// What a picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// g(n) against n (value tables).
    Values,
    /// C(x) = #{P-positions < x} on log-log axes with a fitted power law.
    Counting,
    /// The share of each value among the positions below x (value tables).
    Density,
}

impl Kind {
    /// Every kind, in the order help texts list them.
    pub const ALL: [Kind; 3] = [Kind::Values, Kind::Counting, Kind::Density];

    /// The kind named `text` (`values`, `counting` or `density`).
    pub fn parse(text: &str) -> Result<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| {
                Error::invalid(
                    Param::Kind,
                    format!("unknown plot kind '{text}' (use values, counting or density)"),
                )
            })
    }

    /// The name `--kind` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Values => "values",
            Kind::Counting => "counting",
            Kind::Density => "density",
        }
    }
}

/// The image formats, chosen by the output's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// A PNG bitmap.
    Png,
    /// An SVG drawing (text stays text).
    Svg,
}

impl ImageFormat {
    /// The format named by the extension of `path` (`.png` or `.svg`, any case).
    pub fn of(path: &Path) -> Result<ImageFormat> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        match extension.as_str() {
            "png" => Ok(ImageFormat::Png),
            "svg" => Ok(ImageFormat::Svg),
            _ => Err(Error::invalid(
                Param::Output,
                format!(
                    "cannot tell the image format of '{}' from its extension (use .png or .svg)",
                    path.display()
                ),
            )),
        }
    }
}

/// The default picture of `input`: `<file stem>-<kind>.png` beside it.
pub fn default_output(input: &Path, kind: Kind) -> PathBuf {
    input.with_file_name(format!("{}-{}.png", stem_of(input), kind.name()))
}

/// The data one picture is drawn from, checked against its kind.
enum Subject<'a> {
    Values(Vec<u32>, ValueKind),
    Counting {
        positions: Cow<'a, [u64]>,
        n: u64,
        period: Option<Period>,
        fit: FitChoice,
    },
    Density(Vec<u32>, ValueKind, ValueClasses),
}

/// Draws `table` as a picture of `kind` and returns the encoded image; `classes` are the
/// value classes of a density plot (`None`: the values 0 to 8 one by one). A kind the table
/// cannot show, classes for a kind other than density, or an empty table is an input error.
pub fn render(
    table: &Loaded,
    kind: Kind,
    classes: Option<&ValueClasses>,
    fit: FitChoice,
    format: ImageFormat,
) -> Result<Vec<u8>> {
    check_classes(kind, classes)?;
    check_fit(kind, fit)?;
    if let Contents::Grid(grid) = &table.contents {
        return wythoff::render(grid, kind, format);
    }
    let subject = subject(table, kind, classes.cloned().unwrap_or_default(), fit)?;
    let title = title(table, kind);
    encode(&(title, subject), format, SIZE)
}

/// Refuses value classes for a kind other than density, the only one that has them.
pub fn check_classes(kind: Kind, classes: Option<&ValueClasses>) -> Result<()> {
    if classes.is_some() && kind != Kind::Density {
        return Err(Error::invalid(
            Param::Values,
            text!(
                Param::Values,
                " chooses the lines of ",
                Param::Kind.given("density"),
                "; ",
                Param::Kind.given(kind.name()),
                " has none to choose (leave ",
                Param::Values,
                " out)",
            ),
        ));
    }
    Ok(())
}

/// Refuses a law for a kind other than counting, the only one that draws one.
pub fn check_fit(kind: Kind, fit: FitChoice) -> Result<()> {
    if fit != FitChoice::Auto && kind != Kind::Counting {
        return Err(Error::invalid(
            Param::Fit,
            text!(
                Param::Fit,
                " chooses the law of ",
                Param::Kind.given("counting"),
                "; ",
                Param::Kind.given(kind.name()),
                " draws none (leave ",
                Param::Fit,
                " out)",
            ),
        ));
    }
    Ok(())
}

/// What one picture shows, drawn on any backend.
trait Picture {
    /// Draws the picture on `root` (white already).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB>;
}

impl Picture for (String, Subject<'_>) {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        draw(root, &self.0, &self.1)
    }
}

/// `picture` as an image of `(width, height)` pixels in `format`, encoded.
fn encode(
    picture: &impl Picture,
    format: ImageFormat,
    (width, height): (u32, u32),
) -> Result<Vec<u8>> {
    axes::register_font()?;
    let size = (width, height);
    match format {
        ImageFormat::Png => {
            let mut rgb = vec![0u8; width as usize * height as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
                root.fill(&WHITE).map_err(drawing_failed)?;
                picture.draw(&root).map_err(drawing_failed)?;
                root.present().map_err(drawing_failed)?;
            }
            let mut png = Vec::new();
            let mut encoder = png::Encoder::new(&mut png, width, height);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder
                .write_header()
                .and_then(|mut w| w.write_image_data(&rgb))
                .map_err(drawing_failed)?;
            Ok(png)
        }
        ImageFormat::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                root.fill(&WHITE).map_err(drawing_failed)?;
                picture.draw(&root).map_err(drawing_failed)?;
                root.present().map_err(drawing_failed)?;
            }
            Ok(svg.into_bytes())
        }
    }
}

fn drawing_failed(e: impl std::fmt::Display) -> Error {
    Error::Plot(e.to_string())
}

/// The result of drawing on a backend.
type Drawn<DB> = std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subject: &Subject,
) -> Drawn<DB> {
    match subject {
        Subject::Values(values, kind) => values::draw(root, title, values, *kind),
        Subject::Counting {
            positions,
            n,
            period,
            fit,
        } => counting::draw(root, title, positions, *n, *period, *fit),
        Subject::Density(values, kind, classes) => {
            density::draw(root, title, values, *kind, classes)
        }
    }
}

fn subject(
    table: &Loaded,
    kind: Kind,
    classes: ValueClasses,
    fit: FitChoice,
) -> Result<Subject<'_>> {
    let empty = match &table.contents {
        Contents::Values(v) => v.is_empty(),
        Contents::Positions(p) => p.is_empty(),
        Contents::Pairs(p) => p.is_empty(),
        Contents::Grid(g) => g.n == 0,
    };
    if empty {
        return Err(Error::unsupported(
            "the table is empty: there is nothing to plot",
        ));
    }
    Ok(match (&table.contents, kind) {
        (Contents::Values(values), Kind::Values) => Subject::Values(unpacked(values)?, table.kind),
        (Contents::Values(values), Kind::Density) => {
            Subject::Density(unpacked(values)?, table.kind, classes)
        }
        (Contents::Values(values), Kind::Counting) => {
            let mut positions = Vec::new();
            let mut x = 0;
            values.each(0, values.len(), |v| {
                if v == 0 {
                    positions.push(x);
                }
                x += 1;
            });
            Subject::Counting {
                positions: Cow::Owned(positions),
                n: values.len(),
                period: table.period,
                fit,
            }
        }
        (Contents::Positions(positions), Kind::Counting) => Subject::Counting {
            n: table
                .n
                .unwrap_or_else(|| positions.last().map_or(0, |p| p + 1)),
            positions: Cow::Borrowed(positions),
            period: table.period,
            fit,
        },
        // C(x)/x: the share of P (outcome 0) among the positions below x, the rest N.
        (Contents::Positions(positions), Kind::Density) => {
            let n = table
                .n
                .unwrap_or_else(|| positions.last().map_or(0, |p| p + 1));
            let mut outcomes = crate::table::reserve(n, "the positions of the picture")?;
            outcomes.resize(n as usize, 1u32);
            positions
                .iter()
                .filter(|&&p| p < n)
                .for_each(|&p| outcomes[p as usize] = 0);
            Subject::Density(outcomes, ValueKind::MisereOutcome, classes)
        }
        (Contents::Positions(_), _) => {
            return Err(Error::invalid(
                Param::Kind,
                text!(
                    Param::Kind.given(kind.name()),
                    " needs a table of values, but this file holds P-positions (they plot as ",
                    Param::Kind.given("counting"),
                    ")",
                ),
            ));
        }
        // The pairs counted by their smaller heap: C(x) = #{k : a_k < x}.
        (Contents::Pairs(pairs), Kind::Counting) => Subject::Counting {
            positions: Cow::Owned(pairs.iter().map(|&[a, _]| a).collect()),
            n: table
                .n
                .unwrap_or_else(|| pairs.last().map_or(0, |&[a, _]| a + 1)),
            period: None,
            fit,
        },
        (Contents::Pairs(_), _) => {
            return Err(Error::invalid(
                Param::Kind,
                text!(
                    Param::Kind.given(kind.name()),
                    " is not for the P-pairs of a two-heap game: they plot as ",
                    Param::Kind.given("counting"),
                    " (C(x), the pairs with a_k < x); draw the table (grundy wythoff) with ",
                    Param::Kind.given("values"),
                ),
            ));
        }
        (Contents::Grid(_), _) => unreachable!("a two-heap table is drawn by wythoff.rs"),
    })
}

/// "squares: Grundy values g(n), N = 1,000,000" (the game and N when they are known).
fn title(table: &Loaded, kind: Kind) -> String {
    let what = match (kind, table.kind) {
        (Kind::Values, ValueKind::Grundy) => "Grundy values g(n)",
        (Kind::Values, ValueKind::MisereOutcome) => "misère outcomes (0 = P, 1 = N)",
        (Kind::Counting, _) if matches!(table.contents, Contents::Pairs(_)) => {
            "P-pairs counting function, pairs with a_k < x"
        }
        (Kind::Counting, _) => "P-position counting function",
        (Kind::Density, _) if matches!(table.contents, Contents::Positions(_)) => {
            "share of P-positions below x, C(x)/x"
        }
        (Kind::Density, ValueKind::Grundy) => "share of each value below x",
        (Kind::Density, ValueKind::MisereOutcome) => "share of each misère outcome below x",
    };
    let n = match &table.contents {
        Contents::Values(v) => Some(v.len()),
        _ => table.n,
    };
    let game = table.game.as_deref().map(|g| format!("{g}: "));
    let n = n.map(|n| format!(", N = {}", axes::size(n)));
    format!(
        "{}{what}{}",
        game.unwrap_or_default(),
        n.unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_formats_parse() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.name()).unwrap(), kind);
        }
        assert!(Kind::parse("histogram").is_err());
        assert_eq!(
            ImageFormat::of(Path::new("a/b.PNG")).unwrap(),
            ImageFormat::Png
        );
        assert_eq!(
            ImageFormat::of(Path::new("b.svg")).unwrap(),
            ImageFormat::Svg
        );
        assert!(ImageFormat::of(Path::new("b.jpg")).is_err());
        assert!(ImageFormat::of(Path::new("png")).is_err());
        assert_eq!(
            default_output(Path::new("out/sq-100.npy"), Kind::Counting),
            Path::new("out/sq-100-counting.png")
        );
    }
}
