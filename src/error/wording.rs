//! How messages name what they speak of: the parameters of a request ([`Param`]), commands to
//! run ([`Command`]), and the [`Text`] built of them, which each front end words its own way
//! ([`Wording`]); [`Plain`] is the library's own wording.

use std::fmt;

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
    /// The positions a run that keeps no table keeps whole.
    Window,
    /// Writing the frequency file of each power of two a run that keeps no table passes.
    FreqEachPower,
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
            Param::Window => "window",
            Param::MaxSize => "max_size",
            Param::MaxMoves => "max_moves",
            Param::Resume => "resume",
            Param::Shard => "shard",
            Param::Kind => "kind",
            Param::Values => "values",
            Param::Fit => "fit",
            Param::Game => "game",
            Param::FreqEachPower => "freq_each_power",
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
