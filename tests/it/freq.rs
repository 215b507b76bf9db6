//! Value counts at powers of two: the JSON summary's `counts_at_powers_of_two` and the `freq`
//! format, checked against histograms of the table's prefixes.

use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

use crate::support::command;
use command::{nimsieve, stdout_of};

/// The counts of each value among the first `len` of `values`, up to the largest among them.
fn histogram(values: &[u64]) -> Vec<u64> {
    let mut counts = Vec::new();
    for &v in values {
        let v = v as usize;
        if v >= counts.len() {
            counts.resize(v + 1, 0);
        }
        counts[v] += 1;
    }
    counts
}

/// The heaps 1 to 2^k of `values`, for every 2^k below their number (published frequency
/// tables count those heaps).
fn power_prefixes(values: &[u64]) -> Vec<&[u64]> {
    (0..)
        .map(|k| 1usize << k)
        .take_while(|&last| last < values.len())
        .map(|last| &values[1..=last])
        .collect()
}

/// The `freq` text of `values`, built from the histograms of their heaps 1 to 2^k.
fn freq_text(values: &[u64]) -> String {
    let blocks: Vec<String> = power_prefixes(values)
        .into_iter()
        .map(|heaps| {
            let len = heaps.len();
            let lines: String = (histogram(heaps).iter().enumerate())
                .filter(|(_, c)| **c > 0)
                .map(|(v, c)| format!("{v} {c}\n"))
                .collect();
            format!("n = {len}\n{lines}")
        })
        .collect();
    blocks.join("\n")
}

/// Runs `grundy SPEC -n N` into `dir` as a b-file, JSON and freq file, and returns the values
/// (from the b-file), the JSON summary and the freq text.
fn run(dir: &Path, spec: &str, n: &str, threads: &str) -> (Vec<u64>, Value, String) {
    let out = dir.join("out/");
    let out = out.to_str().unwrap();
    let args = [
        "grundy",
        spec,
        "-n",
        n,
        "-f",
        "bfile,json,freq",
        "-o",
        out,
        "-q",
        "--threads",
        threads,
    ];
    nimsieve(dir).args(args).assert().success();
    let stem = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find_map(|name| name.strip_suffix(".json").map(String::from))
        .unwrap();
    let file = |ext: &str| std::fs::read_to_string(dir.join(format!("out/{stem}{ext}"))).unwrap();
    let values = file(".txt")
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    let json = serde_json::from_str(&file(".json")).unwrap();
    (values, json, file(".freq.txt"))
}

