//! The files of Wythoff's game read back like any table: `verify` of the table in each format
//! it is written in (and of the P-pairs) passes, and one changed cell fails with exit code 3 at
//! that cell; `stats` summarises them; `plot` counts the pairs; what does not apply to two heaps
//! is refused by name.

use nimsieve::format::{Contents, load};
use predicates::prelude::*;
use std::path::{Path, PathBuf};

use crate::support::command;
use command::{nimsieve, stdout_of};

use crate::support::value_file;
use value_file::ValueFile;

/// Side of the test table.
const N: u64 = 40;

fn written(dir: &Path, name: &str) -> PathBuf {
    dir.join("output").join(name)
}

/// Writes the table of side N (csv, npy, bin, json) and the pairs below 200 (csv, bfile,
/// npy, json) in `dir`.
fn write_files(dir: &Path) {
    let n = N.to_string();
    nimsieve(dir)
        .args([
            "grundy",
            "wythoff",
            "-n",
            &n,
            "-q",
            "-f",
            "csv,npy,bin,json",
        ])
        .assert()
        .success();
    nimsieve(dir)
        .args([
            "ppos",
            "wythoff",
            "-n",
            "200",
            "-q",
            "-f",
            "csv,bfile,npy,json",
        ])
        .assert()
        .success();
}

/// `verify FILE` must exit with `code`, its one line containing `says`.
fn verify_says(dir: &Path, file: &Path, code: i32, says: &str) {
    let out = nimsieve(dir)
        .args(["verify", file.to_str().unwrap()])
        .assert()
        .code(code);
    let out = out.get_output();
    let text = String::from_utf8_lossy(if code == 0 { &out.stdout } else { &out.stderr });
    assert!(text.contains(says), "{}: {text}", file.display());
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn verify_checks_every_format_of_the_table_and_catches_one_changed_cell() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    let cells = format!("verified: wythoff, {} cells, all correct", N * N);
    for ext in ["csv", "npy", "bin"] {
        let path = written(d, &format!("wythoff-{N}.{ext}"));
        verify_says(d, &path, 0, &cells);
        // G(3, 5) = 0: a P-position made 1, which its option (3, 4) has.
        let file = ValueFile { path: path.clone() };
        file.set(3 * N + 5, 1);
        verify_says(
            d,
            &path,
            3,
            "wrong table: G(3, 5) = 1 in the file, but the mex of the values before it in its row, column and diagonal is 0",
        );
        file.set(3 * N + 5, 0);
        // Below the diagonal a cell must equal its mirror: G(9, 2) = G(2, 9) = 11.
        file.set(9 * N + 2, 10);
        verify_says(
            d,
            &path,
            3,
            "G(9, 2) = 10 in the file, but the mex of the values before it in its row, column and diagonal is 11",
        );
        file.set(9 * N + 2, 11);
        verify_says(d, &path, 0, &cells);
    }
}

/// Each row is checked in runs of columns side by side: the fault reported is still the first
/// in row-major order, and a value too large for the sets (in an earlier run of the row) stops
/// nothing with a panic, whatever the thread count.
#[test]
fn verify_reports_the_first_wrong_cell_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    let path = written(d, &format!("wythoff-{N}.bin"));
    let file = ValueFile { path: path.clone() };
    file.set(6 * N + 2, 255);
    file.set(6 * N + 35, 0);
    for threads in ["1", "2", "3", "4"] {
        nimsieve(d)
            .args(["verify", path.to_str().unwrap(), "--threads", threads])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(
                "G(6, 2) = 255 in the file, but the mex of the values before it in its row, column and diagonal is 8",
            ));
    }
}

#[test]
fn verify_checks_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    for ext in ["csv", "txt", "npy"] {
        let path = written(d, &format!("wythoff-200-ppos.{ext}"));
        verify_says(d, &path, 0, "verified: wythoff, 124 pairs, all correct");
    }
    let csv = written(d, "wythoff-200-ppos.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, text.replace("\n2,3,5\n", "\n2,3,6\n")).unwrap();
    verify_says(
        d,
        &csv,
        3,
        "pair 2 is (3, 6) in the file, but the P-pair 2 of Wythoff's game is (3, 5)",
    );
    // The b-file of a_k alone (no JSON beside it) reads as pairs once --game names the game.
    let bfile = d.join("lower-wythoff-ppos.txt");
    std::fs::copy(written(d, "wythoff-200-ppos.txt"), &bfile).unwrap();
    let file = bfile.to_str().unwrap();
    let verify = |args: &[&str]| nimsieve(d).args(["verify", file]).args(args).assert();
    verify(&[])
        .code(2)
        .stderr(predicate::str::contains("give --game"));
    verify(&["--game", "wythoff"])
        .success()
        .stdout(predicate::str::contains("verified: wythoff, 124 pairs"));
    let text = std::fs::read_to_string(&bfile).unwrap();
    std::fs::write(&bfile, text.replace("\n5 8\n", "\n5 9\n")).unwrap();
    verify(&["--game", "wythoff"])
        .code(3)
        .stderr(predicate::str::contains(
            "pair 5 is (9, 14) in the file, but the P-pair 5 of Wythoff's game is (8, 13)",
        ));
}

