//! The library's errors as Python exceptions, with the command line's one-line messages.

use nimsieve::Error;
use nimsieve::error::printable;
use pyo3::PyErr;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};

/// ValueError for bad input (a spec, a size, a table file that is not one), OSError for a file
/// that cannot be read or written, KeyboardInterrupt for a stopped run, RuntimeError for a
/// picture that cannot be drawn.
pub fn to_py(error: Error) -> PyErr {
    let message = printable(&error.to_string());
    match error {
        Error::Spec { .. } | Error::Input(_) | Error::WrongTable(_) => {
            PyValueError::new_err(message)
        }
        Error::Io { .. } => PyOSError::new_err(message),
        Error::Interrupted(_) => PyKeyboardInterrupt::new_err(message),
        Error::Plot(_) => PyRuntimeError::new_err(message),
    }
}
