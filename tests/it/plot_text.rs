//! `nimsieve plot` read through the text of its SVG pictures: the law beside the counting
//! function only where one means something (none for a set that stops growing, the linear
//! density of periodic values, a density or a power law as the data or `--fit` choose), a picture that says so when there is nothing to count, one
//! style of tick labels an axis, and the value classes of density plots.

use crate::support::plotting;

use nimsieve::plot::{self, ImageFormat, Kind};
use plotting::{SvgText, fails_with, fitted_exponent, nimsieve, succeeds, table, texts};
use std::path::Path;

/// Writes `spec`'s values below `n` as `NAME.npy` with its JSON summary, and plots them as
/// `kind` into `NAME-KIND.svg`, whose text it returns.
fn plot_svg(dir: &Path, spec: &str, n: &str, kind: &str, extra: &[&str]) -> String {
    let name = spec.replace([':', ','], "_");
    succeeds(&nimsieve(
        dir,
        &[
            "grundy",
            spec,
            "-n",
            n,
            "-q",
            "-f",
            "npy,json",
            "-o",
            &format!("{name}/"),
        ],
    ));
    let table = std::fs::read_dir(dir.join(&name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "npy"))
        .unwrap();
    let out = dir.join(format!("{name}-{kind}.svg"));
    let mut args = vec![
        "plot",
        table.to_str().unwrap(),
        "--kind",
        kind,
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    succeeds(&nimsieve(dir, &args));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn a_finite_set_of_p_positions_gets_no_power_law() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Grundy's game below 10^5: 42 P-positions, the last at 1,222.
    let svg = plot_svg(d, "grundys-game", "1e5", "counting", &[]);
    // SVG writes < as &lt;.
    assert!(
        svg.contains(
            "no law fitted: the last P-position is 1,222 and none lie in 50,000 ≤ x &lt; 100,000, so C(x) has stopped growing"
        ),
        "{svg}"
    );
    assert!(!svg.contains("≈"), "no law is given");
    assert!(!svg.contains("#D6601E"), "no law is drawn");
    // The same from the P-position file with its summary.
    succeeds(&nimsieve(
        d,
        &[
            "ppos",
            "grundys-game",
            "-n",
            "1e5",
            "-q",
            "-f",
            "u64,json",
            "-o",
            "p/",
        ],
    ));
    succeeds(&nimsieve(
        d,
        &[
            "plot",
            "p/grundys-game-100000-ppos.u64",
            "--kind",
            "counting",
            "-o",
            "p.svg",
        ],
    ));
    let svg = std::fs::read_to_string(d.join("p.svg")).unwrap();
    assert!(svg.contains("no law fitted: the last P-position is 1,222"));
}

#[test]
fn a_table_with_one_p_position_says_so_instead_of_drawing_axes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Kayles: 0 is its only P-position.
    let svg = plot_svg(d, "kayles", "1000", "counting", &[]);
    let texts = texts(&svg);
    let said: Vec<&str> = texts.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(
        said,
        [
            "kayles: P-position counting function, N = 1,000",
            "The only P-position below N = 1,000 is 0",
            "C(x) does not grow: no counting function to draw, no law to fit"
        ]
    );
    assert!(texts[1].size < texts[0].size, "the title stands out");
    // A table without a 0 at all: a picture saying so, not an error.
    let svg = plot::render(
        &table(&[1, 2, 1, 2]),
        Kind::Counting,
        None,
        Default::default(),
        ImageFormat::Svg,
    )
    .unwrap();
    assert!(
        String::from_utf8(svg)
            .unwrap()
            .contains("No P-positions below N = 4")
    );
}

/// The texts drawn at `y` (±2 pixels) from left to right: the tick labels of an x axis there.
fn row_at(texts: &[SvgText], y: f64) -> Vec<&str> {
    let mut row: Vec<&SvgText> = texts.iter().filter(|t| (t.y - y).abs() <= 2.0).collect();
    row.sort_by(|a, b| a.x.total_cmp(&b.x));
    row.iter().map(|t| t.text.as_str()).collect()
}

#[test]
fn every_tick_label_of_an_axis_is_written_one_way() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A linear axis to 10^5: plain digits throughout (once 80,000 next to 10⁵).
    let svg = plot_svg(d, "squares", "100001", "values", &[]);
    let values = texts(&svg);
    let zero = values.iter().find(|t| t.text == "20,000").expect("20,000");
    assert_eq!(
        row_at(&values, zero.y),
        ["0", "20,000", "40,000", "60,000", "80,000", "100,000"]
    );
    // A log axis over five decades: every label a power of ten (once 1 and 10 plain).
    let svg = plot_svg(d, "squares", "100000", "density", &[]);
    let density = texts(&svg);
    let first = density.iter().find(|t| t.text == "10⁰").expect("10⁰");
    assert_eq!(
        row_at(&density, first.y),
        ["10⁰", "10¹", "10²", "10³", "10⁴", "10⁵"]
    );
    // Shares with one decimal each, 0.0 and 1.0 too.
    assert!(density.iter().any(|t| t.text == "0.0"));
    assert!(density.iter().any(|t| t.text == "1.0"));
    assert!(!density.iter().any(|t| t.text == "1" || t.text == "0"));
}

