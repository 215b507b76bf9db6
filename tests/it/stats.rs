//! `nimsieve stats FILE` reproduces the JSON summary from every format, and rejects corrupt files.

use serde_json::Value;

use crate::support::command;
use command::output_of as nimsieve;

fn json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const SUMMARY: [&str; 8] = [
    "n",
    "max_value",
    "counts",
    "first_occurrence",
    "p_count",
    "period",
    "p_count_at_powers_of_two",
    "p_count_by_residue",
];

#[test]
fn every_format_gives_the_summary_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    nimsieve(
        d,
        &[
            "grundy",
            "sub:6,34,40,141",
            "-n",
            "20000",
            "-q",
            "-f",
            "json,csv,bfile,npy,bin",
        ],
    );
    let original: Value = serde_json::from_str(
        &std::fs::read_to_string(d.join("output/sub_6-34-40-141-20000.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(original["period"]["period"], 1530);
    for ext in ["csv", "txt", "npy", "bin"] {
        let path = format!("output/sub_6-34-40-141-20000.{ext}");
        let stats = json(&nimsieve(d, &["stats", &path]));
        for field in SUMMARY {
            assert_eq!(stats[field], original[field], "{ext}: {field}");
        }
        assert_eq!(
            stats["game"], "sub:6,34,40,141",
            "{ext}: game from the header or the JSON beside"
        );
    }
    nimsieve(
        d,
        &[
            "grundy",
            "sub:6,34,40,141",
            "-n",
            "20000",
            "-q",
            "--wide",
            "12",
            "-o",
            "wide.csv",
        ],
    );
    std::fs::copy(
        d.join("output/sub_6-34-40-141-20000.json"),
        d.join("wide.json"),
    )
    .unwrap();
    let stats = json(&nimsieve(d, &["stats", "wide.csv"]));
    for field in SUMMARY {
        assert_eq!(stats[field], original[field], "wide csv: {field}");
    }
    std::fs::remove_file(d.join("output/sub_6-34-40-141-20000.json")).unwrap();
    let stats = json(&nimsieve(d, &["stats", "output/sub_6-34-40-141-20000.csv"]));
    assert_eq!(
        (stats["game"].as_str(), &stats["period"]),
        (Some("unknown"), &Value::Null)
    );
    let stats = json(&nimsieve(
        d,
        &[
            "stats",
            "output/sub_6-34-40-141-20000.npy",
            "--game",
            "sub:141,6,34,40",
        ],
    ));
    assert_eq!(stats["period"], original["period"]);
}

#[test]
fn p_position_files_give_the_ppos_summary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    nimsieve(
        d,
        &[
            "ppos",
            "squares+misere",
            "-n",
            "3e5",
            "-q",
            "-f",
            "json,csv,bfile,npy,bin,u64",
            "--mod",
            "7",
        ],
    );
    let original: Value = serde_json::from_str(
        &std::fs::read_to_string(d.join("output/squares+misere-300000-ppos.json")).unwrap(),
    )
    .unwrap();
    for ext in ["csv", "txt", "npy", "bin", "u64"] {
        let path = format!("output/squares+misere-300000-ppos.{ext}");
        let stats = json(&nimsieve(d, &["stats", &path, "--mod", "7"]));
        for field in [
            "n",
            "p_count",
            "last",
            "p_count_at_powers_of_two",
            "p_count_by_residue",
            "play",
        ] {
            assert_eq!(stats[field], original[field], "{ext}: {field}");
        }
    }
}

#[test]
fn a_renamed_p_position_file_is_known_by_its_summary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (format, name) in [("bfile", "b000001.txt"), ("json", "b000001.json")] {
        let out = nimsieve(
            d,
            &["ppos", "squares", "-n", "1000", "-f", format, "-o", name],
        );
        assert!(out.status.success());
    }
    // No -ppos in the name: the JSON summary beside the b-file says it lists P-positions.
    let stats = json(&nimsieve(d, &["stats", "b000001.txt"]));
    assert_eq!(stats["p_count"], 115);
    assert_eq!(stats["last"], 997);
}

