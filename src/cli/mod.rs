//! The command line: clap parsing, one-line usage errors, and each subcommand's call into the
//! library (`args` the definitions, one file a subcommand group, `output` where files go).

use args::{Cli, Command};
use clap::{CommandFactory, Parser};
use nimsieve::error::{printable, shortened};
use nimsieve::game::{CATALOGUE, CatalogueEntry, Heaps};
use nimsieve::interrupt;
use nimsieve::run;
use nimsieve::{Error, Result};
use output::say;
use std::ffi::OsString;
use std::io::IsTerminal;

/// Appends a formatted line to a `String` (results are printed at once, through
/// [`interrupt::print`]).
macro_rules! push_line {
    ($out:expr, $($arg:tt)*) => {{
        $out.push_str(&format!($($arg)*));
        $out.push('\n');
    }};
}

mod allocator;
mod args;
mod ending;
mod evaluation;
mod examples;
mod inspect;
mod manual;
mod misere;
mod output;
mod sweep;
mod table;
mod wording;

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    let result = Cli::try_parse_from(&args)
        .map_err(|e| usage_error(e, args.get(1)))
        .and_then(|cli| run(cli.command));
    match result {
        Ok(()) => 0,
        Err(e) => {
            if !interrupt::claim_last_line() {
                // A second Ctrl-C is printing its line and ends the process.
                loop {
                    std::thread::park();
                }
            }
            say(&format!(
                "nimsieve: error: {}",
                shortened(&printable(&e.worded(&wording::Flags)))
            ));
            ending::exit_code(&e)
        }
    }
}

/// clap's error as one line: its message (the lines before the first blank one, joined), its
/// tips, and the help to read (of the subcommand when `first` names one). `--help`,
/// `--version` and the help shown when no command is given are printed by clap as they are,
/// and exit.
fn usage_error(e: clap::Error, first: Option<&OsString>) -> Error {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        && !std::io::stdout().is_terminal()
    {
        // Printed here, so that a standard output that cannot take it is an error line (and a
        // closed one ends the process quietly, as for every command).
        ending::install();
        if let Err(error) = interrupt::print(&e.render().to_string()) {
            return error;
        }
        std::process::exit(0);
    }
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let text = e.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    let help = match first
        .and_then(|arg| arg.to_str())
        .filter(|arg| Cli::command().find_subcommand(arg).is_some())
    {
        Some(command) => format!("see 'nimsieve {command} --help'"),
        None => "see 'nimsieve --help'".to_string(),
    };
    let fixes: Vec<&str> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("tip: "))
        .chain([help.as_str()])
        .collect();
    Error::Input(format!("{message}; {}", fixes.join("; ")))
}

/// Runs one subcommand.
fn run(command: Command) -> Result<()> {
    ending::install();
    // The commands with --threads start their pool once they have read it; those that print
    // what they know need none.
    let own_pool = matches!(
        command,
        Command::Grundy(_) | Command::Ppos { .. } | Command::Sweep(_) | Command::Verify { .. }
    );
    let no_pool = matches!(
        command,
        Command::Games | Command::Completions { .. } | Command::Man { .. }
    );
    if !own_pool && !no_pool {
        configure_threads(None)?;
    }
    match command {
        Command::Misere {
            game,
            n,
            max_size,
            format,
            output,
        } => misere::misere(&game, &n, &max_size, &format, output.as_deref()),
        Command::Grundy(args) => table::tabulate(&args, None),
        Command::Ppos { table, offset } => {
            table::tabulate(&table, Some(table::PposOptions { offset }))
        }
        Command::Eval {
            game,
            heaps,
            format,
            json,
            last,
            table,
            max_moves,
            quiet,
        } => evaluation::eval(
            &game,
            &heaps,
            json || format == "json",
            last.as_deref(),
            table.as_deref(),
            max_moves.as_deref(),
            quiet,
        ),
        Command::Stats {
            file,
            ppos,
            game,
            modulus,
        } => inspect::stats(&file, ppos, game.as_deref(), modulus.as_deref()),
        Command::Sweep(args) => sweep::sweep(&args),
        Command::SweepMerge { folder, quiet } => sweep::sweep_merge(&folder, quiet),
        Command::Plot {
            file,
            kind,
            values,
            fit,
            output,
            ppos,
            quiet,
        } => inspect::plot(&file, &kind, values.as_deref(), fit, output, ppos, quiet),
        Command::Verify {
            file,
            game,
            ppos,
            threads,
            quiet,
        } => inspect::verify(&file, game.as_deref(), ppos, threads, quiet),
        Command::Compare { a, b, ppos } => inspect::compare(&a, &b, ppos),
        Command::Convert {
            file,
            formats,
            output,
            wide,
            ppos,
            game,
            quiet,
        } => inspect::convert(&file, formats, output, wide, ppos, game.as_deref(), quiet),
        Command::Completions { shell } => manual::completions(shell, &mut Cli::command()),
        Command::Man { output } => manual::man(&Cli::command(), output.as_deref()),
        Command::Games => games(),
    }
}
/// `games`: every spec with its rule, one a line, under a heading per kind of game that names
/// the commands it supports.
fn games() -> Result<()> {
    let width = CATALOGUE.iter().map(|e| e.syntax.len()).max().unwrap_or(0);
    let mut text = String::new();
    let mut kind = None;
    for entry in CATALOGUE {
        if kind != Some(entry.heaps) {
            kind = Some(entry.heaps);
            push_line!(text, "{}", heading(entry));
        }
        push_line!(text, "  {:width$}  {}", entry.syntax, entry.description);
    }
    interrupt::print(&text)
}

/// The heading of a kind of catalogue entry: what it is and what nimsieve does with it.
fn heading(entry: &CatalogueEntry) -> String {
    let kind = match entry.heaps {
        Heaps::One => "Games of one heap",
        Heaps::Two => "Games of two heaps",
        Heaps::Several => "Games of several heaps that are not sums",
        Heaps::Modifier => return "Modifiers (appended to a game's spec):".to_string(),
    };
    format!("{kind} ({}):", entry.supports().join(", "))
}

/// Sets the worker pool size (default: one thread a core).
pub(super) fn configure_threads(threads: Option<usize>) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new();
    let started = match threads {
        Some(t) => {
            run::check_threads(t)?;
            pool.num_threads(t).build_global()
        }
        None => pool.build_global(),
    };
    // Started now, so that a pool the system refuses is this line rather than a panic later.
    started.map_err(|e| {
        let what = threads.map_or("the worker threads".to_string(), |t| format!("{t} threads"));
        Error::Input(format!(
            "cannot start {what}: {e}; the process may lack memory (see ulimit -v){}",
            if threads.is_some() {
                ", or give fewer --threads"
            } else {
                ""
            }
        ))
    })
}

/// This process's command line as a shell takes it back (`nimsieve grundy 'tb:4!.0' -n 100`),
/// for the provenance of the files it writes: the program as `nimsieve`, each argument quoted
/// where a shell would need it.
pub(super) fn command_line() -> String {
    let arguments = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned());
    shell_words::join(std::iter::once("nimsieve".to_string()).chain(arguments))
}