#[test]
fn density_shows_the_smallest_values_by_default_and_the_classes_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Subtract-a-square below 10^5: g = 7 and 8 are less common than 10 and 13, and still
    // shown.
    let svg = plot_svg(d, "squares", "1e5", "density", &[]);
    for v in 0..9 {
        assert!(svg.contains(&format!(">\ng = {v}\n<")), "g = {v}");
    }
    assert!(!svg.contains("g = 9") && !svg.contains("g = 10") && !svg.contains("g = 13"));
    assert!(svg.contains("other: the remaining"));
    // Classes given with --values, one line each.
    let svg = plot_svg(
        d,
        "squares",
        "1e4",
        "density",
        &["--values", "0,1,5..9,10.."],
    );
    for label in [
        "g = 0",
        "g = 1",
        "5 ≤ g ≤ 9",
        "g ≥ 10",
        "other: the remaining 3 values",
    ] {
        assert!(svg.contains(label), "{label}");
    }
    assert!(!svg.contains("g = 2"));
    // A class no position has keeps its legend entry.
    let svg = plot_svg(d, "sub:1,3,4", "100", "density", &["--values", "0,7"]);
    assert!(svg.contains("g = 7: none below N"), "{svg}");
    // Ten values: the tenth has a line of its own, named.
    let svg = plot_svg(d, "nim", "10", "density", &[]);
    assert!(svg.contains("g = 9") && !svg.contains("other"));
    // Bad classes, or classes for another kind: one line, exit code 2.
    succeeds(&nimsieve(
        d,
        &["grundy", "nim", "-n", "50", "-q", "-o", "t.csv"],
    ));
    for (values, message) in [
        ("5..2", "the range 5..2 is empty"),
        ("0,x", "'x' is not a value"),
        ("0..3,2", "2 is in two classes"),
    ] {
        fails_with(
            d,
            &["plot", "t.csv", "--kind", "density", "--values", values],
            message,
        );
    }
    fails_with(
        d,
        &["plot", "t.csv", "--kind", "values", "--values", "0"],
        "--values chooses the lines of --kind density",
    );
}

#[test]
fn density_lumps_the_values_after_the_first_nine() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Nim: g(n) = n, fifty values once each: 0 to 8 a line each, the rest "other".
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

/// Subtract-a-prime's P-positions grow like x (their share creeps up): the density is drawn,
/// the power law (exponent above 1) named with its error and why not; `--fit` draws the other;
/// the density plot of the P-positions is C(x)/x.
#[test]
fn counting_draws_the_law_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    succeeds(&nimsieve(
        d,
        &["ppos", "primes", "-n", "2^18", "-q", "-f", "u64,json"],
    ));
    let file = "output/primes-262144-ppos.u64";
    let words = |svg: &str| {
        texts(svg)
            .into_iter()
            .map(|t| t.text)
            .collect::<Vec<_>>()
            .join(" ")
    };
    succeeds(&nimsieve(
        d,
        &["plot", file, "--kind", "counting", "-o", "a.svg"],
    ));
    let auto = words(&std::fs::read_to_string(d.join("a.svg")).unwrap());
    assert!(
        auto.contains("the density C(N)/N (C(x)/x within ±"),
        "{auto}"
    );
    assert!(
        auto.contains("not drawn: C(x) ≈") && auto.contains("its exponent is not below 1"),
        "{auto}"
    );
    succeeds(&nimsieve(
        d,
        &[
            "plot", file, "--kind", "counting", "--fit", "power", "-o", "p.svg",
        ],
    ));
    let svg = std::fs::read_to_string(d.join("p.svg")).unwrap();
    assert!(fitted_exponent(&svg) > 1.0);
    assert!(
        words(&svg).contains("(the better fit; another was asked for)"),
        "{}",
        words(&svg)
    );
    succeeds(&nimsieve(
        d,
        &[
            "plot", file, "--kind", "counting", "--fit", "none", "-o", "n.svg",
        ],
    ));
    assert!(
        words(&std::fs::read_to_string(d.join("n.svg")).unwrap())
            .contains("no law drawn, as asked")
    );
    succeeds(&nimsieve(
        d,
        &["plot", file, "--kind", "density", "-o", "d.svg"],
    ));
    let density = words(&std::fs::read_to_string(d.join("d.svg")).unwrap());
    assert!(
        density.contains("share of P-positions below x, C(x)/x"),
        "{density}"
    );
    assert!(density.contains("P (outcome 0)"), "{density}");
}
