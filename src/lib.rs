//! nimsieve computes Sprague–Grundy values and P-positions of impartial games and writes them as
//! tables. The flow is one way: a [`game::Game`] spec is compiled into moves, an
//! [`engine`] fills a [`table::Table`], [`analysis`] reads it, [`report`] gathers what it finds and [`format`] writes it and
//! reads it back.

pub mod analysis;
pub mod choice;
pub mod engine;
pub mod error;
pub mod eval;
pub mod format;
pub mod game;
pub mod interrupt;
pub mod misere;
pub mod number;
pub mod partial;
pub mod period;
pub mod plot;
pub mod progress;
pub mod provenance;
pub mod regular_file;
pub mod report;
pub mod run;
pub mod sparse_space;
pub mod sweep;
pub mod table;
pub mod verify;
#[cfg(test)]
mod xorshift;

pub use error::{Error, Result};

/// The folder output files go to when no `-o` is given.
pub const DEFAULT_OUTPUT_DIR: &str = "output";
