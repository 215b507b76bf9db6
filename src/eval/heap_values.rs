//! The value of a heap of any size, the cheapest exact way: a closed form, a proven period, or
//! a table up to the largest heap (computed, or read from a table file).

use crate::DEFAULT_OUTPUT_DIR;
use crate::choice::Choice;
use crate::engine::{self, EngineKind};
use crate::error::{Command, Error, Param, Result, Text, bytes_text};
use crate::format::{self, Contents};
use crate::game::{ClosedForm, Game, Rule, THREE};
use crate::period::Period;
use crate::progress::Progress;
use crate::run::{FILE_BACKED_FROM, Request, Run};
use crate::table::{Table, ValueKind, passes};
use crate::text;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// How a heap's value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Method {
    /// A formula a theorem gives.
    #[serde(rename = "closed form")]
    ClosedForm,
    /// The heap reduced into a table that proves the game's period.
    #[serde(rename = "period")]
    Period,
    /// Looked up in a table that reaches the heap.
    #[serde(rename = "table")]
    Table,
}

/// The most positions a table computed for `eval` may have; longer tables are computed with
/// `grundy … --resume` and read with `eval --table`.
pub const TABLE_LIMIT: u64 = 1 << 32;

/// The table computed first for a game that may prove its period, in memory.
const SHORT_TABLE: u64 = 1 << 20;

/// How far a period is searched for a heap beyond the tables eval computes.
const PERIOD_SEARCH: u64 = 1 << 24;

/// The longest table of the reference engine, which keeps 4 bytes a position in memory.
const REFERENCE_LIMIT: u64 = 1 << 30;

/// The longest a table computed for `eval` may be expected to take, in seconds.
const TIME_LIMIT_S: f64 = 3600.0;

/// Where the table of a large evaluation lives and how its progress shows.
#[derive(Debug, Clone)]
pub struct TableOptions {
    /// A table file (`eval --table`) to read values from instead of computing them.
    pub file: Option<PathBuf>,
    /// The folder of the memory-mapped work file of a table from 2^27 positions; None keeps
    /// every table in memory.
    pub work_folder: Option<PathBuf>,
    /// The progress of a table's computation.
    pub progress: Progress,
}

impl TableOptions {
    /// Tables computed in memory, without progress (for library callers).
    pub fn in_memory() -> TableOptions {
        TableOptions {
            file: None,
            work_folder: None,
            progress: Progress::hidden(),
        }
    }
}

/// The values of one game's heaps.
#[derive(Debug)]
pub struct HeapValues {
    source: Source,
    /// The run whose work file holds the table, removed when the values are dropped.
    run: Option<Run>,
}

#[derive(Debug)]
enum Source {
    Formula(ClosedForm),
    Table(Table),
}

impl HeapValues {
    /// The values of `game` (normal play) for heaps up to `largest`.
    pub fn new(game: &Game, largest: u64, options: &TableOptions) -> Result<HeapValues> {
        if let Some(file) = &options.file {
            return from_file(game, largest, file);
        }
        if let Some(form) = game.closed_form() {
            if largest > form.largest_heap() {
                return Err(Error::unsupported(format!(
                    "{}: the value of a heap of {largest} passes 2^64 - 1, the largest value eval gives; give heaps up to {}",
                    game.spec,
                    form.largest_heap()
                )));
            }
            return Ok(HeapValues {
                source: Source::Formula(form),
                run: None,
            });
        }
        let engine = engine::choose(game, largest.saturating_add(1));
        let proves = engine.proves_periods();
        // No table reaches a heap of 2^64 − 1; a proven period does.
        let wanted = match largest.checked_add(1) {
            Some(wanted) => wanted,
            None if proves => u64::MAX,
            None => return Err(too_large(game, largest)),
        };
        // Most periods are proven within a short table, computed in memory first; a heap
        // beyond the longest table eval computes is answered only by a period, searched a
        // little further.
        let mut n = wanted;
        if proves {
            let short = wanted.min(SHORT_TABLE);
            let (table, run) = compute(game, short, true, None, &options.progress)?;
            if table.len() > largest || table.period.is_some() || short == wanted {
                return HeapValues::of_table(game, largest, table, Some(run));
            }
            if wanted > longest_table(engine, game) {
                n = PERIOD_SEARCH;
            }
        }
        check_cost(game, engine, n, largest)?;
        let work_folder = options.work_folder.clone();
        let (table, run) = compute(game, n, proves, work_folder, &options.progress)?;
        if table.len() <= largest && table.period.is_none() {
            let search = Command::new("grundy", &game.spec)
                .with(Param::Size, "N")
                .switch(Param::UntilPeriod)
                .with(Param::Format, "bin");
            return Err(Error::unsupported(text!(
                format!(
                    "{}: no period proven below n = {} and a heap of {largest} is beyond the tables eval computes; search further with ",
                    game.spec,
                    table.len(),
                ),
                resumable(search, engine),
                " for a larger N, then evaluate with ",
                Param::Table,
                " and that file",
            )));
        }
        HeapValues::of_table(game, largest, table, Some(run))
    }

