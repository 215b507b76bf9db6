//! Command-line parsing (clap) and the subcommands.

use clap::{Args, CommandFactory, Parser, Subcommand};
use nimsieve::choice::Choice;
use nimsieve::engine::EngineKind;
use nimsieve::engine::resumable::CHECKPOINT_EVERY;
use nimsieve::error::printable;
use nimsieve::eval;
use nimsieve::format::{self, Destination, Format, Report};
use nimsieve::game::{CATALOGUE, Game};
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use nimsieve::plot;
use nimsieve::progress::Progress;
use nimsieve::run::{self, Listing, Request, Run};
use nimsieve::sweep::{self as family_sweep, Family, RowFormat, Shard};
use nimsieve::table::ValueKind;
use nimsieve::{DEFAULT_OUTPUT_DIR, Error, Result};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod manual;

/// Sprague–Grundy values and P-positions of impartial games, as tables.
#[derive(Debug, Parser)]
#[command(name = "nimsieve", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "Examples:
  nimsieve grundy squares -n 1e6 --format csv,json     values of subtract-a-square
  nimsieve ppos primes+leave1 -n 100 -o -              P-positions to standard output
  nimsieve eval squares 18 26 28                       a three-heap position
  nimsieve sweep sub3:40                               all 9880 three-element subtraction sets
  nimsieve plot output/squares-1000000.npy --kind counting   a picture of a table
  nimsieve verify output/squares-1000000.bin           check every entry of a table
  nimsieve games                                       every game spec";

const GRUNDY_EXAMPLES: &str = "Examples:
  nimsieve grundy squares -n 1e6 --format csv,json     output/squares-1000000.csv and .json
  nimsieve grundy sub:1,3,4 -n 1000 --until-period     stop once the period is proven
  nimsieve grundy primes -n 1e9 -f bin --resume        a long run, resumable after Ctrl-C";

const PPOS_EXAMPLES: &str = "Examples:
  nimsieve ppos squares -n 1e7 -f bfile --offset 1     an OEIS b-file of the P-positions
  nimsieve ppos primes+leave1 -n 100 -o -              to standard output
  nimsieve ppos sub:2,5,7 -n 1e9 -f npy,json           a billion positions, as NumPy";

const MISERE_EXAMPLES: &str = "Examples:
  nimsieve misere kayles -n 100                        misère Kayles: 48 elements, period 12
  nimsieve misere octal:0.137 -n 1000 -f json -o q.json
  nimsieve misere sub:1,3,4 -n 60                      a subtraction game
  nimsieve eval kayles+misere 3 5 7                    a misère sum through the quotient";

const EVAL_EXAMPLES: &str = "Examples:
  nimsieve eval squares 18 26 28                       values 1 2 4, nim-sum 7, move 28 -> 27
  nimsieve eval nim 8 12 3 9 --json                    every winning move, as JSON
  nimsieve eval nim+misere 1 1 5                       misère Nim: 5 -> 1
  nimsieve eval sub:1,3,4 1000000000000 200            heaps of any size through the period
  nimsieve eval moore:1 15 8 3 1                       Moore's Nim_1: 15 -> 10
  nimsieve eval staircase 3 1 4 1                      coins on steps 1 to 4
  nimsieve eval fibonacci-nim 100                      take 3 (100 = 89 + 8 + 3)";

const STATS_EXAMPLES: &str = "Examples:
  nimsieve stats output/squares-1000000.csv            counts, first occurrences, P-counts
  nimsieve stats a.txt --ppos --mod 7                  a b-file of P-positions, by residue mod 7
  nimsieve stats b.csv --game sub:1,3,4                with the period of a finite set";

const SWEEP_EXAMPLES: &str = "Examples:
  nimsieve sweep sub3:40                               all 9880 three-element sets up to 40
  nimsieve sweep powers:2..6 -n 1e5 -f json -o -       JSON lines to standard output
  nimsieve sweep sub3:100 --shard 2/8                  the second of eight parts";

const SWEEP_MERGE_EXAMPLES: &str = "Examples:
  nimsieve sweep sub3:100 --shard 3/8 -o run/         one part, with run/sweep-sub3_100-part3of8.manifest.json
  nimsieve sweep-merge run/                           run/sweep-sub3_100.csv and .jsonl, once all 8 parts are there";

const PLOT_EXAMPLES: &str = "Examples:
  nimsieve plot output/squares-1000000.npy --kind values     g(n) against n
  nimsieve plot output/squares-1000000.csv --kind counting   P-positions below x, log-log
  nimsieve plot t.bin --kind density -o density.svg          share of each value, as SVG";

const VERIFY_EXAMPLES: &str = "Examples:
  nimsieve verify output/squares-1000000.bin           the game from the .bin header
  nimsieve verify a.csv --game sub:1,3,4               a table without a summary beside it
  nimsieve verify output/primes-100-ppos.txt --ppos    a b-file of P-positions";

const GAMES_EXAMPLES: &str = "Examples:
  nimsieve games                                       every spec with its rule
  nimsieve games | grep -i prime                       the prime games";

