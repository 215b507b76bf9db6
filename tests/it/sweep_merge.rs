//! `nimsieve sweep-merge` and `scripts/slurm/sweep.sbatch` without a cluster: parts merged to
//! the unsharded bytes, every kind of missing, damaged, repeated or foreign part refused with
//! the shards to rerun (and nothing written), rerun parts accepted, and the sbatch script's
//! tasks run by hand with the variables Slurm sets.

use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::support::command;
use command::{nimsieve, stdout_of};

use crate::support::fifo;
use fifo::make_fifo;

/// Runs `sweep FAMILY -o FOLDER/ --quiet [extra…]` in `dir`.
fn sweep(dir: &Path, family: &str, folder: &str, extra: &[&str]) {
    let mut args = vec!["sweep", family, "-o", folder, "--quiet"];
    args.extend(extra);
    nimsieve(dir).args(&args).assert().success();
}

/// Runs every shard of `family` in `K` parts into `dir/folder`.
fn shards(dir: &Path, family: &str, parts: u64, folder: &str, extra: &[&str]) {
    for i in 1..=parts {
        let shard = format!("{i}/{parts}");
        let mut args = vec!["--shard", &shard];
        args.extend(extra);
        sweep(dir, family, folder, &args);
    }
}

/// `sweep-merge FOLDER` in `dir`: its exit code and standard error.
fn merge(dir: &Path, folder: &str) -> (i32, String) {
    let out = nimsieve(dir)
        .args(["sweep-merge", folder])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), stderr)
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn merged_parts_are_the_unsharded_files_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (family, parts, extra, stem) in [
        ("sub3:12", 3, &[][..], "sweep-sub3_12"),
        ("sub3:12", 1, &[][..], "sweep-sub3_12"),
        (
            "bachet:1..7+misere",
            7,
            &["-n", "100"][..],
            "sweep-bachet_1..7+misere",
        ),
        ("octal2", 5, &["-n", "300"][..], "sweep-octal2"),
        (
            "powers:2..4",
            2,
            &["-n", "2000", "-f", "json"][..],
            "sweep-powers_2..4",
        ),
    ] {
        let run = format!("run-{stem}-{parts}/");
        let whole = format!("whole-{stem}-{parts}/");
        shards(d, family, parts, &run, extra);
        let part = format!("{stem}-part1of{parts}.manifest.json");
        assert!(d.join(&run).join(part).exists(), "{family} {parts}");
        assert!(!d.join(&run).join(format!("{stem}.jsonl")).exists());
        let out = nimsieve(d).args(["sweep-merge", &run]).assert().success();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        sweep(d, family, &whole, extra);
        let json_only = extra.contains(&"json");
        for ext in ["csv", "jsonl"] {
            let name = format!("{stem}.{ext}");
            if json_only && ext == "csv" {
                assert!(
                    !d.join(&run).join(&name).exists(),
                    "only the parts' formats"
                );
                continue;
            }
            assert!(stderr.contains(&format!("wrote {run}{name}")), "{stderr}");
            assert_eq!(
                read(d.join(&run).join(&name)),
                read(d.join(&whole).join(&name)),
                "{family} in {parts} parts: {name}"
            );
        }
        // Merging again gives the same files.
        nimsieve(d)
            .args(["sweep-merge", &run, "-q"])
            .assert()
            .success();
        let name = format!("{stem}.jsonl");
        assert_eq!(
            read(d.join(&run).join(&name)),
            read(d.join(&whole).join(&name))
        );
    }
}

/// File `ext` of part `i` of sub3:12 in four parts.
fn p(i: u64, ext: &str) -> String {
    format!("sweep-sub3_12-part{i}of4.{ext}")
}

/// The manifest of part `i` of sub3:12 in four parts.
fn manifest(i: u64) -> String {
    p(i, "manifest.json")
}

/// Sets the size and CRC-32 of `file` in its manifest to those of its bytes now, as if the
/// part had been written that way.
fn forge_manifest(folder: &Path, manifest: &str, file: &str) {
    let path = folder.join(manifest);
    let mut json: Value = serde_json::from_slice(&read(path.clone())).unwrap();
    let bytes = read(folder.join(file));
    let entry = json["files"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f["name"] == file)
        .unwrap();
    entry["bytes"] = bytes.len().into();
    entry["crc32"] = crc32fast::hash(&bytes).into();
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
}

