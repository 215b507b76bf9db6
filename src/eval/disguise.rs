//! Nim in disguise: games whose positions map to Nim heaps, so that the nim-sum decides them
//! and Nim's winning moves, translated back, are theirs.
//!
//! - Staircase Nim: coins on steps 1, 2, …; a move takes coins from a step to the one below.
//!   The heaps are the odd steps: a move from an odd step lowers its heap, a move from an even
//!   step onto an odd one raises it, and a move from an odd step is undone by moving the same
//!   coins on from the even step below.
//! - Northcott's game: the heaps are the gaps between the two checkers of each row; a move
//!   that widens a gap is undone by the other player, who closes it again.
//! - Nimble: a heap per coin, the square it stands on (coins never interact).
//! - Poker Nim: Nim, since an addition is undone by taking it back; the supply is finite, so
//!   the game ends.
//! - Turning Turtles: a heap per head, its place counted from 1; turning a second coin at
//!   place m moves heap n to m (two heads at m cancel, as two heaps of m do).

use super::{Change, Outcome, PositionEvaluation, PositionMove};
use crate::error::{Error, Result};

/// The nim-sum of `heaps`.
fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |acc, h| acc ^ h)
}

/// A position evaluated through the Nim heaps it maps to.
fn through_nim(
    game: &str,
    position: Vec<u64>,
    nim_heaps: Vec<u64>,
    mapping: &str,
    mut winning_moves: Vec<PositionMove>,
) -> PositionEvaluation {
    let value = nim_sum(&nim_heaps);
    winning_moves.sort();
    PositionEvaluation {
        game: game.into(),
        position,
        nim_heaps: Some(nim_heaps),
        value: Some(value),
        method: mapping.into(),
        outcome: Outcome::of(value == 0),
        winning_move_count: Some(winning_moves.len() as u64),
        winning_moves,
        all_winning_moves: true,
    }
}

/// Staircase Nim; `coins[i]` is the number of coins on step i + 1.
pub fn staircase(coins: &[u64]) -> PositionEvaluation {
    let odd: Vec<u64> = coins.iter().step_by(2).copied().collect();
    let s = nim_sum(&odd);
    let mut moves = Vec::new();
    let mut push = |step: usize, count: u64| {
        let mut changes = vec![Change {
            index: step - 1,
            from: coins[step - 1],
            to: coins[step - 1] - count,
        }];
        if step > 1 {
            changes.insert(
                0,
                Change {
                    index: step - 2,
                    from: coins[step - 2],
                    to: coins[step - 2] + count,
                },
            );
        }
        let below = match step {
            1 => "the ground".to_string(),
            _ => format!("step {}", step - 1),
        };
        moves.push(PositionMove {
            changes,
            says: format!(
                "move {count} coin{} from step {step} to {below}",
                if count == 1 { "" } else { "s" }
            ),
        });
    };
    if s != 0 {
        for (i, &c) in coins.iter().enumerate() {
            let step = i + 1;
            if step % 2 == 1 && c ^ s < c {
                push(step, c - (c ^ s));
            } else if step % 2 == 0 {
                // Onto the odd step below, raising its heap.
                let below = coins[i - 1];
                if below ^ s > below && (below ^ s) - below <= c {
                    push(step, (below ^ s) - below);
                }
            }
        }
    }
    through_nim(
        "staircase",
        coins.to_vec(),
        odd,
        "staircase Nim is Nim on the odd steps",
        moves,
    )
}

