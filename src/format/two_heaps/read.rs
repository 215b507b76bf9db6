//! Files of a game of two heaps (Wythoff's) read back: the table (a `.bin` whose header names the game, a square
//! two-dimensional `.npy`, the CSV matrix) and the P-pairs (CSV `k,a,b`, the b-file of a_k, an
//! `.npy` of shape (pairs, 2)), each told from the file itself or, for the b-file, from the JSON
//! summary beside it.

use crate::format::read::{Parsed, number, read_before, shown, text};
use crate::format::{Contents, bin, npy};
use crate::game::{Heaps, heaps_of};
use crate::table::ValueKind;
use crate::table::packed::PackedValues;
use memmap2::Mmap;
use serde::Deserialize;

/// A square table of a game of two heaps read back.
#[derive(Debug)]
pub struct Grid {
    /// The side: 0 ≤ x, y < n.
    pub n: u64,
    /// G(x, y) at position x·n + y.
    pub values: PackedValues,
}

/// What a JSON summary of a game of two heaps states (of the table, or of the P-pairs).
#[derive(Debug, Clone, Deserialize)]
pub struct Stated {
    /// `wythoff`.
    pub game: String,
    /// The side of the table, or the bound a_k < n of the pairs.
    pub n: u64,
    /// The number of pairs (only in the summary of the pairs).
    #[serde(default)]
    pub pairs: Option<u64>,
    /// How the table was made, when the summary records it.
    #[serde(default)]
    pub provenance: Option<crate::provenance::Provenance>,
}

/// The summary of a game of two heaps in `bytes` (the JSON beside a table), if it is one.
pub fn stated(bytes: &[u8]) -> Option<Stated> {
    serde_json::from_slice::<Stated>(bytes)
        .ok()
        .filter(|s| two_heaps(&s.game))
}

/// True for the name of a game of two heaps.
fn two_heaps(game: &str) -> bool {
    heaps_of(game) == Some(Heaps::Two)
}

/// The contents of a file of Wythoff's game with `extension`; the map given back when the file
/// is not one (a one-heap table). `pairs` says a file that could hold either holds P-pairs
/// (its name ends in `-ppos`, or its summary is that of the pairs); `stated` that the JSON
/// summary beside it is one of Wythoff's game, which alone tells its b-file of a_k.
pub fn read(
    extension: &str,
    map: Option<Mmap>,
    pairs: bool,
    stated: bool,
) -> Parsed<Result<Contents, Option<Mmap>>> {
    let bytes = map.as_deref().unwrap_or_default();
    match extension {
        "bin" if names_two_heap_game(bytes) => match bin::read(map, &mut ValueKind::Grundy)? {
            bin::BinTable {
                contents: Contents::Values(values),
                n: cells,
                ..
            } => square(cells, values).map(Ok),
            _ => Err("it holds P-position bits, not a table of Wythoff's game".into()),
        },
        "npy" => match npy::shape(bytes).as_deref() {
            Some(&[_, 2]) if pairs => {
                npy::read_pairs(bytes, &read_before(map.as_ref())).map(|p| Ok(Contents::Pairs(p)))
            }
            Some(&[rows, columns]) if rows == columns => {
                match npy::read_matrix(bytes, &read_before(map.as_ref()))? {
                    Some((_, values)) => square(rows * rows, values).map(Ok),
                    None => unreachable!("a two-dimensional shape"),
                }
            }
            Some(&[rows, columns]) => Err(format!(
                "its array is {rows}×{columns}: neither square like a table of Wythoff's game nor the (pairs, 2) of its P-pairs (name it *-ppos.npy for pairs)"
            )),
            _ => Ok(Err(map)),
        },
        "csv" => {
            let text = text(bytes)?;
            let header = text.lines().next().unwrap_or_default().trim();
            if header == "x/y" || header.starts_with("x/y,") {
                read_matrix(text, header).map(Ok)
            } else if header == "k,a,b" {
                read_pairs(text, true).map(|p| Ok(Contents::Pairs(p)))
            } else {
                Ok(Err(map))
            }
        }
        "txt" if stated && pairs => read_pairs(text(bytes)?, false).map(|p| Ok(Contents::Pairs(p))),
        _ => Ok(Err(map)),
    }
}

