//! Wythoff's game end to end, for every front end: the Grundy table (in memory, or from
//! [`FILE_BACKED_FROM`] cells in a locked work file beside the outputs, removed once they are
//! written) with its report, and the P-pairs; [`write`] ends either in files as
//! [`super::write()`] does for one-heap games, through the same [`write_each`].

use super::{FILE_BACKED_FROM, Outputs, Written, write_destination, write_each};
use crate::choice::Choice;
use crate::engine::EngineKind;
use crate::engine::resumable::remove_work_files;
use crate::engine::wythoff::{MAX_SIDE, table};
use crate::error::{Error, Result};
use crate::format::Format;
use crate::format::wythoff::{
    ENGINE, GAME, Grid, check_formats, check_room, pair_bytes, table_bytes, write_pairs,
    write_table,
};
use crate::game::wythoff::LARGEST_PAIRS_BOUND;
use crate::progress::Progress;
use crate::report::RunInfo;
use crate::report::wythoff::{WythoffPairs, WythoffTable};
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The name outputs and the work file share: `wythoff-<n>`, and `-ppos` for the pairs.
pub fn stem(n: u64, pairs: bool) -> String {
    format!("{GAME}-{n}{}", if pairs { "-ppos" } else { "" })
}

/// Refuses, for Wythoff's game, the options of one-heap runs every front end has: a forced
/// `engine`, `until_period`, and a `modulus` other than the default 5, each with one line
/// saying why.
pub fn refuse_one_heap_options(
    engine: Option<EngineKind>,
    until_period: bool,
    modulus: &str,
) -> Result<()> {
    let unfit = |what: String| Err(Error::Input(format!("{what}; leave it out")));
    if until_period {
        return unfit(
            "--until-period stops one-heap tables; grundy wythoff proves the rows' periods in its JSON summary instead".into(),
        );
    }
    if let Some(engine) = engine {
        return unfit(format!(
            "--engine {} is an engine of one-heap games; Wythoff's game has its own",
            engine.name()
        ));
    }
    if modulus.trim() != "5" {
        return unfit(
            "--mod sets the residues of one-heap P-position counts; the summaries of Wythoff's game have none".into(),
        );
    }
    Ok(())
}

/// A table run that holds its work file's lock, if it has one.
#[derive(Debug)]
pub struct TableRun {
    n: u64,
    work_file: Option<WorkFile>,
}

impl TableRun {
    /// Checks the side `n` (1 to 2^31) and takes the lock of the work file in `work_folder`
    /// when the table has [`FILE_BACKED_FROM`] cells or more.
    pub fn start(n: u64, work_folder: Option<&Path>) -> Result<TableRun> {
        if n == 0 {
            return Err(crate::number::no_positions());
        }
        if n > MAX_SIDE {
            return Err(Error::Input(format!(
                "-n {n}: a table of Wythoff's game has at most 2^31 rows (its values stay below 2^32), and one that large would not fit on any disk; give a smaller -n"
            )));
        }
        let work_file = match work_folder {
            Some(folder) if n * n >= FILE_BACKED_FROM => Some(WorkFile::acquire(
                &folder.join(format!("{}.values", stem(n, false))),
            )?),
            _ => None,
        };
        Ok(TableRun { n, work_file })
    }

    /// The folder and size of the work file, when the table lives in one.
    pub fn work_file(&self) -> Option<(PathBuf, u128)> {
        let file = self.work_file.as_ref()?;
        let folder = (file.path().parent())
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Some((
            folder,
            u128::from(PackedValues::words_for(self.n * self.n, self.bits())) * 8,
        ))
    }

    /// Bits a value of the table takes: the fewest that hold 2n − 2 (G(x, y) ≤ x + y).
    pub fn bits(&self) -> u32 {
        PackedValues::bits_for((2 * self.n - 2) as u32)
    }

