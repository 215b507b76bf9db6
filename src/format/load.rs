//! Reading tables nimsieve wrote (CSV, b-file, npy, bin, u64) back, for `stats`, `plot` and
//! `verify`, each with the reader beside its writer; the tables and P-pairs of Wythoff's
//! two-heap game by `two_heaps/read.rs`. The format follows from the file's extension; the game, play and size come from
//! the bin header or the JSON summary beside the file (same name, `.json`) when there is one,
//! and a file that states its n or game differently from that summary is refused.
//!
//! Files are mapped read-only. A `.bin` table's values are read in place; other formats' values
//! are packed in memory with the fewest bits. Everything a reader reads is checked: header
//! fields, the checksum, row labels (`n`, `k` and the first column of `--wide` rows), numbers
//! and lengths, and sizes are compared with the file's length before anything the size of the
//! table is allocated.

use super::json::{Listed, Summary};
use super::read::read_before;
use super::{bfile, bin, csv, npy, two_heaps, u64s};
use crate::error::{Error, Result};
use crate::period::Period;
use crate::provenance::Provenance;
use crate::regular_file;
use crate::table::ValueKind;
use crate::table::packed::PackedValues;
use memmap2::Mmap;
use std::path::Path;

/// What a table file holds.
#[derive(Debug)]
pub enum Contents {
    /// g(x) (or misère outcomes) for x = 0, 1, 2, …, packed (read in place from a `.bin` file).
    Values(PackedValues),
    /// P-positions, ascending.
    Positions(Vec<u64>),
    /// A table of a two-heap game (Wythoff's): G(x, y) for 0 ≤ x, y < n.
    Grid(super::two_heaps::Grid),
    /// The P-pairs (a_k, b_k) of a two-heap game (Wythoff's), k = 0, 1, ….
    Pairs(Vec<[u64; 2]>),
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
    /// The proven period the JSON summary beside the file states, if any.
    pub period: Option<Period>,
    /// True when the JSON summary beside the file says `--until-period` ended the table.
    pub stopped_at_period: bool,
    /// How the table was made, as the file records it (a `.bin` or `.npy` header) or the JSON
    /// summary beside it; None when neither does (an OEIS b-file, a table of another program).
    pub provenance: Option<Provenance>,
    /// The position of the first value: 0, but for a b-file of values read at its offset
    /// ([`load_at_offset`]).
    pub first: u64,
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
    load_of(path, ppos, None)
}

/// [`load`], told whether the table is one of Wythoff's two-heap game (`two_heap`: Some(true)
/// for `--game wythoff`, which alone tells its b-file of a_k from a list of P-positions when no
/// JSON summary is beside it; Some(false) for a one-heap game, whose table is never read as
/// Wythoff's whatever its shape; None when not told).
pub fn load_of(path: &Path, ppos: Option<bool>, two_heap: Option<bool>) -> Result<Loaded> {
    load_with(path, ppos, two_heap, false)
}

/// [`load`], but a b-file of values may start at any index (an OEIS b-file's offset, such as
/// 1): its values are then those of the positions from [`Loaded::first`] on.
pub fn load_at_offset(path: &Path, ppos: Option<bool>) -> Result<Loaded> {
    load_with(path, ppos, None, true)
}