/// The table of `cells` values, which must be a square.
fn square(cells: u64, values: PackedValues) -> Parsed<Contents> {
    let n = cells.isqrt();
    if n * n != cells {
        return Err(format!(
            "it holds {cells} values, not the n² of a square table of Wythoff's game"
        ));
    }
    Ok(Contents::Grid(Grid { n, values }))
}

/// Whether the `.bin` header in `bytes` names a game of two heaps (checked in full later).
fn names_two_heap_game(bytes: &[u8]) -> bool {
    let spec_len = bytes.get(28..32).map_or(0, |b| {
        u32::from_le_bytes(b.try_into().expect("four bytes")) as usize
    });
    let game = bytes.get(40..40 + spec_len).map(String::from_utf8_lossy);
    bytes.starts_with(b"NIMSIEVE") && game.is_some_and(|game| two_heaps(&game))
}

/// The numbers of a CSV or b-file line, with the line number in the reason it is refused.
fn numbers(line: &str, separator: char, at: usize) -> Parsed<Vec<u64>> {
    line.trim()
        .split(separator)
        .map(|cell| number(cell.as_bytes(), at as u64))
        .collect()
}

/// The CSV matrix: the header `x/y,0,1,…,n−1`, then row x as `x,G(x,0),…,G(x,n−1)`.
fn read_matrix(text: &str, header: &str) -> Parsed<Contents> {
    let n = header.split(',').count() as u64 - 1;
    let labels = header.split(',').skip(1).map(str::trim);
    if let Some((y, label)) = labels.enumerate().find(|(y, l)| *l != y.to_string()) {
        return Err(format!(
            "the header names column {y} '{}', but the columns are 0, 1, …, n − 1",
            shown(label)
        ));
    }
    let mut values = crate::table::reserve::<u32>(n * n, "the table of Wythoff's game")
        .map_err(|e| e.to_string())?;
    let mut x = 0;
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let row = numbers(line, ',', i + 1)?;
        if row[0] != x || row.len() as u64 != n + 1 {
            return Err(format!(
                "line {}: expected row {x}, its label and {n} values, as the header announces",
                i + 1
            ));
        }
        for &v in &row[1..] {
            values.push(u32::try_from(v).map_err(|_| {
                format!(
                    "line {}: value {v} is too large (values are below 2^32)",
                    i + 1
                )
            })?);
        }
        x += 1;
    }
    if x != n {
        return Err(format!(
            "it holds {x} rows, but its header announces {n} columns"
        ));
    }
    Ok(Contents::Grid(Grid {
        n,
        values: PackedValues::from_values(&values).map_err(|e| e.to_string())?,
    }))
}

/// The P-pairs of the CSV (`k,a,b` from k = 0, below its header) or of the b-file of a_k
/// (`k a_k` from k = 1, b_k = a_k + k, the pair (0, 0) before it).
fn read_pairs(text: &str, csv: bool) -> Parsed<Vec<[u64; 2]>> {
    let mut pairs = if csv { Vec::new() } else { vec![[0, 0]] };
    let lines = text.lines().enumerate().skip(usize::from(csv));
    for (i, line) in lines {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let row = numbers(line, if csv { ',' } else { ' ' }, i + 1)?;
        let k = pairs.len() as u64;
        let pair = match row[..] {
            [label, a, b] if csv && label == k => [a, b],
            [label, a] if !csv && label == k => [a, a.checked_add(k).ok_or("b_k past 2^64 − 1")?],
            _ => {
                return Err(format!(
                    "line {}: expected {} for pair {k}",
                    i + 1,
                    if csv { "k,a,b" } else { "k a_k" }
                ));
            }
        };
        pairs.push(pair);
    }
    Ok(pairs)
}
