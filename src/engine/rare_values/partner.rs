//! A second worker kept awake while blocks come one after another. Between two blocks the
//! thread of the blocks writes the values and hands them on; in that gap rayon's other worker
//! would fall asleep, and be woken for the next block's tasks on a cold core (on a 2-core
//! virtual machine, `.172` to 2^21 on two threads switched threads 8,097 times in 8,192
//! blocks). Kept awake, it waits for the tasks by asking rayon for them, as long as some come
//! within [`IDLE`] of each other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long the kept worker waits for a task before it lets itself sleep: longer than the gap
/// between two blocks, shorter than a stretch in order or a search for a period.
const IDLE: Duration = Duration::from_millis(1);

/// Whether a worker waits awake for the blocks' tasks, and whether the blocks are over.
#[derive(Default)]
struct State {
    waiting: AtomicBool,
    over: AtomicBool,
}

/// Sets a flag (the blocks, or a stretch, over) when dropped, on a return or an unwinding alike.
pub(super) struct Over<'a>(pub(super) &'a AtomicBool);

impl Drop for Over<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// What the thread of the blocks calls to keep another worker awake.
pub(super) struct Partner<'a, 'scope> {
    scope: &'a rayon::Scope<'scope>,
    state: &'scope State,
    /// The index of the thread of the blocks in rayon's pool.
    blocks_thread: Option<usize>,
}

/// Runs `work` (the blocks, on this thread) with a [`Partner`] it can keep awake; returns once
/// the partner has stopped waiting.
pub(super) fn with_partner<R>(work: impl FnOnce(&Partner) -> R) -> R {
    let state = State::default();
    rayon::in_place_scope(|scope| {
        let _over = Over(&state.over);
        work(&Partner {
            scope,
            state: &state,
            blocks_thread: rayon::current_thread_index(),
        })
    })
}

impl Partner<'_, '_> {
    /// Makes sure that another worker waits awake for the tasks of the next block, unless one
    /// does already or the pool has one thread.
    pub(super) fn keep_awake(&self) {
        if rayon::current_num_threads() < 2 || self.state.waiting.swap(true, Ordering::AcqRel) {
            return;
        }
        let (state, blocks_thread) = (self.state, self.blocks_thread);
        self.scope.spawn(move |_| {
            // The thread of the blocks itself may take the task while it waits for another:
            // it has no partner to be then.
            if rayon::current_thread_index() != blocks_thread {
                wait_for_tasks(&state.over);
            }
            state.waiting.store(false, Ordering::Release);
        });
    }
}

/// Runs the tasks rayon has until the blocks are over or none has come for [`IDLE`].
fn wait_for_tasks(over: &AtomicBool) {
    let mut last_task = Instant::now();
    while !over.load(Ordering::Acquire) {
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => last_task = Instant::now(),
            Some(rayon::Yield::Idle) if last_task.elapsed() < IDLE => std::thread::yield_now(),
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    fn waiting(partner: &Partner) -> bool {
        partner.state.waiting.load(Ordering::Acquire)
    }

    /// With two threads the partner waits while tasks come, stops once none has come for
    /// [`IDLE`], and is kept awake again on demand; the blocks' end releases it.
    #[test]
    fn the_partner_waits_while_tasks_come_and_stops_when_none_do() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            with_partner(|partner| {
                partner.keep_awake();
                assert!(waiting(partner));
                let sum: u64 = (0..100_000u64).into_par_iter().sum();
                assert_eq!(sum, 4_999_950_000);
                let start = Instant::now();
                while waiting(partner) {
                    assert!(start.elapsed() < Duration::from_secs(10), "still waiting");
                    std::thread::yield_now();
                }
                assert!(start.elapsed() < Duration::from_secs(10));
                partner.keep_awake();
                assert!(waiting(partner));
            })
        });
    }

    /// With one thread there is no partner to keep awake.
    #[test]
    fn one_thread_keeps_no_partner() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        pool.install(|| {
            with_partner(|partner| {
                partner.keep_awake();
                assert!(!waiting(partner));
            })
        });
    }
}
