//! The square table of a game of two heaps as a matrix: CSV (the header `x/y,0,1,…,n−1`, then row x
//! as `x,G(x,0),…,G(x,n−1)`), a two-dimensional `.npy` (n×n, C order: `g[x, y]`) and `.bin`
//! (the `.bin` layout with the game (`wythoff`) and n² positions, cell (x, y) at position x·n + y);
//! read back by `read.rs`.

use super::{decimal_lens_below, push_decimal};
use crate::format::{Format, bin, npy};
use crate::report::SquareReport;
use crate::table::packed::{PackedValues, pieces};
use crate::table::passes::Behind;
use rayon::prelude::*;
use std::io::{self, Write};

/// Rows of the CSV formatted at a time, in parallel.
const CSV_BATCH: usize = 64;

/// Writes the table as CSV, npy or bin.
pub fn write(
    format: Format,
    report: &SquareReport,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    let n = report.info.n;
    let values = &report.table.values;
    match format {
        Format::Csv => {
            let mut header = b"x/y".to_vec();
            for y in 0..n {
                header.push(b',');
                push_decimal(&mut header, y);
            }
            header.push(b'\n');
            out.write_all(&header)?;
            // Rows formatted in parallel, a batch at a time, written in order.
            let row = |x: u64| {
                let mut line = Vec::with_capacity(header.len() + n as usize);
                push_decimal(&mut line, x);
                values.each(x * n, (x + 1) * n, |v| {
                    line.push(b',');
                    push_decimal(&mut line, u64::from(v));
                });
                line.push(b'\n');
                line
            };
            // The rows written are released (a file-backed or mapped table's).
            let mut behind = Behind::default();
            for first in (0..n).step_by(CSV_BATCH) {
                let end = (first + CSV_BATCH as u64).min(n);
                let lines: Vec<Vec<u8>> = (first..end).into_par_iter().map(row).collect();
                lines.iter().try_for_each(|line| out.write_all(line))?;
                behind.passed(values, end * n);
            }
            Ok(())
        }
        Format::Npy => {
            let width = npy::byte_width(u64::from(report.stats.max_value));
            npy::write_header(out, width, &[n, n], report.info.made.as_ref())?;
            if values.bits() == 8 * width as u32 && cfg!(target_endian = "little") {
                // Stored as wide as the dtype: the table's own bytes, a piece at a time, each
                // released once written.
                pieces(0..n * n).try_for_each(|piece| {
                    values.read_once(piece, |piece| {
                        let bytes = bytemuck::cast_slice::<u64, u8>(values.words_of(piece.clone()));
                        out.write_all(&bytes[..(piece.end - piece.start) as usize * width])
                    })
                })
            } else {
                npy::write_numbers(out, width, values.iter().map(u64::from))
            }
        }
        Format::Bin => bin::write_table(out, 0, &report.info, values),
        other => unreachable!("{other:?} holds no square table"),
    }
}

/// The bytes of the table of side n ≥ 1 (values of `bits` bits in memory) in `format`, without
/// the provenance a header records: exact for bin; for CSV and npy the least they take, as each
/// row holds n distinct values and the largest is at least n − 1 (G(0, y) = y).
pub fn bytes(format: Format, game: &str, n: u64, bits: u32) -> u128 {
    let side = u128::from(n);
    match format {
        Format::Csv => {
            let labels = decimal_lens_below(n);
            let header = 3 + side + labels + 1;
            header + labels + side * (side + 1) + side * labels
        }
        Format::Npy => {
            let width = npy::byte_width(n - 1);
            let mut header = Vec::new();
            npy::write_header(&mut header, width, &[n, n], None).expect("writes to memory");
            header.len() as u128 + side * side * width as u128
        }
        Format::Bin => {
            let spec = (game.len() as u128).next_multiple_of(8);
            40 + spec + u128::from(PackedValues::words_for(n * n, bits)) * 8
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RunInfo;
    use crate::table::resident::tests::{rss, written_with};
    use crate::table::words::RELEASE_ALIGN;
    use crate::table::{Table, ValueKind};

    /// The CSV matrix releases the rows it has written: of a file-backed table it keeps the
    /// piece being written.
    #[test]
    fn the_csv_matrix_keeps_little_of_a_file_backed_table() {
        let n = 1 << 12;
        let (_dir, values) = written_with(n * n, 16, |c| ((c / n) ^ (c % n)) as u32);
        let info = RunInfo {
            game: "wythoff".to_string(),
            n,
            kind: ValueKind::Grundy,
            engine: "wythoff",
            threads: 1,
            elapsed_s: 0.0,
            made: None,
        };
        let table = Table {
            kind: ValueKind::Grundy,
            values,
            period: None,
            shape: crate::table::Shape::Square { side: n },
        };
        let report = SquareReport::new(table, info);
        let mut csv = Vec::new();
        write(Format::Csv, &report, &mut csv).unwrap();
        let kept = rss(&report.table.values);
        assert!(
            kept <= 4 * RELEASE_ALIGN,
            "{kept} of {} bytes kept",
            2 * n * n
        );
        // The last row: G(n − 1, y) = (n − 1) XOR y here, 0 at y = n − 1.
        let text = String::from_utf8(csv).unwrap();
        let last = text.trim_end().rsplit('\n').next().unwrap();
        assert!(last.starts_with(&format!("{},{},", n - 1, n - 1)) && last.ends_with(",0"));
    }
}
