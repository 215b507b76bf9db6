//! Damaged tables: small correct tables in every format, written by the command line, then
//! changed (a bit flipped, cut short, extended, a number or a label changed, a header field
//! changed with or without a matching checksum, lines dropped, doubled or swapped). `stats`,
//! `verify` and `plot` never panic on them, an error is one line, and `verify` never calls a
//! table all correct unless its values are those of the game and, for text, every number and
//! label is as written.

use assert_cmd::Command;
use nimsieve::format::{Contents, load};
use proptest::prelude::*;
use proptest::sample::Index;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::support::fifo;
use fifo::make_fifo;

/// Positions of the test tables.
const N: u64 = 240;

/// A pristine table: its file, its game and whether it lists P-positions.
struct Table {
    path: PathBuf,
    game: &'static str,
    ppos: bool,
}

/// The pristine tables, written once: each in a folder of its own with its JSON summary.
fn tables() -> &'static (tempfile::TempDir, Vec<Table>) {
    static TABLES: OnceLock<(tempfile::TempDir, Vec<Table>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut tables = Vec::new();
        let runs: [(&str, &str, &str, &[&str]); 12] = [
            ("grundy", "squares", "csv,bfile,npy,bin", &[]),
            ("grundy", "squares", "csv", &["--wide", "7"]),
            ("grundy", "primes", "csv,bin", &[]),
            ("grundy", "aliquot", "bfile,bin", &[]),
            ("grundy", "squares+misere", "csv,bin", &[]),
            ("grundy", "half", "npy", &[]),
            ("grundy", "sub:1,3,4", "bin", &[]),
            ("ppos", "squares", "csv,bfile,npy,bin,u64", &[]),
            ("ppos", "squares", "csv", &["--wide", "5", "--offset", "1"]),
            ("ppos", "primes", "bfile", &["--offset", "1"]),
            ("ppos", "squares+misere", "bin,u64", &[]),
            ("ppos", "nim", "npy", &[]),
        ];
        for (i, (command, game, formats, extra)) in runs.into_iter().enumerate() {
            let folder = dir.path().join(format!("run{i}"));
            let mut args = vec![command, game, "-n", "240", "-q", "-f"];
            let formats = format!("{formats},json");
            args.push(&formats);
            args.extend_from_slice(extra);
            let out = folder.join("");
            args.extend(["-o", out.to_str().unwrap()]);
            Command::cargo_bin("nimsieve")
                .unwrap()
                .args(&args)
                .assert()
                .success();
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e != "json") {
                    tables.push(Table {
                        path,
                        game,
                        ppos: command == "ppos",
                    });
                }
            }
        }
        tables.sort_by(|a, b| a.path.cmp(&b.path));
        assert_eq!(tables.len(), 23);
        (dir, tables)
    })
}

/// One change to a file.
#[derive(Debug, Clone)]
enum Damage {
    /// Flips one bit.
    Flip(Index, u8),
    /// Keeps only the first bytes.
    Truncate(Index),
    /// Appends bytes.
    Extend(Vec<u8>),
    /// Text: replaces a number (a label or a value) by another; binary: overwrites a byte.
    Number(Index, u64),
    /// Text: removes a line; binary: removes a byte.
    DropLine(Index),
    /// Text: repeats a line.
    DoubleLine(Index),
    /// Text: swaps two lines.
    SwapLines(Index, Index),
    /// Binary: writes a little-endian number over a header field (offset, width), then, when
    /// asked, makes the `.bin` checksum match again.
    Header(usize, usize, u64, bool),
    /// `.bin`: flips a payload bit and makes the checksum match again.
    Payload(Index, u8),
}

