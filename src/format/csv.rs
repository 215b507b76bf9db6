//! CSV: the header row, then the rows laid out by [`super::rows`], numbers separated by commas;
//! read back with the `csv` crate, the layout told by the header.

use super::read::{Layout, Parsed, shown, text};
use super::{Contents, Emitter, Format, rows, two_heaps};
use crate::report::Report;
use crate::table::ValueKind;
use std::io::{self, Write};

/// The CSV emitter: one row per position, or `wide` values a row.
pub struct Csv {
    /// Values (or P-positions) a row; None for one a row with its index.
    pub wide: Option<usize>,
}

impl Emitter for Csv {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Square(r) => return two_heaps::write_square(Format::Csv, r, out),
            Report::Pairs(r) => return two_heaps::write_pairs(Format::Csv, r, out),
            Report::Grundy(_) | Report::Ppos(_) => {}
        }
        writeln!(out, "{}", rows::header(report, self.wide).join(","))?;
        rows::write_lines(report, self.wide, b',', out)
    }
}

/// Reads a CSV table nimsieve wrote; its header says whether it holds values (`n,g`), misère
/// outcomes (`n,outcome`, which sets `kind`) or P-positions (`k,n`), one or `--wide K` a row.
pub fn read(bytes: &[u8], kind: &mut ValueKind) -> Parsed<Contents> {
    let text = text(bytes)?;
    let header = text.lines().next().ok_or("it is empty")?.trim();
    let columns: Vec<String> = header.split(',').map(str::to_string).collect();
    let wide = Some(columns.len() - 1).filter(|&k| k > 0);
    let layouts = [
        Some(ValueKind::Grundy),
        Some(ValueKind::MisereOutcome),
        None,
    ]
    .into_iter()
    .flat_map(|listed| [(listed, None), (listed, wide)]);
    for (listed, wide) in layouts {
        if rows::columns(listed, wide) != columns {
            continue;
        }
        let layout = Layout {
            separator: b',',
            per_row: wide.unwrap_or(1) as u64,
            first_label: listed.map(|_| 0),
            header: true,
            comments: false,
        };
        // Only the one-a-row header of misère outcomes names its kind.
        if listed == Some(ValueKind::MisereOutcome) && wide.is_none() {
            *kind = ValueKind::MisereOutcome;
        }
        return layout.contents(text, listed.is_none());
    }
    Err(format!(
        "unknown header '{}' (expected n,g or n,outcome or k,n, or n,+0,+1,… or k,+0,+1,… of a wide layout)",
        shown(header)
    ))
}
