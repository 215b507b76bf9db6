//! The one error type of the library. Its messages name the parameters of a request
//! ([`Param`]), never a front end's flags: each front end words them its own way
//! ([`Wording`]), and maps the kinds of error to its own exit codes or exceptions.

use std::fmt;
use std::path::PathBuf;

/// A parameter of a request, as the library names it; each front end words it its own way
/// (the command line's `--threads`, Python's `threads=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Param {
    /// The number of positions (or the side of a two-heap table).
    Size,
    /// The number of worker threads.
    Threads,
    /// A forced engine.
    Engine,
    /// The modulus of the P-position counts by residue.
    Modulus,
    /// Where the outputs go.
    Output,
    /// The output formats.
    Format,
    /// Values a row of a wide layout.
    Wide,
    /// The index of the first P-position.
    Offset,
    /// A table file to evaluate heaps from.
    Table,
    /// What the previous move took (Fibonacci nim).
    Last,
    /// Stopping at the shortest table that proves a period.
    UntilPeriod,
    /// The largest misère quotient computed.
    MaxSize,
    /// The most winning moves listed.
    MaxMoves,
    /// Continuing from a checkpoint.
    Resume,
    /// One part of a sweep.
    Shard,
    /// The kind of plot.
    Kind,
    /// The values a density plot draws.
    Values,
    /// The law a counting plot draws.
    Fit,
    /// The game of a table file.
    Game,
}

impl Param {
    /// The library's name of the parameter (that of its argument in the Python package).
    pub const fn name(self) -> &'static str {
        match self {
            Param::Size => "n",
            Param::Threads => "threads",
            Param::Engine => "engine",
            Param::Modulus => "modulus",
            Param::Output => "output",
            Param::Format => "format",
            Param::Wide => "wide",
            Param::Offset => "offset",
            Param::Table => "table",
            Param::Last => "last",
            Param::UntilPeriod => "until_period",
            Param::MaxSize => "max_size",
            Param::MaxMoves => "max_moves",
            Param::Resume => "resume",
            Param::Shard => "shard",
            Param::Kind => "kind",
            Param::Values => "values",
            Param::Fit => "fit",
            Param::Game => "game",
        }
    }

    /// This parameter given `value`, as a piece of a message.
    pub fn given(self, value: impl fmt::Display) -> Piece {
        Piece::Given(self, value.to_string())
    }
}

/// How a front end words the parameters and commands a message names.
pub trait Wording {
    /// The parameter, e.g. `--threads` or `threads`.
    fn param(&self, param: Param) -> String;
    /// The parameter given a value, e.g. `-n 1000` or `n=1000`.
    fn given(&self, param: Param, value: &str) -> String;
    /// A command to run: its name (`grundy`, `games`, …), its operands (a game, heaps) and
    /// its parameters, each with its value or none for a switch.
    fn command(&self, command: &Command) -> String;
}

/// A command a message suggests: e.g. `grundy squares` with a size and a format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The subcommand or function: `grundy`, `ppos`, `eval`, `games`, `misere`.
    pub name: &'static str,
    /// What follows it: a game, heaps.
    pub operands: String,
    /// Its parameters, each with a value or none for a switch.
    pub params: Vec<(Param, Option<String>)>,
}

/// One piece of a [`Text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Words as they are.
    Words(String),
    /// A parameter named.
    Param(Param),
    /// A parameter with a value.
    Given(Param, String),
    /// A command to run.
    Command(Command),
}

impl Command {
    /// The command `name` with its operands (a game, heaps) and no parameters.
    pub fn new(name: &'static str, operands: impl Into<String>) -> Command {
        Command {
            name,
            operands: operands.into(),
            params: Vec::new(),
        }
    }

    /// This command with `param` given `value`.
    pub fn with(mut self, param: Param, value: impl fmt::Display) -> Command {
        self.params.push((param, Some(value.to_string())));
        self
    }

    /// This command with the switch `param`.
    pub fn switch(mut self, param: Param) -> Command {
        self.params.push((param, None));
        self
    }
}

/// A message that may name parameters and commands, worded by each front end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text(pub Vec<Piece>);

impl Text {
    /// The message in `wording`.
    pub fn worded(&self, wording: &dyn Wording) -> String {
        self.0
            .iter()
            .map(|piece| match piece {
                Piece::Words(words) => words.clone(),
                Piece::Param(param) => wording.param(*param),
                Piece::Given(param, value) => wording.given(*param, value),
                Piece::Command(command) => wording.command(command),
            })
            .collect()
    }
}

impl Text {
    /// The texts one after the other.
    pub fn concat(texts: Vec<Text>) -> Text {
        Text(texts.into_iter().flat_map(|text| text.0).collect())
    }
}

impl From<&str> for Text {
    fn from(words: &str) -> Text {
        Text(vec![Piece::Words(words.to_string())])
    }
}

impl From<String> for Text {
    fn from(words: String) -> Text {
        Text(vec![Piece::Words(words)])
    }
}

impl From<Param> for Text {
    fn from(param: Param) -> Text {
        Text(vec![Piece::Param(param)])
    }
}

impl From<Piece> for Text {
    fn from(piece: Piece) -> Text {
        Text(vec![piece])
    }
}

impl From<Command> for Text {
    fn from(command: Command) -> Text {
        Text(vec![Piece::Command(command)])
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(&Plain))
    }
}

/// A [`Text`] of pieces: words (`&str`, `String`), parameters ([`Param`], [`Param::given`])
/// and commands ([`Command`]).
#[macro_export]
macro_rules! text {
    ($($piece:expr),* $(,)?) => {
        $crate::error::Text::concat(vec![$($crate::error::Text::from($piece)),*])
    };
}

/// The library's own wording: parameters by name (`n`, `threads`), given as `n=1000`;
/// commands as `'nimsieve grundy squares' with n=N, format=bin`.
#[derive(Debug, Clone, Copy)]
pub struct Plain;

impl Wording for Plain {
    fn param(&self, param: Param) -> String {
        param.name().to_string()
    }

    fn given(&self, param: Param, value: &str) -> String {
        format!("{}={value}", param.name())
    }

    fn command(&self, command: &Command) -> String {
        let params: Vec<String> = (command.params.iter())
            .map(|(param, value)| match value {
                Some(value) => self.given(*param, value),
                None => self.given(*param, "True"),
            })
            .collect();
        let call = ["nimsieve", command.name, command.operands.as_str()]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        match params.is_empty() {
            true => format!("'{call}'"),
            false => format!("'{call}' with {}", params.join(", ")),
        }
    }
}

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
