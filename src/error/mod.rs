//! The one error type of the library. Its messages name the parameters of a request
//! ([`Param`]), never a front end's flags: each front end words them its own way
//! ([`Wording`]), and maps the kinds of error to its own exit codes or exceptions.
//! `wording.rs` holds the parameters, commands and texts the messages are made of.

mod wording;

pub use wording::{Command, Param, Piece, Plain, Text, Wording};

use crate::text;

use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong, each variant carrying enough context for a one-line message.
#[derive(Debug)]
pub enum Error {
    /// A game spec that does not parse or describes no valid game.
    Spec {
        /// The spec as the user wrote it.
        spec: String,
        /// What is wrong and how to fix it.
        reason: Text,
    },
    /// A value given for a parameter that is malformed, out of range, or does not apply.
    Invalid {
        /// The parameter.
        param: Param,
        /// What is wrong and how to fix it.
        message: Text,
    },
    /// A request the library does not compute: an engine that does not compute the game, a
    /// table or value past what a format, an engine or a machine holds.
    Unsupported(Text),
    /// A checkpoint or work file a run cannot continue from.
    CannotResume {
        /// The checkpoint or work file.
        path: PathBuf,
        /// What is wrong with it, e.g. "is damaged (not JSON)".
        why: String,
    },
    /// A computation that reached one of its limits (a misère quotient past the largest size
    /// computed); the message says which and what to do.
    Limit(Text),
    /// A file that is not a table nimsieve reads, or not the one expected.
    NotATable {
        /// The file.
        path: PathBuf,
        /// Why.
        message: Text,
    },
    /// A folder without room for what a run writes.
    NoRoom {
        /// What was to be written, e.g. "the table".
        what: String,
        /// The folder.
        folder: PathBuf,
        /// Bytes needed.
        needed: u128,
        /// Bytes free.
        free: u128,
        /// What to do.
        fix: Text,
    },
    /// Other input that is not right: the words say what and how to fix it.
    Input(String),
    /// `verify` found an entry that contradicts the game's definition (the table is wrong).
    WrongTable(String),
    /// Two tables compared are not equal: how, and where first.
    Differ(String),
    /// The run was stopped by an interrupt; the message says what was kept.
    Interrupted(Text),
    /// Memory that could not be allocated.
    OutOfMemory {
        /// What needed it, e.g. "the table".
        what: String,
        /// How many bytes.
        bytes: u128,
    },
    /// A picture that could not be drawn or encoded.
    Plot(String),
    /// A file that cannot be read, written or renamed.
    Io {
        /// What was being done, e.g. "cannot write".
        action: &'static str,
        /// The file concerned.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

/// What kind of failure an error is, for the front ends' exit codes and exceptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The input asks for what cannot be done, or names something that is not right.
    BadInput,
    /// Memory that could not be allocated.
    OutOfMemory,
    /// A file that cannot be read or written.
    Io,
    /// A table that contradicts its game, or two tables that differ.
    WrongTable,
    /// An interrupt stopped the run.
    Interrupted,
    /// A picture that could not be drawn.
    Plot,
}

impl Error {
    /// What kind of failure this is.
    pub fn failure(&self) -> Failure {
        match self {
            Error::Spec { .. }
            | Error::Invalid { .. }
            | Error::Unsupported(_)
            | Error::Limit(_)
            | Error::CannotResume { .. }
            | Error::NotATable { .. }
            | Error::NoRoom { .. }
            | Error::Input(_) => Failure::BadInput,
            Error::OutOfMemory { .. } => Failure::OutOfMemory,
            Error::Io { .. } => Failure::Io,
            Error::WrongTable(_) | Error::Differ(_) => Failure::WrongTable,
            Error::Interrupted(_) => Failure::Interrupted,
            Error::Plot(_) => Failure::Plot,
        }
    }

    /// A spec error with its reason.
    pub fn spec(spec: &str, reason: impl Into<Text>) -> Self {
        Error::Spec {
            spec: spec.to_string(),
            reason: reason.into(),
        }
    }

    /// An I/O error on `path` while doing `action`.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }

    /// A value of `param` that is wrong, with what to do.
    pub fn invalid(param: Param, message: impl Into<Text>) -> Self {
        Error::Invalid {
            param,
            message: message.into(),
        }
    }

    /// A request the library does not compute, with what to do instead.
    pub fn unsupported(message: impl Into<Text>) -> Self {
        Error::Unsupported(message.into())
    }

    /// A file that is not a table nimsieve reads.
    pub fn not_a_table(path: impl Into<PathBuf>, message: impl Into<Text>) -> Self {
        Error::NotATable {
            path: path.into(),
            message: message.into(),
        }
    }

    /// A checkpoint or work file a run cannot continue from, and why.
    pub fn cannot_resume(path: impl Into<PathBuf>, why: impl Into<String>) -> Self {
        Error::CannotResume {
            path: path.into(),
            why: why.into(),
        }
    }

    /// The one-line message, with parameters and commands in `wording`.
    pub fn worded(&self, wording: &dyn Wording) -> String {
        self.text().worded(wording)
    }

