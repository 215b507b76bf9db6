//! `nimsieve completions SHELL` and `nimsieve man`: shell completions and the manual page,
//! generated from the command line's own definitions.

use nimsieve::choice::Choice;
use nimsieve::format::write_atomically;
use nimsieve::interrupt;
use nimsieve::{Error, Result};
use std::path::Path;

/// A shell `completions` writes a script for.
#[derive(Clone, Copy, Debug)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

impl Choice for Shell {
    const ALL: &'static [Self] = &[Shell::Bash, Shell::Zsh, Shell::Fish];

    fn name(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::Zsh => "zsh",
            Shell::Fish => "fish",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Shell::Bash => "a script for bash-completion",
            Shell::Zsh => "a #compdef function for a folder of $fpath",
            Shell::Fish => "a script for ~/.config/fish/completions",
        }
    }
}

/// Prints the completion script of `shell` for `command` to standard output.
pub fn completions(shell: Shell, command: &mut clap::Command) -> Result<()> {
    let generator = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(generator, command, "nimsieve", &mut script);
    interrupt::print(&String::from_utf8_lossy(&script))
}

/// The exit codes of every subcommand, for the manual page.
const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
0
Success.
.TP
1
An operation failed: a file could not be read or written, a picture could not be drawn.
.TP
2
Bad input (a usage error, a malformed game spec or size, a request no engine computes), or
memory that could not be allocated. Nothing was written.
.TP
3
\fBverify\fR found a wrong entry in the table.
.TP
130
Interrupted by Ctrl\-C or SIGTERM; the last line says what was kept.
.TP
141
Standard output was closed by its reader.
"#;

/// Where the rest of the documentation is, for the manual page.
const SEE_ALSO: &str = r#".SH "SEE ALSO"
The documentation of the source repository: README.md (a tour), docs/commands.md (every
command and option), docs/games.md (the games and their conventions), docs/formats.md (the
files), docs/eval.md, docs/misere.md, docs/plots.md, docs/sweeps.md, docs/big-runs.md,
docs/python.md (the Python package, \fBimport nimsieve\fR) and docs/performance.md.
"#;

/// Writes the manual page of `command` (roff, section 1: a synopsis line for each subcommand,
/// a section for each subcommand, the exit status) to `output`, or prints it.
pub fn man(command: &clap::Command, output: Option<&Path>) -> Result<()> {
    let mut page = Vec::new();
    let io = |e| Error::io("cannot write", "the manual page", e);
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page).map_err(io)?;
    man.render_name_section(&mut page).map_err(io)?;
    man.render_synopsis_section(&mut page).map_err(io)?;
    let subcommands = || command.get_subcommands().filter(|s| s.get_name() != "help");
    for sub in subcommands() {
        let usage = sub
            .clone()
            .bin_name(format!("nimsieve {}", sub.get_name()))
            .render_usage()
            .to_string();
        let usage = usage.trim_start_matches("Usage: ").replace('-', "\\-");
        page.extend_from_slice(format!(".br\n{usage}\n").as_bytes());
    }
    man.render_description_section(&mut page).map_err(io)?;
    man.render_options_section(&mut page).map_err(io)?;
    for sub in subcommands() {
        let name = format!("nimsieve {}", sub.get_name());
        page.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        let sub = sub.clone().bin_name(name);
        let sub_man = clap_mangen::Man::new(sub);
        sub_man.render_synopsis_section(&mut page).map_err(io)?;
        sub_man.render_description_section(&mut page).map_err(io)?;
        sub_man.render_options_section(&mut page).map_err(io)?;
        sub_man.render_extra_section(&mut page).map_err(io)?;
    }
    man.render_extra_section(&mut page).map_err(io)?;
    page.extend_from_slice(EXIT_STATUS.as_bytes());
    page.extend_from_slice(SEE_ALSO.as_bytes());
    man.render_version_section(&mut page).map_err(io)?;
    match output {
        Some(path) => write_atomically(path, |out| out.write_all(&page)),
        None => interrupt::print(&String::from_utf8_lossy(&page)),
    }
}
