//! Wythoff's game: the table against the definition, the P-pairs against the table's zeros,
//! the proven row periods against a larger table, and `grundy wythoff`, `ppos wythoff` and
//! `plot` end to end.

use nimsieve::analysis::wythoff::{RowPeriod, proven_row_periods};
use nimsieve::choice::Choice;
use nimsieve::engine::wythoff::{reference, table};
use nimsieve::game::wythoff::{Pairs, is_p_position};
use nimsieve::progress::Progress;
use nimsieve::table::{Table, ValueKind};
use predicates::prelude::*;
use std::path::Path;

use crate::support::command;
use command::{nimsieve, stdout_of};

use crate::support::external;

/// The table of side n as one u32 a cell, row-major, on `threads` threads.
fn computed(n: u64, threads: usize) -> Vec<u32> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| table(n, None, &Progress::hidden()).unwrap())
        .iter()
        .collect()
}

fn as_table(values: &[u32]) -> Table {
    Table {
        kind: ValueKind::Grundy,
        values: nimsieve::table::packed::PackedValues::from_values(values).unwrap(),
        period: None,
        shape: nimsieve::table::Shape::Square {
            side: (values.len() as u64).isqrt(),
        },
    }
}

#[test]
fn the_table_is_the_mex_of_every_option_to_256() {
    for n in [1, 2, 3, 64, 65, 200, 256] {
        assert_eq!(computed(n, 2), reference(n as usize), "n = {n}");
    }
}

#[test]
fn the_published_diagonal_and_rows() {
    let g = computed(64, 1);
    // OEIS A047708, G(i, i).
    let diagonal: Vec<u32> = (0..20).map(|i| g[i * 64 + i]).collect();
    assert_eq!(
        diagonal,
        [
            0, 2, 1, 6, 7, 8, 3, 5, 4, 16, 14, 15, 10, 9, 11, 20, 13, 21, 12, 25
        ]
    );
    // OEIS A317205, the triangle G(n, k), 0 ≤ k ≤ n, by rows.
    let triangle: Vec<u32> = (0..8)
        .flat_map(|n| (0..=n).map(move |k| (n, k)))
        .map(|(n, k)| g[n * 64 + k])
        .collect();
    assert_eq!(
        triangle,
        [
            0, 1, 2, 2, 0, 1, 3, 4, 5, 6, 4, 5, 3, 2, 7, 5, 3, 4, 0, 6, 8, 6, 7, 8, 1, 9, 10, 3, 7,
            8, 6, 9, 0, 1, 4, 5
        ]
    );
}

#[test]
fn one_and_two_threads_give_the_same_table() {
    assert_eq!(computed(700, 1), computed(700, 2));
}

#[test]
fn the_p_pairs_are_the_zeros_of_the_table() {
    let n = 1500u64;
    let g = computed(n, 2);
    let zeros: Vec<(u64, u64)> = (0..n * n)
        .filter(|&c| g[c as usize] == 0)
        .map(|c| (c / n, c % n))
        .collect();
    let mut pairs: Vec<(u64, u64)> = Pairs::default()
        .take_while(|&(_, a, _)| a < n)
        .flat_map(|(_, a, b)| [(a, b), (b, a)])
        .filter(|&(x, y)| x < n && y < n)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(zeros, pairs);
    assert!((0..n).all(|x| (0..n).all(|y| is_p_position(x, y) == (g[(x * n + y) as usize] == 0))));
}

/// Whether G(x, y + p) = G(x, y) + p for every y ≥ from with y + p < n.
fn holds(g: &[u32], n: u64, x: u64, from: u64, p: u64) -> bool {
    let at = |y: u64| u64::from(g[(x * n + y) as usize]);
    (from..n.saturating_sub(p)).all(|y| at(y + p) == at(y) + p)
}

