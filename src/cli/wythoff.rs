//! `grundy wythoff` and `ppos wythoff`: Wythoff's two-heap game, its table of values or its
//! P-pairs.

use super::args::TableArgs;
use super::configure_threads;
use super::output::wrote;
use super::table::PposOptions;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::run::{self, Output, Outputs};
use nimsieve::{Error, Result};

/// Refuses, for Wythoff's game, the options of one-heap tables, each with one line saying why.
fn refuse_one_heap_options(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    let unfit = |what: &str| Err(Error::Input(format!("{what}; leave it out")));
    if args.wide.is_some() {
        return unfit(
            "--wide lays out one-heap tables; the CSV of grundy wythoff is already a matrix, a row per x",
        );
    }
    run::wythoff::refuse_one_heap_options(args.engine, args.until_period, &args.modulus)?;
    if args.resume || args.checkpoint_every.is_some() {
        return unfit(
            "tables of Wythoff's game are not resumable (N = 2^14 takes under a minute), so --resume and --checkpoint-every do not apply",
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
/// with a_k < N), through the run that writes every table.
pub(super) fn wythoff(args: &TableArgs, ppos: Option<PposOptions>) -> Result<()> {
    refuse_one_heap_options(args, ppos)?;
    let n = parse_u64(&args.n)?;
    configure_threads(args.out.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    let outputs = Outputs {
        formats,
        output: Output::Named(args.out.output.clone()),
        folder: args.out.folder()?,
        layout: Default::default(),
        keep_work_on_failure: false,
    };
    let quiet = args.out.quiet;
    let unit = if ppos.is_some() { "pairs" } else { "cells" };
    let progress = Progress::counting(0, unit, quiet);
    run::wythoff::write(n, ppos.is_some(), &outputs, &progress, |path| {
        if !quiet {
            wrote(path)
        }
    })
    .map(drop)
}
