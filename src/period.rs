//! Exact periodicity of value sequences, proven from a finite table by a criterion that the
//! game's recurrence justifies ([`Criterion`]).
//!
//! For a finite subtraction set with largest element m, g(x) is a fixed function of
//! g(x−m..x) once every step is legal at x (x ≥ `uniform_from`). Then if g(x+p) = g(x) on a
//! window of m consecutive positions x0..x0+m with x0 + m ≥ `uniform_from`, it holds for every
//! x ≥ x0 (induction). For a take-and-break code whose largest removal is t, Guy and Smith's
//! criterion applies instead: with m = max(n0, 1), g(n + p) = g(n) for n0 ≤ n < 2·m + p + t
//! proves it for every n ≥ n0 (a split of n + p ≥ 2·m + 2p + t, less j ≤ t, has a part of at
//! least m + p, which shifts down by p to a part of at least n0 that is not empty; a split of
//! n has a part of at least n0, which shifts up). When a move may split into three heaps, the
//! largest part of a split of n + p − j is only a third of it: n0 ≤ n < 3·m + 2p + t proves
//! the period (n + p ≥ 3·m + 3p + t leaves a part of at least m + p; a split of n ≥ 3·m + 2p +
//! t leaves a part of at least n0). The search
//! below returns the smallest period proven and the smallest preperiod for it; a sequence
//! proven periodic with some period is proven with its smallest, since the smallest needs no
//! more data.
//!
//! A period may be arithmetic: g(x + p) = g(x) + s past the preperiod, with a saltus s > 0
//! (Lasker's Nim: p = 4, s = 4). Neither criterion here ever proves one, and the search looks
//! for pure periods only, because no game they apply to has one: a finite subtraction set's
//! values are at most its number of elements, and a finite octal code is never arithmetic
//! periodic (Austin 1976; Horrocks and Nowakowski, *Integers* 3 (2003) G1). The `+unequal`
//! codes, which are not octal games, are not covered by that theorem; no saltus is accepted for
//! them either, so the only arithmetic periods reported are the ones a closed form gives
//! (`Game::proven_period`). A saltus claimed for a game of either criterion (a checkpoint, say)
//! is refused: [`Criterion::proof_length`] is None for it.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// A proven eventual period: g(x + period) = g(x) + saltus for every x ≥ preperiod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    /// The smallest x0 from which the sequence repeats.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
    /// What a period adds to every value: 0 for a pure period (and for records written before
    /// arithmetic periods, which have no such field).
    #[serde(default)]
    pub saltus: u64,
}

impl Period {
    /// The pure period `period` from `preperiod` (saltus 0).
    pub const fn pure(preperiod: u64, period: u64) -> Period {
        Period {
            preperiod,
            period,
            saltus: 0,
        }
    }

    /// g(x) from the values `value` gives below `known` (which hold the preperiod and a whole
    /// period): x itself below `known`, else moved back by whole periods into them, each adding
    /// the saltus. None when the value passes 2^64 − 1.
    pub fn value_at(&self, x: u64, known: u64, value: impl Fn(u64) -> u32) -> Option<u64> {
        if x < known {
            return Some(u64::from(value(x)));
        }
        let back = (x - known) / self.period + 1;
        let from = u128::from(value(x - back * self.period));
        u64::try_from(from + u128::from(back) * u128::from(self.saltus)).ok()
    }
}

