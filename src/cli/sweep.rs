//! `sweep` and `sweep-merge`: one summary row a game over a family, and the parts of a sharded
//! sweep joined.

use super::args::SweepArgs;
use super::configure_threads;
use super::output::{say, wrote};
use nimsieve::Result;
use nimsieve::format::{self, Destination};
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::sweep::{self as family_sweep, Family, RowFormat, Shard};
use std::path::{Path, PathBuf};

/// `sweep`: the rows of a family (or one shard of it), in family order.
pub(super) fn sweep(args: &SweepArgs) -> Result<()> {
    let family = Family::parse(&args.family)?;
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let range = shard.unwrap_or(Shard::WHOLE).range(family.count())?;
    let n = args.n.as_deref().map(parse_u64).transpose()?;
    let n = family_sweep::positions(&family, n)?;
    configure_threads(args.out.threads)?;
    let mut formats = args.formats.clone();
    formats.dedup();
    let stem = family_sweep::stem(&family, shard);
    let folder = args.out.folder();
    let destinations = args.out.destinations(&formats, &folder, &stem)?;

    let progress = Progress::counting(range.end - range.start, "games", args.out.quiet);
    let rows = family_sweep::run(&family, range, n, &progress)?;
    progress.finish();
    let quiet = args.out.quiet;
    nimsieve::run::write_each(
        &destinations,
        |format, destination| {
            format::write_with(destination, |out| format.write(&rows, out)).map(|()| None)
        },
        |path| {
            if !quiet {
                wrote(path)
            }
        },
    )?;
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
        if !args.out.quiet {
            wrote(&manifest);
        }
    }
    let unproven = rows.iter().filter(|r| r.period.is_none()).count();
    if unproven > 0 && family_sweep::stops_at_period(&family)? && !args.out.quiet {
        say(&format!(
            "{unproven} of {} games have no period proven below n = {n}; raise -n to search further",
            rows.len()
        ));
    }
    Ok(())
}

/// `sweep-merge`: the merged files of the parts in `folder`.
pub(super) fn sweep_merge(folder: &Path, quiet: bool) -> Result<()> {
    for path in family_sweep::merge(folder)? {
        if !quiet {
            wrote(&path);
        }
    }
    Ok(())
}
