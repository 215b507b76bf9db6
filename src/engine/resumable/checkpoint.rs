//! The checkpoint beside a work file: how far a run got, and checksums of everything it had
//! finished, so that a resumed run continues only from a table that is exactly as it was saved.
//!
//! The file `<work file>.state.json` holds `{"checkpoint": {…}, "crc32": C}`, where C is the
//! CRC-32 of the checkpoint object as serialised; the checkpoint records the game (and, for a
//! set file, a checksum of its elements), n, the positions done, the width of a value, and the
//! CRC-32 of each [`CHUNK_BYTES`] of the finished part of the table plus one of its tail. Any
//! edit, to the state file or to the finished part of the work file, is found on `--resume`.

use crate::error::{Error, Result};
use crate::game::Game;
use crate::interrupt::{self, Unfinished};
use crate::partial;
use crate::period::Period;
use crate::table::WorkTable;
use crate::table::words::Words;
use crate::table::work_file::WorkFile;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The layout version of checkpoints this nimsieve writes and reads.
const FORMAT: u32 = 2;

/// Bytes of the table one checksum covers: 16 MiB, so a checkpoint adds checksums only for
/// the chunks finished since the last one, and even a 10^10-position table has a few hundred.
pub const CHUNK_BYTES: u64 = 1 << 24;

/// How far a file-backed run got, with checksums of the part it finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Layout version ([`FORMAT`]).
    pub format: u32,
    /// Canonical game spec.
    pub game: String,
    /// What the rules are made of ([`Game::content_key`]): differs when a set file changed.
    pub rules: String,
    /// Table size.
    pub n: u64,
    /// Positions below this are final.
    pub done: u64,
    /// Bits a value of the table when the checkpoint was saved.
    pub bits: u32,
    /// Bits a value the work file has room for (its size).
    pub widest: u32,
    /// Bytes each of `sums` covers.
    pub chunk_bytes: u64,
    /// The period the positions below `done` prove, which the rest of the table repeats: a
    /// run that ended at a proven period. None while the table is being computed. Its saltus
    /// is written only when it is not 0, so that a checkpoint written before arithmetic periods
    /// reads back (as saltus 0) with the same checksum.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "recorded")]
    pub period: Option<Period>,
    /// The checksums of the final part of the table.
    #[serde(flatten)]
    pub digest: Digest,
}

/// CRC-32 checksums of the first bits of a table's bytes: one for each whole chunk, one for
/// the rest (its last byte masked to the bits that count).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest {
    /// The checksum of each whole chunk, in order.
    pub sums: Vec<u32>,
    /// The checksum of what follows the whole chunks.
    pub tail: u32,
}

/// A checkpoint's period as stored: a pure period without its saltus.
mod recorded {
    use crate::period::Period;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// The fields of a stored period.
    #[derive(Serialize, Deserialize)]
    struct Recorded {
        preperiod: u64,
        period: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        saltus: u64,
    }

    fn is_zero(saltus: &u64) -> bool {
        *saltus == 0
    }

    /// Writes `period` without a saltus of 0.
    pub fn serialize<S: Serializer>(period: &Option<Period>, s: S) -> Result<S::Ok, S::Error> {
        period
            .map(|p| Recorded {
                preperiod: p.preperiod,
                period: p.period,
                saltus: p.saltus,
            })
            .serialize(s)
    }

    /// Reads a period, with saltus 0 when none is written.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Period>, D::Error> {
        let recorded = Option::<Recorded>::deserialize(d)?;
        Ok(recorded.map(|r| Period {
            preperiod: r.preperiod,
            period: r.period,
            saltus: r.saltus,
        }))
    }
}

/// The state file as stored: the checkpoint and the checksum of its serialised form.
#[derive(Serialize, Deserialize)]
struct Stored {
    checkpoint: Checkpoint,
    crc32: u32,
}

/// Writes `bytes` to `path` whole: under a temporary name, renamed into place (an interrupt
/// waits for the rename), so a run killed at any time leaves the last complete file.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let temporary = partial::temporary_name(path);
    let _unfinished = Unfinished::register(temporary.clone());
    std::fs::write(&temporary, bytes)
        .and_then(|_| interrupt::hold_off(|| std::fs::rename(&temporary, path)))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            Error::io("cannot write", path, e)
        })
}

