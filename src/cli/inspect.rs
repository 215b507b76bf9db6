//! `stats`, `plot` and `verify`: commands that read a table file nimsieve wrote.

use super::args::OutputArgs;
use super::configure_threads;
use super::output::{say, wrote};
use nimsieve::error::printable;
use nimsieve::format::{self, Contents, Destination, Format, Loaded};
use nimsieve::game::Game;
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use nimsieve::plot;
use nimsieve::progress::Progress;
use nimsieve::regular_file::stem_of;
use nimsieve::run;
use nimsieve::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The game of a table file: `--game` (`given`) or the game the file states (its `.bin` header
/// or the JSON summary beside it); the two must agree when both are there, and a table of
/// one heap is not one of a game of two.
fn game_of_table(given: Option<&str>, loaded: &Loaded, file: &Path) -> Result<Option<Game>> {
    let given = given.map(Game::parse).transpose()?;
    let stated = loaded.game.as_deref().map(Game::parse).transpose()?;
    let two_heap = matches!(loaded.contents, Contents::Grid(_) | Contents::Pairs(_));
    let game = match (given, stated) {
        (Some(given), Some(stated)) if given.spec != stated.spec => {
            return Err(Error::Input(format!(
                "--game {} disagrees with the game {} that '{}' states",
                given.spec,
                stated.spec,
                file.display()
            )));
        }
        (given, stated) => given.or(stated),
    };
    if let Some(game) = game.as_ref().filter(|g| g.heaps() == 2 && !two_heap) {
        return Err(Error::Input(format!(
            "'{}' holds a table of one heap, not one of the two-heap game {}; give the game of the table with --game",
            file.display(),
            game.spec
        )));
    }
    Ok(game)
}

/// The table in `file`, read as one of a game of two heaps when `--game` (`given`) names one,
/// and as one of a one-heap game when it names one.
fn load_table(file: &Path, ppos: bool, given: Option<&str>) -> Result<Loaded> {
    let two_heap = given
        .map(Game::parse)
        .transpose()?
        .map(|game| game.heaps() == 2);
    nimsieve::format::load_of(file, ppos.then_some(true), two_heap)
}

pub(super) fn stats(
    file: &Path,
    ppos: bool,
    game: Option<&str>,
    modulus: Option<&str>,
) -> Result<()> {
    let modulus = modulus.map(parse_u64).transpose()?;
    let modulus = run::modulus_or_default(modulus)?;
    let started = Instant::now();
    let loaded = load_table(file, ppos, game)?;
    let game = game_of_table(game, &loaded, file)?.filter(|game| game.heaps() == 1);
    let report = run::report_of_file(loaded, game.as_ref(), modulus, started, "stats");
    let stdout = &Destination::Stdout;
    format::write_to(Format::Json, &report, &format::Layout::default(), stdout)
}

pub(super) fn plot(
    file: &Path,
    kind: &str,
    values: Option<&str>,
    fit: Option<plot::FitChoice>,
    output: Option<PathBuf>,
    ppos: bool,
    quiet: bool,
) -> Result<()> {
    let kind = plot::Kind::parse(kind)?;
    let classes = values.map(plot::ValueClasses::parse).transpose()?;
    let fit = fit.unwrap_or_default();
    plot::check_classes(kind, classes.as_ref())?;
    plot::check_fit(kind, fit)?;
    let output = output.unwrap_or_else(|| plot::default_output(file, kind));
    let format = plot::ImageFormat::of(&output)?;
    Destination::File(output.clone()).check_writable()?;
    let image = plot::render(
        &nimsieve::format::load(file, ppos.then_some(true))?,
        kind,
        classes.as_ref(),
        fit,
        format,
    )?;
    format::write_atomically(&output, |out| out.write_all(&image))?;
    if !quiet {
        wrote(&output);
    }
    Ok(())
}

/// `convert`: the table in `file` written in `formats`, beside it unless `-o` (`output`) says
/// otherwise.
pub(super) fn convert(
    file: &Path,
    mut formats: Vec<Format>,
    output: Option<String>,
    wide: Option<u32>,
    ppos: bool,
    game: Option<&str>,
    quiet: bool,
) -> Result<()> {
    formats.dedup();
    let out = OutputArgs {
        output,
        threads: None,
        quiet,
    };
    let folder = match out.output {
        Some(_) => out.folder(),
        None => file.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let said = |report: &nimsieve::report::Report| {
        if !quiet {
            super::table::warn_of_spreadsheet_rows(report, &formats, wide);
        }
    };
    let outputs = run::Outputs {
        formats: formats.clone(),
        output: out.destination(),
        layout: format::Layout::beside(&folder, wide.map(|k| k as usize)),
        folder,
        keep_work_on_failure: false,
    };
    let stem = stem_of(file);
    let source = nimsieve::verify::Source {
        load: &|| load_table(file, ppos, game),
        path: Some(file),
        stem: &stem,
    };
    let game_of = |loaded: &Loaded| game_of_table(game, loaded, file);
    nimsieve::verify::convert(
        &source,
        &game_of,
        &outputs,
        &super::command_line(),
        said,
        |path| {
            if !quiet {
                wrote(path)
            }
        },
    )
    .map(drop)
}

/// `compare`: one line on standard output when the tables are equal; [`Error::WrongTable`]
/// (exit code 3) saying how many entries differ and the first, otherwise.
pub(super) fn compare(a: &Path, b: &Path, ppos: bool) -> Result<()> {
    let ppos = ppos.then_some(true);
    let (left, right) = (
        format::load_at_offset(a, ppos)?,
        format::load_at_offset(b, ppos)?,
    );
    let c = nimsieve::verify::compare(&left, &right)?;
    let names = (
        printable(&a.display().to_string()),
        printable(&b.display().to_string()),
    );
    let start = c.starts.0.max(c.starts.1);
    let held = match c.starts {
        (0, 0) => String::new(),
        _ => format!(
            " (positions {start} to {}, which both hold)",
            start + c.compared.saturating_sub(1)
        ),
    };
    if c.equal() {
        return interrupt::print(&format!("equal: {} {}{held}\n", c.compared, c.what));
    }
    let mut said = Vec::new();
    if let Some((i, x, y)) = &c.first {
        said.push(format!(
            "{} of the {} {}{} differ, the first at {i}: {x} in '{}', {y} in '{}'",
            c.differing,
            c.compared,
            c.what,
            if held.is_empty() { " both hold" } else { &held },
            names.0,
            names.1
        ));
    } else {
        said.push(format!("the {} {} both hold are equal", c.compared, c.what));
    }
    if c.lengths.0 != c.lengths.1 && c.starts == (0, 0) {
        said.push(format!(
            "'{}' has {} and '{}' {}",
            names.0, c.lengths.0, names.1, c.lengths.1
        ));
    }
    Err(Error::Differ(said.join("; ")))
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
    let Some(game) = game_of_table(spec, &loaded, file)? else {
        return Err(Error::Input(format!(
            "'{}' does not name its game (no .bin header, no JSON summary beside it); give --game",
            file.display()
        )));
    };
    let made = loaded.provenance.clone();
    let progress = Progress::new(0, quiet);
    let checked = nimsieve::verify::check_table(loaded, &game, &progress)?;
    progress.finish();
    if let (Some(cost), false) = (&checked.cost, quiet) {
        say(&format!("cost: {cost}"));
    }
    match checked.fault {
        Some(fault) => Err(Error::WrongTable(fault)),
        None => {
            if let (Some(made), false) = (made, quiet) {
                say(&format!("made by {}", made.line()));
            }
            interrupt::print(&format!(
                "verified: {}, {} {}, all correct ({:.1} s)\n",
                printable(&game.spec),
                checked.count,
                checked.what,
                started.elapsed().as_secs_f64()
            ))
        }
    }
}
