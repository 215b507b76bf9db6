//! The rows of the tabular formats (CSV, b-file and xlsx): a header, then one row per position — `n,g`,
//! `n,outcome` (misère) or `k,n` (P-positions, k from `--offset`) — or, with `--wide K`, the
//! header `n,+0,…,+(K−1)` (`k,…` for P-positions) and rows of a first index and K numbers.

use crate::report::Report;
use crate::table::ValueKind;
use std::io::{self, Write};

/// Bytes of text gathered before they are handed to the writer.
const CHUNK: usize = 1 << 16;

/// The column names of the header row.
pub fn header(report: &Report, wide: Option<usize>) -> Vec<String> {
    match report {
        Report::Grundy(r) => columns(Some(r.info.kind), wide),
        Report::Ppos(_) => columns(None, wide),
        Report::Square(_) | Report::Pairs(_) => unreachable!("rows of one heap"),
    }
}

/// The header of a table of values of `kind`, or of P-positions (None), with `wide` numbers
/// a row: `n,g`, `n,outcome`, `k,n`, or `n,+0,…` and `k,+0,…`. Readers match a file's header
/// against these.
pub fn columns(kind: Option<ValueKind>, wide: Option<usize>) -> Vec<String> {
    let index = if kind.is_some() { "n" } else { "k" };
    let numbers = match (kind, wide) {
        (_, Some(k)) => (0..k).map(|i| format!("+{i}")).collect(),
        (Some(ValueKind::Grundy), None) => vec!["g".to_string()],
        (Some(ValueKind::MisereOutcome), None) => vec!["outcome".to_string()],
        (None, None) => vec!["n".to_string()],
    };
    std::iter::once(index.to_string()).chain(numbers).collect()
}

/// The numbers the report's rows hold: values, or P-positions.
pub fn number_count(report: &Report) -> u64 {
    match report {
        Report::Grundy(r) => r.info.n,
        Report::Ppos(r) => r.positions.len() as u64,
        Report::Square(_) | Report::Pairs(_) => unreachable!("rows of one heap"),
    }
}

/// The largest number in the rows' columns: the last position, or the last index `k` of the
/// P-positions counted from `--offset`.
pub fn largest_number(report: &Report) -> u64 {
    let last_position = report.n().saturating_sub(1);
    match report {
        Report::Grundy(_) => last_position,
        Report::Ppos(r) => {
            let last_index = r
                .offset
                .saturating_add((r.positions.len() as u64).saturating_sub(1));
            last_index.max(last_position)
        }
        Report::Square(_) | Report::Pairs(_) => unreachable!("rows of one heap"),
    }
}

/// Calls `row` on each row below the header, in order: the row's first index, then its numbers.
pub fn for_each_row<E: From<std::io::Error>>(
    report: &Report,
    wide: Option<usize>,
    mut row: impl FnMut(&[u64]) -> Result<(), E>,
) -> Result<(), E> {
    match (report, wide) {
        (Report::Grundy(r), None) => {
            for (x, v) in r.values()?.iter().enumerate() {
                row(&[x as u64, u64::from(v)])?;
            }
            Ok(())
        }
        (Report::Ppos(r), None) => {
            for (k, &p) in r.positions.iter().enumerate() {
                row(&[k as u64 + r.offset, p])?;
            }
            Ok(())
        }
        (Report::Grundy(r), Some(k)) => wide_rows(k, 0, r.values()?.iter().map(u64::from), row),
        (Report::Ppos(r), Some(k)) => wide_rows(k, r.offset, r.positions.iter().copied(), row),
        (Report::Square(_) | Report::Pairs(_), _) => unreachable!("rows of one heap"),
    }
}

/// Writes the rows below the header ([`for_each_row`]) as lines of decimal numbers separated
/// by `separator`, gathered into large writes.
pub fn write_lines(
    report: &Report,
    wide: Option<usize>,
    separator: u8,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    let mut text = Vec::with_capacity(2 * CHUNK);
    let mut digits = itoa::Buffer::new();
    for_each_row(report, wide, |row| {
        for (i, &number) in row.iter().enumerate() {
            if i > 0 {
                text.push(separator);
            }
            text.extend_from_slice(digits.format(number).as_bytes());
        }
        text.push(b'\n');
        if text.len() >= CHUNK {
            out.write_all(&text)?;
            text.clear();
        }
        Ok::<_, io::Error>(())
    })?;
    out.write_all(&text)
}

/// Rows of `k` numbers, each after its first index, counted from `first` (the last row may
/// be shorter).
fn wide_rows<E>(
    k: usize,
    mut first: u64,
    numbers: impl Iterator<Item = u64>,
    mut row: impl FnMut(&[u64]) -> Result<(), E>,
) -> Result<(), E> {
    let mut numbers = numbers.peekable();
    let mut buffer = Vec::with_capacity(k + 1);
    while numbers.peek().is_some() {
        buffer.clear();
        buffer.push(first);
        buffer.extend(numbers.by_ref().take(k));
        row(&buffer)?;
        // Past the last row the index may pass 2^64 - 1; it is not used then.
        first = first.wrapping_add(k as u64);
    }
    Ok(())
}
