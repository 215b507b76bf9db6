//! `nimsieve convert` and Python's `save`: a table read from a file (or given as an array)
//! written again in other formats, as a run writes them, atomically. The table streams from its
//! source as `stats` reads it (a `.bin` file in place); each table written is then read back and
//! compared entry by entry with the source before it counts as written, and one that differs is
//! removed. The files keep the source's provenance: how the table was first made.

use super::compare::compare;
use crate::error::{Error, Result};
use crate::format::{self, Contents, Destination, Format, Loaded};
use crate::game::Game;
use crate::provenance::Provenance;
use crate::report::{Kind, Report};
use crate::run::{self, DEFAULT_MODULUS, Outputs, Written};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where a conversion's table comes from.
pub struct Source<'a> {
    /// Reads the table; called once to write it and once more to compare the tables written
    /// with it.
    pub load: &'a dyn Fn() -> Result<Loaded>,
    /// The source file, which no output may replace (None for an array).
    pub path: Option<&'a Path>,
    /// The name of the outputs, before their extensions.
    pub stem: &'a str,
}

/// The formats whose files are read back and compared with the source.
const READ_BACK: [Format; 5] = [
    Format::Csv,
    Format::Bfile,
    Format::Npy,
    Format::Bin,
    Format::U64,
];

/// Writes the table of `source` to `outputs`, as one of the game `game_of` says (None when
/// unknown); a table that records no provenance gets that of `command`. `said` hears of the
/// report before anything is written, `wrote` of each file once it is written and, for a
/// table, read back equal to the source.
pub fn convert(
    source: &Source,
    game_of: &dyn Fn(&Loaded) -> Result<Option<Game>>,
    outputs: &Outputs,
    command: &str,
    said: impl FnOnce(&Report),
    mut wrote: impl FnMut(&Path),
) -> Result<Written> {
    let started = Instant::now();
    let mut loaded = (source.load)()?;
    let threads = rayon::current_num_threads();
    loaded
        .provenance
        .get_or_insert_with(|| Provenance::now(command, "convert", threads));
    let ppos = matches!(loaded.contents, Contents::Positions(_) | Contents::Pairs(_));
    let two_heap = matches!(loaded.contents, Contents::Grid(_) | Contents::Pairs(_));
    let game = game_of(&loaded)?.filter(|game| game.heaps() == 1);
    let report = run::report_of_file(loaded, game.as_ref(), DEFAULT_MODULUS, started, "convert");
    let kind = report.kind();
    let numbers = (kind == Kind::Values).then_some(report.n());
    let largest = report.n().saturating_sub(1);
    outputs.check_formats(kind, &report.info().game, largest, numbers)?;
    let destinations = outputs.destinations(source.stem)?;
    if let Some(source_path) = source.path {
        refuse_overwriting(source_path, &destinations)?;
    }
    said(&report);
    let written = run::write_report(&report, &destinations, &outputs.layout, |_| {})?;
    drop(report);
    let files = destinations
        .iter()
        .filter_map(|(format, destination)| match destination {
            Destination::File(path) => Some((*format, path)),
            _ => None,
        });
    let read_back: Vec<&PathBuf> = files
        .clone()
        .filter(|(format, path)| READ_BACK.contains(format) && !format::is_special(path))
        .map(|(_, path)| path)
        .collect();
    if !read_back.is_empty() {
        let original = (source.load)()?;
        for path in read_back {
            let back = format::load_of(path, Some(ppos), Some(two_heap))?;
            let comparison = compare(&original, &back)?;
            if !comparison.equal() {
                // The file is not the table: it must not stay as if it were.
                let _ = std::fs::remove_file(path);
                return Err(Error::Input(format!(
                    "'{}' was written but reads back unlike the source ({} of its {} {} differ); it is removed: check the disk and convert again",
                    path.display(),
                    comparison.differing,
                    comparison.compared,
                    comparison.what
                )));
            }
        }
    }
    files.for_each(|(_, path)| wrote(path));
    Ok(written)
}

/// Refuses a destination that is the source file itself (by any name).
fn refuse_overwriting(source: &Path, destinations: &[(Format, Destination)]) -> Result<()> {
    let canonical = source.canonicalize().ok();
    for (format, destination) in destinations {
        if let Destination::File(path) = destination
            && (path == source
                || path
                    .canonicalize()
                    .ok()
                    .is_some_and(|p| Some(p) == canonical))
        {
            return Err(Error::Input(format!(
                "converting '{}' to {} would write over the table itself; write it to another file or folder",
                source.display(),
                crate::choice::Choice::name(*format)
            )));
        }
    }
    Ok(())
}
