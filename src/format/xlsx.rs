//! Excel workbook (`.xlsx`): the table as numbers on sheets of at most 1,048,576 rows —
//! "values", "values 2", … ("P-positions", "P-positions 2", … for `ppos`), each starting with
//! the CSV's header row — then a "summary" sheet with the JSON summary's fields in three
//! columns `field`, `key`, `value`, one row a number or text (continued on "summary 2", … in
//! the rare case it needs more rows). Every sheet is written row by row to a scratch file
//! (constant memory) and the zip is streamed, so memory stays bounded whatever the size.

use super::{Emitter, json, panics, rows};
use crate::error::{Error, Param, Result};
use crate::period::Period;
use crate::report::Report;
use crate::text;
use rust_xlsxwriter::{Format, Workbook, Worksheet, XlsxError};
use serde_json::{Map, Value};
use std::io::{self, Write};
use std::path::PathBuf;

/// Rows of one sheet, the header row included (the limit of Excel and LibreOffice).
const SHEET_ROWS: u32 = 1_048_576;
/// Columns of one sheet (the limit of Excel and LibreOffice).
const SHEET_COLUMNS: u64 = 16_384;
/// Numbers up to this are exact in a cell (a double); positions and indexes must stay below it.
const EXACT_UP_TO: u64 = 1 << 53;
/// The most numbers (values or P-positions) written, 2^24: 16 full sheets and 16 rows on a
/// 17th, already more than a spreadsheet program handles comfortably. Longer tables are refused (see docs/formats.md).
const MAX_NUMBERS: u64 = 1 << 24;
/// Deflate level of the zip: as small as the default (6) on these tables at half the time.
const COMPRESSION_LEVEL: u8 = 3;
/// Widths of the summary sheet's columns `field`, `key` and `value`, in characters.
const SUMMARY_WIDTHS: [f64; 3] = [26.0, 11.0, 24.0];

/// The xlsx emitter.
pub struct Xlsx {
    /// K values (or P-positions) a row, as `--wide K` in CSV.
    pub wide: Option<usize>,
    /// Folder for the sheets' scratch files; None: the system's temporary folder.
    pub scratch: Option<PathBuf>,
}

/// Refuses a table that a workbook cannot hold or that is too long for this format: rows whose
/// positions and indexes reach `largest`, `numbers` values or P-positions (None when not yet
/// known), `wide` numbers a row.
pub fn check_size(largest: u64, numbers: Option<u64>, wide: Option<usize>) -> Result<()> {
    let alternatives = "use csv, npy or bin instead";
    if let Some(k) = wide.filter(|&k| k as u64 >= SHEET_COLUMNS) {
        return Err(Error::invalid(
            Param::Wide,
            text!(
                Param::Wide.given(k),
                format!(
                    " needs {} columns but an xlsx sheet holds {SHEET_COLUMNS}; use ",
                    k + 1
                ),
                Param::Wide.given(SHEET_COLUMNS - 1),
                " or less, or csv",
            ),
        ));
    }
    if largest >= EXACT_UP_TO {
        return Err(Error::unsupported(text!(
            format!(
                "xlsx cells hold integers exactly only below 2^53 and the positions or indexes here may reach {largest}; lower "
            ),
            Param::Size,
            " or ",
            Param::Offset,
            format!(", or {alternatives}"),
        )));
    }
    if let Some(count) = numbers.filter(|&count| count > MAX_NUMBERS) {
        return Err(Error::unsupported(format!(
            "xlsx holds at most 2^24 = {MAX_NUMBERS} numbers, this table has {count}; {alternatives}"
        )));
    }
    Ok(())
}

impl Emitter for Xlsx {
    fn check(&self, report: &Report) -> Result<()> {
        check_size(
            rows::largest_number(report),
            Some(rows::number_count(report)),
            self.wide,
        )
    }

    /// rust_xlsxwriter panics when it cannot write a sheet's scratch file (a full disk): that
    /// is an I/O error here, with no panic message.
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        let folder = self.scratch.clone().unwrap_or_else(std::env::temp_dir);
        let doing = format!("writing a scratch file in '{}'", folder.display());
        panics::as_io_error(&doing, || self.write_workbook(report, out))
    }
}

