//! NumPy `.npy` (format 1.0): a one-dimensional array of the smallest unsigned dtype that holds
//! the data — the values (`grundy`) or the P-positions (`ppos`) — loadable with
//! `numpy.load(path, mmap_mode="r")`; read back from the same header. Wythoff's game writes
//! two-dimensional arrays with the same header ([`write_header`], [`read_matrix`]).
//!
//! The header dict holds only the keys NumPy allows (it refuses any other); the provenance
//! follows it as a Python comment, `# {"nimsieve": …}`, which `numpy.load` skips and
//! [`provenance`] reads back.

use super::read::{Parsed, positions_of, shown};
use super::{Contents, Emitter, Format, two_heaps};
use crate::provenance::Provenance;
use crate::report::Report;
use crate::table::packed::{PackedValues, pieces};
use std::io::{self, Write};

/// The `.npy` emitter.
pub struct Npy;

impl Emitter for Npy {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Grundy(r) => {
                let width = byte_width(u64::from(r.stats.max_value));
                write_header(out, width, &[r.values()?.len()], r.info.made.as_ref())?;
                write_numbers(out, width, r.values()?.iter().map(u64::from))
            }
            Report::Ppos(r) => {
                let width = byte_width(r.positions.last().copied().unwrap_or(0));
                write_header(
                    out,
                    width,
                    &[r.positions.len() as u64],
                    r.info.made.as_ref(),
                )?;
                write_numbers(out, width, r.positions.iter().copied())
            }
            Report::Square(r) => two_heaps::write_square(Format::Npy, r, out),
            Report::Pairs(r) => two_heaps::write_pairs(Format::Npy, r, out),
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

/// The dtype of little-endian unsigned integers of `width` bytes.
fn descr(width: usize) -> String {
    format!("<u{width}")
}

/// The magic, version and header dict of an array of `shape` (C order), with the provenance
/// `made` as a comment after it, padded so the data start at a multiple of 64 bytes.
pub fn write_header(
    out: &mut dyn Write,
    width: usize,
    shape: &[u64],
    made: Option<&Provenance>,
) -> io::Result<()> {
    let shape = match shape {
        [len] => format!("({len},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        descr(width)
    );
    if let Some(made) = made {
        dict.push_str(" # ");
        dict.push_str(&made.to_json());
    }
    let unpadded = 10 + dict.len() + 1;
    let padding = unpadded.next_multiple_of(64) - unpadded;
    let header_len = u16::try_from(dict.len() + padding + 1).expect("short header");
    out.write_all(b"\x93NUMPY\x01\x00")?;
    out.write_all(&header_len.to_le_bytes())?;
    out.write_all(dict.as_bytes())?;
    out.write_all(&vec![b' '; padding])?;
    out.write_all(b"\n")
}

/// Numbers as little-endian integers of `width` bytes (1, 2, 4 or 8), written in blocks.
pub fn write_numbers(
    out: &mut dyn Write,
    width: usize,
    numbers: impl Iterator<Item = u64>,
) -> io::Result<()> {
    match width {
        1 => write_as::<1>(out, numbers),
        2 => write_as::<2>(out, numbers),
        4 => write_as::<4>(out, numbers),
        _ => write_as::<8>(out, numbers),
    }
}

/// [`write_numbers`] at a width known when compiled: each number is a fixed-size copy (a
/// copy of a run-time length was a call per number).
fn write_as<const W: usize>(
    out: &mut dyn Write,
    numbers: impl Iterator<Item = u64>,
) -> io::Result<()> {
    let mut block = Vec::with_capacity(1 << 16);
    for x in numbers {
        block.extend_from_slice(&x.to_le_bytes()[..W]);
        if block.len() >= 1 << 16 {
            out.write_all(&block)?;
            block.clear();
        }
    }
    out.write_all(&block)
}

/// What a `.npy` header says: the byte width of its unsigned dtype, the shape, and the data
/// (checked to be as long as the shape says).
struct Header<'a> {
    width: usize,
    shape: Vec<u64>,
    data: &'a [u8],
    /// Where the data start in the file.
    offset: usize,
}

fn header(bytes: &[u8]) -> Parsed<Header<'_>> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" || bytes[6] != 1 {
        return Err("not a version 1 .npy file".into());
    }
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = bytes.get(10..10 + header_len).ok_or("truncated header")?;
    let header = std::str::from_utf8(header).map_err(|_| "unreadable header")?;
    // The dict ends at its one closing brace; a comment may follow.
    let header = header.split_once('}').map_or(header, |(dict, _)| dict);
    // NumPy writes one-byte dtypes as '|u1'.
    let width = [1, 2, 4, 8]
        .into_iter()
        .map(|w| (w, descr(w)))
        .chain([(1, "|u1".to_string())])
        .find(|(_, d)| header.contains(&format!("'descr': '{d}'")))
        .map(|(w, _)| w)
        .ok_or(format!(
            "unsupported dtype in header '{}': nimsieve reads unsigned integers, little-endian or one byte (<u1, |u1, <u2, <u4, <u8); convert the array with .astype(numpy.uint32)",
            shown(header.trim())
        ))?;
    let shape = header
        .split("'shape': (")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .and_then(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(|d| d.parse::<u64>().ok())
                .collect::<Option<Vec<u64>>>()
        })
        .filter(|dims| !dims.is_empty())
        .ok_or("the header gives no shape")?;
    let data = &bytes[10 + header_len..];
    let promised = shape.iter().map(|&d| u128::from(d)).product::<u128>() * width as u128;
    if data.len() as u128 != promised {
        return Err(format!(
            "holds {} data bytes, but its header promises {promised}",
            data.len()
        ));
    }
    Ok(Header {
        width,
        shape,
        data,
        offset: 10 + header_len,
    })
}

