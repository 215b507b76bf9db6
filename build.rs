//! Records the commit the library is built from as `NIMSIEVE_COMMIT`, which every file a run
//! writes carries in its provenance: the hash of `HEAD`, with `+modified` when the sources
//! differ from it, or `unknown` outside a git checkout (a source archive, a crate download).

use std::path::Path;
use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let sources = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];
            let clean = Command::new("git")
                .args(["diff", "--quiet", "HEAD", "--"])
                .args(sources)
                .status()
                .is_ok_and(|status| status.success());
            if clean {
                hash
            } else {
                format!("{hash}+modified")
            }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=NIMSIEVE_COMMIT={commit}");
    // Built again when the checkout moves to another commit or a source changes.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = Path::new(&dir);
        for file in ["HEAD", "index", "packed-refs"] {
            println!("cargo:rerun-if-changed={}", dir.join(file).display());
        }
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", dir.join(reference).display());
        }
    }
    for source in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={source}");
    }
}
