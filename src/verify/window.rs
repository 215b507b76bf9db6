//! Rules whose options are a window of positions (Nim, all-but sets, Bachet, half,
//! even-if-not-all): for each residue class of the window's step, the count of every value in
//! the window, and a Fenwick tree over values counting the values with count 0, so that (b),
//! "no value below g(n) is absent", is one prefix sum. The window's few excepted positions
//! and its extra option adjust the counts of their values. Cost O(log(max value)) a position;
//! one pass in increasing n (each window only slides forward); memory 12 bytes per value up to
//! the largest (for Nim and `allbut`, whose values grow with n, that is proportional to n).

use super::{FirstFault, Rules, judge};
use crate::error::{Error, Result};
use crate::game::WindowRule;
use crate::progress::Progress;
use crate::table::allocate;
use crate::table::packed::PackedValues;
use crate::table::passes::Behind;

/// How often the progress bar is updated, in positions.
const PROGRESS_EVERY: u64 = 1 << 16;

/// Value counts of the positions lo, lo + step, … below hi.
struct Sliding {
    lo: u64,
    hi: u64,
    counts: Vec<u32>,
    /// Fenwick tree: how many values v have counts[v] == 0.
    absent: Vec<i64>,
}

impl Sliding {
    fn new(first: u64, values: usize) -> Result<Self> {
        let mut absent = allocate(values as u64 + 1, 0i64, "the value counts")?;
        for v in 1..=values {
            absent[v] += 1;
            let parent = v + (v & v.wrapping_neg());
            if parent <= values {
                absent[parent] += absent[v];
            }
        }
        Ok(Sliding {
            lo: first,
            hi: first,
            counts: allocate(values as u64, 0, "the value counts")?,
            absent,
        })
    }

    fn bump(&mut self, v: usize, delta: i64) {
        let mut i = v + 1;
        while i < self.absent.len() {
            self.absent[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// Counts one more position of value v; an input error for the 2^32nd of one value (no
    /// table nimsieve writes has windows that long).
    fn add(&mut self, v: u32) -> Result<()> {
        let count = &mut self.counts[v as usize];
        *count = count.checked_add(1).ok_or_else(|| {
            Error::unsupported(format!(
                "a window of options holds 2^32 positions of value {v}, more than verify counts"
            ))
        })?;
        if *count == 1 {
            self.bump(v as usize, -1);
        }
        Ok(())
    }

    fn remove(&mut self, v: u32) {
        self.counts[v as usize] -= 1;
        if self.counts[v as usize] == 0 {
            self.bump(v as usize, 1);
        }
    }

    /// How many values below `g` are absent from the window.
    fn absent_below(&self, g: u32) -> i64 {
        let mut i = g as usize;
        let mut sum = 0;
        while i > 0 {
            sum += self.absent[i];
            i &= i - 1;
        }
        sum
    }
}

/// Checks every position of `g` (values at most `max`) whose options are the windows of
/// `rule`; an input error when the value counts cannot be allocated.
pub(super) fn check(
    g: &PackedValues,
    max: u32,
    rule: &WindowRule,
    min_target: u64,
    rules: Rules,
    first: &FirstFault,
    progress: &Progress,
) -> Result<()> {
    let values = max as usize + 1;
    let mut classes: Vec<Option<Sliding>> = vec![None, None];
    let mut behind = Behind::default();
    for x in 0..g.len() {
        let w = rule.window(x, min_target);
        let hi = w.hi.max(w.lo);
        let class = &mut classes[(w.lo % w.step) as usize];
        if class.is_none() {
            *class = Some(Sliding::new(w.lo, values)?);
        }
        let class = class.as_mut().expect("just made");
        while class.hi < hi {
            class.add(g.get(class.hi))?;
            class.hi += w.step;
        }
        while class.lo < w.lo {
            if class.lo < class.hi {
                class.remove(g.get(class.lo));
            }
            class.lo += w.step;
        }
        class.hi = class.hi.max(class.lo);
        // Changes to the window's counts: excepted positions out, the extra option in.
        let mut changes: Vec<(u32, i64)> = Vec::new();
        let mut change = |v: u32, d: i64| match changes.iter_mut().find(|c| c.0 == v) {
            Some(c) => c.1 += d,
            None => changes.push((v, d)),
        };
        for &m in &w.except {
            change(g.get(m), -1);
        }
        if let Some(m) = w.extra {
            change(g.get(m), 1);
        }
        let count = |v: u32| {
            let base = class.counts.get(v as usize).map_or(0, |&c| i64::from(c));
            base + changes.iter().find(|c| c.0 == v).map_or(0, |c| c.1)
        };
        let gx = g.get(x);
        let fast_has = |v: u32| count(v) > 0;
        let mut absent = class.absent_below(gx);
        for &(v, _) in changes.iter().filter(|c| c.0 < gx) {
            let before = class.counts[v as usize] == 0;
            absent += i64::from(count(v) == 0) - i64::from(before);
        }
        let terminal = w.positions().next().is_none();
        // Only a position that fails needs the value-by-value search of `judge`.
        let suspect = absent > 0 || fast_has(gx) || (rules.misere && terminal && gx == 0);
        if suspect {
            let conflict = || {
                w.positions()
                    .filter(|&m| g.get(m) == gx)
                    .max()
                    .expect("a conflicting option exists")
            };
            if let Some(fault) = judge(x, gx, terminal, rules, fast_has, conflict) {
                first.record(fault);
                return Ok(());
            }
        }
        if x % PROGRESS_EVERY == 0 {
            progress.set(x);
            // No later window reaches below the windows' first positions now.
            let lowest = classes.iter().flatten().map(|c| c.lo).min();
            behind.passed(g, lowest.unwrap_or(0));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::packed::PASS;
    use crate::table::resident::tests::{rss, written_with};
    use crate::table::words::RELEASE_ALIGN;

    /// Sliding windows of options release the positions behind them: a check of Bachet's game
    /// keeps a piece of a file-backed or mapped table.
    #[test]
    fn a_check_of_sliding_windows_keeps_little_of_a_mapped_table() {
        let n = 1 << 24;
        let (_dir, g) = written_with(n, 16, |x| (x % 4) as u32);
        let rules = Rules {
            every_value: true,
            misere: false,
        };
        let first = FirstFault::new();
        let rule = WindowRule::Bachet(3);
        check(&g, 3, &rule, 0, rules, &first, &Progress::hidden()).unwrap();
        assert!(first.take().is_none());
        let kept = rss(&g);
        assert!(
            kept <= 2 * PASS + 4 * RELEASE_ALIGN,
            "{kept} of {} bytes kept",
            2 * n
        );
    }
}
