//! One table of one game: the engine choice, where the table lives (in memory, or in a locked
//! work file beside the outputs that a long run checkpoints), the run itself, and the report
//! the formats write. The command line, `sweep` and other front ends call this module; they
//! only parse their input and print.

mod write;
pub mod wythoff;

pub use write::{Output, Outputs, Written, write, write_destination, write_each};

use crate::analysis::counting::MAX_MODULUS;
use crate::choice::Choice;
use crate::engine::resumable::{self, CHECKPOINT_EVERY, Storage};
use crate::engine::{self, EngineKind};
use crate::error::{Error, Result};
use crate::format::wythoff::PairsSummary;
use crate::format::{Contents, Loaded};
use crate::game::Game;
use crate::number;
use crate::progress::Progress;
use crate::report::wythoff::WythoffTable;
use crate::report::{GrundyReport, PposReport, Report, RunInfo};
use crate::table::passes;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Positions from which a run with a work folder keeps its table in a memory-mapped work file
/// (removed once the outputs are written); smaller runs stay in memory unless they resume.
pub const FILE_BACKED_FROM: u64 = 1 << 27;

/// The most worker threads a run starts: more than the cores of large servers, while each
/// thread reserves its own stack, and threads beyond the cores only slow a run.
pub const MAX_THREADS: usize = 1024;

/// Refuses a worker thread count (`--threads`) of 0 or more than [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<()> {
    if threads == 0 {
        return Err(Error::Input("--threads must be at least 1".into()));
    }
    if threads > MAX_THREADS {
        return Err(Error::Input(format!(
            "--threads {threads} is more than {MAX_THREADS}; give at most {MAX_THREADS} (or leave it out to use every core)"
        )));
    }
    Ok(())
}

/// `--mod M`: from 1 to [`MAX_MODULUS`].
pub fn parse_modulus(text: &str) -> Result<u64> {
    match number::parse_u64(text)? {
        0 => Err(Error::Input("--mod must be at least 1".into())),
        m if m > MAX_MODULUS => Err(Error::Input(format!(
            "--mod {m} is more than {MAX_MODULUS} (2^16): the summary lists one count a residue; give at most {MAX_MODULUS}"
        ))),
        m => Ok(m),
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
    /// Modulus of the P-position counts by residue.
    pub modulus: u64,
    /// The folder for the work file of a large or resumable run; None keeps every table in
    /// memory.
    pub work_folder: Option<PathBuf>,
    /// Continue from the work file's checkpoint.
    pub resume: bool,
    /// The least time between two checkpoints.
    pub checkpoint_every: Duration,
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
            modulus: 5,
            work_folder: None,
            resume: false,
            checkpoint_every: CHECKPOINT_EVERY,
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
        if request.n == 0 {
            return Err(crate::number::no_positions());
        }
        let engine = request.engine_kind();
        if request.until_period {
            check_until_period(&request, engine)?;
        }
        let file_backed = request.resume || request.n >= FILE_BACKED_FROM;
        let work = match (&request.work_folder, file_backed) {
            (Some(folder), true) => {
                let ext = if engine == EngineKind::Psieve {
                    "bits"
                } else {
                    "values"
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
            checkpoint_every: self.request.checkpoint_every,
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
    /// [`Listing::Ppos`] the psieve engine lists P-positions without a table of values.
    pub fn report(&self, progress: &Progress) -> Result<Report> {
        let r = &self.request;
        let started = Instant::now();
        let info = |n: u64| RunInfo {
            game: r.game.spec.clone(),
            n,
            kind: ValueKind::of(r.game.play),
            engine: self.engine.name(),
            threads: rayon::current_num_threads(),
            elapsed_s: started.elapsed().as_secs_f64(),
        };
        Ok(match r.listing {
            Listing::Ppos { offset } => {
                let (positions, covered) = if self.engine == EngineKind::Psieve {
                    let positions =
                        on_pool(|| engine::psieve::sieve(&r.game, r.n, self.storage(), progress))?;
                    (positions, r.n)
                } else {
                    let table = self.table(progress)?;
                    (table.p_positions(), table.len())
                };
                Report::Ppos(PposReport::new(positions, info(covered), offset, r.modulus))
            }
            Listing::Grundy => {
                let table = self.table(progress)?;
                let info = info(table.len());
                let stopped_at_period = table.len() < r.n;
                let report = GrundyReport::new(table, info, stopped_at_period, r.modulus);
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
        return Err(Error::Input(
            "--until-period applies to grundy tables, not to P-position lists; leave it out, or run grundy with it".into(),
        ));
    }
    if !engine.proves_periods() {
        return Err(Error::Input(format!(
            "--until-period: the {} engine proves no period for {}; periods are proven for finite subtraction sets (sub:…), pim, bachet:K, powers-of-2, finite take-and-break codes (octal:…) and lasker; leave --until-period out",
            engine.name(),
            request.game.spec
        )));
    }
    Ok(())
}

/// What `nimsieve stats` reports of a file.
#[derive(Debug)]
pub enum FileReport {
    /// A one-heap table or P-position list.
    OneHeap(Report),
    /// A table of Wythoff's game: value counts, P-count, the rows' proven periods.
    TwoHeapTable(WythoffTable),
    /// The P-pairs of Wythoff's game: how many, the last.
    TwoHeapPairs(PairsSummary),
}

/// The report of a table read from a file (`nimsieve stats`), for `game` when known (the
/// period of a finite subtraction set is searched then), timed from `started`.
pub fn report_of_file(
    loaded: Loaded,
    game: Option<&Game>,
    modulus: u64,
    started: Instant,
) -> FileReport {
    let info = |n| RunInfo {
        game: game.map_or_else(|| "unknown".to_string(), |g| g.spec.clone()),
        n,
        kind: loaded.kind,
        engine: "stats",
        threads: rayon::current_num_threads(),
        elapsed_s: started.elapsed().as_secs_f64(),
    };
    match loaded.contents {
        Contents::Values(values) => {
            let period = game.and_then(|g| passes::proven_period(&values, &g.period_criterion()?));
            let table = Table {
                kind: loaded.kind,
                values,
                period,
            };
            let info = info(table.len());
            let report = GrundyReport::new(table, info, loaded.stopped_at_period, modulus);
            FileReport::OneHeap(Report::Grundy(match game {
                Some(game) => report.of_game(game),
                None => report,
            }))
        }
        Contents::Positions(positions) => {
            let n = loaded
                .n
                .unwrap_or_else(|| positions.last().map_or(0, |p| p + 1));
            FileReport::OneHeap(Report::Ppos(PposReport::new(
                positions,
                info(n),
                0,
                modulus,
            )))
        }
        Contents::Grid(grid) => FileReport::TwoHeapTable(wythoff::report_of_grid(grid, started)),
        Contents::Pairs(pairs) => FileReport::TwoHeapPairs(PairsSummary::of_list(
            &pairs,
            loaded.n.unwrap_or(0),
            started.elapsed().as_secs_f64(),
        )),
    }
}

/// Runs an engine on a worker of the thread pool, which then takes part in the engine's
/// parallel steps: called from outside the pool, each step would wake the workers and put the
/// caller to sleep until they finish (Grundy's game to 2^25 on 2 threads: 385,000 context
/// switches and 34.2 s, against 144,000 and 29.8 s on a worker).
fn on_pool<T: Send>(engine: impl FnOnce() -> T + Send) -> T {
    rayon::scope(|_| engine())
}