const COMPLETIONS_EXAMPLES: &str = "Examples:
  nimsieve completions bash > ~/.local/share/bash-completion/completions/nimsieve
  nimsieve completions zsh > ~/.zfunc/_nimsieve         (with fpath+=~/.zfunc in ~/.zshrc)
  nimsieve completions fish > ~/.config/fish/completions/nimsieve.fish";

const MAN_EXAMPLES: &str = "Examples:
  nimsieve man | man -l -                              read it now
  nimsieve man -o ~/.local/share/man/man1/nimsieve.1    install it for `man nimsieve`";

#[derive(Debug, Subcommand)]
enum Command {
    /// The misère quotient of a game's heaps below N (Plambeck and Siegel): its size,
    /// presentation, P-portion, each heap's element, tameness and the period of the heaps'
    /// elements.
    ///
    /// Heaps are added one at a time, each either equal to an element already present or a new
    /// generator, and every step is proven (each position's outcome is the P-portion's say).
    /// Any one-heap game: take-and-break codes (octal:CODE, hex:CODE, +unequal, kayles,
    /// dawsons-kayles, lasker, grundys-game) and subtraction games; `+misere` may be given or
    /// not. Refused in one line when the quotient passes --max-size elements.
    #[command(after_help = MISERE_EXAMPLES)]
    Misere {
        /// Game spec, e.g. kayles, octal:0.137 or sub:1,3,4 (with or without +misere).
        game: String,
        /// The heaps below N: 100, 1e3, 2^10.
        #[arg(short = 'n', allow_negative_numbers = true)]
        n: String,
        /// The most elements the quotient may have.
        #[arg(long, value_name = "K", default_value_t = nimsieve::misere::DEFAULT_MAX_SIZE.to_string())]
        max_size: String,
        /// Report format.
        #[arg(long, short = 'f', value_parser = ["text", "json"], default_value = "text")]
        format: String,
        /// Write the report to this file instead of standard output.
        #[arg(short = 'o', long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Grundy values g(x) for 0 <= x < N (outcomes 0 = P, 1 = N under +misere).
    #[command(after_help = GRUNDY_EXAMPLES)]
    Grundy(TableArgs),
    /// The P-positions below N.
    #[command(after_help = PPOS_EXAMPLES)]
    Ppos {
        #[command(flatten)]
        table: TableArgs,
        /// Index of the first P-position in b-files, CSV and xlsx. Refused when offset + N - 1
        /// (a bound on the last index, checked before the run) passes 2^64 - 1, or, for xlsx,
        /// reaches 2^53.
        #[arg(long, default_value_t = 0)]
        offset: u64,
    },
    /// Evaluate a position: values, nim-sum, outcome, winning moves.
    ///
    /// For a one-heap game (see `nimsieve games`) the position is a sum of heaps. Each heap's
    /// value comes the cheapest exact way: a closed form (nim, bachet, pim, powers-of-2,
    /// lasker, aliquot, divisors, to-divisor, half, even-if-not-all), a proven period (finite
    /// sets and finite octal codes: computed to the proof, then the heap reduced), or a table up
    /// to the largest heap (in a work file in output/ from 2^27 positions), with "method" in
    /// the JSON. A table that would pass 2^32 positions or take over about an hour is refused
    /// before it starts; compute it with `grundy ... -f bin --resume` and give it with --table.
    /// Every move of one heap to a position of nim-sum 0 is listed (a heap with more than 2^24
    /// options lists those among its options with the fewest objects removed). Misère play:
    /// nim+misere by Bouton's rule, every other one-heap game through its misère quotient (see
    /// `nimsieve misere`). The games of several heaps that are not sums
    /// (moore:K, staircase, northcott, nimble, poker-nim, turning-turtles, fibonacci-nim)
    /// have their own positions; `nimsieve games` says how each is written.
    #[command(after_help = EVAL_EXAMPLES)]
    Eval {
        /// Game spec, e.g. squares, sub:1,3,4 or moore:2 (see `nimsieve games`).
        game: String,
        /// The position: heap sizes (W,B rows for northcott, a row of H and T for
        /// turning-turtles).
        #[arg(required = true, allow_negative_numbers = true)]
        heaps: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// fibonacci-nim: the number of objects the previous move took (default: the first
        /// move, which may not take all).
        #[arg(long, value_name = "M")]
        last: Option<String>,
        /// Read heap values from this table file (written by `grundy`, e.g. a .bin) instead of
        /// computing them; it must reach the largest heap or prove the game's period.
        #[arg(long, value_name = "FILE")]
        table: Option<PathBuf>,
        /// No progress bar.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Statistics of a table nimsieve wrote (csv, b-file .txt, npy, bin, u64), as the JSON
    /// summary, without recomputing the game.
    #[command(after_help = STATS_EXAMPLES)]
    Stats {
        /// The table file.
        file: std::path::PathBuf,
        /// The file holds P-positions (b-files and npy; default: when its name ends in -ppos).
        #[arg(long)]
        ppos: bool,
        /// The game, when neither the file nor a JSON summary beside it names it (needed for
        /// the period of a finite subtraction set).
        #[arg(long)]
        game: Option<String>,
        /// Modulus of the P-position counts by residue, 1 to 65536 (2^16).
        #[arg(long = "mod", default_value = "5")]
        modulus: String,
    },
    /// Run a family of games and write one summary row per game (CSV and JSON lines); at most
    /// 2^20 games a run (split larger families with --shard).
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep(SweepArgs),
    /// Check the parts that `sweep --shard I/K` wrote into FOLDER (every shard of one run there
    /// exactly once, intact) and join them into the files one unsharded run writes there; a
    /// missing or damaged part is an error naming the shards to rerun, and nothing is written.
    #[command(after_help = SWEEP_MERGE_EXAMPLES)]
    SweepMerge {
        /// The folder of the parts (sweep --shard I/K -o FOLDER/).
        folder: PathBuf,
        /// No list of written files.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Draw a table nimsieve wrote as a PNG or SVG picture.
    #[command(after_help = PLOT_EXAMPLES)]
    Plot {
        /// The table file (csv, b-file .txt, npy, bin, u64).
        file: std::path::PathBuf,
        /// values (g(n) against n), counting (P-positions below x, log-log, with a fitted
        /// power law) or density (share of each value below x).
        #[arg(long)]
        kind: String,
        /// The picture: .png or .svg. Default: <file stem>-<kind>.png beside the table.
        #[arg(short = 'o', long)]
        output: Option<std::path::PathBuf>,
        /// The file holds P-positions (b-files and npy; default: when its name ends in -ppos).
        #[arg(long)]
        ppos: bool,
        /// No "wrote …" line.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Check every entry of a table nimsieve wrote against the game's definition (exit code 3
    /// when an entry is wrong).
    #[command(after_help = VERIFY_EXAMPLES)]
    Verify {
        /// The table file (csv, b-file .txt, npy, bin, u64): values, misère outcomes or
        /// P-positions.
        file: std::path::PathBuf,
        /// The game, when neither the .bin header nor a JSON summary beside the file names it
        /// (when both name one, they must agree).
        #[arg(long)]
        game: Option<String>,
        /// The file holds P-positions (b-files and npy; default: when its name ends in -ppos).
        #[arg(long)]
        ppos: bool,
        /// Worker threads, 1 to 1024 (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar and no note on the method's cost.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// List the game specs.
    #[command(after_help = GAMES_EXAMPLES)]
    Games,
    /// Print a completion script for a shell (bash, zsh or fish) to standard output.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell: bash, zsh or fish.
        #[arg(value_parser = one_of::<manual::Shell>(), ignore_case = true)]
        shell: manual::Shell,
    },
    /// Print the manual page (roff) to standard output, or write it to a file.
    #[command(after_help = MAN_EXAMPLES)]
    Man {
        /// The file to write (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
struct SweepArgs {
    /// The family: subK:M (every K-element subtraction set with largest element <= M, e.g.
    /// sub3:40) or NAME:A..B (e.g. powers:2..6), optionally followed by +leave1, +misere.
    family: String,
    /// Positions per game: the cap of finite subtraction sets, which stop at their proven
    /// period (default 2^20); required for other games.
    #[arg(short = 'n', allow_negative_numbers = true)]
    n: Option<String>,
    /// Output format; repeat or separate with commas for both.
    #[arg(
        long = "format",
        short = 'f',
        value_parser = one_of::<RowFormat>(),
        ignore_case = true,
        value_delimiter = ',',
        default_value = "csv,json"
    )]
    formats: Vec<RowFormat>,
    /// Output file (one format), FOLDER/ (each format in it), or - for standard output. Default:
    /// output/sweep-<family>[-partIofK].<ext>.
    #[arg(short = 'o', long)]
    output: Option<String>,
    /// Run only the I-th of K contiguous parts of the family (1 <= I <= K).
    #[arg(long, value_name = "I/K")]
    shard: Option<String>,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar and no list of written files.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Debug, Args)]
struct TableArgs {
    /// Game spec, e.g. squares, sub:1,3,4, primes+leave1, bachet:3+misere (see `nimsieve games`).
    game: String,
    /// Number of positions: 1000000, 1_000_000, 1e6, 2.5e6 or 2^20.
    #[arg(short = 'n', allow_negative_numbers = true)]
    n: String,
    /// Output format; repeat or separate with commas for several.
    #[arg(
        long = "format",
        short = 'f',
        value_parser = one_of::<Format>(),
        ignore_case = true,
        value_delimiter = ',',
        default_value = "csv"
    )]
    formats: Vec<Format>,
    /// Output file (one format), FOLDER/ (each format in it), or - for standard output.
    /// Default: output/<game>-<N>.<ext>.
    #[arg(short = 'o', long)]
    output: Option<String>,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar and no list of written files.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Force an engine instead of the automatic choice, e.g. reference to cross-check a table
    /// (each engine takes the games listed with it; another is a one-line error).
    #[arg(long, value_parser = one_of::<EngineKind>(), ignore_case = true)]
    engine: Option<EngineKind>,
    /// Continue an interrupted run of the same game and N from its last checkpoint.
    #[arg(long)]
    resume: bool,
    /// Seconds between checkpoints of a run in a work file (default 60; 0 saves at every
    /// point where the engine can stop).
    #[arg(long, value_name = "SECONDS")]
    checkpoint_every: Option<u64>,
    /// grundy: stop as soon as the period of a finite subtraction set is proven.
    #[arg(long)]
    until_period: bool,
    /// Modulus of the JSON's P-position counts by residue, 1 to 65536 (2^16).
    #[arg(long = "mod", default_value = "5")]
    modulus: String,
    /// CSV and xlsx: K values a row (a header n,+0,+1,…), like the tables of textbooks.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    wide: Option<u32>,
}

/// A clap parser for the name of one of `T`'s options, each listed with its help.
fn one_of<T: Choice + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let names = T::ALL
        .iter()
        .map(|c| PossibleValue::new(c.name()).help(c.help()));
    PossibleValuesParser::new(names)
        .map(|name| T::from_name(&name).expect("clap accepts only listed names"))
}

