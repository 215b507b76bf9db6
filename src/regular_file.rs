//! Files read whole that must be regular files: set files, and a sweep part's manifest and row
//! files. A FIFO, device, socket or folder is refused before it is opened, so reading never
//! waits for a writer or goes on without end, and a file's size is known before it is read.
//! Also the folder a file is in, where its work and scratch files go.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The folder the file `path` is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The name of the file `path` without its extension, as text (empty for none).
pub fn stem_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Opens `path` (following symbolic links) when it is a regular file, and returns it with its
/// size; otherwise an error of kind `InvalidInput` that says what it is instead.
pub fn open(path: &Path) -> io::Result<(File, u64)> {
    size(std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    let len = size(file.metadata()?)?;
    Ok((file, len))
}

/// The bytes of the regular file `path`; an error of kind `FileTooLarge` when it holds more
/// than `most`, before anything is read.
pub fn read(path: &Path, most: u64) -> io::Result<Vec<u8>> {
    let (file, len) = open(path)?;
    if len > most {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("it holds {len} bytes, more than the {most} it may hold"),
        ));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The size of a regular file, or what the file is instead.
fn size(metadata: Metadata) -> io::Result<u64> {
    if metadata.is_file() {
        return Ok(metadata.len());
    }
    let what = if metadata.is_dir() {
        "it is a folder, not a file"
    } else {
        "it is a FIFO, device or socket, not a regular file; save its contents to a file and give that"
    };
    Err(io::Error::new(io::ErrorKind::InvalidInput, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"12345");
        let e = read(&path, 4).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert!(
            e.to_string().contains("holds 5 bytes, more than the 4"),
            "{e}"
        );
        let e = read(dir.path(), 5).unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        let e = read(Path::new("/dev/zero"), 5).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
}
