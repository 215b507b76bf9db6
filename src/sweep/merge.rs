//! `nimsieve sweep-merge FOLDER`: the parts one sharded run wrote into a folder, checked
//! against their manifests and written as the files one unsharded run writes
//! (`sweep-<family>.csv` and `.jsonl` in the same folder). Nothing is written unless every
//! shard of the run is there exactly once, intact, with its games' indexes in order; otherwise
//! the error names the shards to rerun.

use super::part::{MANIFEST_SUFFIX, Manifest, RunKey, shard_of_name, stem};
use super::row::Classes;
use super::{Family, Shard};
use crate::error::{Command, Error, Param, Result};
use crate::format::{Extension, write_together};
use crate::text;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A manifest in the folder: its file name, and the manifest or why it cannot be used.
struct Found {
    name: String,
    manifest: std::result::Result<Manifest, String>,
}

/// How many problems an error lists before "and N more".
const LISTED_PROBLEMS: usize = 4;

/// Merges the parts of the one run in `folder` into the files an unsharded run writes there,
/// and returns their paths.
pub fn merge(folder: &Path) -> Result<Vec<PathBuf>> {
    let found = find(folder)?;
    let run = one_run(folder, &found)?;
    let family = Family::parse(&run.family).map_err(|e| {
        Error::unsupported(text!(
            format!(
                "the parts in '{}' name a family that is not one: ",
                folder.display()
            ),
            e.text()
        ))
    })?;
    // The manifests that claim each shard: by their contents, or by their names when unusable.
    let mut claims: HashMap<Shard, Vec<&Found>> = HashMap::new();
    for f in &found {
        let shard = match &f.manifest {
            Ok(m) => Some(m.shard),
            Err(_) => shard_of_name(&f.name),
        };
        if let Some(shard) = shard {
            claims.entry(shard).or_default().push(f);
        }
    }
    let checked: Vec<std::result::Result<&Manifest, String>> = (1..=run.parts)
        .into_par_iter()
        .map(|index| {
            let shard = Shard {
                index,
                parts: run.parts,
            };
            let claims = claims.get(&shard).map_or(&[][..], Vec::as_slice);
            check_shard(folder, claims, &family, shard)
        })
        .collect();

    // Problems of a shard name it; a manifest that belongs to no shard of the run is one too.
    let mut problems: Vec<(Option<u64>, String)> = (1..)
        .zip(&checked)
        .filter_map(|(index, c)| c.as_ref().err().map(|why| (Some(index), why.clone())))
        .collect();
    for f in &found {
        let belongs = match &f.manifest {
            Ok(m) => (1..=run.parts).contains(&m.shard.index),
            Err(_) => shard_of_name(&f.name).is_some_and(|s| s.parts == run.parts),
        };
        if !belongs {
            let why = match &f.manifest {
                Ok(m) => format!("names shard {} of {}", m.shard.index, m.shard.parts),
                Err(why) => why.clone(),
            };
            problems.push((None, format!("{} {why}", f.name)));
        }
    }
    if !problems.is_empty() {
        return Err(refusal(folder, &run, &problems));
    }

    let parts: Vec<&Manifest> = checked.into_iter().flatten().collect();
    let stem = stem(&family, None);
    let written: Vec<PathBuf> = (run.formats.iter())
        .map(|format| folder.join(format!("{stem}.{}", format.extension())))
        .collect();
    // All or nothing: the files are renamed into place together once each is complete.
    // The census is taken again over all the parts, in family order.
    write_together(&written, |slot, out| {
        let format = run.formats[slot];
        let mut classes = Classes::default();
        for (i, part) in parts.iter().enumerate() {
            let bytes = part.files[slot]
                .read_intact(folder)
                .map_err(std::io::Error::other)?;
            format.regroup(&bytes, i == 0, &mut classes, out)?;
        }
        Ok(())
    })?;
    Ok(written)
}

/// Every manifest in `folder`, in name order.
fn find(folder: &Path) -> Result<Vec<Found>> {
    if !folder.is_dir() {
        return Err(Error::Input(format!(
            "'{}' is not a folder (give the folder the parts were written to)",
            folder.display()
        )));
    }
    let entries = std::fs::read_dir(folder).map_err(|e| Error::io("cannot read", folder, e))?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.ends_with(MANIFEST_SUFFIX))
        .collect();
    names.sort();
    Ok(names
        .into_iter()
        .map(|name| Found {
            manifest: Manifest::read(&folder.join(&name)),
            name,
        })
        .collect())
}

