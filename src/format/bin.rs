//! `bin`: a packed table behind a self-describing little-endian header.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `NIMSIEVE` |
//! | 8 | 4 | format version, 3 ([`VERSION`]) |
//! | 12 | 4 | content: 0 = Grundy values, 1 = misère outcomes (0 = P, 1 = N), 2 = P-position bits |
//! | 16 | 8 | n, the number of positions |
//! | 24 | 4 | bits per position (1, 2, 4, …, 32; 1 for P-position bits) |
//! | 28 | 4 | length L of the game spec in bytes |
//! | 32 | 4 | CRC-32 (IEEE, as zlib's `crc32`) of the whole file, these four bytes read as zero |
//! | 36 | 4 | length P of the provenance in bytes (0: none) |
//! | 40 | L | the canonical game spec, UTF-8, then zero bytes to a multiple of 8 |
//! | then | P | the provenance: one line of JSON (`nimsieve`, `commit`, `command`, `engine`, `threads`, `date`), UTF-8, then zero bytes to a multiple of 8 |
//! | then | ⌈n·bits/64⌉·8 | payload: 64-bit little-endian words; position x holds bits x·bits … x·bits+bits−1 counted from the least significant bit of word 0 (P-position bits: 1 = P) |

use super::read::{Parsed, room_for};
use super::{Contents, Emitter, Format, two_heaps};
use crate::provenance::Provenance;
use crate::report::{Report, RunInfo};
use crate::table::ValueKind;
use crate::table::packed::{PackedValues, pieces};
use crate::table::words::Words;
use bitvec::order::Lsb0;
use bitvec::view::BitView;
use memmap2::Mmap;
use std::borrow::Cow;
use std::io::{self, Write};

/// The format version this build writes. Version 2 had the same layout with no provenance
/// (the field at 36 zero), and is read too; version 1's checksum covered only the payload.
const VERSION: u32 = 3;

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
                write_table(out, content, &r.info, &r.values()?.values)
            }
            Report::Ppos(r) => {
                let mut words = vec![0u64; r.info.n.div_ceil(64) as usize];
                for &p in &r.positions {
                    words[(p / 64) as usize] |= 1 << (p % 64);
                }
                let bits = PackedValues::from_words(r.info.n, 1, Words::Memory(words));
                write_table(out, 2, &r.info, &bits)
            }
            Report::Square(r) => two_heaps::write_square(Format::Bin, r, out),
            Report::Pairs(_) => unreachable!("a .bin holds no P-pairs"),
        }
    }
}

/// Writes `values` as a `bin` file of `content` (the header's code) for the game and
/// provenance of `info`. The payload is read twice, for the checksum the header holds and to
/// write it, a piece at a time, each released once read: a file-backed or mapped table does
/// not stay in the process.
pub(super) fn write_table(
    out: &mut dyn Write,
    content: u32,
    info: &RunInfo,
    values: &PackedValues,
) -> io::Result<()> {
    let spec = info.game.as_bytes();
    let made = info
        .made
        .as_ref()
        .map(Provenance::to_json)
        .unwrap_or_default();
    let mut header = b"NIMSIEVE".to_vec();
    for field in [VERSION, content] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    header.extend_from_slice(&values.len().to_le_bytes());
    for field in [values.bits(), spec.len() as u32, 0, made.len() as u32] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    for text in [spec, made.as_bytes()] {
        header.extend_from_slice(text);
        header.resize(header.len().next_multiple_of(8), 0);
    }
    // The checksum field is still zero here.
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header);
    let crc = payload_crc(crc, values);
    header[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    out.write_all(&header)?;
    pieces(0..values.len()).try_for_each(|piece| {
        values.read_once(piece, |piece| {
            out.write_all(&little_endian(values.words_of(piece)))
        })
    })
}

/// The checksum `crc` continued over the payload of `values`, a piece at a time, each
/// released once read.
fn payload_crc(mut crc: crc32fast::Hasher, values: &PackedValues) -> u32 {
    for piece in pieces(0..values.len()) {
        values.read_once(piece, |piece| {
            crc.update(&little_endian(values.words_of(piece)))
        });
    }
    crc.finalize()
}

/// The bytes of `words` as the file stores them, little-endian.
fn little_endian(words: &[u64]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(words))
    } else {
        Cow::Owned(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }
}

/// What a `.bin` file holds and states.
#[derive(Debug)]
pub struct BinTable {
    /// The values or P-positions.
    pub contents: Contents,
    /// The game spec.
    pub game: String,
    /// The number of positions.
    pub n: u64,
}