/// Appends a formatted line to a `String` (results are printed at once, through
/// [`interrupt::print`]).
macro_rules! push_line {
    ($out:expr, $($arg:tt)*) => {{
        $out.push_str(&format!($($arg)*));
        $out.push('\n');
    }};
}

/// The options only `ppos` has.
#[derive(Debug, Clone, Copy)]
struct PposOptions {
    offset: u64,
}

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
            say(&format!("nimsieve: error: {}", printable(&e.to_string())));
            e.exit_code()
        }
    }
}

/// clap's error as one line: its message (the lines before the first blank one, joined), its
/// tips, and the help to read (of the subcommand when `first` names one). `--help`,
/// `--version` and the help shown when no command is given are printed by clap as they are,
/// and exit.
fn usage_error(e: clap::Error, first: Option<&OsString>) -> Error {
    use clap::error::ErrorKind;
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

fn run(command: Command) -> Result<()> {
    interrupt::install();
    match command {
        Command::Misere {
            game,
            n,
            max_size,
            format,
            output,
        } => misere(&game, &n, &max_size, &format, output.as_deref()),
        Command::Grundy(args) => tabulate(&args, None),
        Command::Ppos { table, offset } => tabulate(&table, Some(PposOptions { offset })),
        Command::Eval {
            game,
            heaps,
            json,
            last,
            table,
            quiet,
        } => eval(
            &game,
            &heaps,
            json,
            last.as_deref(),
            table.as_deref(),
            quiet,
        ),
        Command::Stats {
            file,
            ppos,
            game,
            modulus,
        } => stats(&file, ppos, game.as_deref(), &modulus),
        Command::Sweep(args) => sweep(&args),
        Command::SweepMerge { folder, quiet } => sweep_merge(&folder, quiet),
        Command::Plot {
            file,
            kind,
            output,
            ppos,
            quiet,
        } => plot(&file, &kind, output, ppos, quiet),
        Command::Verify {
            file,
            game,
            ppos,
            threads,
            quiet,
        } => verify(&file, game.as_deref(), ppos, threads, quiet),
        Command::Completions { shell } => manual::completions(shell, &mut Cli::command()),
        Command::Man { output } => manual::man(&Cli::command(), output.as_deref()),
        Command::Games => {
            let all = || CATALOGUE.iter().chain(eval::POSITION_GAMES);
            let width = all().map(|e| e.syntax.len()).max().unwrap_or(0);
            let mut text = String::new();
            for entry in all() {
                push_line!(text, "{:width$}  {}", entry.syntax, entry.description);
            }
            interrupt::print(&text)
        }
    }
}

/// `grundy` (no `ppos` options) and `ppos`.
fn tabulate(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    if names_wythoff(&args.game) {
        return wythoff(args, ppos);
    }
    if let Ok(Some(game)) = eval::PositionGame::parse(&args.game) {
        let name = game.name();
        return Err(Error::Input(format!(
            "'{name}' is a game of several heaps with no one-heap table; 'nimsieve eval {name} …' evaluates its positions (see 'nimsieve games')"
        )));
    }
    let game = Game::parse(&args.game)?;
    let n = parse_u64(&args.n)?;
    let modulus = run::parse_modulus(&args.modulus)?;
    configure_threads(args.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    // Output files and the sieve's work file go to the folder of -o PATH, or output/.
    let folder = output_folder(args.output.as_deref())?;
    let request = Request {
        listing: match ppos {
            Some(opts) => Listing::Ppos {
                offset: opts.offset,
            },
            None => Listing::Grundy,
        },
        engine: args.engine,
        until_period: args.until_period,
        modulus,
        work_folder: Some(folder.clone()),
        resume: args.resume,
        checkpoint_every: args
            .checkpoint_every
            .map_or(CHECKPOINT_EVERY, Duration::from_secs),
        ..Request::grundy(game, n)
    };
    let destinations =
        format::destinations(&formats, args.output.as_deref(), &folder, &request.stem())?;
    destinations
        .iter()
        .try_for_each(|(_, d)| d.check_writable())?;
    let options = format::Options {
        wide: args.wide.map(|k| k as usize),
        // xlsx sheets in progress wait beside the outputs, like the work file.
        scratch: Some(if folder.as_os_str().is_empty() {
            Path::new(".").to_path_buf()
        } else {
            folder.clone()
        }),
    };
    // grundy writes n values; the number of P-positions is known only after the run.
    let numbers = ppos.is_none().then_some(n);
    let largest = largest_number(n, ppos)?;
    formats.iter().try_for_each(|f| {
        f.check_listing(ppos.is_some())?;
        f.check_size(largest, numbers, &options)
    })?;
    // An interrupt keeps a checkpointed work file, for --resume.
    interrupt::keep_checkpointed();

    // Locked from here until the work files are removed.
    let run = Run::start(request)?;
    let progress = Progress::new(n, args.quiet);
    let report = run.report(&progress)?;
    progress.finish();
    if !args.quiet {
        if report.n() < n {
            say(&format!("period proven; stopped at n = {}", report.n()));
        } else if let (Report::Grundy(r), true) = (&report, args.until_period)
            && r.period.is_none()
        {
            say(&format!(
                "no period proven below n = {n}; raise -n to search further"
            ));
        }
    }
    // A table that its proven period ended early is named after the length it holds.
    let destinations = match report.n() < n {
        true => {
            let stem = Request {
                n: report.n(),
                ..run.request().clone()
            }
            .stem();
            format::destinations(&formats, args.output.as_deref(), &folder, &stem)?
        }
        false => destinations,
    };
    // A format that fails (an xlsx table found too long only now) does not stop the others.
    write_each(&destinations, args.quiet, |format, destination| {
        format::write_to(format, &report, &options, destination)
    })?;
    run.finish();
    drop(report);
    Ok(())
}

/// Writes each destination with `write`, saying which files were written unless `quiet`. A
/// format that fails does not stop the others; the first failure is returned.
fn write_each(
    destinations: &[(Format, Destination)],
    quiet: bool,
    mut write: impl FnMut(Format, &Destination) -> Result<()>,
) -> Result<()> {
    let mut failure = None;
    for (format, destination) in destinations {
        match write(*format, destination) {
            Ok(()) => {
                if let (Destination::File(path), false) = (destination, quiet) {
                    wrote(path);
                }
            }
            Err(e) => {
                failure.get_or_insert(e);
            }
        }
    }
    failure.map_or(Ok(()), Err)
}

/// True for a spec of Wythoff's game (`wythoff`, or with arguments or modifiers, which
/// [`wythoff`] refuses).
fn names_wythoff(spec: &str) -> bool {
    let spec = spec.trim();
    spec == "wythoff" || spec.starts_with("wythoff+") || spec.starts_with("wythoff:")
}

/// Refuses, for Wythoff's game, a spec with arguments or modifiers and the options of one-heap
/// tables, each with one line saying why.
fn refuse_one_heap_options(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    let spec = args.game.trim();
    let unfit = |what: &str| Err(Error::Input(format!("{what}; leave it out")));
    if spec != "wythoff" {
        return Err(Error::Input(format!(
            "'{spec}': Wythoff's game takes no arguments and no modifiers (nimsieve computes it in normal play); use 'wythoff'"
        )));
    }
    if args.wide.is_some() {
        return unfit(
            "--wide lays out one-heap tables; the CSV of grundy wythoff is already a matrix, a row per x",
        );
    }
    if args.until_period {
        return unfit(
            "--until-period stops one-heap tables; grundy wythoff proves the rows' periods in its JSON summary instead",
        );
    }
    if let Some(engine) = args.engine {
        return unfit(&format!(
            "--engine {} is an engine of one-heap games; Wythoff's game has its own",
            engine.name()
        ));
    }
    if args.resume || args.checkpoint_every.is_some() {
        return unfit(
            "tables of Wythoff's game are not resumable (N = 2^14 takes under a minute), so --resume and --checkpoint-every do not apply",
        );
    }
    if args.modulus != "5" {
        return unfit(
            "--mod sets the residues of one-heap P-position counts; the summaries of Wythoff's game have none",
        );
    }
    if ppos.is_some_and(|p| p.offset != 0) {
        return unfit(
            "--offset numbers one-heap P-positions; the pairs of Wythoff's game are numbered by k from 0 (the b-file from 1, as OEIS A000201)",
        );
    }
    Ok(())
}

/// `grundy wythoff` (the table of G(x, y), 0 <= x, y < N) and `ppos wythoff` (the P-pairs
/// with a_k < N).
fn wythoff(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    use nimsieve::format::wythoff as files;
    use nimsieve::run::wythoff::{TableRun, pairs, stem};
    refuse_one_heap_options(args, ppos)?;
    let n = parse_u64(&args.n)?;
    configure_threads(args.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    files::check_formats(&formats, ppos.is_some())?;
    let folder = output_folder(args.output.as_deref())?;
    let mut destinations = format::destinations(
        &formats,
        args.output.as_deref(),
        &folder,
        &stem(n, ppos.is_some()),
    )?;
    destinations
        .iter()
        .try_for_each(|(_, d)| d.check_writable())?;
    if ppos.is_some() {
        let mut report = pairs(n)?;
        files::check_room(&destinations, |f| files::pair_bytes(f, n), None)?;
        // The pairs are made as they are written; the summary, last, gives the time taken.
        destinations.sort_by_key(|(f, _)| *f == Format::Json);
        let started = Instant::now();
        return write_each(&destinations, args.quiet, |format, destination| {
            report.info.elapsed_s = started.elapsed().as_secs_f64();
            let progress = Progress::counting(report.count, "pairs", args.quiet);
            let written = files::write_pairs(format, &report, destination, &progress);
            progress.finish();
            written
        });
    }
    let run = TableRun::start(n, Some(&folder))?;
    let work = run.work_file();
    let work = work
        .as_ref()
        .map(|(folder, bytes)| (folder.as_path(), *bytes));
    files::check_room(
        &destinations,
        |f| files::table_bytes(f, n, run.bits()),
        work,
    )?;
    let progress = Progress::counting(n * (n + 1) / 2, "cells", args.quiet);
    let report = run.report(&progress)?;
    progress.finish();
    write_each(&destinations, args.quiet, |format, destination| {
        files::write_table(format, &report, destination)
    })?;
    run.finish();
    drop(report);
    Ok(())
}

/// `sweep`: the rows of a family (or one shard of it), in family order.
fn sweep(args: &SweepArgs) -> Result<()> {
    let family = Family::parse(&args.family)?;
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let range = shard.unwrap_or(Shard::WHOLE).range(family.count())?;
    let n = args.n.as_deref().map(parse_u64).transpose()?;
    let n = family_sweep::positions(&family, n)?;
    configure_threads(args.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    let stem = family_sweep::stem(&family, shard);
    let folder = output_folder(args.output.as_deref())?;
    let destinations = format::destinations(&formats, args.output.as_deref(), &folder, &stem)?;
    destinations
        .iter()
        .try_for_each(|(_, d)| d.check_writable())?;

    let progress = Progress::counting(range.end - range.start, "games", args.quiet);
    let rows = family_sweep::run(&family, range, n, &progress)?;
    progress.finish();
    for (format, destination) in &destinations {
        format::write_with(destination, |out| format.write(&rows, out))?;
        if let (Destination::File(path), false) = (destination, args.quiet) {
            wrote(path);
        }
    }
    // A part written to files gets its manifest, for sweep-merge.
    let files: Option<Vec<(RowFormat, PathBuf)>> = destinations
        .iter()
        .map(|(format, destination)| match destination {
            Destination::File(path) if !format::is_special(path) => Some((*format, path.clone())),
            _ => None,
        })
        .collect();
    if let (Some(shard), Some(files)) = (shard, files) {
        let manifest = family_sweep::write_manifest(&family, n, shard, &files, &folder)?;
        if !args.quiet {
            wrote(&manifest);
        }
    }
    let unproven = rows.iter().filter(|r| r.period.is_none()).count();
    if unproven > 0 && family_sweep::stops_at_period(&family)? && !args.quiet {
        say(&format!(
            "{unproven} of {} games have no period proven below n = {n}; raise -n to search further",
            rows.len()
        ));
    }
    Ok(())
}

/// `sweep-merge`: the merged files of the parts in `folder`.
fn sweep_merge(folder: &Path, quiet: bool) -> Result<()> {
    for path in family_sweep::merge(folder)? {
        if !quiet {
            wrote(&path);
        }
    }
    Ok(())
}

/// The folder of `-o PATH`, `-o FOLDER/` itself, or `output/` when no file is named or the
/// file is a special one such as /dev/null or a FIFO (the two folders created when missing).
/// Work files and scratch files go there too.
fn output_folder(output: Option<&str>) -> Result<PathBuf> {
    let folder = match output {
        Some(path) if path != "-" && format::names_folder(path) => Path::new(path),
        Some(path) if path != "-" && !format::is_special(Path::new(path)) => {
            return Ok(Path::new(path)
                .parent()
                .unwrap_or(Path::new(""))
                .to_path_buf());
        }
        _ => Path::new(DEFAULT_OUTPUT_DIR),
    };
    std::fs::create_dir_all(folder).map_err(|e| Error::io("cannot create folder", folder, e))?;
    Ok(folder.to_path_buf())
}

/// Sets the worker pool size and returns the number of threads in use.
fn configure_threads(threads: Option<usize>) -> Result<usize> {
    if let Some(t) = threads {
        run::check_threads(t)?;
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| Error::Input(format!("cannot start {t} threads: {e}")))?;
    }
    Ok(rayon::current_num_threads())
}

/// The largest number the rows of an `n`-position table may hold: the last position, or for
/// `ppos` the last index, at most offset + n - 1 (n is at least 1). An offset that would carry
/// an index past 2^64 - 1 is refused.
fn largest_number(n: u64, ppos: Option<PposOptions>) -> Result<u64> {
    let offset = ppos.map_or(0, |p| p.offset);
    offset.checked_add(n - 1).ok_or_else(|| {
        Error::Input(format!(
            "--offset {offset}: the indexes of up to {n} P-positions (offset + N - 1) would pass 2^64 - 1; give --offset {} or less",
            u64::MAX - (n - 1)
        ))
    })
}

/// Says on standard error that `path` was written.
fn wrote(path: &Path) {
    say(&format!("wrote {}", printable(&path.display().to_string())));
}

/// Writes `line` to standard error if it can: a closed standard error loses the line but does
/// not stop the run from writing its files.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The game of a table file: `--game` (`given`) or the game the file states (its `.bin` header
/// or the JSON summary beside it); the two must agree when both are there.
fn game_of_table(given: Option<&str>, stated: Option<&str>, file: &Path) -> Result<Option<Game>> {
    let given = given.map(Game::parse).transpose()?;
    let stated = stated.map(Game::parse).transpose()?;
    match (given, stated) {
        (Some(given), Some(stated)) if given.spec != stated.spec => Err(Error::Input(format!(
            "--game {} disagrees with the game {} that '{}' states",
            given.spec,
            stated.spec,
            file.display()
        ))),
        (given, stated) => Ok(given.or(stated)),
    }
}

fn stats(file: &Path, ppos: bool, game: Option<&str>, modulus: &str) -> Result<()> {
    let modulus = run::parse_modulus(modulus)?;
    let started = Instant::now();
    let loaded = nimsieve::format::load(file, ppos.then_some(true))?;
    let game = game_of_table(game, loaded.game.as_deref(), file)?;
    let report = nimsieve::run::report_of_file(loaded, game.as_ref(), modulus, started);
    format::write_to(
        Format::Json,
        &report,
        &format::Options::default(),
        &Destination::Stdout,
    )
}

fn plot(
    file: &Path,
    kind: &str,
    output: Option<std::path::PathBuf>,
    ppos: bool,
    quiet: bool,
) -> Result<()> {
    let kind = plot::Kind::parse(kind)?;
    let output = output.unwrap_or_else(|| plot::default_output(file, kind));
    let format = plot::ImageFormat::of(&output)?;
    Destination::File(output.clone()).check_writable()?;
    let image = match nimsieve::format::wythoff::load_grid(file)? {
        Some(grid) => plot::wythoff::render(&grid, kind, format)?,
        None => plot::render(
            &nimsieve::format::load(file, ppos.then_some(true))?,
            kind,
            format,
        )?,
    };
    format::write_atomically(&output, |out| out.write_all(&image))?;
    if !quiet {
        wrote(&output);
    }
    Ok(())
}

/// `verify`: one line on standard output when the table is right; [`Error::WrongTable`]
/// (exit code 3) with the first wrong entry otherwise.
fn verify(
    file: &Path,
    spec: Option<&str>,
    ppos: bool,
    threads: Option<usize>,
    quiet: bool,
) -> Result<()> {
    configure_threads(threads)?;
    let started = Instant::now();
    let loaded = nimsieve::format::load(file, ppos.then_some(true))?;
    let Some(game) = game_of_table(spec, loaded.game.as_deref(), file)? else {
        return Err(Error::Input(format!(
            "'{}' does not name its game (no .bin header, no JSON summary beside it); give --game",
            file.display()
        )));
    };
    let subject = nimsieve::verify::subject(loaded, &game)?;
    let progress = Progress::new(subject.len(), quiet);
    let verdict = nimsieve::verify::verify(&subject, &game, &progress)?;
    progress.finish();
    if let (Some(cost), false) = (&verdict.cost, quiet) {
        say(&format!("cost: {cost}"));
    }
    match verdict.fault {
        Some(fault) => Err(Error::WrongTable(nimsieve::verify::describe(
            &fault, &subject, &game,
        ))),
        None => interrupt::print(&format!(
            "verified: {}, {} {}, all correct ({:.1} s)\n",
            printable(&game.spec),
            verdict.positions,
            match subject.form {
                nimsieve::verify::Form::Grundy => "values",
                nimsieve::verify::Form::Outcomes => "outcomes",
                nimsieve::verify::Form::PList => "positions",
            },
            started.elapsed().as_secs_f64()
        )),
    }
}

fn eval(
    spec: &str,
    position: &[String],
    json: bool,
    last: Option<&str>,
    table: Option<&Path>,
    quiet: bool,
) -> Result<()> {
    let options = eval::Options {
        tables: eval::TableOptions {
            file: table.map(Path::to_path_buf),
            work_folder: Some(PathBuf::from(DEFAULT_OUTPUT_DIR)),
            progress: Progress::new(0, quiet),
        },
        last: last.map(parse_u64).transpose()?,
    };
    let e = eval::evaluate(spec, position, &options)?;
    let text = match &e {
        _ if json => serde_json::to_string(&e).expect("evaluation serialises") + "\n",
        eval::Evaluation::Sum(sum) => sum_text(sum),
        eval::Evaluation::Position(p) => position_text(p),
        eval::Evaluation::Misere(m) => misere_text(m),
    };
    interrupt::print(&text)
}

/// `misere`: the quotient's report, as text or JSON, to standard output or a file.
fn misere(spec: &str, n: &str, max_size: &str, format: &str, output: Option<&Path>) -> Result<()> {
    let n = parse_u64(n)?;
    let max_size = usize::try_from(parse_u64(max_size)?).unwrap_or(usize::MAX);
    let report = nimsieve::misere::Quotient::compute(spec, n, max_size)?.report();
    let text = match format {
        "json" => serde_json::to_string_pretty(&report).expect("a report serialises") + "\n",
        _ => report.text(),
    };
    match output {
        Some(path) => std::fs::write(path, text).map_err(|e| Error::io("write", path, e)),
        None => interrupt::print(&text),
    }
}

/// The words of an outcome.
fn outcome_words(outcome: eval::Outcome) -> &'static str {
    match outcome {
        eval::Outcome::P => "P (the player to move loses)",
        eval::Outcome::N => "N (the player to move wins)",
    }
}

/// Numbers joined by spaces.
fn spaced(numbers: &[u64]) -> String {
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The closing line when only some winning moves are listed.
fn partial_note(out: &mut String, all: bool) {
    if !all {
        push_line!(
            out,
            "  (not every winning move: only those among the options examined)"
        );
    }
}

/// The winning moves of a sum, one a line.
fn moves_text(out: &mut String, moves: &[eval::HeapMove]) {
    push_line!(out, "winning moves:");
    for m in moves {
        match &m.split {
            Some(heaps) => push_line!(
                out,
                "  heap {}: {} -> {} (remove {}, split the rest)",
                m.heap,
                m.from,
                heaps
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" + "),
                m.from - m.to
            ),
            None => push_line!(out, "  heap {}: {} -> {}", m.heap, m.from, m.to),
        }
    }
}

/// The text of a misère sum evaluated through the quotient.
fn misere_text(e: &eval::MisereEvaluation) -> String {
    let mut out = String::new();
    push_line!(out, "heaps:    {}", spaced(&e.heaps));
    push_line!(out, "elements: {}", e.elements.join(" "));
    push_line!(
        out,
        "method:   misère quotient of the heaps below {} ({} elements); the position is {}",
        e.heaps_below,
        e.quotient_size,
        e.element
    );
    push_line!(
        out,
        "outcome:  {} under misère play",
        outcome_words(e.outcome)
    );
    if e.winning_moves.is_empty() {
        push_line!(out, "winning moves: none");
        return out;
    }
    moves_text(&mut out, &e.winning_moves);
    partial_note(&mut out, e.all_winning_moves);
    out
}

/// The text of a sum of heaps' evaluation.
fn sum_text(e: &eval::SumEvaluation) -> String {
    let mut out = String::new();
    let sizes: Vec<u64> = e.heaps.iter().map(|h| h.size).collect();
    push_line!(out, "heaps:   {}", spaced(&sizes));
    push_line!(out, "values:  {}", spaced(&e.values));
    let mut methods: Vec<&str> = e.heaps.iter().map(|h| method_name(h.method)).collect();
    methods.dedup();
    push_line!(out, "method:  {}", methods.join(", "));
    push_line!(out, "nim-sum: {}", e.nim_sum);
    let misere = Game::parse(&e.game).is_ok_and(|g| ValueKind::of(g.play) == ValueKind::Outcome);
    push_line!(
        out,
        "outcome: {}{}",
        outcome_words(e.outcome),
        if misere { " under misère play" } else { "" }
    );
    if e.winning_moves.is_empty() {
        push_line!(out, "winning moves: none");
        return out;
    }
    moves_text(&mut out, &e.winning_moves);
    partial_note(&mut out, e.all_winning_moves);
    out
}

/// A method as the JSON writes it.
fn method_name(method: eval::Method) -> &'static str {
    match method {
        eval::Method::ClosedForm => "closed form",
        eval::Method::Period => "period",
        eval::Method::Table => "table",
    }
}

/// The text of a position's evaluation.
fn position_text(e: &eval::PositionEvaluation) -> String {
    let mut out = String::new();
    push_line!(out, "game:     {}", e.game);
    push_line!(out, "position: {}", spaced(&e.position));
    if let Some(heaps) = &e.nim_heaps {
        push_line!(out, "as Nim:   {}", spaced(heaps));
    }
    if let Some(value) = e.value {
        push_line!(out, "value:    {value}");
    }
    push_line!(out, "method:   {}", e.method);
    push_line!(out, "outcome:  {}", outcome_words(e.outcome));
    if e.winning_moves.is_empty() {
        push_line!(out, "winning moves: none");
        return out;
    }
    match e.winning_move_count {
        Some(count) => push_line!(out, "winning moves ({count}):"),
        None => push_line!(out, "a winning move:"),
    }
    for m in &e.winning_moves {
        push_line!(out, "  {}", m.says);
    }
    partial_note(&mut out, e.all_winning_moves);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_files_go_beside_the_output_but_never_into_dev() {
        assert_eq!(output_folder(Some("a/b.csv")).unwrap(), Path::new("a"));
        assert_eq!(output_folder(Some("b.csv")).unwrap(), Path::new(""));
        assert_eq!(output_folder(Some("src")).unwrap(), Path::new("src"));
        assert_eq!(
            output_folder(Some("/dev/null")).unwrap(),
            Path::new("output")
        );
        assert_eq!(output_folder(Some("-")).unwrap(), Path::new("output"));
        assert_eq!(output_folder(None).unwrap(), Path::new("output"));
    }
}
