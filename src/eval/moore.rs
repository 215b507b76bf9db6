//! Moore's Nim_k: a move takes objects from at least one and at most k heaps. Moore (1910):
//! a position is P iff, for every bit, the number of heaps with that bit set is a multiple of
//! k + 1.
//!
//! A winning move from an N-position, bit by bit from the top: heaps already lowered at a
//! higher bit (f of them) may take any lower bits. Where r = (ones among the other heaps) mod
//! (k + 1) is not 0, clear the bit in r more heaps that have it when r + f ≤ k (they join the
//! lowered heaps); otherwise set it in k + 1 − r of the lowered heaps (there are enough, since
//! f ≥ k + 1 − r). Every changed heap drops at its first changed bit, and at most k change.

use super::{Change, Outcome, PositionEvaluation, PositionMove};
use crate::error::{Error, Result};

/// Positions with at most this many smaller positions have every winning move listed and
/// counted, by trying each.
const ENUMERATED: u128 = 1 << 20;

/// The most winning moves listed.
const LISTED: usize = 10_000;

/// k + 1, the modulus of the column sums (2^64 for k = 2^64 − 1).
fn modulus(k: u64) -> u128 {
    u128::from(k) + 1
}

/// True when every binary column sum of `heaps` is a multiple of k + 1.
pub fn is_p(k: u64, heaps: &[u64]) -> bool {
    (0..64).all(|bit| {
        let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u128;
        ones.is_multiple_of(modulus(k))
    })
}

/// Evaluates `heaps` in Moore's Nim_k.
pub fn evaluate(k: u64, heaps: &[u64]) -> Result<PositionEvaluation> {
    if heaps.is_empty() {
        return Err(Error::Input(
            "moore: give at least one heap, e.g. eval moore:2 15 8 3 1".into(),
        ));
    }
    let p = is_p(k, heaps);
    // Past u128 (more than 64 heaps, say), far more than are enumerated.
    let positions_below = (heaps.iter()).try_fold(1u128, |p, &h| p.checked_mul(u128::from(h) + 1));
    let enumerated = positions_below.is_some_and(|p| p <= ENUMERATED);
    let (mut moves, count) = match (p, enumerated) {
        (true, _) => (Vec::new(), Some(0)),
        (false, true) => {
            let (moves, count) = every_winning_move(k, heaps);
            (moves, Some(count))
        }
        (false, false) => (vec![winning_move(k, heaps)], None),
    };
    let all = count.is_some_and(|c| c as usize == moves.len());
    moves.sort();
    Ok(PositionEvaluation {
        game: format!("moore:{k}"),
        position: heaps.to_vec(),
        nim_heaps: None,
        value: None,
        method: format!(
            "Moore's theorem: P iff every binary column sum is 0 mod {}",
            modulus(k)
        ),
        outcome: Outcome::of(p),
        winning_moves: moves.into_iter().map(|m| describe(heaps, m)).collect(),
        winning_move_count: count,
        all_winning_moves: all,
    })
}

/// The move of Moore's construction from an N-position: the heaps after it.
pub fn winning_move(k: u64, heaps: &[u64]) -> Vec<u64> {
    let mut after = heaps.to_vec();
    let mut lowered = vec![false; heaps.len()];
    for bit in (0..64).rev() {
        let has = |h: u64| h >> bit & 1 == 1;
        let fixed_ones = (0..heaps.len())
            .filter(|&i| !lowered[i] && has(after[i]))
            .count() as u128;
        let r = fixed_ones % modulus(k);
        let f = lowered.iter().filter(|&&l| l).count() as u128;
        // The lowered heaps take this bit as the column needs.
        let free: Vec<usize> = (0..heaps.len()).filter(|&i| lowered[i]).collect();
        free.iter().for_each(|&i| after[i] &= !(1 << bit));
        if r == 0 {
            continue;
        }
        if r + f <= u128::from(k) {
            let to_clear: Vec<usize> = (0..heaps.len())
                .filter(|&i| !lowered[i] && has(after[i]))
                .take(r as usize)
                .collect();
            for i in to_clear {
                after[i] &= !(1 << bit);
                lowered[i] = true;
            }
        } else {
            for &i in free.iter().take((modulus(k) - r) as usize) {
                after[i] |= 1 << bit;
            }
        }
    }
    after
}

/// Every winning move of a small position (each as the heaps after it, at most [`LISTED`]),
/// and how many there are.
fn every_winning_move(k: u64, heaps: &[u64]) -> (Vec<Vec<u64>>, u64) {
    let mut moves = Vec::new();
    let mut count = 0;
    let mut after = vec![0u64; heaps.len()];
    loop {
        let changed = after.iter().zip(heaps).filter(|(a, h)| a != h).count() as u64;
        if (1..=k).contains(&changed) && is_p(k, &after) {
            count += 1;
            if moves.len() < LISTED {
                moves.push(after.clone());
            }
        }
        // The next position below the heaps, as an odometer.
        let Some(i) = (0..after.len()).find(|&i| after[i] < heaps[i]) else {
            break;
        };
        after[i] += 1;
        after[..i].iter_mut().for_each(|a| *a = 0);
    }
    (moves, count)
}

/// A move as the heaps it changes.
fn describe(heaps: &[u64], after: Vec<u64>) -> PositionMove {
    let changes: Vec<Change> = heaps
        .iter()
        .zip(&after)
        .enumerate()
        .filter(|(_, (h, a))| h != a)
        .map(|(index, (&from, &to))| Change { index, from, to })
        .collect();
    let says = changes
        .iter()
        .map(|c| format!("heap {}: {} -> {}", c.index, c.from, c.to))
        .collect::<Vec<_>>()
        .join(", ");
    PositionMove { changes, says }
}