    /// The one-line message, its parameters and commands not yet worded: for a caller that
    /// adds its own context and leaves the wording to the front end.
    pub fn text(&self) -> Text {
        match self {
            Error::Spec { spec, reason } => {
                text!(format!("bad game spec '{spec}': "), reason.clone())
            }
            Error::Invalid { message, .. } | Error::Unsupported(message) | Error::Limit(message) => {
                message.clone()
            }
            Error::NotATable { path, message } => text!(
                format!("cannot read '{}' as a nimsieve table: ", path.display()),
                message.clone()
            ),
            Error::CannotResume { path, why } => text!(
                format!("cannot resume: '{}' {why}; rerun without ", path.display()),
                Param::Resume,
                " to start over"
            ),
            Error::NoRoom {
                what,
                folder,
                needed,
                free,
                fix,
            } => {
                let (needed, free) = bytes_pair(*needed, *free);
                text!(
                    format!(
                        "not enough room in '{}' for {what}: {needed} needed, only {free} free; ",
                        folder.display()
                    ),
                    fix.clone()
                )
            }
            Error::Input(message) => message.as_str().into(),
            Error::WrongTable(message) => format!("wrong table: {message}").into(),
            Error::Differ(message) => format!("the tables differ: {message}").into(),
            Error::Interrupted(message) => text!("interrupted: ", message.clone()),
            Error::OutOfMemory { what, bytes } => format!(
                "{what} needs {} of memory, which cannot be allocated; use a machine with more memory or a smaller table",
                bytes_text(*bytes)
            )
            .into(),
            Error::Plot(message) => format!("cannot draw the plot: {message}").into(),
            Error::Io {
                action,
                path,
                source,
            } => format!(
                "{action} '{}': {source}{}",
                path.display(),
                memory_advice(source)
            )
            .into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(&Plain))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What to do about an I/O error that is the system refusing memory (a mapping of a work file
/// or table past what the process may map).
fn memory_advice(source: &std::io::Error) -> &'static str {
    const ENOMEM: i32 = 12;
    match source.raw_os_error() == Some(ENOMEM) {
        true => {
            "; the process may map no more memory (see ulimit -v): use a machine with more memory or a smaller table"
        }
        false => "",
    }
}

/// `text` with its control characters (CR, LF, tab, escape, …) escaped as `\r`, `\n`, `\t`,
/// `\u{1b}`, …, so that a message stays one line and cannot move the cursor of a terminal.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The most characters a word of a message keeps: a longer one (a code of thousands of digits
/// echoed back) keeps its start and end. File paths of that length are rare.
const LONGEST_WORD: usize = 200;

/// `text` with every word (a run of non-space characters) longer than [`LONGEST_WORD`]
/// characters cut to its first 60 and last 40, joined by `…` and followed by how long it was,
/// so that a message stays a line a terminal can show.
pub fn shortened(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let chars: Vec<char> = word.chars().collect();
            if chars.len() <= LONGEST_WORD {
                return word.to_string();
            }
            let head: String = chars[..60].iter().collect();
            let tail: String = chars[chars.len() - 40..].iter().collect();
            format!("{head}…{tail} ({} characters)", chars.len())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A number of bytes for messages: `512 bytes`, `3.7 MiB`, `70.0 GiB`, `1.2 TiB`.
pub fn bytes_text(bytes: u128) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// Two byte counts for a message that compares them (what is needed, what is there): as
/// [`bytes_text`] writes them, or exact when those read the same.
pub fn bytes_pair(needed: u128, there: u128) -> (String, String) {
    let (a, b) = (bytes_text(needed), bytes_text(there));
    match a == b {
        true => (format!("{needed} bytes"), format!("{there} bytes")),
        false => (a, b),
    }
}

/// The library's result type.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    #[test]
    fn byte_counts_read_in_a_unit_that_tells_them_apart() {
        assert_eq!(super::bytes_text(0), "0 bytes");
        assert_eq!(super::bytes_text(1023), "1023 bytes");
        assert_eq!(super::bytes_text(1536), "1.5 KiB");
        assert_eq!(super::bytes_text(5 << 20), "5.0 MiB");
        assert_eq!(super::bytes_text(70 << 30), "70.0 GiB");
        assert_eq!(super::bytes_text(3 << 40), "3.0 TiB");
        assert_eq!(super::bytes_text(5000 << 40), "5000.0 TiB");
        assert_eq!(
            super::bytes_pair(4096, 2048),
            ("4.0 KiB".into(), "2.0 KiB".into())
        );
        assert_eq!(
            super::bytes_pair(1_000_001, 1_000_000),
            ("1000001 bytes".into(), "1000000 bytes".into())
        );
    }

    #[test]
    fn long_words_are_cut() {
        let code = format!("'octal:0.{}x':", "7".repeat(10_000));
        let text = super::shortened(&format!("bad game spec {code} too long"));
        assert!(text.starts_with("bad game spec 'octal:0.777"), "{text}");
        assert!(
            text.ends_with("7777x': (10012 characters) too long"),
            "{text}"
        );
        assert!(text.chars().count() < 150, "{text}");
        assert_eq!(super::shortened("short words stay"), "short words stay");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            super::printable("a\rb\nc\td\u{1b}[2J \u{7f}é'\"\\"),
            "a\\rb\\nc\\td\\u{1b}[2J \\u{7f}é'\"\\"
        );
    }
}
