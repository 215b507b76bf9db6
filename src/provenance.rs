//! How a table was made: the nimsieve version and commit, the command or call, the engine, the
//! threads and the date. Every JSON summary records it, the `.bin` header and the `.npy` header
//! carry it as one line of JSON, the xlsx summary sheet lists it, and `stats` and `verify` print
//! it back.

use serde::{Deserialize, Serialize};
use std::time::SystemTime;

/// This build's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this build was made from (`+modified` when its sources differed from it), or
/// `unknown` outside a git checkout.
pub const COMMIT: &str = env!("NIMSIEVE_COMMIT");

/// The most bytes of a command recorded; a longer one is cut and ends in `…`, so a header
/// stays small enough for every `.npy` reader.
const MOST_COMMAND_BYTES: usize = 2000;

/// How a table was made, field by field in the order written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The nimsieve version that made it.
    pub nimsieve: String,
    /// The commit that version was built from, or `unknown`.
    pub commit: String,
    /// The command line (`nimsieve grundy squares -n 1000`) or the Python call
    /// (`nimsieve.grundy('squares', 1000)`) that asked for it.
    pub command: String,
    /// The engine that computed it.
    pub engine: String,
    /// Worker threads the engine had.
    pub threads: usize,
    /// When it was made: UTC, RFC 3339 (`2026-11-28T02:04:05Z`).
    pub date: String,
}

impl Provenance {
    /// The provenance of a table `engine` makes now on `threads` for `command`.
    pub fn now(command: &str, engine: &str, threads: usize) -> Provenance {
        let mut command = command.to_string();
        if command.len() > MOST_COMMAND_BYTES {
            let mut cut = MOST_COMMAND_BYTES;
            while !command.is_char_boundary(cut) {
                cut -= 1;
            }
            command.truncate(cut);
            command.push('…');
        }
        Provenance {
            nimsieve: VERSION.to_string(),
            commit: COMMIT.to_string(),
            command,
            engine: engine.to_string(),
            threads,
            date: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        }
    }

    /// One line for people: `nimsieve 0.1.0 (commit 3113cd6…), engine psieve, 2 threads,
    /// 2026-11-28T02:04:05Z: nimsieve grundy squares -n 1000`.
    pub fn line(&self) -> String {
        let threads = match self.threads {
            1 => "1 thread".to_string(),
            t => format!("{t} threads"),
        };
        format!(
            "nimsieve {} (commit {}), engine {}, {threads}, {}: {}",
            self.nimsieve, self.commit, self.engine, self.date, self.command
        )
    }

    /// One line of JSON, as the `.bin` and `.npy` headers carry it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a provenance serialises")
    }

    /// The provenance in one line of JSON, or None when `text` is not one.
    pub fn from_json(text: &str) -> Option<Provenance> {
        serde_json::from_str(text.trim()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provenance_reads_back_from_its_line_of_json() {
        let made = Provenance::now("nimsieve grundy squares -n 1000", "psieve", 2);
        assert_eq!(made.nimsieve, VERSION);
        assert_eq!(made.date.len(), "2026-11-28T02:04:05Z".len());
        assert!(made.date.ends_with('Z'), "{}", made.date);
        let json = made.to_json();
        assert!(!json.contains('\n'));
        assert_eq!(Provenance::from_json(&json), Some(made.clone()));
        assert_eq!(Provenance::from_json("{\"nimsieve\": 1}"), None);
        assert!(
            made.line().ends_with(": nimsieve grundy squares -n 1000"),
            "{}",
            made.line()
        );
    }

    #[test]
    fn a_long_command_is_cut_at_a_character() {
        let long = "é".repeat(MOST_COMMAND_BYTES);
        let made = Provenance::now(&long, "reference", 1);
        assert!(made.command.len() <= MOST_COMMAND_BYTES + '…'.len_utf8());
        assert!(made.command.ends_with('…'));
        assert!(made.line().contains(", 1 thread, "));
    }
}