    /// Values looked up in `table` (reduced by its period past its end), with the run that
    /// holds its work file, for heaps up to `largest` of `game`.
    fn of_table(game: &Game, largest: u64, table: Table, run: Option<Run>) -> Result<HeapValues> {
        if let Err(e) = check_values(game, &table, largest) {
            run.into_iter().for_each(Run::finish);
            return Err(e);
        }
        Ok(HeapValues {
            source: Source::Table(table),
            run,
        })
    }

    /// g(n).
    pub fn value(&self, n: u64) -> u64 {
        match &self.source {
            Source::Formula(form) => form.value(n),
            Source::Table(table) => table_value(n, table),
        }
    }

    /// How g(n) is found.
    pub fn method(&self, n: u64) -> Method {
        match &self.source {
            Source::Formula(_) => Method::ClosedForm,
            Source::Table(table) if n < table.len() => Method::Table,
            Source::Table(_) => Method::Period,
        }
    }

    /// The pure period (saltus 0) that gives g(n) when n lies beyond the table; None for a heap
    /// inside it, a formula's values or an arithmetic period.
    pub fn pure_period_past(&self, n: u64) -> Option<Period> {
        match &self.source {
            Source::Table(table) if n >= table.len() => table.period.filter(|p| p.saltus == 0),
            _ => None,
        }
    }

    /// The formula, when the values come from one.
    pub fn closed_form(&self) -> Option<&ClosedForm> {
        match &self.source {
            Source::Formula(form) => Some(form),
            Source::Table(_) => None,
        }
    }
}

impl Drop for HeapValues {
    fn drop(&mut self) {
        if let Some(run) = self.run.take() {
            run.finish();
        }
    }
}

/// The table of `game` below n (stopping at a proven period when `until_period`), with the run
/// that holds its work file.
fn compute(
    game: &Game,
    n: u64,
    until_period: bool,
    work_folder: Option<PathBuf>,
    progress: &Progress,
) -> Result<(Table, Run)> {
    if let Some(folder) = work_folder.as_ref().filter(|_| n >= FILE_BACKED_FROM) {
        std::fs::create_dir_all(folder)
            .map_err(|e| Error::io("cannot create folder", folder, e))?;
    }
    let request = Request {
        until_period,
        work_folder,
        ..Request::grundy(game.clone(), n)
    };
    let run = Run::start(request)?;
    progress.set_total(n);
    let table = run.table(progress);
    progress.finish();
    match table {
        Ok(table) => Ok((table, run)),
        Err(e) => {
            // Nothing resumes an evaluation: its work file goes.
            run.finish();
            Err(match e {
                Error::Interrupted(_) => {
                    Error::Interrupted("the table was not finished; nothing was written".into())
                }
                e => e,
            })
        }
    }
}

