//! The clap definitions of the command line: the subcommands and their options.

use super::examples::*;
use super::manual;
use clap::{Args, Parser, Subcommand};
use nimsieve::choice::Choice;
use nimsieve::engine::EngineKind;
use nimsieve::format::Format;
use nimsieve::sweep::RowFormat;
use std::path::PathBuf;

/// Sprague–Grundy values and P-positions of impartial games, as tables.
#[derive(Debug, Parser)]
#[command(name = "nimsieve", version, after_help = EXAMPLES)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// The misère quotient of a game's heaps below N (Plambeck and Siegel): its size,
    /// presentation, P-portion, each heap's element, tameness and the period of the heaps'
    /// elements.
    ///
    /// Heaps are added one at a time, each either equal to an element already present or a new
    /// generator, and every step is proven (each position's outcome is the P-portion's say).
    /// Any one-heap game: take-and-break codes (octal:CODE, hex:CODE, +unequal, kayles,
    /// dawsons-kayles, lasker, grundys-game) and subtraction games; `+misere` may be given or
    /// not. Refused in one line when the quotient passes --max-size elements (a candidate on
    /// the way four times as many), or its proof 256 × --max-size states.
    #[command(after_help = MISERE_EXAMPLES)]
    Misere {
        /// Game spec, e.g. kayles, octal:0.137 or sub:1,3,4 (with or without +misere).
        game: String,
        /// The heaps below N: 100, 1e3, 2^10.
        #[arg(short = 'n', allow_negative_numbers = true)]
        n: String,
        /// The most elements the quotient may have (a candidate not yet proven 4 × K, the
        /// proof 256 × K states).
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
    /// options lists those among its options with the fewest objects removed); the splits of a
    /// take-and-break heap beyond the table of its period come as residue classes of the
    /// smaller heap, one a line (--max-moves K lists the moves themselves). Misère play:
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
        /// Report format.
        #[arg(long, short = 'f', value_parser = ["text", "json"], default_value = "text")]
        format: String,
        /// The same as -f json (kept for scripts that use it).
        #[arg(long, hide = true, conflicts_with = "format")]
        json: bool,
        /// fibonacci-nim: the number of objects the previous move took (default: the first
        /// move, which may not take all).
        #[arg(long, value_name = "M")]
        last: Option<String>,
        /// Read heap values from this table file (written by `grundy`, e.g. a .bin) instead of
        /// computing them; it must reach the largest heap or prove the game's period.
        #[arg(long, value_name = "FILE")]
        table: Option<PathBuf>,
        /// List at most K winning moves, one a line, the members of residue classes of splits
        /// included, and say how many more there are (text only; the JSON gives the classes).
        #[arg(long, value_name = "K")]
        max_moves: Option<String>,
        /// No progress bar.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Statistics of a table nimsieve wrote (csv, b-file .txt, npy, bin, u64), as the JSON
    /// summary, without recomputing the game.
    #[command(after_help = STATS_EXAMPLES)]
    Stats {
        /// The table file.
        file: PathBuf,
        /// The file holds P-positions (b-files and npy; default: when its name ends in -ppos).
        #[arg(long)]
        ppos: bool,
        /// The game, when neither the file nor a JSON summary beside it names it (needed for
        /// the period of a finite subtraction set).
        #[arg(long)]
        game: Option<String>,
        /// Modulus of the P-position counts by residue, 1 to 65536 (2^16) [default: 5].
        #[arg(long = "mod")]
        modulus: Option<String>,
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
        file: PathBuf,
        /// values (g(n) against n), counting (P-positions below x, log-log, with a fitted
        /// power law where one means something) or density (share of each value below x).
        #[arg(long)]
        kind: String,
        /// The lines of --kind density: values V, ranges A..B and open ranges A.., separated
        /// by commas, at most 9 (e.g. 0,1,2,5..9,10..); the values not listed share a line
        /// "other". Default: 0 to 8, one line each.
        #[arg(long, value_name = "LIST")]
        values: Option<String>,
        /// The law --kind counting draws beside C(x): auto (the one the data supports: a
        /// density or a power law, whichever fits; the other is named with its error), power,
        /// density or none.
        #[arg(long, value_parser = one_of::<nimsieve::plot::FitChoice>(), ignore_case = true)]
        fit: Option<nimsieve::plot::FitChoice>,
        /// The picture: .png or .svg. Default: <file stem>-<kind>.png beside the table.
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
        /// The file holds P-positions (b-files and npy; default: when its name ends in -ppos).
        #[arg(long)]
        ppos: bool,
        /// No "wrote …" line.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Compare two tables entry by entry, whatever their formats (csv, b-file .txt, npy, bin,
    /// u64): equal (exit 0), or how many entries differ and the first (exit code 3). A table
    /// of values and a list of P-positions compare by the P-positions.
    #[command(after_help = COMPARE_EXAMPLES)]
    Compare {
        /// The first table.
        a: PathBuf,
        /// The second table.
        b: PathBuf,
        /// Read b-files and npy files as P-positions (default: when a name ends in -ppos).
        #[arg(long)]
        ppos: bool,
    },
    /// Write a table nimsieve wrote (csv, b-file .txt, npy, bin, u64) in other formats without
    /// recomputing it; each table written is read back and compared with the source.
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert {
        /// The table file.
        file: PathBuf,
        /// The formats to write; repeat or separate with commas for several.
        #[arg(
            long = "format",
            short = 'f',
            value_parser = one_of::<Format>(),
            ignore_case = true,
            value_delimiter = ',',
            required = true
        )]
        formats: Vec<Format>,
        /// Output file (one format), FOLDER/ (each format in it), or - for standard output.
        /// Default: beside FILE, with its name and each format's extension.
        #[arg(short = 'o', long)]
        output: Option<String>,
        /// CSV and xlsx: K values a row (a header n,+0,+1,…).
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
        wide: Option<u32>,
        /// The file holds P-positions (b-files and npy; default: when its name ends in -ppos).
        #[arg(long)]
        ppos: bool,
        /// The game, when neither the file nor a JSON summary beside it names it.
        #[arg(long)]
        game: Option<String>,
        /// No list of written files.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Check every entry of a table nimsieve wrote against the game's definition (exit code 3
    /// when an entry is wrong).
    #[command(after_help = VERIFY_EXAMPLES)]
    Verify {
        /// The table file (csv, b-file .txt, npy, bin, u64): values, misère outcomes or
        /// P-positions.
        file: PathBuf,
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
pub(super) struct SweepArgs {
    /// The family: subK:M (every K-element subtraction set with largest element <= M, e.g.
    /// sub3:40) or NAME:A..B (e.g. powers:2..6), optionally followed by +leave1, +misere.
    pub(super) family: String,
    /// Positions per game: the cap of finite subtraction sets, which stop at their proven
    /// period (default 2^20); required for other games.
    #[arg(short = 'n', allow_negative_numbers = true)]
    pub(super) n: Option<String>,
    /// Output format; repeat or separate with commas for both.
    #[arg(
        long = "format",
        short = 'f',
        value_parser = one_of::<RowFormat>(),
        ignore_case = true,
        value_delimiter = ',',
        default_value = "csv,json"
    )]
    pub(super) formats: Vec<RowFormat>,
    #[command(flatten)]
    pub(super) out: OutputArgs,
    /// Run only the I-th of K contiguous parts of the family (1 <= I <= K).
    #[arg(long, value_name = "I/K")]
    pub(super) shard: Option<String>,
}

