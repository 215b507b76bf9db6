//! The files of one part of a sharded sweep: their names, and the manifest written beside them
//! once they are complete (`sweep-<family>-partIofK.manifest.json`). The manifest names the run
//! the part belongs to (family, n, number of parts, formats, nimsieve version), its shard and
//! games, and each row file's size and CRC-32, so that [`merge`](super::merge) can tell a
//! complete, intact part from a missing, damaged or foreign one.

use super::{Family, RowFormat, Shard};
use crate::error::{Error, Result};
use crate::format::{Extension, write_atomically};
use crate::game::file_safe;
use crate::regular_file;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The end of every manifest's file name.
pub const MANIFEST_SUFFIX: &str = ".manifest.json";

/// The largest manifest read, 1 MiB: a manifest names a few files in well under 1 KiB.
const MOST_MANIFEST_BYTES: u64 = 1 << 20;

/// The file stem of a sweep's outputs: `sweep-<family>` for the whole family,
/// `sweep-<family>-partIofK` for a shard.
pub fn stem(family: &Family, shard: Option<Shard>) -> String {
    let whole = format!("sweep-{}", file_safe(&family.text));
    match shard {
        Some(s) => format!("{whole}-part{}of{}", s.index, s.parts),
        None => whole,
    }
}

/// What the parts of one run share: parts merge only with parts of the same run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunKey {
    /// The family, as written.
    pub family: String,
    /// Positions per game.
    pub n: u64,
    /// How many parts.
    pub parts: u64,
    /// The row formats, in the order they were asked for.
    pub formats: Vec<RowFormat>,
    /// The nimsieve version that wrote the parts.
    pub nimsieve: String,
}

impl fmt::Display for RunKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let formats: Vec<&str> = self.formats.iter().map(|f| f.extension()).collect();
        write!(
            f,
            "{} with n = {}, {} shards, {}, nimsieve {}",
            self.family,
            self.n,
            self.parts,
            formats.join(" and "),
            self.nimsieve
        )
    }
}

/// One row file of a part, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartFile {
    /// Its format.
    pub format: RowFormat,
    /// Its name, in the manifest's folder.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// The CRC-32 of its bytes.
    pub crc32: u32,
}

impl PartFile {
    /// The entry of the complete file `path`, read back from the disk.
    fn of(format: RowFormat, path: &Path) -> Result<PartFile> {
        let bytes = std::fs::read(path).map_err(|e| Error::io("cannot read", path, e))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        Ok(PartFile {
            format,
            name: name.unwrap_or_default(),
            bytes: bytes.len() as u64,
            crc32: crc32fast::hash(&bytes),
        })
    }

    /// The file's bytes from `folder` when it is intact (see [`PartFile::open_intact`]); why
    /// not otherwise.
    pub fn read_intact(&self, folder: &Path) -> std::result::Result<Vec<u8>, String> {
        let mut file = self.open(folder)?;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(self.bytes as usize).map_err(|_| {
            format!(
                "{} ({} bytes) does not fit in memory",
                self.name, self.bytes
            )
        })?;
        self.copy_checked(&mut file, &mut bytes)?;
        Ok(bytes)
    }

    /// The file in `folder`, opened at its start, when it is intact: a regular file (a FIFO or
    /// device is refused, not waited on) of the size the manifest gives, checked before
    /// anything is read, and of its CRC-32, read a block at a time; why not otherwise.
    pub fn open_intact(&self, folder: &Path) -> std::result::Result<BufReader<File>, String> {
        let mut file = self.open(folder)?;
        self.copy_checked(&mut file, &mut io::sink())?;
        file.rewind()
            .map_err(|e| format!("{} cannot be read ({e})", self.name))?;
        Ok(BufReader::new(file))
    }

    /// The file in `folder` when it is a regular file of the manifest's size.
    fn open(&self, folder: &Path) -> std::result::Result<File, String> {
        let (file, len) = regular_file::open(&folder.join(&self.name))
            .map_err(|e| format!("{} cannot be read ({e})", self.name))?;
        if len != self.bytes {
            return Err(format!(
                "{} has {len} bytes, its manifest says {}",
                self.name, self.bytes
            ));
        }
        Ok(file)
    }

