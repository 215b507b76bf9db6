//! `eval`: a position's evaluation, printed as text or JSON.

use nimsieve::eval::{self, WinningMoves};
use nimsieve::game::Game;
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::table::ValueKind;
use nimsieve::{DEFAULT_OUTPUT_DIR, Error, Result};
use std::path::{Path, PathBuf};

pub(super) fn eval(
    spec: &str,
    position: &[String],
    json: bool,
    last: Option<&str>,
    table: Option<&Path>,
    max_moves: Option<&str>,
    quiet: bool,
) -> Result<()> {
    let limit = max_moves.map(parse_max_moves).transpose()?;
    if limit.is_some() && json {
        return Err(Error::Input(
            "--max-moves shapes the text; the JSON (-f json) gives every class of moves (winning_classes) for a program to expand; leave one of them out".into(),
        ));
    }
    let options = eval::Options {
        tables: eval::TableOptions {
            file: table.map(Path::to_path_buf),
            work_folder: Some(PathBuf::from(DEFAULT_OUTPUT_DIR)),
            progress: Progress::new(0, quiet),
        },
        last: last.map(parse_u64).transpose()?,
    };
    let e = eval::evaluate(spec, position, &options)?;
    let text = match &e {
        _ if json => serde_json::to_string(&e).expect("evaluation serialises") + "\n",
        eval::Evaluation::Sum(sum) => sum_text(sum, limit),
        eval::Evaluation::Position(p) => position_text(p, limit),
        eval::Evaluation::Misere(m) => misere_text(m, limit),
    };
    interrupt::print(&text)
}

/// The most moves `--max-moves` lists: the text is built in memory, some 60 bytes a move.
const MOST_LISTED: u64 = 10_000_000;

/// The K of `--max-moves K`, from 1 to [`MOST_LISTED`].
fn parse_max_moves(text: &str) -> Result<u64> {
    match parse_u64(text)? {
        0 => Err(Error::Input(
            "--max-moves 0 lists no move; give at least 1, or leave it out to list every move"
                .into(),
        )),
        k if k > MOST_LISTED => Err(Error::Input(format!(
            "--max-moves {k} is more moves than eval lists as text (at most {MOST_LISTED}); give a smaller K, or expand the classes of -f json in a program"
        ))),
        k => Ok(k),
    }
}

/// How many of `len` moves a list shows under `--max-moves`.
fn listed(len: usize, limit: Option<u64>) -> usize {
    limit.map_or(len, |k| len.min(usize::try_from(k).unwrap_or(usize::MAX)))
}

/// The line after a list cut at `--max-moves`, when moves are left out.
fn more_line(out: &mut String, shown: u128, total: u128) {
    if total > shown {
        push_line!(
            out,
            "  ... and {} more ({total} winning moves in all)",
            total - shown
        );
    }
}

/// The words of an outcome.
fn outcome_words(outcome: eval::Outcome) -> &'static str {
    match outcome {
        eval::Outcome::P => "P (the player to move loses)",
        eval::Outcome::N => "N (the player to move wins)",
    }
}

/// Numbers joined by spaces.
fn spaced(numbers: &[u64]) -> String {
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The closing line when only some winning moves are listed.
fn partial_note(out: &mut String, all: bool) {
    if !all {
        push_line!(
            out,
            "  (not every winning move: only those among the options examined)"
        );
    }
}

/// The winning moves of a sum, one a line.
fn moves_text<'a>(out: &mut String, moves: impl IntoIterator<Item = &'a eval::HeapMove>) {
    push_line!(out, "winning moves:");
    move_lines(out, moves);
}

/// Moves of a sum, one a line.
fn move_lines<'a>(out: &mut String, moves: impl IntoIterator<Item = &'a eval::HeapMove>) {
    for m in moves {
        match &m.split {
            Some(heaps) => push_line!(
                out,
                "  heap {}: {} -> {} ({})",
                m.heap,
                m.from,
                heaps
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" + "),
                split_words(m.from - m.to)
            ),
            None => push_line!(out, "  heap {}: {} -> {}", m.heap, m.from, m.to),
        }
    }
}

/// How a split is made: the heap split as it is (Grundy's game), or after `removal` objects.
fn split_words(removal: u64) -> String {
    match removal {
        0 => "split it".to_string(),
        k => format!("remove {k}, split the rest"),
    }
}

/// The winning splits of a class, on one line.
fn class_line(out: &mut String, c: &eval::SplitClass) {
    push_line!(
        out,
        "  heap {}: {} -> a + ({} - a) ({}), a ≡ {} (mod {}), {} ≤ a ≤ {} ({} move{})",
        c.heap,
        c.from,
        c.rest(),
        split_words(c.removal),
        c.residue,
        c.modulus,
        c.first,
        c.last,
        c.count,
        if c.count == 1 { "" } else { "s" }
    );
}

/// The line of a position without a listed winning move: none for a P-position; for an
/// N-position, either it has no move at all (misère play: the player who cannot move wins) or
/// its winning moves lie among options eval did not examine (`all` false).
fn no_moves_line(out: &mut String, outcome: eval::Outcome, all: bool) {
    match (outcome, all) {
        (eval::Outcome::P, _) => push_line!(out, "winning moves: none"),
        (eval::Outcome::N, true) => push_line!(
            out,
            "winning moves: none: there is no move, and under misère play the player who cannot move wins"
        ),
        (eval::Outcome::N, false) => push_line!(
            out,
            "winning moves: none among the options examined (a heap has more than 2^24 options, the most eval examines); the position is N all the same"
        ),
    }
}

