//! `stats`, `plot` and `verify`: commands that read a table file nimsieve wrote.

use super::configure_threads;
use super::output::{say, wrote};
use nimsieve::error::printable;
use nimsieve::format::{self, Contents, Destination, Format, Loaded};
use nimsieve::game::Spec;
use nimsieve::interrupt;
use nimsieve::plot;
use nimsieve::progress::Progress;
use nimsieve::run::{self, FileReport};
use nimsieve::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The game of a table file: `--game` (`given`) or the game the file states (its `.bin` header
/// or the JSON summary beside it); the two must agree when both are there, and a table of
/// one heap is not one of Wythoff's game.
fn game_of_table(given: Option<&str>, loaded: &Loaded, file: &Path) -> Result<Option<Spec>> {
    let given = given.map(Spec::parse).transpose()?;
    let stated = loaded.game.as_deref().map(Spec::parse).transpose()?;
    let two_heap = matches!(loaded.contents, Contents::Grid(_) | Contents::Pairs(_));
    let game = match (given, stated) {
        (Some(given), Some(stated)) if given.name() != stated.name() => {
            return Err(Error::Input(format!(
                "--game {} disagrees with the game {} that '{}' states",
                given.name(),
                stated.name(),
                file.display()
            )));
        }
        (given, stated) => given.or(stated),
    };
    if game == Some(Spec::Wythoff) && !two_heap {
        return Err(Error::Input(format!(
            "'{}' holds a table of one heap, not one of Wythoff's two-heap game; give the game of the table with --game",
            file.display()
        )));
    }
    Ok(game)
}

/// The table in `file`, read as one of Wythoff's game when `--game` (`given`) names it, and as
/// one of a one-heap game when it names one.
fn load_table(file: &Path, ppos: bool, given: Option<&str>) -> Result<Loaded> {
    let two_heap = given
        .map(Spec::parse)
        .transpose()?
        .map(|spec| spec == Spec::Wythoff);
    nimsieve::format::load_of(file, ppos.then_some(true), two_heap)
}

pub(super) fn stats(file: &Path, ppos: bool, game: Option<&str>, modulus: &str) -> Result<()> {
    let modulus = run::parse_modulus(modulus)?;
    let started = Instant::now();
    let loaded = load_table(file, ppos, game)?;
    let game = match game_of_table(game, &loaded, file)? {
        Some(Spec::OneHeap(game)) => Some(game),
        _ => None,
    };
    let stdout = &Destination::Stdout;
    match run::report_of_file(loaded, game.as_ref(), modulus, started) {
        FileReport::OneHeap(report) => {
            format::write_to(Format::Json, &report, &format::Layout::default(), stdout)
        }
        FileReport::TwoHeapTable(report) => format::write_with(stdout, |out| {
            format::wythoff::write_table(Format::Json, &report, out)
        }),
        FileReport::TwoHeapPairs(summary) => format::write_with(stdout, |out| {
            format::wythoff::write_pairs_summary(&summary, out)
        }),
    }
}

pub(super) fn plot(
    file: &Path,
    kind: &str,
    values: Option<&str>,
    output: Option<PathBuf>,
    ppos: bool,
    quiet: bool,
) -> Result<()> {
    let kind = plot::Kind::parse(kind)?;
    let classes = values.map(plot::ValueClasses::parse).transpose()?;
    plot::check_classes(kind, classes.as_ref())?;
    let output = output.unwrap_or_else(|| plot::default_output(file, kind));
    let format = plot::ImageFormat::of(&output)?;
    Destination::File(output.clone()).check_writable()?;
    let image = plot::render(
        &nimsieve::format::load(file, ppos.then_some(true))?,
        kind,
        classes.as_ref(),
        format,
    )?;
    format::write_atomically(&output, |out| out.write_all(&image))?;
    if !quiet {
        wrote(&output);
    }
    Ok(())
}

/// `verify`: one line on standard output when the table is right; [`Error::WrongTable`]
/// (exit code 3) with the first wrong entry otherwise.
pub(super) fn verify(
    file: &Path,
    spec: Option<&str>,
    ppos: bool,
    threads: Option<usize>,
    quiet: bool,
) -> Result<()> {
    configure_threads(threads)?;
    let started = Instant::now();
    let loaded = load_table(file, ppos, spec)?;
    let game = match game_of_table(spec, &loaded, file)? {
        Some(Spec::OneHeap(game)) => game,
        Some(Spec::Wythoff) => return verify_two_heap(loaded, started, quiet),
        None => {
            return Err(Error::Input(format!(
                "'{}' does not name its game (no .bin header, no JSON summary beside it); give --game",
                file.display()
            )));
        }
    };
    let subject = nimsieve::verify::subject(loaded, &game)?;
    let progress = Progress::new(subject.len(), quiet);
    let verdict = nimsieve::verify::verify(&subject, &game, &progress)?;
    progress.finish();
    if let (Some(cost), false) = (&verdict.cost, quiet) {
        say(&format!("cost: {cost}"));
    }
    match verdict.fault {
        Some(fault) => Err(Error::WrongTable(nimsieve::verify::describe(
            &fault, &subject, &game,
        ))),
        None => interrupt::print(&format!(
            "verified: {}, {} {}, all correct ({:.1} s)\n",
            printable(&game.spec),
            verdict.positions,
            match subject.form {
                nimsieve::verify::Form::Grundy => "values",
                nimsieve::verify::Form::Outcomes => "outcomes",
                nimsieve::verify::Form::PList => "positions",
            },
            started.elapsed().as_secs_f64()
        )),
    }
}

/// `verify` of a table of Wythoff's game (every cell against the mex of its row, column and
/// diagonal) or of its P-pairs (each against the closed form).
fn verify_two_heap(loaded: Loaded, started: Instant, quiet: bool) -> Result<()> {
    let (checked, fault) = match &loaded.contents {
        Contents::Grid(grid) => {
            let progress = Progress::counting(grid.n * grid.n, "cells", quiet);
            let fault = nimsieve::verify::check_grid(grid, &progress)?;
            progress.finish();
            (format!("{} cells", grid.n * grid.n), fault)
        }
        Contents::Pairs(pairs) => (
            format!("{} pairs", pairs.len()),
            nimsieve::verify::check_pairs(pairs, loaded.n.unwrap_or(0)),
        ),
        _ => unreachable!("game_of_table refuses --game wythoff for a one-heap table"),
    };
    match fault {
        Some(fault) => Err(Error::WrongTable(fault)),
        None => interrupt::print(&format!(
            "verified: {}, {checked}, all correct ({:.1} s)\n",
            nimsieve::game::wythoff::NAME,
            started.elapsed().as_secs_f64()
        )),
    }
}