impl Xlsx {
    /// The workbook, streamed to `out`.
    fn write_workbook(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        let mut out = StopAtError {
            inner: out,
            failed: None,
        };
        let mut workbook = Workbook::new();
        workbook.set_zip_compression_level(COMPRESSION_LEVEL);
        let bold = Format::new().set_bold();
        if let Some(folder) = &self.scratch {
            std::fs::create_dir_all(folder)?;
        }
        let written = (|| {
            if let Some(folder) = &self.scratch {
                workbook.set_tempdir(folder)?;
            }
            write_table(&mut workbook, report, self.wide, &bold)?;
            write_summary(&mut workbook, &json::summary(report), &bold)?;
            workbook.save_to_writer(&mut out)
        })();
        // The first error of the output is the one to report, whatever the library made of it.
        if let Some(e) = out.failed.take() {
            return Err(e);
        }
        written.map_err(|e| match e {
            XlsxError::IoError(e) => e,
            e => io::Error::other(e),
        })
    }
}

/// A writer that, once a write has failed, takes every later write without writing it: the
/// zip library, dropped after the error, finishes its archive into it instead of printing a
/// second failure to standard error. The first error is kept for the caller.
struct StopAtError<W> {
    inner: W,
    failed: Option<io::Error>,
}

impl<W: Write> Write for StopAtError<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.failed.is_some() {
            return Ok(buf.len());
        }
        self.inner.write(buf).map_err(|e| self.fail(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.failed.is_some() {
            return Ok(());
        }
        self.inner.flush().map_err(|e| self.fail(e))
    }
}

impl<W> StopAtError<W> {
    /// Keeps `e` (the first error) and returns an error of the same kind to the writer's user.
    fn fail(&mut self, e: io::Error) -> io::Error {
        let again = io::Error::new(e.kind(), e.to_string());
        if e.kind() != io::ErrorKind::Interrupted {
            self.failed = Some(e);
        }
        again
    }
}

/// The table sheets: the CSV's header and rows, as numbers.
fn write_table(
    workbook: &mut Workbook,
    report: &Report,
    wide: Option<usize>,
    bold: &Format,
) -> std::result::Result<(), XlsxError> {
    let name = match report {
        Report::Grundy(_) => "values",
        Report::Ppos(_) => "P-positions",
        Report::Square(_) | Report::Pairs(_) => unreachable!("xlsx holds no table of two heaps"),
    };
    let header = rows::header(report, wide);
    let mut sheets = Sheets::new(workbook, name, &header, &[], bold)?;
    rows::for_each_row(report, wide, |numbers| {
        let (sheet, row) = sheets.next_row(workbook)?;
        for (column, &x) in (0u16..).zip(numbers) {
            sheet.write_number(row, column, x as f64)?;
        }
        Ok(())
    })
}

/// The summary sheet: the JSON summary's fields as rows `field | key | value` under that
/// header, one number or text a row, so that every column has a name of its own. First one row for each
/// scalar field, in the JSON's order, with no key (`game | | squares`); an object field one row
/// for each entry, keyed by the entry's name (`period | preperiod | 0`), and `period` these
/// same three rows (preperiod, period, saltus) with no value when it is null (no period
/// proven). Then the lists, in the JSON's order, one row an element, keyed by its index
/// (`counts | 2 | 112`); a list of lists one row an element of each inner list, the field
/// naming the outer index (`counts_at_powers_of_two[3] | 1 | 2`). A JSON null is an empty cell.
fn write_summary(
    workbook: &mut Workbook,
    summary: &Map<String, Value>,
    bold: &Format,
) -> std::result::Result<(), XlsxError> {
    let header = ["field", "key", "value"].map(String::from);
    let mut sheets = Sheets::new(workbook, "summary", &header, &SUMMARY_WIDTHS, bold)?;
    let mut write_row = |field: &str, key: &Value, value: &Value| {
        let (sheet, row) = sheets.next_row(workbook)?;
        sheet.write_string(row, 0, field)?;
        write_scalar(sheet, row, 1, key)?;
        write_scalar(sheet, row, 2, value)
    };
    let (lists, scalars): (Vec<_>, Vec<_>) = summary.iter().partition(|(_, v)| v.is_array());
    for (field, value) in scalars {
        match value {
            Value::Object(entries) => {
                for (key, value) in entries {
                    write_row(field, &Value::from(key.as_str()), value)?;
                }
            }
            Value::Null if field == "period" => {
                for key in period_entries() {
                    write_row(field, &Value::from(key), &Value::Null)?;
                }
            }
            value => write_row(field, &Value::Null, value)?,
        }
    }
    for (field, list) in lists {
        for (index, value) in list.as_array().into_iter().flatten().enumerate() {
            match value {
                Value::Array(inner) => {
                    for (key, value) in inner.iter().enumerate() {
                        write_row(&format!("{field}[{index}]"), &Value::from(key), value)?;
                    }
                }
                value => write_row(field, &Value::from(index), value)?,
            }
        }
    }
    Ok(())
}

