//! The checkpoint of a run that keeps no table: `<stem>.window.state.json` beside the outputs
//! holds one line of JSON (the game, n, how far the run got, its mask, rare positions and
//! histogram, and the state of what takes its values), then the head's bytes and the tail's,
//! then the CRC-32 of everything before it. It is written whole under a temporary name and
//! renamed into place, so a run killed at any time leaves the last complete checkpoint; any
//! change to it is found on `--resume`.

use super::Window;
use crate::engine::rare_values::Sieve;
use crate::engine::rare_values::context::Mode;
use crate::engine::resumable;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The layout version of the checkpoints of runs that keep no table.
const FORMAT: u32 = 1;

/// What a window run takes its values with: it counts them, and saves and restores its own
/// state with the window's.
pub trait Consumer {
    /// Takes the values of the next positions.
    fn add(&mut self, values: &[u32]);
    /// Its state, to save.
    fn state(&self) -> serde_json::Value;
    /// Takes up a saved state; an error says why it cannot.
    fn restore(&mut self, state: serde_json::Value) -> std::result::Result<(), String>;
}

/// The first line of a checkpoint.
#[derive(Serialize, Deserialize)]
struct Header {
    format: u32,
    game: String,
    rules: String,
    n: u64,
    from: u64,
    done: u64,
    bits: u32,
    head: u64,
    tail: u64,
    mask: u32,
    counts: Vec<u64>,
    rare: Vec<(u64, u32)>,
    discarded: u64,
    last: Vec<u64>,
    consumer: serde_json::Value,
}

/// Where the checkpoint of the run whose (never created, only locked) work file is `work`
/// lies.
pub fn path_for(work: &Path) -> PathBuf {
    WorkFile::checkpoint_path_for(work)
}

/// Saves the window of `sieve` (past its start) and the state of `consumer` for `work`.
pub(super) fn save(
    work: &Path,
    game: &Game,
    sieve: &Sieve,
    values: &PackedValues,
    consumer: &dyn Consumer,
) -> Result<()> {
    let window = sieve.window.as_ref().expect("a window run");
    let head = window.head.expect("saved past the window's start");
    let tail = sieve.tail(head);
    let Mode::Sparse(mask) = sieve.mode else {
        unreachable!("a window keeps sparse space")
    };
    let header = Header {
        format: FORMAT,
        game: game.spec.clone(),
        rules: game.content_key(),
        n: values.len(),
        from: window.from,
        done: sieve.done,
        bits: values.bits(),
        head,
        tail,
        mask,
        counts: sieve.counts.clone(),
        rare: sieve.rare.clone(),
        discarded: window.discarded,
        last: window.last.clone(),
        consumer: consumer.state(),
    };
    let mut bytes = serde_json::to_vec(&header).expect("a header serialises");
    bytes.push(b'\n');
    bytes.extend_from_slice(positions(values, 0..head));
    bytes.extend_from_slice(positions(values, tail..sieve.done));
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    resumable::write_whole(&path_for(work), &bytes)
}

/// The bytes of the values of `range` (whole bytes: the widths are 8, 16 and 32 bits).
fn positions(values: &PackedValues, range: std::ops::Range<u64>) -> &[u8] {
    let bytes: &[u8] = bytemuck::cast_slice(values.words());
    let width = u64::from(values.bits()) / 8;
    &bytes[(range.start * width) as usize..(range.end * width) as usize]
}

/// Restores the saved window of `work`, if there is one, into `sieve`, `values` and
/// `consumer`: the run goes on from where it was saved. A checkpoint of another game, n or
/// window, or a damaged one, is a one-line error.
pub(super) fn restore(
    work: &Path,
    game: &Game,
    sieve: &mut Sieve,
    values: &mut PackedValues,
    consumer: &mut dyn Consumer,
) -> Result<bool> {
    let path = path_for(work);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::io("cannot read", path, e)),
    };
    let damaged = |why: &str| Error::cannot_resume(&path, why.to_string());
    let (body, crc) = bytes.split_at(bytes.len().saturating_sub(4));
    if crc.len() != 4 || crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().unwrap()) {
        return Err(damaged("is damaged (its checksum does not match)"));
    }
    let line = body
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("is damaged"))?;
    let header: Header =
        serde_json::from_slice(&body[..line]).map_err(|_| damaged("is damaged (its header)"))?;
    let window = sieve.window.as_ref().expect("a window run");
    let ours = (
        game.spec.as_str(),
        game.content_key(),
        values.len(),
        window.from,
    );
    if header.format != FORMAT
        || ours
            != (
                header.game.as_str(),
                header.rules.clone(),
                header.n,
                header.from,
            )
    {
        return Err(damaged(&format!(
            "belongs to '{}' with n = {} and a window of {}, not to this run; remove it, or run that command",
            header.game, header.n, header.from
        )));
    }
    let width = u64::from(header.bits) / 8;
    let kept = (header.head + header.done - header.tail) * width;
    if (body.len() - line - 1) as u64 != kept || header.tail > header.done {
        return Err(damaged("is damaged (its window's length)"));
    }
    if header.bits != values.bits() {
        values.widen_kept(header.bits, 0, &[]);
    }
    let (head_bytes, tail_bytes) = body[line + 1..].split_at((header.head * width) as usize);
    write_positions(values, 0, head_bytes);
    write_positions(values, header.tail, tail_bytes);
    consumer
        .restore(header.consumer)
        .map_err(|why| damaged(&why))?;
    sieve.done = header.done;
    sieve.counts = header.counts;
    sieve.mode = Mode::Sparse(header.mask);
    sieve.rare = header.rare;
    sieve.rare_at_revision = sieve.rare.len();
    sieve.high = None;
    (sieve.next_check, sieve.next_revision) = (u64::MAX, u64::MAX);
    sieve.window = Some(Window {
        from: header.from,
        head: Some(header.head),
        discarded: header.discarded.max(header.tail),
        last: header.last,
    });
    Ok(true)
}

/// Writes `bytes` over the values from position `first` on.
fn write_positions(values: &mut PackedValues, first: u64, bytes: &[u8]) {
    let width = u64::from(values.bits()) / 8;
    let end = first + bytes.len() as u64 / width;
    let all: &mut [u8] = bytemuck::cast_slice_mut(values.words_mut());
    all[(first * width) as usize..(end * width) as usize].copy_from_slice(bytes);
}
