//! The xlsx workbook, read back with calamine: every cell of the table sheets against the CSV
//! of the same run, the summary sheet against the JSON (and read by pandas), the split at
//! 1,048,576 rows, and the sizes it refuses.

use crate::support::external;
use assert_cmd::Command;
use calamine::{Data, Range, Reader, Xlsx, open_workbook};
use serde_json::Value;
use std::io::Cursor;
use std::path::Path;

/// Rows of one sheet, the header included.
const SHEET_ROWS: usize = 1_048_576;

fn nimsieve(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::cargo_bin("nimsieve").unwrap();
    command.current_dir(dir).args(args);
    command
}

/// Runs `args` with `-q` in a fresh folder and returns it.
fn run(args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path(), args).arg("-q").assert().success();
    dir
}

/// The sheets of a workbook, in order, with their cells.
fn sheets<R: std::io::Read + std::io::Seek>(mut book: Xlsx<R>) -> Vec<(String, Range<Data>)> {
    book.sheet_names()
        .into_iter()
        .map(|name| {
            let range = book.worksheet_range(&name).unwrap();
            (name, range)
        })
        .collect()
}

fn read(path: &Path) -> Vec<(String, Range<Data>)> {
    sheets(open_workbook(path).unwrap())
}

/// A CSV number as the cell it should be.
fn cell(field: &str) -> Data {
    Data::Float(field.parse::<u64>().unwrap() as f64)
}

/// Asserts that the table sheets, named `name`, `name 2`, …, hold the CSV's header on each
/// sheet and its rows in order, cell by cell (a short last row has empty cells after it).
fn assert_table_matches_csv(sheets: &[(String, Range<Data>)], name: &str, csv: &str) {
    let mut lines = csv.lines();
    let header: Vec<Data> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|name| Data::String(name.to_string()))
        .collect();
    let mut expected = lines.map(|l| l.split(',').map(cell).collect::<Vec<_>>());
    let tables: Vec<_> = sheets.iter().filter(|(n, _)| n != "summary").collect();
    for (i, (sheet_name, range)) in tables.iter().enumerate() {
        let wanted = if i == 0 {
            name.to_string()
        } else {
            format!("{name} {}", i + 1)
        };
        assert_eq!(sheet_name, &wanted);
        assert_eq!(range.start(), Some((0, 0)));
        let mut rows = range.rows();
        assert_eq!(rows.next().unwrap(), &header[..], "{sheet_name}: header");
        for (r, row) in rows.enumerate() {
            let want = expected
                .next()
                .unwrap_or_else(|| panic!("{sheet_name}: extra row {r}"));
            assert_eq!(&row[..want.len()], &want[..], "{sheet_name}: row {}", r + 1);
            assert!(row[want.len()..].iter().all(|c| *c == Data::Empty));
        }
        if i + 1 < tables.len() {
            assert_eq!(range.height(), SHEET_ROWS, "{sheet_name} is full");
        }
    }
    assert!(expected.next().is_none(), "rows missing from the workbook");
}

/// The cell a JSON scalar should be: a JSON null is an empty cell.
fn json_cell(value: &Value) -> Data {
    match value {
        Value::Number(x) => Data::Float(x.as_f64().unwrap()),
        Value::Bool(b) => Data::Bool(*b),
        Value::String(s) => Data::String(s.clone()),
        Value::Null => Data::Empty,
        other => panic!("not a scalar: {other}"),
    }
}

fn string(s: &str) -> Data {
    Data::String(s.into())
}

/// The summary sheet's header.
const SUMMARY_HEADER: [&str; 3] = ["field", "key", "value"];

/// The rows `field | key | value` docs/formats.md describes for a JSON summary: each scalar field
/// with no key, `period` as its three entries (with no values when it is null), then each list
/// element keyed by its index.
fn summary_rows(json: &str) -> Vec<[Data; 3]> {
    let json: serde_json::Map<String, Value> = serde_json::from_str(json).unwrap();
    let mut rows = Vec::new();
    for (field, value) in json.iter().filter(|(_, v)| !v.is_array()) {
        match value {
            Value::Object(entries) => {
                for (key, v) in entries {
                    rows.push([string(field), string(key), json_cell(v)]);
                }
            }
            Value::Null if field == "period" => {
                for key in ["preperiod", "period", "saltus"] {
                    rows.push([string(field), string(key), Data::Empty]);
                }
            }
            v => rows.push([string(field), Data::Empty, json_cell(v)]),
        }
    }
    for (field, value) in &json {
        for (i, v) in value.as_array().into_iter().flatten().enumerate() {
            match v {
                Value::Array(inner) => {
                    for (key, v) in inner.iter().enumerate() {
                        let field = format!("{field}[{i}]");
                        rows.push([string(&field), Data::Float(key as f64), json_cell(v)]);
                    }
                }
                v => rows.push([string(field), Data::Float(i as f64), json_cell(v)]),
            }
        }
    }
    rows
}

