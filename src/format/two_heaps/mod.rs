//! Tables of a game of two heaps in files: the square of G(x, y) ([`SquareReport`]: a CSV
//! matrix, a 2-D `.npy`, a `.bin`, a JSON summary) and the P-pairs ([`PairsReport`]: CSV
//! `k,a,b`, a b-file of a_k, an `n`×2 `.npy`, a JSON summary), the layouts the formats give
//! these shapes. Both are streamed: the square from its packed words, the pairs straight from
//! their recurrence, so 10^10 pairs need no memory. The size of every output is known before
//! it is written (for the square, its least), so a run that cannot fit on its disk is refused
//! before it starts. `read.rs` reads both back.

mod matrix;
mod pairs;
mod read;
mod summary;

pub use read::{Grid, Stated, read, stated};
pub use summary::{PairsSummary, TableSummary};

use super::{Destination, Format, is_special};
use crate::error::{Error, Param, Result};
use crate::regular_file::folder_of;
use crate::report::{PairsReport, SquareReport};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The bytes `format` takes for the square table of `game` of side `n` whose values take
/// `bits` bits in memory: at least this (`bin` and `npy` add their provenance, a few hundred
/// bytes; `csv` and `npy` depend on the values too), 0 for `json` (a few kilobytes).
pub fn square_bytes(format: Format, game: &str, n: u64, bits: u32) -> u128 {
    matrix::bytes(format, game, n, bits)
}

/// The bytes `format` takes for the P-pairs with a_k < `n` (and the provenance an `.npy`
/// header records, a few hundred bytes).
pub fn pair_bytes(format: Format, n: u64) -> u128 {
    pairs::bytes(format, n)
}

/// Refuses outputs that do not fit on their disks: `bytes` of each format written to a file,
/// and the bytes of a work file in its folder (`work`), all on disk together until the last
/// output is renamed into place.
pub fn check_room(
    destinations: &[(Format, Destination)],
    bytes: impl Fn(Format) -> u128,
    work: Option<(&Path, u128)>,
) -> Result<()> {
    // Per folder: the bytes, and whether the work file is among them.
    let mut needs: Vec<(PathBuf, u128, bool)> = Vec::new();
    let files = destinations
        .iter()
        .filter_map(|(format, destination)| match destination {
            Destination::File(path) if !is_special(path) => {
                Some((folder_of(path), bytes(*format), false))
            }
            _ => None,
        });
    let work = work.map(|(folder, size)| (folder, size, true));
    for (folder, size, is_work) in files.chain(work) {
        match needs.iter_mut().find(|(f, ..)| f == folder) {
            Some((_, total, with_work)) => {
                *total += size;
                *with_work |= is_work;
            }
            None => needs.push((folder.to_path_buf(), size, is_work)),
        }
    }
    for (folder, total, with_work) in needs {
        let free = fs4::available_space(&folder)
            .map_err(|e| Error::io("cannot query free space of", &folder, e))?;
        if total > u128::from(free) {
            return Err(Error::NoRoom {
                what: match with_work {
                    true => "the outputs and the table's work file",
                    false => "the outputs",
                }
                .into(),
                folder,
                needed: total,
                free: u128::from(free),
                fix: crate::text!(
                    "use a smaller ",
                    Param::Size,
                    ", fewer formats, or free disk space"
                ),
            });
        }
    }
    Ok(())
}

/// Writes the square in `format` (csv, npy, bin or json) to `out`.
pub fn write_square(
    format: Format,
    report: &SquareReport,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    match format {
        Format::Json => summary::write_json(&TableSummary::of(report), out),
        _ => matrix::write(format, report, out),
    }
}

/// Writes the pairs in `format` (csv, bfile, npy or json) to `out`, counting them on the
/// report's progress.
pub fn write_pairs(
    format: Format,
    report: &PairsReport,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    match format {
        Format::Json => summary::write_json(&PairsSummary::of(report), out),
        _ => pairs::write(format, report, out),
    }
}

/// "00", "01", …, "99": two digits at a time.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// Appends the decimal digits of `x`, written in place two at a time (tables of billions of
/// numbers spend most of their time here).
fn push_decimal(line: &mut Vec<u8>, mut x: u64) {
    let end = line.len() + x.checked_ilog10().unwrap_or(0) as usize + 1;
    line.resize(end, b'0');
    let mut at = end;
    while x >= 100 {
        let pair = 2 * (x % 100) as usize;
        x /= 100;
        at -= 2;
        line[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if x >= 10 {
        line[at - 2..at].copy_from_slice(&DIGIT_PAIRS[2 * x as usize..2 * x as usize + 2]);
    } else {
        line[at - 1] = b'0' + x as u8;
    }
}

/// The number of decimal digits of all k, 0 ≤ k < m: m digits, and one more for each k ≥ 10,
/// each k ≥ 100, ….
fn decimal_lens_below(m: u64) -> u128 {
    (1..20)
        .map(|d| 10u64.pow(d))
        .fold(u128::from(m), |sum, power| {
            sum + u128::from(m.saturating_sub(power))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        let mut line = Vec::new();
        for x in [0, 7, 10, 99, 12345, u64::MAX] {
            push_decimal(&mut line, x);
            line.push(b' ');
        }
        assert_eq!(line, b"0 7 10 99 12345 18446744073709551615 ");
        for m in [0, 1, 9, 10, 11, 100, 1234] {
            let sum: usize = (0..m).map(|k| k.to_string().len()).sum();
            assert_eq!(decimal_lens_below(m), sum as u128, "m = {m}");
        }
    }
}