/// The run of the manifests in `folder`; an error when there is none, or more than one.
fn one_run(folder: &Path, found: &[Found]) -> Result<RunKey> {
    let mut runs: Vec<(RunKey, Vec<u64>)> = Vec::new();
    for m in found.iter().filter_map(|f| f.manifest.as_ref().ok()) {
        let run = m.run();
        match runs.iter_mut().find(|(r, _)| *r == run) {
            Some((_, shards)) => shards.push(m.shard.index),
            None => runs.push((run, vec![m.shard.index])),
        }
    }
    // The run with the most parts first (then in the order of their manifests' names).
    runs.iter_mut()
        .for_each(|(_, shards)| shards.sort_unstable());
    runs.sort_by_key(|(_, shards)| std::cmp::Reverse(shards.len()));
    let folder = folder.display();
    match runs.len() {
        1 => Ok(runs.swap_remove(0).0),
        0 if found.is_empty() => Err(Error::invalid(
            Param::Output,
            text!(
                format!("no sweep parts in '{folder}': no *{MANIFEST_SUFFIX} there ("),
                Command::new("sweep", "")
                    .with(Param::Shard, "I/K")
                    .with(Param::Output, format!("{folder}/")),
                " writes one beside each part once the part is complete)",
            ),
        )),
        0 => Err(Error::Input(format!(
            "no usable sweep parts in '{folder}': {}",
            found
                .iter()
                .map(|f| format!("{} {}", f.name, f.manifest.as_ref().expect_err("unusable")))
                .collect::<Vec<_>>()
                .join("; ")
        ))),
        _ => Err(Error::Input(format!(
            "'{folder}' holds parts of more than one run: {}; keep one run in a folder (rerun the shards that differ with the same options, or move them to another folder)",
            runs.iter()
                .map(|(run, shards)| format!("{run} ({})", shard_list(shards)))
                .collect::<Vec<_>>()
                .join(" and ")
        ))),
    }
}

/// The manifest of `shard` when exactly one manifest `claims` it and the part is intact; what
/// is wrong with it otherwise ("is missing", "is damaged: …").
fn check_shard<'a>(
    folder: &Path,
    claims: &[&'a Found],
    family: &Family,
    shard: Shard,
) -> std::result::Result<&'a Manifest, String> {
    let found = match claims {
        [] => return Err("is missing (no manifest: the part did not finish)".into()),
        [one] => one,
        several => {
            let names: Vec<&str> = several.iter().map(|f| f.name.as_str()).collect();
            return Err(format!("is there more than once ({})", names.join(", ")));
        }
    };
    let damaged = |why: String| format!("is damaged: {why}");
    let manifest = found
        .manifest
        .as_ref()
        .map_err(|why| damaged(format!("{} {why}", found.name)))?;
    let games = shard.range(family.count()).map_err(|e| e.to_string())?;
    if manifest.games != games {
        return Err(damaged(format!(
            "{} lists games {}..{}, shard {}/{} holds {}..{}",
            found.name,
            manifest.games.start,
            manifest.games.end,
            shard.index,
            shard.parts,
            games.start,
            games.end
        )));
    }
    let expected = games.end - games.start;
    for file in &manifest.files {
        let rows = file.open_intact(folder).map_err(damaged)?;
        let mut count = 0;
        for index in file.format.indexes(rows) {
            let index = index.map_err(|why| damaged(format!("{}: {why}", file.name)))?;
            count += 1;
            let wanted = games.start + count - 1;
            if count <= expected && index != wanted {
                return Err(damaged(format!(
                    "row {count} of {} has index {index}, not {wanted} (rows missing, repeated or out of order)",
                    file.name
                )));
            }
        }
        if count != expected {
            return Err(damaged(format!(
                "{} has {count} rows, not {expected}",
                file.name
            )));
        }
    }
    Ok(manifest)
}

/// The one-line refusal: the problems (the first few), the shards to rerun, and that nothing
/// was written.
fn refusal(folder: &Path, run: &RunKey, problems: &[(Option<u64>, String)]) -> Error {
    let mut listed: Vec<String> = problems
        .iter()
        .take(LISTED_PROBLEMS)
        .map(|(shard, why)| match shard {
            Some(index) => format!("shard {index} {why}"),
            None => why.clone(),
        })
        .collect();
    if problems.len() > LISTED_PROBLEMS {
        listed.push(format!("and {} more", problems.len() - LISTED_PROBLEMS));
    }
    let shards: Vec<u64> = problems.iter().filter_map(|(shard, _)| *shard).collect();
    let rerun = if shards.is_empty() {
        String::new()
    } else {
        format!(
            "; rerun {} of {} (with Slurm: sbatch --array={} and the same arguments)",
            shard_list(&shards),
            run.parts,
            ranges(&shards)
        )
    };
    Error::Input(format!(
        "cannot merge '{}' ({run}): {}{rerun}; nothing was written",
        folder.display(),
        listed.join("; ")
    ))
}

/// "shard 3" or "shards 1-2,5".
fn shard_list(shards: &[u64]) -> String {
    let s = if shards.len() == 1 { "" } else { "s" };
    format!("shard{s} {}", ranges(shards))
}

/// `numbers` as Slurm writes array indexes: runs of consecutive numbers as `A-B`, separated by
/// commas (`1-3,5`).
fn ranges(numbers: &[u64]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &x in numbers {
        match runs.last_mut() {
            Some((_, last)) if x == *last + 1 => *last = x,
            _ => runs.push((x, x)),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ranges_are_written_as_slurm_array_indexes() {
        assert_eq!(ranges(&[1, 2, 3, 5]), "1-3,5");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[2, 4, 5, 7, 8, 9]), "2,4-5,7-9");
        assert_eq!(ranges(&[]), "");
    }
}