impl Header<'_> {
    /// The numbers, a piece of [`PASS`] at a time: once a piece is read, `read(end)` is told
    /// that the file's bytes before its end are read (a mapped file releases them).
    fn numbers<'h>(&'h self, read: &'h dyn Fn(usize)) -> impl Iterator<Item = u64> + 'h {
        let width = self.width;
        pieces(0..(self.data.len() / width) as u64).flat_map(move |piece| {
            let bytes = piece.start as usize * width..piece.end as usize * width;
            let end = self.offset + bytes.end;
            let numbers = self.data[bytes].chunks_exact(width).map(|c| {
                let mut word = [0u8; 8];
                word[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(word)
            });
            // Called once, after the piece's last number.
            numbers.chain(std::iter::from_fn(move || {
                read(end);
                None
            }))
        })
    }

    /// The numbers as values, packed with the fewest bits (the data read twice, a piece at a
    /// time: for the largest value, then for the values).
    fn values(&self, read: &dyn Fn(usize)) -> Parsed<PackedValues> {
        let max = self.numbers(read).max().unwrap_or(0);
        let max = u32::try_from(max).map_err(|_| format!("value {max} is too large"))?;
        let len = (self.data.len() / self.width) as u64;
        let mut values =
            PackedValues::in_memory(len, PackedValues::bits_for(max)).map_err(|e| e.to_string())?;
        for (x, v) in self.numbers(read).enumerate() {
            values.set(x as u64, v as u32);
        }
        Ok(values)
    }
}

/// Reads a one-dimensional `.npy` array of unsigned integers (as nimsieve and NumPy write
/// them): P-positions when `ppos`, values otherwise. `read(end)` is told when the bytes before
/// `end` are read ([`read_before`](super::read::read_before)).
pub fn read(bytes: &[u8], ppos: bool, read: &dyn Fn(usize)) -> Parsed<Contents> {
    let header = header(bytes)?;
    let [len] = header.shape[..] else {
        let shape: Vec<String> = header.shape.iter().map(u64::to_string).collect();
        return Err(format!(
            "its array is {}, not one-dimensional: a table of a one-heap game, or its P-positions, is one row of numbers",
            match shape.is_empty() {
                true => "a single number (shape ())".into(),
                false => shape.join("×"),
            }
        ));
    };
    if ppos {
        return positions_of(len, header.numbers(read)).map(Contents::Positions);
    }
    header.values(read).map(Contents::Values)
}

