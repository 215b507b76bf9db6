//! OEIS b-file: lines `index value` separated by one space, `\n` endings, no header; read back
//! skipping blank lines and `#` comments, as the OEIS allows.

use super::read::{Layout, Parsed, text};
use super::{Contents, Emitter, Format, two_heaps};
use crate::report::Report;
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
            Report::Pairs(r) => return two_heaps::write_pairs(Format::Bfile, r, out),
            Report::Square(_) => unreachable!("a b-file holds no square table"),
        }
        Ok(())
    }
}

/// Reads a b-file: P-positions when `ppos` (indexes from any offset), values otherwise
/// (indexes from 0).
pub fn read(bytes: &[u8], ppos: bool) -> Parsed<Contents> {
    let layout = Layout {
        separator: b' ',
        per_row: 1,
        first_label: (!ppos).then_some(0),
        header: false,
        comments: true,
    };
    layout.contents(text(bytes)?, ppos)
}
