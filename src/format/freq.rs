//! `freq`: how many of the heaps 1 to 2^k have each value, for every 2^k < n, as plain text to
//! compare line by line with published frequency tables (which count those heaps). One block a
//! power of two, in increasing order, separated by a blank line: the line `n = 2^k` (the
//! number, as `n = 1024`), then one line `value count` for each value that occurs among those
//! heaps, by value.
//! Written from the report's counts, for `grundy` only (write only: nothing reads it back).
//! When values reach [`LISTED_VALUES`] the counts are not kept, and the file is one line
//! starting with `#` that says so.

use super::Emitter;
use crate::analysis::summary::LISTED_VALUES;
use crate::report::Report;
use std::io::{self, Write};

/// The frequency table emitter.
pub struct Freq;

impl Emitter for Freq {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        let Report::Grundy(r) = report else {
            return Ok(());
        };
        if !r.stats.listed {
            // A line that no frequency table has, rather than an empty file.
            return writeln!(
                out,
                "# values reach {}: the counts of each value are kept only below {LISTED_VALUES}",
                r.stats.max_value
            );
        }
        write_blocks(&r.stats.counts_at_powers_of_two, out)
    }
}

/// Writes one block a power of two, `counts_at_powers_of_two[k]` holding the count of each
/// value among the heaps 1 to 2^k: the whole file of a run whose values are listed.
pub fn write_blocks(
    counts_at_powers_of_two: &[Vec<u64>],
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    for (k, counts) in counts_at_powers_of_two.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(out, "n = {}", 1u64 << k)?;
        for (value, count) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
            writeln!(out, "{value} {count}")?;
        }
    }
    Ok(())
}
