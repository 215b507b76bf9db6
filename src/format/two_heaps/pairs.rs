//! The P-pairs of a game of two heaps (Wythoff's): CSV (header `k,a,b`, a row per pair from k = 0), the b-file
//! of a_k (lines `k a_k` from k = 1: OEIS A000201, the lower Wythoff sequence, whose offset
//! is 1) and an `.npy` of shape (pairs, 2), row k holding a_k and b_k. Made as they are
//! written, from [`Pairs`].

use super::{decimal_lens_below, push_decimal};
use crate::format::{Format, npy};
use crate::game::wythoff::{Pairs, p_pair, pairs_below, pairs_with_larger_below};
use crate::report::PairsReport;
use std::io::{self, Write};

/// Pairs between two updates of the progress bar.
const PROGRESS_EVERY: u64 = 1 << 20;

/// Writes the pairs as CSV, b-file or npy, counting them on the report's progress.
pub fn write(format: Format, report: &PairsReport, out: &mut (dyn Write + Send)) -> io::Result<()> {
    let progress = &report.progress;
    progress.set(0);
    let pairs = Pairs::default().take(report.count as usize);
    match format {
        Format::Npy => {
            let width = npy::byte_width(largest(report.count));
            npy::write_header(out, width, &[report.count, 2], report.info.made.as_ref())?;
            let numbers = pairs.flat_map(|(k, a, b)| {
                if k % PROGRESS_EVERY == 0 {
                    progress.set(k);
                }
                [a, b]
            });
            npy::write_numbers(out, width, numbers)
        }
        Format::Csv | Format::Bfile => {
            let csv = format == Format::Csv;
            let mut block = Vec::with_capacity(1 << 16);
            if csv {
                block.extend_from_slice(b"k,a,b\n");
            }
            for (k, a, b) in pairs.skip(usize::from(!csv)) {
                push_decimal(&mut block, k);
                block.push(if csv { b',' } else { b' ' });
                push_decimal(&mut block, a);
                if csv {
                    block.push(b',');
                    push_decimal(&mut block, b);
                }
                block.push(b'\n');
                if block.len() >= 1 << 16 {
                    out.write_all(&block)?;
                    block.clear();
                }
                if k % PROGRESS_EVERY == 0 {
                    progress.set(k);
                }
            }
            out.write_all(&block)
        }
        other => unreachable!("{other:?} holds no P-pairs"),
    }
}

/// b_k of the last of `count` pairs (0 for none).
fn largest(count: u64) -> u64 {
    count.checked_sub(1).and_then(p_pair).map_or(0, |(_, b)| b)
}

/// The bytes of the pairs with a_k < n in `format` without the provenance an `.npy` header
/// records (0 for JSON, a few hundred bytes).
pub fn bytes(format: Format, n: u64) -> u128 {
    let count = pairs_below(n);
    let wide = u128::from(count);
    // Σ digits of a_k and of b_k over k < count: one each, and one more for each a_k (b_k)
    // at or above 10, 100, ….
    let digits_of = |below: fn(u64) -> u64| {
        (1..20).map(|d| 10u64.pow(d)).fold(wide, |sum, power| {
            sum + u128::from(count - below(power).min(count))
        })
    };
    match format {
        Format::Csv => {
            6 + decimal_lens_below(count)
                + digits_of(pairs_below)
                + digits_of(pairs_with_larger_below)
                + 3 * wide
        }
        Format::Bfile if count > 1 => {
            // Lines from k = 1: drop "0 0\n".
            decimal_lens_below(count) + digits_of(pairs_below) + 2 * wide - 4
        }
        Format::Npy => {
            let width = npy::byte_width(largest(count));
            let mut header = Vec::new();
            npy::write_header(&mut header, width, &[count, 2], None).expect("writes to memory");
            header.len() as u128 + 2 * wide * width as u128
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_those_written() {
        for n in [1, 2, 3, 10, 11, 100, 1001, 54_321] {
            for format in [Format::Csv, Format::Bfile, Format::Npy] {
                let info = crate::report::RunInfo {
                    game: "wythoff".into(),
                    n,
                    kind: crate::table::ValueKind::Grundy,
                    engine: "wythoff",
                    threads: 1,
                    elapsed_s: 0.0,
                    made: None,
                };
                let report = PairsReport::new(info, crate::progress::Progress::hidden());
                let mut written = Vec::new();
                write(format, &report, &mut written).unwrap();
                assert_eq!(
                    bytes(format, n),
                    written.len() as u128,
                    "{format:?}, n = {n}"
                );
            }
        }
    }
}
