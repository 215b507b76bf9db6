//! `eval`: a position's evaluation, printed as text or JSON.

use nimsieve::eval;
use nimsieve::game::Game;
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use nimsieve::table::ValueKind;
use nimsieve::{DEFAULT_OUTPUT_DIR, Result};
use std::path::{Path, PathBuf};

pub(super) fn eval(
    spec: &str,
    position: &[String],
    json: bool,
    last: Option<&str>,
    table: Option<&Path>,
    quiet: bool,
) -> Result<()> {
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
        eval::Evaluation::Sum(sum) => sum_text(sum),
        eval::Evaluation::Position(p) => position_text(p),
        eval::Evaluation::Misere(m) => misere_text(m),
    };
    interrupt::print(&text)
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
fn moves_text(out: &mut String, moves: &[eval::HeapMove]) {
    push_line!(out, "winning moves:");
    for m in moves {
        match &m.split {
            Some(heaps) => push_line!(
                out,
                "  heap {}: {} -> {} (remove {}, split the rest)",
                m.heap,
                m.from,
                heaps
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" + "),
                m.from - m.to
            ),
            None => push_line!(out, "  heap {}: {} -> {}", m.heap, m.from, m.to),
        }
    }
}

/// The text of a misère sum evaluated through the quotient.
fn misere_text(e: &eval::MisereEvaluation) -> String {
    let mut out = String::new();
    push_line!(out, "heaps:    {}", spaced(&e.heaps));
    push_line!(out, "elements: {}", e.elements.join(" "));
    push_line!(
        out,
        "method:   misère quotient of the heaps below {} ({} elements); the position is {}",
        e.heaps_below,
        e.quotient_size,
        e.element
    );
    push_line!(
        out,
        "outcome:  {} under misère play",
        outcome_words(e.outcome)
    );
    if e.winning_moves.is_empty() {
        push_line!(out, "winning moves: none");
        return out;
    }
    moves_text(&mut out, &e.winning_moves);
    partial_note(&mut out, e.all_winning_moves);
    out
}

/// The text of a sum of heaps' evaluation.
fn sum_text(e: &eval::SumEvaluation) -> String {
    let mut out = String::new();
    let sizes: Vec<u64> = e.heaps.iter().map(|h| h.size).collect();
    push_line!(out, "heaps:   {}", spaced(&sizes));
    push_line!(out, "values:  {}", spaced(&e.values));
    let mut methods: Vec<&str> = e.heaps.iter().map(|h| method_name(h.method)).collect();
    methods.dedup();
    push_line!(out, "method:  {}", methods.join(", "));
    push_line!(out, "nim-sum: {}", e.nim_sum);
    let misere = Game::parse(&e.game).is_ok_and(|g| ValueKind::of(g.play) == ValueKind::Outcome);
    push_line!(
        out,
        "outcome: {}{}",
        outcome_words(e.outcome),
        if misere { " under misère play" } else { "" }
    );
    if e.winning_moves.is_empty() {
        push_line!(out, "winning moves: none");
        return out;
    }
    moves_text(&mut out, &e.winning_moves);
    partial_note(&mut out, e.all_winning_moves);
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
fn position_text(e: &eval::PositionEvaluation) -> String {
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
        push_line!(out, "winning moves: none");
        return out;
    }
    match e.winning_move_count {
        Some(count) => push_line!(out, "winning moves ({count}):"),
        None => push_line!(out, "a winning move:"),
    }
    for m in &e.winning_moves {
        push_line!(out, "  {}", m.says);
    }
    partial_note(&mut out, e.all_winning_moves);
    out
}