#[test]
fn corrupt_files_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    nimsieve(
        d,
        &["grundy", "squares", "-n", "1000", "-q", "-f", "csv,npy,bin"],
    );
    let out = d.join("output");
    let mut bin = std::fs::read(out.join("squares-1000.bin")).unwrap();
    let last = bin.len() - 1;
    bin[last] ^= 1;
    std::fs::write(d.join("flipped.bin"), &bin).unwrap();
    std::fs::write(d.join("short.bin"), &bin[..100]).unwrap();
    let npy = std::fs::read(out.join("squares-1000.npy")).unwrap();
    std::fs::write(d.join("short.npy"), &npy[..npy.len() - 3]).unwrap();
    std::fs::write(d.join("gap.csv"), "n,g\n0,0\n2,1\n").unwrap();
    std::fs::write(d.join("gap-ppos.txt"), "1 0\n2 4\n4 5\n").unwrap();
    std::fs::write(d.join("wide.csv"), "n,+0,+1\n0,0,1\n3,0,1\n").unwrap();
    std::fs::write(d.join("wide-ppos.csv"), "k,+0,+1\n5,0,2\n8,5\n").unwrap();
    std::fs::write(d.join("long.csv"), "n,+0,+1\n0,0,1,2\n").unwrap();
    std::fs::write(d.join("k.csv"), "k,n\n3,0\n5,2\n").unwrap();
    // A header promising 10^12 values in a file of a few bytes.
    let dict = "{'descr': '<u1', 'fortran_order': False, 'shape': (1000000000000,), }\n";
    let mut huge = b"\x93NUMPY\x01\x00".to_vec();
    huge.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    huge.extend_from_slice(dict.as_bytes());
    huge.extend_from_slice(&[0, 1, 2]);
    std::fs::write(d.join("huge.npy"), huge).unwrap();
    std::fs::write(d.join("text.csv"), "n,g\n0,zero\n").unwrap();
    std::fs::write(d.join("odd.u64"), [0u8; 12]).unwrap();
    std::fs::write(d.join("down.u64"), [5u64, 3].map(u64::to_le_bytes).concat()).unwrap();
    let cases = [
        ("flipped.bin", "checksum does not match"),
        ("short.bin", "payload"),
        ("short.npy", "header promises"),
        (
            "gap.csv",
            "line 3: the row is labelled 2, but it should be 1",
        ),
        ("text.csv", "line 2: 'zero' is not a number"),
        (
            "gap-ppos.txt",
            "line 3: the row is labelled 4, but it should be 3",
        ),
        (
            "wide.csv",
            "line 3: the row is labelled 3, but it should be 2",
        ),
        (
            "wide-ppos.csv",
            "line 3: the row is labelled 8, but it should be 7",
        ),
        ("long.csv", "line 2: expected a label and 1 to 2 numbers"),
        ("k.csv", "line 3: the row is labelled 5, but it should be 4"),
        (
            "huge.npy",
            "holds 3 data bytes, but its header promises 1000000000000",
        ),
        ("odd.u64", "not a multiple of 8"),
        ("down.u64", "not strictly increasing"),
        ("missing.csv", "cannot read"),
    ];
    for (file, want) in cases {
        let out = nimsieve(d, &["stats", file]);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            !out.status.success() && stderr.contains(want),
            "{file}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
    }
}

#[test]
fn a_game_that_disagrees_with_the_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    nimsieve(d, &["grundy", "squares", "-n", "1000", "-q", "-f", "bin"]);
    let out = nimsieve(d, &["stats", "output/squares-1000.bin", "--game", "cubes"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "nimsieve: error: --game cubes disagrees with the game squares that 'output/squares-1000.bin' states"
    );
    let agreeing = nimsieve(
        d,
        &["stats", "output/squares-1000.bin", "--game", "squares"],
    );
    assert_eq!(json(&agreeing)["game"], "squares");
}
