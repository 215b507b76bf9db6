//! One table of one game, of one heap or two: the engine choice, where the table lives (in
//! memory, or in a locked work file beside the outputs that a long run checkpoints), the run
//! itself, and the report the formats write. The command line, `sweep` and other front ends
//! call this module; they only parse their input and print. `two_heaps.rs`: what a game of
//! two heaps checks besides.

mod two_heaps;
mod window;
mod write;

pub use crate::format::Output;
pub use window::{DEFAULT_WINDOW, MIN_WINDOW, window_of};
pub use write::{Outputs, Written, write, write_destination, write_each, write_report};

use crate::analysis::counting::MAX_MODULUS;
use crate::analysis::summary::ValueStream;
use crate::choice::Choice;
use crate::engine::resumable::{self, CHECKPOINT_EVERY, Storage};
use crate::engine::{self, EngineKind};
use crate::error::{Error, Param, Result};
use crate::format::{Contents, Loaded};
use crate::game::Game;
use crate::progress::Progress;
use crate::provenance::Provenance;
use crate::report::{GrundyReport, Kind, PairsReport, PposReport, Report, RunInfo, SquareReport};
use crate::table::passes;
use crate::table::work_file::WorkFile;
use crate::table::{Shape, Table, ValueKind};
use crate::text;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Positions from which a run with a work folder keeps its table in a memory-mapped work file
/// (removed once the outputs are written); smaller runs stay in memory unless they resume.
pub const FILE_BACKED_FROM: u64 = 1 << 27;

/// The most worker threads a run starts: more than the cores of large servers, while each
/// thread reserves its own stack, and threads beyond the cores only slow a run.
pub const MAX_THREADS: usize = 1024;

/// The modulus of the P-position counts by residue when a request gives none.
pub const DEFAULT_MODULUS: u64 = 5;

/// Refuses a worker thread count of 0 or more than [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<()> {
    if threads == 0 {
        return Err(Error::invalid(
            Param::Threads,
            text!(Param::Threads, " must be at least 1"),
        ));
    }
    if threads > MAX_THREADS {
        return Err(Error::invalid(
            Param::Threads,
            text!(
                Param::Threads.given(threads),
                format!(
                    " is more than {MAX_THREADS}; give at most {MAX_THREADS} (or leave it out to use every core)"
                )
            ),
        ));
    }
    Ok(())
}

/// The modulus of the P-position counts: `modulus` (from 1 to [`MAX_MODULUS`]), or
/// [`DEFAULT_MODULUS`] when none is given.
pub fn modulus_or_default(modulus: Option<u64>) -> Result<u64> {
    match modulus {
        None => Ok(DEFAULT_MODULUS),
        Some(0) => Err(Error::invalid(
            Param::Modulus,
            text!(Param::Modulus, " must be at least 1"),
        )),
        Some(m) if m > MAX_MODULUS => Err(Error::invalid(
            Param::Modulus,
            text!(
                Param::Modulus.given(m),
                format!(
                    " is more than {MAX_MODULUS} (2^16): the summary lists one count a residue; give at most {MAX_MODULUS}"
                )
            ),
        )),
        Some(m) => Ok(m),
    }
}

/// What a run lists: every value, or the P-positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// g(x) for every position (misère outcomes under `+misere`).
    Grundy,
    /// The P-positions, indexed from `offset` in the formats that number them.
    Ppos {
        /// Index of the first P-position.
        offset: u64,
    },
}

/// Everything a run needs to know besides its progress bar.
#[derive(Debug, Clone)]
pub struct Request {
    /// The game.
    pub game: Game,
    /// Positions 0..n.
    pub n: u64,
    /// Values or P-positions.
    pub listing: Listing,
    /// A forced engine; None chooses one ([`engine::choose`], [`engine::choose_ppos`]).
    pub engine: Option<EngineKind>,
    /// Stop at the shortest table that proves the game's period (refused for engines that
    /// prove none, and for P-position lists).
    pub until_period: bool,
    /// Modulus of the P-position counts by residue; None for [`DEFAULT_MODULUS`].
    pub modulus: Option<u64>,
    /// The folder for the work file of a large or resumable run; None keeps every table in
    /// memory.
    pub work_folder: Option<PathBuf>,
    /// Continue from the work file's checkpoint.
    pub resume: bool,
    /// The least time between two checkpoints; None for [`CHECKPOINT_EVERY`].
    pub checkpoint_every: Option<Duration>,
    /// The command line or call that asked for the run, as the files' provenance records it
    /// (`unknown` unless a front end says).
    pub command: String,
    /// For a run whose outputs need no table (a summary, frequencies): the positions kept whole
    /// before only a window of the table is kept, when the rare-values engine computes it
    /// ([`Request::windowed`]); None keeps the whole table.
    pub window: Option<u64>,
    /// A run that keeps no table also writes, as it counts each 2^k + 1 positions from the
    /// window's start on, the frequency file of the run to 2^k + 1 ([`write`]).
    pub freq_each_power: bool,
}