/// What proves a period from a finite table of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Criterion {
    /// g(x) is a fixed function of the `window` values before it from `uniform_from` on
    /// (finite subtraction sets).
    Window {
        /// How far back the recurrence looks.
        window: u64,
        /// The first position from which every move is legal.
        uniform_from: u64,
    },
    /// A take-and-break code whose largest removal is `last_removal` and whose moves leave at
    /// most `parts` heaps (Guy–Smith, for 2; its extension above, for 3).
    ///
    /// With `unequal_splits` (the removals after which a split must leave two different
    /// heaps, `+unequal`), shifting a split of n + p down by p can give an equal split, which
    /// is forbidden: n + p has the option (a, a + p), of value 0 once a ≥ n0, where n has no
    /// option (a, a). The values then agree unless g(n) = 0 and n − j is even for such a j,
    /// so a period is accepted only when no zero of its periodic part meets that: none when
    /// p is odd (n and n + p take both parities), none with x − j even when p is even.
    TakeBreak {
        /// The largest number of objects a move removes.
        last_removal: u64,
        /// The most heaps a split leaves: 2, or 3 for hexadecimal codes with a digit of 8 or
        /// more.
        parts: u64,
        /// The removals j followed by a split that must be unequal (empty without `+unequal`).
        unequal_splits: Vec<u64>,
    },
}

impl Criterion {
    /// The fewest positions that prove a period `p` from `preperiod`; None when they are more
    /// than 2^64 − 1, so that no table proves it (a set element near 2^64, say), and for an
    /// arithmetic period, which neither criterion proves (see the module's documentation).
    pub fn proof_length(&self, p: Period) -> Option<u64> {
        if p.saltus != 0 {
            return None;
        }
        let [preperiod, period] = [p.preperiod, p.period].map(u128::from);
        let length = match *self {
            Criterion::Window {
                window,
                uniform_from,
            } => {
                let start = preperiod.max(u128::from(uniform_from.saturating_sub(window)));
                start + u128::from(window.max(1)) + period
            }
            Criterion::TakeBreak {
                last_removal,
                parts,
                ..
            } => {
                // A part shifted down by the period must stay non-empty: from preperiod 0 the
                // proof is that from 1.
                let parts = u128::from(parts);
                parts * preperiod.max(1) + parts * period + u128::from(last_removal)
            }
        };
        u64::try_from(length).ok()
    }

    /// True when `len` values prove the period `p` from its preperiod.
    fn proves(&self, p: Period, len: u64) -> bool {
        self.proof_length(p).is_some_and(|needs| needs <= len)
    }

    /// True when the periodic part's values allow the induction (see [`Criterion::TakeBreak`]).
    fn admits(&self, p: Period, value: &(impl Fn(u64) -> u32 + Sync)) -> bool {
        let Criterion::TakeBreak { unequal_splits, .. } = self else {
            return true;
        };
        if unequal_splits.is_empty() {
            return true;
        }
        let span = p.preperiod..p.preperiod + p.period;
        !span.into_par_iter().any(|x| {
            value(x) == 0
                && (!p.period.is_multiple_of(2)
                    || unequal_splits.iter().any(|j| (x + j).is_multiple_of(2)))
        })
    }
}

/// Finds the smallest proven period of `values`, whose recurrence looks back at most `window`
/// positions and is the same at every x ≥ `uniform_from`; None when `values` is too short to
/// prove any period.
pub fn find(values: &[u32], window: u64, uniform_from: u64) -> Option<Period> {
    find_by(
        values.len() as u64,
        |x| values[x as usize],
        &Criterion::Window {
            window,
            uniform_from,
        },
    )
}

/// The smallest period that `criterion` proves from the `len` values given by `value` (a
/// packed table, say), with its smallest preperiod. Candidate periods are tried in parallel;
/// each is rejected at its last mismatch, which for a wrong period lies near the end.
pub fn find_by(
    len: u64,
    value: impl Fn(u64) -> u32 + Sync,
    criterion: &Criterion,
) -> Option<Period> {
    (1..len)
        .into_par_iter()
        .find_map_first(|p| proven(len, p, len, &value, criterion, &|_| ()).0.ok())
}

/// What [`find_in`] learns from a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// The smallest period the table proves, with its smallest preperiod.
    Proven(Period),
    /// No period is proven. With a length: the shortest table that may prove one of the
    /// candidates this table leaves open (each held since its last mismatch; a longer table
    /// may still refute it).
    Unproven(Option<u64>),
}