#[test]
fn proven_row_periods_hold_beyond_the_table_that_proves_them() {
    let (small, large) = (600u64, 3000u64);
    let proven = proven_row_periods(&as_table(&computed(small, 2)), small);
    let g = computed(large, 2);
    let proven_large = proven_row_periods(&as_table(&g), large);
    assert!(
        proven.len() >= 10,
        "{} rows proven at {small}",
        proven.len()
    );
    assert!(proven_large.len() > proven.len());
    assert_eq!(proven[..], proven_large[..proven.len()]);
    for &RowPeriod {
        row,
        preperiod,
        period,
        saltus,
    } in &proven_large
    {
        assert_eq!(saltus, period);
        // The relation holds on the whole larger table, and no smaller period or preperiod
        // does (as far as the table shows).
        assert!(holds(&g, large, row, preperiod, period), "row {row}");
        assert!(
            (1..period).all(|p| !holds(&g, large, row, preperiod, p)),
            "row {row}"
        );
        assert!(
            preperiod == 0 || !holds(&g, large, row, preperiod - 1, period),
            "row {row}"
        );
    }
    // Rows 0 to 2: G(0, y) = y; rows 1 and 2 repeat 1 2 0 and 2 0 1, plus 3 each time.
    let first: Vec<(u64, u64, u64)> = proven[..3]
        .iter()
        .map(|r| (r.preperiod, r.period, r.saltus))
        .collect();
    assert_eq!(first, [(0, 1, 1), (0, 3, 3), (0, 3, 3)]);
}

