//! The formats of sweep rows: CSV (a header, then one row per game; empty fields for none,
//! lists separated by spaces) and JSON lines (one object per game, `null` for none, lists as
//! arrays). Both are written so that the parts of a sharded run concatenate to the whole: the
//! JSON lines as they are, the CSV parts after dropping every header but the first, each row's
//! `equivalent_to` named anew across the parts ([`RowFormat::regroup`]); [`RowFormat::indexes`]
//! reads the rows' indexes back, a row at a time.

use super::row::{COLUMNS, Classes, Row};
use crate::choice::Choice;
use crate::format::Extension;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::{self, BufRead, Write};
use std::iter::{from_fn, once};

/// The formats `sweep --format` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object a line (`.jsonl`).
    Json,
}

impl Choice for RowFormat {
    const ALL: &'static [RowFormat] = &[RowFormat::Csv, RowFormat::Json];

    fn name(self) -> &'static str {
        match self {
            RowFormat::Csv => "csv",
            RowFormat::Json => "json",
        }
    }

    fn help(self) -> &'static str {
        match self {
            RowFormat::Csv => "Comma-separated values with a header row",
            RowFormat::Json => "One JSON object a line (.jsonl)",
        }
    }
}

impl Extension for RowFormat {
    fn extension(self) -> &'static str {
        match self {
            RowFormat::Csv => "csv",
            RowFormat::Json => "jsonl",
        }
    }
}

/// The one field of a row that reading it back needs.
#[derive(Deserialize)]
struct Indexed {
    index: u64,
}

impl RowFormat {
    /// Writes `rows` in this format.
    pub fn write(self, rows: &[Row], out: &mut dyn Write) -> io::Result<()> {
        match self {
            RowFormat::Csv => {
                let mut csv = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::Any(b'\n'))
                    .from_writer(out);
                csv.write_record(COLUMNS)?;
                for row in rows {
                    csv.write_record(row.csv_fields())?;
                }
                csv.flush()
            }
            RowFormat::Json => {
                for row in rows {
                    serde_json::to_writer(&mut *out, row)?;
                    out.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// Copies the rows of a part written in this format (`bytes`) to `out`, each row's
    /// `equivalent_to` named anew by `classes` from its `values_hash`, so that the census spans
    /// every part merged; the CSV header only when `header`. Every other byte is as written.
    pub fn regroup(
        self,
        bytes: &[u8],
        header: bool,
        classes: &mut Classes,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let column = |name: &str| COLUMNS.iter().position(|c| *c == name).unwrap_or(0);
        let (game, equivalent, hash) = (
            column("game"),
            column("equivalent_to"),
            column("values_hash"),
        );
        match self {
            RowFormat::Csv => {
                let mut reader = csv::Reader::from_reader(bytes);
                let mut csv = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::Any(b'\n'))
                    .from_writer(out);
                if header {
                    csv.write_record(reader.headers()?)?;
                }
                for record in reader.into_records() {
                    let mut fields: Vec<String> = record?.iter().map(String::from).collect();
                    fields[equivalent] = classes.first(&fields[hash], &fields[game]);
                    csv.write_record(&fields)?;
                }
                csv.flush()
            }
            RowFormat::Json => {
                for line in bytes.split_inclusive(|&b| b == b'\n') {
                    let mut row: Map<String, Value> = serde_json::from_slice(line)?;
                    let text = |key: &str| row.get(key).and_then(Value::as_str).unwrap_or_default();
                    let first = classes.first(text(COLUMNS[hash]), text(COLUMNS[game]));
                    row.insert(COLUMNS[equivalent].into(), Value::from(first));
                    serde_json::to_writer(&mut *out, &row)?;
                    out.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// The index of each row that `reader` reads in this format, in file order, read a row at
    /// a time; an error item (the last) says why when the bytes are not rows of this format.
    pub fn indexes<'a>(
        self,
        reader: impl BufRead + 'a,
    ) -> Box<dyn Iterator<Item = std::result::Result<u64, String>> + 'a> {
        match self {
            RowFormat::Csv => {
                let mut reader = csv::ReaderBuilder::new().from_reader(reader);
                match reader.headers() {
                    Ok(header) if header.iter().eq(COLUMNS) => {}
                    Ok(_) => {
                        return Box::new(once(Err("the header is not that of sweep rows".into())));
                    }
                    Err(e) => return Box::new(once(Err(e.to_string()))),
                }
                Box::new(reader.into_records().map(|record| {
                    let record = record.map_err(|e| e.to_string())?;
                    record[0]
                        .parse()
                        .map_err(|_| format!("'{}' is not an index", &record[0]))
                }))
            }
            RowFormat::Json => {
                let (mut reader, mut line) = (reader, Vec::new());
                Box::new(from_fn(move || {
                    line.clear();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) => None,
                        Err(e) => Some(Err(e.to_string())),
                        Ok(_) => Some(match line.strip_suffix(b"\n") {
                            None => Err("the last line is not complete".into()),
                            Some(row) => serde_json::from_slice::<Indexed>(row)
                                .map(|row| row.index)
                                .map_err(|e| e.to_string()),
                        }),
                    }
                }))
            }
        }
    }
}
