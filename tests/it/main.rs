//! The integration tests, one crate: a module per area, with the helpers in `support/`.
//!
//! Where a new test goes: engines against the reference engine in the module of the engine
//! (`finite`, `take_break`, `value_layers`, `divisor`, `primes`, `ppos`, `oracle`, …); a command's
//! behaviour in `cli`, bad input in `input_errors`; files and formats in `formats`, `readers`,
//! `streams`, `xlsx`, `freq`; robustness (signals, kills, full disks, memory) in `faults`,
//! `interrupted_writes`, `full_disk`; the layer rule in `layers`. Runs that take more than a few
//! seconds are `#[ignore]`d with the reason "slow": plain `cargo test` skips them and
//! `scripts/test.sh` runs them (`cargo test -- --include-ignored`). The docs' commands are run
//! by `tests/docs.rs`, a test of its own.

mod support;

mod catalogue;
mod cli;
mod compare;
mod divisor;
mod eval;
mod eval_classes;
mod eval_positions;
mod faults;
mod finite;
mod formats;
mod freq;
mod full_disk;
mod hex;
mod input_errors;
mod interrupted_writes;
mod layers;
mod manual;
mod misere;
mod new_user;
mod oracle;
mod periodic;
mod plot;
mod plot_text;
mod ppos;
mod primes;
mod provenance;
mod readers;
mod stats;
mod streams;
mod sweep;
mod sweep_merge;
mod take_break;
mod two_heaps;
mod value_layers;
mod verify;
mod widths;
mod window;
mod written_down;
mod wythoff;
mod wythoff_files;
mod xlsx;
