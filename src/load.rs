//! Reading tables nimsieve wrote (CSV, b-file, npy, bin, u64) back, for `stats`, `plot` and
//! `verify`. The format follows from the file's extension; the game, play and size come from
//! the bin header or the JSON summary beside the file (same name, `.json`) when there is one,
//! and a file that states its n or game differently from that summary is refused.
//!
//! Files are mapped read-only. A `.bin` table's values are read in place; other formats' values
//! are packed in memory with the fewest bits. Everything a reader reads is checked: header
//! fields, the checksum, row labels (`n`, `k` and the first column of `--wide` rows), numbers
//! and lengths, and sizes are compared with the file's length before anything the size of the
//! table is allocated.

use crate::emit::bin::{CRC_AT, VERSION};
use crate::error::{Error, Result};
use crate::table::ValueKind;
use crate::table::packed::PackedValues;
use crate::table::words::Words;
use memmap2::Mmap;
use std::path::Path;

/// What a table file holds.
#[derive(Debug)]
pub enum Contents {
    /// g(x) (or misère outcomes) for x = 0, 1, 2, …, packed (read in place from a `.bin` file).
    Values(PackedValues),
    /// P-positions, ascending.
    Positions(Vec<u64>),
}

/// A table read from a file, with what is known about it.
#[derive(Debug)]
pub struct Loaded {
    /// The values or P-positions.
    pub contents: Contents,
    /// The canonical game spec, when the file or its JSON summary names it.
    pub game: Option<String>,
    /// The number of positions the table covers, when known.
    pub n: Option<u64>,
    /// Grundy values or misère outcomes.
    pub kind: ValueKind,
}

/// What a file states about itself (a `.bin` header; the length of a table of values).
#[derive(Debug, Default)]
struct Stated {
    /// The game spec.
    game: Option<String>,
    /// The number of positions, with the words that say where it comes from.
    n: Option<(u64, String)>,
}

/// Reads the table in `path`. `ppos` says whether a b-file or npy file holds P-positions
/// (default: when its name ends in `-ppos`, or the JSON summary beside it is that of `ppos`).
pub fn load(path: &Path, ppos: Option<bool>) -> Result<Loaded> {
    let bad = |why: String| {
        Error::Input(format!(
            "cannot read '{}' as a nimsieve table: {why}",
            path.display()
        ))
    };
    let map = map_file(path)?;
    let named_ppos = path
        .file_stem()
        .is_some_and(|s| s.to_string_lossy().ends_with("-ppos"));
    let summary = read_summary(path);
    // A P-position summary has the largest P-position (`last`) and no `max_value`.
    let summary_ppos = summary
        .as_ref()
        .is_some_and(|s| s.get("last").is_some() && s.get("max_value").is_none());
    let ppos = ppos.unwrap_or(named_ppos || summary_ppos);
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let mut kind = match summary.as_ref().and_then(|s| s["play"].as_str()) {
        Some("misere") => ValueKind::Outcome,
        _ => ValueKind::Grundy,
    };
    let mut stated = Stated::default();
    let contents = if extension == "bin" {
        read_bin(map, &mut kind, &mut stated)
    } else {
        let bytes = map.as_deref().unwrap_or_default();
        match extension.as_str() {
            "csv" => read_csv(bytes, &mut kind),
            "txt" => read_bfile(bytes, ppos),
            "npy" => read_npy(bytes, ppos),
            "u64" => read_u64s(bytes).map(Contents::Positions),
            other => {
                return Err(Error::Input(format!(
                    "cannot tell the format of '{}' from its extension '{other}' (use .csv, .txt, .npy, .bin or .u64)",
                    path.display()
                )));
            }
        }
    }
    .map_err(bad)?;
    if let (Contents::Values(values), None) = (&contents, &stated.n) {
        stated.n = Some((values.len(), format!("it holds {} values", values.len())));
    }
    let summary_game = summary
        .as_ref()
        .and_then(|s| s["game"].as_str().map(str::to_string));
    let summary_n = summary.as_ref().and_then(|s| s["n"].as_u64());
    if let (Some((n, what)), Some(expected)) = (&stated.n, summary_n)
        && *n != expected
    {
        return Err(bad(format!(
            "{what}, but the JSON summary beside it states n = {expected}; the two disagree, so neither is trusted: write both again with nimsieve"
        )));
    }
    if let (Some(game), Some(expected)) = (&stated.game, &summary_game)
        && game != expected
    {
        return Err(bad(format!(
            "its header states the game {game}, but the JSON summary beside it states {expected}; the two disagree, so neither is trusted: write both again with nimsieve"
        )));
    }
    Ok(Loaded {
        contents,
        game: stated.game.or(summary_game),
        n: stated.n.map(|(n, _)| n).or(summary_n),
        kind,
    })
}

