//! The values of a packed table in order, read a word at a time: [`PackedValues::iter`].

use super::packed::{PASS, PackedValues};

/// The values of a [`PackedValues`] in position order. Each piece of [`PASS`] positions of a
/// file-backed or mapped table is released once read ([`PackedValues::release`]), so a pass
/// over the whole table holds one piece of it at a time.
pub struct Values<'a> {
    table: &'a PackedValues,
    words: &'a [u64],
    bits: u32,
    /// The position of the next value.
    x: u64,
    /// The values of the current word not yet returned, the next one in the lowest bits.
    word: u64,
    /// How many values `word` still holds.
    left: u64,
    /// True once the last piece is released.
    finished: bool,
}

impl<'a> Values<'a> {
    /// The values of `table` from position 0.
    pub(super) fn new(table: &'a PackedValues) -> Values<'a> {
        Values {
            table,
            words: table.words(),
            bits: table.bits(),
            x: 0,
            word: 0,
            left: 0,
            finished: false,
        }
    }

    /// Loads the word of position x (a word boundary), releasing the piece that ends there;
    /// None past the last position, once that piece is released too.
    fn refill(&mut self) -> Option<()> {
        let n = self.table.len();
        if self.x > 0 && (self.x.is_multiple_of(PASS) || self.x == n) && !self.finished {
            self.table.release((self.x - 1) / PASS * PASS..self.x);
        }
        if self.x >= n {
            self.finished = true;
            return None;
        }
        let per_word = u64::from(64 / self.bits);
        self.word = self.words[(self.x / per_word) as usize];
        self.left = per_word.min(n - self.x);
        Some(())
    }
}

impl Iterator for Values<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.left == 0 {
            self.refill()?;
        }
        let value = (self.word & (u64::MAX >> (64 - self.bits))) as u32;
        self.word >>= self.bits;
        self.left -= 1;
        self.x += 1;
        Some(value)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.table.len() - self.x) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Values<'_> {}

#[cfg(test)]
mod tests {
    use crate::table::packed::PackedValues;
    use crate::table::words::Words;

    /// At every width and for lengths that end inside a word or on its boundary, the values
    /// come out as `get` reads them, and the iterator knows how many are left.
    #[test]
    fn values_come_in_order_at_every_width() {
        for bits in [1, 2, 4, 8, 16, 32] {
            for n in [0, 1, 7, 8, 63, 64, 65, 1000] {
                let words = Words::in_memory(PackedValues::words_for(n, bits)).unwrap();
                let mut table = PackedValues::from_words(n, bits, words);
                let cap = table.capacity();
                (0..n).for_each(|x| table.set(x, (x as u32).wrapping_mul(2_654_435_761) & cap));
                let mut values = table.iter();
                assert_eq!(values.len(), n as usize);
                assert!((0..n).all(|x| values.next() == Some(table.get(x))));
                assert_eq!(
                    (values.next(), values.next(), values.len()),
                    (None, None, 0)
                );
            }
        }
    }
}