/// g(n) from the table: n itself inside the table, else n moved back by whole periods into
/// the table's periodic part, adding the saltus for each (the caller made sure a period exists
/// and, with [`check_values`], that the value fits).
fn table_value(n: u64, table: &Table) -> u64 {
    let value = |x| table.get(x);
    match table.period {
        Some(p) => p.value_at(n, table.len(), value),
        None => Some(u64::from(value(n))),
    }
    .expect("eval checked that the heaps' values fit")
}

/// Refuses heaps up to `largest` whose values, an arithmetic period adding its saltus, pass
/// 2^64 − 1 (the largest value lies in the last period up to `largest`).
fn check_values(game: &Game, table: &Table, largest: u64) -> Result<()> {
    let Some(p) = table.period.filter(|p| p.saltus != 0) else {
        return Ok(());
    };
    let last_period = largest.saturating_sub(p.period - 1)..=largest;
    match last_period
        .into_iter()
        .all(|x| p.value_at(x, table.len(), |y| table.get(y)).is_some())
    {
        true => Ok(()),
        false => Err(Error::unsupported(format!(
            "{}: the value of a heap of {largest} passes 2^64 - 1, the largest value eval gives; give smaller heaps",
            game.spec
        ))),
    }
}

/// Values read from a table file, which must be of `game` (when it says) and reach `largest`,
/// or prove the game's period.
fn from_file(game: &Game, largest: u64, file: &Path) -> Result<HeapValues> {
    let bad = |why: String| {
        Error::invalid(
            Param::Table,
            text!(Param::Table.given(file.display()), ": ", why),
        )
    };
    let loaded = format::load(file, Some(false))?;
    if let Some(stated) = &loaded.game
        && stated != &game.spec
    {
        return Err(bad(format!(
            "the table is of {stated}, not of {}; give a table of {} or evaluate {stated}",
            game.spec, game.spec
        )));
    }
    let Contents::Values(values) = loaded.contents else {
        return Err(bad(
            "it lists P-positions; give a table of values (grundy)".into()
        ));
    };
    if loaded.kind != ValueKind::Grundy {
        return Err(bad(
            "it holds misère outcomes; give a table of Grundy values (normal play)".into(),
        ));
    }
    let period = game
        .period_criterion()
        .and_then(|c| passes::proven_period(&values, &c));
    if values.len() <= largest && period.is_none() {
        return Err(bad(format!(
            "it covers heaps below {} and proves no period, but the largest heap is {largest}; compute a longer table",
            values.len()
        )));
    }
    let table = Table {
        kind: ValueKind::Grundy,
        values,
        period,
        shape: crate::table::Shape::Line,
    };
    HeapValues::of_table(game, largest, table, None)
}

/// The longest table an engine that proves periods searches, within the time limit.
fn longest_table(engine: EngineKind, game: &Game) -> u64 {
    let mut n = TABLE_LIMIT;
    while n > 1 << 16 && estimated_seconds(engine, game, n) > TIME_LIMIT_S {
        n /= 2;
    }
    n
}

/// Refuses a table too long for memory and disk or the time limit, before starting it.
fn check_cost(game: &Game, engine: EngineKind, n: u64, largest: u64) -> Result<()> {
    if n > TABLE_LIMIT {
        return Err(Error::unsupported(text!(
            format!(
                "{}: a heap of {largest} needs a table of {n} positions, more than eval computes (2^32); ",
                game.spec
            ),
            instead(game, engine, largest),
        )));
    }
    if engine == EngineKind::Reference && n > REFERENCE_LIMIT {
        return Err(Error::unsupported(text!(
            format!(
                "{}: a heap of {largest} needs a table of {n} positions from the reference engine, which keeps 4 bytes a position in memory (at most 2^30 positions for eval); ",
                game.spec
            ),
            instead(game, engine, largest),
        )));
    }
    let seconds = estimated_seconds(engine, game, n);
    if seconds > TIME_LIMIT_S {
        return Err(Error::unsupported(text!(
            format!(
                "{}: a heap of {largest} needs a table of {n} positions, about {:.0} hours with the {} engine, more than eval computes (about an hour); ",
                game.spec,
                (seconds / 3600.0).max(1.0),
                engine.name(),
            ),
            instead(game, engine, largest),
        )));
    }
    Ok(())
}

