//! The library's parameters and commands as the command line spells them: `-n 1000`,
//! `--threads`, `'nimsieve grundy squares -n N -f bin'`.

use nimsieve::error::{Command, Param, Wording};

/// The command line's wording of the library's messages.
#[derive(Debug, Clone, Copy)]
pub(super) struct Flags;

impl Wording for Flags {
    fn param(&self, param: Param) -> String {
        match param {
            Param::Size => "-n",
            Param::Threads => "--threads",
            Param::Engine => "--engine",
            Param::Modulus => "--mod",
            Param::Output => "-o",
            Param::Format => "--format",
            Param::Wide => "--wide",
            Param::Offset => "--offset",
            Param::Table => "--table",
            Param::Last => "--last",
            Param::UntilPeriod => "--until-period",
            Param::Window => "--window",
            Param::MaxSize => "--max-size",
            Param::MaxMoves => "--max-moves",
            Param::Resume => "--resume",
            Param::Shard => "--shard",
            Param::Kind => "--kind",
            Param::Values => "--values",
            Param::Fit => "--fit",
            Param::Game => "--game",
            Param::FreqEachPower => "--freq-each-power",
        }
        .to_string()
    }

    fn given(&self, param: Param, value: &str) -> String {
        match param {
            Param::Format => format!("-f {value}"),
            other => format!("{} {value}", self.param(other)),
        }
    }

    fn command(&self, command: &Command) -> String {
        let mut words = vec!["nimsieve".to_string(), command.name.to_string()];
        words.extend((!command.operands.is_empty()).then(|| command.operands.clone()));
        words.extend(command.params.iter().map(|(param, value)| match value {
            Some(value) => self.given(*param, value),
            None => self.param(*param),
        }));
        format!("'{}'", words.join(" "))
    }
}