/// Northcott's game; each argument `W,B` gives the columns of a row's two checkers.
pub fn northcott(rows: &[String]) -> Result<PositionEvaluation> {
    let gaps = rows
        .iter()
        .map(|row| {
            let bad = || {
                Error::Input(format!(
                    "northcott: '{row}' is not a row; write each row as W,B, the columns of its two checkers (e.g. 1,6)"
                ))
            };
            let (w, b) = row.split_once(',').ok_or_else(bad)?;
            let column = |t: &str| crate::number::parse_u64(t.trim()).map_err(|_| bad());
            let (w, b) = (column(w)?, column(b)?);
            if w == b {
                return Err(Error::Input(format!(
                    "northcott: row '{row}' puts both checkers on column {w}; they stand on different squares"
                )));
            }
            Ok(w.abs_diff(b) - 1)
        })
        .collect::<Result<Vec<u64>>>()?;
    let s = nim_sum(&gaps);
    let moves = gaps
        .iter()
        .enumerate()
        .filter(|&(_, &g)| g ^ s < g)
        .map(|(i, &g)| PositionMove {
            changes: vec![Change {
                index: i,
                from: g,
                to: g ^ s,
            }],
            says: format!(
                "row {}: move your checker {} squares toward the other (gap {g} -> {})",
                i + 1,
                g - (g ^ s),
                g ^ s
            ),
        })
        .collect();
    Ok(through_nim(
        "northcott",
        gaps.clone(),
        gaps,
        "Northcott's game is Nim on the gaps between the checkers (a widened gap is closed again)",
        moves,
    ))
}

/// Nimble; `squares[i]` is the square of coin i.
pub fn nimble(squares: &[u64]) -> PositionEvaluation {
    let s = nim_sum(squares);
    let moves = squares
        .iter()
        .enumerate()
        .filter(|&(_, &q)| q ^ s < q)
        .map(|(i, &q)| PositionMove {
            changes: vec![Change {
                index: i,
                from: q,
                to: q ^ s,
            }],
            says: format!("move coin {} from square {q} to square {}", i + 1, q ^ s),
        })
        .collect();
    through_nim(
        "nimble",
        squares.to_vec(),
        squares.to_vec(),
        "Nimble is Nim with a heap per coin, the number of its square",
        moves,
    )
}

/// Poker Nim; the moves that add objects need them in the player's supply.
pub fn poker_nim(heaps: &[u64]) -> PositionEvaluation {
    let s = nim_sum(heaps);
    let moves = match s {
        0 => Vec::new(),
        _ => heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                let to = h ^ s;
                let says = match to < h {
                    true => format!("heap {i}: take {} ({h} -> {to})", h - to),
                    false => format!(
                        "heap {i}: add {} from your supply, if you hold them ({h} -> {to})",
                        to - h
                    ),
                };
                PositionMove {
                    changes: vec![Change {
                        index: i,
                        from: h,
                        to,
                    }],
                    says,
                }
            })
            .collect(),
    };
    through_nim(
        "poker-nim",
        heaps.to_vec(),
        heaps.to_vec(),
        "Poker Nim is Nim (an addition is undone by taking it away)",
        moves,
    )
}

/// Turning Turtles; the arguments spell the row with H (heads) and T (tails), e.g. `THHTH`.
pub fn turning_turtles(args: &[String]) -> Result<PositionEvaluation> {
    let row: String = args.concat();
    let coins = row
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            'H' => Ok(1),
            'T' => Ok(0),
            _ => Err(Error::Input(format!(
                "turning-turtles: '{c}' is not a coin; write the row with H (heads) and T (tails), e.g. THHTH"
            ))),
        })
        .collect::<Result<Vec<u64>>>()?;
    if coins.is_empty() {
        return Err(Error::Input(
            "turning-turtles: the row is empty; write it with H and T, e.g. THHTH".into(),
        ));
    }
    let heads: Vec<u64> = (1..=coins.len() as u64)
        .filter(|&place| coins[place as usize - 1] == 1)
        .collect();
    let s = nim_sum(&heads);
    let moves = heads
        .iter()
        .filter(|&&n| n ^ s < n)
        .map(|&n| {
            let m = n ^ s;
            let mut changes = vec![Change {
                index: n as usize - 1,
                from: 1,
                to: 0,
            }];
            let says = match m {
                0 => format!("turn coin {n} to tails"),
                _ => {
                    let c = coins[m as usize - 1];
                    changes.insert(
                        0,
                        Change {
                            index: m as usize - 1,
                            from: c,
                            to: 1 - c,
                        },
                    );
                    let side = if c == 1 { "tails" } else { "heads" };
                    format!("turn coin {n} to tails and coin {m} to {side}")
                }
            };
            PositionMove { changes, says }
        })
        .collect();
    Ok(through_nim(
        "turning-turtles",
        coins,
        heads,
        "Turning Turtles is Nim with a heap per head, its place counted from 1",
        moves,
    ))
}
