//! The engine's own tests: what a run keeps of a file-backed table, and when stretches go
//! in blocks.

use super::*;
use crate::table::resident::tests::resident_bytes;
use crate::table::words::Words;
use crate::table::work_file::WorkFile;

/// A period check reads the whole table; a file-backed table keeps little of it.
#[test]
fn a_period_check_keeps_little_of_a_file_backed_table() {
    let n: u64 = 1 << 23;
    let dir = tempfile::tempdir().unwrap();
    let work_file = WorkFile::acquire(&dir.path().join("t.values")).unwrap();
    let words = Words::in_file(&work_file, PackedValues::words_for(n, 16), false).unwrap();
    let mut values = PackedValues::from_words(n, 16, words);
    // Values with no period.
    (0..n).for_each(|x| values.set(x, (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48) as u32));
    values.release(0..n);
    let game = Game::parse("grundys-game").unwrap();
    let criterion = game.period_criterion().unwrap();
    let finding = find_period(&values, n, &criterion);
    assert!(matches!(finding, Finding::Unproven(_)), "{finding:?}");
    let table_bytes = 2 * n;
    let kept = resident_bytes(values.words());
    assert!(kept < table_bytes / 4, "{kept} of {table_bytes} bytes kept");
}

/// `.166` (176 rare positions) sweeps hundreds of splits a position one position after
/// another and so goes on in blocks; `.354` (132) sweeps a few tens and stays in order.
/// Either way the values are the reference engine's.
#[test]
fn stretches_that_sweep_many_splits_give_way_to_blocks() {
    let n = 12_000;
    for (code, heavy) in [("octal:0.166", true), ("octal:0.354", false)] {
        let game = Game::parse(code).unwrap();
        let (moves, criterion) = finite_code(&game).unwrap();
        let mut values = PackedValues::in_memory(n, FIRST_BITS).unwrap();
        let mut sieve = Sieve::resume(&moves, &values, 0);
        let end = sieve.advance(
            &mut values,
            0,
            &criterion,
            &mut |_| ControlFlow::Continue(()),
            &mut |_| (),
        );
        assert!(matches!(end, Ok(Advance::Completed)), "{code}");
        assert!(sieve.rare.len() <= IN_ORDER_RARE, "{code}");
        assert_eq!(sieve.heavy_sweep, heavy, "{code}");
        let reference = crate::engine::reference::compute(&game, n, &Progress::hidden());
        let want: Vec<u32> = reference.unwrap().iter().collect();
        assert!(values.iter().eq(want), "{code}");
    }
}

/// `4.044` and `4.256` pass the value 255 one position after another: the table is widened
/// to 16 bits, and the values the stretch wrote into the narrow one are written again.
#[test]
fn stretches_in_order_past_eight_bits_give_the_reference_values() {
    let n = 20_000;
    for code in ["octal:4.044", "octal:4.256"] {
        let game = Game::parse(code).unwrap();
        let got = compute(&game, n, false, Storage::default(), &Progress::hidden()).unwrap();
        assert!(got.iter().any(|v| v > 255), "{code}");
        let reference = crate::engine::reference::compute(&game, n, &Progress::hidden());
        assert!(got.iter().eq(reference.unwrap().iter()), "{code}");
    }
}

/// A file-backed run of `.161`, whose last rare position lies near 24,000, keeps in the
/// process its head and tail and the last step the tail passed, a small part of the table.
#[test]
fn a_file_backed_run_keeps_only_what_it_reads() {
    let game = Game::parse("octal:0.161").unwrap();
    let (moves, criterion) = finite_code(&game).unwrap();
    let n = 1 << 22;
    let dir = tempfile::tempdir().unwrap();
    let work_file = WorkFile::acquire(&dir.path().join("t.values")).unwrap();
    let words = Words::in_file(&work_file, PackedValues::words_for(n, 16), false).unwrap();
    let mut values = PackedValues::from_words(n, FIRST_BITS, words);
    let mut sieve = Sieve::resume(&moves, &values, 0);
    let end = sieve.advance(
        &mut values,
        0,
        &criterion,
        &mut |_| ControlFlow::Continue(()),
        &mut |_| (),
    );
    assert!(matches!(end, Ok(Advance::Completed)));
    assert!(matches!(sieve.mode, Mode::Sparse(_)));
    let table_bytes = n * u64::from(values.bits()) / 8;
    let kept = resident_bytes(values.words());
    assert!(kept < table_bytes / 2, "{kept} of {table_bytes} bytes kept");
}

/// The values a window run hands on, in order.
struct Collected(Vec<u32>);

impl Consumer for Collected {
    fn add(&mut self, values: &[u32]) {
        self.0.extend_from_slice(values);
    }

    fn state(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    fn restore(&mut self, _: serde_json::Value) -> std::result::Result<(), String> {
        Ok(())
    }
}

/// A run that keeps a window hands on the values a whole table has, each once and in order,
/// and keeps in the process only its head and tail: the positions of `.161` between them are
/// given back.
#[test]
fn a_window_keeps_its_head_and_tail_and_gives_the_values_of_the_whole_table() {
    let game = Game::parse("octal:0.161").unwrap();
    let n = 1 << 23;
    let from = 1 << 19;
    let want = compute(&game, n, false, Storage::default(), &Progress::hidden()).unwrap();
    let mut got = Collected(Vec::with_capacity(n as usize));
    let saving = Saving {
        work: None,
        resume: false,
        every: std::time::Duration::MAX,
    };
    let (values, period) =
        window::window_run(&game, n, from, saving, &mut got, &Progress::hidden()).unwrap();
    assert!(period.is_none() && values.bits() == 8);
    assert!(want.iter().eq(got.0.iter().copied()));
    // The head (from / 2 positions) and the tail (as long, and up to a release step behind),
    // nothing else: a piece left behind at each step would add up over the run.
    let kept = resident_bytes(values.words());
    let window_bytes = from + crate::table::resident::STEP + 2 * crate::table::words::RELEASE_ALIGN;
    assert!(
        kept <= window_bytes,
        "{kept} bytes kept, the window {window_bytes}"
    );
    assert!(kept < n / 4, "{kept} of {n} bytes kept");
    // Between the head and a release step behind the tail, not a page stays.
    let bytes: &[u8] = bytemuck::cast_slice(values.words());
    let middle =
        &bytes[(from / 2) as usize..(n - from - 2 * crate::table::resident::STEP) as usize];
    assert_eq!(
        resident_bytes(middle),
        0,
        "pages left between head and tail"
    );
}
