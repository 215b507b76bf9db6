//! Tests of the packed tables: widths, widening, periods, passes and releases.

use super::PackedValues;
use crate::table::WorkTable;
use crate::table::words::Words;
use crate::table::work_file::WorkFile;

/// A pass over a file-backed table, or over a file mapped read-only, holds one piece of
/// it at a time: what it has read leaves the process.
#[test]
fn passes_over_a_mapped_table_keep_one_piece() {
    use crate::table::resident::tests::{rss, written};
    use crate::table::words::RELEASE_ALIGN;
    let n = 1 << 24;
    let (dir, values) = written(n);
    let (table_bytes, piece) = (2 * n, 2 * super::PASS);
    let kept = piece + 4 * RELEASE_ALIGN;
    let value = |x: usize| (x as u64 * 7 % 65_521) as u32;
    assert!(values.iter().enumerate().all(|(x, v)| v == value(x)));
    assert!(rss(&values) <= kept, "{} bytes kept", rss(&values));
    let mut sum = 0;
    values.each(0, n, |v| sum += u64::from(v));
    let whole = rss(&values);
    assert!(
        whole >= table_bytes - RELEASE_ALIGN,
        "each keeps what it reads: {whole}"
    );
    let mut x = 0;
    values.each_once(0, n, |v| {
        assert_eq!(v, value(x));
        sum -= u64::from(v);
        x += 1;
    });
    assert_eq!((x, sum), (n as usize, 0));
    assert!(rss(&values) <= kept, "{} bytes kept", rss(&values));
    values.flush().unwrap();
    let file = std::fs::File::open(dir.path().join("t.values")).unwrap();
    // SAFETY: the file is only read, and nothing changes it meanwhile.
    let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
    let words = Words::mapped(map, 0..table_bytes as usize).unwrap();
    let mapped = PackedValues::from_words(n, 16, words);
    assert!(mapped.iter().enumerate().all(|(x, v)| v == value(x)));
    assert!(rss(&mapped) <= kept, "{} bytes kept", rss(&mapped));
}

/// Widening clears the positions from `done` on where a write may have reached, and does
/// not read the words known to be zero.
#[test]
fn widening_clears_only_what_writes_reached() {
    let n = 1000;
    let storage = || Words::in_memory(PackedValues::words_for(n, 32)).unwrap();
    // Known zero from position 0; a word planted behind the table's back where it is known
    // to be zero (word 200: positions 1600 on at 8 bits, 800 on at 16) is not touched.
    let mut words = storage();
    words.get_mut()[200] = 1;
    let mut p = PackedValues::zeroed_from(n, 8, words, 0);
    (0..600).for_each(|x| p.set(x, 7));
    p.widen(16, 500);
    assert!((0..500).all(|x| p.get(x) == 7) && (500..800).all(|x| p.get(x) == 0));
    assert_eq!(p.words.get()[200], 1, "words known to be zero are not read");
    // Writes through a slice of the first positions are cleared too.
    let mut p = PackedValues::zeroed_from(n, 8, storage(), 0);
    p.as_mut_prefix::<u8>(700).unwrap().fill(9);
    p.widen(16, 300);
    assert!((0..300).all(|x| p.get(x) == 9) && (300..n).all(|x| p.get(x) == 0));
    // Then a write past `done` and a second widening.
    p.set(900, 3);
    p.widen(32, 800);
    assert!((800..n).all(|x| p.get(x) == 0) && p.get(299) == 9);
    // Words of unknown contents are cleared to the end of the widened table.
    let mut words = storage();
    words.get_mut().fill(u64::MAX);
    let mut p = PackedValues::from_words(n, 8, words);
    p.widen(16, 100);
    assert!((0..100).all(|x| p.get(x) == 255) && (100..n).all(|x| p.get(x) == 0));
}

