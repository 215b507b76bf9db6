//! A progress bar on standard error, shown only on a terminal and never with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Progress of a long computation over a number of positions.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` positions; hidden when `quiet` or when standard error is not a terminal.
    pub fn new(total: u64, quiet: bool) -> Progress {
        Progress::counting(total, "positions", quiet)
    }

    /// A bar over `total` things named `unit` (e.g. "games"); hidden like [`Progress::new`].
    pub fn counting(total: u64, unit: &str, quiet: bool) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal();
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        bar.set_style(
            ProgressStyle::with_template(
                &format!("{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit}, {{per_sec}}, {{eta}} left {{msg}}"),
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Progress { bar }
    }

    /// A bar that never shows (for library callers and tests).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
        }
    }

    /// Sets the number of positions to do (for a bar made before the total was known).
    pub fn set_total(&self, total: u64) {
        self.bar.set_length(total);
    }

    /// Sets the number of positions done.
    pub fn set(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// The number of positions done so far (also of a hidden bar), for front ends that draw
    /// their own progress.
    pub fn done(&self) -> u64 {
        self.bar.position()
    }

    /// The count the run is heading for, as last set (a run of Wythoff's game counts cells,
    /// not the side it was asked for).
    pub fn total(&self) -> Option<u64> {
        self.bar.length()
    }

    /// Counts one more done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Sets the trailing message, e.g. a count of P-positions found.
    pub fn message(&self, text: String) {
        self.bar.set_message(text);
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