/// [`load_of`], reading a b-file of values from its first index when `at_offset`.
fn load_with(
    path: &Path,
    ppos: Option<bool>,
    two_heap: Option<bool>,
    at_offset: bool,
) -> Result<Loaded> {
    let bad = |why: String| Error::not_a_table(path, why);
    if path.to_string_lossy().to_lowercase().ends_with(".freq.txt") {
        return Err(bad(
            "it is a frequency table (the freq format: value counts), not a table of values; give the table itself (.csv, .txt, .npy, .bin or .u64)".into(),
        ));
    }
    let map = map_file(path)?;
    let named_ppos = path
        .file_stem()
        .is_some_and(|s| s.to_string_lossy().ends_with("-ppos"));
    let beside = read_beside(path);
    let mut summary = beside
        .as_deref()
        .and_then(|b| serde_json::from_slice::<Summary>(b).ok());
    let told = two_heap;
    let two_heap = beside.as_deref().and_then(two_heaps::stated);
    let summary_ppos = summary
        .as_ref()
        .is_some_and(|s| matches!(s.listing, Listed::Positions { .. }));
    let pairs_stated = two_heap.as_ref().is_some_and(|s| s.pairs.is_some());
    let ppos = ppos.unwrap_or(named_ppos || summary_ppos || pairs_stated);
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    // What the file's own header records of how it was made.
    let recorded = map.as_deref().and_then(|bytes| match extension.as_str() {
        "bin" => bin::provenance(bytes),
        "npy" => npy::provenance(bytes),
        _ => None,
    });
    let map = match told {
        Some(false) => map,
        _ => match two_heaps::read(
            &extension,
            map,
            ppos,
            told == Some(true) || two_heap.is_some(),
        )
        .map_err(bad)?
        {
            Ok(contents) => {
                let mut loaded = two_heap_table(contents, two_heap, bad)?;
                loaded.provenance = recorded.or(loaded.provenance);
                return Ok(loaded);
            }
            Err(map) => map,
        },
    };
    let mut kind = summary.as_ref().map_or(ValueKind::Grundy, Summary::kind);
    let mut stated = Stated::default();
    let mut first = 0;
    let contents = if extension == "bin" {
        bin::read(map, &mut kind).map(|table| {
            stated.game = Some(table.game);
            let n = table.n;
            stated.n = Some((n, format!("its header states n = {n}")));
            table.contents
        })
    } else {
        let bytes = map.as_deref().unwrap_or_default();
        match extension.as_str() {
            "csv" => csv::read(bytes, &mut kind),
            "txt" => {
                let index = bfile::first_index(bytes);
                first = match index {
                    Some(index) if at_offset && !ppos => index,
                    _ => 0,
                };
                bfile::read(bytes, ppos, first).map_err(|why| match index {
                    Some(index) if index > 0 && !ppos => format!(
                        "{why} (a table of values counts from 0; only compare reads a b-file from another first index)"
                    ),
                    _ => why,
                })
            }
            "npy" => npy::read(bytes, ppos, &read_before(map.as_ref())),
            "u64" => u64s::read(bytes).map(Contents::Positions),
            other => {
                return Err(Error::not_a_table(
                    path,
                    format!("its extension '{other}' names no format nimsieve reads (use .csv, .txt, .npy, .bin or .u64)"),
                ));
            }
        }
    }
    .map_err(bad)?;
    if let (Contents::Values(values), None) = (&contents, &stated.n) {
        stated.n = Some((
            first + values.len(),
            format!("it holds {} values", values.len()),
        ));
    }
    let summary_n = summary.as_ref().map(|s| s.n);
    let (period, stopped_at_period) = match summary.as_ref().map(|s| &s.listing) {
        Some(Listed::Values {
            period,
            stopped_at_period,
            ..
        }) => (*period, *stopped_at_period),
        _ => (None, false),
    };
    let made = recorded.or_else(|| summary.as_mut().and_then(|s| s.provenance.take()));
    let summary_game = summary.map(|s| s.game);
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
        period,
        stopped_at_period,
        provenance: made,
        first,
    })
}

/// The file at `path` mapped read-only (None for an empty file, which cannot be mapped); a
/// FIFO, device or folder is refused before it is opened, never waited on.
pub(super) fn map_file(path: &Path) -> Result<Option<Mmap>> {
    let (file, len) = regular_file::open(path).map_err(|e| Error::io("cannot read", path, e))?;
    if len == 0 {
        return Ok(None);
    }
    // SAFETY: the file is only read; a table changed by another process while it is being read
    // is outside supported use.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io("cannot map", path, e))?;
    Ok(Some(map))
}

/// A table of Wythoff's game (its grid or its P-pairs), checked against the JSON summary
/// beside it (`stated`) when there is one.
fn two_heap_table(
    contents: Contents,
    stated: Option<two_heaps::Stated>,
    bad: impl Fn(String) -> Error,
) -> Result<Loaded> {
    let (n, what) = match &contents {
        Contents::Grid(grid) => (grid.n, format!("it is a table of side {}", grid.n)),
        Contents::Pairs(pairs) => (
            stated
                .as_ref()
                .map_or_else(|| pairs.last().map_or(0, |&[a, _]| a + 1), |s| s.n),
            format!("it holds {} pairs", pairs.len()),
        ),
        _ => unreachable!("the reader of Wythoff's game returns its table or its pairs"),
    };
    if let Some(stated) = &stated {
        let disagrees = match &contents {
            Contents::Pairs(pairs) => stated.pairs != Some(pairs.len() as u64),
            _ => stated.pairs.is_some() || stated.n != n,
        };
        if disagrees {
            let says = match stated.pairs {
                Some(count) => format!("{count} pairs"),
                None => format!("a table of side {}", stated.n),
            };
            return Err(bad(format!(
                "{what}, but the JSON summary beside it states {says}; the two disagree, so neither is trusted: write both again with nimsieve"
            )));
        }
    }
    Ok(Loaded {
        contents,
        game: Some(crate::game::wythoff::NAME.to_string()),
        n: Some(n),
        kind: ValueKind::Grundy,
        period: None,
        stopped_at_period: false,
        provenance: stated.and_then(|s| s.provenance),
        first: 0,
    })
}

/// The most bytes a JSON summary read beside a table may hold (one far larger is not one).
const MOST_SUMMARY_BYTES: u64 = 1 << 28;

/// The bytes of the JSON summary beside `path`, if there is a readable one (a regular file of
/// at most [`MOST_SUMMARY_BYTES`]; a FIFO there is not waited on).
fn read_beside(path: &Path) -> Option<Vec<u8>> {
    let beside = path.with_extension("json");
    (beside != path)
        .then(|| regular_file::read(&beside, MOST_SUMMARY_BYTES).ok())
        .flatten()
}