impl Finding {
    /// The period proven, if any.
    pub fn proven(self) -> Option<Period> {
        match self {
            Finding::Proven(period) => Some(period),
            Finding::Unproven(_) => None,
        }
    }
}

/// True when `criterion` proves the period `p` (from its preperiod, or an earlier one) from the
/// `len` values `value` gives.
pub fn proves(
    len: u64,
    value: impl Fn(u64) -> u32 + Sync,
    criterion: &Criterion,
    p: Period,
) -> bool {
    p.period < len
        && matches!(proven(len, p.period, len, &value, criterion, &|_| ()).0, Ok(found) if found.preperiod <= p.preperiod)
}

/// Positions a candidate period is compared over before the stretch is passed on as read: a
/// proof that compares a table back to its preperiod holds a stretch of it at a time.
const COMPARED: u64 = 1 << 22;
/// Candidate periods [`find_in`] screens at once.
const SCREENED: u64 = 64;
/// Positions at the end of the table that screen a candidate.
const SCREENING: u64 = 8;
/// Chunks of candidates in a wave at most (2^22 candidates), so that the positions a wave
/// reads before `passed` hears of them stay a piece of the table. A wave no longer than its
/// start still leaves the multiples of its candidates to later waves.
const WAVE_MOST: u64 = 1 << 16;

/// As [`find_by`], for a table held as a slice: candidates are screened 64 at a time against
/// the last few values, which the compiler vectorises; only the survivors get the full test.
/// A candidate p with g(x) ≠ g(x + p), x + p = len − 1 − i, needs a preperiod past x; the
/// screening looks only at the i (at most [`SCREENING`]) for which that makes the proof longer
/// than the table whatever p is (a proof's length grows with the preperiod, and with
/// preperiod len − i − p it does not depend on p beyond what p = 1 gives). `passed(range)` is
/// told of the positions each wave of candidates screened, once it is done (a table in a
/// memory-mapped file drops them; later candidates read them again only where a proof goes on).
pub fn find_in<V: Copy + Into<u32> + PartialEq + Sync>(
    values: &[V],
    criterion: &Criterion,
    passed: &(dyn Fn(Range<u64>) + Sync),
) -> Finding {
    search(values, criterion, Holders::MOST, passed)
}

/// [`find_in`], listing at most `holders` candidates that hold over long stretches (0
/// lists none: every candidate is compared from the end of the table).
fn search<V: Copy + Into<u32> + PartialEq + Sync>(
    values: &[V],
    criterion: &Criterion,
    holders: usize,
    passed: &(dyn Fn(Range<u64>) + Sync),
) -> Finding {
    let len = values.len() as u64;
    let value = |x: u64| -> u32 { values[x as usize].into() };
    let depth = (0..SCREENING.min(len / 4))
        .take_while(|&i| {
            let mismatched = Period::pure(len - i - 1, 1);
            !criterion.proves(mismatched, len)
        })
        .count() as u64;
    // The shortest proof of a candidate left open, as the candidates are tested.
    let open = AtomicU64::new(u64::MAX);
    let test = |p: u64, known_from: u64| {
        let (result, holds_from) = proven(len, p, known_from, &value, criterion, passed);
        if let Err(needs) = result {
            open.fetch_min(needs.unwrap_or(u64::MAX), Ordering::Relaxed);
        }
        (result.ok(), holds_from)
    };
    let found = if len < 4 * SCREENED || depth == 0 {
        (1..len).into_par_iter().find_map_first(|p| test(p, len).0)
    } else {
        screened(values, criterion, depth, holders, test, passed)
    };
    match (found, open.into_inner()) {
        (Some(period), _) => Finding::Proven(period),
        (None, u64::MAX) => Finding::Unproven(None),
        (None, needs) => Finding::Unproven(Some(needs)),
    }
}