/// The summary sheets (`summary`, then `summary 2`, … if any), which come last: checks each
/// has the header `field | key | value` with no name twice and that all but the last are
/// full, and returns their rows after the headers, in order.
fn summary_sheet_rows(sheets: &[(String, Range<Data>)]) -> Vec<Vec<Data>> {
    let first = sheets.iter().position(|(n, _)| n == "summary").unwrap();
    let summary = &sheets[first..];
    let mut rows = Vec::new();
    for (i, (name, range)) in summary.iter().enumerate() {
        let wanted = match i {
            0 => "summary".to_string(),
            _ => format!("summary {}", i + 1),
        };
        assert_eq!(name, &wanted);
        assert_eq!(range.start(), Some((0, 0)), "{name}");
        let mut sheet_rows = range.rows();
        let header: Vec<String> = sheet_rows
            .next()
            .unwrap()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(header, SUMMARY_HEADER, "{name}: header");
        let distinct: std::collections::HashSet<&String> = header.iter().collect();
        assert_eq!(distinct.len(), header.len(), "{name}: a column name twice");
        if i + 1 < summary.len() {
            assert_eq!(range.height(), SHEET_ROWS, "{name} is full");
        }
        rows.extend(sheet_rows.map(|r| r.to_vec()));
    }
    rows
}

/// Asserts that the summary sheets hold the JSON summary row for row, as docs/formats.md describes.
fn assert_summary_matches_json(sheets: &[(String, Range<Data>)], json: &str) {
    let got = summary_sheet_rows(sheets);
    let want = summary_rows(json);
    assert_eq!(got.len(), want.len(), "summary rows");
    for (i, (got, want)) in got.iter().zip(&want).enumerate() {
        // A fraction (a fit's error) may differ in its last digit between the two writers.
        let near = |a: &Data, b: &Data| match (a, b) {
            (Data::Float(x), Data::Float(y)) => (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
            _ => a == b,
        };
        assert!(
            got.len() == want.len() && got.iter().zip(want).all(|(a, b)| near(a, b)),
            "summary row {}: {got:?} against {want:?}",
            i + 1
        );
    }
}

/// The rows of the summary sheet whose field is `field`, without it: `[key, value]`.
fn summary_field(sheets: &[(String, Range<Data>)], field: &str) -> Vec<[Data; 2]> {
    summary_sheet_rows(sheets)
        .into_iter()
        .filter(|r| r[0] == string(field))
        .map(|r| [r[1].clone(), r[2].clone()])
        .collect()
}

fn text(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join("output").join(name)).unwrap()
}

#[test]
fn grundy_workbook_matches_csv_and_json() {
    let dir = run(&["grundy", "squares", "-n", "5000", "-f", "csv,xlsx,json"]);
    let book = read(&dir.path().join("output/squares-5000.xlsx"));
    let names: Vec<&str> = book.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["values", "summary"]);
    assert_table_matches_csv(&book, "values", &text(dir.path(), "squares-5000.csv"));
    assert_summary_matches_json(&book, &text(dir.path(), "squares-5000.json"));
    // Scalars come first, without a key; `period` has its three entries, without values, as
    // squares has no period to prove; lists follow, one element a row keyed by its index.
    let rows = summary_sheet_rows(&book);
    assert_eq!(rows[0], [string("game"), Data::Empty, string("squares")]);
    assert_eq!(rows[1], [string("n"), Data::Empty, Data::Float(5000.)]);
    assert_eq!(
        summary_field(&book, "period"),
        [
            [string("preperiod"), Data::Empty],
            [string("period"), Data::Empty],
            [string("saltus"), Data::Empty]
        ]
    );
    let first = summary_field(&book, "first_occurrence");
    let want = [(0., 0.), (1., 1.), (2., 4.)].map(|(k, v)| [Data::Float(k), Data::Float(v)]);
    assert_eq!(first[..3], want);
    // Independent of the CSV: subtract-a-square starts 0, 1, 0, 1, 2, 0, 1.
    let first: Vec<&Data> = (1..8)
        .map(|r| book[0].1.get_value((r, 1)).unwrap())
        .collect();
    let want: Vec<Data> = [0., 1., 0., 1., 2., 0., 1.].map(Data::Float).into();
    assert_eq!(first, want.iter().collect::<Vec<_>>());
}

