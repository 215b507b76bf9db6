//! Reading tables nimsieve wrote (CSV, b-file, npy, bin, u64) back into memory, for `stats` and `plot`.
//! The format follows from the file's extension; the game, play and size come from the bin
//! header or the JSON summary beside the file (same name, `.json`) when there is one.

use crate::error::{Error, Result};
use crate::table::ValueKind;
use std::path::Path;

/// What a table file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contents {
    /// g(x) (or misère outcomes) for x = 0, 1, 2, …
    Values(Vec<u32>),
    /// P-positions, ascending.
    Positions(Vec<u64>),
}

/// A table read from a file, with what is known about it.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Reads the table in `path`. `ppos` says whether a b-file or npy file holds P-positions
/// (default: when its name ends in `-ppos`, or the JSON summary beside it is that of `ppos`).
pub fn load(path: &Path, ppos: Option<bool>) -> Result<Loaded> {
    let bad = |why: String| {
        Error::Input(format!(
            "cannot read '{}' as a nimsieve table: {why}",
            path.display()
        ))
    };
    let bytes = std::fs::read(path).map_err(|e| Error::io("cannot read", path, e))?;
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
    let mut loaded = Loaded {
        contents: Contents::Positions(Vec::new()),
        game: summary
            .as_ref()
            .and_then(|s| s["game"].as_str().map(str::to_string)),
        n: summary.as_ref().and_then(|s| s["n"].as_u64()),
        kind: match summary.as_ref().and_then(|s| s["play"].as_str()) {
            Some("misere") => ValueKind::Outcome,
            _ => ValueKind::Grundy,
        },
    };
    loaded.contents = match extension.as_str() {
        "csv" => read_csv(&bytes, &mut loaded).map_err(bad)?,
        "txt" => read_bfile(&bytes, ppos).map_err(bad)?,
        "npy" => read_npy(&bytes, ppos).map_err(bad)?,
        "bin" => read_bin(&bytes, &mut loaded).map_err(bad)?,
        "u64" => Contents::Positions(read_u64s(&bytes).map_err(bad)?),
        other => {
            return Err(Error::Input(format!(
                "cannot tell the format of '{}' from its extension '{other}' (use .csv, .txt, .npy, .bin or .u64)",
                path.display()
            )));
        }
    };
    if let Contents::Positions(p) = &loaded.contents
        && p.windows(2).any(|w| w[0] >= w[1])
    {
        return Err(bad("its P-positions are not strictly increasing".into()));
    }
    Ok(loaded)
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
        .map_err(|_| format!("line {line}: '{}' is not a number", text.trim()))
}

fn read_csv(bytes: &[u8], loaded: &mut Loaded) -> Parsed<Contents> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())?;
    let mut lines = text.lines();
    let header = lines.next().ok_or("it is empty")?.trim();
    let pairs = lines.enumerate().map(|(i, l)| {
        let (a, b) = l
            .split_once(',')
            .ok_or(format!("line {}: expected two columns", i + 2))?;
        Ok((number(a, i + 2)?, number(b, i + 2)?))
    });
    match header {
        "n,g" | "n,outcome" => {
            if header == "n,outcome" {
                loaded.kind = ValueKind::Outcome;
            }
            values_from(pairs)
        }
        "k,n" => Ok(Contents::Positions(
            pairs.map(|p| p.map(|(_, x)| x)).collect::<Parsed<_>>()?,
        )),
        wide if wide.starts_with("n,+0") || wide.starts_with("k,+0") => {
            let mut numbers = Vec::new();
            for (i, line) in text.lines().enumerate().skip(1) {
                for cell in line.split(',').skip(1) {
                    numbers.push(number(cell, i + 1)?);
                }
            }
            if wide.starts_with('k') {
                Ok(Contents::Positions(numbers))
            } else {
                values_from(
                    numbers
                        .into_iter()
                        .enumerate()
                        .map(|(x, v)| Ok((x as u64, v))),
                )
            }
        }
        other => Err(format!(
            "unknown header '{other}' (expected n,g or n,outcome or k,n)"
        )),
    }
}

