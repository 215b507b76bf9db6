//! `bin`: a packed table behind a self-describing little-endian header.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `NIMSIEVE` |
//! | 8 | 4 | format version, 2 ([`VERSION`]) |
//! | 12 | 4 | content: 0 = Grundy values, 1 = misère outcomes (0 = P, 1 = N), 2 = P-position bits |
//! | 16 | 8 | n, the number of positions |
//! | 24 | 4 | bits per position (1, 2, 4, …, 32; 1 for P-position bits) |
//! | 28 | 4 | length L of the game spec in bytes |
//! | 32 | 4 | CRC-32 (IEEE, as zlib's `crc32`) of the whole file, these four bytes read as zero |
//! | 36 | 4 | zero |
//! | 40 | L | the canonical game spec, UTF-8, then zero bytes to a multiple of 8 |
//! | then | ⌈n·bits/64⌉·8 | payload: 64-bit little-endian words; position x holds bits x·bits … x·bits+bits−1 counted from the least significant bit of word 0 (P-position bits: 1 = P) |

use super::{Emitter, Report};
use crate::table::ValueKind;
use std::io::{self, Write};

/// The format version this build writes and reads. Version 1 had the same layout, but its
/// checksum covered only the payload.
pub const VERSION: u32 = 2;

/// Where the checksum sits in the header; the checksum covers the whole file with these four
/// bytes read as zero.
pub const CRC_AT: usize = 32;

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
    let spec = game.as_bytes();
    let mut header = b"NIMSIEVE".to_vec();
    for field in [VERSION, content] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    header.extend_from_slice(&n.to_le_bytes());
    for field in [bits, spec.len() as u32, 0, 0] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    header.extend_from_slice(spec);
    header.resize(header.len().next_multiple_of(8), 0);
    let little: Vec<u8>;
    let payload: &[u8] = if cfg!(target_endian = "little") {
        bytemuck::cast_slice(words)
    } else {
        little = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        &little
    };
    // The checksum field is still zero here.
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header);
    crc.update(payload);
    let crc = crc.finalize();
    header[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    out.write_all(&header)?;
    out.write_all(payload)
}