impl Request {
    /// The values of `game` below `n`, in memory, with the automatic engine.
    pub fn grundy(game: Game, n: u64) -> Request {
        Request {
            game,
            n,
            listing: Listing::Grundy,
            engine: None,
            until_period: false,
            modulus: None,
            work_folder: None,
            resume: false,
            checkpoint_every: None,
            command: "unknown".to_string(),
            window: None,
            freq_each_power: false,
        }
    }

    /// Where the run keeps only a window of its table ([`Request::window`]): values of a
    /// take-and-break game on the rare-values engine past the window's start, not ended at a
    /// period.
    pub fn windowed(&self) -> Option<u64> {
        self.window.filter(|&from| {
            self.n > from
                && self.kind() == Kind::Values
                && self.engine_kind() == EngineKind::RareValues
                && !self.until_period
        })
    }

    /// What the run's report holds: values or P-positions, of one heap or two.
    pub fn kind(&self) -> Kind {
        match (self.listing, self.game.heaps()) {
            (Listing::Grundy, 1) => Kind::Values,
            (Listing::Ppos { .. }, 1) => Kind::Positions,
            (Listing::Grundy, _) => Kind::Square,
            (Listing::Ppos { .. }, _) => Kind::Pairs,
        }
    }

    /// Refuses a request that cannot run: no positions, a modulus out of range, the
    /// parameters of one-heap runs for a game of two heaps, `until_period` where nothing
    /// proves a period.
    pub fn check(&self) -> Result<()> {
        if self.n == 0 {
            return Err(crate::number::no_positions());
        }
        modulus_or_default(self.modulus)?;
        if self.game.heaps() == 2 {
            two_heaps::check(self)?;
        }
        if self.until_period {
            check_until_period(self, self.engine_kind())?;
        }
        Ok(())
    }

    /// The positions the table holds: n of one heap, n² of two.
    fn cells(&self) -> u64 {
        match self.game.heaps() {
            1 => self.n,
            _ => self.n.saturating_mul(self.n),
        }
    }

    /// The name outputs and work files share: `<game>-<n>` and `-ppos` for P-position lists.
    pub fn stem(&self) -> String {
        let suffix = match self.listing {
            Listing::Grundy => "",
            Listing::Ppos { .. } => "-ppos",
        };
        format!("{}-{}{suffix}", self.game.file_stem(), self.n)
    }

    /// The engine the run uses: the one asked for, else the automatic choice for the listing.
    pub fn engine_kind(&self) -> EngineKind {
        match (self.engine, self.listing) {
            (Some(forced), _) => forced,
            (None, Listing::Grundy) => engine::choose(&self.game, self.n),
            (None, Listing::Ppos { .. }) => engine::choose_ppos(&self.game, self.n),
        }
    }
}

/// A run that has chosen its engine and holds its work file's lock, if it has one.
#[derive(Debug)]
pub struct Run {
    request: Request,
    engine: EngineKind,
    work_file: Option<WorkFile>,
}

impl Run {
    /// Checks the request, chooses the engine and takes the work file's lock (refusing when
    /// another run holds it).
    pub fn start(request: Request) -> Result<Run> {
        request.check()?;
        let engine = request.engine_kind();
        // The P-pairs are made as they are written, with no table.
        let file_backed = (request.resume || request.cells() >= FILE_BACKED_FROM)
            && request.kind() != Kind::Pairs;
        let work = match (&request.work_folder, file_backed) {
            (Some(folder), true) => {
                // A run that keeps no table locks this name, and saves its window beside it.
                let ext = match engine {
                    _ if request.windowed().is_some() => "window",
                    EngineKind::Psieve => "bits",
                    _ => "values",
                };
                Some(folder.join(format!("{}.{ext}", request.stem())))
            }
            (None, true) if request.resume => {
                return Err(Error::Input(
                    "resuming needs a work folder to find the checkpoint in".into(),
                ));
            }
            _ => None,
        };
        let work_file = work.as_deref().map(WorkFile::acquire).transpose()?;
        Ok(Run {
            request,
            engine,
            work_file,
        })
    }

    /// What the run computes.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The engine the run uses.
    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    /// The work file, when the table lives in one.
    pub fn work_file(&self) -> Option<&Path> {
        self.work_file.as_ref().map(WorkFile::path)
    }