/// What to run instead of an evaluation whose table is too long, or why nothing will do: the
/// table's disk (its work file and the `.bin`, at the engine's widest values) against the free
/// space of the output folder, and a rough time.
fn instead(game: &Game, engine: EngineKind, largest: u64) -> Text {
    let folder = Path::new(DEFAULT_OUTPUT_DIR);
    let existing = folder
        .ancestors()
        .find(|f| f.is_dir())
        .unwrap_or(Path::new("."));
    let free = fs4::available_space(existing).unwrap_or(0);
    advice(game, engine, largest, free)
}

/// [`instead`] with `free` bytes in the output folder.
fn advice(game: &Game, engine: EngineKind, largest: u64, free: u64) -> Text {
    let n = largest as u128 + 1;
    let bits = u128::from(engine.widest_bits());
    let disk = 2 * n * bits / 8;
    let days = estimated_seconds(engine, game, n.min(u128::from(u64::MAX)) as u64) / 86_400.0;
    let time = match days {
        d if d < 2.0 => format!("about {:.0} hours", (d * 24.0).max(1.0)),
        d if d < 730.0 => format!("about {d:.0} days"),
        d => format!("about {:.0} years", d / 365.0),
    };
    if disk > u128::from(free) {
        return format!(
            "that table needs {} of disk ({bits} bits a position, its work file and the .bin), {} free in '{DEFAULT_OUTPUT_DIR}', and {time}; no table this size fits here",
            bytes_text(disk),
            bytes_text(u128::from(free)),
        )
        .into();
    }
    let compute = Command::new("grundy", &game.spec)
        .with(Param::Size, n)
        .with(Param::Format, "bin");
    let evaluate = Command::new("eval", format!("{} HEAP...", game.spec)).with(
        Param::Table,
        format!("{DEFAULT_OUTPUT_DIR}/{}-{n}.bin", game.file_stem()),
    );
    text!(
        format!(
            "compute the table once ({time}, {} of disk) with ",
            bytes_text(disk)
        ),
        resumable(compute, engine),
        " and evaluate with ",
        evaluate,
    )
}

/// `command` resuming from a checkpoint when `engine` keeps one, and what an interruption costs.
fn resumable(command: Command, engine: EngineKind) -> Text {
    match engine.resumes() {
        true => text!(
            command.switch(Param::Resume),
            " (resumable: an interrupted run continues from its checkpoint)"
        ),
        false => text!(
            command,
            " (the engine keeps no checkpoint: an interrupted run starts over)"
        ),
    }
}

/// A rough time for a table of n positions, from the rates docs/performance.md measured for
/// the slowest games each engine takes: enough to tell minutes from hours.
fn estimated_seconds(engine: EngineKind, game: &Game, n: u64) -> f64 {
    let positions = n as f64;
    // A code that splits into three: the general engine's sets of three-part nim-sums, about
    // n² a removal that allows it, some 2.5·10^7 a second (tb:0.{2,3} to 3,000 in 0.36 s).
    if let Some(code) = game.take_break().filter(|code| code.splits_in_three()) {
        let removals = code.removals(THREE, n).len().max(1) as f64;
        return positions.powi(2) * removals / 2.5e7;
    }
    let per_second = match engine {
        // Squares: 2^26 positions with 8,192 steps in 240 s, about 2.3·10^9 (position, step)
        // pairs a second.
        EngineKind::ValueLayers => {
            let steps = match &game.rule {
                Rule::Subtraction(set) => set.elements_below(n.min(1 << 40)).len().max(1),
                _ => 1,
            };
            2.3e9 / steps as f64
        }
        EngineKind::PrimeGrundy => 1.5e7,
        EngineKind::DivisorSieve => 1.0e7,
        // Grundy's game, the slowest code measured: 3.7·10^5 values a second.
        EngineKind::RareValues => 3.5e5,
        EngineKind::Reference => 5.0e6,
        // Rules written down: tb:0.[37] to 10^5 in about a second; codes with wider splits
        // are slower (docs/rules.md).
        EngineKind::General => 1.0e5,
        // Kayles' quotient: 1,000 heaps in 0.05 s, a proven period copied past that.
        EngineKind::MisereQuotient => 2.0e4,
        EngineKind::Finite
        | EngineKind::Periodic
        | EngineKind::ClosedForm
        | EngineKind::Psieve
        | EngineKind::Wythoff => 1.0e8,
    };
    positions / per_second
}