/// Replaces the lines of `file` by `change(lines)`.
fn edit_lines(folder: &Path, file: &str, change: impl FnOnce(&mut Vec<String>)) {
    let text = String::from_utf8(read(folder.join(file))).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    change(&mut lines);
    std::fs::write(folder.join(file), lines.join("\n") + "\n").unwrap();
}

#[test]
fn missing_damaged_or_foreign_parts_name_the_shards_to_rerun_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    shards(d, "sub3:12", 4, "parts/", &[]);

    type Damage = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Damage, &str)> = vec![
        (
            "a part killed before it finished",
            Box::new(|f| std::fs::remove_file(f.join(manifest(2))).unwrap()),
            "shard 2 is missing (no manifest",
        ),
        (
            "two parts that never ran",
            Box::new(|f| {
                for i in [2, 3] {
                    for ext in ["csv", "jsonl", "manifest.json"] {
                        std::fs::remove_file(f.join(p(i, ext))).unwrap();
                    }
                }
            }),
            "shard 2 is missing (no manifest: the part did not finish); shard 3 is missing (no manifest: the part did not finish); rerun shards 2-3 of 4 (with Slurm: sbatch --array=2-3 and the same arguments)",
        ),
        (
            "a removed row file",
            Box::new(|f| std::fs::remove_file(f.join(p(3, "csv"))).unwrap()),
            "shard 3 is damaged: sweep-sub3_12-part3of4.csv cannot be read",
        ),
        (
            "a truncated file",
            Box::new(|f| {
                let bytes = read(f.join(p(4, "jsonl")));
                std::fs::write(f.join(p(4, "jsonl")), &bytes[..bytes.len() - 30]).unwrap();
            }),
            "shard 4 is damaged: sweep-sub3_12-part4of4.jsonl has",
        ),
        (
            "an edited value, same size",
            Box::new(|f| {
                edit_lines(f, &p(1, "csv"), |lines| {
                    lines[5] = lines[5].replacen(",true,", ",fals,", 1);
                    assert!(lines[5].contains("fals"));
                })
            }),
            "shard 1 is damaged: sweep-sub3_12-part1of4.csv differs from what was written (CRC-32)",
        ),
        (
            "rows out of order, the manifest made to match",
            Box::new(|f| {
                edit_lines(f, &p(2, "csv"), |lines| lines.swap(3, 4));
                forge_manifest(f, &manifest(2), &p(2, "csv"));
            }),
            "shard 2 is damaged: row 3 of sweep-sub3_12-part2of4.csv has index 58, not 57",
        ),
        (
            "a repeated row, the manifest made to match",
            Box::new(|f| {
                edit_lines(f, &p(3, "jsonl"), |lines| lines.insert(7, lines[6].clone()));
                forge_manifest(f, &manifest(3), &p(3, "jsonl"));
            }),
            "shard 3 is damaged: row 8 of sweep-sub3_12-part3of4.jsonl has index 116, not 117",
        ),
        (
            "a lost last row, the manifest made to match",
            Box::new(|f| {
                edit_lines(f, &p(4, "jsonl"), |lines| {
                    lines.pop();
                });
                forge_manifest(f, &manifest(4), &p(4, "jsonl"));
            }),
            "shard 4 is damaged: sweep-sub3_12-part4of4.jsonl has 54 rows, not 55",
        ),
        (
            "a manifest that is not one",
            Box::new(|f| std::fs::write(f.join(manifest(1)), "{\"nimsieve\":").unwrap()),
            "shard 1 is damaged: sweep-sub3_12-part1of4.manifest.json is not a part manifest",
        ),
        (
            "a manifest whose games are not its shard's",
            Box::new(|f| {
                let path = f.join(manifest(2));
                let text = String::from_utf8(read(path.clone())).unwrap();
                std::fs::write(&path, text.replace("\"start\": 55", "\"start\": 54")).unwrap();
            }),
            "shard 2 is damaged: sweep-sub3_12-part2of4.manifest.json lists games 54..110, shard 2/4 holds 55..110",
        ),
        (
            "a copy of a part",
            Box::new(|f| {
                std::fs::copy(f.join(manifest(4)), f.join("copy.manifest.json")).unwrap();
            }),
            "shard 4 is there more than once (copy.manifest.json, sweep-sub3_12-part4of4.manifest.json)",
        ),
        (
            "a shard run with another -n",
            Box::new(|f| sweep(f, "sub3:12", "./", &["--shard", "3/4", "-n", "40"])),
            "holds parts of more than one run: sub3:12 with n = 1048576, 4 shards, csv and jsonl, nimsieve 0.1.0 (shards 1-2,4) and sub3:12 with n = 40, 4 shards, csv and jsonl, nimsieve 0.1.0 (shard 3)",
        ),
        (
            "a shard with one format only",
            Box::new(|f| sweep(f, "sub3:12", "./", &["--shard", "1/4", "-f", "csv"])),
            "(shards 2-4) and sub3:12 with n = 1048576, 4 shards, csv, nimsieve 0.1.0 (shard 1)",
        ),
        (
            "a stray part of another split",
            Box::new(|f| sweep(f, "sub3:12", "./", &["--shard", "1/5"])),
            "(shard 1)",
        ),
    ];
    for (case, damage, message) in cases {
        let folder = d.join(case);
        copy_folder(&d.join("parts"), &folder);
        damage(&folder);
        let (code, stderr) = merge(d, case);
        assert_eq!(code, 2, "{case}: {stderr}");
        assert!(stderr.contains(message), "{case}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{case}: {stderr}");
        assert!(
            stderr.trim_end().ends_with("nothing was written")
                || stderr.contains("more than one run"),
            "{case}: {stderr}"
        );
        for ext in ["csv", "jsonl"] {
            assert!(
                !folder.join(format!("sweep-sub3_12.{ext}")).exists(),
                "{case}: wrote {ext}"
            );
        }
    }

    // The shards rerun (as a Slurm array of the named shards would) are merged.
    let folder = d.join("two parts that never ran");
    for shard in ["2/4", "3/4"] {
        sweep(&folder, "sub3:12", "./", &["--shard", shard]);
    }
    nimsieve(d)
        .args(["sweep-merge", "two parts that never ran", "-q"])
        .assert()
        .success();
    sweep(d, "sub3:12", "whole/", &[]);
    for ext in ["csv", "jsonl"] {
        let name = format!("sweep-sub3_12.{ext}");
        assert_eq!(read(folder.join(&name)), read(d.join("whole").join(&name)));
    }

    // More than a few problems: the first few, how many more, and every shard to rerun.
    let folder = d.join("all gone");
    copy_folder(&d.join("parts"), &folder);
    for i in 1..=4 {
        std::fs::remove_file(folder.join(manifest(i))).unwrap();
    }
    let (code, stderr) = merge(d, "all gone");
    assert_eq!(code, 2);
    assert!(stderr.contains("no sweep parts in 'all gone'"), "{stderr}");
    std::fs::write(folder.join(manifest(1)), "[]").unwrap();
    std::fs::write(folder.join("x.manifest.json"), "").unwrap();
    let (code, stderr) = merge(d, "all gone");
    assert_eq!(code, 2);
    assert!(stderr.contains("no usable sweep parts in 'all gone': sweep-sub3_12-part1of4.manifest.json is not a part manifest"), "{stderr}");

    let (code, stderr) = merge(d, "no such folder");
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(
        stderr.contains("'no such folder' is not a folder"),
        "{stderr}"
    );
}

