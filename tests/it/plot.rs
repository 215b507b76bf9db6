//! `nimsieve plot`: every kind to PNG and SVG, the fitted exponent (raised), rare values
//! surviving the per-pixel aggregation, the shading and running maximum of large tables,
//! legends off the plot, lines that differ without colour, and one-line errors. What the
//! pictures say in words is tested in `plot_text.rs`.

use crate::support::plotting;

use nimsieve::plot::{self, ImageFormat, Kind};
use plotting::{fails_with, fitted_exponent, nimsieve, succeeds, table};
use std::path::Path;

/// Width, height and RGB pixels of a PNG.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    (info.width, info.height, pixels)
}

#[test]
fn every_kind_draws_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(&nimsieve(
        d,
        &["grundy", "sub:1,3,4", "-n", "2000", "-q", "-f", "csv,json"],
    ));
    for kind in ["values", "counting", "density"] {
        let png = format!("{kind}.png");
        let svg = format!("{kind}.svg");
        for out in [&png, &svg] {
            let run = nimsieve(
                d,
                &[
                    "plot",
                    "output/sub_1-3-4-2000.csv",
                    "--kind",
                    kind,
                    "-o",
                    out,
                ],
            );
            succeeds(&run);
            assert_eq!(
                String::from_utf8_lossy(&run.stderr),
                format!("wrote {out}\n")
            );
        }
        let (width, height, _) = decode(&std::fs::read(d.join(&png)).unwrap());
        assert_eq!((width, height), plot::SIZE);
        let svg = std::fs::read_to_string(d.join(&svg)).unwrap();
        assert!(svg.starts_with("<svg"), "{kind}");
        assert!(
            svg.contains("sub:1,3,4: "),
            "{kind}: the title names the game"
        );
        assert!(svg.contains("N = 2,000"), "{kind}: the title gives N");
        if kind == "counting" {
            // P-positions of sub:1,3,4 are x ≡ 0, 2 (mod 7), the values proven periodic:
            // C(x) grows like 2x/7, drawn as that, not as a fitted power law.
            assert!(
                svg.contains(
                    "C(x) ≈ 2x/7: the values are periodic from 0 with period 7, 2 of them 0"
                ),
                "{svg}"
            );
            assert!(!svg.contains("least squares"));
        }
    }
    // Without -o the picture goes beside the table.
    succeeds(&nimsieve(
        d,
        &[
            "plot",
            "output/sub_1-3-4-2000.csv",
            "--kind",
            "density",
            "-q",
        ],
    ));
    assert!(d.join("output/sub_1-3-4-2000-density.png").is_file());
}

#[test]
fn counting_fits_the_exponent_of_a_p_position_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The squares below 10^6 as P-positions: C(x) = ⌈√x⌉, exponent 1/2.
    let squares: Vec<u8> = (0..1000u64).flat_map(|k| (k * k).to_le_bytes()).collect();
    std::fs::write(d.join("squares-ppos.u64"), squares).unwrap();
    let run = nimsieve(
        d,
        &[
            "plot",
            "squares-ppos.u64",
            "--kind",
            "counting",
            "-o",
            "c.svg",
        ],
    );
    succeeds(&run);
    let svg = std::fs::read_to_string(d.join("c.svg")).unwrap();
    assert!((fitted_exponent(&svg) - 0.5).abs() < 0.005, "{svg}");
    assert!(svg.contains("P-position counting function"));

    // The subtract-a-square P-positions grow like x^0.7.
    succeeds(&nimsieve(
        d,
        &["ppos", "squares", "-n", "2^18", "-q", "-f", "u64,json"],
    ));
    let file = "output/squares-262144-ppos.u64";
    succeeds(&nimsieve(
        d,
        &["plot", file, "--kind", "counting", "-o", "s.svg"],
    ));
    let svg = std::fs::read_to_string(d.join("s.svg")).unwrap();
    assert!(svg.contains("squares: P-position counting function, N = 2¹⁸ = 262,144"));
    let b = fitted_exponent(&svg);
    assert!((0.65..0.75).contains(&b), "{b}");
}

/// A decoded PNG.
struct Picture {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

/// The plot area inside the axes: columns left..right and rows top..bottom, both ends
/// excluded (left and bottom are the axis lines).
struct Area {
    left: u32,
    right: u32,
    top: u32,
    bottom: u32,
}

impl Picture {
    fn new(png: &[u8]) -> Picture {
        let (width, height, pixels) = decode(png);
        Picture {
            width,
            height,
            pixels,
        }
    }

