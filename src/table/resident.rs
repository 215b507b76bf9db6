//! What a file-backed table keeps in the process while an engine fills it: the head (the
//! small positions every new position reads) and the tail (the recent positions), released in
//! between ([`PackedValues::release`]), so that the page cache, not the process, holds the bulk
//! of a table larger than memory, and the kernel evicts the positions no one reads first.

use super::packed::PackedValues;

/// Positions the tail moves on between two releases of the positions newly behind it.
pub const STEP: u64 = 1 << 20;

/// The release of the positions between a head and a tail as the tail moves on.
#[derive(Debug)]
pub struct Resident {
    /// The head at the last release.
    head: u64,
    /// The tail at the last release: positions from `head` to here were released.
    released: u64,
    /// The whole table was read since the last release, so its pages are back.
    reread: bool,
}

impl Default for Resident {
    /// Nothing released yet: the first [`Resident::keep`] releases all between head and tail.
    fn default() -> Self {
        Resident {
            head: 0,
            released: 0,
            reread: true,
        }
    }
}

impl Resident {
    /// Notes a pass over the whole table (a period check, a new mask, a widening): the next
    /// [`Resident::keep`] releases every position between the head and the tail again.
    pub fn reread(&mut self) {
        self.reread = true;
    }

    /// Keeps the positions below `head` and from `tail` on in the process and releases those
    /// between: all of them after a pass over the whole table or when the head moved down,
    /// otherwise those the tail passed since the last release, once they are [`STEP`]
    /// positions. After a pass, the positions from `ahead` on (not computed yet, which a
    /// widening or a resume clears) are released too. Returns the bytes released (0 for a
    /// table in memory).
    pub fn keep(&mut self, values: &PackedValues, head: u64, tail: u64, ahead: u64) -> u64 {
        if tail <= head {
            return 0;
        }
        let pass = self.reread;
        let from = if pass || head < self.head {
            head
        } else if tail >= self.released + STEP {
            self.released.max(head)
        } else {
            return 0;
        };
        (self.head, self.released, self.reread) = (head, tail, false);
        let behind = values.release(from..tail);
        if pass {
            behind + values.release(ahead.min(values.len())..values.len())
        } else {
            behind
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::table::words::{RELEASE_ALIGN, Words};
    use crate::table::work_file::WorkFile;

    /// Bytes of `region` the process has resident: its pages present in the process's page
    /// table (`/proc/self/pagemap`), so a neighbouring mapping the kernel merged with it is
    /// not counted.
    pub(crate) fn resident_bytes<T>(region: &[T]) -> u64 {
        use std::io::{Read, Seek, SeekFrom};
        let page = page_size();
        let start = region.as_ptr() as u64 / page;
        let end = (region.as_ptr() as u64 + std::mem::size_of_val(region) as u64).div_ceil(page);
        let mut pagemap = std::fs::File::open("/proc/self/pagemap").unwrap();
        pagemap.seek(SeekFrom::Start(start * 8)).unwrap();
        let mut entries = vec![0u8; ((end - start) * 8) as usize];
        pagemap.read_exact(&mut entries).unwrap();
        let present = entries
            .chunks_exact(8)
            .filter(|e| u64::from_le_bytes((*e).try_into().unwrap()) >> 63 == 1)
            .count();
        present as u64 * page
    }

    /// The size of a page of memory, from `/proc/self/smaps`.
    fn page_size() -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let kib = smaps
            .lines()
            .find_map(|line| line.strip_prefix("KernelPageSize:"))
            .unwrap();
        kib.trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .unwrap()
            * 1024
    }

    /// A file-backed table of `n` values of 16 bits, every value written (so every page is
    /// in the process), in a folder of its own.
    pub(crate) fn written(n: u64) -> (tempfile::TempDir, PackedValues) {
        written_with(n, 16, |x| (x * 7 % 65_521) as u32)
    }

    /// A file-backed table of `n` values of `bits` bits, value x being `value(x)`, every value
    /// written, in a folder of its own.
    pub(crate) fn written_with(
        n: u64,
        bits: u32,
        value: impl Fn(u64) -> u32,
    ) -> (tempfile::TempDir, PackedValues) {
        let dir = tempfile::tempdir().unwrap();
        let work_file = WorkFile::acquire(&dir.path().join("t.values")).unwrap();
        let words = Words::in_file(&work_file, PackedValues::words_for(n, bits), false).unwrap();
        let mut values = PackedValues::from_words(n, bits, words);
        (0..n).for_each(|x| values.set(x, value(x)));
        (dir, values)
    }

    /// The resident bytes of the mapping that holds the table.
    pub(crate) fn rss(values: &PackedValues) -> u64 {
        resident_bytes(values.words())
    }

    #[test]
    fn released_positions_leave_the_process_and_keep_their_values() {
        let n = 1 << 22;
        let table_bytes = 2 * n;
        let (_dir, values) = written(n);
        assert!(rss(&values) >= table_bytes - RELEASE_ALIGN, "written whole");
        let (head, tail) = (1 << 18, n - (1 << 18));
        let mut resident = Resident::default();
        let released = resident.keep(&values, head, tail, n);
        assert_eq!(released, 2 * (tail - head));
        // Head and tail stay: at most the 2 · 2^18 positions of 2 bytes, and the pieces the
        // process's own reads fault around them.
        let kept = rss(&values);
        assert!(
            kept <= 4 * (1 << 18) + 4 * RELEASE_ALIGN,
            "{kept} bytes kept"
        );
        // The released values read back unchanged, and come back into the process.
        assert!((0..n).all(|x| values.get(x) == (x * 7 % 65_521) as u32));
        assert!(rss(&values) >= table_bytes - RELEASE_ALIGN);
    }

    #[test]
    fn the_tail_releases_what_it_passed_a_step_at_a_time_and_a_pass_all_again() {
        let n = 1 << 23;
        let (_dir, values) = written(n);
        let mut resident = Resident::default();
        let head = 1 << 16;
        // The first release: between head and tail, and past the positions computed.
        let ahead = n - (1 << 21);
        let first = resident.keep(&values, head, 1 << 20, ahead);
        assert_eq!(first, 2 * ((1 << 20) - head) + 2 * (1 << 21));
        // Less than a step on: nothing; a step on: only the step.
        assert_eq!(resident.keep(&values, head, (1 << 20) + STEP - 1, ahead), 0);
        assert_eq!(
            resident.keep(&values, head, (1 << 20) + STEP, ahead),
            2 * STEP
        );
        // A head that moved up past the last release keeps what lies below it.
        let up = (1 << 20) + STEP + STEP / 2;
        assert_eq!(resident.keep(&values, up, (1 << 20) + 2 * STEP, n), STEP);
        // A pass over the table brings its pages back; the next keep releases them all.
        assert!((0..n).all(|x| values.get(x) == (x * 7 % 65_521) as u32));
        resident.reread();
        let tail = n - (1 << 16);
        assert_eq!(resident.keep(&values, head, tail, n), 2 * (tail - head));
        let kept = rss(&values);
        assert!(
            kept <= 4 * (1 << 16) + 4 * RELEASE_ALIGN,
            "{kept} bytes kept"
        );
        // A table in memory releases nothing.
        let memory = PackedValues::in_memory(n, 16).unwrap();
        assert_eq!(Resident::default().keep(&memory, head, tail, 0), 0);
    }

    #[test]
    fn widening_a_work_file_releases_the_positions_not_computed_yet() {
        let n: u64 = 1 << 22;
        let dir = tempfile::tempdir().unwrap();
        let work_file = WorkFile::acquire(&dir.path().join("t.values")).unwrap();
        let words = Words::in_file(&work_file, PackedValues::words_for(n, 16), false).unwrap();
        let mut values = PackedValues::from_words(n, 8, words);
        let done = n / 4;
        (0..done).for_each(|x| values.set(x, (x % 251) as u32));
        values.widen(16, done);
        // The repacked positions stay (2 bytes each); the others, which the widening reads to
        // clear them, leave the process as they are cleared.
        let kept = resident_bytes(values.words());
        assert!(kept <= 2 * done + 4 * RELEASE_ALIGN, "{kept} bytes kept");
        assert!((0..done).all(|x| values.get(x) == (x % 251) as u32));
        assert!((done..n).all(|x| values.get(x) == 0));
    }
}
