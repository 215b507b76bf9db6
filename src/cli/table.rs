//! `grundy` and `ppos`: a game's table (of one heap or two), computed by a run and written in
//! each format.

use super::args::TableArgs;
use super::configure_threads;
use super::output::{say, wrote};
use nimsieve::Result;
use nimsieve::choice::Choice;
use nimsieve::format::{self, Format};
use nimsieve::game::Game;
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::report::Report;
use nimsieve::run::{self, Listing, Outputs, Request};
use std::time::Duration;

/// The options only `ppos` has.
#[derive(Debug, Clone, Copy)]
pub(super) struct PposOptions {
    pub(super) offset: u64,
}

/// The rows a spreadsheet shows at most.
const SPREADSHEET_ROWS: u64 = 1 << 20;

/// Says, when the CSV (`wide` values a row) or b-file among `formats` has more rows than a
/// spreadsheet shows, how to lay `report` out so that it fits.
pub(super) fn warn_of_spreadsheet_rows(report: &Report, formats: &[Format], wide: Option<u32>) {
    // Rows a number of the CSV or b-file asked for: K of --wide K in a CSV, one in a b-file.
    let per_row = match (formats.contains(&Format::Bfile), wide) {
        (true, _) => 1,
        (false, wide) if formats.contains(&Format::Csv) => wide.map_or(1, u64::from),
        _ => return,
    };
    let numbers = match report {
        Report::Grundy(r) => r.info.n,
        Report::Ppos(r) => r.positions.len() as u64,
        Report::Square(r) => r.info.n,
        Report::Pairs(r) => r.count,
    };
    let rows = numbers.div_ceil(per_row);
    if rows > SPREADSHEET_ROWS {
        say(&format!(
            "the table has {rows} rows, more than the {SPREADSHEET_ROWS} a spreadsheet shows: a CSV with --wide K puts K values a row, and xlsx splits a table over sheets"
        ));
    }
}

/// `grundy` (no `ppos` options) and `ppos`.
pub(super) fn tabulate(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    let game = Game::parse(&args.game)?;
    let two_heaps = game.heaps() == 2;
    let n = parse_u64(&args.n)?;
    let modulus = args.modulus.as_deref().map(parse_u64).transpose()?;
    configure_threads(args.out.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    // Output files and the sieve's work file go to the folder of -o PATH, or output/.
    let folder = args.out.folder();
    let summaries = ppos.is_none() && !formats.iter().any(|f| f.holds_table());
    let window = run::window_of(
        args.window.as_deref(),
        summaries,
        "grundy runs that write only json and freq",
    )?;
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
        checkpoint_every: args.checkpoint_every.map(Duration::from_secs),
        command: super::command_line(),
        window,
        freq_each_power: args.freq_each_power,
        ..Request::grundy(game, n)
    };
    if let Some(given) = &args.window {
        request.check_window_given(given)?;
    }
    let engine = request.engine_kind();
    if args.resume && !engine.resumes() && !two_heaps && !args.out.quiet {
        say(&format!(
            "the {} engine keeps no checkpoint: --resume has nothing to continue, and an interrupted run starts over",
            engine.name()
        ));
    }
    let outputs = Outputs {
        formats,
        output: args.out.destination(),
        layout: format::Layout::beside(&folder, args.wide.map(|k| k as usize)),
        folder,
        keep_work_on_failure: true,
    };
    // An interrupt keeps a checkpointed work file, for --resume.
    interrupt::keep_checkpointed();
    let quiet = args.out.quiet;
    let said = |report: &Report| {
        if quiet {
            return;
        }
        warn_of_spreadsheet_rows(report, &outputs.formats, args.wide);
        if report.n() < n {
            say(&format!("period proven; stopped at n = {}", report.n()));
        } else if let (Report::Grundy(r), true) = (report, args.until_period)
            && r.period.is_none()
        {
            say(&format!(
                "no period proven below n = {n}; raise -n to search further"
            ));
        }
    };
    let progress = match (two_heaps, ppos) {
        (false, _) => Progress::new(n, quiet),
        (true, Some(_)) => Progress::counting(0, "pairs", quiet),
        (true, None) => Progress::counting(0, "cells", quiet),
    };
    run::write(request, &outputs, &progress, said, |path| {
        if !quiet {
            wrote(path)
        }
    })
    .map(drop)
}