    /// Copies the manifest's size of bytes from `file` to `out`; an error unless they have
    /// the manifest's CRC-32.
    fn copy_checked(
        &self,
        file: &mut File,
        out: &mut impl Write,
    ) -> std::result::Result<(), String> {
        let mut crc = Crc32 {
            hasher: crc32fast::Hasher::new(),
            out,
        };
        let copied = io::copy(&mut file.take(self.bytes), &mut crc)
            .map_err(|e| format!("{} cannot be read ({e})", self.name))?;
        if copied != self.bytes || crc.hasher.finalize() != self.crc32 {
            return Err(format!(
                "{} differs from what was written (CRC-32)",
                self.name
            ));
        }
        Ok(())
    }
}

/// A writer that passes its bytes on and keeps their CRC-32.
struct Crc32<'a, W> {
    hasher: crc32fast::Hasher,
    out: &'a mut W,
}

impl<W: Write> Write for Crc32<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.out.write(bytes)?;
        self.hasher.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The manifest of one part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The nimsieve version that wrote the part.
    pub nimsieve: String,
    /// The family, as written.
    pub family: String,
    /// Positions per game (`-n`, or the family's default).
    pub n: u64,
    /// Which part of how many.
    pub shard: Shard,
    /// The indexes of the part's games.
    pub games: Range<u64>,
    /// The row files, in the order the formats were asked for.
    pub files: Vec<PartFile>,
}

impl Manifest {
    /// The run the part belongs to.
    pub fn run(&self) -> RunKey {
        RunKey {
            family: self.family.clone(),
            n: self.n,
            parts: self.shard.parts,
            formats: self.files.iter().map(|f| f.format).collect(),
            nimsieve: self.nimsieve.clone(),
        }
    }

    /// Reads the manifest at `path`, a regular file of at most [`MOST_MANIFEST_BYTES`]; why
    /// it cannot be used otherwise.
    pub fn read(path: &Path) -> std::result::Result<Manifest, String> {
        let text = regular_file::read(path, MOST_MANIFEST_BYTES)
            .map_err(|e| format!("cannot be read ({e})"))?;
        serde_json::from_slice(&text).map_err(|e| format!("is not a part manifest ({e})"))
    }
}

/// The shard a manifest's file name states (`…-partIofK.manifest.json`), if it states one.
pub fn shard_of_name(name: &str) -> Option<Shard> {
    let part = name.strip_suffix(MANIFEST_SUFFIX)?.rsplit_once("-part")?.1;
    let (index, parts) = part.split_once("of")?;
    Shard::parse(&format!("{index}/{parts}")).ok()
}

/// Writes the manifest of shard `shard` of `family` computed to `n` positions, whose row
/// `files` are complete, as `<folder>/<stem>.manifest.json` (atomically, after them, so a part
/// killed before it finished has no manifest); returns its path.
pub fn write_manifest(
    family: &Family,
    n: u64,
    shard: Shard,
    files: &[(RowFormat, PathBuf)],
    folder: &Path,
) -> Result<PathBuf> {
    let manifest = Manifest {
        nimsieve: env!("CARGO_PKG_VERSION").to_string(),
        family: family.text.clone(),
        n,
        shard,
        games: shard.range(family.count())?,
        files: files
            .iter()
            .map(|(format, path)| PartFile::of(*format, path))
            .collect::<Result<_>>()?,
    };
    let path = folder.join(format!("{}{MANIFEST_SUFFIX}", stem(family, Some(shard))));
    let text = serde_json::to_string_pretty(&manifest).expect("a manifest serialises");
    write_atomically(&path, |out| writeln!(out, "{text}"))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_state_their_shard() {
        let family = Family::parse("sub3:40").unwrap();
        let shard = Shard { index: 3, parts: 8 };
        assert_eq!(stem(&family, None), "sweep-sub3_40");
        let name = format!("{}{MANIFEST_SUFFIX}", stem(&family, Some(shard)));
        assert_eq!(name, "sweep-sub3_40-part3of8.manifest.json");
        assert_eq!(shard_of_name(&name), Some(shard));
        for other in [
            "sweep-sub3_40.manifest.json",
            "sweep-sub3_40-part9of8.manifest.json",
            "sweep-sub3_40-part3of8.csv",
            "x-partaofb.manifest.json",
        ] {
            assert_eq!(shard_of_name(other), None, "{other}");
        }
    }
}
