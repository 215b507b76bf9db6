//! Where a command's files go: the shared output options, the destinations they name, and the
//! lines that say what was written.

use super::args::OutputArgs;
use nimsieve::error::printable;
use nimsieve::format::{self, Destination, Extension, Output};
use nimsieve::{DEFAULT_OUTPUT_DIR, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

impl OutputArgs {
    /// The folder of the outputs, work files and scratch files (see [`output_folder`]).
    pub(super) fn folder(&self) -> PathBuf {
        output_folder(self.output.as_deref())
    }

    /// Where `-o` sends the formats: `-` standard output, `FOLDER/` or an existing folder (or
    /// no `-o`) files named after the run, any other path that file.
    pub(super) fn destination(&self) -> Output {
        match self.output.as_deref() {
            None => Output::Named,
            Some("-") => Output::Stdout,
            Some(path) if names_folder(path) => Output::Named,
            Some(path) => Output::File(PathBuf::from(path)),
        }
    }

    /// The destination of each format, named `stem` in `folder` unless `-o` names a file or
    /// standard output, each checked writable before anything is computed.
    pub(super) fn destinations<F: Extension>(
        &self,
        formats: &[F],
        folder: &Path,
        stem: &str,
    ) -> Result<Vec<(F, Destination)>> {
        let destinations = format::destinations(formats, &self.destination(), folder, stem)?;
        destinations
            .iter()
            .try_for_each(|(_, d)| d.check_writable())?;
        Ok(destinations)
    }
}

/// The folder of `-o PATH`, `-o FOLDER/` itself, or `output/` when no file is named or the
/// file is a special one such as /dev/null or a FIFO. Work files and scratch files go there
/// too; it is created when something is written there.
pub(super) fn output_folder(output: Option<&str>) -> PathBuf {
    match output {
        Some(path) if path != "-" && names_folder(path) => PathBuf::from(path),
        Some(path) if path != "-" && !format::is_special(Path::new(path)) => Path::new(path)
            .parent()
            .unwrap_or(Path::new(""))
            .to_path_buf(),
        _ => PathBuf::from(DEFAULT_OUTPUT_DIR),
    }
}

/// True when `-o PATH` names a folder: it ends with `/` or is an existing directory.
fn names_folder(path: &str) -> bool {
    path.ends_with('/') || Path::new(path).is_dir()
}

/// Says on standard error that `path` was written.
pub(super) fn wrote(path: &Path) {
    say(&format!("wrote {}", printable(&path.display().to_string())));
}

/// Writes `line` to standard error if it can: a closed standard error loses the line but does
/// not stop the run from writing its files.
pub(super) fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_files_go_beside_the_output_but_never_into_dev() {
        assert_eq!(output_folder(Some("a/b.csv")), Path::new("a"));
        assert_eq!(output_folder(Some("b.csv")), Path::new(""));
        assert_eq!(output_folder(Some("src")), Path::new("src"));
        assert_eq!(output_folder(Some("/dev/null")), Path::new("output"));
        assert_eq!(output_folder(Some("-")), Path::new("output"));
        assert_eq!(output_folder(None), Path::new("output"));
    }
}
