//! One-heap misère outcomes of take-and-break games through the misère quotient.
//!
//! A move of a take-and-break game can leave two heaps, a misère sum, so a heap's misère
//! outcome is not a function of the outcomes of single heaps. The quotient of the heaps below
//! a bound ([`Quotient`]) gives each heap an element, and heap h is a P-position when its
//! element lies in the P-portion. The quotient is computed for the first 1,024 heaps, then for
//! four times as many, until the period of the heaps' elements is proven or the quotient
//! covers every heap below n; past a proven period the outcomes are copied period by period.
//! Refused, in one line, where the quotient is.
//!
//! Cost: the quotient's (about n options a heap for an octal code, each heap proven on the
//! states it reaches), then one pass writing one bit a heap. Single-threaded.

use crate::error::{Error, Result};
use crate::game::{Game, Play};
use crate::misere::Quotient;
use crate::period::Period;
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};

/// The heaps of the first quotient tried.
const FIRST_HEAPS: u64 = 1 << 10;

/// True for the games this engine computes: take-and-break games in misère play, rules
/// written down whose moves split a heap among them.
pub fn applies(game: &Game) -> bool {
    let splits = game.take_break().is_some()
        || game
            .general()
            .is_some_and(|rules| rules.max_heaps().is_none_or(|most| most > 1));
    splits && game.play == Play::Misere
}

/// The misère outcomes (0 = P, 1 = N) of the single heaps 0..n of `game`, in memory or in the
/// memory-mapped `work_file`.
pub fn compute(
    game: &Game,
    n: u64,
    work_file: Option<&WorkFile>,
    progress: &Progress,
) -> Result<Table> {
    if !applies(game) {
        return Err(super::not_for(super::EngineKind::MisereQuotient, game));
    }
    let mut heaps = n.min(FIRST_HEAPS);
    let (quotient, period) = loop {
        let quotient =
            Quotient::for_table(&game.spec, heaps).map_err(|e| refused(game, heaps, e))?;
        let period = quotient.period().filter(|p| p.proven);
        if heaps == n || period.is_some() {
            break (quotient, period);
        }
        progress.set(heaps);
        heaps = n.min(heaps.saturating_mul(4));
    };
    let mut values = PackedValues::zeroed(n, 1, 1, work_file)?;
    for heap in 0..heaps {
        let x = quotient
            .element(heap)
            .expect("a heap below the quotient's bound");
        values.set(heap, u32::from(!quotient.is_p(x)));
    }
    if let Some(p) = period {
        values.extend_periodically(heaps, Period::pure(p.preperiod, p.period));
    }
    progress.set(n);
    Ok(Table {
        kind: ValueKind::MisereOutcome,
        values,
        period: None,
        shape: crate::table::Shape::Line,
    })
}

/// The one-line refusal when the quotient of the heaps below `n` is refused (an interruption
/// passes unchanged).
fn refused(game: &Game, n: u64, e: Error) -> Error {
    match e {
        Error::Limit(reason) => Error::Limit(crate::text!(
            format!(
                "{}: the one-heap misère outcomes come from the misère quotient, which is refused: ",
                game.spec
            ),
            reason,
            "; use a smaller ",
            crate::error::Param::Size,
            " (",
            crate::error::Command::new("misere", &game.spec).with(crate::error::Param::Size, n),
            " shows the quotient)",
        )),
        other => other,
    }
}
