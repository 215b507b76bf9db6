//! P-position runs: the forward sieve ([`psieve`](super::psieve)) for subtraction games, with its
//! bit table in memory or in a memory-mapped file, periodic checkpoints, Ctrl-C and `--resume`.

use super::psieve;
use crate::error::{Error, Result};
use crate::game::{Game, Play, Rule};
use crate::interrupt;
use crate::progress::Progress;
use crate::table::bits::{BitTable, Checkpoint};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// How often a file-backed run saves a checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// Whether the sieve computes `game`: a subtraction game given element by element.
pub fn applies(game: &Game) -> bool {
    matches!(&game.rule, Rule::Subtraction(set) if set.window_rule().is_none())
}

/// The P-positions below `n` of `game`, a subtraction game for which [`applies`] holds.
///
/// With `work_file`, the bit table lives in that memory-mapped file and a checkpoint beside it
/// is saved every minute and on Ctrl-C; `resume` continues from the checkpoint when it belongs
/// to the same game and n. Both files are removed once the run is complete.
pub fn sieve(
    game: &Game,
    n: u64,
    work_file: Option<&Path>,
    resume: bool,
    progress: &Progress,
) -> Result<Vec<u64>> {
    if !applies(game) {
        return Err(Error::Input(format!(
            "the psieve engine needs a subtraction set listed element by element, not '{}'",
            game.spec
        )));
    }
    let (mut table, mut done) = open(game, n, work_file, resume)?;
    // Listed only once the table is known to fit: a huge n has a long step list.
    let steps = game.listed_steps(n).unwrap_or_default();
    let min_target = game.min_target();
    // Positions below `start` are fixed before the sieve: under misère play they have no move
    // and are N; under +leave1 position 0 is P but no move may reach it.
    let start = match game.play {
        Play::Normal => min_target,
        Play::Misere => steps.first().map_or(n, |s| s + min_target).min(n),
    };
    if done == 0 && game.play == Play::Normal && min_target == 1 && n > 0 {
        table.words_mut()[0] |= 1;
    }
    loop {
        let slice_started = Instant::now();
        let checkpoints = work_file.is_some();
        let outcome = psieve::sieve_ppos(
            &steps,
            n,
            start,
            table.words_mut(),
            done,
            &mut |at, count| {
                progress.set(at);
                progress.message(format!("{count} P-positions"));
                let due = checkpoints && slice_started.elapsed() > CHECKPOINT_EVERY;
                if interrupt::requested() || due {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        match outcome {
            psieve::Outcome::Completed { .. } => break,
            psieve::Outcome::Stopped { at, .. } => {
                done = at;
                if let Some(path) = work_file {
                    table.flush()?;
                    Checkpoint {
                        game: game.spec.clone(),
                        n,
                        done,
                    }
                    .save(path)?;
                }
                if interrupt::requested() {
                    return Err(Error::Interrupted(match work_file {
                        Some(_) => format!(
                            "{done} of {n} positions are saved; run the same command with --resume to continue"
                        ),
                        None => format!(
                            "stopped at {done} of {n} positions; the table was in memory, so nothing is saved"
                        ),
                    }));
                }
            }
        }
    }
    let positions = table.ones();
    if let Some(path) = work_file {
        drop(table);
        let _ = std::fs::remove_file(Checkpoint::path_for(path));
        let _ = std::fs::remove_file(path);
    }
    Ok(positions)
}

/// The bit table and the number of final positions in it.
fn open(game: &Game, n: u64, work_file: Option<&Path>, resume: bool) -> Result<(BitTable, u64)> {
    let Some(path) = work_file else {
        return Ok((BitTable::in_memory(n), 0));
    };
    let checkpoint = if resume {
        Checkpoint::load(path)?
    } else {
        None
    };
    match checkpoint {
        Some(c) if c.game == game.spec && c.n == n && c.done <= n => {
            Ok((BitTable::in_file(path, n, true)?, c.done))
        }
        Some(c) => Err(Error::Input(format!(
            "cannot resume: '{}' belongs to {} with n = {}, not {} with n = {n}; rerun without --resume",
            path.display(),
            c.game,
            c.n,
            game.spec
        ))),
        None => {
            let _ = std::fs::remove_file(Checkpoint::path_for(path));
            Ok((BitTable::in_file(path, n, false)?, 0))
        }
    }
}
