//! `nimsieve._native`: the engines of nimsieve for Python. The package `nimsieve` (in
//! `python/nimsieve/`) wraps these functions with docstrings, argument handling and progress
//! bars; sizes and heaps arrive as text and are parsed as on the command line, so errors read
//! the same.

mod arrays;
mod convert;
mod errors;
mod rules;
mod supervise;

use arrays::Values;
use errors::to_py;
use nimsieve::choice::Choice;
use nimsieve::engine::EngineKind;
use nimsieve::error::{Param, printable};
use nimsieve::format::{self, Contents, Format};
use nimsieve::game::CATALOGUE;
use nimsieve::game::Game;
use nimsieve::number::parse_u64;
use nimsieve::regular_file::folder_of;
use nimsieve::report::Report;
use nimsieve::run::{self, Listing, Output, Outputs, Request, Run};
use nimsieve::table::Shape;
use nimsieve::{Error, eval};
use numpy::PyArray1;
use pyo3::prelude::*;
use std::fs::File;
use std::os::fd::{IntoRawFd, RawFd};
use std::path::{Path, PathBuf};
use supervise::supervised;

/// The engine named `name`, or an error listing the names.
fn engine_named(name: Option<&str>) -> nimsieve::Result<Option<EngineKind>> {
    name.map(|name| {
        EngineKind::from_name(name).ok_or_else(|| {
            let names: Vec<_> = EngineKind::ALL.iter().map(|e| e.name()).collect();
            Error::invalid(
                Param::Engine,
                format!("unknown engine '{name}'; use one of {}", names.join(", ")),
            )
        })
    })
    .transpose()
}

/// The request of a table run, from the arguments every table function shares.
fn request(
    game: &str,
    n: &str,
    listing: Listing,
    engine: Option<&str>,
    until_period: bool,
    work_folder: Option<PathBuf>,
) -> nimsieve::Result<Request> {
    Ok(Request {
        listing,
        engine: engine_named(engine)?,
        until_period,
        work_folder,
        ..Request::grundy(Game::parse(game)?, parse_u64(n)?)
    })
}

/// Runs `write` (a run that ends in files) with `.npy` to `path` as its output (written
/// atomically), and returns the file written, open for reading: this run's table even when another call has since replaced
/// `path`. The work file of a large run lives beside `path` and is removed however the run
/// ends.
fn write_npy(
    path: &Path,
    write: impl FnOnce(&Outputs) -> nimsieve::Result<run::Written>,
) -> nimsieve::Result<File> {
    if format::is_special(path) {
        return Err(Error::Input(format!(
            "path='{}' is not a regular file, so its table cannot be mapped; give the name of a .npy file",
            printable(&path.display().to_string())
        )));
    }
    let outputs = Outputs {
        formats: vec![Format::Npy],
        output: Output::File(path.to_path_buf()),
        folder: folder_of(path).to_path_buf(),
        layout: Default::default(),
        keep_work_on_failure: false,
    };
    let written = write(&outputs)?;
    match written.files.into_iter().next() {
        Some((_, file)) => Ok(file),
        None => Err(Error::Input(format!(
            "path='{}' stopped being a regular file while the table was written; give the name of a .npy file",
            printable(&path.display().to_string())
        ))),
    }
}

/// g(x) for 0 <= x < n as an array.
#[pyfunction]
#[pyo3(signature = (game, n, threads, engine, until_period, progress))]
fn grundy<'py>(
    py: Python<'py>,
    game: &str,
    n: &str,
    threads: Option<usize>,
    engine: Option<&str>,
    until_period: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = request(game, n, Listing::Grundy, engine, until_period, None).map_err(to_py)?;
    let (values, shape) = supervised(py, threads, progress, |p| {
        let table = Run::start(request)?.table(p)?;
        Ok((Values::of(table.values)?, table.shape))
    })?;
    let square = match shape {
        Shape::Line => None,
        Shape::Square { side } => Some((side as usize, side as usize)),
    };
    shaped(values.into_array(py, true)?, square)
}

