//! `nimsieve verify`: tables the CLI writes pass; tables with one corrupted entry fail at exactly
//! that entry with exit code 3, in every format; the verdict does not depend on threads.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

use crate::support::value_file;
use value_file::ValueFile;

/// Positions of the test tables.
const N: u64 = 3000;

use crate::support::command;
use command::output_of as run;

/// Runs `nimsieve ARGS`, which must succeed.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `nimsieve verify FILE EXTRA…` and returns (exit code, stdout, stderr).
fn verify(dir: &Path, file: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["verify", file.to_str().unwrap(), "-q"];
    args.extend_from_slice(extra);
    let out = run(dir, &args);
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn assert_verified(dir: &Path, file: &Path) {
    let (code, stdout, stderr) = verify(dir, file, &[]);
    assert_eq!(code, 0, "{}: {stderr}", file.display());
    assert!(stdout.starts_with("verified: "), "{stdout}");
    assert!(stdout.contains(", all correct ("), "{stdout}");
}

/// Asserts that verifying `file` fails with exit code 3 and a message containing `want`.
fn assert_wrong(dir: &Path, file: &Path, want: &str) {
    let (code, stdout, stderr) = verify(dir, file, &[]);
    assert_eq!(code, 3, "{}: {stdout}{stderr}", file.display());
    assert!(
        stderr.starts_with("nimsieve: error: wrong table: ") && stderr.contains(want),
        "{}: wanted '{want}', got {stderr}",
        file.display()
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

fn output(dir: &Path, stem: &str, ext: &str) -> PathBuf {
    dir.join("output").join(format!("{stem}.{ext}"))
}

#[test]
fn every_family_and_modifier_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("set.txt"), "2\n7\n# comment\n11\n").unwrap();
    let families = [
        "nim",
        "sub:1,3,4",
        "bachet:3",
        "allbut:2,5",
        "powers-of-2",
        "squares",
        "cubes",
        "powers:4",
        "triangular",
        "fibonacci",
        "primes",
        "pim",
        "set-file:set.txt",
        "aliquot",
        "proper-divisors",
        "divisors",
        "to-divisor",
        "even-if-not-all",
        "half",
    ];
    for family in families {
        for modifiers in ["", "+leave1", "+misere", "+leave1+misere"] {
            let spec = format!("{family}{modifiers}");
            ok(
                d,
                &["grundy", &spec, "-n", "3000", "-q", "-f", "csv,bin,json"],
            );
            ok(d, &["ppos", &spec, "-n", "3000", "-q", "-f", "u64,json"]);
            let folder = d.join("output");
            let mut written: Vec<PathBuf> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e != "json"))
                .collect();
            written.sort();
            assert_eq!(written.len(), 3, "{spec}: {written:?}");
            for file in &written {
                assert_verified(d, file);
            }
            std::fs::remove_dir_all(&folder).unwrap();
        }
    }
    // Wide CSV, the game given on the command line.
    ok(
        d,
        &[
            "grundy", "squares", "-n", "3000", "-q", "--wide", "10", "-o", "wide.csv",
        ],
    );
    let (code, stdout, stderr) = verify(d, &d.join("wide.csv"), &["--game", "squares"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("verified: squares, 3000 values, all correct"),
        "{stdout}"
    );
}

/// The options of x, computed here from the rules (independently of the library).
fn options(game: &str, x: u64) -> Vec<u64> {
    let is_prime = |p: u64| {
        p >= 2
            && (2..)
                .take_while(|d| d * d <= p)
                .all(|d| !p.is_multiple_of(d))
    };
    match game {
        "squares" | "squares+misere" => (1..)
            .map(|k| k * k)
            .take_while(|&s| s <= x)
            .map(|s| x - s)
            .collect(),
        "primes" => (2..=x).filter(|&p| is_prime(p)).map(|p| x - p).collect(),
        "nim" | "nim+misere" => (0..x).collect(),
        "aliquot" => (1..x)
            .filter(|d| x.is_multiple_of(*d))
            .map(|d| x - d)
            .collect(),
        other => panic!("no options for {other}"),
    }
}

