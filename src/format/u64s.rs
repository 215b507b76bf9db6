//! `u64`: the P-positions as raw little-endian unsigned 64-bit integers, nothing else; read
//! back checking that they increase.

use super::Emitter;
use super::npy::write_numbers;
use super::read::{Parsed, positions_of};
use crate::report::Report;
use std::io::{self, Write};

/// The raw `u64` emitter.
pub struct U64s;

impl Emitter for U64s {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                let zeros = r.values()?.iter().enumerate().filter(|(_, v)| *v == 0);
                write_numbers(out, 8, zeros.map(|(x, _)| x as u64))
            }
            Report::Ppos(r) => write_numbers(out, 8, r.positions.iter().copied()),
            Report::Square(_) | Report::Pairs(_) => {
                unreachable!("u64 holds P-positions of one heap")
            }
        }
    }
}

/// Reads raw little-endian `u64` P-positions.
pub fn read(bytes: &[u8]) -> Parsed<Vec<u64>> {
    if !bytes.len().is_multiple_of(8) {
        return Err(format!(
            "its size, {} bytes, is not a multiple of 8",
            bytes.len()
        ));
    }
    let numbers = bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()));
    positions_of(bytes.len() as u64 / 8, numbers)
}
