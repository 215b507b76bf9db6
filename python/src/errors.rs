//! The library's errors as Python exceptions, worded with the package's argument names.

use nimsieve::Error;
use nimsieve::error::{Command, Failure, Param, Plain, Wording, printable, shortened};
use pyo3::PyErr;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyValueError,
};

/// The package's wording of the library's messages: parameters as its arguments (`n`,
/// `threads`, `until_period`), given as `n=1000`, commands as calls of its functions.
struct Arguments;

impl Wording for Arguments {
    fn param(&self, param: Param) -> String {
        match param {
            Param::Output => "path".to_string(),
            other => other.name().to_string(),
        }
    }

    fn given(&self, param: Param, value: &str) -> String {
        match value.parse::<f64>() {
            Ok(_) => format!("{}={value}", self.param(param)),
            Err(_) => format!("{}=\"{value}\"", self.param(param)),
        }
    }

    /// `nimsieve.games()`; any other command as the library words it (the command line's,
    /// whose parameters the package's functions do not all have).
    fn command(&self, command: &Command) -> String {
        match command.name {
            "games" => "nimsieve.games()".to_string(),
            _ => Plain.command(command),
        }
    }
}

/// ValueError for bad input (a spec, a size, a table file that is not one), MemoryError for
/// memory that cannot be allocated, OSError for a file that cannot be read or written,
/// KeyboardInterrupt for a stopped run, RuntimeError for a picture that cannot be drawn.
pub fn to_py(error: Error) -> PyErr {
    let message = shortened(&printable(&error.worded(&Arguments)));
    match error.failure() {
        Failure::BadInput | Failure::WrongTable => PyValueError::new_err(message),
        Failure::OutOfMemory => PyMemoryError::new_err(message),
        Failure::Io => PyOSError::new_err(message),
        Failure::Interrupted => PyKeyboardInterrupt::new_err(message),
        Failure::Plot => PyRuntimeError::new_err(message),
    }
}