#[test]
fn a_corrupted_entry_is_reported_at_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for game in ["squares", "primes", "nim", "aliquot"] {
        ok(
            d,
            &["grundy", game, "-n", "3000", "-q", "-f", "csv,npy,bin,json"],
        );
        let stem = format!("{game}-{N}");
        let clean: Vec<u32> = match nimsieve::format::load(&output(d, &stem, "csv"), None)
            .unwrap()
            .contents
        {
            nimsieve::format::Contents::Values(v) => v.iter().collect(),
            _ => unreachable!(),
        };
        for ext in ["csv", "npy", "bin"] {
            let path = output(d, &stem, ext);
            let pristine = std::fs::read(&path).unwrap();
            let file = ValueFile { path: path.clone() };
            for x in [1, 2, N / 2 + 7, N - 1] {
                let seen: Vec<u32> = options(game, x)
                    .iter()
                    .map(|&m| clean[m as usize])
                    .collect();
                let g = clean[x as usize];
                // (a): a value some option has.
                if let Some(&v) = seen.iter().find(|&&v| v != g) {
                    file.set(x, v);
                    assert_wrong(d, &path, &format!("g({x}) = {v} in the file, but option "));
                    std::fs::write(&path, &pristine).unwrap();
                }
                // (b): above every option's value, so the true value is missing.
                let v = seen.iter().max().map_or(1, |m| m + 1).max(g + 1);
                if v < 256 || ext != "npy" {
                    file.set(x, v);
                    assert_wrong(
                        d,
                        &path,
                        &format!("g({x}) = {v} in the file, but no option has value {g}"),
                    );
                    std::fs::write(&path, &pristine).unwrap();
                }
            }
            // The first entry.
            file.set(0, 1);
            assert_wrong(d, &path, "g(0) = 1 in the file, but no option has value 0");
            std::fs::write(&path, &pristine).unwrap();
            assert_verified(d, &path);
        }
    }
}

#[test]
fn flipped_misere_outcomes_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for game in ["squares+misere", "nim+misere"] {
        ok(
            d,
            &["grundy", game, "-n", "3000", "-q", "-f", "csv,npy,bin,json"],
        );
        let stem = format!("{game}-{N}");
        for ext in ["csv", "npy", "bin"] {
            let path = output(d, &stem, ext);
            let pristine = std::fs::read(&path).unwrap();
            let clean: Vec<u32> = match nimsieve::format::load(&path, None).unwrap().contents {
                nimsieve::format::Contents::Values(v) => v.iter().collect(),
                _ => unreachable!(),
            };
            let file = ValueFile { path: path.clone() };
            for x in [0, 1, N / 3, N - 1] {
                let flipped = 1 - clean[x as usize];
                file.set(x, flipped);
                let want = if options(game, x).is_empty() {
                    format!("outcome({x}) = P in the file, but {x} has no option")
                } else if flipped == 0 {
                    format!("outcome({x}) = P in the file, but its option ")
                } else {
                    format!("outcome({x}) = N in the file, but none of its options is a P-position")
                };
                assert_wrong(d, &path, &want);
                std::fs::write(&path, &pristine).unwrap();
            }
            if ext == "bin" {
                continue; // one bit a position cannot hold 2
            }
            file.set(N / 2, 2);
            assert_wrong(
                d,
                &path,
                &format!(
                    "outcome({}) = 2 in the file, but outcomes are 0 (P) or 1 (N)",
                    N / 2
                ),
            );
            std::fs::write(&path, &pristine).unwrap();
        }
    }
}

#[test]
fn dropped_and_added_p_positions_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for game in ["squares", "primes+leave1", "squares+misere", "half"] {
        ok(
            d,
            &["ppos", game, "-n", "3000", "-q", "-f", "u64,bfile,json"],
        );
        let stem = format!("{}-{N}-ppos", game.replace(':', "_"));
        for ext in ["u64", "txt"] {
            let path = output(d, &stem, ext);
            let pristine = std::fs::read(&path).unwrap();
            let list: Vec<u64> = match nimsieve::format::load(&path, None).unwrap().contents {
                nimsieve::format::Contents::Positions(p) => p,
                _ => unreachable!(),
            };
            let write = |positions: &[u64]| {
                let bytes: Vec<u8> = if ext == "u64" {
                    positions.iter().flat_map(|p| p.to_le_bytes()).collect()
                } else {
                    positions
                        .iter()
                        .enumerate()
                        .map(|(k, p)| format!("{k} {p}\n"))
                        .collect::<String>()
                        .into_bytes()
                };
                std::fs::write(&path, bytes).unwrap();
            };
            for k in [0, list.len() / 2, list.len() - 1] {
                let mut dropped = list.clone();
                let p = dropped.remove(k);
                write(&dropped);
                assert_wrong(
                    d,
                    &path,
                    &format!("{p} is not listed as a P-position, but "),
                );
            }
            let added = (list[list.len() / 2] + 1..N)
                .find(|q| !list.contains(q))
                .unwrap();
            let mut more = list.clone();
            more.push(added);
            more.sort_unstable();
            write(&more);
            assert_wrong(
                d,
                &path,
                &format!("{added} is listed as a P-position, but its option "),
            );
            let mut beyond = list.clone();
            beyond.push(N + 5);
            write(&beyond);
            assert_wrong(
                d,
                &path,
                &format!(
                    "{} is listed as a P-position, but the list covers only n = {N}",
                    N + 5
                ),
            );
            std::fs::write(&path, &pristine).unwrap();
            assert_verified(d, &path);
        }
    }
}

