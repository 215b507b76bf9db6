//! Fibonacci Nim: one heap of n; the first move takes at least one object but not all, each
//! later move at least one and at most twice the previous move. Whoever takes the last object
//! wins. Whinihan (1963): with at most L to take, the player to move loses iff the smallest
//! term of n's Zeckendorf representation (n as a sum of non-consecutive Fibonacci numbers)
//! exceeds L; the winning move takes that smallest term when it is allowed.

use super::{Change, Outcome, PositionEvaluation, PositionMove};
use crate::error::{Error, Param, Result};
use crate::text;

/// Positions whose takes number at most this have every winning move listed and counted.
const ENUMERATED: u64 = 1 << 22;

/// The smallest term of the Zeckendorf representation of n ≥ 1.
pub fn smallest_zeckendorf_term(n: u64) -> u64 {
    let mut fib = vec![1u64, 2];
    while let Some(next) = fib[fib.len() - 1].checked_add(fib[fib.len() - 2]) {
        if next > n {
            break;
        }
        fib.push(next);
    }
    let mut rest = n;
    let mut smallest = n;
    for &f in fib.iter().rev() {
        if f <= rest {
            rest -= f;
            smallest = f;
        }
    }
    smallest
}

/// The most a move may take from `n` after a take of `last` (None: the first move).
pub fn allowed(n: u64, last: Option<u64>) -> u64 {
    match last {
        None => n.saturating_sub(1),
        Some(m) => m.saturating_mul(2).min(n),
    }
}

/// True when the player to move from `n`, allowed to take up to `limit`, loses.
pub fn is_p(n: u64, limit: u64) -> bool {
    n == 0 || smallest_zeckendorf_term(n) > limit
}

/// Evaluates a heap of `n` after a take of `last` (None: before the first move).
pub fn evaluate(n: u64, last: Option<u64>) -> Result<PositionEvaluation> {
    if last == Some(0) {
        return Err(Error::invalid(
            Param::Last,
            text!(
                "fibonacci-nim: ",
                Param::Last,
                " is the number the previous move took, at least 1"
            ),
        ));
    }
    let limit = allowed(n, last);
    let p = is_p(n, limit);
    let take = |x: u64| PositionMove {
        changes: vec![Change {
            index: 0,
            from: n,
            to: n - x,
        }],
        says: format!("take {x} ({n} -> {})", n - x),
    };
    let wins = |x: u64| is_p(n - x, allowed(n - x, Some(x)));
    let (moves, count) = match (p, limit <= ENUMERATED) {
        (true, _) => (Vec::new(), Some(0)),
        (false, true) => {
            let moves: Vec<PositionMove> = (1..=limit).filter(|&x| wins(x)).map(take).collect();
            let count = moves.len() as u64;
            (moves, Some(count))
        }
        (false, false) => (vec![take(smallest_zeckendorf_term(n))], None),
    };
    Ok(PositionEvaluation {
        game: "fibonacci-nim".into(),
        position: vec![n],
        nim_heaps: None,
        value: None,
        method: format!(
            "Zeckendorf: P iff the smallest term of n's Zeckendorf sum exceeds the most that may be taken ({limit})"
        ),
        outcome: Outcome::of(p),
        all_winning_moves: count.is_some(),
        winning_move_count: count,
        winning_moves: moves,
    })
}