fn damage() -> impl Strategy<Value = Damage> {
    let field = prop_oneof![
        Just((8, 4)),
        Just((12, 4)),
        Just((16, 8)),
        Just((24, 4)),
        Just((28, 4)),
        Just((40, 2))
    ];
    let small = prop_oneof![0..300u64, Just(u64::MAX), Just(1 << 32), Just(1 << 40)];
    prop_oneof![
        (any::<Index>(), 0..8u8).prop_map(|(i, b)| Damage::Flip(i, b)),
        any::<Index>().prop_map(Damage::Truncate),
        prop::collection::vec(
            prop_oneof![Just(b'7'), Just(b','), Just(b'\n'), Just(b' '), any::<u8>()],
            1..12
        )
        .prop_map(Damage::Extend),
        (any::<Index>(), small.clone()).prop_map(|(i, v)| Damage::Number(i, v)),
        any::<Index>().prop_map(Damage::DropLine),
        any::<Index>().prop_map(Damage::DoubleLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Damage::SwapLines(a, b)),
        (field, small, any::<bool>())
            .prop_map(|((at, len), v, fix)| Damage::Header(at, len, v, fix)),
        (any::<Index>(), 0..8u8).prop_map(|(i, b)| Damage::Payload(i, b)),
    ]
}

/// Makes the checksum of a `.bin` file match its bytes.
fn fix_checksum(bytes: &mut [u8]) {
    if bytes.len() >= 40 {
        bytes[32..36].fill(0);
        let crc = crc32fast::hash(bytes);
        bytes[32..36].copy_from_slice(&crc.to_le_bytes());
    }
}

/// `bytes` with `damage` done to them (`text` for CSV and b-files).
fn damaged(mut bytes: Vec<u8>, damage: &Damage, text: bool, bin: bool) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let joined = |lines: Vec<Vec<u8>>| lines.join(&b'\n');
    match damage {
        Damage::Flip(i, bit) if !bytes.is_empty() => {
            let at = i.index(bytes.len());
            bytes[at] ^= 1 << bit;
        }
        Damage::Truncate(i) => bytes.truncate(i.index(bytes.len() + 1)),
        Damage::Extend(extra) => bytes.extend_from_slice(extra),
        Damage::Number(i, v) if text => {
            // The i-th run of digits.
            let text = String::from_utf8(bytes.clone()).unwrap();
            let runs: Vec<(usize, usize)> = text
                .char_indices()
                .filter(|&(k, c)| {
                    c.is_ascii_digit() && (k == 0 || !text.as_bytes()[k - 1].is_ascii_digit())
                })
                .map(|(k, _)| {
                    let len = text[k..].find(|c: char| !c.is_ascii_digit());
                    (k, k + len.unwrap_or(text.len() - k))
                })
                .collect();
            if !runs.is_empty() {
                let (a, b) = runs[i.index(runs.len())];
                bytes.splice(a..b, v.to_string().into_bytes());
            }
        }
        Damage::Number(i, v) if !bytes.is_empty() => {
            let at = i.index(bytes.len());
            bytes[at] = *v as u8;
        }
        Damage::DropLine(i) if text => {
            lines.remove(i.index(lines.len()));
            bytes = joined(lines);
        }
        Damage::DropLine(i) if !bytes.is_empty() => {
            bytes.remove(i.index(bytes.len()));
        }
        Damage::DoubleLine(i) if text => {
            let k = i.index(lines.len());
            lines.insert(k, lines[k].clone());
            bytes = joined(lines);
        }
        Damage::SwapLines(a, b) if text => {
            let (a, b) = (a.index(lines.len()), b.index(lines.len()));
            lines.swap(a, b);
            bytes = joined(lines);
        }
        Damage::Header(at, len, v, fix) if !text && bytes.len() >= at + len => {
            bytes[*at..at + len].copy_from_slice(&v.to_le_bytes()[..*len]);
            if bin && *fix {
                fix_checksum(&mut bytes);
            }
        }
        Damage::Payload(i, bit) if bin && bytes.len() > 48 => {
            let spec = u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize;
            let start = (40 + spec.next_multiple_of(8)).min(bytes.len() - 1);
            let at = start + i.index(bytes.len() - start);
            bytes[at] ^= 1 << bit;
            fix_checksum(&mut bytes);
        }
        _ => {}
    }
    bytes
}

/// Runs `nimsieve ARGS`: never a panic or a signal; an error is one line. Returns the exit code.
fn run(args: &[&str]) -> i32 {
    let out = Command::cargo_bin("nimsieve")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        code.is_some_and(|c| c != 101),
        "{args:?}: exit {:?}, {stderr}",
        out.status
    );
    if code != Some(0) {
        assert!(
            stderr.starts_with("nimsieve: error: ") && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
    code.unwrap()
}

/// The words and numbers of a text table, as its reader sees them (b-file comments and blank
/// lines left out).
fn tokens(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split([',', ' ']).map(str::trim).collect::<Vec<_>>())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<u64>().map_or(t.to_string(), |v| v.to_string()))
        .collect()
}