/// Reads a two-dimensional `.npy` array of unsigned integers (C order): its shape and its
/// values row by row; None for an array of another dimension. `read` as for [`read()`].
pub fn read_matrix(bytes: &[u8], read: &dyn Fn(usize)) -> Parsed<Option<([u64; 2], PackedValues)>> {
    let header = header(bytes)?;
    match header.shape[..] {
        [rows, columns] => Ok(Some(([rows, columns], header.values(read)?))),
        _ => Ok(None),
    }
}

/// The provenance the header's comment records, if it is one nimsieve wrote.
pub fn provenance(bytes: &[u8]) -> Option<Provenance> {
    let header_len = u16::from_le_bytes([*bytes.get(8)?, *bytes.get(9)?]) as usize;
    let header = std::str::from_utf8(bytes.get(10..10 + header_len)?).ok()?;
    let (_, comment) = header.split_once('}')?.1.split_once('#')?;
    Provenance::from_json(comment)
}

/// The shape of an `.npy` file's array, None when its header cannot be read.
pub fn shape(bytes: &[u8]) -> Option<Vec<u64>> {
    header(bytes).ok().map(|h| h.shape)
}

/// Reads an `.npy` array of shape (len, 2) as pairs, row by row; `read` as for [`read()`].
pub fn read_pairs(bytes: &[u8], read: &dyn Fn(usize)) -> Parsed<Vec<[u64; 2]>> {
    let header = header(bytes)?;
    let [len, 2] = header.shape[..] else {
        return Err("its array is not of shape (pairs, 2)".into());
    };
    let mut pairs = crate::table::reserve(len, "the list of P-pairs").map_err(|e| e.to_string())?;
    let mut numbers = header.numbers(read);
    while let (Some(a), Some(b)) = (numbers.next(), numbers.next()) {
        pairs.push([a, b]);
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::read::read_before;
    use crate::table::resident::tests::resident_bytes;
    use crate::table::words::RELEASE_ALIGN;
    use memmap2::Mmap;

    /// Reading values or P-positions back from a mapped `.npy` file holds a piece of the file
    /// at a time, not the file.
    #[test]
    fn reading_keeps_little_of_a_mapped_file() {
        let n: u64 = 1 << 23;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.npy");
        let mut file = io::BufWriter::new(std::fs::File::create(&path).unwrap());
        write_header(&mut file, 4, &[n], None).unwrap();
        write_numbers(&mut file, 4, (0..n).map(|x| 3 * x)).unwrap();
        file.into_inner().unwrap().sync_all().unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the file is only read, and nothing changes it meanwhile.
        let map = unsafe { Mmap::map(&file) }.unwrap();
        let kept = || resident_bytes(&map[..]);
        let read_map = read_before(Some(&map));
        let Ok(Contents::Values(values)) = read(&map, false, &read_map) else {
            panic!("the values read back")
        };
        assert!(
            kept() <= 4 * RELEASE_ALIGN,
            "{} of {} bytes kept",
            kept(),
            4 * n
        );
        assert!((0..n).all(|x| values.get(x) == 3 * x as u32));
        let Ok(Contents::Positions(positions)) = read(&map, true, &read_map) else {
            panic!("the P-positions read back")
        };
        assert!(
            kept() <= 4 * RELEASE_ALIGN,
            "{} of {} bytes kept",
            kept(),
            4 * n
        );
        assert!(
            positions
                .iter()
                .enumerate()
                .all(|(x, &p)| p == 3 * x as u64)
        );
    }
}
