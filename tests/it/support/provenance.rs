//! Table files seen without their provenance, which differs between two runs of one table (the
//! command, the date): what a resumed or repeated run must reproduce byte for byte.

use std::path::Path;

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// Where a `.bin` file's payload starts: after the header, the game spec and the provenance.
pub fn bin_payload_start(bytes: &[u8]) -> usize {
    40 + u32_at(bytes, 28).next_multiple_of(8) + u32_at(bytes, 36).next_multiple_of(8)
}

/// The bytes of the table file at `path` without its provenance ([`without_provenance`]).
pub fn table_bytes(path: &Path) -> Vec<u8> {
    without_provenance(std::fs::read(path).unwrap())
}

/// The bytes of a table file without its provenance: a `.bin` file with its provenance, its
/// length field and its checksum taken out (zero), an `.npy` file with its header's comment
/// taken out; other files as they are.
pub fn without_provenance(bytes: Vec<u8>) -> Vec<u8> {
    if bytes.starts_with(b"NIMSIEVE") {
        let spec_end = 40 + u32_at(&bytes, 28).next_multiple_of(8);
        let mut kept = bytes[..spec_end].to_vec();
        kept[32..40].fill(0);
        kept.extend_from_slice(&bytes[bin_payload_start(&bytes)..]);
        kept
    } else if bytes.starts_with(b"\x93NUMPY") {
        let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        let text = std::str::from_utf8(&bytes[10..10 + header]).unwrap();
        let dict = &text[..=text.find('}').unwrap()];
        [dict.as_bytes(), &bytes[10 + header..]].concat()
    } else {
        bytes
    }
}
