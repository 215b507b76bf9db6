//! `nimsieve plot`: every kind to PNG and SVG, the fitted exponent, rare values surviving
//! the per-pixel aggregation, and one-line errors.

use assert_cmd::Command;
use nimsieve::format::{Contents, Loaded};
use nimsieve::plot::{self, ImageFormat, Kind};
use nimsieve::table::ValueKind;
use nimsieve::table::packed::PackedValues;
use std::path::Path;

fn nimsieve(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("nimsieve")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn succeeds(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

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

/// The exponent b of the legend's `C(x) ≈ a·x^b`.
fn fitted_exponent(svg: &str) -> f64 {
    let after = svg
        .split("x^")
        .nth(1)
        .expect("the legend gives a fitted law");
    let digits: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().unwrap()
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
            // P-positions of sub:1,3,4 are x ≡ 0, 2 (mod 7): C(x) grows like 2x/7.
            assert!((fitted_exponent(&svg) - 1.0).abs() < 0.01, "{svg}");
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

/// The rows and columns of the pixels in the points' colour.
fn ink(pixels: &[u8], width: u32) -> Vec<(u32, u32)> {
    pixels
        .chunks(3)
        .enumerate()
        .filter(|(_, p)| p == &[31, 87, 165])
        .map(|(i, _)| (i as u32 / width, i as u32 % width))
        .collect()
}

#[test]
fn a_value_that_occurs_once_in_a_large_table_is_drawn() {
    let mut values = vec![0u32; 200_000];
    values[150_000] = 9;
    let table = Loaded {
        contents: Contents::Values(PackedValues::from_values(&values)),
        game: None,
        n: None,
        kind: ValueKind::Grundy,
    };
    let image = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| plot::render(&table, Kind::Values, ImageFormat::Png).unwrap())
    };
    let png = image(2);
    assert_eq!(
        png,
        image(1),
        "the picture does not depend on the thread count"
    );
    let (width, _, pixels) = decode(&png);
    let ink = ink(&pixels, width);
    let top = ink.iter().map(|p| p.0).min().unwrap();
    let lone: Vec<_> = ink.iter().filter(|p| p.0 < top + 5).collect();
    // One pixel column, three pixels tall, three quarters of the way along the zeros' row.
    assert_eq!(lone.len(), 3, "{lone:?}");
    let columns: Vec<u32> = ink.iter().map(|p| p.1).collect();
    let (first, last) = (
        *columns.iter().min().unwrap(),
        *columns.iter().max().unwrap(),
    );
    let expected = first as f64 + 0.75 * (last - first) as f64;
    assert!(
        (lone[0].1 as f64 - expected).abs() <= 1.0,
        "{lone:?} {first} {last}"
    );
}

fn fails_with(dir: &Path, args: &[&str], message: &str) {
    let out = nimsieve(dir, args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
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
        &["plot", "p.u64", "--kind", "density"],
        "--kind counting",
    );
    fails_with(d, &["plot", "empty.u64", "--kind", "counting"], "empty");
    // A missing table or an unwritable picture is an operation that failed: exit code 1.
    for args in [
        ["plot", "missing.csv", "--kind", "values", "-o", "m.png"],
        [
            "plot",
            "t.csv",
            "--kind",
            "values",
            "-o",
            "no/such/dir/t.png",
        ],
    ] {
        let out = nimsieve(d, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
    assert!(!d.join("t-values.png").exists());
}

#[test]
fn density_lumps_all_but_the_most_common_values() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Nim: g(n) = n, fifty values once each; ties go to the smaller values.
    succeeds(&nimsieve(
        d,
        &["grundy", "nim", "-n", "50", "-q", "-o", "t.csv"],
    ));
    succeeds(&nimsieve(
        d,
        &["plot", "t.csv", "--kind", "density", "-o", "d.svg"],
    ));
    let svg = std::fs::read_to_string(d.join("d.svg")).unwrap();
    assert!(svg.contains("other: the remaining 41 values together"));
    assert!(svg.contains("g = 8") && !svg.contains("g = 9"));
    // Four values: each has its own line.
    succeeds(&nimsieve(
        d,
        &["grundy", "sub:1,3,4", "-n", "50", "-q", "-o", "s.csv"],
    ));
    succeeds(&nimsieve(
        d,
        &["plot", "s.csv", "--kind", "density", "-o", "s.svg"],
    ));
    let svg = std::fs::read_to_string(d.join("s.svg")).unwrap();
    assert!(svg.contains("g = 3") && !svg.contains("other"));
}
