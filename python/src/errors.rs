//! The library's errors as Python exceptions, with the command line's one-line messages.

use nimsieve::Error;
use nimsieve::error::{printable, shortened};
use pyo3::PyErr;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyValueError,
};

/// ValueError for bad input (a spec, a size, a table file that is not one), MemoryError for
/// memory that cannot be allocated, OSError for a file that cannot be read or written,
/// KeyboardInterrupt for a stopped run, RuntimeError for a picture that cannot be drawn.
pub fn to_py(error: Error) -> PyErr {
    let message = in_python_terms(&shortened(&printable(&error.to_string())));
    match error {
        Error::Spec { .. } | Error::Input(_) | Error::WrongTable(_) => {
            PyValueError::new_err(message)
        }
        Error::OutOfMemory { .. } => PyMemoryError::new_err(message),
        Error::Io { .. } => PyOSError::new_err(message),
        Error::Interrupted(_) => PyKeyboardInterrupt::new_err(message),
        Error::Plot(_) => PyRuntimeError::new_err(message),
    }
}

/// The command line's words in the library's messages, and the Python arguments they mean,
/// replaced in this order (longer phrases first).
const PYTHON_TERMS: &[(&str, &str)] = &[
    (
        "run 'nimsieve games' for the list",
        "nimsieve.games() lists them",
    ),
    ("see 'nimsieve games'", "see nimsieve.games()"),
    ("give e.g. -n 1000 or -n 1e6", "give e.g. n=1000 or n=10**6"),
    ("use --engine reference", "use engine=\"reference\""),
    ("--until-period", "until_period"),
    ("--threads", "threads"),
    ("--engine", "engine"),
    ("--mod ", "modulus "),
    ("--table", "table"),
    ("--last", "last"),
    ("-n must be", "n must be"),
    ("a smaller -n", "a smaller n"),
    ("give -n at most", "give n at most"),
    ("raise -n ", "raise n "),
];

/// `message` with the command line's option names replaced by the Python arguments they mean
/// (`--until-period` is `until_period`, `-n` is `n`, `nimsieve games` is `nimsieve.games()`).
pub fn in_python_terms(message: &str) -> String {
    let message = match message.strip_prefix("-n ") {
        Some(rest) => format!("n {rest}"),
        None => message.to_string(),
    };
    PYTHON_TERMS
        .iter()
        .fold(message, |text, (cli, python)| text.replace(cli, python))
}
