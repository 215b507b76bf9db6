//! The library's modules form layers, and a module uses only modules of lower layers (or its
//! own): error → leaves → game → table/misere → engine → analysis → report → format → run →
//! eval/sweep/verify/plot. Read from the `crate::…` paths of every source file, so a new upward
//! import fails here.

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
            if used == module || used == "DEFAULT_OUTPUT_DIR" || used == "Error" || used == "Result"
            {
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

#[test]
fn the_check_sees_an_upward_use() {
    assert_eq!(
        uses("use crate::engine::x; crate::table::y"),
        ["engine", "table"]
    );
    assert!(layer_of("table") < layer_of("engine"));
}
