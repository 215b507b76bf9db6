//! A take-and-break table whose JSON summary states a proven period: the positions that prove
//! it are checked by the definition ([`splits`]) and must prove it again, and every later
//! position is compared with the one a period before it, which the proof makes its value.

use super::{Fault, FirstFault, splits};
use crate::error::Result;
use crate::game::{Game, TakeBreak};
use crate::period::{self, Period};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use rayon::prelude::*;

/// The period `hint` with the number of positions that prove it for `game`, when those are
/// fewer than the table's `n` (otherwise the whole table is checked by the definition).
pub(super) fn proof(game: &Game, hint: Option<Period>, n: u64) -> Option<(Period, u64)> {
    let hint = hint?;
    let needs = game.period_criterion()?.proof_length(hint)?;
    (needs < n).then_some((hint, needs))
}

/// Checks `g` below `proof` by every split, then that those values prove `period`, then every
/// later value against the period; the cost as `nimsieve verify` prints it. When the verified
/// positions do not prove the period the summary states, the whole table is checked by
/// every split.
pub(super) fn check(
    g: &PackedValues,
    code: &TakeBreak,
    game: &Game,
    period: Period,
    proof: u64,
    first: &FirstFault,
    progress: &Progress,
) -> Result<String> {
    let head: Vec<u32> = (0..proof).map(|x| g.get(x)).collect();
    let cost = splits::check(&PackedValues::from_values(&head)?, code, first, progress)?;
    let criterion = game
        .period_criterion()
        .expect("a period's proof length came from the game's criterion");
    if first.found() {
        return Ok(cost);
    }
    if !period::proves(proof, |x| head[x as usize], &criterion, period) {
        return splits::check(g, code, first, progress);
    }
    let p = period.period;
    const BLOCK: u64 = 1 << 16;
    let n = g.len();
    (0..(n - proof).div_ceil(BLOCK))
        .into_par_iter()
        .for_each(|b| {
            let start = proof + b * BLOCK;
            // A table mapped from its file does not keep the blocks checked.
            let wrong = g.read_once(start..n.min(start + BLOCK), |mut block| {
                block.find(|&x| g.get(x) != g.get(x - p))
            });
            if let Some(x) = wrong.filter(|&x| !first.beyond(x)) {
                first.record(Fault::Periodic {
                    n: x,
                    value: g.get(x - p),
                    period: p,
                    preperiod: period.preperiod,
                    proof,
                });
            }
        });
    Ok(format!(
        "{cost} below {proof}, which prove the period {p} from {}; the {} positions after compared with those a period before",
        period.preperiod,
        g.len() - proof
    ))
}