/// A part or manifest that is far too large, a FIFO or a device is refused at once, from its
/// size or kind, before anything is read (an 8 GB part was once read whole, and a FIFO waited
/// on for ever).
#[test]
fn parts_and_manifests_are_refused_by_size_and_kind_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    shards(d, "sub3:12", 4, "parts/", &[]);
    let huge = |path: PathBuf| {
        std::fs::remove_file(&path).unwrap();
        std::fs::File::create(&path)
            .unwrap()
            .set_len(8 << 30)
            .unwrap();
    };
    let fifo = |path: PathBuf| {
        std::fs::remove_file(&path).unwrap();
        make_fifo(&path);
    };
    let zero = |path: PathBuf| {
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    };
    type Damage = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Damage, &str)> = vec![
        (
            "an 8 GB part",
            Box::new(move |f| huge(f.join(p(2, "csv")))),
            "shard 2 is damaged: sweep-sub3_12-part2of4.csv has 8589934592 bytes, its manifest says",
        ),
        (
            "a part that is a FIFO",
            Box::new(move |f| fifo(f.join(p(3, "jsonl")))),
            "shard 3 is damaged: sweep-sub3_12-part3of4.jsonl cannot be read (it is a FIFO, device or socket, not a regular file",
        ),
        (
            "a part that is /dev/zero",
            Box::new(move |f| zero(f.join(p(1, "csv")))),
            "shard 1 is damaged: sweep-sub3_12-part1of4.csv cannot be read (it is a FIFO, device or socket",
        ),
        (
            "an 8 GB manifest",
            Box::new(move |f| huge(f.join(manifest(4)))),
            "shard 4 is damaged: sweep-sub3_12-part4of4.manifest.json cannot be read (it holds 8589934592 bytes, more than the 1048576 it may hold)",
        ),
        (
            "a manifest that is a FIFO",
            Box::new(move |f| fifo(f.join(manifest(2)))),
            "shard 2 is damaged: sweep-sub3_12-part2of4.manifest.json cannot be read (it is a FIFO",
        ),
        (
            "a manifest that is /dev/zero",
            Box::new(move |f| zero(f.join(manifest(3)))),
            "shard 3 is damaged: sweep-sub3_12-part3of4.manifest.json cannot be read (it is a FIFO",
        ),
    ];
    for (case, damage, message) in cases {
        let folder = d.join(case);
        copy_folder(&d.join("parts"), &folder);
        damage(&folder);
        let out = nimsieve(d)
            .args(["sweep-merge", case])
            .timeout(std::time::Duration::from_secs(10))
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{case}: {stderr}");
        assert!(stderr.contains(message), "{case}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{case}: {stderr}");
    }
}

