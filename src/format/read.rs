//! What every reader of a table file shares: the reason a file is refused, text rows read with
//! the `csv` crate (each row's label checked against the index of its first number), and
//! P-position lists checked to increase strictly before they are stored.

use super::Contents;
use crate::table::packed::PackedValues;
use crate::table::words::release_mapped;
use memmap2::Mmap;

/// What a reader of the file mapped at `map` (none for an empty file) calls when it has read
/// the bytes before `end`: they are released from the process
/// ([`release_mapped`](crate::table::words::release_mapped)), so that reading a file holds the
/// part being read, not the file.
pub fn read_before(map: Option<&Mmap>) -> impl Fn(usize) + '_ {
    move |end| {
        if let Some(map) = map {
            release_mapped(map, 0..end as u64);
        }
    }
}

/// A reader's result: the reason (without the file's name) when the file is refused.
pub type Parsed<T> = std::result::Result<T, String>;

/// Text quoted from a file in a message: its first 40 characters.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The file as text.
pub fn text(bytes: &[u8]) -> Parsed<&str> {
    std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

/// The number in `cell` of line `line`, or why it is not one.
pub fn number(cell: &[u8], line: u64) -> Parsed<u64> {
    let cell = cell.trim_ascii();
    std::str::from_utf8(cell)
        .ok()
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| {
            let text = String::from_utf8_lossy(cell);
            format!("line {line}: '{}' is not a number", shown(&text))
        })
}

/// How the rows of a text table (CSV, b-file) are laid out: a label, then one or more numbers.
pub struct Layout {
    /// Between the label and the numbers, and between numbers.
    pub separator: u8,
    /// The most numbers a row holds (`--wide K`: K; the last row may hold fewer).
    pub per_row: u64,
    /// The first row's label: 0 for values; None for P-positions, whose labels count from an
    /// offset (`--offset`) that the file does not state.
    pub first_label: Option<u64>,
    /// Whether the first line is a header.
    pub header: bool,
    /// Whether lines starting with `#` and blank lines are skipped (b-files).
    pub comments: bool,
}

impl Layout {
    /// Calls `each` with every number below the header, in order, after checking that each
    /// row's label is the index of its first number (counted from the first label).
    fn numbers(&self, text: &str, mut each: impl FnMut(u64, u64) -> Parsed<()>) -> Parsed<()> {
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(self.separator)
            .has_headers(self.header)
            .flexible(true)
            .comment(self.comments.then_some(b'#'))
            .from_reader(text.as_bytes());
        let mut record = csv::ByteRecord::new();
        let mut expected = self.first_label;
        loop {
            match reader.read_byte_record(&mut record) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(e) => return Err(e.to_string()),
            }
            let line = record.position().map_or(0, |p| p.line());
            if self.comments && record.iter().all(|cell| cell.trim_ascii().is_empty()) {
                continue;
            }
            let mut cells = record.iter();
            let label = number(cells.next().unwrap_or_default(), line)?;
            if let Some(expected) = expected.filter(|&e| e != label) {
                return Err(format!(
                    "line {line}: the row is labelled {label}, but it should be {expected}, the index of its first entry"
                ));
            }
            let count = cells.len() as u64;
            if count == 0 || count > self.per_row {
                return Err(if self.per_row == 1 {
                    format!(
                        "line {line}: expected two columns, an index and a number, separated by '{}'",
                        char::from(self.separator)
                    )
                } else {
                    format!(
                        "line {line}: expected a label and 1 to {} numbers, as the header announces",
                        self.per_row
                    )
                });
            }
            for cell in cells {
                each(line, number(cell, line)?)?;
            }
            expected = Some(
                label
                    .checked_add(count)
                    .ok_or(format!("line {line}: the label {label} is too large"))?,
            );
        }
    }

    /// The numbers as values of positions 0, 1, 2, …, packed with the fewest bits: one pass
    /// for their count and largest value, a second to store them.
    pub fn values(&self, text: &str) -> Parsed<PackedValues> {
        let (mut count, mut max) = (0u64, 0u32);
        self.numbers(text, |line, v| {
            let v = u32::try_from(v).map_err(|_| {
                format!("line {line}: value {v} is too large (values are below 2^32)")
            })?;
            count += 1;
            max = max.max(v);
            Ok(())
        })?;
        let mut values = PackedValues::in_memory(count, PackedValues::bits_for(max))
            .map_err(|e| e.to_string())?;
        let mut x = 0;
        self.numbers(text, |_, v| {
            values.set(x, v as u32);
            x += 1;
            Ok(())
        })?;
        Ok(values)
    }

    /// The numbers as P-positions, which must increase strictly: one pass to check and count
    /// them, a second to store them.
    pub fn positions(&self, text: &str) -> Parsed<Vec<u64>> {
        let mut ascending = Ascending::default();
        self.numbers(text, |line, p| {
            ascending.check(p, || format!("line {line}"))
        })?;
        let mut positions = room_for(ascending.count)?;
        self.numbers(text, |_, p| {
            positions.push(p);
            Ok(())
        })?;
        Ok(positions)
    }

    /// The table: P-positions when `ppos`, values otherwise.
    pub fn contents(&self, text: &str, ppos: bool) -> Parsed<Contents> {
        if ppos {
            self.positions(text).map(Contents::Positions)
        } else {
            self.values(text).map(Contents::Values)
        }
    }
}

/// Checks that P-positions increase strictly, and counts them.
#[derive(Default)]
struct Ascending {
    last: Option<u64>,
    count: u64,
}

impl Ascending {
    /// Takes the next P-position `p`, or says (at `at`) that it does not increase.
    fn check(&mut self, p: u64, at: impl Fn() -> String) -> Parsed<()> {
        if let Some(last) = self.last.filter(|&last| last >= p) {
            return Err(format!(
                "{}: P-position {p} after {last}: the P-positions are not strictly increasing",
                at()
            ));
        }
        self.last = Some(p);
        self.count += 1;
        Ok(())
    }
}

/// An empty list with room for `count` P-positions, or why it cannot be allocated.
pub fn room_for(count: u64) -> Parsed<Vec<u64>> {
    crate::table::reserve(count, "the list of P-positions").map_err(|e| e.to_string())
}

/// The `count` P-positions `numbers` of a binary file, which must increase strictly.
pub fn positions_of(count: u64, numbers: impl Iterator<Item = u64>) -> Parsed<Vec<u64>> {
    let mut positions = room_for(count)?;
    let mut ascending = Ascending::default();
    for (i, p) in numbers.enumerate() {
        ascending.check(p, || format!("entry {i}"))?;
        positions.push(p);
    }
    Ok(positions)
}
