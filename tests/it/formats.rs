//! Binary formats: npy, bin and u64, decoded here and by real NumPy.

use crate::support::external;
use crate::support::provenance::bin_payload_start;
use assert_cmd::Command;
use std::path::Path;

fn run(dir: &Path, args: &[&str]) {
    Command::cargo_bin("nimsieve")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .assert()
        .success();
}

fn u32_at(raw: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(raw[at..at + 4].try_into().unwrap())
}

fn u64_at(raw: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(raw[at..at + 8].try_into().unwrap())
}

/// The header dict and data of a version 1.0 npy file.
fn npy(raw: &[u8]) -> (String, &[u8]) {
    assert_eq!(&raw[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([raw[8], raw[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned to 64 bytes");
    (
        String::from_utf8(raw[10..10 + len].to_vec()).unwrap(),
        &raw[10 + len..],
    )
}

#[test]
fn npy_bin_and_u64_decode_to_the_csv_values() {
    // The prime-grundy engine stores 4 bits a value: the bin payload packs two to a byte.
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
        &[
            "grundy",
            "primes",
            "-n",
            "1000",
            "-f",
            "csv,npy,bin,u64",
            "-q",
        ],
    );
    let out = dir.path().join("output");
    let csv = std::fs::read_to_string(out.join("primes-1000.csv")).unwrap();
    let values: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();

    let raw = std::fs::read(out.join("primes-1000.npy")).unwrap();
    let (dict, data) = npy(&raw);
    assert!(
        dict.starts_with("{'descr': '<u1', 'fortran_order': False, 'shape': (1000,), }"),
        "{dict}"
    );
    assert_eq!(
        data.iter().map(|&b| u64::from(b)).collect::<Vec<_>>(),
        values
    );

    let raw = std::fs::read(out.join("primes-1000.bin")).unwrap();
    assert_eq!(&raw[..8], b"NIMSIEVE");
    assert_eq!(
        (u32_at(&raw, 8), u32_at(&raw, 12), u64_at(&raw, 16)),
        (3, 0, 1000)
    );
    let (bits, spec_len) = (u32_at(&raw, 24) as usize, u32_at(&raw, 28) as usize);
    assert_eq!((bits, &raw[40..40 + spec_len]), (4, &b"primes"[..]));
    // The provenance: one line of JSON after the spec.
    let made_at = 40 + spec_len.next_multiple_of(8);
    let made: serde_json::Value =
        serde_json::from_slice(&raw[made_at..made_at + u32_at(&raw, 36) as usize]).unwrap();
    assert_eq!(made["engine"], "prime-grundy", "{made}");
    assert!(
        made["command"]
            .as_str()
            .unwrap()
            .starts_with("nimsieve grundy primes -n 1000"),
        "{made}"
    );
    let payload = &raw[bin_payload_start(&raw)..];
    let mut zeroed = raw.clone();
    zeroed[32..36].fill(0);
    assert_eq!(u32_at(&raw, 32), crc32fast::hash(&zeroed));
    assert_eq!(payload.len(), (1000 * bits).div_ceil(64) * 8);
    let unpacked: Vec<u64> = (0..1000)
        .map(|x| u64::from(payload[x * bits / 8] >> (x * bits % 8)) & 15)
        .collect();
    assert_eq!(unpacked, values);

    let raw = std::fs::read(out.join("primes-1000.u64")).unwrap();
    let p: Vec<u64> = raw
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let zeros: Vec<u64> = (0..1000).filter(|&x| values[x as usize] == 0).collect();
    assert_eq!(p, zeros);
}

#[test]
fn ppos_bin_is_a_bit_table_and_npy_picks_the_dtype() {
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
        &["ppos", "squares", "-n", "70000", "-f", "bin,npy,u64", "-q"],
    );
    let out = dir.path().join("output");
    let p: Vec<u64> = std::fs::read(out.join("squares-70000-ppos.u64"))
        .unwrap()
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let raw = std::fs::read(out.join("squares-70000-ppos.npy")).unwrap();
    let (dict, data) = npy(&raw);
    assert!(
        dict.contains("'<u4'") && dict.contains(&format!("({},)", p.len())),
        "{dict}"
    );
    assert_eq!(data.len(), 4 * p.len());
    let raw = std::fs::read(out.join("squares-70000-ppos.bin")).unwrap();
    assert_eq!((u32_at(&raw, 12), u32_at(&raw, 24)), (2, 1));
    let payload = &raw[bin_payload_start(&raw)..];
    let set: Vec<u64> = (0..70000u64)
        .filter(|&x| payload[(x / 8) as usize] >> (x % 8) & 1 == 1)
        .collect();
    assert_eq!(set, p);
}

#[test]
fn numpy_loads_npy_and_bin() {
    if !external::has_modules("numpy", "pip install numpy") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
        &["grundy", "squares", "-n", "5000", "-f", "npy,bin,csv", "-q"],
    );
    run(
        dir.path(),
        &["ppos", "squares", "-n", "5000", "-f", "npy,u64", "-q"],
    );
    let script = include_str!("numpy_check.py");
    let status = std::process::Command::new("python3")
        .args([
            "-c",
            script,
            "output/squares-5000",
            "output/squares-5000-ppos",
        ])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
}

/// The R block of docs/formats.md, run as it stands on real outputs and checked against the CSV.
#[test]
fn r_reads_npy_u64_and_bin_as_the_docs_show() {
    if !external::available(
        &["Rscript", "--version"],
        "Rscript is not installed (apt-get install r-base-core)",
    ) {
        return;
    }
    let page = include_str!("../../docs/formats.md");
    let block = page
        .split("```r\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/formats.md has an R block");
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
        &["grundy", "squares", "-n", "1e6", "-f", "npy,bin,csv", "-q"],
    );
    run(
        dir.path(),
        &["ppos", "squares", "-n", "1e6", "-f", "u64", "-q"],
    );
    let check = r#"
csv <- read.csv("output/squares-1000000.csv")
stopifnot(nchar(header) > 0, length(g) == 1e6, all(g == csv$g), all(values == csv$g))
stopifnot(all(p == which(csv$g == 0) - 1))
cat("R check passed:", length(g), "values,", length(p), "P-positions\n")
"#;
    let output = std::process::Command::new("Rscript")
        .args(["-e", &format!("{block}{check}")])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