/// Computes g(x) for 0 <= x < n into the `.npy` file `path`, and returns a file descriptor of
/// the file written (the caller maps and closes it).
#[pyfunction]
#[pyo3(signature = (game, n, threads, engine, until_period, progress, path, call))]
#[allow(clippy::too_many_arguments)]
fn grundy_file<'py>(
    py: Python<'py>,
    game: &str,
    n: &str,
    threads: Option<usize>,
    engine: Option<&str>,
    until_period: bool,
    progress: Option<&Bound<'py, PyAny>>,
    path: PathBuf,
    call: String,
) -> PyResult<RawFd> {
    let folder = Some(folder_of(&path).to_path_buf());
    let request = request(game, n, Listing::Grundy, engine, until_period, folder)
        .map(|r| Request { command: call, ..r })
        .map_err(to_py)?;
    let file = supervised(py, threads, progress, |p| {
        write_npy(&path, |outputs| {
            run::write(request, outputs, p, |_| {}, |_| {})
        })
    })?;
    Ok(file.into_raw_fd())
}

/// The P-positions below n as a uint64 array.
#[pyfunction]
#[pyo3(signature = (game, n, threads, engine, progress))]
fn ppos<'py>(
    py: Python<'py>,
    game: &str,
    n: &str,
    threads: Option<usize>,
    engine: Option<&str>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let listing = Listing::Ppos { offset: 0 };
    let request = request(game, n, listing, engine, false, None).map_err(to_py)?;
    let (numbers, pairs) = supervised(py, threads, progress, |p| {
        Ok(match Run::start(request)?.report(p, None)? {
            Report::Ppos(report) => (report.positions, None),
            Report::Pairs(report) => {
                let numbers: Vec<u64> = report.pairs().flatten().collect();
                (numbers, Some((report.count as usize, 2)))
            }
            Report::Grundy(_) | Report::Square(_) => {
                unreachable!("a P-position run reports P-positions")
            }
        })
    })?;
    shaped(PyArray1::from_vec(py, numbers).into_any(), pairs)
}

/// The JSON summary of a run, as the command line's `--format json` writes it.
#[pyfunction]
#[pyo3(signature = (game, n, ppos, modulus, threads, engine, until_period, window, progress, call))]
#[allow(clippy::too_many_arguments)]
fn summary<'py>(
    py: Python<'py>,
    game: &str,
    n: &str,
    ppos: bool,
    modulus: Option<&str>,
    threads: Option<usize>,
    engine: Option<&str>,
    until_period: bool,
    window: Option<&str>,
    progress: Option<&Bound<'py, PyAny>>,
    call: String,
) -> PyResult<String> {
    let modulus = modulus.map(parse_u64).transpose().map_err(to_py)?;
    let listing = match ppos {
        true => Listing::Ppos { offset: 0 },
        false => Listing::Grundy,
    };
    let given = window;
    let window = run::window_of(given, !ppos, "summaries of values (not ppos=True)");
    let request = window
        .and_then(|window| {
            request(game, n, listing, engine, until_period, None).map(|r| (window, r))
        })
        .map(|(window, r)| Request {
            modulus,
            command: call,
            window,
            ..r
        })
        .and_then(|r| match given {
            Some(given) => r.check_window_given(given).map(|()| r),
            None => Ok(r),
        })
        .map_err(to_py)?;
    supervised(py, threads, progress, |p| {
        let report = Run::start(request)?.report(p, None)?;
        let mut json = Vec::new();
        let emitter = Format::Json.emitter(&format::Layout::default());
        emitter
            .write(&report, &mut json)
            .expect("a summary is written to memory");
        Ok(String::from_utf8(json).expect("JSON is UTF-8"))
    })
}

/// The evaluation of a position, as `eval -f json` prints it.
#[pyfunction]
#[pyo3(signature = (game, position, last, table, progress))]
fn evaluate(
    py: Python<'_>,
    game: &str,
    position: Vec<String>,
    last: Option<String>,
    table: Option<PathBuf>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let last = last.as_deref().map(parse_u64).transpose().map_err(to_py)?;
    supervised(py, None, progress, |p| {
        let options = eval::Options {
            tables: eval::TableOptions {
                file: table,
                progress: p.clone(),
                ..eval::TableOptions::in_memory()
            },
            last,
        };
        let evaluation = eval::evaluate(game, &position, &options)?;
        Ok(serde_json::to_string(&evaluation).expect("an evaluation serialises"))
    })
}

/// The misère quotient's report, as `misere -f json` prints it.
#[pyfunction]
#[pyo3(signature = (game, n, max_size))]
fn misere(py: Python<'_>, game: &str, n: &str, max_size: &str) -> PyResult<String> {
    supervised(py, None, None, |_| {
        let n = parse_u64(n)?;
        let max_size = usize::try_from(parse_u64(max_size)?).unwrap_or(usize::MAX);
        let report = nimsieve::misere::Quotient::compute(game, n, max_size)?.report();
        Ok(serde_json::to_string(&report).expect("a report serialises"))
    })
}