#[test]
fn verdicts_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for game in [
        "squares",
        "primes",
        "half",
        "proper-divisors",
        "sub:2,5,7+misere",
    ] {
        ok(d, &["grundy", game, "-n", "20000", "-q", "-f", "bin"]);
        let stem = format!("{}-20000", game.replace(':', "_").replace(',', "-"));
        let path = output(d, &stem, "bin");
        let clean: Vec<u32> = match nimsieve::format::load(&path, None).unwrap().contents {
            nimsieve::format::Contents::Values(v) => v.iter().collect(),
            _ => unreachable!(),
        };
        let file = ValueFile { path: path.clone() };
        for corrupt in [false, true] {
            if corrupt {
                // Several wrong entries: the smallest must be reported, whatever the threads.
                for x in [19_999, 15_000, 12_345, 11_111] {
                    let v = clean[x as usize];
                    file.set(x, if v == 0 { 1 } else { v - 1 });
                }
            }
            let one = verify(d, &path, &["--threads", "1"]);
            let two = verify(d, &path, &["--threads", "2"]);
            let strip = |s: &str| s.split(" (").next().unwrap().to_string();
            assert_eq!(one.0, two.0, "{game}");
            assert_eq!(strip(&one.1), strip(&two.1), "{game}");
            assert_eq!(one.2, two.2, "{game}");
            assert_eq!(one.0, if corrupt { 3 } else { 0 }, "{game}: {}", one.2);
            if corrupt {
                assert!(one.2.contains("(11111) = "), "{game}: {}", one.2);
            }
        }
    }
}

