//! `u64`: the P-positions as raw little-endian unsigned 64-bit integers, nothing else.

use super::npy::write_numbers;
use super::{Emitter, Report};
use std::io::{self, Write};

/// The raw `u64` emitter.
pub struct U64s;

impl Emitter for U64s {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                let zeros = r.table.iter().enumerate().filter(|(_, v)| *v == 0);
                write_numbers(out, 8, zeros.map(|(x, _)| x as u64))
            }
            Report::Ppos(r) => write_numbers(out, 8, r.positions.iter().copied()),
        }
    }
}