#[test]
fn counts_at_powers_of_two_are_histograms_of_the_heaps_up_to_them() {
    for (spec, n, threads) in [
        ("sub:1,3,4", "100", "2"),
        ("sub:1,3,4", "1", "2"),
        ("sub:1,3,4", "64", "1"),
        ("octal:0.137", "5000", "2"),
        ("squares+misere", "3000", "2"),
        ("squares", "3000", "2"),
        // Several chunks of 2^20 positions, merged on two threads.
        ("primes", "3200000", "2"),
        ("nim", "700", "2"),
        // Widened from 8 to 16 bits by the value-layers engine (value 256 first at 843,251).
        ("triangular", "900000", "2"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (values, json, freq) = run(dir.path(), spec, n, threads);
        let expected: Vec<Vec<u64>> = power_prefixes(&values).into_iter().map(histogram).collect();
        assert_eq!(expected.is_empty(), values.len() < 2, "{spec} -n {n}");
        let got: Vec<Vec<u64>> = serde_json::from_value(json["counts_at_powers_of_two"].clone())
            .unwrap_or_else(|e| panic!("{spec} -n {n}: {e}"));
        assert_eq!(got, expected, "{spec} -n {n}");
        assert_eq!(
            json["counts"],
            serde_json::json!(histogram(&values)),
            "{spec}"
        );
        assert_eq!(freq, freq_text(&values), "{spec} -n {n}");
    }
}

/// Lasker's Nim's values grow with n: from 2^20 on the lists indexed by value are not kept
/// (they would need memory and output in proportion to n each), and the summary says so; below,
/// they are listed as for any game.
#[test]
fn values_from_2_to_the_20_keep_the_largest_value_and_p_count_but_no_lists() {
    let dir = tempfile::tempdir().unwrap();
    let (values, json, freq) = run(dir.path(), "lasker", "1048600", "2");
    let max = *values.iter().max().unwrap();
    assert!(max >= 1 << 20, "the test needs values past the listed ones");
    assert_eq!(json["max_value"], max);
    assert_eq!(json["p_count"], values.iter().filter(|&&v| v == 0).count());
    assert_eq!(json["counts_listed"], false);
    for list in ["counts", "counts_at_powers_of_two", "first_occurrence"] {
        assert_eq!(json[list], serde_json::json!([]), "{list}");
    }
    assert_eq!(
        freq,
        format!("# values reach {max}: the counts of each value are kept only below 1048576\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let (values, json, freq) = run(dir.path(), "lasker", "1048570", "2");
    assert!(json.get("counts_listed").is_none());
    assert_eq!(json["counts"], serde_json::json!(histogram(&values)));
    assert_eq!(freq, freq_text(&values));
}

#[test]
fn a_freq_file_has_a_block_for_each_power_of_two() {
    // sub:1,3,4: 0 1 0 1 2 3 2 0 1 0 …; n = 10 has blocks for the heaps 1 to 1, 2, 4 and 8
    // (heap 0 is none).
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        dir.path(),
        &["grundy", "sub:1,3,4", "-n", "10", "-f", "freq", "-o", "-"],
    );
    assert_eq!(
        out,
        "n = 1\n1 1\n\nn = 2\n0 1\n1 1\n\nn = 4\n0 1\n1 2\n2 1\n\nn = 8\n0 2\n1 3\n2 2\n3 1\n"
    );
    nimsieve(dir.path())
        .args(["grundy", "sub:1,3,4", "-n", "10", "-f", "freq", "-q"])
        .assert()
        .success();
    let written = std::fs::read_to_string(dir.path().join("output/sub_1-3-4-10.freq.txt"));
    assert_eq!(written.unwrap(), out);
}

#[test]
fn freq_is_listed_and_parsed_like_the_other_formats() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout_of(dir.path(), &["grundy", "--help"]);
    assert!(help.contains("freq"), "{help}");
    // Format names take any case, for every format alike.
    for name in ["csv", "freq"] {
        let lower = stdout_of(
            dir.path(),
            &["grundy", "sub:1,3,4", "-n", "10", "-f", name, "-o", "-"],
        );
        let upper = name.to_uppercase();
        let upper = stdout_of(
            dir.path(),
            &["grundy", "sub:1,3,4", "-n", "10", "-f", &upper, "-o", "-"],
        );
        assert_eq!(lower, upper);
    }
    nimsieve(dir.path())
        .args(["grundy", "sub:1,3,4", "-n", "10", "-f", "frq", "-o", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("freq"));
}

#[test]
fn ppos_refuses_freq_before_computing() {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args(["ppos", "squares", "-n", "1e6", "-f", "csv,freq"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("nimsieve grundy -f freq")
                .and(predicate::str::is_match("^nimsieve: error: [^\n]*\n$").unwrap()),
        );
    assert!(!dir.path().join("output/squares-1000000-ppos.csv").exists());
}

#[test]
fn a_freq_file_is_not_read_as_a_table() {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args(["grundy", "sub:1,3,4", "-n", "100", "-f", "freq", "-q"])
        .assert()
        .success();
    nimsieve(dir.path())
        .args(["stats", "output/sub_1-3-4-100.freq.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a frequency table"));
}

/// Runs `scripts/compare-published.sh FREQ CODE PUBLISHED` and returns its exit code and output.
fn compare_published(freq: &Path, code: &str, published: &Path) -> (i32, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/compare-published.sh");
    let out = std::process::Command::new("bash")
        .arg(script)
        .arg(freq)
        .arg(code)
        .arg(published)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text.into_owned())
}

/// The published tables' layout (a file a power of two, named by the number of heaps, one line
/// `value count` a value, zeros included) built from the reference values; the script finds a
/// freq file equal to them, names the block that is not, and skips powers with no file.
#[test]
fn compare_published_matches_blocks_and_names_the_one_that_differs() {
    let dir = tempfile::tempdir().unwrap();
    let (values, _, _) = run(dir.path(), "octal:0.167", "4097", "2");
    let freq = dir.path().join("out/octal_0.167-4097.freq.txt");
    let published = dir.path().join("published");
    let game = published.join("0.167");
    std::fs::create_dir_all(&game).unwrap();
    let max = *values.iter().max().unwrap() as usize;
    for heaps in power_prefixes(&values) {
        let len = heaps.len();
        if len == 32 {
            continue;
        }
        let mut counts = histogram(heaps);
        counts.resize(max + 2, 0);
        let lines: String = (counts.iter().enumerate())
            .map(|(v, c)| format!("{v} {c}\n"))
            .collect();
        std::fs::write(game.join(len.to_string()), lines).unwrap();
    }
    let (code, text) = compare_published(&freq, "0.167", &published);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("2^12: equal\n"), "{text}");
    assert!(text.contains("2^5: not published\n"), "{text}");
    assert!(text.ends_with("12 equal, 0 different\n"), "{text}");

    let file = game.join("128");
    let changed = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("1 ", "1 1", 1);
    std::fs::write(&file, changed).unwrap();
    let (code, text) = compare_published(&freq, "0.167", &published);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("2^7: differs\n"), "{text}");
    assert!(text.ends_with("11 equal, 1 different\n"), "{text}");

    let (code, text) = compare_published(&freq, "0.161", &published);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no folder"), "{text}");
}