/// The first candidate period that `test` proves, among those that the last `depth` values
/// of the table do not refute. `test(p, known_from)` is told from where p is known to hold
/// and answers the period proven and from where p holds.
///
/// Candidates go in waves of chunks [0, 1), [1, 2), [2, 4), [4, 8), … (then [`WAVE_MOST`]
/// chunks a wave), each wave's chunks in parallel: the multiples of a wave's candidates lie in
/// later waves, which then know from where they hold ([`Holders`]).
fn screened<V: Copy + Into<u32> + PartialEq + Sync>(
    values: &[V],
    criterion: &Criterion,
    depth: u64,
    most_holders: usize,
    test: impl Fn(u64, u64) -> (Option<Period>, u64) + Sync,
    passed: &(dyn Fn(Range<u64>) + Sync),
) -> Option<Period> {
    let len = values.len() as u64;
    // The longest candidate whose proof, from preperiod 0, fits in the table (proofs grow with
    // the period).
    let fits = |p: u64| {
        let shortest = Period::pure(0, p);
        criterion.proves(shortest, len)
    };
    let last = partition_point(1, len, fits) - 1;
    let chunks = last.div_ceil(SCREENED);
    let mut holders = Holders::new(most_holders);
    let mut wave = 0..chunks.min(1);
    while !wave.is_empty() {
        let noted = Mutex::new(Vec::new());
        let found = wave.clone().into_par_iter().find_map_first(|c| {
            let first = 1 + c * SCREENED;
            let count = SCREENED.min(last + 1 - first);
            let alive = survivors(values, first, count, depth);
            let mut local = holders.clone();
            let listed = local.list.len();
            let found = (0..count).filter(|k| alive >> k & 1 == 1).find_map(|k| {
                let p = first + k;
                let (found, holds_from) = test(p, local.known_from(p, len));
                local.note(p, holds_from, len);
                found
            });
            noted
                .lock()
                .unwrap()
                .extend_from_slice(&local.list[listed..]);
            found
        });
        if found.is_some() {
            return found;
        }
        for (p, from) in noted.into_inner().unwrap() {
            holders.note(p, from, len);
        }
        // The wave's candidates p screened g(len − 1 − i − p), i < depth.
        passed(len.saturating_sub(wave.end * SCREENED + depth)..len - wave.start * SCREENED - 1);
        wave = wave.end..chunks.min(wave.end + wave.end.min(WAVE_MOST));
    }
    None
}

/// The bit mask of the `count` candidates `first + k` that the last `depth` values of the
/// table do not refute: bit k is set when g(end − p) = g(end) for each of those ends.
fn survivors<V: Copy + PartialEq>(values: &[V], first: u64, count: u64, depth: u64) -> u64 {
    let len = values.len() as u64;
    let mut alive = u64::MAX >> (64 - count);
    // Screening reads g(len − 1 − i − p), so the longest candidates go unscreened.
    if first + count + depth > len {
        return alive;
    }
    for i in 0..depth {
        let end = len - 1 - i;
        let at_end = values[end as usize];
        let partners = &values[(end + 1 - first - count) as usize..=(end - first) as usize];
        let equal = partners
            .iter()
            .rev()
            .enumerate()
            .fold(0u64, |m, (k, &v)| m | u64::from(v == at_end) << k);
        alive &= equal;
        if alive == 0 {
            break;
        }
    }
    alive
}