#[test]
fn stats_summarises_the_table_and_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    let written_json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(written(d, &format!("wythoff-{N}.json"))).unwrap())
            .unwrap();
    for ext in ["csv", "npy", "bin"] {
        let path = written(d, &format!("wythoff-{N}.{ext}"));
        let json: serde_json::Value =
            serde_json::from_str(&stdout_of(d, &["stats", path.to_str().unwrap()])).unwrap();
        for field in [
            "game",
            "n",
            "cells",
            "max_value",
            "counts",
            "p_count",
            "row_periods",
        ] {
            assert_eq!(json[field], written_json[field], "{ext}: {field}");
        }
        assert_eq!(json["engine"], "stats");
    }
    let path = written(d, "wythoff-200-ppos.txt");
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(d, &["stats", path.to_str().unwrap()])).unwrap();
    assert_eq!(json["pairs"], 124);
    assert_eq!(json["last"], serde_json::json!([123, 199, 322]));
}

#[test]
fn the_library_reads_the_table_and_the_pairs_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    let table = nimsieve::engine::wythoff::reference(N as usize);
    for ext in ["csv", "npy", "bin"] {
        let loaded = load(&written(d, &format!("wythoff-{N}.{ext}")), None).unwrap();
        assert_eq!(loaded.game.as_deref(), Some("wythoff"));
        match loaded.contents {
            Contents::Grid(grid) => {
                assert_eq!(grid.n, N);
                assert_eq!(grid.values.iter().collect::<Vec<u32>>(), table, "{ext}");
            }
            other => panic!("{ext}: {other:?}"),
        }
    }
    let pairs: Vec<[u64; 2]> = nimsieve::game::wythoff::Pairs::default()
        .take(124)
        .map(|(_, a, b)| [a, b])
        .collect();
    for ext in ["csv", "txt", "npy"] {
        match load(&written(d, &format!("wythoff-200-ppos.{ext}")), None)
            .unwrap()
            .contents
        {
            Contents::Pairs(read) => assert_eq!(read, pairs, "{ext}"),
            other => panic!("{ext}: {other:?}"),
        }
    }
}

#[test]
fn plot_counts_the_pairs_and_refuses_what_two_heaps_do_not_have() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    nimsieve(d)
        .args([
            "plot",
            "output/wythoff-200-ppos.npy",
            "--kind",
            "counting",
            "-o",
            "c.svg",
        ])
        .assert()
        .success();
    let svg = std::fs::read_to_string(d.join("c.svg")).unwrap();
    assert!(svg.contains("P-pairs counting function"), "{svg}");
    nimsieve(d)
        .args([
            "plot",
            &format!("output/wythoff-{N}.csv"),
            "--kind",
            "values",
            "-o",
            "v.png",
        ])
        .assert()
        .success();
    for (args, says) in [
        (
            &["plot", "output/wythoff-200-ppos.csv", "--kind", "values"][..],
            "--kind values is not for the P-pairs of a two-heap game",
        ),
        (
            &["plot", "output/wythoff-40.npy", "--kind", "density"],
            "--kind density: a table of Wythoff's game is drawn with --kind values",
        ),
        (
            &["verify", "output/wythoff-40.bin", "--game", "squares"],
            "--game squares disagrees with the game wythoff",
        ),
        (
            &["grundy", "moore:2", "-n", "10"],
            "'moore:2' is a game of several heaps with no table",
        ),
    ] {
        nimsieve(d)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says).and(predicate::str::ends_with("\n")));
    }
    nimsieve(d)
        .args(["grundy", "squares", "-n", "50", "-q", "-f", "csv"])
        .assert()
        .success();
    nimsieve(d)
        .args(["verify", "output/squares-50.csv", "--game", "wythoff"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "holds a table of one heap, not one of the two-heap game wythoff",
        ));
}

#[test]
fn a_summary_that_disagrees_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_files(d);
    let json = written(d, "wythoff-200-ppos.json");
    let text = std::fs::read_to_string(&json).unwrap();
    std::fs::write(&json, text.replace("\"pairs\": 124", "\"pairs\": 125")).unwrap();
    nimsieve(d)
        .args(["stats", "output/wythoff-200-ppos.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "it holds 124 pairs, but the JSON summary beside it states 125 pairs",
        ));
}