/// The error for a heap of 2^64 − 1 of a game that neither has a closed form nor proves
/// periods, whose table would pass the integer type.
fn too_large(game: &Game, largest: u64) -> Error {
    Error::unsupported(format!(
        "{}: a heap of {largest} is beyond what any table reaches (2^64 positions), and the game has neither a closed form nor a period eval can prove; give a smaller heap",
        game.spec
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::resumable::Storage;
    use crate::error::Piece;
    use crate::game::lasker;

    /// The advice names the command only when the table fits in the free space.
    #[test]
    fn advice_names_a_command_only_when_the_table_fits() {
        let squares = Game::parse("squares").unwrap();
        let free = 70 << 30;
        let text = advice(&squares, EngineKind::ValueLayers, 1_000_000_000_000, free).to_string();
        assert!(text.contains("needs 3.6 TiB of disk"), "{text}");
        assert!(text.contains("70.0 GiB free") && text.contains("no table this size fits"));
        assert!(!text.contains("grundy"), "{text}");
        let advised = advice(&squares, EngineKind::ValueLayers, 999_999_999, free);
        let compute = Command::new("grundy", "squares")
            .with(Param::Size, 1_000_000_000)
            .with(Param::Format, "bin")
            .switch(Param::Resume);
        assert!(advised.0.contains(&Piece::Command(compute)), "{advised:?}");
        let text = advised.to_string();
        assert!(
            text.contains("3.7 GiB of disk") && text.contains("hours"),
            "{text}"
        );
    }

    /// `--resume` is named only for an engine that checkpoints.
    #[test]
    fn advice_names_resume_only_for_resumable_engines() {
        let all_but = Game::parse("allbut:1,2").unwrap();
        let text = advice(&all_but, EngineKind::Reference, 100_000_000, 70 << 30).to_string();
        assert!(
            text.contains("format=bin (the engine keeps no checkpoint"),
            "{text}"
        );
        assert!(!text.contains("resume"), "{text}");
    }

    /// Heaps of any size are reduced into a table through its arithmetic period, each period
    /// back adding the saltus; heaps whose value passes 2^64 − 1 are refused.
    #[test]
    fn heaps_past_an_arithmetic_table_add_the_saltus() {
        let game = Game::parse("lasker").unwrap();
        let table = || {
            EngineKind::ClosedForm
                .grundy(&game, 1000, true, Storage::default(), &Progress::hidden())
                .unwrap()
        };
        assert_eq!(table().len(), 5);
        let largest = u64::MAX - 1;
        let values = HeapValues::of_table(&game, largest, table(), None).unwrap();
        for n in [
            0,
            3,
            4,
            5,
            1000,
            1 << 40,
            (1 << 62) + 3,
            largest - 3,
            largest,
        ] {
            assert_eq!(values.value(n), lasker(n), "{n}");
            assert_eq!(
                values.method(n),
                if n < 5 { Method::Table } else { Method::Period }
            );
        }
        let refused = HeapValues::of_table(&game, u64::MAX, table(), None);
        assert!(refused.is_err_and(|e| e.to_string().contains("passes 2^64 - 1")));
    }
}