/// The names of `period`'s entries, as the JSON summary has them when a period is proven.
fn period_entries() -> Vec<String> {
    match serde_json::to_value(Period::pure(0, 0)) {
        Ok(Value::Object(entries)) => entries.into_iter().map(|(key, _)| key).collect(),
        _ => Vec::new(),
    }
}

/// A JSON scalar as a cell: numbers as numbers, booleans as booleans, text as text; null
/// leaves the cell empty.
fn write_scalar(
    sheet: &mut Worksheet,
    row: u32,
    column: u16,
    value: &Value,
) -> std::result::Result<(), XlsxError> {
    match value {
        Value::Number(x) => sheet.write_number(row, column, x.as_f64().unwrap_or(f64::NAN)),
        Value::Bool(b) => sheet.write_boolean(row, column, *b),
        Value::String(s) => sheet.write_string(row, column, s),
        Value::Null => return Ok(()),
        other => sheet.write_string(row, column, other.to_string()),
    }?;
    Ok(())
}

/// Sheets named `name`, `name 2`, `name 3`, … that take rows in order, written with constant
/// memory: each starts with the header row, in bold and frozen so it stays in view, and a full
/// sheet continues on the next.
struct Sheets<'a> {
    /// The first sheet's name; the others add " 2", " 3", ….
    name: &'a str,
    /// The header row of every sheet.
    header: &'a [String],
    /// Widths of the first columns, in characters (the others keep the default).
    widths: &'a [f64],
    /// The header's format.
    bold: Format,
    /// Sheets added so far.
    count: usize,
    /// The workbook's index of the last sheet added, the one being written.
    index: usize,
    /// The next row to write on it.
    row: u32,
}

impl<'a> Sheets<'a> {
    /// Adds the first sheet to `workbook`.
    fn new(
        workbook: &mut Workbook,
        name: &'a str,
        header: &'a [String],
        widths: &'a [f64],
        bold: &Format,
    ) -> std::result::Result<Self, XlsxError> {
        let mut sheets = Sheets {
            name,
            header,
            widths,
            bold: bold.clone(),
            count: 0,
            index: 0,
            row: 0,
        };
        sheets.add(workbook)?;
        Ok(sheets)
    }

    /// Adds the next sheet, with its header row.
    fn add(&mut self, workbook: &mut Workbook) -> std::result::Result<(), XlsxError> {
        self.count += 1;
        self.index = workbook.worksheets().len();
        let sheet = workbook.add_worksheet_with_constant_memory()?;
        if self.count == 1 {
            sheet.set_name(self.name)?;
        } else {
            sheet.set_name(format!("{} {}", self.name, self.count))?;
        }
        for (column, &width) in (0u16..).zip(self.widths) {
            sheet.set_column_width(column, width)?;
        }
        sheet.set_freeze_panes(1, 0)?;
        sheet.write_row_with_format(0, 0, self.header, &self.bold)?;
        self.row = 1;
        Ok(())
    }

    /// The sheet and row the next row goes to: the row after the last written, or the first
    /// after the header of a new sheet when the current one is full.
    fn next_row<'w>(
        &mut self,
        workbook: &'w mut Workbook,
    ) -> std::result::Result<(&'w mut Worksheet, u32), XlsxError> {
        if self.row == SHEET_ROWS {
            self.add(workbook)?;
        }
        let row = self.row;
        self.row += 1;
        Ok((workbook.worksheet_from_index(self.index)?, row))
    }
}