fn read_bfile(bytes: &[u8], ppos: bool) -> Parsed<Contents> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())?;
    let pairs = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (a, b) = l
                .trim()
                .split_once(' ')
                .ok_or(format!("line {}: expected 'index value'", i + 1))?;
            Ok((number(a, i + 1)?, number(b, i + 1)?))
        });
    if ppos {
        Ok(Contents::Positions(
            pairs.map(|p| p.map(|(_, x)| x)).collect::<Parsed<_>>()?,
        ))
    } else {
        values_from(pairs)
    }
}

/// Values from (index, value) pairs whose indices must be 0, 1, 2, …
fn values_from(pairs: impl Iterator<Item = Parsed<(u64, u64)>>) -> Parsed<Contents> {
    let mut values = Vec::new();
    for pair in pairs {
        let (x, v) = pair?;
        if x != values.len() as u64 {
            return Err(format!(
                "position {x} follows position {} (rows must be 0, 1, 2, …)",
                values.len() as i64 - 1
            ));
        }
        values
            .push(u32::try_from(v).map_err(|_| format!("value {v} at position {x} is too large"))?);
    }
    Ok(Contents::Values(values))
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
        .ok_or(format!("unsupported dtype in header {header}"))?;
    let shape = header
        .split("'shape': (")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.trim().parse::<usize>().ok());
    let len = shape.ok_or("the header gives no one-dimensional shape")?;
    let data = &bytes[10 + header_len..];
    if data.len() != len * width {
        return Err(format!(
            "holds {} data bytes, but its header promises {}",
            data.len(),
            len * width
        ));
    }
    let numbers = data.chunks(width).map(|c| {
        let mut word = [0u8; 8];
        word[..width].copy_from_slice(c);
        u64::from_le_bytes(word)
    });
    if ppos {
        Ok(Contents::Positions(numbers.collect()))
    } else {
        numbers
            .map(|v| u32::try_from(v).map_err(|_| format!("value {v} is too large")))
            .collect::<Parsed<_>>()
            .map(Contents::Values)
    }
}

fn read_bin(bytes: &[u8], loaded: &mut Loaded) -> Parsed<Contents> {
    let field = |at: usize, len: usize| {
        bytes
            .get(at..at + len)
            .ok_or("truncated header".to_string())
    };
    let u32_at = |at| field(at, 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    if field(0, 8)? != b"NIMSIEVE" || u32_at(8)? != 1 {
        return Err("not a version 1 nimsieve .bin file".into());
    }
    let content = u32_at(12)?;
    let n = u64::from_le_bytes(field(16, 8)?.try_into().unwrap());
    let (bits, spec_len) = (u32_at(24)?, u32_at(28)? as usize);
    if !matches!(bits, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(format!("{bits} bits per position is not a supported width"));
    }
    let spec =
        std::str::from_utf8(field(40, spec_len)?).map_err(|_| "the game spec is not UTF-8")?;
    let payload = &bytes[(40 + spec_len.next_multiple_of(8)).min(bytes.len())..];
    if payload.len() as u64 != (n * u64::from(bits)).div_ceil(64) * 8 {
        return Err(format!(
            "its payload holds {} bytes, not the {} of {n} positions",
            payload.len(),
            (n * u64::from(bits)).div_ceil(64) * 8
        ));
    }
    if crc32fast::hash(payload) != u32_at(32)? {
        return Err("its checksum does not match: the file is corrupt".into());
    }
    loaded.game = Some(spec.to_string());
    loaded.n = Some(n);
    let value = |x: u64| {
        let bit = x * u64::from(bits);
        let mut word = [0u8; 8];
        let start = (bit / 64 * 8) as usize;
        word.copy_from_slice(&payload[start..start + 8]);
        ((u64::from_le_bytes(word) >> (bit % 64)) & ((1u64 << bits) - 1)) as u32
    };
    Ok(match content {
        0 | 1 => {
            loaded.kind = if content == 1 {
                ValueKind::Outcome
            } else {
                ValueKind::Grundy
            };
            Contents::Values((0..n).map(value).collect())
        }
        2 => Contents::Positions((0..n).filter(|&x| value(x) == 1).collect()),
        other => return Err(format!("unknown content code {other}")),
    })
}

fn read_u64s(bytes: &[u8]) -> Parsed<Vec<u64>> {
    if !bytes.len().is_multiple_of(8) {
        return Err(format!(
            "its size, {} bytes, is not a multiple of 8",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect())
}