fn json_of(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The dtype width and shape of an npy file, and its data.
fn npy(path: &Path) -> (String, String, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    let field = |name: &str, end: char| {
        let from = header.find(name).unwrap() + name.len();
        header[from..from + header[from..].find(end).unwrap() + 1].to_string()
    };
    (
        field("'descr': ", ','),
        field("'shape': ", ')'),
        bytes[10 + header_len..].to_vec(),
    )
}

#[test]
fn grundy_wythoff_writes_the_matrix_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args(["grundy", "wythoff", "-n", "100", "-f", "csv,json,npy,bin"])
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote output/wythoff-100.bin"));
    let out = dir.path().join("output");
    let g = reference(100);
    // CSV: a header of y, then row x.
    let csv = std::fs::read_to_string(out.join("wythoff-100.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<String> = std::iter::once("x/y".to_string())
        .chain((0..100).map(|y: u32| y.to_string()))
        .collect();
    assert_eq!(lines.next().unwrap(), header.join(","));
    for (x, line) in lines.enumerate() {
        let row: Vec<String> = std::iter::once(x.to_string())
            .chain(g[x * 100..(x + 1) * 100].iter().map(u32::to_string))
            .collect();
        assert_eq!(line, row.join(","), "row {x}");
    }
    assert_eq!(csv.lines().count(), 101);
    // npy: 100×100, a byte a value (the largest is below 256).
    let (descr, shape, data) = npy(&out.join("wythoff-100.npy"));
    assert_eq!((descr.as_str(), shape.as_str()), ("'<u1',", "(100, 100)"));
    assert_eq!(data.iter().map(|&b| u32::from(b)).collect::<Vec<_>>(), g);
    // At N = 130 the table takes 16 bits a value (2N − 2 = 258) but the values fit in a byte.
    nimsieve(dir.path())
        .args(["grundy", "wythoff", "-n", "130", "-f", "npy", "-q"])
        .assert()
        .success();
    let (descr, _, data) = npy(&out.join("wythoff-130.npy"));
    assert_eq!(descr, "'<u1',");
    assert_eq!(
        data.iter().map(|&b| u32::from(b)).collect::<Vec<_>>(),
        reference(130)
    );
    // bin: the game, n² positions, 8 bits a value (the table's width holds 2n − 2 = 198).
    let bin = std::fs::read(out.join("wythoff-100.bin")).unwrap();
    assert_eq!(&bin[..8], b"NIMSIEVE");
    assert_eq!(u64::from_le_bytes(bin[16..24].try_into().unwrap()), 10_000);
    assert_eq!(u32::from_le_bytes(bin[24..28].try_into().unwrap()), 8);
    assert_eq!(&bin[40..47], b"wythoff");
    let start = crate::support::provenance::bin_payload_start(&bin);
    assert_eq!(
        bin[start..]
            .iter()
            .map(|&b| u32::from(b))
            .collect::<Vec<_>>(),
        g
    );
    // The summary.
    let json = json_of(&out.join("wythoff-100.json"));
    assert_eq!(json["game"], "wythoff");
    assert_eq!(
        (json["n"].as_u64(), json["cells"].as_u64()),
        (Some(100), Some(10_000))
    );
    let max = *g.iter().max().unwrap();
    assert_eq!(json["max_value"].as_u64(), Some(u64::from(max)));
    let counts: Vec<u64> = (0..=max)
        .map(|v| g.iter().filter(|&&w| w == v).count() as u64)
        .collect();
    assert_eq!(json["counts"], serde_json::json!(counts));
    assert_eq!(json["p_count"].as_u64(), Some(counts[0]));
    assert_eq!(
        json["row_periods"][1],
        serde_json::json!({"row": 1, "preperiod": 0, "period": 3, "saltus": 3})
    );
    // The table's least sizes, checked before the run, are at most what was written.
    let square = nimsieve::report::Kind::Square;
    let formats = nimsieve::format::Format::ALL
        .iter()
        .filter(|f| f.holds(square));
    for &format in formats {
        let ext = match format {
            nimsieve::format::Format::Json => continue,
            f => nimsieve::format::Extension::extension(f),
        };
        let written = std::fs::metadata(out.join(format!("wythoff-100.{ext}")))
            .unwrap()
            .len();
        let least = nimsieve::format::two_heaps::square_bytes(format, "wythoff", 100, 8);
        assert!(
            least <= u128::from(written) && least * 10 > u128::from(written) * 9,
            "{ext}: {least} of {written}"
        );
    }
}

#[test]
fn ppos_wythoff_lists_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stdout_of(dir.path(), &["ppos", "wythoff", "-n", "13", "-o", "-"]);
    assert_eq!(
        csv,
        "k,a,b\n0,0,0\n1,1,2\n2,3,5\n3,4,7\n4,6,10\n5,8,13\n6,9,15\n7,11,18\n8,12,20\n"
    );
    // The b-file of A000201 starts at k = 1.
    let bfile = stdout_of(
        dir.path(),
        &["ppos", "wythoff", "-n", "7", "-f", "bfile", "-o", "-"],
    );
    assert_eq!(bfile, "1 1\n2 3\n3 4\n4 6\n");
    nimsieve(dir.path())
        .args(["ppos", "wythoff", "-n", "1e5", "-f", "npy,json", "-q"])
        .assert()
        .success()
        .stderr("");
    let out = dir.path().join("output");
    let (descr, shape, data) = npy(&out.join("wythoff-100000-ppos.npy"));
    assert_eq!((descr.as_str(), shape.as_str()), ("'<u4',", "(61804, 2)"));
    let numbers: Vec<u64> = data
        .chunks(4)
        .map(|c| u64::from(u32::from_le_bytes(c.try_into().unwrap())))
        .collect();
    let pairs: Vec<u64> = Pairs::default()
        .take(61804)
        .flat_map(|(_, a, b)| [a, b])
        .collect();
    assert_eq!(numbers, pairs);
    let json = json_of(&out.join("wythoff-100000-ppos.json"));
    assert_eq!(json["pairs"].as_u64(), Some(61804));
    assert_eq!(json["last"], serde_json::json!([61803, 99999, 161802]));
}

#[test]
fn the_largest_bound_ends_with_the_last_pair_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    let json = stdout_of(
        dir.path(),
        &[
            "ppos",
            "wythoff",
            "-n",
            "11400714819323198487",
            "-f",
            "json",
            "-o",
            "-",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["pairs"], 7_046_029_254_386_353_131u64);
    assert_eq!(
        json["last"],
        serde_json::json!([
            7_046_029_254_386_353_130u64,
            11_400_714_819_323_198_485u64,
            u64::MAX
        ])
    );
}

#[test]
fn numpy_reads_the_table_and_the_pairs() {
    if !external::has_modules("numpy", "pip install numpy") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for command in ["grundy", "ppos"] {
        nimsieve(dir.path())
            .args([command, "wythoff", "-n", "300", "-f", "csv,npy", "-q"])
            .assert()
            .success();
    }
    nimsieve(dir.path())
        .args(["grundy", "wythoff", "-n", "300", "-f", "bin", "-q"])
        .assert()
        .success();
    let script = r#"
import numpy as np, struct
g = np.load("output/wythoff-300.npy")
assert g.shape == (300, 300) and (g == g.T).all() and g[1, :6].tolist() == [1, 2, 0, 4, 5, 3]
c = np.loadtxt("output/wythoff-300.csv", delimiter=",", skiprows=1, dtype=np.int64)[:, 1:]
assert (c == g).all()
raw = open("output/wythoff-300.bin", "rb").read()
magic, version, content, cells, bits, L, crc, P = struct.unpack_from("<8sIIQIIII", raw)
b = np.frombuffer(raw, f"<u{bits // 8}", offset=40 + -(-L // 8) * 8 + -(-P // 8) * 8)[:cells].reshape(300, 300)
assert (b == g).all()
p = np.load("output/wythoff-300-ppos.npy")
inside = p[p[:, 1] < 300]
assert p.shape == (186, 2) and (g[inside[:, 0], inside[:, 1]] == 0).all() and (g == 0).sum() == 2 * len(inside) - 1
assert ((p[:, 1] - p[:, 0]) == np.arange(186)).all()
"#;
    let status = std::process::Command::new("python3")
        .args(["-c", script])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn plot_draws_a_wythoff_table() {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args(["grundy", "wythoff", "-n", "50", "-f", "bin,npy", "-q"])
        .assert()
        .success();
    for (file, picture) in [("wythoff-50.bin", "a.png"), ("wythoff-50.npy", "b.svg")] {
        nimsieve(dir.path())
            .args([
                "plot",
                &format!("output/{file}"),
                "--kind",
                "values",
                "-o",
                picture,
            ])
            .assert()
            .success();
        let image = std::fs::read(dir.path().join(picture)).unwrap();
        assert!(image.starts_with(b"\x89PNG") || String::from_utf8_lossy(&image).contains("<svg"));
    }
    nimsieve(dir.path())
        .args(["plot", "output/wythoff-50.bin", "--kind", "counting"])
        .assert()
        .code(2)
        .stderr("nimsieve: error: --kind counting: a table of Wythoff's game is drawn with --kind values (each G(x, y) as a colour)\n");
}

#[test]
fn what_does_not_fit_wythoff_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            &["grundy", "wythoff+misere", "-n", "9"][..],
            "Wythoff's game takes no arguments and no modifiers",
        ),
        (
            &["grundy", "wythoff", "-n", "9", "-f", "xlsx"],
            "grundy wythoff writes csv, json, npy, bin, not xlsx",
        ),
        (
            &["grundy", "wythoff", "-n", "9", "-f", "bfile"],
            "not bfile",
        ),
        (
            &["ppos", "wythoff", "-n", "9", "-f", "bin"],
            "ppos wythoff writes csv, bfile, json, npy, not bin",
        ),
        (&["ppos", "wythoff", "-n", "9", "-f", "u64"], "not u64"),
        (
            &["grundy", "wythoff", "-n", "9", "--wide", "4"],
            "--wide lays out one-heap tables",
        ),
        (
            &["grundy", "wythoff", "-n", "9", "--until-period"],
            "--until-period stops one-heap tables",
        ),
        (
            &["grundy", "wythoff", "-n", "9", "--engine", "reference"],
            "--engine reference is an engine of one-heap games",
        ),
        (
            &["grundy", "wythoff", "-n", "9", "--resume"],
            "not resumable",
        ),
        (
            &["grundy", "wythoff", "-n", "9", "--mod", "7"],
            "--mod sets the residues",
        ),
        (
            &["ppos", "wythoff", "-n", "9", "--offset", "1"],
            "--offset numbers one-heap P-positions",
        ),
        (&["grundy", "wythoff", "-n", "0"], "-n must be at least 1"),
        (&["ppos", "wythoff", "-n", "0"], "-n must be at least 1"),
        (&["grundy", "wythoff", "-n", "2^32"], "at most 2^31 rows"),
        (
            &["ppos", "wythoff", "-n", "1e18", "-f", "npy"],
            "not enough room in 'output'",
        ),
        (
            &[
                "ppos",
                "wythoff",
                "-n",
                "11400714819323198488",
                "-f",
                "json",
            ],
            "give -n at most 11400714819323198487",
        ),
    ] {
        let out = nimsieve(dir.path()).args(args).assert().code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // Nothing was left behind.
    let left = std::fs::read_dir(dir.path().join("output")).map_or(0, |d| d.count());
    assert_eq!(left, 0);
}