#[test]
fn the_game_and_n_must_be_known_and_agree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(
        d,
        &["grundy", "squares", "-n", "500", "-q", "-f", "bin,npy"],
    );
    let bin = output(d, "squares-500", "bin");
    let npy = output(d, "squares-500", "npy");
    let (code, _, stderr) = verify(d, &bin, &["--game", "cubes"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--game cubes disagrees with the game squares"),
        "{stderr}"
    );
    assert_eq!(verify(d, &bin, &["--game", "squares"]).0, 0);
    let (code, _, stderr) = verify(d, &npy, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("give --game"), "{stderr}");
    assert_eq!(verify(d, &npy, &["--game", "squares"]).0, 0);
    // With the wrong game, the table is wrong.
    assert_eq!(verify(d, &npy, &["--game", "cubes"]).0, 3);
    // A P-position list needs its n.
    ok(d, &["ppos", "squares", "-n", "500", "-q", "-f", "bfile"]);
    let (code, _, stderr) = verify(
        d,
        &output(d, "squares-500-ppos", "txt"),
        &["--game", "squares"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("needs its n"), "{stderr}");
    // A table shorter than its JSON summary says.
    ok(
        d,
        &["grundy", "squares", "-n", "500", "-q", "-f", "csv,json"],
    );
    let csv = output(d, "squares-500", "csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&csv, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    let (code, _, stderr) = verify(d, &csv, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("it holds 499 values, but the JSON summary beside it states n = 500"),
        "{stderr}"
    );
}

/// The `.bin` checksum covers the header: a changed n is refused, and so is a checksum made to
/// match when the JSON summary beside the file states otherwise; old and unknown versions are
/// refused with what to do.
#[test]
fn a_changed_bin_header_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(
        d,
        &["grundy", "squares", "-n", "240", "-q", "-f", "bin,json"],
    );
    let path = output(d, "squares-240", "bin");
    let pristine = std::fs::read(&path).unwrap();
    let fixed = |mut bytes: Vec<u8>| {
        bytes[32..36].fill(0);
        let crc = crc32fast::hash(&bytes);
        bytes[32..36].copy_from_slice(&crc.to_le_bytes());
        bytes
    };
    let refused = |bytes: Vec<u8>, want: &str| {
        std::fs::write(&path, bytes).unwrap();
        let (code, _, stderr) = verify(d, &path, &[]);
        assert_eq!(code, 2, "{want}: {stderr}");
        assert!(stderr.contains(want), "wanted '{want}', got {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    };
    // 239 values of 4 bits fill the same 15 payload words as 240.
    assert_eq!(pristine[24], 4);
    let mut lowered = pristine.clone();
    lowered[16..24].copy_from_slice(&239u64.to_le_bytes());
    // Position 239, now past the end, cleared as a writer would.
    *lowered.last_mut().unwrap() &= 0x0f;
    refused(lowered.clone(), "its checksum does not match");
    refused(
        fixed(lowered),
        "its header states n = 239, but the JSON summary beside it states n = 240",
    );
    let mut renamed = pristine.clone();
    renamed[28..32].copy_from_slice(&5u32.to_le_bytes());
    renamed[40..48].copy_from_slice(b"cubes\0\0\0");
    refused(
        fixed(renamed),
        "its header states the game cubes, but the JSON summary beside it states squares",
    );
    for (version, want) in [
        (
            1u32,
            "version 1 .bin file, whose checksum does not cover its header; write it again with the current nimsieve",
        ),
        (
            4,
            "version 4 .bin file, but this nimsieve reads versions 2 and 3; write it again",
        ),
    ] {
        let mut old = pristine.clone();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        refused(fixed(old), want);
    }
    // Version 2, the layout without a provenance, is read; so is version 3 without one.
    let bare = crate::support::provenance::without_provenance(pristine.clone());
    for version in [2u32, 3] {
        let mut older = bare.clone();
        older[8..12].copy_from_slice(&version.to_le_bytes());
        std::fs::write(&path, fixed(older)).unwrap();
        assert_verified(d, &path);
    }
    let mut wrong_length = pristine.clone();
    wrong_length[36..40].copy_from_slice(&7u32.to_le_bytes());
    refused(fixed(wrong_length), "its payload holds");
    // A header claiming far more positions than the file holds is refused at once.
    let mut huge = pristine.clone();
    huge[16..24].copy_from_slice(&(1u64 << 40).to_le_bytes());
    refused(
        fixed(huge),
        "its payload holds 120 bytes, not the 549755813888 of",
    );
    std::fs::write(&path, &pristine).unwrap();
    assert_verified(d, &path);
}

#[test]
fn take_and_break_tables_are_checked_split_by_split() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let run = |spec: &str| {
        Command::cargo_bin("nimsieve")
            .unwrap()
            .args(["grundy", spec, "-n", "3000", "-f", "csv", "-o"])
            .arg(&csv)
            .assert()
            .success();
    };
    let verify = |spec: &str| {
        Command::cargo_bin("nimsieve")
            .unwrap()
            .arg("verify")
            .arg(&csv)
            .args(["--game", spec])
            .assert()
    };
    for spec in ["kayles", "grundys-game", "octal:0.00404+unequal", "lasker"] {
        run(spec);
        verify(spec)
            .success()
            .stdout(predicates::str::contains("all correct"));
    }
    run("kayles");
    // Position 499 (line 500 after the header) made a P-position, which it is not.
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[500] = "499,0";
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    verify("kayles").code(3).stderr(predicates::str::contains(
        "g(499) = 0 in the file, but the split into",
    ));
}

/// Example specs of each family `nimsieve games` lists with one-heap tables; None for
/// Wythoff's game, whose tables are of two heaps.
fn examples(syntax: &str) -> Option<Vec<String>> {
    let listed: &[&str] = match syntax {
        "nim" | "powers-of-2" | "squares" | "cubes" | "triangular" | "fibonacci" | "primes"
        | "pim" | "aliquot" | "proper-divisors" | "divisors" | "to-divisor" | "even-if-not-all"
        | "half" | "kayles" | "dawsons-kayles" | "lasker" | "grundys-game" => &[syntax],
        "sub:a,b,..." => &["sub:1,3,4"],
        "bachet:k" => &["bachet:3"],
        "allbut:a,b,..." => &["allbut:2,5"],
        "powers:k" => &["powers:4"],
        "set-file:PATH" => &["set-file:set.txt"],
        "octal:0.d1d2..." => &[
            "octal:0.16",
            "octal:0.137",
            "octal:0.6",
            "octal:0.07+unequal",
        ],
        "octal:4.d1d2..." => &["octal:4.07"],
        "hex:0.d1d2..." => &["hex:0.8C", "hex:4.9", "hex:0.8+unequal"],
        "tb:d0.d1d2..." => &["tb:0.[37]", "tb:8?.0", "tb:4!.0", "tb:0.{2,3}"],
        "SET@DIGIT" => &["squares@7", "sub:1,2,3@4!", "primes@3+leave1"],
        "A|B" => &["squares|tb:4.0", "fibonacci|primes+misere"],
        // Modifiers: +unequal is among the octal codes, +misere applies to every other game.
        "CODE+unequal" | "GAME+leave1" | "GAME+misere" => &[],
        "wythoff" => return None,
        other => panic!("no example of '{other}': add one here"),
    };
    Some(listed.iter().map(|s| s.to_string()).collect())
}

/// Every family of `nimsieve games`: its P-position lists (and misère outcome tables) as the
/// CLI writes them verify, and one position added to or dropped from a list, or one outcome
/// flipped, is reported at that position. Take-and-break lists were once all "wrong".
#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn every_catalogued_family_verifies_its_lists_and_catches_one_change() {
    const N: u64 = 600;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("set.txt"), "2\n7\n11\n").unwrap();
    let mut specs = Vec::new();
    let games = ok(d, &["games"]);
    // Entries are indented under headings; those of games only `eval` takes come last.
    let tables = games.split("Games of several heaps").next().unwrap();
    for line in tables.lines().filter(|l| l.starts_with("  ")) {
        let syntax = line.split_whitespace().next().unwrap();
        match examples(syntax) {
            Some(examples) => specs.extend(examples),
            None => {
                // Wythoff's game: its table verifies as one of two heaps (tests/wythoff_files.rs).
                ok(d, &["grundy", syntax, "-n", "20", "-q", "-f", "bin,json"]);
                assert_verified(d, &output(d, &format!("{syntax}-20"), "bin"));
            }
        }
    }
    assert!(specs.len() >= 27, "{specs:?}");
    // Take-and-break games (rules written down among them) have their misère tables tested
    // in tests/it/misere.rs; the examples give their own.
    let take_break = [
        "octal", "hex", "kayles", "lasker", "grundys", "tb:", "@", "|",
    ];
    let misere: Vec<String> = specs
        .iter()
        .filter(|s| !take_break.iter().any(|t| s.contains(t)))
        .map(|s| format!("{s}+misere"))
        .collect();
    for spec in specs.iter().chain(&misere) {
        let folder = d.join("output");
        let _ = std::fs::remove_dir_all(&folder);
        ok(
            d,
            &[
                "ppos",
                spec,
                "-n",
                &N.to_string(),
                "-q",
                "-f",
                "csv,bin,u64,json",
            ],
        );
        // The one file of each extension in the folder.
        let written = |ext: &str| {
            let mut files = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == ext));
            files.next().unwrap()
        };
        for ext in ["csv", "bin", "u64"] {
            assert_verified(d, &written(ext));
        }
        let u64s = written("u64");
        let list: Vec<u64> = std::fs::read(&u64s)
            .unwrap()
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let write = |positions: &[u64]| {
            let bytes: Vec<u8> = positions.iter().flat_map(|p| p.to_le_bytes()).collect();
            std::fs::write(&u64s, bytes).unwrap();
        };
        let p = list[list.len() / 2];
        write(&list.iter().copied().filter(|&q| q != p).collect::<Vec<_>>());
        assert_wrong(
            d,
            &u64s,
            &format!("{p} is not listed as a P-position, but "),
        );
        if let Some(q) = (N / 2..N).find(|q| !list.contains(q)) {
            let mut more = list.clone();
            more.push(q);
            more.sort_unstable();
            write(&more);
            assert_wrong(d, &u64s, &format!("{q} is listed as a P-position, but "));
        }
        if spec.ends_with("+misere") {
            std::fs::remove_dir_all(&folder).unwrap();
            ok(
                d,
                &["grundy", spec, "-n", &N.to_string(), "-q", "-f", "csv,json"],
            );
            let path = written("csv");
            assert_verified(d, &path);
            let x = N / 2 + 1;
            let outcome = u32::from(!list.contains(&x));
            ValueFile { path: path.clone() }.set(x, 1 - outcome);
            assert_wrong(d, &path, &format!("outcome({x}) = "));
        }
    }
}