/// The file at `path` mapped read-only (None for an empty file, which cannot be mapped).
fn map_file(path: &Path) -> Result<Option<Mmap>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
    let len = file
        .metadata()
        .map_err(|e| Error::io("cannot read", path, e))?
        .len();
    if len == 0 {
        return Ok(None);
    }
    // SAFETY: the file is only read; a table changed by another process while it is being read
    // is outside supported use.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io("cannot map", path, e))?;
    Ok(Some(map))
}

/// The JSON summary beside `path`, if there is a readable one.
fn read_summary(path: &Path) -> Option<serde_json::Value> {
    let beside = path.with_extension("json");
    (beside != path)
        .then(|| std::fs::read_to_string(beside).ok())
        .flatten()
        .and_then(|text| serde_json::from_str(&text).ok())
}

type Parsed<T> = std::result::Result<T, String>;

fn number(text: &str, line: usize) -> Parsed<u64> {
    text.trim()
        .parse()
        .map_err(|_| format!("line {line}: '{}' is not a number", shown(text.trim())))
}

/// Text quoted from a file in a message: its first 40 characters.
fn shown(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// How the rows of a text table are laid out: a label, then one or more numbers.
struct Layout {
    /// Between the label and the numbers, and between numbers.
    separator: char,
    /// The most numbers a row holds (`--wide K`: K; the last row may hold fewer).
    per_row: u64,
    /// The first row's label: 0 for values; None for P-positions, whose labels count from an
    /// offset (`--offset`) that the file does not state.
    first_label: Option<u64>,
    /// Lines before the rows (the CSV header).
    header_lines: usize,
    /// Whether blank lines and lines starting with `#` are skipped (b-files).
    comments: bool,
}

impl Layout {
    /// Calls `each` with every number below the header, in order, after checking that each
    /// row's label is the index of its first number (counted from the first label).
    fn numbers(&self, text: &str, mut each: impl FnMut(usize, u64) -> Parsed<()>) -> Parsed<()> {
        let mut expected = self.first_label;
        for (i, raw) in text.lines().enumerate().skip(self.header_lines) {
            let line = i + 1;
            if self.comments && (raw.trim().is_empty() || raw.starts_with('#')) {
                continue;
            }
            let mut cells = raw.trim().split(self.separator);
            let label = number(cells.next().unwrap_or_default(), line)?;
            if let Some(expected) = expected.filter(|&e| e != label) {
                return Err(format!(
                    "line {line}: the row is labelled {label}, but it should be {expected}, the index of its first entry"
                ));
            }
            let mut count = 0u64;
            for cell in cells {
                count += 1;
                if count > self.per_row {
                    break;
                }
                each(line, number(cell, line)?)?;
            }
            if count == 0 || count > self.per_row {
                return Err(if self.per_row == 1 {
                    format!(
                        "line {line}: expected two columns, an index and a number, separated by '{}'",
                        self.separator
                    )
                } else {
                    format!(
                        "line {line}: expected a label and 1 to {} numbers, as the header announces",
                        self.per_row
                    )
                });
            }
            expected = Some(
                label
                    .checked_add(count)
                    .ok_or(format!("line {line}: the label {label} is too large"))?,
            );
        }
        Ok(())
    }

    /// The numbers as values of positions 0, 1, 2, …, packed with the fewest bits: one pass
    /// for their count and largest value, a second to store them.
    fn values(&self, text: &str) -> Parsed<PackedValues> {
        let (mut count, mut max) = (0u64, 0u32);
        self.numbers(text, |line, v| {
            let v = u32::try_from(v).map_err(|_| {
                format!("line {line}: value {v} is too large (values are below 2^32)")
            })?;
            count += 1;
            max = max.max(v);
            Ok(())
        })?;
        let mut values = PackedValues::try_in_memory(count, PackedValues::bits_for(max))
            .map_err(|e| e.to_string())?;
        let mut x = 0;
        self.numbers(text, |_, v| {
            values.set(x, v as u32);
            x += 1;
            Ok(())
        })?;
        Ok(values)
    }

    /// The numbers as P-positions, which must increase strictly: one pass to check and count
    /// them, a second to store them.
    fn positions(&self, text: &str) -> Parsed<Vec<u64>> {
        let mut ascending = Ascending::default();
        self.numbers(text, |line, p| {
            ascending.check(p, || format!("line {line}"))
        })?;
        let mut positions = room_for(ascending.count)?;
        self.numbers(text, |_, p| {
            positions.push(p);
            Ok(())
        })?;
        Ok(positions)
    }
}

/// Checks that P-positions increase strictly, and counts them.
#[derive(Default)]
struct Ascending {
    last: Option<u64>,
    count: u64,
}

impl Ascending {
    /// Takes the next P-position `p`, or says (at `at`) that it does not increase.
    fn check(&mut self, p: u64, at: impl Fn() -> String) -> Parsed<()> {
        if let Some(last) = self.last.filter(|&last| last >= p) {
            return Err(format!(
                "{}: P-position {p} after {last}: the P-positions are not strictly increasing",
                at()
            ));
        }
        self.last = Some(p);
        self.count += 1;
        Ok(())
    }
}

/// An empty list with room for `count` P-positions, or why it cannot be allocated.
fn room_for(count: u64) -> Parsed<Vec<u64>> {
    crate::table::reserve(count, "the list of P-positions").map_err(|e| e.to_string())
}

fn text(bytes: &[u8]) -> Parsed<&str> {
    std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

fn read_csv(bytes: &[u8], kind: &mut ValueKind) -> Parsed<Contents> {
    let text = text(bytes)?;
    let header = text.lines().next().ok_or("it is empty")?.trim();
    let columns: Vec<&str> = header.split(',').collect();
    let wide = columns[1..]
        .iter()
        .enumerate()
        .all(|(i, c)| *c == format!("+{i}"));
    let layout = |per_row: usize, first_label| Layout {
        separator: ',',
        per_row: per_row as u64,
        first_label,
        header_lines: 1,
        comments: false,
    };
    match (columns[0], &columns[1..]) {
        ("n", ["g"]) => layout(1, Some(0)).values(text).map(Contents::Values),
        ("n", ["outcome"]) => {
            *kind = ValueKind::Outcome;
            layout(1, Some(0)).values(text).map(Contents::Values)
        }
        ("k", ["n"]) => layout(1, None).positions(text).map(Contents::Positions),
        ("n", numbers) if wide && !numbers.is_empty() => layout(numbers.len(), Some(0))
            .values(text)
            .map(Contents::Values),
        ("k", numbers) if wide && !numbers.is_empty() => layout(numbers.len(), None)
            .positions(text)
            .map(Contents::Positions),
        _ => Err(format!(
            "unknown header '{}' (expected n,g or n,outcome or k,n, or n,+0,+1,… or k,+0,+1,… of --wide)",
            shown(header)
        )),
    }
}

fn read_bfile(bytes: &[u8], ppos: bool) -> Parsed<Contents> {
    let text = text(bytes)?;
    let layout = Layout {
        separator: ' ',
        per_row: 1,
        first_label: (!ppos).then_some(0),
        header_lines: 0,
        comments: true,
    };
    if ppos {
        layout.positions(text).map(Contents::Positions)
    } else {
        layout.values(text).map(Contents::Values)
    }
}

fn read_npy(bytes: &[u8], ppos: bool) -> Parsed<Contents> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" || bytes[6] != 1 {
        return Err("not a version 1 .npy file".into());
    }
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = bytes.get(10..10 + header_len).ok_or("truncated header")?;
    let header = std::str::from_utf8(header).map_err(|_| "unreadable header")?;
    let width = ["<u1", "<u2", "<u4", "<u8", "|u1"]
        .iter()
        .zip([1, 2, 4, 8, 1])
        .find(|(d, _)| header.contains(&format!("'descr': '{d}'")))
        .map(|(_, w)| w)
        .ok_or(format!(
            "unsupported dtype in header '{}'",
            shown(header.trim())
        ))?;
    let shape = header
        .split("'shape': (")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .map(|s| s.trim().trim_end_matches(','))
        .and_then(|s| s.trim().parse::<u64>().ok());
    let len = shape.ok_or("the header gives no one-dimensional shape")?;
    let data = &bytes[10 + header_len..];
    let promised = u128::from(len) * width as u128;
    if data.len() as u128 != promised {
        return Err(format!(
            "holds {} data bytes, but its header promises {promised}",
            data.len()
        ));
    }
    let numbers = data.chunks_exact(width).map(|c| {
        let mut word = [0u8; 8];
        word[..width].copy_from_slice(c);
        u64::from_le_bytes(word)
    });
    if ppos {
        return positions_of(len, numbers).map(Contents::Positions);
    }
    let max = numbers.clone().max().unwrap_or(0);
    let max = u32::try_from(max).map_err(|_| format!("value {max} is too large"))?;
    let mut values =
        PackedValues::try_in_memory(len, PackedValues::bits_for(max)).map_err(|e| e.to_string())?;
    for (x, v) in numbers.enumerate() {
        values.set(x as u64, v as u32);
    }
    Ok(Contents::Values(values))
}

