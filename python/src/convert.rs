//! `nimsieve.convert` and `nimsieve.save`: a table file, or an array, written in other formats
//! by the library's conversion, which reads each table written back and compares it with the
//! source.

use super::supervise::supervised;
use nimsieve::choice::Choice;
use nimsieve::error::Param;
use nimsieve::format::{self, Contents, Extension, Format, Loaded};
use nimsieve::game::Game;
use nimsieve::regular_file::{folder_of, stem_of};
use nimsieve::run::{Output, Outputs};
use nimsieve::table::ValueKind;
use nimsieve::table::packed::PackedValues;
use nimsieve::verify::{self, Source};
use nimsieve::{Error, Result};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use std::path::{Path, PathBuf};

/// The formats named `names`, or an error listing the names.
fn formats(names: &[String]) -> Result<Vec<Format>> {
    names
        .iter()
        .map(|name| {
            Format::from_name(name).ok_or_else(|| {
                let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
                Error::invalid(
                    Param::Format,
                    format!("unknown format '{name}'; use one of {}", known.join(", ")),
                )
            })
        })
        .collect()
}

/// Where `formats` go: into the folder `output` names (or beside `source` for None), or to the
/// file `output` names.
fn outputs(
    formats: Vec<Format>,
    output: Option<&Path>,
    beside: &Path,
    wide: Option<usize>,
) -> Outputs {
    let (output, folder) = match output {
        None => (Output::Named, folder_of(beside).to_path_buf()),
        Some(path) if path.is_dir() || path.to_string_lossy().ends_with('/') => {
            (Output::Named, path.to_path_buf())
        }
        Some(path) => (
            Output::File(path.to_path_buf()),
            folder_of(path).to_path_buf(),
        ),
    };
    Outputs {
        formats,
        output,
        layout: format::Layout::beside(&folder, wide),
        folder,
        keep_work_on_failure: false,
    }
}

/// The game of a table: the one given, else the one the table states.
fn game_of(given: Option<&str>) -> impl Fn(&Loaded) -> Result<Option<Game>> + '_ {
    move |loaded| match given.or(loaded.game.as_deref()) {
        Some(spec) => Game::parse(spec).map(Some),
        None => Ok(None),
    }
}

/// The files written, as text.
fn names(written: nimsieve::run::Written) -> Vec<PathBuf> {
    written.files.into_iter().map(|(path, _)| path).collect()
}

/// The table in `source` written in `formats` (see `nimsieve convert`); returns the files
/// written.
#[pyfunction]
#[pyo3(signature = (source, names_of_formats, output, wide, game, ppos, call))]
#[allow(clippy::too_many_arguments)]
pub fn convert(
    py: Python<'_>,
    source: PathBuf,
    names_of_formats: Vec<String>,
    output: Option<PathBuf>,
    wide: Option<usize>,
    game: Option<String>,
    ppos: Option<bool>,
    call: String,
) -> PyResult<Vec<PathBuf>> {
    supervised(py, None, None, |_| {
        let outputs = outputs(
            formats(&names_of_formats)?,
            output.as_deref(),
            &source,
            wide,
        );
        let stem = stem_of(&source);
        let load = || format::load(&source, ppos);
        let from = Source {
            load: &load,
            path: Some(&source),
            stem: &stem,
        };
        verify::convert(
            &from,
            &game_of(game.as_deref()),
            &outputs,
            &call,
            |_| {},
            |_| {},
        )
        .map(names)
    })
}

/// An array of values (or, with `ppos`, of P-positions) written to `path` in the format its
/// extension names; returns the file written.
#[pyfunction]
#[pyo3(signature = (values, positions, path, wide, game, call))]
pub fn save(
    py: Python<'_>,
    values: Option<PyReadonlyArray1<'_, u32>>,
    positions: Option<PyReadonlyArray1<'_, u64>>,
    path: PathBuf,
    wide: Option<usize>,
    game: Option<String>,
    call: String,
) -> PyResult<Vec<PathBuf>> {
    let values = values
        .map(|v| v.as_slice().map(<[u32]>::to_vec))
        .transpose()?;
    let positions = positions
        .map(|p| p.as_slice().map(<[u64]>::to_vec))
        .transpose()?;
    supervised(py, None, None, |_| {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let format = Format::ALL
            .iter()
            .copied()
            .find(|f| f.extension() == extension || (*f == Format::Bfile && extension == "txt"))
            .ok_or_else(|| {
                Error::invalid(
                    Param::Output,
                    format!(
                        "'{}' names no format by its extension; end it in .csv, .txt (b-file), .npy, .bin, .u64, .xlsx or .json",
                        path.display()
                    ),
                )
            })?;
        let load = || -> Result<Loaded> {
            let contents = match (&values, &positions) {
                (Some(values), _) => Contents::Values(PackedValues::from_values(values)?),
                (_, Some(positions)) => Contents::Positions(positions.clone()),
                (None, None) => unreachable!("the package passes values or positions"),
            };
            let n = match &positions {
                Some(p) => p.last().map(|last| last + 1),
                None => None,
            };
            Ok(Loaded {
                contents,
                game: game.clone(),
                n,
                kind: ValueKind::Grundy,
                period: None,
                stopped_at_period: false,
                provenance: None,
                first: 0,
            })
        };
        let stem = stem_of(&path);
        let from = Source {
            load: &load,
            path: None,
            stem: &stem,
        };
        let outputs = outputs(vec![format], Some(&path), &path, wide);
        verify::convert(
            &from,
            &game_of(game.as_deref()),
            &outputs,
            &call,
            |_| {},
            |_| {},
        )
        .map(names)
    })
}