    fn storage(&self) -> Storage<'_> {
        Storage {
            work_file: self.work_file.as_ref(),
            resume: self.request.resume,
            checkpoint_every: self.request.checkpoint_every.unwrap_or(CHECKPOINT_EVERY),
        }
    }

    /// The values of the game (its misère outcomes under `+misere`).
    pub fn table(&self, progress: &Progress) -> Result<Table> {
        let r = &self.request;
        on_pool(|| {
            self.engine
                .grundy(&r.game, r.n, r.until_period, self.storage(), progress)
        })
    }

    /// Computes the table and its summary: the report every format writes. Under
    /// [`Listing::Ppos`] the psieve engine lists P-positions without a table of values, and
    /// the P-pairs of two heaps are made as they are written (counted on `progress`). A run
    /// that keeps no table tells `passed` of each power of two 2^k from the window's start on
    /// as it counts heap 2^k, with the counts of each value among the heaps up to each power
    /// of two so far (the blocks of the frequency file of the run to 2^k + 1).
    pub fn report(&self, progress: &Progress, passed: Option<Passed>) -> Result<Report> {
        let r = &self.request;
        let started = Instant::now();
        let made = |threads| Some(Provenance::now(&r.command, self.engine.name(), threads));
        let info = |n: u64| RunInfo {
            game: r.game.spec.clone(),
            n,
            kind: ValueKind::of(r.game.play),
            engine: self.engine.name(),
            threads: rayon::current_num_threads(),
            elapsed_s: started.elapsed().as_secs_f64(),
            made: made(rayon::current_num_threads()),
        };
        Ok(match r.listing {
            // The pairs are listed on one thread.
            _ if r.kind() == Kind::Pairs => {
                let info = RunInfo {
                    threads: 1,
                    made: made(1),
                    ..info(r.n)
                };
                Report::Pairs(PairsReport::new(info, progress.clone()))
            }
            _ if r.kind() == Kind::Square => {
                let table = self.table(progress)?;
                Report::Square(SquareReport::new(table, info(r.n)))
            }
            Listing::Ppos { offset } => {
                let (positions, covered) = if self.engine == EngineKind::Psieve {
                    let positions =
                        on_pool(|| engine::psieve::sieve(&r.game, r.n, self.storage(), progress))?;
                    (positions, r.n)
                } else {
                    let table = self.table(progress)?;
                    (table.p_positions(), table.len())
                };
                Report::Ppos(PposReport::new(
                    positions,
                    info(covered),
                    offset,
                    modulus_or_default(r.modulus)?,
                ))
            }
            Listing::Grundy if let Some(from) = r.windowed() => {
                let modulus = modulus_or_default(r.modulus)?;
                let mut stream = Stream {
                    values: ValueStream::new(modulus),
                    modulus,
                    passed: passed.map(|passed| (from, passed)),
                    failed: None,
                };
                let saving = engine::rare_values::Saving {
                    work: self.work_file(),
                    resume: r.resume,
                    every: r.checkpoint_every.unwrap_or(CHECKPOINT_EVERY),
                };
                let period = on_pool(|| {
                    engine::rare_values::in_window(
                        &r.game,
                        r.n,
                        from,
                        saving,
                        &mut stream,
                        progress,
                    )
                })?;
                if let Some(e) = stream.failed {
                    return Err(e);
                }
                Report::Grundy(GrundyReport::of_stream(info(r.n), stream.values, period))
            }
            Listing::Grundy => {
                let table = self.table(progress)?;
                let info = info(table.len());
                let stopped_at_period = table.len() < r.n;
                let report = GrundyReport::new(
                    table,
                    info,
                    stopped_at_period,
                    modulus_or_default(r.modulus)?,
                );
                Report::Grundy(report.of_game(&r.game))
            }
        })
    }

    /// Ends a run whose outputs are written: removes its work file and checkpoint while the
    /// lock is still held, so no other run can take the files over in between.
    pub fn finish(self) {
        if let Some(work_file) = &self.work_file {
            resumable::remove_work_files(work_file.path());
        }
    }
}

