//! What a run of a game of two heaps (Wythoff's) needs besides a one-heap run's: the
//! parameters of one-heap runs refused, the side of its square (or the bound of its P-pairs)
//! checked, and the room on disk for its outputs checked before it starts, since the size of
//! each is known (for the square, its least).

use super::{Listing, Request, Run};
use crate::engine::EngineKind;
use crate::engine::wythoff::MAX_SIDE;
use crate::error::{Error, Param, Result, Text};
use crate::format::two_heaps::{check_room, pair_bytes, square_bytes};
use crate::format::{Destination, Format};
use crate::game::wythoff::LARGEST_PAIRS_BOUND;
use crate::report::{RunInfo, SquareReport};
use crate::table::packed::PackedValues;
use crate::table::{Shape, Table, ValueKind};
use crate::text;
use std::path::Path;

/// Refuses the parameters of one-heap runs (a forced engine of one heap, `until_period`, a
/// modulus, an offset, resuming and checkpoints), each with one line saying why, and a side or
/// bound past what the files hold.
pub(super) fn check(request: &Request) -> Result<()> {
    let unfit =
        |param: Param, what: Text| Err(Error::invalid(param, text!(what, "; leave it out")));
    if request.until_period {
        return unfit(
            Param::UntilPeriod,
            text!(
                Param::UntilPeriod,
                " stops one-heap tables; grundy wythoff proves the rows' periods in its JSON summary instead"
            ),
        );
    }
    if let Some(engine) = request.engine.filter(|&e| e != EngineKind::Wythoff) {
        return unfit(
            Param::Engine,
            text!(
                Param::Engine.given(engine.entry().name),
                " is an engine of one-heap games; Wythoff's game has its own"
            ),
        );
    }
    if request.modulus.is_some() {
        return unfit(
            Param::Modulus,
            text!(
                Param::Modulus,
                " sets the residues of one-heap P-position counts; the summaries of Wythoff's game have none"
            ),
        );
    }
    if request.resume || request.checkpoint_every.is_some() {
        return unfit(
            Param::Resume,
            text!(
                "tables of Wythoff's game are not resumable (N = 2^14 takes under a minute), so ",
                Param::Resume,
                " and checkpoints do not apply"
            ),
        );
    }
    match request.listing {
        Listing::Ppos { offset } if offset != 0 => unfit(
            Param::Offset,
            text!(
                Param::Offset,
                " numbers one-heap P-positions; the pairs of Wythoff's game are numbered by k from 0 (the b-file from 1, as OEIS A000201)"
            ),
        ),
        Listing::Ppos { .. } if request.n > LARGEST_PAIRS_BOUND => Err(Error::invalid(
            Param::Size,
            text!(
                Param::Size.given(request.n),
                format!(
                    ": the pairs from a_k = {LARGEST_PAIRS_BOUND} on have b_k past 2^64 - 1, which the files do not hold; give "
                ),
                Param::Size,
                format!(" at most {LARGEST_PAIRS_BOUND}"),
            ),
        )),
        Listing::Grundy if request.n > MAX_SIDE => Err(Error::invalid(
            Param::Size,
            text!(
                Param::Size.given(request.n),
                ": a table of Wythoff's game has at most 2^31 rows (its values stay below 2^32), and one that large would not fit on any disk; give a smaller ",
                Param::Size,
            ),
        )),
        _ => Ok(()),
    }
}

/// Refuses outputs of `run` that do not fit on their disks, with its work file, before the
/// run starts.
pub(super) fn check_outputs_fit(run: &Run, destinations: &[(Format, Destination)]) -> Result<()> {
    let r = run.request();
    let n = r.n;
    match r.listing {
        Listing::Ppos { .. } => check_room(destinations, |f| pair_bytes(f, n), None),
        Listing::Grundy => {
            let bits = crate::engine::wythoff::bits(n);
            let work = run.work_file().map(|path| {
                let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
                let bytes = u128::from(PackedValues::words_for(n * n, bits)) * 8;
                (folder.unwrap_or(Path::new(".")), bytes)
            });
            let game = &r.game.spec;
            check_room(destinations, |f| square_bytes(f, game, n, bits), work)
        }
    }
}

/// The report `stats` gives of a square table read from a file: `values` of side `info.n`.
pub(super) fn square_of_file(info: RunInfo, values: PackedValues) -> SquareReport {
    let n = info.n;
    let table = Table {
        kind: ValueKind::Grundy,
        shape: Shape::Square { side: n },
        values,
        period: None,
    };
    SquareReport::new(table, info)
}