fn read_bin(map: Option<Mmap>, kind: &mut ValueKind, stated: &mut Stated) -> Parsed<Contents> {
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
        1 => *kind = ValueKind::Outcome,
        2 => {}
        other => return Err(format!("unknown content code {other}")),
    }
    if content == 2 && bits != 1 {
        return Err(format!(
            "P-position bits take 1 bit a position, not the {bits} its header states"
        ));
    }
    stated.game = Some(spec.to_string());
    stated.n = Some((n, format!("its header states n = {n}")));
    let len = bytes.len();
    let map = map.expect("a file with a header is mapped");
    let words = Words::mapped(map, start..len).map_err(|e| e.to_string())?;
    let values = PackedValues::from_words(n, bits, words);
    Ok(if content == 2 {
        let ones = values
            .words()
            .iter()
            .map(|w| u64::from(w.count_ones()))
            .sum();
        let mut positions = room_for(ones)?;
        for (w, &word) in values.words().iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                positions.push(w as u64 * 64 + u64::from(rest.trailing_zeros()));
                rest &= rest - 1;
            }
        }
        Contents::Positions(positions)
    } else {
        Contents::Values(values)
    })
}

fn read_u64s(bytes: &[u8]) -> Parsed<Vec<u64>> {
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

/// The `count` P-positions `numbers` of a binary file, which must increase strictly.
fn positions_of(count: u64, numbers: impl Iterator<Item = u64>) -> Parsed<Vec<u64>> {
    let mut positions = room_for(count)?;
    let mut ascending = Ascending::default();
    for (i, p) in numbers.enumerate() {
        ascending.check(p, || format!("entry {i}"))?;
        positions.push(p);
    }
    Ok(positions)
}
