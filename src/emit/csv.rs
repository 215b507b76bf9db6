//! CSV: a header row, then `n,g` (values), `n,outcome` (misère outcomes) or `k,n` (P-positions).

use super::{Emitter, Report};
use crate::table::ValueKind;
use std::io::{self, Write};

/// The CSV emitter: one row per position, or `wide` values a row.
pub struct Csv {
    /// Values (or P-positions) a row; None for one a row with its index.
    pub wide: Option<usize>,
}

impl Emitter for Csv {
    fn write(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        if let Some(k) = self.wide {
            return match report {
                Report::Grundy(r) => write_wide(out, "n", k, r.table.iter().map(u64::from)),
                Report::Ppos(r) => write_wide(out, "k", k, r.positions.iter().copied()),
            };
        }
        match report {
            Report::Grundy(r) => {
                let column = match r.info.kind {
                    ValueKind::Grundy => "g",
                    ValueKind::Outcome => "outcome",
                };
                writeln!(out, "n,{column}")?;
                for (x, v) in r.table.iter().enumerate() {
                    writeln!(out, "{x},{v}")?;
                }
            }
            Report::Ppos(r) => {
                writeln!(out, "k,n")?;
                for (k, p) in r.positions.iter().enumerate() {
                    writeln!(out, "{},{p}", k as u64 + r.offset)?;
                }
            }
        }
        Ok(())
    }
}

/// Rows of `k` numbers: a header `first,+0,+1,…`, then each row's first index and its numbers.
fn write_wide(
    out: &mut dyn Write,
    index: &str,
    k: usize,
    numbers: impl Iterator<Item = u64>,
) -> io::Result<()> {
    let columns: Vec<String> = (0..k).map(|i| format!("+{i}")).collect();
    writeln!(out, "{index},{}", columns.join(","))?;
    let mut numbers = numbers.peekable();
    let mut row = 0u64;
    while numbers.peek().is_some() {
        write!(out, "{}", row * k as u64)?;
        for x in numbers.by_ref().take(k) {
            write!(out, ",{x}")?;
        }
        writeln!(out)?;
        row += 1;
    }
    Ok(())
}