/// The winning moves of a sum of heaps: each move a line, and each class of splits a line, or
/// the first `limit` moves with the classes expanded; a note when only the options examined
/// were searched.
fn heap_moves_text(out: &mut String, e: &impl WinningMoves, limit: Option<u64>) {
    let (heaps, outcome, all) = (e.heap_count(), e.outcome(), e.all_listed());
    let total = e.winning_move_count();
    if total == 0 {
        no_moves_line(out, outcome, all);
        return;
    }
    match limit {
        Some(k) => {
            let shown: Vec<eval::HeapMove> = e
                .all_moves()
                .take(usize::try_from(k).unwrap_or(usize::MAX))
                .collect();
            moves_text(out, &shown);
            more_line(out, shown.len() as u128, total);
        }
        None => {
            push_line!(out, "winning moves:");
            for heap in 0..heaps {
                move_lines(out, e.listed_moves().iter().filter(|m| m.heap == heap));
                let classes = e.classes().iter().filter(|c| c.heap == heap);
                classes.for_each(|c| class_line(out, c));
            }
            if !e.classes().is_empty() {
                let count = match all {
                    true => format!("{total} winning moves in all"),
                    false => format!("at least {total} winning moves"),
                };
                push_line!(
                    out,
                    "  ({count}, splits by class of the smaller heap a; --max-moves K lists the first K)"
                );
            }
        }
    }
    partial_note(out, all);
}

/// The text of a misère sum evaluated through the quotient.
fn misere_text(e: &eval::MisereEvaluation, limit: Option<u64>) -> String {
    let mut out = String::new();
    push_line!(out, "heaps:    {}", spaced(&e.heaps));
    push_line!(out, "elements: {}", e.elements.join(" "));
    push_line!(
        out,
        "method:   misère quotient of the heaps below {} ({} element{}); the position is {}",
        e.heaps_below,
        e.quotient_size,
        if e.quotient_size == 1 { "" } else { "s" },
        e.element
    );
    push_line!(
        out,
        "outcome:  {} under misère play",
        outcome_words(e.outcome)
    );
    heap_moves_text(&mut out, e, limit);
    out
}

/// The text of a sum of heaps' evaluation.
fn sum_text(e: &eval::SumEvaluation, limit: Option<u64>) -> String {
    let mut out = String::new();
    let sizes: Vec<u64> = e.heaps.iter().map(|h| h.size).collect();
    push_line!(out, "heaps:   {}", spaced(&sizes));
    push_line!(out, "values:  {}", spaced(&e.values));
    let mut methods: Vec<&str> = e.heaps.iter().map(|h| method_name(h.method)).collect();
    methods.dedup();
    push_line!(out, "method:  {}", methods.join(", "));
    push_line!(out, "nim-sum: {}", e.nim_sum);
    let misere =
        Game::parse(&e.game).is_ok_and(|g| ValueKind::of(g.play) == ValueKind::MisereOutcome);
    push_line!(
        out,
        "outcome: {}{}",
        outcome_words(e.outcome),
        if misere { " under misère play" } else { "" }
    );
    heap_moves_text(&mut out, e, limit);
    out
}

/// A method as the JSON writes it.
fn method_name(method: eval::Method) -> &'static str {
    match method {
        eval::Method::ClosedForm => "closed form",
        eval::Method::Period => "period",
        eval::Method::Table => "table",
    }
}

/// The text of a position's evaluation.
fn position_text(e: &eval::PositionEvaluation, limit: Option<u64>) -> String {
    let mut out = String::new();
    push_line!(out, "game:     {}", e.game);
    push_line!(out, "position: {}", spaced(&e.position));
    if let Some(heaps) = &e.nim_heaps {
        push_line!(out, "as Nim:   {}", spaced(heaps));
    }
    if let Some(value) = e.value {
        push_line!(out, "value:    {value}");
    }
    push_line!(out, "method:   {}", e.method);
    push_line!(out, "outcome:  {}", outcome_words(e.outcome));
    if e.winning_moves.is_empty() {
        no_moves_line(&mut out, e.outcome, e.all_winning_moves);
        return out;
    }
    match e.winning_move_count {
        Some(count) => push_line!(out, "winning moves ({count}):"),
        None => push_line!(out, "a winning move:"),
    }
    let shown = listed(e.winning_moves.len(), limit);
    for m in &e.winning_moves[..shown] {
        push_line!(out, "  {}", m.says);
    }
    more_line(&mut out, shown as u128, e.winning_moves.len() as u128);
    partial_note(&mut out, e.all_winning_moves);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sum with no winning move listed: "none" for a P-position only; an N-position whose
    /// winning moves lie past the options examined says so.
    #[test]
    fn an_n_position_never_reads_none() {
        let sum = |outcome, all| eval::SumEvaluation {
            game: "squares".into(),
            heaps: Vec::new(),
            values: Vec::new(),
            nim_sum: 0,
            outcome,
            winning_moves: Vec::new(),
            winning_classes: Vec::new(),
            all_winning_moves: all,
        };
        let p = sum_text(&sum(eval::Outcome::P, true), None);
        assert!(p.ends_with("winning moves: none\n"), "{p}");
        let n = sum_text(&sum(eval::Outcome::N, false), None);
        assert!(!n.contains("winning moves: none\n"), "{n}");
        assert!(n.contains("none among the options examined"), "{n}");
        assert!(n.contains("the position is N all the same"), "{n}");
        // No move at all (misère play): the player to move wins by having none.
        let none = sum_text(&sum(eval::Outcome::N, true), None);
        assert!(none.contains("there is no move"), "{none}");
    }
}
