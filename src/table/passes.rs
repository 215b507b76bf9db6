//! Passes over a whole table that release what they have read (a file-backed or mapped
//! table's, [`PackedValues::release`]), besides the pieces of [`PackedValues::read_once`]: a
//! pass that moves forward and does not come back ([`Behind`]), and the search for a proven
//! period ([`find_period`]).

use super::packed::{PASS, PackedValues};
use crate::period::{self, Criterion, Finding};

/// A pass that moves forward through a table and releases the whole pieces of [`PASS`]
/// positions it has left behind, each once.
#[derive(Debug, Default)]
pub struct Behind {
    /// Positions below this one are released (a multiple of [`PASS`], or the table's end).
    released: u64,
}

impl Behind {
    /// A pass that reads the positions below `below` again, or did not read them: it releases
    /// only from the first multiple of [`PASS`] at or after `below` on.
    pub fn keeping(below: u64) -> Behind {
        Behind {
            released: below.next_multiple_of(PASS),
        }
    }

    /// The pass reads no position below `below` again: releases the whole pieces of [`PASS`]
    /// positions below it not released yet (to the end of the table, and the room after it,
    /// once `below` reaches the end). Returns the bytes released.
    pub fn passed(&mut self, values: &PackedValues, below: u64) -> u64 {
        let to = match below >= values.len() {
            true => values.len(),
            false => below / PASS * PASS,
        };
        if to <= self.released {
            return 0;
        }
        let from = std::mem::replace(&mut self.released, to);
        values.release(from..to)
    }
}

/// What `criterion` proves from the first `len` values of `values` ([`period::find_in`]),
/// releasing the positions each wave of candidate periods has read; None for a table narrower
/// than 8 bits a value, which only [`period::find_by`] reads (value by value, keeping what it
/// reads).
pub fn find_period(values: &PackedValues, len: u64, criterion: &Criterion) -> Option<Finding> {
    let passed = |range| {
        values.release(range);
    };
    let end = len as usize;
    Some(match values.bits() {
        8 => period::find_in(&values.as_slice::<u8>()?[..end], criterion, &passed),
        16 => period::find_in(&values.as_slice::<u16>()?[..end], criterion, &passed),
        32 => period::find_in(&values.as_slice::<u32>()?[..end], criterion, &passed),
        _ => return None,
    })
}

