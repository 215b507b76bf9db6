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

use super::read::{Parsed, room_for};
use super::{Contents, Emitter};
use crate::report::Report;
use crate::table::ValueKind;
use crate::table::packed::PackedValues;
use crate::table::words::Words;
use bitvec::order::Lsb0;
use bitvec::view::BitView;
use memmap2::Mmap;
use std::io::{self, Write};

/// The format version this build writes and reads. Version 1 had the same layout, but its
/// checksum covered only the payload.
const VERSION: u32 = 2;

/// Where the checksum sits in the header; the checksum covers the whole file with these four
/// bytes read as zero.
const CRC_AT: usize = 32;

/// The `bin` emitter.
pub struct Bin;

impl Emitter for Bin {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                let content = match r.info.kind {
                    ValueKind::Grundy => 0,
                    ValueKind::MisereOutcome => 1,
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

pub(super) fn write_table(
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

/// Reads a `.bin` table from its mapped file, checking every header field and the checksum;
/// the values stay in the mapping. Sets `kind` from the content code; returns the game and n
/// the header states.
pub fn read(map: Option<Mmap>, kind: &mut ValueKind) -> Parsed<(Contents, String, u64)> {
    let bytes = map.as_deref().unwrap_or_default();
    let field = |at: usize, len: usize| {
        bytes
            .get(at..at + len)
            .ok_or("truncated header".to_string())
    };
    let u32_at = |at| field(at, 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    if field(0, 8)? != b"NIMSIEVE" {
        return Err("it does not start with NIMSIEVE, so it is not a nimsieve .bin file".into());
    }
    match u32_at(8)? {
        VERSION => {}
        1 => {
            return Err(
                "it is a version 1 .bin file, whose checksum does not cover its header; write it again with the current nimsieve".into(),
            );
        }
        other => {
            return Err(format!(
                "it is a version {other} .bin file, but this nimsieve reads version {VERSION}; write it again with the current nimsieve"
            ));
        }
    }
    let content = u32_at(12)?;
    let n = u64::from_le_bytes(field(16, 8)?.try_into().unwrap());
    let (bits, spec_len) = (u32_at(24)?, u32_at(28)? as usize);
    if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(format!("{bits} bits per position is not a supported width"));
    }
    if u32_at(36)? != 0 {
        return Err("the reserved header field at offset 36 is not zero".into());
    }
    let spec = field(40, spec_len)?;
    let spec = std::str::from_utf8(spec).map_err(|_| "the game spec is not UTF-8")?;
    let start = 40 + spec_len.next_multiple_of(8);
    let payload = bytes.len().saturating_sub(start) as u128;
    let expected = u128::from(PackedValues::words_for(n, bits)) * 8;
    if bytes.len() < start || payload != expected {
        return Err(format!(
            "its payload holds {payload} bytes, not the {expected} of {n} positions its header states"
        ));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[..CRC_AT]);
    crc.update(&[0; 4]);
    crc.update(&bytes[CRC_AT + 4..]);
    if crc.finalize() != u32_at(CRC_AT)? {
        return Err("its checksum does not match: the file is corrupt".into());
    }
    let used = n * u64::from(bits) % 64;
    let last = |b: &[u8]| u64::from_le_bytes(b[b.len() - 8..].try_into().unwrap());
    if used != 0 && last(bytes) >> used != 0 {
        return Err("bits after the last position are set: the file is corrupt".into());
    }
    // P-position bits (2) leave the play to the JSON summary, as other P-position lists do.
    match content {
        0 => *kind = ValueKind::Grundy,
        1 => *kind = ValueKind::MisereOutcome,
        2 => {}
        other => return Err(format!("unknown content code {other}")),
    }
    if content == 2 && bits != 1 {
        return Err(format!(
            "P-position bits take 1 bit a position, not the {bits} its header states"
        ));
    }
    let len = bytes.len();
    let game = spec.to_string();
    let map = map.expect("a file with a header is mapped");
    let words = Words::mapped(map, start..len).map_err(|e| e.to_string())?;
    let values = PackedValues::from_words(n, bits, words);
    let contents = if content == 2 {
        // Bits past n were checked to be zero above.
        let bits = values.words().view_bits::<Lsb0>();
        let mut positions = room_for(bits.count_ones() as u64)?;
        positions.extend(crate::table::bits::ones(values.words()));
        Contents::Positions(positions)
    } else {
        Contents::Values(values)
    };
    Ok((contents, game, n))
}