impl Digest {
    /// The checksums of the first `bits` bits of `bytes`, in chunks of `chunk` bytes; the sums
    /// of whole chunks in `known` are taken as they are (they cover bytes that no longer change).
    pub fn of(bytes: &[u8], bits: u64, chunk: u64, known: &[u32]) -> Digest {
        Self::of_releasing(bytes, bits, chunk, known, &|_| ())
    }

    /// As [`Digest::of`], calling `read(range)` on the byte range of each new checksum once it
    /// is taken (each whole chunk, then the rest): what a table in a memory-mapped file then
    /// drops from the process.
    pub fn of_releasing(
        bytes: &[u8],
        bits: u64,
        chunk: u64,
        known: &[u32],
        read: &dyn Fn(Range<u64>),
    ) -> Digest {
        let whole_bytes = (bits / 8) as usize;
        let chunk = chunk as usize;
        let whole_chunks = whole_bytes / chunk;
        let mut sums = known[..known.len().min(whole_chunks)].to_vec();
        for i in sums.len()..whole_chunks {
            sums.push(crc32fast::hash(&bytes[i * chunk..(i + 1) * chunk]));
            read((i * chunk) as u64..((i + 1) * chunk) as u64);
        }
        let mut tail = crc32fast::Hasher::new();
        tail.update(&bytes[whole_chunks * chunk..whole_bytes]);
        read((whole_chunks * chunk) as u64..whole_bytes as u64);
        if !bits.is_multiple_of(8) {
            tail.update(&[bytes[whole_bytes] & ((1u8 << (bits % 8)) - 1)]);
        }
        Digest {
            sums,
            tail: tail.finalize(),
        }
    }

    /// The first chunk where `self` and `other` differ (the tail counting as the chunk after
    /// the whole ones), if any.
    fn first_difference(&self, other: &Digest) -> Option<usize> {
        let whole = self.sums.len().min(other.sums.len());
        (0..whole)
            .find(|&i| self.sums[i] != other.sums[i])
            .or((self.sums.len() != other.sums.len() || self.tail != other.tail).then_some(whole))
    }
}

/// The words a work file holds for n values of `bits` bits.
fn words_for(n: u64, bits: u32) -> u64 {
    (u128::from(n) * u128::from(bits)).div_ceil(64) as u64
}

impl Checkpoint {
    /// The checkpoint of a run of `game` over `n` positions that has finished the positions
    /// below `done` of `words` (`bits` a value, in a work file with room for `widest`).
    pub fn new(game: &Game, n: u64, done: u64, bits: u32, widest: u32, digest: Digest) -> Self {
        Checkpoint {
            format: FORMAT,
            game: game.spec.clone(),
            rules: game.content_key(),
            n,
            done,
            bits,
            widest,
            chunk_bytes: CHUNK_BYTES,
            period: None,
            digest,
        }
    }

    /// The checkpoint of `table` with its positions below `done` final; checksums of whole
    /// chunks in `known` are taken as they are.
    pub fn of_table<T: WorkTable>(
        game: &Game,
        n: u64,
        done: u64,
        widest: u32,
        table: &T,
        known: &[u32],
    ) -> Self {
        let bits = table.bits();
        let bytes = bytemuck::cast_slice(table.words());
        let release = |range| table.release_bytes(range);
        let digest =
            Digest::of_releasing(bytes, done * u64::from(bits), CHUNK_BYTES, known, &release);
        Self::new(game, n, done, bits, widest, digest)
    }

    /// The state file that belongs to the work file `work_file`.
    pub fn path_for(work_file: &Path) -> PathBuf {
        WorkFile::checkpoint_path_for(work_file)
    }

