//! `stats`, `plot` and `verify`: commands that read a table file nimsieve wrote.

use super::configure_threads;
use super::output::{say, wrote};
use nimsieve::error::printable;
use nimsieve::format::{self, Destination, Format};
use nimsieve::game::Game;
use nimsieve::interrupt;
use nimsieve::plot;
use nimsieve::progress::Progress;
use nimsieve::run;
use nimsieve::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The game of a table file: `--game` (`given`) or the game the file states (its `.bin` header
/// or the JSON summary beside it); the two must agree when both are there.
fn game_of_table(given: Option<&str>, stated: Option<&str>, file: &Path) -> Result<Option<Game>> {
    let given = given.map(Game::parse).transpose()?;
    let stated = stated.map(Game::parse).transpose()?;
    match (given, stated) {
        (Some(given), Some(stated)) if given.spec != stated.spec => Err(Error::Input(format!(
            "--game {} disagrees with the game {} that '{}' states",
            given.spec,
            stated.spec,
            file.display()
        ))),
        (given, stated) => Ok(given.or(stated)),
    }
}

pub(super) fn stats(file: &Path, ppos: bool, game: Option<&str>, modulus: &str) -> Result<()> {
    let modulus = run::parse_modulus(modulus)?;
    let started = Instant::now();
    let loaded = nimsieve::format::load(file, ppos.then_some(true))?;
    let game = game_of_table(game, loaded.game.as_deref(), file)?;
    let report = nimsieve::run::report_of_file(loaded, game.as_ref(), modulus, started);
    format::write_to(
        Format::Json,
        &report,
        &format::Layout::default(),
        &Destination::Stdout,
    )
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
    let image = match nimsieve::format::wythoff::load_grid(file)? {
        Some(grid) => plot::wythoff::render(&grid, kind, format)?,
        None => plot::render(
            &nimsieve::format::load(file, ppos.then_some(true))?,
            kind,
            classes.as_ref(),
            format,
        )?,
    };
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
    let loaded = nimsieve::format::load(file, ppos.then_some(true))?;
    let Some(game) = game_of_table(spec, loaded.game.as_deref(), file)? else {
        return Err(Error::Input(format!(
            "'{}' does not name its game (no .bin header, no JSON summary beside it); give --game",
            file.display()
        )));
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