/// An arithmetic period copies each value from one period back plus the saltus.
#[test]
fn extends_by_an_arithmetic_period() {
    let p = crate::period::Period {
        preperiod: 1,
        period: 4,
        saltus: 4,
    };
    let mut values = PackedValues::zeroed(1000, 16, 16, None).unwrap();
    for (x, v) in [0, 1, 2, 4, 3].into_iter().enumerate() {
        values.set(x as u64, v);
    }
    values.extend_periodically(5, p);
    // Lasker's Nim: x, but 4k + 3 and 4k + 4 swapped.
    let lasker = |x: u32| match x % 4 {
        0 if x > 0 => x - 1,
        3 => x + 1,
        _ => x,
    };
    for x in 0..1000 {
        assert_eq!(values.get(x), lasker(x as u32), "{x}");
    }
}

#[test]
fn widths_and_round_trips() {
    assert_eq!(
        [0, 1, 2, 3, 4, 15, 16, 255, 256, 65536].map(PackedValues::bits_for),
        [1, 1, 2, 2, 4, 4, 8, 8, 16, 32]
    );
    for bits in [1, 2, 4, 8, 16, 32] {
        let mut p = PackedValues::in_memory(1000, bits).unwrap();
        let cap = p.capacity();
        for x in 0..1000u64 {
            p.set(x, (x as u32 * 7919) & cap);
        }
        assert!(
            (0..1000u64).all(|x| p.get(x) == (x as u32 * 7919) & cap),
            "{bits} bits"
        );
    }
    let values = [0, 3, 1, 2, 0];
    assert_eq!(PackedValues::from_values(&values).unwrap().bits(), 2);
    assert!(
        PackedValues::from_values(&values)
            .unwrap()
            .iter()
            .eq(values)
    );
}

#[test]
fn widening_keeps_the_final_values_and_zeroes_the_rest() {
    for (from, to) in [(1, 2), (1, 16), (2, 4), (4, 8), (8, 32), (16, 32)] {
        let n = 1000u64;
        let mut p = PackedValues::from_words(
            n,
            from,
            Words::in_memory(PackedValues::words_for(n, 32)).unwrap(),
        );
        let cap = p.capacity();
        let value = |x: u64| (x as u32 * 7919) & cap;
        for x in 0..n {
            p.set(x, value(x));
        }
        p.widen(to, 777);
        assert_eq!((p.bits(), p.capacity()), (to, u32::MAX >> (32 - to)));
        assert!((0..777).all(|x| p.get(x) == value(x)), "{from} -> {to}");
        assert!((777..n).all(|x| p.get(x) == 0), "{from} -> {to}");
        assert_eq!(p.words().len() as u64, PackedValues::words_for(n, to));
        p.set(n - 1, cap + 1);
        assert_eq!(p.get(n - 1), cap + 1);
    }
}

#[test]
fn file_backed_values_persist() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.bin");
    let work_file = WorkFile::acquire(&path).unwrap();
    let mut p = PackedValues::zeroed(100, 4, 4, Some(&work_file)).unwrap();
    p.set(99, 11);
    p.flush().unwrap();
    drop(p);
    assert_eq!(
        PackedValues::from_words(100, 4, Words::in_file(&work_file, 7, true).unwrap()).get(99),
        11
    );
    assert!(Words::in_file(&work_file, 13, true).is_err());
}

/// A table in reserved words that keeps a head and a tail widens those, and gives back the
/// storage between them, which then reads as zero.
#[test]
fn widening_a_window_keeps_its_head_and_tail() {
    use crate::table::words::Words;
    let n: u64 = 1 << 22;
    let words = Words::reserved(PackedValues::words_for(n, 32)).unwrap();
    let mut p = PackedValues::zeroed_from(n, 8, words, 0);
    let value = |x: u64| (x.wrapping_mul(0x9e37_79b9) >> 7) as u32 & 255;
    let done = n - 1000;
    (0..done).for_each(|x| p.set(x, value(x)));
    let (head, tail) = (1 << 18, 3 << 20);
    p.widen_kept(16, done, &[0..head, tail..done]);
    assert_eq!(p.bits(), 16);
    assert!((0..head).chain(tail..done).all(|x| p.get(x) == value(x)));
    // Whole pages between the head and the tail are given back: they read as zero.
    let page = crate::table::words::RELEASE_ALIGN / 2;
    assert!((head + page..tail - page).all(|x| p.get(x) == 0));
    assert!((done..n).all(|x| p.get(x) == 0));
}
