//! A request that ends in files: the destinations named and checked, the formats' limits
//! checked before anything is computed, the run, its report written atomically in each format,
//! and the work file removed. Every front end that writes a table (the command line, the
//! Python package) comes through here, Wythoff's game too (`wythoff.rs` runs its engine and
//! writes its formats through [`write_each`]).

use super::{Listing, Request, Run};
use crate::error::{Error, Result};
use crate::format::{self, Destination, Format};
use crate::progress::Progress;
use crate::report::Report;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Where a run's report goes: `formats`, each named as `-o` (`output`) says, in `folder`.
#[derive(Debug, Clone)]
pub struct Outputs {
    /// The formats to write, in order.
    pub formats: Vec<Format>,
    /// Where the formats go.
    pub output: Output,
    /// The folder of the files named after the request.
    pub folder: PathBuf,
    /// How the formats lay the table out.
    pub layout: format::Layout,
    /// Keep the work file (and its checkpoint, for `--resume`) when the run is interrupted or
    /// fails, or a format cannot be written; otherwise it is removed however the run ends.
    pub keep_work_on_failure: bool,
}

/// Where a run's formats go.
#[derive(Debug, Clone)]
pub enum Output {
    /// As `-o` says: a file (one format), `FOLDER/`, `-` for standard output, or None: files
    /// named after the request in [`Outputs::folder`].
    Named(Option<String>),
    /// This file, whatever its name, for the one format.
    File(PathBuf),
}

/// The files a run wrote.
#[derive(Debug)]
pub struct Written {
    /// Each regular file written, open for reading: this run's file even when another run has
    /// since replaced it.
    pub files: Vec<(PathBuf, File)>,
}

impl Outputs {
    /// The destination of each format for files named `stem`, each checked writable.
    pub(super) fn destinations(&self, stem: &str) -> Result<Vec<(Format, Destination)>> {
        let destinations = match (&self.output, self.formats.as_slice()) {
            (Output::Named(output), formats) => {
                format::destinations(formats, output.as_deref(), &self.folder, stem)?
            }
            (Output::File(path), &[format]) => vec![(format, Destination::File(path.clone()))],
            (Output::File(path), formats) => {
                return Err(Error::Input(format!(
                    "'{}' is one file but {} formats were asked for; give one",
                    path.display(),
                    formats.len()
                )));
            }
        };
        destinations
            .iter()
            .try_for_each(|(_, d)| d.check_writable())?;
        Ok(destinations)
    }
}

/// Runs `request` and writes its report to `outputs`. `said` hears of the report once it is
/// made (before anything is written), and `wrote` of each file as it is written. A format that
/// fails does not stop the others; the first failure is returned. A table that its proven
/// period stopped early is named after the length it holds.
pub fn write(
    request: Request,
    outputs: &Outputs,
    progress: &Progress,
    said: impl FnOnce(&Report),
    mut wrote: impl FnMut(&Path),
) -> Result<Written> {
    let destinations = outputs.destinations(&request.stem())?;
    let ppos = matches!(request.listing, Listing::Ppos { .. });
    // grundy writes n values; the number of P-positions is known only after the run.
    let numbers = (!ppos).then_some(request.n);
    let largest = largest_number(&request)?;
    outputs.formats.iter().try_for_each(|f| {
        f.check_listing(ppos)?;
        f.check_size(largest, numbers, &outputs.layout)
    })?;

    // Locked from here until the work files are removed.
    let run = Run::start(request)?;
    let written = run.report(progress).and_then(|report| {
        progress.finish();
        said(&report);
        let destinations = match report.n() < run.request().n {
            true => outputs.destinations(
                &Request {
                    n: report.n(),
                    ..run.request().clone()
                }
                .stem(),
            )?,
            false => destinations,
        };
        write_each(
            &destinations,
            |format, destination| write_one(format, &report, &outputs.layout, destination),
            &mut wrote,
        )
    });
    if written.is_ok() || !outputs.keep_work_on_failure {
        run.finish();
    }
    written
}

/// Writes each destination with `write` (which returns a regular file it wrote, open for
/// reading), telling `wrote` of each file written. A format that fails does not stop the
/// others; the first failure is returned. Every front end's files end here: the tables of every
/// game, and the rows of `sweep`.
pub fn write_each<F: Copy>(
    destinations: &[(F, Destination)],
    mut write: impl FnMut(F, &Destination) -> Result<Option<File>>,
    mut wrote: impl FnMut(&Path),
) -> Result<Written> {
    let (mut files, mut failure) = (Vec::new(), None);
    for (format, destination) in destinations {
        match write(*format, destination) {
            Ok(file) => {
                if let Destination::File(path) = destination {
                    wrote(path);
                    files.extend(file.map(|file| (path.clone(), file)));
                }
            }
            Err(e) => {
                failure.get_or_insert(e);
            }
        }
    }
    failure.map_or(Ok(Written { files }), Err)
}

/// Writes whatever `fill` writes to `destination`: a regular file atomically, returning it
/// open for reading; standard output or a special file (`/dev/null`, a FIFO) in place.
pub fn write_destination(
    destination: &Destination,
    fill: impl FnOnce(&mut (dyn std::io::Write + Send)) -> std::io::Result<()>,
) -> Result<Option<File>> {
    match destination {
        Destination::File(path) if !format::is_special(path) => {
            format::write_new(path, fill).map(Some)
        }
        _ => format::write_with(destination, fill).map(|()| None),
    }
}

/// Writes one format of the report, unless the format cannot hold it.
fn write_one(
    format: Format,
    report: &Report,
    layout: &format::Layout,
    destination: &Destination,
) -> Result<Option<File>> {
    let emitter = format.emitter(layout);
    emitter.check(report)?;
    write_destination(destination, |out| emitter.write(report, out))
}

/// The largest number the rows of the request's table may hold: the last position, or for
/// P-positions the last index, at most offset + n - 1 (n is at least 1). An offset that would
/// carry an index past 2^64 - 1 is refused.
fn largest_number(request: &Request) -> Result<u64> {
    let n = request.n.max(1);
    let offset = match request.listing {
        Listing::Ppos { offset } => offset,
        Listing::Grundy => 0,
    };
    offset.checked_add(n - 1).ok_or_else(|| {
        Error::Input(format!(
            "--offset {offset}: the indexes of up to {n} P-positions (offset + N - 1) would pass 2^64 - 1; give --offset {} or less",
            u64::MAX - (n - 1)
        ))
    })
}
