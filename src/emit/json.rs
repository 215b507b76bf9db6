//! JSON summary of a run: statistics, not the table itself.

use super::{Emitter, Report, RunInfo};
use crate::analysis::counting::PCounts;
use crate::table::ValueKind;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// The JSON summary emitter.
pub struct Json;

impl Emitter for Json {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &summary(report))?;
        writeln!(out)
    }
}

/// The summary's fields in order (the xlsx summary sheet lays out the same fields).
pub fn summary(report: &Report) -> Map<String, Value> {
    match report {
        Report::Grundy(r) => with_info(
            &r.info,
            json!({
                "max_value": r.stats.max_value,
                "counts": r.stats.counts,
                "first_occurrence": r.stats.first_occurrence,
                "p_count": r.stats.p_count,
                "period": r.period,
                "stopped_at_period": r.stopped_at_period,
            }),
            &r.p_counts,
        ),
        Report::Ppos(r) => with_info(
            &r.info,
            json!({
                "p_count": r.positions.len(),
                "last": r.positions.last(),
            }),
            &r.p_counts,
        ),
    }
}

/// Puts the run's game, size and engine first, then `fields` and the counting function, then
/// the timing.
fn with_info(info: &RunInfo, fields: Value, p_counts: &PCounts) -> Map<String, Value> {
    let (play, values) = match info.kind {
        ValueKind::Grundy => ("normal", "grundy"),
        ValueKind::Outcome => ("misere", "outcome (0 = P, 1 = N)"),
    };
    let mut map = Map::new();
    map.insert("game".into(), json!(info.game));
    map.insert("n".into(), json!(info.n));
    map.insert("play".into(), json!(play));
    map.insert("values".into(), json!(values));
    if let Value::Object(fields) = fields {
        map.extend(fields);
    }
    map.insert(
        "p_count_at_powers_of_two".into(),
        json!(p_counts.at_powers_of_two),
    );
    map.insert("modulus".into(), json!(p_counts.modulus));
    map.insert("p_count_by_residue".into(), json!(p_counts.by_residue));
    map.insert("engine".into(), json!(info.engine));
    map.insert("threads".into(), json!(info.threads));
    map.insert("elapsed_s".into(), json!(info.elapsed_s));
    map
}
