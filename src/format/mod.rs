//! Table formats, one file each that writes the format (behind the [`Emitter`] trait) and reads
//! it back ([`load`]), and where the bytes go.

mod bfile;
mod bin;
mod csv;
mod freq;
mod json;
mod load;
mod npy;
mod output;
mod panics;
mod read;
mod rows;
pub mod two_heaps;
mod u64s;
mod xlsx;

pub use freq::write_blocks as write_freq_blocks;
pub use json::{Listed, Summary};
pub use load::{Contents, Loaded, load, load_at_offset, load_of};
pub use output::{
    Destination, Extension, Output, destinations, is_special, write_atomically, write_new,
    write_to, write_together, write_with,
};

use crate::choice::Choice;
use crate::error::{Command, Error, Param, Result};
use crate::report::{Kind, Report};
use crate::text;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The formats `--format` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Comma-separated values with a header row.
    Csv,
    /// OEIS b-file: `index value` lines, no header.
    Bfile,
    /// A JSON summary of the table.
    Json,
    /// NumPy .npy: values (grundy) or P-positions (ppos), smallest unsigned dtype.
    Npy,
    /// Packed table behind a documented header (see docs/formats.md).
    Bin,
    /// The P-positions as raw little-endian u64.
    U64,
    /// Excel workbook: the table as numbers on sheets of at most 1,048,576 rows, and a summary sheet.
    Xlsx,
    /// Value counts among the first 2^k positions, a block for every 2^k ≤ n (grundy only).
    Freq,
}

impl Choice for Format {
    const ALL: &'static [Format] = &[
        Format::Csv,
        Format::Bfile,
        Format::Json,
        Format::Npy,
        Format::Bin,
        Format::U64,
        Format::Xlsx,
        Format::Freq,
    ];

    fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Bfile => "bfile",
            Format::Json => "json",
            Format::Npy => "npy",
            Format::Bin => "bin",
            Format::U64 => "u64",
            Format::Xlsx => "xlsx",
            Format::Freq => "freq",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Format::Csv => "Comma-separated values with a header row",
            Format::Bfile => "OEIS b-file: `index value` lines, no header",
            Format::Json => "A JSON summary of the table",
            Format::Npy => {
                "NumPy .npy: values (grundy) or P-positions (ppos), smallest unsigned dtype"
            }
            Format::Bin => "Packed table behind a documented header (see docs/formats.md)",
            Format::U64 => "The P-positions as raw little-endian u64",
            Format::Xlsx => {
                "Excel workbook: the table on sheets of at most 1,048,576 rows, and a summary sheet"
            }
            Format::Freq => {
                "Value counts among the first 2^k positions, a block `n = 2^k` of `value count` lines for every 2^k <= N (grundy only)"
            }
        }
    }
}

impl Format {
    /// True for the formats that hold the table itself; false for the summaries written from
    /// its statistics alone (json, freq), which a run that keeps no table can write.
    pub fn holds_table(self) -> bool {
        !matches!(self, Format::Json | Format::Freq)
    }

    /// The emitter that writes this format with `layout`.
    pub fn emitter(self, layout: &Layout) -> Box<dyn Emitter> {
        match self {
            Format::Csv => Box::new(csv::Csv { wide: layout.wide }),
            Format::Bfile => Box::new(bfile::Bfile),
            Format::Json => Box::new(json::Json),
            Format::Npy => Box::new(npy::Npy),
            Format::Bin => Box::new(bin::Bin),
            Format::U64 => Box::new(u64s::U64s),
            Format::Xlsx => Box::new(xlsx::Xlsx {
                wide: layout.wide,
                scratch: layout.scratch.clone(),
            }),
            Format::Freq => Box::new(freq::Freq),
        }
    }

    /// True when this format holds a report of `kind`: every format a one-heap table, all
    /// but `freq` (which counts values) its P-positions, csv, json, npy and bin a square table,
    /// csv, bfile, json and npy the P-pairs of two heaps.
    pub fn holds(self, kind: Kind) -> bool {
        use Format::*;
        match kind {
            Kind::Values => true,
            Kind::Positions => self != Freq,
            Kind::Square => matches!(self, Csv | Json | Npy | Bin),
            Kind::Pairs => matches!(self, Csv | Bfile | Json | Npy),
        }
    }

    /// Refuses, before the computation, a format that cannot hold a report of `kind` of
    /// `game`, naming those that can.
    pub fn check_holds(self, kind: Kind, game: &str) -> Result<()> {
        if self.holds(kind) {
            return Ok(());
        }
        if self == Format::Freq && kind == Kind::Positions {
            return Err(Error::invalid(
                Param::Format,
                text!(
                    Param::Format.given("freq"),
                    " counts the values of a grundy table; ppos lists only P-positions (use ",
                    Command::new("grundy", "").with(Param::Format, "freq"),
                    ")",
                ),
            ));
        }
        let command = match kind {
            Kind::Values | Kind::Square => "grundy",
            Kind::Positions | Kind::Pairs => "ppos",
        };
        let fitting: Vec<&str> = (Format::ALL.iter())
            .filter(|f| f.holds(kind))
            .map(|f| f.name())
            .collect();
        Err(Error::invalid(
            Param::Format,
            format!(
                "{command} {game} writes {}, not {}; choose among those",
                fitting.join(", "),
                self.name()
            ),
        ))
    }

    /// Refuses, before the computation, a run whose table this format cannot hold: rows whose
    /// numbers (positions and indexes) reach at most `largest`, `numbers` of them values or
    /// P-positions (None when known only afterwards: P-positions).
    pub fn check_size(self, largest: u64, numbers: Option<u64>, layout: &Layout) -> Result<()> {
        match self {
            Format::Xlsx => xlsx::check_size(largest, numbers, layout.wide),
            _ => Ok(()),
        }
    }
}

impl Extension for Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Bfile => "txt",
            Format::Json => "json",
            Format::Npy => "npy",
            Format::Bin => "bin",
            Format::U64 => "u64",
            Format::Xlsx => "xlsx",
            Format::Freq => "freq.txt",
        }
    }

    fn fits_terminal(self) -> bool {
        !matches!(self, Format::Npy | Format::Bin | Format::U64 | Format::Xlsx)
    }
}

/// Choices that change how a format lays out its data, and where it may keep scratch files.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// CSV and xlsx: K values a row (`--wide K`), like the tables of textbooks.
    pub wide: Option<usize>,
    /// Folder for scratch files (xlsx sheets being written); None: the system's temporary folder.
    pub scratch: Option<PathBuf>,
}

impl Layout {
    /// `wide` values a row, with the xlsx sheets in progress waiting beside the outputs in
    /// `folder` (the current folder when it is empty), like a work file.
    pub fn beside(folder: &Path, wide: Option<usize>) -> Layout {
        let scratch = match folder.as_os_str().is_empty() {
            true => Path::new("."),
            false => folder,
        };
        Layout {
            wide,
            scratch: Some(scratch.to_path_buf()),
        }
    }
}

/// One output format.
pub trait Emitter {
    /// Refuses a report this format cannot hold, before anything is written.
    fn check(&self, _report: &Report) -> Result<()> {
        Ok(())
    }

    /// Writes the report.
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()>;
}