#[test]
fn many_problems_are_summed_up_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    shards(d, "sub2:12", 7, "parts/", &["-f", "json"]);
    for i in [1, 2, 3, 5, 6, 7] {
        let name = format!("sweep-sub2_12-part{i}of7.manifest.json");
        std::fs::remove_file(d.join("parts").join(name)).unwrap();
    }
    let (code, stderr) = merge(d, "parts");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("shard 3 is missing (no manifest: the part did not finish); shard 5 is missing (no manifest: the part did not finish); and 2 more; rerun shards 1-3,5-7 of 7 (with Slurm: sbatch --array=1-3,5-7 and the same arguments); nothing was written"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// Runs scripts/slurm/sweep.sbatch in `dir` as Slurm would run task `task` with
/// `cpus` CPUs (None: outside a job array), with `args`.
fn sbatch_task(dir: &Path, task: Option<&str>, cpus: &str, args: &[&str]) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/sweep.sbatch");
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(script)
        .args(args)
        .env("NIMSIEVE", env!("CARGO_BIN_EXE_nimsieve"))
        .env("SLURM_CPUS_PER_TASK", cpus)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .current_dir(dir);
    if let Some(task) = task {
        cmd.env("SLURM_ARRAY_TASK_ID", task);
    }
    cmd.output().unwrap()
}

#[test]
fn the_sbatch_script_runs_its_task_s_shard_into_the_run_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for task in ["1", "2", "3"] {
        let cpus = if task == "2" { "2" } else { "1" };
        let out = sbatch_task(d, Some(task), cpus, &["sub3:12", "3", "-n", "2^16"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "wrote ./sweep-sub3_12-part{task}of3.manifest.json"
            )),
            "{stderr}"
        );
    }
    nimsieve(d)
        .args(["sweep-merge", ".", "-q"])
        .assert()
        .success();
    sweep(d, "sub3:12", "whole/", &["-n", "2^16"]);
    for ext in ["csv", "jsonl"] {
        let name = format!("sweep-sub3_12.{ext}");
        assert_eq!(read(d.join(&name)), read(d.join("whole").join(&name)));
    }

    for (task, args, message) in [
        (None, &["sub3:12", "3"][..], "submit it as a job array"),
        (Some("1"), &["sub3:12"][..], "usage: sbatch --array=1-K"),
        (
            Some("1"),
            &["sub3:12", "3", "-o", "x/"][..],
            "-o is not allowed",
        ),
        (
            Some("1"),
            &["sub3:12", "3", "--threads=2"][..],
            "--threads=2 is not allowed",
        ),
        (Some("4"), &["sub3:12", "3"][..], "bad --shard '4/3'"),
    ] {
        let out = sbatch_task(d, task, "1", args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn help_shows_a_part_and_its_merge() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout_of(dir.path(), &["sweep-merge", "--help"]);
    let examples = help.split("Examples:").nth(1).unwrap_or_default();
    assert!(
        examples.contains("nimsieve sweep sub3:100 --shard 3/8 -o run/")
            && examples.contains("nimsieve sweep-merge run/"),
        "{help}"
    );
}
