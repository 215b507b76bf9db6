//! Rules written as Python functions: `rule(h)` returns the options of a heap of h, each an
//! int (one heap, 0 for none) or a tuple of ints (several heaps, valued by their nim-sum).
//! The values are the mex recursion over those options, on the calling thread (the rule is
//! Python), checking for Ctrl-C every few hundred heaps.

use crate::arrays::Values;
use crate::errors::to_py;
use nimsieve::engine::check_in_memory_size;
use nimsieve::format::{self, Format};
use nimsieve::number::parse_u64;
use nimsieve::provenance::Provenance;
use nimsieve::report::{GrundyReport, Report, RunInfo};
use nimsieve::table::packed::PackedValues;
use nimsieve::table::{Shape, Table, ValueKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;
use std::time::{Duration, Instant};

/// Heaps between two looks for a signal and for time to report progress.
const CHECK_EVERY: u64 = 256;

/// How often progress is reported.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// g(h) for 0 <= h < n of `rule`, with `progress(done, total)` called as the values come.
fn values(
    py: Python<'_>,
    rule: &Bound<'_, PyAny>,
    n: u64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<u32>> {
    check_in_memory_size(n).map_err(to_py)?;
    let mut g: Vec<u32> = Vec::with_capacity(n as usize);
    // seen[v] == h + 1 when an option of h has value v.
    let mut seen: Vec<u64> = Vec::new();
    let mut reported = Instant::now();
    for h in 0..n {
        if h % CHECK_EVERY == 0 {
            py.check_signals()?;
            if let Some(report) = progress.filter(|_| reported.elapsed() >= REPORT_EVERY) {
                report.call1((h, n))?;
                reported = Instant::now();
            }
        }
        let options = rule.call1((h,)).map_err(|e| noted(py, e, h))?;
        let options = options.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "rule({h}) returned {}, not a list of options: return a list (or any iterable) of ints and tuples of ints",
                type_name(&options)
            ))
        })?;
        for option in options {
            let option = option.map_err(|e| noted(py, e, h))?;
            let value = option_value(&option, h, &g)?;
            if seen.len() <= value as usize {
                seen.resize(value as usize + 1, 0);
            }
            seen[value as usize] = h + 1;
        }
        let mex = seen.iter().position(|&s| s != h + 1).unwrap_or(seen.len());
        g.push(mex as u32);
    }
    if let Some(report) = progress {
        report.call1((n, n))?;
    }
    Ok(g)
}

/// Adds to an exception raised by the rule a note that names the heap it was raised for.
fn noted(py: Python<'_>, error: PyErr, h: u64) -> PyErr {
    let note = format!("raised by rule({h}), the options of a heap of {h}");
    let _ = error.value(py).call_method1("add_note", (note,));
    error
}

/// The Python type of `value`, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    let name = value.get_type().name().map(|n| n.to_string());
    match name {
        Ok(name) if name.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {name}"),
        Ok(name) => format!("a {name}"),
        Err(_) => "an object".into(),
    }
}

/// The value of one option of heap h: g of the heap it leaves, or the nim-sum of the heaps of
/// a tuple; each heap must be smaller than h.
fn option_value(option: &Bound<'_, PyAny>, h: u64, g: &[u32]) -> PyResult<u32> {
    let heap = |item: &Bound<'_, PyAny>| -> PyResult<u32> {
        let bad = || {
            PyValueError::new_err(match h {
                0 => format!(
                    "rule(0) returned the option {item}: a heap of 0 has no moves; return an empty list for it"
                ),
                _ => format!(
                    "rule({h}) returned the option {item}: each heap an option leaves must be an int from 0 to {} (smaller than the heap moved from)",
                    h - 1
                ),
            })
        };
        if !item.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "rule({h}) returned an option holding {}: give each option as an int or a tuple of ints",
                type_name(item)
            )));
        }
        let m: u64 = item.extract().map_err(|_| bad())?;
        match g.get(m as usize) {
            Some(&v) if m < h => Ok(v),
            _ => Err(bad()),
        }
    };
    if option.is_instance_of::<PyInt>() {
        // A move to heap 0 leaves nothing: value 0.
        return heap(option);
    }
    let parts = option.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "rule({h}) returned an option that is {}: give each option as an int (one heap) or a tuple of ints (several heaps)",
            type_name(option)
        ))
    })?;
    let mut value = 0;
    for part in parts {
        value ^= heap(&part?)?;
    }
    Ok(value)
}

/// The size argument.
fn size(n: &str) -> PyResult<u64> {
    parse_u64(n).map_err(to_py)
}

/// g(h) for 0 <= h < n of a rule written in Python, as an array of the smallest unsigned dtype.
#[pyfunction]
#[pyo3(signature = (rule, n, progress))]
pub fn grundy_rule<'py>(
    py: Python<'py>,
    rule: &Bound<'py, PyAny>,
    n: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let g = values(py, rule, size(n)?, progress)?;
    let packed = PackedValues::from_values(&g).map_err(to_py)?;
    Values::of(packed).map_err(to_py)?.into_array(py, true)
}

/// The JSON summary of a rule written in Python, as `grundy -f json` writes a game's, with no
/// proven period (no criterion bounds a function's moves) but the period the values appear to
/// have (`apparent_period`, absent when none).
#[pyfunction]
#[pyo3(signature = (rule, name, n, modulus, progress, call))]
pub fn summary_rule<'py>(
    py: Python<'py>,
    rule: &Bound<'py, PyAny>,
    name: &str,
    n: &str,
    modulus: Option<&str>,
    progress: Option<&Bound<'py, PyAny>>,
    call: &str,
) -> PyResult<String> {
    let modulus = modulus.map(size).transpose()?;
    let modulus = nimsieve::run::modulus_or_default(modulus).map_err(to_py)?;
    let n = size(n)?;
    let start = Instant::now();
    let g = values(py, rule, n, progress)?;
    let table = Table {
        kind: ValueKind::Grundy,
        values: PackedValues::from_values(&g).map_err(to_py)?,
        period: None,
        shape: Shape::Line,
    };
    let info = RunInfo {
        game: name.to_string(),
        n,
        kind: ValueKind::Grundy,
        engine: "python",
        threads: 1,
        elapsed_s: start.elapsed().as_secs_f64(),
        made: Some(Provenance::now(call, "python", 1)),
    };
    let report = GrundyReport::new(table, info, false, modulus).with_apparent_period();
    let report = Report::Grundy(report);
    let mut json = Vec::new();
    Format::Json
        .emitter(&format::Layout::default())
        .write(&report, &mut json)
        .expect("a summary is written to memory");
    Ok(String::from_utf8(json).expect("JSON is UTF-8"))
}