/// The first x in [lo, hi) where `pred` turns false (`pred` true then false), or hi.
fn partition_point(mut lo: u64, mut hi: u64, pred: impl Fn(u64) -> bool) -> u64 {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The period p with its smallest preperiod, when `criterion` proves it from `len` values.
/// Otherwise, when p holds from its last mismatch to the end, the length of table its proof
/// needs; None when p is not tested (even its shortest proof is longer than the table), its
/// proof is longer than any table, or the values it repeats rule it out. Beside it, the first
/// x from which g(x) = g(x + p) holds to the end of the table (len − p when p is not tested).
/// The values are known to repeat with period p from `known_from` on, so that only the
/// positions below it are compared, [`COMPARED`] at a time: `passed` is told of each stretch
/// compared without a mismatch and of the stretch one period later.
fn proven(
    len: u64,
    p: u64,
    known_from: u64,
    value: &(impl Fn(u64) -> u32 + Sync),
    criterion: &Criterion,
    passed: &(dyn Fn(Range<u64>) + Sync),
) -> (Result<Period, Option<u64>>, u64) {
    let shortest = Period::pure(0, p);
    if !criterion.proves(shortest, len) {
        return (Err(None), len - p);
    }
    // The last x whose value differs one period later.
    let mut end = known_from.min(len - p);
    let last_mismatch = loop {
        let start = end.saturating_sub(COMPARED);
        if let Some(x) = (start..end).rev().find(|&x| value(x) != value(x + p)) {
            break Some(x);
        }
        passed(start..end);
        passed(start + p..end + p);
        if start == 0 {
            break None;
        }
        end = start;
    };
    let found = Period::pure(last_mismatch.map_or(0, |x| x + 1), p);
    let result = match criterion.proof_length(found) {
        Some(needs) if needs > len => Err(Some(needs)),
        Some(_) if criterion.admits(found, value) => Ok(found),
        _ => Err(None),
    };
    (result, found.preperiod)
}

/// Candidate periods that held over a long stretch at the end of the table, each with the
/// first x from which it holds: a candidate d holding for x ≥ h makes every multiple kd hold
/// there too (g(x) = g(x + d) = … = g(x + kd)), so a multiple is compared only below h. A
/// periodic table's true period, and every multiple of it, holds back to the preperiod, so
/// without this every multiple would be compared over the whole periodic stretch.
#[derive(Clone)]
struct Holders {
    /// The candidates listed, each with the first x from which it holds.
    list: Vec<(u64, u64)>,
    /// The most candidates listed.
    most: usize,
}

impl Holders {
    /// Holders listed at most by [`find_in`]; the list is read for every candidate tested.
    const MOST: usize = 64;
    /// The shortest stretch worth listing.
    const LONG: u64 = 1024;

    /// No candidates yet, and room for `most`.
    fn new(most: usize) -> Holders {
        Holders {
            list: Vec::new(),
            most,
        }
    }

    /// The first x from which candidate `p` is known to hold, by the listed divisors of p
    /// (`len` when none is listed).
    fn known_from(&self, p: u64, len: u64) -> u64 {
        self.list
            .iter()
            .filter(|&&(d, _)| p.is_multiple_of(d))
            .map(|&(_, h)| h)
            .fold(len, u64::min)
    }

    /// Lists `p`, holding from `from` in a table of `len` values, when that stretch is long
    /// and no listed divisor already holds from as far back.
    fn note(&mut self, p: u64, from: u64, len: u64) {
        if self.list.len() < self.most
            && len - p - from >= Self::LONG
            && from < self.known_from(p, len)
        {
            self.list.push((p, from));
        }
    }
}

#[cfg(test)]
mod tests;

/// The smallest period, pure or arithmetic, that `values` appear to have: g(x + p) = g(x) + s
/// over the second half of the table, p repeating there at least three times, from the
/// earliest position it holds back to. What a table suggests, never a proof: for rules whose
/// moves no criterion bounds (repeating tails, infinite sets, rules written as functions).
/// None when no such period holds.
pub fn apparent(values: &[u32]) -> Option<Period> {
    let n = values.len();
    let half = n / 2;
    let step = |p: usize, x: usize| i64::from(values[x + p]) - i64::from(values[x]);
    let (period, saltus) = (1..=half / 3).find_map(|p| {
        let s = step(p, half);
        (s >= 0 && (half..n - p).all(|x| step(p, x) == s)).then_some((p, s))
    })?;
    let mut preperiod = half;
    while preperiod > 0 && step(period, preperiod - 1) == saltus {
        preperiod -= 1;
    }
    Some(Period {
        preperiod: preperiod as u64,
        period: period as u64,
        saltus: saltus as u64,
    })
}
