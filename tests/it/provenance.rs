//! Provenance in every file (version, commit, command, engine, threads, date), printed back by
//! `stats` and `verify`, and `convert`: a table written again in other formats, each read back.

use crate::support::command::{nimsieve, output_of, stdout_of};
use nimsieve::format::{Contents, load};
use nimsieve::provenance::Provenance;
use std::path::Path;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn provenance_in_json(path: &Path) -> Provenance {
    serde_json::from_value(json(path)["provenance"].clone()).unwrap()
}

fn values(path: &Path) -> Vec<u32> {
    match load(path, None).unwrap().contents {
        Contents::Values(v) => v.iter().collect(),
        other => panic!("{path:?} holds {other:?}"),
    }
}

#[test]
fn every_file_records_how_its_table_was_made() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "grundy",
        "squares",
        "-n",
        "1000",
        "-f",
        "json,npy,bin,xlsx,csv",
        "--threads",
        "1",
        "-q",
    ];
    stdout_of(d, &args);
    let made = provenance_in_json(&d.join("output/squares-1000.json"));
    assert_eq!(made.nimsieve, env!("CARGO_PKG_VERSION"));
    assert_eq!(made.command, format!("nimsieve {}", args.join(" ")));
    assert_eq!((made.engine.as_str(), made.threads), ("value-layers", 1));
    assert!(
        made.date.starts_with("20") && made.date.ends_with('Z'),
        "{made:?}"
    );
    assert!(!made.commit.is_empty());
    for ext in ["npy", "bin"] {
        let path = d.join(format!("output/squares-1000.{ext}"));
        // Read from the file's own header, not from the JSON beside it.
        let alone = d.join(format!("alone.{ext}"));
        std::fs::copy(&path, &alone).unwrap();
        assert_eq!(
            load(&alone, None).unwrap().provenance,
            Some(made.clone()),
            "{ext}"
        );
    }
    // The xlsx summary sheet lists it.
    use calamine::{Reader, open_workbook_auto};
    let mut book = open_workbook_auto(d.join("output/squares-1000.xlsx")).unwrap();
    let sheet = book.worksheet_range("summary").unwrap();
    let rows: Vec<String> = sheet
        .rows()
        .map(|r| {
            r.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    assert!(
        rows.iter()
            .any(|r| r == &format!("provenance|command|{}", made.command)),
        "{rows:?}"
    );
    // stats prints it back; verify says it in a line.
    let stats: serde_json::Value =
        serde_json::from_str(&stdout_of(d, &["stats", "output/squares-1000.bin"])).unwrap();
    assert_eq!(stats["engine"], "stats");
    assert_eq!(
        serde_json::from_value::<Provenance>(stats["provenance"].clone()).unwrap(),
        made
    );
    let out = output_of(d, &["verify", "output/squares-1000.npy"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!("made by {}", made.line())), "{said}");
    // A table that records none says null.
    std::fs::write(d.join("plain.txt"), "0 0\n1 1\n2 0\n").unwrap();
    let stats: serde_json::Value =
        serde_json::from_str(&stdout_of(d, &["stats", "plain.txt"])).unwrap();
    assert!(stats["provenance"].is_null(), "{stats}");
}

#[test]
fn python_calls_and_npy_comments_stay_loadable_by_numpy() {
    if !crate::support::external::available(
        &["python3", "-c", "import numpy"],
        "NumPy is not installed (pip install numpy)",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout_of(d, &["grundy", "tb:4!.0", "-n", "300", "-f", "npy", "-q"]);
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import numpy as np, glob; g = np.load(glob.glob('output/*.npy')[0], mmap_mode='r'); assert g.shape == (300,) and g[:6].tolist() == [0, 0, 0, 1, 0, 2]",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn convert_writes_every_format_and_reads_each_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout_of(
        d,
        &["grundy", "squares", "-n", "3000", "-f", "bin,json", "-q"],
    );
    let made = provenance_in_json(&d.join("output/squares-3000.json"));
    let want = values(&d.join("output/squares-3000.bin"));
    let out = nimsieve(d)
        .args([
            "convert",
            "output/squares-3000.bin",
            "-f",
            "csv,npy,bfile,json,xlsx",
            "-o",
            "c/",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stderr);
    for ext in ["csv", "npy", "txt", "json", "xlsx"] {
        assert!(
            said.contains(&format!("wrote c/squares-3000.{ext}")),
            "{said}"
        );
    }
    for ext in ["csv", "npy", "txt"] {
        assert_eq!(
            values(&d.join(format!("c/squares-3000.{ext}"))),
            want,
            "{ext}"
        );
    }
    // The summary is the table's, with the provenance of the run that made it.
    let summary = json(&d.join("c/squares-3000.json"));
    assert_eq!(summary["engine"], "convert");
    assert_eq!(summary["period"], serde_json::Value::Null);
    assert_eq!(provenance_in_json(&d.join("c/squares-3000.json")), made);
    // Back again from the CSV, ten values a row, and from a b-file to bin.
    stdout_of(
        d,
        &[
            "convert",
            "c/squares-3000.csv",
            "-f",
            "csv",
            "--wide",
            "10",
            "-o",
            "w.csv",
            "-q",
        ],
    );
    assert_eq!(values(&d.join("w.csv")), want);
    stdout_of(
        d,
        &[
            "convert",
            "c/squares-3000.txt",
            "-f",
            "bin",
            "-o",
            "b/",
            "-q",
        ],
    );
    assert_eq!(values(&d.join("b/squares-3000.bin")), want);
    // P-positions: u64 to a b-file and bin.
    stdout_of(d, &["ppos", "squares", "-n", "3000", "-f", "u64", "-q"]);
    stdout_of(
        d,
        &[
            "convert",
            "output/squares-3000-ppos.u64",
            "-f",
            "bfile,bin",
            "-q",
        ],
    );
    let zeros: Vec<u64> = (0..3000).filter(|&x| want[x as usize] == 0).collect();
    for ext in ["txt", "bin"] {
        match load(
            &d.join(format!("output/squares-3000-ppos.{ext}")),
            Some(true),
        )
        .unwrap()
        .contents
        {
            Contents::Positions(p) => assert_eq!(p, zeros, "{ext}"),
            other => panic!("{other:?}"),
        }
    }
    // A b-file from elsewhere records no provenance: the converted files record the convert.
    let oeis: String = want
        .iter()
        .enumerate()
        .map(|(x, v)| format!("{x} {v}\n"))
        .collect();
    std::fs::write(d.join("b000000.txt"), oeis).unwrap();
    stdout_of(
        d,
        &[
            "convert",
            "b000000.txt",
            "-f",
            "npy,json",
            "--game",
            "squares",
            "-q",
        ],
    );
    let made = provenance_in_json(&d.join("b000000.json"));
    assert_eq!(made.engine, "convert");
    assert!(
        made.command.starts_with("nimsieve convert b000000.txt"),
        "{made:?}"
    );
    // A CSV past a spreadsheet's rows is said, as by grundy.
    stdout_of(d, &["grundy", "nim", "-n", "1100000", "-f", "bin", "-q"]);
    let out = output_of(d, &["convert", "output/nim-1100000.bin", "-f", "csv"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("the table has 1100000 rows, more than the 1048576"),
        "{said}"
    );
    let out = output_of(
        d,
        &[
            "convert",
            "output/nim-1100000.bin",
            "-f",
            "csv",
            "-o",
            "q.csv",
            "-q",
        ],
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The game given, the period of a finite set is proven as by stats.
    stdout_of(d, &["grundy", "sub:1,3,4", "-n", "500", "-f", "csv", "-q"]);
    stdout_of(
        d,
        &[
            "convert",
            "output/sub_1-3-4-500.csv",
            "-f",
            "json",
            "--game",
            "sub:1,3,4",
            "-q",
        ],
    );
    assert_eq!(
        json(&d.join("output/sub_1-3-4-500.json"))["period"]["period"],
        7
    );
}

#[test]
fn convert_refuses_in_one_line_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout_of(
        d,
        &["grundy", "squares", "-n", "300", "-f", "bin,csv,json", "-q"],
    );
    let refused = |args: &[&str], want: &str| {
        let out = output_of(d, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(want),
            "{args:?}: wanted '{want}', got {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    };
    let pristine = std::fs::read(d.join("output/squares-300.bin")).unwrap();
    refused(
        &["convert", "output/squares-300.bin", "-f", "bin"],
        "would write over the table itself",
    );
    refused(
        &[
            "convert",
            "output/squares-300.csv",
            "-f",
            "bin,csv",
            "-o",
            "output/",
        ],
        "would write over the table itself",
    );
    assert_eq!(
        std::fs::read(d.join("output/squares-300.bin")).unwrap(),
        pristine
    );
    refused(
        &[
            "convert",
            "output/squares-300.bin",
            "-f",
            "csv,npy",
            "-o",
            "one.csv",
        ],
        "one file",
    );
    let missing = output_of(d, &["convert", "missing.bin", "-f", "csv"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read 'missing.bin'"));
    refused(
        &[
            "convert",
            "output/squares-300.bin",
            "-f",
            "csv",
            "--game",
            "cubes",
        ],
        "disagrees",
    );
    std::fs::write(d.join("bad.csv"), "n,g\n0,0\n1,x\n").unwrap();
    refused(&["convert", "bad.csv", "-f", "npy"], "bad.csv");
    assert!(!d.join("bad.npy").exists());
}