#[test]
fn period_and_misere_summaries() {
    let dir = run(&["grundy", "sub:2,4,7", "-n", "1000", "-f", "csv,xlsx,json"]);
    let book = read(&dir.path().join("output/sub_2-4-7-1000.xlsx"));
    assert_table_matches_csv(&book, "values", &text(dir.path(), "sub_2-4-7-1000.csv"));
    assert_summary_matches_json(&book, &text(dir.path(), "sub_2-4-7-1000.json"));
    assert_eq!(
        summary_field(&book, "period"),
        [
            [string("preperiod"), Data::Float(8.)],
            [string("period"), Data::Float(3.)],
            [string("saltus"), Data::Float(0.)]
        ]
    );

    let dir = run(&[
        "grundy",
        "squares+misere",
        "-n",
        "3000",
        "-f",
        "csv,xlsx,json",
    ]);
    let book = read(&dir.path().join("output/squares+misere-3000.xlsx"));
    assert_eq!(
        book[0].1.get_value((0, 1)),
        Some(&Data::String("outcome".into()))
    );
    assert_table_matches_csv(
        &book,
        "values",
        &text(dir.path(), "squares+misere-3000.csv"),
    );
    assert_summary_matches_json(&book, &text(dir.path(), "squares+misere-3000.json"));
}

#[test]
fn unproven_periods_and_nulls_are_empty_cells() {
    // Five positions cannot prove a period of sub:2,4,7: the period's two rows have no values.
    let dir = run(&["grundy", "sub:2,4,7", "-n", "5", "-f", "xlsx,json"]);
    let book = read(&dir.path().join("output/sub_2-4-7-5.xlsx"));
    let json = text(dir.path(), "sub_2-4-7-5.json");
    assert!(json.contains("\"period\": null"), "{json}");
    assert_summary_matches_json(&book, &json);
    assert_eq!(
        summary_field(&book, "period"),
        [
            [string("preperiod"), Data::Empty],
            [string("period"), Data::Empty],
            [string("saltus"), Data::Empty]
        ]
    );
    // Under misère play position 0 is an N-position: no P-position below 1, so value 0 has no
    // first occurrence, and a ppos run no last P-position.
    let dir = run(&["grundy", "squares+misere", "-n", "1", "-f", "xlsx,json"]);
    let book = read(&dir.path().join("output/squares+misere-1.xlsx"));
    assert_summary_matches_json(&book, &text(dir.path(), "squares+misere-1.json"));
    assert_eq!(
        summary_field(&book, "first_occurrence"),
        [
            [Data::Float(0.), Data::Empty],
            [Data::Float(1.), Data::Float(0.)]
        ]
    );
    let dir = run(&["ppos", "squares+misere", "-n", "1", "-f", "xlsx,json"]);
    let book = read(&dir.path().join("output/squares+misere-1-ppos.xlsx"));
    assert_summary_matches_json(&book, &text(dir.path(), "squares+misere-1-ppos.json"));
    assert_eq!(summary_field(&book, "last"), [[Data::Empty, Data::Empty]]);
}

#[test]
fn ppos_workbook_honours_offset_and_wide() {
    let dir = run(&[
        "ppos",
        "squares",
        "-n",
        "20000",
        "--offset",
        "1",
        "-f",
        "csv,xlsx,json",
    ]);
    let book = read(&dir.path().join("output/squares-20000-ppos.xlsx"));
    let csv = text(dir.path(), "squares-20000-ppos.csv");
    assert!(csv.starts_with("k,n\n1,0\n2,2\n"), "{}", &csv[..20]);
    assert_table_matches_csv(&book, "P-positions", &csv);
    assert_summary_matches_json(&book, &text(dir.path(), "squares-20000-ppos.json"));

    let dir = run(&[
        "ppos", "squares", "-n", "20000", "--wide", "7", "-f", "csv,xlsx",
    ]);
    let book = read(&dir.path().join("output/squares-20000-ppos.xlsx"));
    let csv = text(dir.path(), "squares-20000-ppos.csv");
    assert_eq!(csv.lines().next(), Some("k,+0,+1,+2,+3,+4,+5,+6"));
    assert_table_matches_csv(&book, "P-positions", &csv);
}

#[test]
fn wide_grundy_rows_end_short() {
    let dir = run(&[
        "grundy", "squares", "-n", "1003", "--wide", "10", "-f", "csv,xlsx",
    ]);
    let book = read(&dir.path().join("output/squares-1003.xlsx"));
    let csv = text(dir.path(), "squares-1003.csv");
    assert_eq!(csv.lines().count(), 1 + 101);
    assert_eq!(book[0].1.get_size(), (1 + 101, 11));
    assert_table_matches_csv(&book, "values", &csv);
}

