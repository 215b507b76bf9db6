//! Changing one entry of a table file nimsieve wrote, keeping the file well-formed.

use std::path::PathBuf;

/// A table file whose entries a test changes.
pub struct ValueFile {
    /// The file.
    pub path: PathBuf,
}

impl ValueFile {
    /// Writes entry x as `v`, keeping the file well-formed (CSV row or matrix cell, npy cell,
    /// bin bits and checksum).
    pub fn set(&self, x: u64, v: u32) {
        let ext = self.path.extension().unwrap().to_str().unwrap();
        let mut bytes = std::fs::read(&self.path).unwrap();
        match ext {
            "csv" => {
                let text = String::from_utf8(bytes).unwrap();
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                if lines[0].starts_with("x/y,") {
                    // The matrix of a two-heap table: entry x is cell (x / n, x mod n).
                    let n = lines[0].split(',').count() - 1;
                    let row = &mut lines[x as usize / n + 1];
                    let mut cells: Vec<String> = row.split(',').map(str::to_string).collect();
                    cells[x as usize % n + 1] = v.to_string();
                    *row = cells.join(",");
                } else {
                    lines[x as usize + 1] = format!("{x},{v}");
                }
                bytes = (lines.join("\n") + "\n").into_bytes();
            }
            "npy" => {
                let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
                let text = String::from_utf8_lossy(&bytes[10..10 + header]).to_string();
                let width = if text.contains("u1") { 1 } else { 2 };
                let at = 10 + header + x as usize * width;
                bytes[at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
            }
            "bin" => {
                let u32_at =
                    |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
                let bits = u64::from(u32_at(&bytes, 24));
                let start = super::provenance::bin_payload_start(&bytes);
                assert!(
                    u64::from(v) < 1 << bits,
                    "value {v} does not fit {bits} bits"
                );
                for b in 0..bits {
                    let bit = x * bits + b;
                    let byte = start + (bit / 8) as usize;
                    let mask = 1u8 << (bit % 8);
                    if v >> b & 1 == 1 {
                        bytes[byte] |= mask;
                    } else {
                        bytes[byte] &= !mask;
                    }
                }
                bytes[32..36].fill(0);
                let crc = crc32fast::hash(&bytes);
                bytes[32..36].copy_from_slice(&crc.to_le_bytes());
            }
            other => panic!("no corruption for .{other}"),
        }
        std::fs::write(&self.path, bytes).unwrap();
    }
}
