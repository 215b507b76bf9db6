//! The library's modules form layers, and a module uses only modules of lower layers (or its
//! own): error → leaves → game → table/misere → engine → analysis → report → format → run →
//! eval/sweep/verify/plot. Read from the `crate::…` paths of every source file, so a new upward
//! import fails here. Above them the front ends (`src/cli/` and `src/main.rs`, `python/src/`):
//! the library names no flag in its strings and never ends the process.

use std::path::Path;

/// Each top-level module's layer; a module may use modules of its layer's index or lower only
/// when they are in a lower layer (modules of one layer do not use each other).
const LAYERS: &[&[&str]] = &[
    &["error"],
    &[
        "number",
        "period",
        "choice",
        "progress",
        "provenance",
        "interrupt",
        "partial",
        "regular_file",
        "sparse_space",
        "xorshift",
    ],
    &["game"],
    &["table", "misere"],
    &["engine"],
    &["analysis"],
    &["report"],
    &["format"],
    &["run"],
    &["eval", "sweep", "verify", "plot"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Every `crate::NAME` in `text` (NAME: the top-level module it names).
fn uses(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .filter(|(at, _)| {
            // `nimsieve::…` and `$crate::…` are not this form.
            !text[..*at].ends_with('$')
        })
        .map(|(at, _)| {
            text[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_uses_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let top = relative.components().next().unwrap().as_os_str();
        let top = top.to_string_lossy();
        let module = top.trim_end_matches(".rs");
        if ["lib", "main", "cli"].contains(&module) {
            continue;
        }
        let Some(own) = layer_of(module) else {
            wrong.push(format!("{module} is in no layer: add it to LAYERS"));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in uses(&text) {
            // `crate::text!` is the error module's macro for messages.
            if [module, "DEFAULT_OUTPUT_DIR", "Error", "Result", "text"].contains(&used.as_str()) {
                continue;
            }
            match layer_of(&used) {
                Some(layer) if layer < own => {}
                _ => wrong.push(format!("{} uses crate::{used}", relative.display())),
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "upward or sideways uses:\n{}",
        wrong.join("\n")
    );
}

/// The library's source files (all but the command line's).
fn library_sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files
        .iter()
        .filter(|file| {
            let relative = file.strip_prefix(&src).unwrap();
            !relative.starts_with("cli") && !relative.starts_with("main.rs")
        })
        .map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            // Unit tests may speak of the command line.
            let code = text.split("#[cfg(test)]").next().unwrap().to_string();
            (file.display().to_string(), code)
        })
        .collect()
}

/// The string literals of `code`, comments left out.
fn string_literals(code: &str) -> Vec<String> {
    let mut literals = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut chars = line.chars();
        let mut current: Option<String> = None;
        while let Some(c) = chars.next() {
            match (&mut current, c) {
                (None, '"') => current = Some(String::new()),
                (None, '/') if chars.clone().next() == Some('/') => break,
                (None, '\'') => {
                    // A char literal such as '"' (a lifetime has no closing quote).
                    let rest: String = chars.clone().take(3).collect();
                    if rest.starts_with("\"'") || rest.starts_with("\\\"") {
                        chars.nth(1);
                    }
                }
                (Some(text), '\\') => {
                    text.push(c);
                    text.extend(chars.next());
                }
                (Some(text), '"') => {
                    literals.push(std::mem::take(text));
                    current = None;
                }
                (Some(text), c) => text.push(c),
                (None, _) => {}
            }
        }
    }
    literals
}

/// The command line's flags, as `src/cli/wording.rs` spells the library's parameters.
fn flags() -> Vec<String> {
    let wording = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli/wording.rs");
    let text = std::fs::read_to_string(wording).unwrap();
    let mut flags: Vec<String> = string_literals(&text)
        .iter()
        .filter_map(|literal| literal.split(' ').next().filter(|w| w.starts_with('-')))
        .map(str::to_string)
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// True when `flag` stands in `text` as a word of its own.
fn names(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + flag.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn the_library_names_no_flag_and_never_ends_the_process() {
    let flags = flags();
    assert!(flags.contains(&"--threads".to_string()) && flags.contains(&"-n".to_string()));
    let mut wrong = Vec::new();
    for (file, code) in library_sources() {
        for literal in string_literals(&code) {
            if let Some(flag) = flags.iter().find(|flag| names(&literal, flag)) {
                wrong.push(format!("{file}: {flag} in \"{literal}\""));
            }
        }
        if code.contains("process::exit") {
            wrong.push(format!("{file}: process::exit"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the library speaks the command line's words:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_flag_check_reads_literals_and_words() {
    let literals = string_literals("let a = \"use --threads 2\"; // \"--engine\"\nlet b = '\"';");
    assert_eq!(literals, ["use --threads 2"]);
    assert!(names("give -n 10", "-n") && !names("x-n", "-n") && !names("--threads-x", "--threads"));
}

#[test]
fn the_check_sees_an_upward_use() {
    assert_eq!(
        uses("use crate::engine::x; crate::table::y"),
        ["engine", "table"]
    );
    assert!(layer_of("table") < layer_of("engine"));
}
