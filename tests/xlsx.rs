//! The xlsx workbook, read back with calamine: every cell of the table sheets against the CSV
//! of the same run, the summary sheet against the JSON, the split at 1,048,576 rows, and the
//! sizes it refuses.

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

/// The cell a JSON scalar should be.
fn json_cell(value: &Value) -> Data {
    match value {
        Value::Number(x) => Data::Float(x.as_f64().unwrap()),
        Value::Bool(b) => Data::Bool(*b),
        Value::String(s) => Data::String(s.clone()),
        Value::Null => Data::String("none".into()),
        other => panic!("not a scalar: {other}"),
    }
}

/// Asserts that the summary sheet holds every field of the JSON summary: scalars as
/// field/value rows (objects as `key.field`), lists as columns headed by their names.
fn assert_summary_matches_json(sheets: &[(String, Range<Data>)], json: &str) {
    let (name, summary) = sheets.last().unwrap();
    assert_eq!(name, "summary");
    let rows: Vec<&[Data]> = summary.rows().collect();
    let field = |key: &str| -> Data {
        let row = rows
            .iter()
            .find(|r| r[0] == Data::String(key.into()))
            .unwrap_or_else(|| panic!("no row {key}"));
        row[1].clone()
    };
    let column = |key: &str| -> Vec<Data> {
        let c = rows[0]
            .iter()
            .position(|h| *h == Data::String(key.into()))
            .unwrap_or_else(|| panic!("no column {key}"));
        let mut cells: Vec<Data> = rows[1..].iter().map(|r| r[c].clone()).collect();
        while cells.last() == Some(&Data::Empty) {
            cells.pop();
        }
        cells
    };
    let json: serde_json::Map<String, Value> = serde_json::from_str(json).unwrap();
    for (key, value) in &json {
        match value {
            Value::Array(list) => {
                let mut want: Vec<Data> = list
                    .iter()
                    .map(|v| {
                        if v.is_null() {
                            Data::Empty
                        } else {
                            json_cell(v)
                        }
                    })
                    .collect();
                while want.last() == Some(&Data::Empty) {
                    want.pop();
                }
                assert_eq!(column(key), want, "{key}");
            }
            Value::Object(fields) => {
                for (f, v) in fields {
                    assert_eq!(field(&format!("{key}.{f}")), json_cell(v), "{key}.{f}");
                }
            }
            v => assert_eq!(field(key), json_cell(v), "{key}"),
        }
    }
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
    // The summary's lists stand side by side, each after its index column.
    let summary = &book[1].1;
    let header: Vec<String> = summary
        .rows()
        .next()
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        header,
        [
            "field",
            "value",
            "",
            "value",
            "counts",
            "first_occurrence",
            "",
            "k",
            "p_count_at_powers_of_two",
            "",
            "residue",
            "p_count_by_residue"
        ]
    );
    for column in [3, 7, 10] {
        let index: Vec<Data> = summary
            .rows()
            .skip(1)
            .map(|r| r[column].clone())
            .take_while(|c| *c != Data::Empty)
            .collect();
        let want: Vec<Data> = (0..index.len()).map(|i| Data::Float(i as f64)).collect();
        assert!(index.len() >= 5);
        assert_eq!(index, want);
    }
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
