//! OEIS b-file: lines `index value` separated by one space, `\n` endings, no header; read back
//! skipping blank lines and `#` comments, as the OEIS allows.

use super::read::{Layout, Parsed, text};
use super::{Contents, Emitter, Format, rows, two_heaps};
use crate::report::Report;
use std::io::{self, Write};

/// The b-file emitter.
pub struct Bfile;

impl Emitter for Bfile {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(_) | Report::Ppos(_) => rows::write_lines(report, None, b' ', out),
            Report::Pairs(r) => two_heaps::write_pairs(Format::Bfile, r, out),
            Report::Square(_) => unreachable!("a b-file holds no square table"),
        }
    }
}

/// Reads a b-file: P-positions when `ppos` (indexes from any offset), values otherwise
/// (indexes from `first`).
pub fn read(bytes: &[u8], ppos: bool, first: u64) -> Parsed<Contents> {
    let layout = Layout {
        separator: b' ',
        per_row: 1,
        first_label: (!ppos).then_some(first),
        header: false,
        comments: true,
    };
    layout.contents(text(bytes)?, ppos)
}

/// The index of a b-file's first entry (its offset, in the OEIS's words): the first number of
/// its first line that is neither blank nor a comment; None when there is none.
pub fn first_index(bytes: &[u8]) -> Option<u64> {
    text(bytes)
        .ok()?
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))?
        .split_ascii_whitespace()
        .next()?
        .parse()
        .ok()
}
