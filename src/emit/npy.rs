//! NumPy `.npy` (format 1.0): a one-dimensional array of the smallest unsigned dtype that holds
//! the data — the values (`grundy`) or the P-positions (`ppos`) — loadable with
//! `numpy.load(path, mmap_mode="r")`.

use super::{Emitter, Report};
use std::io::{self, Write};

/// The `.npy` emitter.
pub struct Npy;

impl Emitter for Npy {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                let width = byte_width(u64::from(r.stats.max_value));
                write_header(out, width, r.table.len())?;
                write_numbers(out, width, r.table.iter().map(u64::from))
            }
            Report::Ppos(r) => {
                let width = byte_width(r.positions.last().copied().unwrap_or(0));
                write_header(out, width, r.positions.len() as u64)?;
                write_numbers(out, width, r.positions.iter().copied())
            }
        }
    }
}

/// Bytes of the smallest unsigned integer type that holds `max`.
pub fn byte_width(max: u64) -> usize {
    match max {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xffff_ffff => 4,
        _ => 8,
    }
}

/// The magic, version and header dict, padded so the data starts at a multiple of 64 bytes.
fn write_header(out: &mut dyn Write, width: usize, len: u64) -> io::Result<()> {
    let dict = format!("{{'descr': '<u{width}', 'fortran_order': False, 'shape': ({len},), }}");
    let unpadded = 10 + dict.len() + 1;
    let padding = unpadded.next_multiple_of(64) - unpadded;
    let header_len = u16::try_from(dict.len() + padding + 1).expect("short header");
    out.write_all(b"\x93NUMPY\x01\x00")?;
    out.write_all(&header_len.to_le_bytes())?;
    out.write_all(dict.as_bytes())?;
    out.write_all(&vec![b' '; padding])?;
    out.write_all(b"\n")
}

/// Numbers as little-endian integers of `width` bytes, written in blocks.
pub fn write_numbers(
    out: &mut dyn Write,
    width: usize,
    numbers: impl Iterator<Item = u64>,
) -> io::Result<()> {
    let mut block = Vec::with_capacity(1 << 16);
    for x in numbers {
        block.extend_from_slice(&x.to_le_bytes()[..width]);
        if block.len() >= 1 << 16 {
            out.write_all(&block)?;
            block.clear();
        }
    }
    out.write_all(&block)
}