    fn read(path: &Path) -> Picture {
        Picture::new(&std::fs::read(path).unwrap())
    }

    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y * self.width + x) as usize;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// The (x, y) of every pixel of colour `rgb`.
    fn find(&self, rgb: [u8; 3]) -> Vec<(u32, u32)> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.at(x, y) == rgb)
            .collect()
    }

    /// The longest run of black pixels along `line`, as (length, start).
    fn black_run(&self, line: impl Iterator<Item = (u32, u32)>) -> (u32, u32) {
        let (mut best, mut run, mut start) = ((0, 0), 0, 0);
        for (i, (x, y)) in line.enumerate() {
            if self.at(x, y) == [0, 0, 0] {
                if run == 0 {
                    start = i as u32;
                }
                run += 1;
                best = best.max((run, start));
            } else {
                run = 0;
            }
        }
        best
    }

    /// The plot area, found from the axes: the longest black vertical and horizontal lines.
    fn area(&self) -> Area {
        let (mut y_axis, mut x_axis) = ((0, 0, 0), (0, 0, 0));
        for x in 0..self.width {
            let (length, start) = self.black_run((0..self.height).map(|y| (x, y)));
            y_axis = y_axis.max((length, x, start));
        }
        for y in 0..self.height {
            let (length, start) = self.black_run((0..self.width).map(|x| (x, y)));
            x_axis = x_axis.max((length, y, start));
        }
        assert!(y_axis.0 > self.height / 2 && x_axis.0 > self.width / 2);
        Area {
            left: y_axis.1,
            right: x_axis.2 + x_axis.0,
            top: y_axis.2,
            bottom: x_axis.1,
        }
    }
}

impl Area {
    fn contains(&self, (x, y): (u32, u32)) -> bool {
        x > self.left && x < self.right && y >= self.top && y < self.bottom
    }

    fn pixels(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (self.top..self.bottom).flat_map(move |y| (self.left + 1..self.right).map(move |x| (x, y)))
    }
}

/// The colour of the running maximum.
const RECORD: [u8; 3] = [213, 94, 0];
/// The shading of a value that one position of a pixel column has.
const LIGHTEST: [u8; 3] = [215, 215, 215];

#[test]
fn a_value_that_occurs_once_in_a_large_table_is_drawn() {
    // 200,000 positions, about 230 a pixel column: shaded. An early 10 sets the running
    // maximum, so the lone 9 lies below its line.
    let mut values = vec![0u32; 200_000];
    values[10] = 10;
    values[150_000] = 9;
    let table = table(&values);
    let image = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            plot::render(
                &table,
                Kind::Values,
                None,
                Default::default(),
                ImageFormat::Png,
            )
            .unwrap()
        })
    };
    let png = image(2);
    assert_eq!(
        png,
        image(1),
        "the picture does not depend on the thread count"
    );
    let picture = Picture::new(&png);
    let area = picture.area();
    let record: Vec<_> = picture
        .find(RECORD)
        .into_iter()
        .filter(|&p| area.contains(p))
        .collect();
    let line_row = record.iter().map(|p| p.1).min().unwrap();
    // The running maximum is the flat line of 10 across the plot, 3 rows thick.
    let spread =
        record.iter().map(|p| p.0).max().unwrap() - record.iter().map(|p| p.0).min().unwrap();
    assert!(spread as f64 > 0.95 * (area.right - area.left) as f64);
    assert!(record.iter().all(|p| p.1 <= line_row + 2));
    let mut lone = std::collections::BTreeMap::<u32, Vec<u32>>::new();
    for (x, y) in picture.find(LIGHTEST) {
        if area.contains((x, y)) {
            lone.entry(x).or_default().push(y);
        }
    }
    // Bands of 9 rows in one pixel column each: the 10 in the first column, just under the
    // line with a blank row between, and the 9 three quarters of the way along.
    let bands: Vec<(u32, Vec<u32>)> = lone.into_iter().collect();
    assert_eq!(bands.len(), 2, "{bands:?}");
    let (ten, nine) = (&bands[0], &bands[1]);
    assert!(ten.1.len() == 9 && nine.1.len() == 9, "{bands:?}");
    assert_eq!(ten.1[0], line_row + 4, "{bands:?}");
    let (first, last) = (area.left as f64 + 1.0, area.right as f64 - 1.0);
    // The x range has 1% of N as room on either side of positions 0 and N - 1.
    let expected = first + (0.75 + 0.01) / 1.02 * (last - first);
    assert!(
        (nine.0 as f64 - expected).abs() <= 2.0,
        "{nine:?} {first} {last}"
    );
    // The zeros, every position of their columns but one at most, are the darkest grey.
    let zeros = picture.find([20, 20, 20]);
    assert!(
        zeros.len() as f64 > 0.9 * 9.0 * (last - first),
        "{}",
        zeros.len()
    );
}

