//! `bin`: a packed table behind a self-describing little-endian header.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `NIMSIEVE` |
//! | 8 | 4 | format version, 1 |
//! | 12 | 4 | content: 0 = Grundy values, 1 = misère outcomes (0 = P, 1 = N), 2 = P-position bits |
//! | 16 | 8 | n, the number of positions |
//! | 24 | 4 | bits per position (1, 2, 4, …, 32; 1 for P-position bits) |
//! | 28 | 4 | length L of the game spec in bytes |
//! | 32 | 4 | CRC-32 (IEEE, as zlib's `crc32`) of the payload |
//! | 36 | 4 | zero |
//! | 40 | L | the canonical game spec, UTF-8, then zero bytes to a multiple of 8 |
//! | then | ⌈n·bits/64⌉·8 | payload: 64-bit little-endian words; position x holds bits x·bits … x·bits+bits−1 counted from the least significant bit of word 0 (P-position bits: 1 = P) |

use super::{Emitter, Report};
use crate::table::ValueKind;
use std::io::{self, Write};

/// The `bin` emitter.
pub struct Bin;

impl Emitter for Bin {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                let content = match r.info.kind {
                    ValueKind::Grundy => 0,
                    ValueKind::Outcome => 1,
                };
                let words = r.table.values.words();
                write_table(
                    out,
                    content,
                    &r.info.game,
                    r.table.len(),
                    r.table.values.bits(),
                    words,
                )
            }
            Report::Ppos(r) => {
                let mut words = vec![0u64; r.info.n.div_ceil(64) as usize];
                for &p in &r.positions {
                    words[(p / 64) as usize] |= 1 << (p % 64);
                }
                write_table(out, 2, &r.info.game, r.info.n, 1, &words)
            }
        }
    }
}

fn write_table(
    out: &mut dyn Write,
    content: u32,
    game: &str,
    n: u64,
    bits: u32,
    words: &[u64],
) -> io::Result<()> {
    let payload: &[u8] = bytemuck::cast_slice(words);
    let spec = game.as_bytes();
    out.write_all(b"NIMSIEVE")?;
    for field in [1u32, content] {
        out.write_all(&field.to_le_bytes())?;
    }
    out.write_all(&n.to_le_bytes())?;
    for field in [bits, spec.len() as u32, crc32fast::hash(payload), 0] {
        out.write_all(&field.to_le_bytes())?;
    }
    out.write_all(spec)?;
    out.write_all(&vec![0; spec.len().next_multiple_of(8) - spec.len()])?;
    if cfg!(target_endian = "little") {
        out.write_all(payload)
    } else {
        words
            .iter()
            .try_for_each(|w| out.write_all(&w.to_le_bytes()))
    }
}
