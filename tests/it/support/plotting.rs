//! Running `nimsieve plot` and reading its pictures back, for the plot tests.

use nimsieve::format::{Contents, Loaded};
use nimsieve::table::ValueKind;
use nimsieve::table::packed::PackedValues;
use std::path::Path;

/// The output of `nimsieve ARGS…` run in `dir`.
pub use super::command::output_of as nimsieve;

/// Asserts that a command succeeded, showing its standard error if not.
pub fn succeeds(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Asserts that `nimsieve ARGS…` fails with exit code 2 and one line containing `message`.
pub fn fails_with(dir: &Path, args: &[&str], message: &str) {
    let out = nimsieve(dir, args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
}

/// A table of Grundy values without a game or a summary.
pub fn table(values: &[u32]) -> Loaded {
    Loaded {
        contents: Contents::Values(PackedValues::from_values(values).unwrap()),
        game: None,
        n: None,
        kind: ValueKind::Grundy,
        period: None,
        stopped_at_period: false,
        provenance: None,
        first: 0,
    }
}

/// A text of an SVG picture: where it is, its size and what it says.
#[derive(Debug)]
pub struct SvgText {
    /// Its x.
    pub x: f64,
    /// Its y.
    pub y: f64,
    /// Its font size.
    pub size: f64,
    /// What it says.
    pub text: String,
}

/// Every text of an SVG, in the order drawn.
pub fn texts(svg: &str) -> Vec<SvgText> {
    let attribute = |tag: &str, name: &str| -> f64 {
        let after = format!(" {tag}");
        let after = after.split(&format!(" {name}=\"")).nth(1).unwrap();
        after[..after.find('"').unwrap()].parse().unwrap()
    };
    svg.split("<text ")
        .skip(1)
        .map(|element| {
            let (tag, rest) = element.split_once('>').unwrap();
            SvgText {
                x: attribute(tag, "x"),
                y: attribute(tag, "y"),
                size: attribute(tag, "font-size"),
                text: rest[..rest.find("</text>").unwrap()].trim().to_string(),
            }
        })
        .collect()
}

/// The exponent b of the legend's `C(x) ≈ a·x^b`, which must be drawn raised and smaller
/// right after the `x`.
pub fn fitted_exponent(svg: &str) -> f64 {
    let texts = texts(svg);
    let base = texts
        .iter()
        .position(|t| t.text.starts_with("C(x) ≈") && t.text.ends_with("·x"))
        .expect("the legend gives a fitted law, its exponent apart");
    let (base, exponent) = (&texts[base], &texts[base + 1]);
    assert!(exponent.size < base.size, "{exponent:?} is smaller");
    assert!(exponent.y < base.y, "{exponent:?} is raised");
    assert!(exponent.x > base.x, "{exponent:?} follows");
    // The exponent and its standard error: `0.695±0.002`.
    exponent.text.split('±').next().unwrap().parse().unwrap()
}
