//! Evaluating positions through the library, as `nimsieve eval` does, with tables in memory.

use nimsieve::eval::{self, Evaluation, Options, TableOptions};

/// The evaluation of `args` (heaps, or a position's coordinates) in `spec`, computed in memory.
pub fn evaluate(spec: &str, args: &[&str]) -> Evaluation {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let options = Options {
        tables: TableOptions::in_memory(),
        last: None,
    };
    eval::evaluate(spec, &args, &options).unwrap()
}
