//! CSV: the header row, then the rows laid out by [`super::rows`], numbers separated by commas.

use super::{Emitter, Report, rows};
use std::io::{self, Write};

/// The CSV emitter: one row per position, or `wide` values a row.
pub struct Csv {
    /// Values (or P-positions) a row; None for one a row with its index.
    pub wide: Option<usize>,
}

impl Emitter for Csv {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        writeln!(out, "{}", rows::header(report, self.wide).join(","))?;
        rows::for_each_row(report, self.wide, |row| {
            write!(out, "{}", row[0])?;
            for x in &row[1..] {
                write!(out, ",{x}")?;
            }
            writeln!(out)
        })
    }
}
