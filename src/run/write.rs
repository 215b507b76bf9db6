//! A request that ends in files: the destinations named and checked, the formats' limits
//! checked before anything is computed, the run, its report written atomically in each format,
//! and the work file removed. Every front end that writes a table (the command line, the
//! Python package) comes through here, for games of one heap and of two.

use super::{Listing, Passed, Request, Run, two_heaps};
use crate::error::{Error, Param, Result};
use crate::format::{self, Destination, Format, Output};
use crate::progress::Progress;
use crate::report::{Kind, Report};
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

/// The files a run wrote.
#[derive(Debug)]
pub struct Written {
    /// Each regular file written, open for reading: this run's file even when another run has
    /// since replaced it.
    pub files: Vec<(PathBuf, File)>,
}

impl Outputs {
    /// Refuses formats that cannot hold a report of `kind` for the game `spec`, or a table
    /// whose rows would number past a format's limit (`largest`: the largest number a row
    /// holds; `numbers`: how many numbers, when known).
    pub fn check_formats(
        &self,
        kind: Kind,
        spec: &str,
        largest: u64,
        numbers: Option<u64>,
    ) -> Result<()> {
        if self.layout.wide.is_some() && matches!(kind, Kind::Square | Kind::Pairs) {
            return Err(Error::invalid(
                Param::Wide,
                crate::text!(
                    Param::Wide,
                    " lays out one-heap tables; the CSV of a table of two heaps is already a matrix, a row per x; leave it out"
                ),
            ));
        }
        self.formats.iter().try_for_each(|f| {
            f.check_holds(kind, spec)?;
            f.check_size(largest, numbers, &self.layout)
        })
    }

    /// The destination of each format for files named `stem`, each checked writable.
    pub fn destinations(&self, stem: &str) -> Result<Vec<(Format, Destination)>> {
        let destinations = format::destinations(&self.formats, &self.output, &self.folder, stem)?;
        destinations
            .iter()
            .try_for_each(|(_, d)| d.check_writable())?;
        Ok(destinations)
    }
}

/// Runs `request` and writes its report to `outputs`. `said` hears of the report once it is
/// made (before anything is written), and `wrote` of each file as it is written. A format that
/// fails does not stop the others; the first failure is returned. A table that its proven
/// period stopped early is named after the length it holds. With
/// [`Request::freq_each_power`], the frequency file of each run to 2^k + 1 is written (named
/// as that run names it, in the outputs' folder) as the run passes it.
pub fn write(
    request: Request,
    outputs: &Outputs,
    progress: &Progress,
    said: impl FnOnce(&Report),
    mut wrote: impl FnMut(&Path),
) -> Result<Written> {
    request.check()?;
    let kind = request.kind();
    // grundy writes n values; the number of P-positions is known only after the run.
    let numbers = (kind == Kind::Values).then_some(request.n);
    let largest = largest_number(&request)?;
    outputs.check_formats(kind, &request.game.spec, largest, numbers)?;
    check_freq_each_power(&request, &outputs.formats)?;
    let mut destinations = outputs.destinations(&request.stem())?;

    // Locked from here until the work files are removed.
    let run = Run::start(request)?;
    if run.request().game.heaps() == 2 {
        two_heaps::check_outputs_fit(&run, &destinations)?;
    }
    // The P-pairs are made as they are written; their summary, last, gives the time taken.
    destinations.sort_by_key(|(f, _)| kind == Kind::Pairs && *f == Format::Json);
    // The frequency files written as the run passes each power of two, told of once it ends.
    let mut passed_files = Vec::new();
    let mut freq_of = |power: u64, blocks: &[Vec<u64>]| {
        if power + 1 == run.request().n {
            // The run's own frequency file, written with its other outputs.
            return Ok(());
        }
        let request = Request {
            n: power + 1,
            ..run.request().clone()
        };
        let named = format::destinations(
            &[Format::Freq],
            &Output::Named,
            &outputs.folder,
            &request.stem(),
        )?;
        let destination = &named[0].1;
        write_destination(destination, |out| format::write_freq_blocks(blocks, out))?;
        if let Destination::File(path) = destination {
            passed_files.push(path.clone());
        }
        Ok(())
    };
    let passed = run
        .request()
        .freq_each_power
        .then_some(&mut freq_of as Passed);
    let report = run.report(progress, passed);
    passed_files.iter().for_each(|path| wrote(path));
    let written = report.and_then(|report| {
        if kind != Kind::Pairs {
            progress.finish();
        }
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
        let written = write_report(&report, &destinations, &outputs.layout, &mut wrote);
        progress.finish();
        written
    });
    if written.is_ok() || !outputs.keep_work_on_failure {
        run.finish();
    }
    written
}

/// Refuses [`Request::freq_each_power`] for a run that keeps its table or writes no `freq`.
fn check_freq_each_power(request: &Request, formats: &[Format]) -> Result<()> {
    if !request.freq_each_power || (request.windowed().is_some() && formats.contains(&Format::Freq))
    {
        return Ok(());
    }
    Err(Error::invalid(
        Param::FreqEachPower,
        crate::text!(
            Param::FreqEachPower,
            " writes the frequency files of a run that keeps no table (grundy of a take-and-break game, ",
            Param::Format.given("freq"),
            " or json,freq, ",
            Param::Size,
            " past ",
            Param::Window,
            "): this run keeps its table or writes no freq; leave it out or ask for such a run"
        ),
    ))
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

/// Writes `report` to each of `destinations` laid out as `layout`, telling `wrote` of each file
/// written; as [`write_each`].
pub fn write_report(
    report: &Report,
    destinations: &[(Format, Destination)],
    layout: &format::Layout,
    wrote: impl FnMut(&Path),
) -> Result<Written> {
    write_each(
        destinations,
        |format, destination| write_one(format, report, layout, destination),
        wrote,
    )
}

/// Writes one format of the report, unless the format cannot hold it.
fn write_one(
    format: Format,
    report: &Report,
    layout: &format::Layout,
    destination: &Destination,
) -> Result<Option<File>> {
    format.check_holds(report.kind(), &report.info().game)?;
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
        Error::invalid(
            Param::Offset,
            crate::text!(
                Param::Offset.given(offset),
                format!(": the indexes of up to {n} P-positions (offset + N - 1) would pass 2^64 - 1; give "),
                Param::Offset.given(u64::MAX - (n - 1)),
                " or less",
            ),
        )
    })
}