#[test]
fn a_large_table_shows_how_often_values_occur_and_the_running_maximum() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(&nimsieve(
        d,
        &[
            "grundy", "squares", "-n", "1e6", "-q", "-f", "npy", "-o", "sq.npy",
        ],
    ));
    succeeds(&nimsieve(
        d,
        &["plot", "sq.npy", "--kind", "values", "-o", "v.png"],
    ));
    let picture = Picture::read(&d.join("v.png"));
    let area = picture.area();
    // The running maximum: in (nearly) every column of the plot, rising to the right.
    let mut top_of_line = vec![None; picture.width as usize];
    for (x, y) in picture
        .find(RECORD)
        .into_iter()
        .filter(|&p| area.contains(p))
    {
        let top = top_of_line[x as usize].get_or_insert(y);
        *top = (*top).min(y);
    }
    let line: Vec<(u32, u32)> = (area.left + 1..area.right)
        .filter_map(|x| top_of_line[x as usize].map(|y| (x, y)))
        .collect();
    assert!(
        line.len() as f64 > 0.95 * (area.right - area.left) as f64,
        "{}",
        line.len()
    );
    assert!(
        line.windows(2).all(|w| w[1].1 <= w[0].1),
        "the running maximum never falls"
    );
    let (start, end) = (line[0].1, line.last().unwrap().1);
    assert!(start - end > (area.bottom - area.top) / 2, "{start} {end}");
    // Nothing is drawn above it.
    for &(x, y) in &line {
        for above in area.top..y.saturating_sub(2) {
            assert_eq!(picture.at(x, above), [255, 255, 255], "({x}, {above})");
        }
    }
    // Not a solid block: above the running maximum the plot is background, and below it the
    // values are shaded in several greys, none of which covers most of it.
    let mut white = 0;
    let mut greys = std::collections::BTreeMap::new();
    let mut shaded = 0;
    for (x, y) in area.pixels() {
        let [r, g, b] = picture.at(x, y);
        if [r, g, b] == [255, 255, 255] {
            white += 1;
        } else if r == g && g == b && (20..=215).contains(&r) {
            *greys.entry(r).or_insert(0) += 1;
            shaded += 1;
        }
    }
    let total = (area.right - area.left - 1) * (area.bottom - area.top);
    assert!(white as f64 > 0.2 * total as f64, "{white} of {total}");
    let used: Vec<_> = greys.iter().filter(|&(_, &c)| c * 100 > shaded).collect();
    assert!(used.len() >= 3, "{greys:?}");
    assert!(greys.values().all(|&c| c * 10 < shaded * 8), "{greys:?}");
}

/// Line colours of the density picture, one per shown value and "other".
const SERIES: [[u8; 3]; 10] = [
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [188, 189, 34],
    [23, 190, 207],
    [127, 127, 127],
];

/// The shape of the legend key drawn in `colour`: its pixels relative to their bounding
/// box, which lies below `below`.
fn key_shape(picture: &Picture, colour: [u8; 3], below: u32) -> Vec<(u32, u32)> {
    let pixels: Vec<_> = picture
        .find(colour)
        .into_iter()
        .filter(|p| p.1 > below)
        .collect();
    assert!(!pixels.is_empty(), "no legend key in {colour:?}");
    let x0 = pixels.iter().map(|p| p.0).min().unwrap();
    let y0 = pixels.iter().map(|p| p.1).min().unwrap();
    pixels.iter().map(|&(x, y)| (x - x0, y - y0)).collect()
}