/// Whether the table in `path` holds exactly the values (or P-positions) of `game` below N.
fn is_true_table(path: &Path, game: &str, ppos: bool) -> bool {
    let Ok(loaded) = load(path, Some(ppos)) else {
        return false;
    };
    let game = nimsieve::game::Game::parse(game).unwrap();
    let hidden = nimsieve::progress::Progress::hidden();
    let truth: Vec<u32> = nimsieve::engine::reference::compute(&game, N, &hidden)
        .unwrap()
        .iter()
        .collect();
    match loaded.contents {
        Contents::Values(values) => values.iter().eq(truth.iter().copied()),
        Contents::Positions(positions) => {
            let zeros: Vec<u64> = (0..N).filter(|&x| truth[x as usize] == 0).collect();
            loaded.n == Some(N) && positions == zeros
        }
        // A one-heap file is never read as a table of two heaps.
        Contents::Grid(_) | Contents::Pairs(_) => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    #[ignore = "slow: scripts/test.sh runs it"]
    fn damaged_tables_never_panic_and_never_verify_wrongly(
        which in any::<Index>(),
        damage in damage(),
    ) {
        let (_, tables) = tables();
        let table = &tables[which.index(tables.len())];
        let dir = tempfile::tempdir().unwrap();
        let name = table.path.file_name().unwrap();
        let path = dir.path().join(name);
        std::fs::copy(table.path.with_extension("json"), path.with_extension("json")).unwrap();
        let ext = path.extension().unwrap().to_str().unwrap().to_string();
        let pristine = std::fs::read(&table.path).unwrap();
        let text = ext == "csv" || ext == "txt";
        std::fs::write(&path, damaged(pristine, &damage, text, ext == "bin")).unwrap();
        let file = path.to_str().unwrap();
        let svg = dir.path().join("plot.svg");
        let kind = if table.ppos { "counting" } else { "values" };
        run(&["stats", file]);
        run(&["plot", file, "--kind", kind, "-o", svg.to_str().unwrap()]);
        if run(&["verify", file, "-q"]) == 0 {
            prop_assert!(
                is_true_table(&path, table.game, table.ppos),
                "verify called a wrong table all correct"
            );
            // Every column is read: labels included, only blanks may have changed.
            if text {
                let pristine = std::fs::read(&table.path).unwrap();
                let damaged = std::fs::read(&path).unwrap();
                prop_assert_eq!(tokens(&damaged), tokens(&pristine));
            }
        }
    }
}

/// Every pristine table verifies, so the damaged ones are checked against right tables.
#[test]
fn pristine_tables_verify() {
    for table in &tables().1 {
        let file = table.path.to_str().unwrap();
        assert_eq!(run(&["verify", file, "-q"]), 0, "{file}");
        assert!(is_true_table(&table.path, table.game, table.ppos), "{file}");
    }
}

/// A table or a summary beside it that is a FIFO is refused or passed over at once, never
/// waited on: `verify`, `stats` and `plot` read only regular files.
#[test]
fn special_files_are_never_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.csv");
    make_fifo(&table);
    for args in [
        vec!["verify", "t.csv", "--game", "squares"],
        vec!["stats", "t.csv"],
        vec!["plot", "t.csv", "--kind", "values", "-o", "t.png"],
    ] {
        let out = Command::cargo_bin("nimsieve")
            .unwrap()
            .current_dir(dir.path())
            .args(&args)
            .timeout(std::time::Duration::from_secs(10))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // A real table whose JSON summary is a FIFO: the summary is passed over.
    let real = dir.path().join("s.csv");
    std::fs::write(&real, "n,g\n0,0\n1,1\n2,0\n3,1\n4,2\n").unwrap();
    make_fifo(&dir.path().join("s.json"));
    Command::cargo_bin("nimsieve")
        .unwrap()
        .current_dir(dir.path())
        .args(["verify", "s.csv", "--game", "squares", "--quiet"])
        .timeout(std::time::Duration::from_secs(10))
        .assert()
        .success();
}
