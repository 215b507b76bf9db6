//! `misere`: the report of a game's misère quotient.

use nimsieve::Result;
use nimsieve::format::{self, Destination};
use nimsieve::interrupt;
use nimsieve::number::parse_u64;
use std::path::Path;

/// `misere`: the quotient's report, as text or JSON, to standard output (no `-o`, or `-o -`)
/// or a file.
pub(super) fn misere(
    spec: &str,
    n: &str,
    max_size: &str,
    format: &str,
    output: Option<&Path>,
) -> Result<()> {
    let n = parse_u64(n)?;
    let max_size = usize::try_from(parse_u64(max_size)?).unwrap_or(usize::MAX);
    let report = nimsieve::misere::Quotient::compute(spec, n, max_size)?.report();
    let text = match format {
        "json" => serde_json::to_string_pretty(&report).expect("a report serialises") + "\n",
        _ => report.text(),
    };
    match output.filter(|path| path.as_os_str() != "-") {
        Some(path) => {
            Destination::File(path.to_path_buf()).check_writable()?;
            format::write_atomically(path, |out| out.write_all(text.as_bytes()))
        }
        None => interrupt::print(&text),
    }
}
