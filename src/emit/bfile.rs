//! OEIS b-file: lines `index value` separated by one space, `\n` endings, no header.

use super::{Emitter, Report};
use std::io::{self, Write};

/// The b-file emitter.
pub struct Bfile;

impl Emitter for Bfile {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                for (x, v) in r.table.iter().enumerate() {
                    writeln!(out, "{x} {v}")?;
                }
            }
            Report::Ppos(r) => {
                for (k, p) in r.positions.iter().enumerate() {
                    writeln!(out, "{} {p}", k as u64 + r.offset)?;
                }
            }
        }
        Ok(())
    }
}
