//! The formats of sweep rows: CSV (a header, then one row per game; empty fields for none,
//! lists separated by spaces) and JSON lines (one object per game, `null` for none, lists as
//! arrays). Both are written so that the parts of a sharded run concatenate to the whole: the
//! JSON lines as they are, the CSV parts after dropping every header but the first.

use super::row::{COLUMNS, Row};
use crate::choice::Choice;
use crate::format::Extension;
use std::io::{self, Write};

/// The formats `sweep --format` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
}
