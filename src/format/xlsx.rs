//! Excel workbook (`.xlsx`): the table as numbers on sheets of at most 1,048,576 rows —
//! "values", "values 2", … ("P-positions", "P-positions 2", … for `ppos`), each starting with
//! the CSV's header row — then a "summary" sheet with the JSON summary's fields. The table
//! sheets are written row by row to scratch files (constant memory) and the zip is streamed,
//! so memory stays bounded whatever the size.

use super::{Emitter, Report, json, panics, rows};
use crate::error::{Error, Result};
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
/// 17th, already more than a spreadsheet program handles comfortably. Longer tables are refused (see the README).
const MAX_NUMBERS: u64 = 1 << 24;
/// Deflate level of the zip: as small as the default (6) on these tables at half the time.
const COMPRESSION_LEVEL: u8 = 3;
/// Where the summary sheet's tables start: column D, after the field/value columns and a gap.
const TABLES_FROM_COLUMN: u16 = 3;

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
        return Err(Error::Input(format!(
            "--wide {k} needs {} columns but an xlsx sheet holds {SHEET_COLUMNS}; use --wide {} or less, or csv",
            k + 1,
            SHEET_COLUMNS - 1
        )));
    }
    if largest >= EXACT_UP_TO {
        return Err(Error::Input(format!(
            "xlsx cells hold integers exactly only below 2^53 and the positions or indexes here may reach {largest}; lower -n or --offset, or {alternatives}"
        )));
    }
    if let Some(count) = numbers.filter(|&count| count > MAX_NUMBERS) {
        return Err(Error::Input(format!(
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
        let mut workbook = Workbook::new();
        workbook.set_zip_compression_level(COMPRESSION_LEVEL);
        let bold = Format::new().set_bold();
        let written = (|| {
            if let Some(folder) = &self.scratch {
                workbook.set_tempdir(folder)?;
            }
            write_table(&mut workbook, report, self.wide, &bold)?;
            write_summary(workbook.add_worksheet(), &json::summary(report), &bold)?;
            workbook.save_to_writer(out)
        })();
        written.map_err(|e| match e {
            XlsxError::IoError(e) => e,
            e => io::Error::other(e),
        })
    }
}

/// The table sheets: each a bold, frozen header row, then up to `SHEET_ROWS - 1` rows.
fn write_table(
    workbook: &mut Workbook,
    report: &Report,
    wide: Option<usize>,
    bold: &Format,
) -> std::result::Result<(), XlsxError> {
    let name = match report {
        Report::Grundy(_) => "values",
        Report::Ppos(_) => "P-positions",
    };
    let header = rows::header(report, wide);
    let mut sheets = 1;
    add_table_sheet(workbook, name, &header, bold)?;
    let mut row = 1;
    rows::for_each_row(report, wide, |numbers| {
        if row == SHEET_ROWS {
            sheets += 1;
            add_table_sheet(workbook, &format!("{name} {sheets}"), &header, bold)?;
            row = 1;
        }
        let sheet = workbook.worksheet_from_index(sheets - 1)?;
        for (column, &x) in (0u16..).zip(numbers) {
            sheet.write_number(row, column, x as f64)?;
        }
        row += 1;
        Ok(())
    })
}

/// A table sheet named `name`, written row by row, with a bold header row that stays in view.
fn add_table_sheet(
    workbook: &mut Workbook,
    name: &str,
    header: &[String],
    bold: &Format,
) -> std::result::Result<(), XlsxError> {
    let sheet = workbook.add_worksheet_with_constant_memory()?;
    sheet.set_name(name)?;
    sheet.set_freeze_panes(1, 0)?;
    sheet.write_row_with_format(0, 0, header, bold)?;
    Ok(())
}

/// The summary sheet: the JSON summary's scalar fields as field/value rows (an object such as
/// `period` as `period.preperiod`, `period.period`), and its lists as tables side by side from
/// column D, each headed by its index (`value`, `k`, `residue`) and the lists' JSON names;
/// lists with the same index share a table.
fn write_summary(
    sheet: &mut Worksheet,
    summary: &Map<String, Value>,
    bold: &Format,
) -> std::result::Result<(), XlsxError> {
    sheet.set_name("summary")?;
    sheet.set_column_width(0, 26)?;
    sheet.write_row_with_format(0, 0, ["field", "value"], bold)?;
    let mut row = 1;
    let mut tables: Vec<SummaryTable> = Vec::new();
    for (key, value) in summary {
        match value {
            Value::Array(list) => match tables.last_mut() {
                Some((index, lists)) if *index == index_name(key) => lists.push((key, list)),
                _ => tables.push((index_name(key), vec![(key, list)])),
            },
            Value::Object(fields) => {
                for (field, value) in fields {
                    sheet.write_string(row, 0, format!("{key}.{field}"))?;
                    write_scalar(sheet, row, 1, value)?;
                    row += 1;
                }
            }
            value => {
                sheet.write_string(row, 0, key)?;
                write_scalar(sheet, row, 1, value)?;
                row += 1;
            }
        }
    }
    let mut column = TABLES_FROM_COLUMN;
    for (index, lists) in tables {
        sheet.write_string_with_format(0, column, index, bold)?;
        let length = lists.iter().map(|(_, list)| list.len()).max().unwrap_or(0);
        for i in 0..length {
            sheet.write_number(i as u32 + 1, column, i as f64)?;
        }
        for (name, list) in lists {
            column += 1;
            sheet.write_string_with_format(0, column, name, bold)?;
            sheet.set_column_width(column, name.len().max(8) as f64 + 2.0)?;
            for (i, value) in list.iter().enumerate() {
                if !value.is_null() {
                    write_scalar(sheet, i as u32 + 1, column, value)?;
                }
            }
        }
        column += 2;
    }
    Ok(())
}

/// Summary lists sharing one index column: the index's name, then each list's name and elements.
type SummaryTable<'a> = (&'static str, Vec<(&'a str, &'a [Value])>);

/// The index column of a summary list: what its element i stands for.
fn index_name(key: &str) -> &'static str {
    match key {
        "counts" | "first_occurrence" => "value",
        "p_count_at_powers_of_two" => "k",
        "p_count_by_residue" => "residue",
        _ => "index",
    }
}

/// A JSON scalar as a cell: numbers as numbers, booleans as booleans, null as `none`.
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
        Value::Null => sheet.write_string(row, column, "none"),
        other => sheet.write_string(row, column, other.to_string()),
    }?;
    Ok(())
}
