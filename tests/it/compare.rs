//! `nimsieve compare`: two tables of any formats entry by entry, an OEIS b-file at its offset.

use crate::support::command;
use command::{nimsieve, stdout_of};

/// `compare` reads an OEIS b-file at its offset: values from position 1 compared with a table
/// from 0 over the positions both hold; other commands refuse such a b-file, saying why.
#[test]
fn compare_reads_an_oeis_b_file_at_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout_of(d, &["grundy", "squares", "-n", "100", "-f", "csv", "-q"]);
    let g: Vec<u32> = match nimsieve::format::load(&d.join("output/squares-100.csv"), None)
        .unwrap()
        .contents
    {
        nimsieve::format::Contents::Values(v) => v.iter().collect(),
        _ => unreachable!(),
    };
    let bfile = |from: usize, change: Option<usize>| -> String {
        let mut text = String::from("# A-number, offset 1\n");
        for (x, v) in g.iter().enumerate().skip(from).take(80) {
            let v = if change == Some(x) { v + 1 } else { *v };
            text.push_str(&format!("{x} {v}\n"));
        }
        text
    };
    std::fs::write(d.join("b1.txt"), bfile(1, None)).unwrap();
    let said = stdout_of(d, &["compare", "output/squares-100.csv", "b1.txt"]);
    assert_eq!(
        said,
        "equal: 80 values (positions 1 to 80, which both hold)\n"
    );
    std::fs::write(d.join("b2.txt"), bfile(1, Some(33))).unwrap();
    let out = nimsieve(d)
        .args(["compare", "b2.txt", "output/squares-100.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let line = String::from_utf8_lossy(&out.stderr);
    assert!(
        line.contains(&format!(
            "1 of the 80 values (positions 1 to 80, which both hold) differ, the first at 33: {} in 'b2.txt', {} in",
            g[33] + 1,
            g[33]
        )),
        "{line}"
    );
    let out = nimsieve(d).args(["stats", "b1.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let line = String::from_utf8_lossy(&out.stderr);
    assert!(
        line.contains("only compare reads a b-file from another first index"),
        "{line}"
    );
}

/// `compare`: equal tables in two formats, values against P-positions, and the first
/// difference with the counts, exit code 3.
#[test]
fn compare_says_equal_or_where_tables_first_differ() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for args in [
        &["grundy", "squares", "-n", "1000", "-f", "csv,bin,npy", "-q"][..],
        &["ppos", "squares", "-n", "1000", "-f", "bfile", "-q"],
        &["grundy", "sub:1,2,3", "-n", "1000", "-o", "other.csv", "-q"],
        &["grundy", "squares", "-n", "999", "-o", "short.csv", "-q"],
    ] {
        nimsieve(d).args(args).assert().success();
    }
    let csv = "output/squares-1000.csv";
    assert_eq!(
        stdout_of(d, &["compare", csv, "output/squares-1000.bin"]),
        "equal: 1000 values\n"
    );
    assert_eq!(
        stdout_of(
            d,
            &[
                "compare",
                "output/squares-1000.npy",
                "output/squares-1000-ppos.txt"
            ]
        ),
        "equal: 115 P-positions\n"
    );
    let out = nimsieve(d)
        .args(["compare", csv, "other.csv"])
        .assert()
        .code(3);
    let said = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(
        said,
        "nimsieve: error: the tables differ: 887 of the 1000 values both hold differ, the first at 2: 0 in 'output/squares-1000.csv', 2 in 'other.csv'\n"
    );
    let out = nimsieve(d)
        .args(["compare", csv, "short.csv"])
        .assert()
        .code(3);
    let said = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(said.contains("the 999 values both hold are equal; 'output/squares-1000.csv' has 1000 and 'short.csv' 999"), "{said}");
}