    /// Computes the table and its report; `progress` counts the n(n + 1)/2 cells computed.
    pub fn report(&self, progress: &Progress) -> Result<WythoffTable> {
        let started = Instant::now();
        progress.set_total(self.n * (self.n + 1) / 2);
        let values = table(self.n, self.work_file.as_ref(), progress)?;
        let info = RunInfo {
            game: GAME.into(),
            n: self.n,
            kind: ValueKind::Grundy,
            engine: ENGINE,
            threads: rayon::current_num_threads(),
            elapsed_s: started.elapsed().as_secs_f64(),
        };
        let table = Table {
            kind: ValueKind::Grundy,
            values,
            period: None,
        };
        Ok(WythoffTable::new(table, info))
    }

    /// Ends a run whose outputs are written: removes its work file while the lock is held.
    pub fn finish(self) {
        if let Some(work_file) = &self.work_file {
            remove_work_files(work_file.path());
        }
    }
}

/// The report `stats` gives of a table of Wythoff's game read from a file, begun at `started`.
pub fn report_of_grid(grid: Grid, started: Instant) -> WythoffTable {
    let info = RunInfo {
        game: GAME.into(),
        n: grid.n,
        kind: ValueKind::Grundy,
        engine: "stats",
        threads: rayon::current_num_threads(),
        elapsed_s: started.elapsed().as_secs_f64(),
    };
    let table = Table {
        kind: ValueKind::Grundy,
        values: grid.values,
        period: None,
    };
    WythoffTable::new(table, info)
}

/// Computes the table of side `n` (or lists the P-pairs with a_k < `n`, `pairs`) and writes
/// it to `outputs`: the formats and destinations checked, the room on disk for the outputs
/// (and the work file) checked before the run, each format written atomically (a failing one
/// does not stop the others; the first failure is returned), `wrote` told of each file, and
/// the work file removed. `progress` counts the table's cells, or the pairs as each format is
/// written.
pub fn write(
    n: u64,
    pairs: bool,
    outputs: &Outputs,
    progress: &Progress,
    wrote: impl FnMut(&Path),
) -> Result<Written> {
    check_formats(&outputs.formats, pairs)?;
    let mut destinations = outputs.destinations(&stem(n, pairs))?;
    if pairs {
        let mut report = self::pairs(n)?;
        check_room(&destinations, |f| pair_bytes(f, n), None)?;
        // The pairs are made as they are written; the summary, last, gives the time taken.
        destinations.sort_by_key(|(f, _)| *f == Format::Json);
        progress.set_total(report.count);
        let started = Instant::now();
        let written = write_each(
            &destinations,
            |format, destination| {
                report.info.elapsed_s = started.elapsed().as_secs_f64();
                progress.set(0);
                write_destination(destination, |out| {
                    write_pairs(format, &report, out, progress)
                })
            },
            wrote,
        );
        progress.finish();
        return written;
    }
    let run = TableRun::start(n, Some(&outputs.folder))?;
    let work = run.work_file();
    let work = work
        .as_ref()
        .map(|(folder, bytes)| (folder.as_path(), *bytes));
    check_room(&destinations, |f| table_bytes(f, n, run.bits()), work)?;
    let report = match run.report(progress) {
        Ok(report) => report,
        Err(e) => {
            run.finish();
            return Err(e);
        }
    };
    progress.finish();
    let written = write_each(
        &destinations,
        |format, destination| {
            write_destination(destination, |out| write_table(format, &report, out))
        },
        wrote,
    );
    drop(report);
    run.finish();
    written
}

/// The P-pairs with a_k < n (1 ≤ n ≤ [`LARGEST_PAIRS_BOUND`], where every b_k fits in
/// u64), listed as they are written, on one thread.
pub fn pairs(n: u64) -> Result<WythoffPairs> {
    if n == 0 {
        return Err(crate::number::no_positions());
    }
    if n > LARGEST_PAIRS_BOUND {
        return Err(Error::Input(format!(
            "-n {n}: the pairs from a_k = {LARGEST_PAIRS_BOUND} on have b_k past 2^64 - 1, which the files do not hold; give -n at most {LARGEST_PAIRS_BOUND}"
        )));
    }
    Ok(WythoffPairs::new(RunInfo {
        game: GAME.into(),
        n,
        kind: ValueKind::Grundy,
        engine: ENGINE,
        threads: 1,
        elapsed_s: 0.0,
    }))
}