#[derive(Debug, Args)]
pub(super) struct TableArgs {
    /// Game spec, e.g. squares, sub:1,3,4, primes+leave1, bachet:3+misere (see `nimsieve games`).
    pub(super) game: String,
    /// Number of positions: 1000000, 1_000_000, 1e6, 2.5e6, 2^20 or 2^20+1.
    #[arg(short = 'n', allow_negative_numbers = true)]
    pub(super) n: String,
    /// Output format; repeat or separate with commas for several.
    #[arg(
        long = "format",
        short = 'f',
        value_parser = one_of::<Format>(),
        ignore_case = true,
        value_delimiter = ',',
        default_value = "csv"
    )]
    pub(super) formats: Vec<Format>,
    #[command(flatten)]
    pub(super) out: OutputArgs,
    /// Force an engine instead of the automatic choice, e.g. reference to cross-check a table
    /// (each engine takes the games listed with it; another is a one-line error).
    #[arg(long, value_parser = one_of::<EngineKind>(), ignore_case = true)]
    pub(super) engine: Option<EngineKind>,
    /// Continue an interrupted run of the same game and N from its last checkpoint.
    #[arg(long)]
    pub(super) resume: bool,
    /// Seconds between checkpoints of a run in a work file (default 60; 0 saves at every
    /// point where the engine can stop).
    #[arg(long, value_name = "SECONDS")]
    pub(super) checkpoint_every: Option<u64>,
    /// grundy with only json and freq: the positions a take-and-break run keeps whole, past
    /// which it keeps only a window of its table (memory bounded by it, not by N)
    /// [default: 2^26].
    #[arg(long, value_name = "SIZE")]
    pub(super) window: Option<String>,
    /// grundy with freq, a run that keeps no table: also write the freq file of the run to
    /// 2^k + 1 (named as it names it) as the run passes each 2^k + 1 from the window's start.
    #[arg(long)]
    pub(super) freq_each_power: bool,
    /// grundy: stop as soon as the period of a finite subtraction set is proven.
    #[arg(long)]
    pub(super) until_period: bool,
    /// Modulus of the JSON's P-position counts by residue, 1 to 65536 (2^16) [default: 5].
    #[arg(long = "mod")]
    pub(super) modulus: Option<String>,
    /// CSV and xlsx: K values a row (a header n,+0,+1,…), like the tables of textbooks.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) wide: Option<u32>,
}

/// A clap parser for the name of one of `T`'s options, each listed with its help.
pub(super) fn one_of<T: Choice + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let names = T::ALL
        .iter()
        .map(|c| PossibleValue::new(c.name()).help(c.help()));
    PossibleValuesParser::new(names)
        .map(|name| T::from_name(&name).expect("clap accepts only listed names"))
}

/// The options of every command that writes files of a run: where they go, the worker
/// threads, and how quiet the run is.
#[derive(Debug, Args)]
pub(super) struct OutputArgs {
    /// Output file (one format), FOLDER/ (each format in it), or - for standard output.
    /// Default: output/, named after the game and N (a sweep: sweep-<family>[-partIofK]).
    #[arg(short = 'o', long)]
    pub(super) output: Option<String>,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long)]
    pub(super) threads: Option<usize>,
    /// No progress bar and no list of written files.
    #[arg(long, short = 'q')]
    pub(super) quiet: bool,
}