impl Drop for Run {
    /// A run that ends without [`Run::finish`] (an error while computing or writing) keeps its
    /// work file only beside a checkpoint, which `--resume` continues; a work file without one
    /// holds nothing a later run can use, and goes (while the lock is still held).
    fn drop(&mut self) {
        if let Some(work_file) = &self.work_file {
            let path = work_file.path();
            if !WorkFile::checkpoint_path_for(path).exists() {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// Refuses `--until-period` where it cannot stop anything: P-position lists, and engines that
/// prove no period.
fn check_until_period(request: &Request, engine: EngineKind) -> Result<()> {
    if let Listing::Ppos { .. } = request.listing {
        return Err(Error::invalid(
            Param::UntilPeriod,
            text!(
                Param::UntilPeriod,
                " applies to grundy tables, not to P-position lists; leave it out, or run grundy with it"
            ),
        ));
    }
    if !engine.proves_periods() {
        return Err(Error::invalid(
            Param::UntilPeriod,
            text!(
                Param::UntilPeriod,
                format!(
                    ": the {} engine proves no period for {}; periods are proven for finite subtraction sets (sub:…), pim, bachet:K, powers-of-2, finite take-and-break codes (octal:…) and lasker; leave ",
                    engine.name(),
                    request.game.spec
                ),
                Param::UntilPeriod,
                " out",
            ),
        ));
    }
    Ok(())
}

/// The report of a table read from a file (`nimsieve stats`, `convert`: `by`), for `game`
/// when known (the period of a finite subtraction set is searched then), timed from `started`.
pub fn report_of_file(
    loaded: Loaded,
    game: Option<&Game>,
    modulus: u64,
    started: Instant,
    by: &'static str,
) -> Report {
    let spec = loaded.game.clone();
    let info = |n| RunInfo {
        game: game
            .map(|g| g.spec.clone())
            .or(spec.clone())
            .unwrap_or_else(|| "unknown".to_string()),
        n,
        kind: loaded.kind,
        engine: by,
        threads: rayon::current_num_threads(),
        elapsed_s: started.elapsed().as_secs_f64(),
        made: loaded.provenance.clone(),
    };
    match loaded.contents {
        Contents::Values(values) => {
            let period = game.and_then(|g| passes::proven_period(&values, &g.period_criterion()?));
            let table = Table {
                kind: loaded.kind,
                shape: Shape::Line,
                values,
                period,
            };
            let info = info(table.len());
            let report = GrundyReport::new(table, info, loaded.stopped_at_period, modulus);
            Report::Grundy(match game {
                Some(game) => report.of_game(game),
                None => report,
            })
        }
        Contents::Positions(positions) => {
            let n = loaded
                .n
                .unwrap_or_else(|| positions.last().map_or(0, |p| p + 1));
            Report::Ppos(PposReport::new(positions, info(n), 0, modulus))
        }
        Contents::Grid(grid) => {
            Report::Square(two_heaps::square_of_file(info(grid.n), grid.values))
        }
        Contents::Pairs(pairs) => {
            let info = RunInfo {
                threads: 1,
                ..info(loaded.n.unwrap_or(0))
            };
            Report::Pairs(PairsReport::of_list(info, &pairs, started))
        }
    }
}

/// Hears of each power of two 2^k a run that keeps no table counts heap 2^k of, with the
/// count of each value among the heaps up to each power of two so far ([`Run::report`]).
pub type Passed<'a> = &'a mut (dyn FnMut(u64, &[Vec<u64>]) -> Result<()> + Send);

/// The statistics a run that keeps no table gathers, by residue of `modulus`, as the engine
/// takes them: counted, saved and restored with its window.
struct Stream<'a> {
    values: ValueStream,
    modulus: u64,
    /// Told of each power of two from the first one on that it holds.
    passed: Option<(u64, Passed<'a>)>,
    /// What `passed` failed with first: the run ends with it.
    failed: Option<Error>,
}

impl engine::rare_values::Consumer for Stream<'_> {
    fn add(&mut self, values: &[u32]) {
        let known = self.values.counts_at_powers_of_two().len();
        self.values.add(values);
        let Some((from, passed)) = &mut self.passed else {
            return;
        };
        let blocks = self.values.counts_at_powers_of_two();
        for k in known..blocks.len() {
            let power = 1u64 << k;
            if power >= *from && self.failed.is_none() {
                self.failed = passed(power, &blocks[..=k]).err();
            }
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::to_value(self.values.state()).expect("a stream's state serialises")
    }

    fn restore(&mut self, state: serde_json::Value) -> std::result::Result<(), String> {
        let state = serde_json::from_value(state).map_err(|_| "is damaged (its statistics)")?;
        self.values = ValueStream::restored(state, self.modulus)
            .ok_or("counts P-positions by another modulus than this run, or is damaged; run it with the modulus it was saved with")?;
        Ok(())
    }
}

/// Runs an engine on a worker of the thread pool, which then takes part in the engine's
/// parallel steps: called from outside the pool, each step would wake the workers and put the
/// caller to sleep until they finish (Grundy's game to 2^25 on 2 threads: 385,000 context
/// switches and 34.2 s, against 144,000 and 29.8 s on a worker).
fn on_pool<T: Send>(engine: impl FnOnce() -> T + Send) -> T {
    rayon::scope(|_| engine())
}
