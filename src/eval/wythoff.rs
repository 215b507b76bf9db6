//! Wythoff's game at one position (a, b): the outcome and the winning moves from the P-pairs,
//! exact for any heaps; the value G(a, b) from the rows of the table up to min(a, b), when that
//! takes seconds.

use super::{Change, Outcome, PositionEvaluation, PositionMove};
use crate::engine::wythoff::value;
use crate::error::{Error, Result};
use crate::game::wythoff::{is_p_position, winning_moves};

/// Evaluates the position (a, b) given as `heaps`.
pub fn evaluate(heaps: &[u64]) -> Result<PositionEvaluation> {
    let &[a, b] = heaps else {
        return Err(Error::Input(
            "wythoff has two heaps: give both, e.g. eval wythoff 5 8".into(),
        ));
    };
    let value = value(a, b).ok();
    let method = match value {
        Some(_) => {
            "P-pairs (⌊kφ⌋, ⌊kφ²⌋) in exact integers; G(a, b) from the table's rows up to min(a, b)"
        }
        None => {
            "P-pairs (⌊kφ⌋, ⌊kφ²⌋) in exact integers; G(a, b) not computed (its rows would take over 10 s)"
        }
    };
    let moves: Vec<PositionMove> = winning_moves(a, b)
        .into_iter()
        .map(|(x, y)| {
            let changes: Vec<Change> = [(0, a, x), (1, b, y)]
                .into_iter()
                .filter(|&(_, from, to)| from != to)
                .map(|(index, from, to)| Change { index, from, to })
                .collect();
            let says = match changes.as_slice() {
                [c] => format!("heap {}: {} -> {}", c.index, c.from, c.to),
                _ => format!("take {} from both heaps ({a}, {b} -> {x}, {y})", a - x),
            };
            PositionMove { changes, says }
        })
        .collect();
    Ok(PositionEvaluation {
        game: "wythoff".into(),
        position: vec![a, b],
        nim_heaps: None,
        value,
        method: method.into(),
        outcome: Outcome::of(is_p_position(a, b)),
        winning_move_count: Some(moves.len() as u64),
        winning_moves: moves,
        all_winning_moves: true,
    })
}