/// The table in a file nimsieve wrote: values (read-only, in place for `.bin`), P-positions,
/// the n×n table of a game of two heaps or its P-pairs as rows (a_k, b_k).
#[pyfunction]
#[pyo3(signature = (path, ppos))]
fn load<'py>(py: Python<'py>, path: PathBuf, ppos: Option<bool>) -> PyResult<Bound<'py, PyAny>> {
    let contents = supervised(py, None, None, |_| {
        Ok(match format::load(&path, ppos)?.contents {
            Contents::Values(values) => Loaded::Values(Values::of(values)?, None),
            Contents::Grid(grid) => Loaded::Values(Values::of(grid.values)?, Some(grid.n)),
            Contents::Positions(positions) => Loaded::Numbers(positions, None),
            Contents::Pairs(pairs) => {
                let rows = pairs.len();
                Loaded::Numbers(pairs.into_iter().flatten().collect(), Some(rows))
            }
        })
    })?;
    match contents {
        Loaded::Values(values, side) => shaped(
            values.into_array(py, false)?,
            side.map(|n| (n as usize, n as usize)),
        ),
        Loaded::Numbers(numbers, rows) => shaped(
            PyArray1::from_vec(py, numbers).into_any(),
            rows.map(|rows| (rows, 2)),
        ),
    }
}

/// Two tables compared entry by entry, as `nimsieve compare` compares them: the comparison as
/// JSON, with `equal`.
#[pyfunction]
#[pyo3(signature = (a, b, ppos))]
fn compare(py: Python<'_>, a: PathBuf, b: PathBuf, ppos: Option<bool>) -> PyResult<String> {
    supervised(py, None, None, |_| {
        let (left, right) = (
            format::load_at_offset(&a, ppos)?,
            format::load_at_offset(&b, ppos)?,
        );
        let comparison = nimsieve::verify::compare(&left, &right)?;
        let mut json = serde_json::to_value(&comparison).expect("a comparison serialises");
        json["equal"] = comparison.equal().into();
        Ok(json.to_string())
    })
}

/// What [`load`] prepares without the GIL: values (with the side of a square table) or
/// numbers (with the rows of pairs).
enum Loaded {
    Values(Values, Option<u64>),
    Numbers(Vec<u64>, Option<usize>),
}

/// `array` reshaped to `shape` (two dimensions) when one is given.
fn shaped<'py>(
    array: Bound<'py, PyAny>,
    shape: Option<(usize, usize)>,
) -> PyResult<Bound<'py, PyAny>> {
    match shape {
        Some(shape) => array.call_method1("reshape", (shape,)),
        None => Ok(array),
    }
}

/// Every game family: (spec syntax, description, what nimsieve does with it), as `nimsieve
/// games` lists them.
#[pyfunction]
fn games() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    CATALOGUE
        .iter()
        .map(|entry| (entry.syntax, entry.description, entry.supports().to_vec()))
        .collect()
}

/// A size written as on the command line (`1e6`, `2^20`, `1_000_000`).
#[pyfunction]
fn size(text: &str) -> PyResult<u64> {
    parse_u64(text).map_err(to_py)
}

/// The engine names `engine=` accepts, with what each computes.
#[pyfunction]
fn engines() -> Vec<(&'static str, &'static str)> {
    EngineKind::ALL
        .iter()
        .map(|e| (e.name(), e.help()))
        .collect()
}

/// The native module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(grundy, module)?)?;
    module.add_function(wrap_pyfunction!(rules::grundy_rule, module)?)?;
    module.add_function(wrap_pyfunction!(rules::summary_rule, module)?)?;
    module.add_function(wrap_pyfunction!(grundy_file, module)?)?;
    module.add_function(wrap_pyfunction!(ppos, module)?)?;
    module.add_function(wrap_pyfunction!(summary, module)?)?;
    module.add_function(wrap_pyfunction!(evaluate, module)?)?;
    module.add_function(wrap_pyfunction!(misere, module)?)?;
    module.add_function(wrap_pyfunction!(load, module)?)?;
    module.add_function(wrap_pyfunction!(convert::convert, module)?)?;
    module.add_function(wrap_pyfunction!(compare, module)?)?;
    module.add_function(wrap_pyfunction!(convert::save, module)?)?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(engines, module)?)?;
    module.add_function(wrap_pyfunction!(size, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
