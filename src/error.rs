//! The one error type of the library and the exit codes the command line maps it to.

use std::path::PathBuf;

/// Everything that can go wrong, each variant carrying enough context for a one-line message.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A game spec that does not parse or describes no valid game.
    #[error("bad game spec '{spec}': {reason}")]
    Spec {
        /// The spec as the user wrote it.
        spec: String,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// A number or other argument that is malformed or out of range.
    #[error("{0}")]
    Input(String),
    /// `verify` found an entry that contradicts the game's definition (the table is wrong).
    #[error("wrong table: {0}")]
    WrongTable(String),
    /// The run was stopped by Ctrl-C; the message says how to resume.
    #[error("interrupted: {0}")]
    Interrupted(String),
    /// Memory that could not be allocated.
    #[error(
        "{what} needs {} of memory, which cannot be allocated; use a machine with more memory or a smaller table",
        bytes_text(*bytes)
    )]
    OutOfMemory {
        /// What needed it, e.g. "the table".
        what: String,
        /// How many bytes.
        bytes: u128,
    },
    /// A picture that could not be drawn or encoded.
    #[error("cannot draw the plot: {0}")]
    Plot(String),
    /// A file that cannot be read, written or renamed.
    #[error("{action} '{path}': {source}{}", memory_advice(source))]
    Io {
        /// What was being done, e.g. "cannot write".
        action: &'static str,
        /// The file concerned.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

impl Error {
    /// A spec error with its reason.
    pub fn spec(spec: &str, reason: impl Into<String>) -> Self {
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

    /// The process exit code: 2 for bad input (like a usage error), 1 for a failed operation,
    /// 3 for a table that `verify` found wrong, 130 for an interrupted run (as shells report
    /// Ctrl-C).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Spec { .. } | Error::Input(_) | Error::OutOfMemory { .. } => 2,
            Error::Io { .. } | Error::Plot(_) => 1,
            Error::WrongTable(_) => 3,
            Error::Interrupted(_) => 130,
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