/// Reads a `.bin` table from its mapped file, checking every header field and the checksum;
/// the values stay in the mapping. Sets `kind` from the content code.
pub fn read(map: Option<Mmap>, kind: &mut ValueKind) -> Parsed<BinTable> {
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
    let version = u32_at(8)?;
    match version {
        2 | VERSION => {}
        1 => {
            return Err(
                "it is a version 1 .bin file, whose checksum does not cover its header; write it again with the current nimsieve".into(),
            );
        }
        other => {
            return Err(format!(
                "it is a version {other} .bin file, but this nimsieve reads versions 2 and {VERSION}; write it again with the current nimsieve"
            ));
        }
    }
    let content = u32_at(12)?;
    let n = u64::from_le_bytes(field(16, 8)?.try_into().unwrap());
    let (bits, spec_len) = (u32_at(24)?, u32_at(28)? as usize);
    if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(format!("{bits} bits per position is not a supported width"));
    }
    let made_len = u32_at(36)? as usize;
    if version == 2 && made_len != 0 {
        return Err("the reserved header field at offset 36 is not zero".into());
    }
    let spec = field(40, spec_len)?;
    let spec = std::str::from_utf8(spec).map_err(|_| "the game spec is not UTF-8")?;
    let start = provenance_at(spec_len) + made_len.next_multiple_of(8);
    let payload = bytes.len().saturating_sub(start) as u128;
    let expected = u128::from(PackedValues::words_for(n, bits)) * 8;
    if bytes.len() < start || payload != expected {
        return Err(format!(
            "its payload holds {payload} bytes, not the {expected} of {n} positions its header states"
        ));
    }
    let header = bytes[..start].to_vec();
    let stated_crc = u32_at(CRC_AT)?;
    let (len, game) = (bytes.len(), spec.to_string());
    let map = map.expect("a file with a header is mapped");
    let words = Words::mapped(map, start..len).map_err(|e| e.to_string())?;
    let values = PackedValues::from_words(n, bits, words);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header[..CRC_AT]);
    crc.update(&[0; 4]);
    crc.update(&header[CRC_AT + 4..]);
    if payload_crc(crc, &values) != stated_crc {
        return Err("its checksum does not match: the file is corrupt".into());
    }
    let used = n * u64::from(bits) % 64;
    if used != 0 && values.words().last().is_some_and(|last| last >> used != 0) {
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
    let contents = if content == 2 {
        // Bits past n were checked to be zero above; each piece is released once read.
        let count = pieces(0..n)
            .map(|piece| {
                values.read_once(piece, |piece| {
                    values.words_of(piece).view_bits::<Lsb0>().count_ones() as u64
                })
            })
            .sum();
        let mut positions = room_for(count)?;
        for piece in pieces(0..n) {
            values.read_once(piece, |piece| {
                let ones = crate::table::bits::ones(values.words_of(piece.clone()));
                positions.extend(ones.map(|x| piece.start + x));
            });
        }
        Contents::Positions(positions)
    } else {
        Contents::Values(values)
    };
    Ok(BinTable { contents, game, n })
}

/// Where the provenance starts: after the fixed header and the game spec of `spec_len` bytes,
/// padded to a multiple of 8.
fn provenance_at(spec_len: usize) -> usize {
    40 + spec_len.next_multiple_of(8)
}

/// The provenance a `.bin` file's header records (None for version 2, which records none); the
/// checksum [`read`] checks covers it.
pub fn provenance(bytes: &[u8]) -> Option<Provenance> {
    let u32_at = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let (spec_len, made_len) = (u32_at(28)? as usize, u32_at(36)? as usize);
    let at = provenance_at(spec_len);
    let text = std::str::from_utf8(bytes.get(at..at.checked_add(made_len)?)?).ok()?;
    (bytes.starts_with(b"NIMSIEVE") && u32_at(8)? >= 3)
        .then(|| Provenance::from_json(text))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::summary::summarize;
    use crate::table::Table;
    use crate::table::packed::PASS;
    use crate::table::resident::tests::{rss, written};
    use crate::table::words::RELEASE_ALIGN;

    /// Writing a file-backed table as `bin`, reading the file back and summarising it hold one
    /// piece of the table at a time.
    #[test]
    fn writing_and_reading_back_keep_one_piece_of_a_mapped_table() {
        let n = 1 << 24;
        let (dir, values) = written(n);
        let kept = 2 * PASS + 4 * RELEASE_ALIGN;
        values.release(0..n);
        let path = dir.path().join("t.bin");
        let mut file = std::fs::File::create(&path).unwrap();
        let made = Provenance::now("nimsieve grundy grundys-game -n 2^24", "rare-values", 2);
        let info = RunInfo {
            game: "grundys-game".into(),
            n,
            kind: ValueKind::Grundy,
            engine: "rare-values",
            threads: 2,
            elapsed_s: 0.0,
            made: Some(made.clone()),
        };
        write_table(&mut file, 0, &info, &values).unwrap();
        assert!(rss(&values) <= kept, "writing kept {} bytes", rss(&values));
        drop(file);
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the file is only read, and nothing changes it meanwhile.
        let map = unsafe { Mmap::map(&file) }.unwrap();
        let mut kind = ValueKind::MisereOutcome;
        assert_eq!(provenance(&map), Some(made));
        let Ok(BinTable {
            contents: Contents::Values(read),
            game,
            ..
        }) = read(Some(map), &mut kind)
        else {
            panic!("the table reads back")
        };
        assert_eq!((kind, game.as_str()), (ValueKind::Grundy, "grundys-game"));
        assert!(rss(&read) <= kept, "reading kept {} bytes", rss(&read));
        let table = Table {
            kind,
            values: read,
            period: None,
            shape: crate::table::Shape::Line,
        };
        let (stats, _) = summarize(&table, 5);
        assert_eq!(stats.counts.iter().sum::<u64>(), n);
        assert_eq!(stats.max_value, 65_520);
        assert!(
            rss(&table.values) <= kept,
            "summarising kept {} bytes",
            rss(&table.values)
        );
    }
}