#[test]
fn long_tables_continue_on_further_sheets() {
    // 1,048,575 values fill the first sheet under its header; three more start "values 2".
    let n = (SHEET_ROWS - 1 + 3).to_string();
    let dir = run(&["grundy", "sub:1,3,4", "-n", &n, "-f", "csv,xlsx"]);
    let book = read(&dir.path().join(format!("output/sub_1-3-4-{n}.xlsx")));
    let names: Vec<&str> = book.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["values", "values 2", "summary"]);
    assert_eq!(book[1].1.get_size(), (4, 2));
    assert_eq!(
        book[1].1.get_value((1, 0)),
        Some(&Data::Float((SHEET_ROWS - 1) as f64))
    );
    assert_table_matches_csv(
        &book,
        "values",
        &text(dir.path(), &format!("sub_1-3-4-{n}.csv")),
    );
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn long_summaries_continue_on_further_sheets() {
    // Nim has g(n) = n: 600,000 counts, as many first occurrences and 2^20 − 1 counts below the
    // powers of two up to 2^19 need three summary sheets.
    let dir = run(&["grundy", "nim", "-n", "600000", "-f", "xlsx,json"]);
    let book = read(&dir.path().join("output/nim-600000.xlsx"));
    let names: Vec<&str> = book.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["values", "summary", "summary 2", "summary 3"]);
    assert_summary_matches_json(&book, &text(dir.path(), "nim-600000.json"));
}

/// pandas reads the summary sheet (tests/pandas_check.py) into columns `field`, `key`, `value`
/// holding the JSON summary's values. Skipped without pandas and openpyxl, except under CI.
#[test]
fn pandas_reads_the_summary_sheet() {
    if !external::has_modules("pandas, openpyxl", "pip install pandas openpyxl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 6] = [
        &["grundy", "squares", "-n", "1000"],
        &["grundy", "sub:1,3,4", "-n", "100"],
        &["grundy", "sub:2,4,7", "-n", "5"],
        &["grundy", "squares+misere", "-n", "1"],
        &["ppos", "squares", "-n", "1000"],
        &["ppos", "squares+misere", "-n", "1"],
    ];
    for args in runs {
        nimsieve(dir.path(), args)
            .args(["-f", "xlsx,json", "-q"])
            .assert()
            .success();
    }
    let stems = [
        "squares-1000",
        "sub_1-3-4-100",
        "sub_2-4-7-5",
        "squares+misere-1",
        "squares-1000-ppos",
        "squares+misere-1-ppos",
    ]
    .map(|stem| format!("output/{stem}"));
    let output = std::process::Command::new("python3")
        .args(["-c", include_str!("pandas_check.py")])
        .args(stems)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("pandas check passed: 6 summaries"), "{said}");
}

#[test]
fn standard_output_is_the_same_workbook() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(
        dir.path(),
        &["ppos", "squares", "-n", "5000", "-f", "xlsx", "-o", "-"],
    )
    .assert()
    .success()
    .get_output()
    .stdout
    .clone();
    assert!(out.starts_with(b"PK"));
    let piped = sheets(Xlsx::new(Cursor::new(out)).unwrap());
    let file = run(&["ppos", "squares", "-n", "5000", "-f", "xlsx"]);
    let written = read(&file.path().join("output/squares-5000-ppos.xlsx"));
    assert_eq!(piped[0], written[0]);
    assert_eq!(piped.len(), written.len());
}

#[test]
fn tables_a_workbook_cannot_hold_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str], says: &str| {
        let out = nimsieve(dir.path(), args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    };
    // Known before the run: nothing is computed or written.
    refused(
        &["grundy", "squares", "-n", "1e9", "-f", "csv,xlsx"],
        "xlsx holds at most 2^24",
    );
    refused(
        &[
            "grundy", "squares", "-n", "100", "--wide", "16384", "-f", "xlsx",
        ],
        "16384",
    );
    refused(&["ppos", "squares", "-n", "2^60", "-f", "xlsx"], "2^53");
    assert!(!dir.path().join("output/squares-1000000000.csv").exists());
    // P-positions are counted by the run: 2^24 + 2 even positions are too many, but the other
    // formats of the run are still written.
    let n = ((1u64 << 25) + 4).to_string();
    refused(
        &["ppos", "sub:1", "-n", &n, "-f", "xlsx,bin", "-q"],
        "this table has 16777218",
    );
    let out = dir.path().join("output");
    assert!(out.join(format!("sub_1-{n}-ppos.bin")).exists());
    assert!(!out.join(format!("sub_1-{n}-ppos.xlsx")).exists());
    let left: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
    assert_eq!(left.len(), 1, "no scratch or partial files are left");
}
