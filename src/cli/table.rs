//! `grundy` and `ppos`: a one-heap game's table, computed by a run and written in each format.

use super::args::TableArgs;
use super::configure_threads;
use super::output::{say, write_each};
use super::wythoff::{names_wythoff, wythoff};
use nimsieve::engine::resumable::CHECKPOINT_EVERY;
use nimsieve::eval;
use nimsieve::format::{self, Report};
use nimsieve::game::Game;
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::run::{self, Listing, Request, Run};
use nimsieve::{Error, Result};
use std::path::Path;
use std::time::Duration;

/// The options only `ppos` has.
#[derive(Debug, Clone, Copy)]
pub(super) struct PposOptions {
    pub(super) offset: u64,
}

/// `grundy` (no `ppos` options) and `ppos`.
pub(super) fn tabulate(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
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
    configure_threads(args.out.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    // Output files and the sieve's work file go to the folder of -o PATH, or output/.
    let folder = args.out.folder()?;
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
    let destinations = args.out.destinations(&formats, &folder, &request.stem())?;
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
    let progress = Progress::new(n, args.out.quiet);
    let report = run.report(&progress)?;
    progress.finish();
    if !args.out.quiet {
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
            args.out.destinations(&formats, &folder, &stem)?
        }
        false => destinations,
    };
    // A format that fails (an xlsx table found too long only now) does not stop the others.
    write_each(&destinations, args.out.quiet, |format, destination| {
        format::write_to(format, &report, &options, destination)
    })?;
    run.finish();
    drop(report);
    Ok(())
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
