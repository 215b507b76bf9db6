//! Where reports go: standard output, or files written atomically (a temporary name in the
//! same folder, renamed when complete), so an interrupted run never leaves a partial file.

use super::{Format, Layout};
use crate::error::{Error, Param, Result, printable};
use crate::interrupt::{self, Polled, Unfinished};
use crate::partial;
use crate::report::Report;
use crate::text;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Where one format is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-o -`).
    Stdout,
    /// A file.
    File(PathBuf),
}

/// A file format with a file name extension (the table formats, and `sweep`'s row formats).
pub trait Extension: Copy {
    /// The file extension, without the dot.
    fn extension(self) -> &'static str;

    /// False for binary formats (npy, bin, u64, xlsx), which are of no use on a terminal.
    fn fits_terminal(self) -> bool {
        true
    }
}

/// Where the formats of a run go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A file a format, named after the request, in the outputs' folder.
    Named,
    /// Standard output (one format).
    Stdout,
    /// This file, whatever its name (one format).
    File(PathBuf),
}

/// The destination of each format: a file (one format), standard output (one format; not a
/// binary format on a terminal, where it is of no use), or `<folder>/<stem>.<ext>` for each
/// format.
pub fn destinations<F: Extension>(
    formats: &[F],
    output: &Output,
    folder: &Path,
    stem: &str,
) -> Result<Vec<(F, Destination)>> {
    let one = |place: String| {
        Error::invalid(
            Param::Output,
            text!(
                format!(
                    "{place} takes one format but {} were asked for; give one ",
                    formats.len()
                ),
                Param::Format,
                ", or a folder as ",
                Param::Output,
                " to write each into it",
            ),
        )
    };
    match output {
        Output::File(path) if formats.len() > 1 => Err(one(format!(
            "'{}' is one file: it",
            printable(&path.display().to_string())
        ))),
        Output::Stdout if formats.len() > 1 => Err(one("standard output".into())),
        Output::Stdout if !formats[0].fits_terminal() && std::io::stdout().is_terminal() => {
            let ext = formats[0].extension();
            Err(Error::invalid(
                Param::Output,
                text!(
                    format!(
                        "{ext} is a binary format, not for a terminal; redirect standard output to a file, or give a file as "
                    ),
                    Param::Output,
                ),
            ))
        }
        Output::Stdout => Ok(vec![(formats[0], Destination::Stdout)]),
        Output::File(path) => Ok(vec![(formats[0], Destination::File(path.clone()))]),
        Output::Named => Ok(formats
            .iter()
            .map(|&f| {
                let name = format!("{stem}.{}", f.extension());
                (f, Destination::File(folder.join(name)))
            })
            .collect()),
    }
}

impl Destination {
    /// Fails early, before a long computation, when the file cannot be created.
    pub fn check_writable(&self) -> Result<()> {
        match self {
            // Opening a FIFO would hand its reader an early end of file.
            Destination::File(path) if is_special(path) => Ok(()),
            Destination::File(path) => {
                partial::create_parent(&followed(path))?;
                let probe = partial::temporary_name(&followed(path));
                let _unfinished = Unfinished::register(probe.clone());
                File::create(&probe).map_err(|e| Error::io("cannot write", path, e))?;
                let _ = std::fs::remove_file(&probe);
                Ok(())
            }
            Destination::Stdout => Ok(()),
        }
    }
}

/// Writes `report` in `format`, laid out by `layout`, to `destination`, unless the format
/// cannot hold it (then nothing is written).
pub fn write_to(
    format: Format,
    report: &Report,
    layout: &Layout,
    destination: &Destination,
) -> Result<()> {
    let emitter = format.emitter(layout);
    emitter.check(report)?;
    write_with(destination, |out| emitter.write(report, out))
}

/// Writes to `destination` whatever `fill` writes: buffered to standard output (where a closed
/// pipe ends a command line quietly, see [`interrupt::Stdout`]), or to a file atomically.
pub fn write_with(
    destination: &Destination,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>,
) -> Result<()> {
    match destination {
        Destination::Stdout => {
            let mut out = BufWriter::with_capacity(1 << 16, interrupt::Stdout);
            fill(&mut out)
                .and_then(|_| out.flush())
                .map_err(|e| Error::io("cannot write", "standard output", e))
        }
        Destination::File(path) => write_atomically(path, fill),
    }
}

/// True for an existing destination that is not a regular file (`/dev/null`, a FIFO): it is
/// written in place, since renaming over it would replace it.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// Writes a file under a temporary name beside `path`, then renames it to `path`; when `path`
/// is a symbolic link, beside the file it points to and onto that file, so the link is kept.
/// The temporary file is removed if writing fails, and also if an interrupt ends the process
/// meanwhile; an interrupt request (a front end's own, such as Python's) stops the write and
/// keeps whatever file was at `path`.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>,
) -> Result<()> {
    let path = &followed(path);
    if is_special(path) {
        let result = OpenOptions::new().write(true).open(path).and_then(|file| {
            let mut out = BufWriter::new(file);
            fill(&mut out)?;
            out.flush()
        });
        return result.map_err(|e| failure(path, e));
    }
    put_in_place(vec![Complete::write(path, fill)?]).map(drop)
}

/// Writes a new file at `path` as [`write_atomically`] does (replacing whatever is there, so
/// not for a special file) and returns it, open for reading: the file this write made, even
/// once another write has replaced `path`.
pub fn write_new(
    path: &Path,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>,
) -> Result<File> {
    let complete = Complete::write(&followed(path), fill)?;
    let mut files = put_in_place(vec![complete])?;
    Ok(files.remove(0))
}

/// Writes the files `paths` as one: each is filled by `fill` (with its index in `paths`) under
/// a temporary name, and only once every one is complete are they all renamed into place, with
/// an interrupt held off meanwhile; if one cannot be written, none is.
pub fn write_together(
    paths: &[PathBuf],
    mut fill: impl FnMut(usize, &mut (dyn Write + Send)) -> std::io::Result<()>,
) -> Result<()> {
    let complete = (paths.iter().enumerate())
        .map(|(i, path)| Complete::write(&followed(path), |out| fill(i, out)))
        .collect::<Result<Vec<_>>>()?;
    put_in_place(complete).map(drop)
}

/// A file written whole under its temporary name, and removed unless renamed into place.
struct Complete {
    path: PathBuf,
    temporary: PathBuf,
    /// The file written, open for reading and writing.
    file: File,
    /// Keeps the temporary file registered for removal by an interrupt.
    _unfinished: Unfinished,
}

impl Complete {
    /// Writes `path` under a temporary name beside it (removing the temporary files that runs
    /// killed while writing it left).
    fn write(
        path: &Path,
        fill: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>,
    ) -> Result<Complete> {
        partial::remove_stale(path);
        let temporary = partial::temporary_name(path);
        let unfinished = Unfinished::register(temporary.clone());
        let written = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temporary)
            .and_then(|file| {
                let mut out = BufWriter::with_capacity(1 << 20, Polled(file));
                fill(&mut out)?;
                let file = out.into_inner().map_err(|e| e.into_error())?.0;
                file.sync_all()?;
                Ok(file)
            });
        match written {
            Ok(file) => Ok(Complete {
                path: path.to_path_buf(),
                temporary,
                file,
                _unfinished: unfinished,
            }),
            Err(e) => {
                let _ = std::fs::remove_file(&temporary);
                Err(failure(path, e))
            }
        }
    }
}

impl Drop for Complete {
    fn drop(&mut self) {
        // Gone already once renamed into place.
        let _ = std::fs::remove_file(&self.temporary);
    }
}

/// Renames `files` into place, with an interrupt held off until the last is there, and returns
/// them open, in order.
fn put_in_place(files: Vec<Complete>) -> Result<Vec<File>> {
    interrupt::hold_off(|| {
        files.iter().try_for_each(|f| {
            std::fs::rename(&f.temporary, &f.path).map_err(|e| failure(&f.path, e))?;
            interrupt::wrote(&f.path);
            Ok(())
        })
    })?;
    files
        .iter()
        .map(|f| {
            f.file
                .try_clone()
                .map_err(|e| Error::io("cannot read", &f.path, e))
        })
        .collect()
}

/// The file a symbolic link at `path` points to (to be created when it is not there yet), or
/// `path` itself when it is not a link.
fn followed(path: &Path) -> PathBuf {
    match std::fs::read_link(path) {
        Ok(target) => std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.parent().unwrap_or(Path::new("")).join(target)),
        Err(_) => path.to_path_buf(),
    }
}

/// The error of a write to `path` that failed with `e`: an interrupt, or an I/O error.
fn failure(path: &Path, e: std::io::Error) -> Error {
    if interrupt::stopped_write(&e) {
        Error::Interrupted(
            format!(
                "stopped while writing '{}', which was left as it was",
                printable(&path.display().to_string())
            )
            .into(),
        )
    } else {
        Error::io("cannot write", path, e)
    }
}