#[test]
fn the_density_legend_stays_off_the_lines_and_lines_differ_without_colour() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Subtract-a-square below 10^4: dozens of values, nine lines and "other".
    succeeds(&nimsieve(
        d,
        &["grundy", "squares", "-n", "1e4", "-q", "-o", "sq.csv"],
    ));
    succeeds(&nimsieve(
        d,
        &["plot", "sq.csv", "--kind", "density", "-o", "d.png"],
    ));
    let picture = Picture::read(&d.join("d.png"));
    let area = picture.area();
    // The tick labels take the 50 rows under the x axis; the legend comes after them.
    let band = area.bottom + 50;
    for (k, colour) in SERIES.into_iter().enumerate() {
        let pixels = picture.find(colour);
        assert!(
            pixels.iter().any(|&p| area.contains(p)),
            "{colour:?} has a line"
        );
        // The grey of "other" also occurs at the edges of text.
        assert!(
            k == 9 || pixels.iter().all(|&p| area.contains(p) || p.1 > band),
            "{colour:?} is drawn only on the plot and in the legend below it"
        );
    }
    // No legend text over the lines: inside the plot area the only neutral pixels are
    // background, grid lines, and the grey "other" line with its edges blended into the
    // background; black text would show.
    for (x, y) in area.pixels() {
        let [r, g, b] = picture.at(x, y);
        if r == g && g == b {
            assert!(r >= 127, "a dark pixel ({x}, {y}) on the plot: {r}");
        }
    }
    // Printed in greyscale, each key is a shape of its own: dash pattern and marker.
    let shapes: Vec<_> = SERIES
        .iter()
        .map(|&c| key_shape(&picture, c, band))
        .collect();
    for i in 0..shapes.len() {
        for j in 0..i {
            assert_ne!(shapes[i], shapes[j], "keys {j} and {i} look alike");
        }
    }
}

#[test]
fn the_counting_law_is_dashed_over_the_solid_data() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(&nimsieve(
        d,
        &["grundy", "sub:1,3,4", "-n", "1e4", "-q", "-o", "s.csv"],
    ));
    succeeds(&nimsieve(
        d,
        &["plot", "s.csv", "--kind", "counting", "-o", "c.png"],
    ));
    let picture = Picture::read(&d.join("c.png"));
    let area = picture.area();
    let band = area.bottom + 50;
    let measured = key_shape(&picture, [31, 87, 165], band);
    let fitted = key_shape(&picture, [214, 96, 30], band);
    // Solid: one unbroken run along the key's middle row; dashed: gaps.
    let runs = |shape: &[(u32, u32)]| {
        let row = shape.iter().map(|p| p.1).max().unwrap() / 2;
        let mut xs: Vec<u32> = shape.iter().filter(|p| p.1 == row).map(|p| p.0).collect();
        xs.sort_unstable();
        1 + xs.windows(2).filter(|w| w[1] > w[0] + 1).count()
    };
    assert_eq!(runs(&measured), 1);
    assert!(runs(&fitted) >= 3, "{fitted:?}");
    for colour in [[31, 87, 165], [214, 96, 30]] {
        assert!(
            picture
                .find(colour)
                .iter()
                .all(|&p| area.contains(p) || p.1 > band)
        );
    }
}

#[test]
fn bad_input_gets_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(&nimsieve(
        d,
        &["grundy", "nim", "-n", "50", "-q", "-o", "t.csv"],
    ));
    succeeds(&nimsieve(
        d,
        &["ppos", "nim", "-n", "50", "-q", "-f", "u64", "-o", "p.u64"],
    ));
    std::fs::write(d.join("empty.u64"), b"").unwrap();
    fails_with(
        d,
        &["plot", "t.csv", "--kind", "pie"],
        "unknown plot kind 'pie'",
    );
    fails_with(
        d,
        &["plot", "t.csv", "--kind", "values", "-o", "t.jpg"],
        "use .png or .svg",
    );
    fails_with(
        d,
        &["plot", "p.u64", "--kind", "values"],
        "holds P-positions",
    );
    fails_with(
        d,
        &["plot", "p.u64", "--kind", "density", "--fit", "power"],
        "--fit chooses the law of --kind counting",
    );
    fails_with(d, &["plot", "empty.u64", "--kind", "counting"], "empty");
    // A missing table or an unwritable picture is an operation that failed: exit code 1.
    for args in [
        ["plot", "missing.csv", "--kind", "values", "-o", "m.png"],
        ["plot", "t.csv", "--kind", "values", "-o", "/dev/null/t.png"],
    ] {
        let out = nimsieve(d, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
    assert!(!d.join("t-values.png").exists());
}