/// The smallest period `criterion` proves from the values of `values`, with its smallest
/// preperiod: [`find_period`], or for a table narrower than 8 bits [`period::find_by`].
pub fn proven_period(values: &PackedValues, criterion: &Criterion) -> Option<period::Period> {
    match find_period(values, values.len(), criterion) {
        Some(finding) => finding.proven(),
        None => period::find_by(values.len(), |x| values.get(x), criterion),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::period::Period;
    use crate::table::resident::tests::{rss, written, written_with};
    use crate::table::words::RELEASE_ALIGN;

    /// A forward pass releases the whole pieces behind it, at piece boundaries (no page is
    /// left over between two releases), and everything once it reaches the end.
    #[test]
    fn a_forward_pass_releases_what_it_left_behind() {
        let n = 5 * PASS + 1000;
        let (_dir, values) = written(n);
        let mut behind = Behind::keeping(1);
        let mut sum = 0u64;
        for (k, x) in (0..n).step_by(777).enumerate() {
            sum += u64::from(values.get(x));
            if k % 64 == 0 {
                behind.passed(&values, x.saturating_sub(1000));
            }
        }
        assert!(sum > 0);
        // The first piece (from 1 on: the pass reads it again) and the last two stay.
        let kept = rss(&values);
        assert!(
            (2 * PASS..=6 * PASS + 4 * RELEASE_ALIGN).contains(&kept),
            "{kept} bytes kept"
        );
        behind.passed(&values, n);
        let kept = rss(&values);
        assert!(kept <= 2 * PASS + 2 * RELEASE_ALIGN, "{kept} bytes kept");
        assert!((0..n).all(|x| values.get(x) == (x * 7 % 65_521) as u32));
    }

    /// The largest value is found a piece at a time, each released.
    #[test]
    fn the_largest_value_keeps_little_of_a_file_backed_table() {
        let n = 1 << 24;
        let (_dir, values) = written(n);
        assert_eq!(values.max(), 65_520);
        let kept = rss(&values);
        assert!(kept <= 4 * RELEASE_ALIGN, "{kept} of {} bytes kept", 2 * n);
    }

    /// The period search of a table of 8 bits a value or more releases what it reads, and
    /// proves what the search value by value proves.
    #[test]
    fn the_period_search_keeps_little_of_a_file_backed_table() {
        let n: u64 = 1 << 23;
        // Values with no period.
        let (_dir, values) = written_with(n, 16, |x| {
            (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48) as u32
        });
        values.release(0..n);
        let game = Game::parse("grundys-game").unwrap();
        let criterion = game.period_criterion().unwrap();
        assert_eq!(proven_period(&values, &criterion), None);
        let kept = rss(&values);
        assert!(kept < 2 * n / 8, "{kept} of {} bytes kept", 2 * n);
        // A period found is compared back to its preperiod a stretch at a time.
        let (_dir, values) = written_with(n, 16, |x| (x % 1000) as u32);
        values.release(0..n);
        let window = Criterion::Window {
            window: 8,
            uniform_from: 0,
        };
        let found = proven_period(&values, &window).map(|p| (p.preperiod, p.period));
        assert_eq!(found, Some((0, 1000)));
        let kept = rss(&values);
        assert!(kept < 2 * n / 8, "{kept} of {} bytes kept", 2 * n);
        // Period 7 from 3, at 16 bits and at 2 (searched value by value).
        let value = |x: u64| {
            if x < 3 {
                3
            } else {
                [0, 1, 1, 2, 0, 3, 3][x as usize % 7]
            }
        };
        let plain: Vec<u32> = (0..4096).map(value).collect();
        let criterion = Criterion::Window {
            window: 8,
            uniform_from: 0,
        };
        let found = period::find(&plain, 8, 0);
        assert_eq!(found.map(|p| (p.preperiod, p.period)), Some((3, 7)));
        for bits in [2, 16] {
            let mut table = PackedValues::in_memory(4096, bits).unwrap();
            (0..4096).for_each(|x| table.set(x, value(x)));
            assert_eq!(proven_period(&table, &criterion), found, "{bits} bits");
        }
    }

    /// Filling a table from its period writes it a piece at a time and releases each piece
    /// written: a file-backed table keeps the piece the copies come from.
    #[test]
    fn filling_a_period_keeps_little_of_a_file_backed_table() {
        let n = 1 << 25;
        let p = Period::pure(3, 7);
        let value = |x: u64| {
            if x < 3 {
                9
            } else {
                [0, 1, 1, 2, 0, 3, 3][x as usize % 7]
            }
        };
        let (_dir, mut values) = written_with(n, 8, |x| if x < 100 { value(x) } else { 0 });
        values.release(0..n);
        values.extend_periodically(100, p);
        let kept = rss(&values);
        assert!(
            kept <= 2 * PASS + 4 * RELEASE_ALIGN,
            "{kept} of {n} bytes kept"
        );
        assert!((0..n).all(|x| values.get(x) == value(x)));
        // An arithmetic period (Lasker's Nim), value by value, keeps the last piece.
        let p = Period {
            preperiod: 1,
            period: 4,
            saltus: 4,
        };
        let lasker = |x: u64| match x % 4 {
            0 if x > 0 => x - 1,
            3 => x + 1,
            _ => x,
        } as u32;
        let n = 1 << 24;
        let (_dir, mut values) = written_with(n, 32, |x| if x < 5 { lasker(x) } else { 0 });
        values.release(0..n);
        values.extend_arithmetically(5..n, p);
        let kept = rss(&values);
        assert!(
            kept <= 4 * PASS + 4 * RELEASE_ALIGN,
            "{kept} of {} bytes kept",
            4 * n
        );
        assert!((0..n).all(|x| values.get(x) == lasker(x)));
    }
}
