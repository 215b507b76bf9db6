//! CSV: a header row, then `n,g` (values), `n,outcome` (misère outcomes) or `k,n` (P-positions).

use super::{Emitter, Report};
use crate::table::ValueKind;
use std::io::{self, Write};

/// The CSV emitter.
pub struct Csv;

impl Emitter for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn write(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
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
