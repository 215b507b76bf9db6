//! `grundy wythoff` and `ppos wythoff`: Wythoff's two-heap game, its table of values or its
//! P-pairs.

use super::args::TableArgs;
use super::configure_threads;
use super::output::write_each;
use super::table::PposOptions;
use nimsieve::choice::Choice;
use nimsieve::format::Format;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::{Error, Result};
use std::time::Instant;

/// True for a spec of Wythoff's game (`wythoff`, or with arguments or modifiers, which
/// [`wythoff`] refuses).
pub(super) fn names_wythoff(spec: &str) -> bool {
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
pub(super) fn wythoff(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    use nimsieve::format::wythoff as files;
    use nimsieve::run::wythoff::{TableRun, pairs, stem};
    refuse_one_heap_options(args, ppos)?;
    let n = parse_u64(&args.n)?;
    configure_threads(args.out.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    files::check_formats(&formats, ppos.is_some())?;
    let folder = args.out.folder()?;
    let mut destinations = args
        .out
        .destinations(&formats, &folder, &stem(n, ppos.is_some()))?;
    if ppos.is_some() {
        let mut report = pairs(n)?;
        files::check_room(&destinations, |f| files::pair_bytes(f, n), None)?;
        // The pairs are made as they are written; the summary, last, gives the time taken.
        destinations.sort_by_key(|(f, _)| *f == Format::Json);
        let started = Instant::now();
        return write_each(&destinations, args.out.quiet, |format, destination| {
            report.info.elapsed_s = started.elapsed().as_secs_f64();
            let progress = Progress::counting(report.count, "pairs", args.out.quiet);
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
    let progress = Progress::counting(n * (n + 1) / 2, "cells", args.out.quiet);
    let report = run.report(&progress)?;
    progress.finish();
    write_each(&destinations, args.out.quiet, |format, destination| {
        files::write_table(format, &report, destination)
    })?;
    run.finish();
    drop(report);
    Ok(())
}