    /// Reads the state file of `work_file`, if there is one; a damaged or foreign one is a
    /// one-line error.
    pub fn load(work_file: &Path) -> Result<Option<Checkpoint>> {
        let path = Self::path_for(work_file);
        let text = match std::fs::read(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("cannot read", path, e)),
        };
        let damaged = |why: &str| Error::cannot_resume(&path, why);
        let value: serde_json::Value =
            serde_json::from_slice(&text).map_err(|_| damaged("is damaged (not JSON)"))?;
        if value.get("crc32").is_none() && value.get("done").is_some() {
            return Err(damaged(
                "was written by an older nimsieve, without checksums",
            ));
        }
        let stored: Stored =
            serde_json::from_value(value).map_err(|e| damaged(&format!("is damaged ({e})")))?;
        if crc32fast::hash(stored.checkpoint.serialised().as_bytes()) != stored.crc32 {
            return Err(damaged("is damaged (its checksum does not match)"));
        }
        Ok(Some(stored.checkpoint))
    }

    /// Writes the state file of `work_file` atomically (an interrupt meanwhile finds the old
    /// state file or the new one, and removes the temporary one).
    pub fn save(&self, work_file: &Path) -> Result<()> {
        let path = Self::path_for(work_file);
        let body = self.serialised();
        let text = format!(
            "{{\"checkpoint\":{body},\"crc32\":{}}}\n",
            crc32fast::hash(body.as_bytes())
        );
        write_whole(&path, text.as_bytes())
    }

    /// Removes the state file of `work_file`, if there is one (also a window run's).
    pub fn remove(work_file: &Path) -> Result<()> {
        let path = Self::path_for(work_file);
        match interrupt::hold_off(|| std::fs::remove_file(&path)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io("cannot remove", &path, e))
            }
            _ => Ok(()),
        }
    }

    fn serialised(&self) -> String {
        serde_json::to_string(self).expect("checkpoint serialises")
    }

    /// Refuses a checkpoint that does not belong to a run of `game` over `n` positions in a
    /// work file with room for `widest` bits a value, or whose fields contradict each other.
    pub fn check_fields(&self, game: &Game, n: u64, widest: u32, work_file: &Path) -> Result<()> {
        let refuse = |why: String| Err(Error::cannot_resume(work_file, why));
        if self.format != FORMAT {
            return refuse(format!(
                "has a checkpoint of layout {}, not {FORMAT}",
                self.format
            ));
        }
        if self.game != game.spec || self.n != n {
            return refuse(format!(
                "belongs to {} with n = {}, not {} with n = {n}",
                self.game, self.n, game.spec
            ));
        }
        if self.rules != game.content_key() {
            return refuse(format!(
                "was computed with other rules ({}) than {} has now ({}): the set file changed",
                self.rules,
                game.spec,
                game.content_key()
            ));
        }
        let widths_fit = [1, 2, 4, 8, 16, 32].contains(&self.bits) && self.bits <= widest;
        if self.done > n || !widths_fit || self.widest != widest || self.chunk_bytes != CHUNK_BYTES
        {
            return refuse(format!(
                "has a checkpoint that cannot be right (done {} of n = {n}, {} of at most {widest} bits a value, chunks of {} bytes)",
                self.done, self.bits, self.chunk_bytes
            ));
        }
        Ok(())
    }

    /// Refuses a work file whose finished part differs from what the checkpoint recorded.
    pub fn check_table(&self, words: &Words, work_file: &Path) -> Result<()> {
        let release = |range| {
            words.release(range);
        };
        let words = words.get();
        let bits = self.done * u64::from(self.bits);
        if words.len() as u64 != words_for(self.n, self.widest) {
            return Err(Error::cannot_resume(
                work_file,
                "is not the size its checkpoint records",
            ));
        }
        let bytes = bytemuck::cast_slice(words);
        let found = Digest::of_releasing(bytes, bits, self.chunk_bytes, &[], &release);
        match found.first_difference(&self.digest) {
            None => Ok(()),
            Some(chunk) => {
                let per_chunk = self.chunk_bytes * 8 / u64::from(self.bits);
                let from = chunk as u64 * per_chunk;
                let to = (from + per_chunk).min(self.done);
                Err(Error::cannot_resume(
                    work_file,
                    format!(
                        "was changed after its checkpoint (positions {from} to {} differ from what was saved)",
                        to.saturating_sub(1)
                    ),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        Game::parse("squares").unwrap()
    }

    #[test]
    fn digests_cover_exactly_the_final_bits() {
        let bytes: Vec<u8> = (0..100u32).map(|i| (i * 37 % 251) as u8).collect();
        let whole = Digest::of(&bytes, 8 * 40 + 3, 16, &[]);
        assert_eq!(whole.sums.len(), 2);
        // A change past the final bits is not seen; one inside them is.
        let mut later = bytes.clone();
        later[40] ^= 0b1000;
        later[60] ^= 1;
        assert_eq!(Digest::of(&later, 8 * 40 + 3, 16, &[]), whole);
        for (byte, bit) in [(0, 0), (17, 7), (39, 2), (40, 2)] {
            let mut changed = bytes.clone();
            changed[byte] ^= 1 << bit;
            let other = Digest::of(&changed, 8 * 40 + 3, 16, &[]);
            assert_eq!(
                whole.first_difference(&other),
                Some(byte / 16),
                "byte {byte}"
            );
        }
        // Known sums are reused, and only the new chunks are computed.
        let grown = Digest::of(&bytes, 8 * 80, 16, &whole.sums);
        assert_eq!(grown, Digest::of(&bytes, 8 * 80, 16, &[]));
        assert_eq!(Digest::of(&bytes, 8 * 80, 16, &[7, 7]).sums[..2], [7, 7]);
    }

    #[test]
    fn checkpoints_round_trip_and_every_edit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("t.values");
        let words: Vec<u64> = (0..64).map(|i| i * 0x9e37_79b9).collect();
        let digest = Digest::of(bytemuck::cast_slice(&words), 125 * 8, CHUNK_BYTES, &[]);
        let c = Checkpoint::new(&game(), 512, 125, 8, 8, digest);
        c.save(&work).unwrap();
        assert_eq!(Checkpoint::load(&work).unwrap(), Some(c.clone()));
        let text = std::fs::read_to_string(Checkpoint::path_for(&work)).unwrap();
        for (from, to) in [
            ("\"done\":125", "\"done\":126"),
            ("\"bits\":8", "\"bits\":16"),
            ("\"n\":512", "\"n\":513"),
            ("\"game\":\"squares\"", "\"game\":\"cubes\""),
        ] {
            assert!(text.contains(from), "{text}");
            std::fs::write(Checkpoint::path_for(&work), text.replace(from, to)).unwrap();
            let refused = Checkpoint::load(&work).unwrap_err().to_string();
            assert!(refused.contains("checksum does not match"), "{refused}");
        }
        for damaged in ["{", "", "{\"game\":\"squares\",\"n\":5,\"done\":3}"] {
            std::fs::write(Checkpoint::path_for(&work), damaged).unwrap();
            assert!(Checkpoint::load(&work).is_err(), "{damaged}");
        }
        Checkpoint::remove(&work).unwrap();
        assert_eq!(Checkpoint::load(&work).unwrap(), None);
    }

    /// A pure period is stored as before arithmetic periods (no saltus), so that such a state
    /// file reads back with its checksum; an arithmetic one keeps its saltus.
    #[test]
    fn periods_are_stored_with_a_saltus_only_when_it_is_not_0() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("t.values");
        let text = || std::fs::read_to_string(Checkpoint::path_for(&work)).unwrap();
        let pure = Checkpoint {
            period: Some(Period::pure(3, 7)),
            ..Checkpoint::new(&game(), 512, 17, 8, 8, Digest::default())
        };
        pure.save(&work).unwrap();
        assert!(
            text().contains("\"period\":{\"preperiod\":3,\"period\":7},"),
            "{}",
            text()
        );
        assert_eq!(Checkpoint::load(&work).unwrap(), Some(pure.clone()));
        let arithmetic = Checkpoint {
            period: Some(Period {
                saltus: 4,
                ..Period::pure(1, 4)
            }),
            ..pure
        };
        arithmetic.save(&work).unwrap();
        assert!(text().contains("\"saltus\":4"), "{}", text());
        assert_eq!(Checkpoint::load(&work).unwrap(), Some(arithmetic));
    }

    #[test]
    fn fields_that_do_not_fit_the_run_are_refused() {
        let work = Path::new("t.values");
        let c = Checkpoint::new(&game(), 1000, 500, 8, 16, Digest::default());
        assert!(c.check_fields(&game(), 1000, 16, work).is_ok());
        let refused = |c: &Checkpoint, n: u64| c.check_fields(&game(), n, 16, work).is_err();
        assert!(refused(&c, 999));
        assert!(refused(
            &Checkpoint {
                done: 1001,
                ..c.clone()
            },
            1000
        ));
        assert!(refused(
            &Checkpoint {
                bits: 3,
                ..c.clone()
            },
            1000
        ));
        assert!(refused(
            &Checkpoint {
                bits: 32,
                ..c.clone()
            },
            1000
        ));
        assert!(refused(
            &Checkpoint {
                widest: 8,
                ..c.clone()
            },
            1000
        ));
        assert!(refused(
            &Checkpoint {
                chunk_bytes: 64,
                ..c.clone()
            },
            1000
        ));
        assert!(refused(
            &Checkpoint {
                format: 1,
                ..c.clone()
            },
            1000
        ));
        let rules = Checkpoint {
            rules: "set-file:x [3 elements, crc32 0]".into(),
            ..c
        };
        let message = rules.check_fields(&game(), 1000, 16, work).unwrap_err();
        assert!(message.to_string().contains("the set file changed"));
    }
}
