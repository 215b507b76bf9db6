//! A block's positions decided one after another as the chunks holding their marks are done,
//! by whichever task finishes the chunk the next position waits for: deciding overlaps the
//! marking of the chunks after it, and a thread whose chunks are done decides positions instead
//! of waiting for the other's.

use super::block::{Block, Found};
use super::context::{Context, Mode, Value};
use super::region::Region;
use super::rows::mark_decided_rare_splits;
use super::search::{High, Search, Witnesses};
use std::sync::{Mutex, MutexGuard};

/// The positions of the block from b, decided in order over its chunks of marks.
pub(super) struct InOrder<'a, 's, V> {
    table: &'a [V],
    b: u64,
    ctx: &'a Context<'a>,
    region: Option<Region<'a, V>>,
    /// The chunks whose marks are done and whose positions are not decided yet, by index.
    ready: Mutex<Vec<Option<&'s mut [u64]>>>,
    /// The positions decided so far, extended by one task at a time.
    decided: Mutex<Decided<'a>>,
}

/// The values of a block's first positions.
struct Decided<'w> {
    out: Vec<u32>,
    found: Found,
    witnesses: &'w mut Witnesses,
    /// The next chunk to decide.
    next: usize,
    /// Whether the block has ended, at a value that reaches the bound.
    ended: bool,
}

impl<'a, 's, V: Value> InOrder<'a, 's, V> {
    /// The positions of the block of `len` positions from b, in `chunks` chunks, none decided.
    pub(super) fn new(
        table: &'a [V],
        b: u64,
        len: u64,
        ctx: &'a Context<'a>,
        region: Option<Region<'a, V>>,
        chunks: usize,
        witnesses: &'a mut Witnesses,
    ) -> Self {
        let decided = Decided {
            out: Vec::with_capacity(len as usize),
            found: Found::default(),
            witnesses,
            next: 0,
            ended: false,
        };
        InOrder {
            table,
            b,
            ctx,
            region,
            ready: Mutex::new((0..chunks).map(|_| None).collect()),
            decided: Mutex::new(decided),
        }
    }

    /// Takes chunk c, whose marks are done, and decides the positions that can be decided:
    /// unless another task is deciding them, which then goes on to this chunk.
    pub(super) fn chunk_done(&self, c: usize, marks: &'s mut [u64]) {
        self.ready()[c] = Some(marks);
        while let Ok(mut decided) = self.decided.try_lock() {
            loop {
                let next = self.ready().get_mut(decided.next).and_then(Option::take);
                let Some(marks) = next else { break };
                self.decide(&mut decided, marks);
                decided.next += 1;
            }
            let next = decided.next;
            drop(decided);
            // A chunk done while this task was deciding, whose task found it deciding, is
            // this task's to decide.
            if !self.ready().get(next).is_some_and(Option::is_some) {
                break;
            }
        }
    }

    /// The values decided: the block's, once every chunk is done (fewer if it ended early).
    pub(super) fn values(self) -> Vec<u32> {
        let decided = self
            .decided
            .into_inner()
            .expect("no task panicked deciding");
        decided.out
    }

    fn ready(&self) -> MutexGuard<'_, Vec<Option<&'s mut [u64]>>> {
        self.ready
            .lock()
            .expect("no task panicked handing over a chunk")
    }

    /// Decides the positions of the next chunk, whose marks are `marks`.
    fn decide(&self, decided: &mut Decided, marks: &mut [u64]) {
        let ctx = self.ctx;
        let room = Context::room(ctx.bound);
        let known = &self.table[..self.b as usize];
        // The chunk's splits with a rare heap and a partner among the positions decided before
        // it, a row a heap: position after position, each mark would wait for the one before.
        let x0 = self.b + decided.out.len() as u64;
        let rows_from = match ctx.mode {
            Mode::Sparse(_) if !decided.ended => {
                let xs = x0..x0 + (marks.len() / room) as u64;
                mark_decided_rare_splits(marks, xs, self.b, &decided.out, ctx);
                x0
            }
            _ => self.b,
        };
        for marks in marks.chunks_exact_mut(room) {
            if decided.ended {
                return;
            }
            let x = self.b + decided.out.len() as u64;
            let search = Search {
                table: known,
                region: self.region,
                witnesses: decided.witnesses,
                rare_values: ctx.rare_values,
                high: High::of(ctx, &decided.found.high),
                scan_past: None,
                head: ctx.head,
                scanned_first: ctx.scanned_first,
            };
            let block = Block {
                table: self.table,
                b: self.b,
                out: &decided.out,
                rows_from,
                found_rare: &decided.found.rare,
                found_high: &decided.found.high,
            };
            let value = block.value(x, ctx, marks, search);
            decided.out.push(value);
            decided.ended = !decided.found.note(x, value, ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rare_values::context::CodeMoves;
    use crate::sparse_space::is_rare;
    use crate::xorshift::xorshift;

    /// Chunks handed over in any order, one after another or from threads at once, give the
    /// values of chunks handed over in order.
    #[test]
    fn chunks_handed_over_in_any_order_from_any_thread_give_the_same_values() {
        let moves = CodeMoves::splits_only(vec![1, 2], false);
        let (mask, bound) = (254, 256);
        let room = Context::room(bound);
        let rare_values = crate::sparse_space::rare_values(mask, room);
        let mut next = xorshift(0x51A3_77E0_C2B4_9D1F);
        let b = 3000u64;
        let table: Vec<u16> = (0..b).map(|x| (x.min(1) * (next() % 128)) as u16).collect();
        let rare: Vec<(u64, u32)> = (1..b)
            .filter(|&x| is_rare(table[x as usize].into(), mask))
            .map(|x| (x, table[x as usize].into()))
            .collect();
        let ctx = Context::sparse_for_test(&moves, mask, &rare, bound, &rare_values);
        let (len, chunks) = (256u64, 4);
        let decide = |order: &[usize], at_once: bool| -> Vec<u32> {
            // No marks made below the block: the values are not the game's, but each depends
            // on those before it.
            let mut seen = vec![0u64; len as usize * room];
            let mut witnesses = Witnesses::new(room * 64);
            let in_order = InOrder::new(&table, b, len, &ctx, None, chunks, &mut witnesses);
            let mut parts: Vec<Option<&mut [u64]>> = seen.chunks_mut(room * 64).map(Some).collect();
            let handed: Vec<(usize, &mut [u64])> = order
                .iter()
                .map(|&c| (c, parts[c].take().expect("each chunk once")))
                .collect();
            let start = std::sync::Barrier::new(chunks);
            std::thread::scope(|scope| {
                for (c, marks) in handed {
                    let (in_order, start) = (&in_order, &start);
                    if at_once {
                        scope.spawn(move || {
                            start.wait();
                            in_order.chunk_done(c, marks);
                        });
                    } else {
                        in_order.chunk_done(c, marks);
                    }
                }
            });
            in_order.values()
        };
        let want = decide(&[0, 1, 2, 3], false);
        assert!(want.len() > 3 * 64, "{} positions decided", want.len());
        for order in [[3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]] {
            assert_eq!(decide(&order, false), want, "{order:?}");
            for _ in 0..20 {
                assert_eq!(decide(&order, true), want, "{order:?} at once");
            }
        }
    }
}
