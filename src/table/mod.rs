//! Value tables: what engines write and what analysis and emitters read.

pub mod bits;
pub mod packed;
pub mod passes;
pub mod reader;
pub mod resident;
pub mod words;
pub mod work_file;

use crate::error::{Error, Result};
use crate::game::Play;
use crate::period::Period;
use packed::PackedValues;

thread_local! {
    /// True while this thread allocates through [`reserve`], whose failure is answered.
    static FALLIBLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// True while the current thread makes an allocation whose failure the library answers with
/// an error: a process's global allocator that ends the process on a failed allocation lets
/// these fail instead.
pub fn allocation_may_fail() -> bool {
    FALLIBLE.try_with(std::cell::Cell::get).unwrap_or(false)
}

/// An empty vector with room for `len` items, or a one-line input error naming `what` when the
/// memory cannot be allocated (instead of an abort).
pub fn reserve<T>(len: u64, what: &str) -> Result<Vec<T>> {
    let bytes = u128::from(len) * std::mem::size_of::<T>() as u128;
    let mut items = Vec::new();
    let reserved = fits(bytes)
        && usize::try_from(len).ok().is_some_and(|len| {
            FALLIBLE.set(true);
            let reserved = items.try_reserve_exact(len);
            FALLIBLE.set(false);
            reserved.is_ok()
        });
    if !reserved {
        return Err(Error::OutOfMemory {
            what: what.to_string(),
            bytes,
        });
    }
    Ok(items)
}

/// `len` zero words in memory, zeroed by the system as they are first touched (a table costs
/// nothing until it is written), or an error as [`reserve`] gives.
pub fn zeroed_words(len: u64, what: &str) -> Result<Vec<u64>> {
    let bytes = u128::from(len) * 8;
    let out_of_memory = || Error::OutOfMemory {
        what: what.to_string(),
        bytes,
    };
    let layout = usize::try_from(len)
        .ok()
        .filter(|_| fits(bytes))
        .and_then(|len| std::alloc::Layout::array::<u64>(len).ok())
        .ok_or_else(out_of_memory)?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    FALLIBLE.set(true);
    // SAFETY: the layout's size is not zero.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    FALLIBLE.set(false);
    if ptr.is_null() {
        return Err(out_of_memory());
    }
    let len = len as usize;
    // SAFETY: allocated by the global allocator with the layout of `len` u64s, every one zero
    // (a valid u64), as a vector of that capacity would be.
    Ok(unsafe { Vec::from_raw_parts(ptr.cast::<u64>(), len, len) })
}

/// True when `bytes` are no more than the memory the system can still give.
fn fits(bytes: u128) -> bool {
    bytes <= u128::from(available_memory().unwrap_or(u64::MAX))
}

/// The memory the system can still give (MemAvailable of /proc/meminfo), where it says so:
/// an allocation the system would grant only to kill the process later is refused instead.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `len` copies of `fill` in memory, or an input error as [`reserve`] gives.
pub fn allocate<T: Clone>(len: u64, fill: T, what: &str) -> Result<Vec<T>> {
    let mut items = reserve(len, what)?;
    items.resize(len as usize, fill);
    Ok(items)
}

/// The values of `packed` as one u32 each, for readers that need a slice; an input error when
/// they cannot be allocated.
pub fn unpacked(packed: &PackedValues) -> Result<Vec<u32>> {
    let mut values = reserve(packed.len(), "the unpacked table")?;
    packed.each(0, packed.len(), |v| values.push(v));
    Ok(values)
}

/// What the numbers of a table mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// Sprague–Grundy values (normal play).
    Grundy,
    /// Outcomes under misère play: 0 = P (previous player wins), 1 = N.
    MisereOutcome,
}

impl ValueKind {
    /// The kind of table a game of this play produces.
    pub fn of(play: Play) -> ValueKind {
        match play {
            Play::Normal => ValueKind::Grundy,
            Play::Misere => ValueKind::MisereOutcome,
        }
    }
}

/// How the positions of a table are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The heaps 0..len of one-heap positions.
    Line,
    /// The positions (x, y) of two heaps, 0 ≤ x, y < side, row by row: (x, y) at x·side + y.
    Square {
        /// The side: the heaps below it.
        side: u64,
    },
}

/// The value of every position, packed: 0 ≤ x < len for one heap, row by row for two.
#[derive(Debug)]
pub struct Table {
    /// What the values mean.
    pub kind: ValueKind,
    /// How its positions are laid out.
    pub shape: Shape,
    /// The values.
    pub values: PackedValues,
    /// The proven eventual period, for games where the engine can prove one.
    pub period: Option<Period>,
}

impl Table {
    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.values.len()
    }

    /// True when the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of position x.
    pub fn get(&self, x: u64) -> u32 {
        self.values.get(x)
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.values.iter()
    }

    /// The P-positions (value 0), ascending.
    pub fn p_positions(&self) -> Vec<u64> {
        self.values.zero_positions()
    }
}

/// The table of a run: it can write its pages to disk, and shows the words its checkpoints
/// take checksums of.
pub trait WorkTable {
    /// Writes a file-backed table's pages to disk.
    fn flush(&self) -> Result<()>;

    /// Bits a value now.
    fn bits(&self) -> u32;

    /// The words of the table at its current width.
    fn words(&self) -> &[u64];

    /// Drops the byte range `bytes` of a file-backed table's words from the process
    /// ([`words::Words::release`]), once a whole-table pass has read them.
    fn release_bytes(&self, bytes: std::ops::Range<u64>);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_words_are_zero_or_refused() {
        assert!(zeroed_words(0, "t").unwrap().is_empty());
        let words = zeroed_words(1 << 20, "t").unwrap();
        assert_eq!((words.len(), words.capacity()), (1 << 20, 1 << 20));
        assert!(words.iter().all(|&w| w == 0));
        let refused = zeroed_words(u64::MAX / 4, "the table").unwrap_err();
        assert!(matches!(refused, Error::OutOfMemory { .. }), "{refused}");
        assert!(
            refused.to_string().starts_with("the table needs "),
            "{refused}"
        );
    }
}
