//! The documentation's commands, run: every fenced `sh` and `console` block of README.md and
//! docs/*.md is run against the built binary, so the docs cannot go stale.
//!
//! - ```` ```sh ```` blocks run as one bash script (`set -eo pipefail`) and must succeed;
//! - ```` ```console ```` blocks hold `$ command` lines, each followed by the output it must
//!   print (standard output and error together, in any order; times such as `(1.2 s)` are not
//!   compared); a command whose comment ends in `# exit code N` must exit with N, others with 0;
//! - ```` ```sh slow ````, ```` ```sh setup ```` and ```` ```sh cluster ```` (also after
//!   `console`) are skipped and counted: too slow for a test, changing the machine (installing,
//!   the whole test suite), or needing a Slurm cluster. Any other word there is an error.
//!
//! The blocks of one page run in order in one temporary folder, where `nimsieve` is the binary
//! under test (`cargo run --release --` is rewritten to it), `scripts` is the repository's and
//! `NIMSIEVE` names the binary. Relative links between the pages, and their anchors, are
//! checked too. This test has its own `main` (no harness), so what it skipped is always printed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why a block is not run, as its fence says.
const SKIP_REASONS: &[(&str, &str)] = &[
    ("slow", "too slow for a test"),
    ("setup", "installs software or runs the whole test suite"),
    ("cluster", "needs a Slurm cluster"),
];

/// One fenced block of a page.
struct Block {
    line: usize,
    kind: Kind,
    skip: Option<&'static str>,
    text: String,
}

#[derive(PartialEq)]
enum Kind {
    Sh,
    Console,
}

/// The `sh` and `console` blocks of a Markdown text.
fn blocks(markdown: &str) -> Result<Vec<Block>, String> {
    let mut found = Vec::new();
    let mut open: Option<(usize, String, Vec<&str>)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let Some(info) = line.strip_prefix("```") else {
            if let Some((_, _, body)) = open.as_mut() {
                body.push(line);
            }
            continue;
        };
        match open.take() {
            None => open = Some((i + 1, info.trim().to_string(), Vec::new())),
            Some((start, info, body)) => {
                let mut words = info.split_whitespace();
                let kind = match words.next() {
                    Some("sh") => Kind::Sh,
                    Some("console") => Kind::Console,
                    _ => continue,
                };
                let skip = match words.next() {
                    None => None,
                    Some(word) => Some(
                        SKIP_REASONS
                            .iter()
                            .find(|(w, _)| *w == word)
                            .map(|(w, _)| *w)
                            .ok_or(format!(
                                "line {start}: unknown fence marker '{word}' (slow, setup or cluster)"
                            ))?,
                    ),
                };
                found.push(Block {
                    line: start,
                    kind,
                    skip,
                    text: body.join("\n"),
                });
            }
        }
    }
    match open {
        Some((start, ..)) => Err(format!("line {start}: a fence that is never closed")),
        None => Ok(found),
    }
}

/// A folder where `nimsieve` is the binary under test.
struct Sandbox {
    dir: tempfile::TempDir,
    path: String,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join(".bin");
        std::fs::create_dir(&bin).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_nimsieve"), bin.join("nimsieve")).unwrap();
        std::os::unix::fs::symlink(repo().join("scripts"), dir.path().join("scripts")).unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Sandbox { dir, path }
    }

    /// Runs `script` with bash, standard error into standard output: (exit code, output).
    fn run(&self, script: &str) -> (i32, String) {
        let script = script.replace("cargo run --release --", "nimsieve");
        let out = Command::new("bash")
            .args(["-c", &format!("set -eo pipefail\nexec 2>&1\n{script}")])
            .current_dir(self.dir.path())
            .env("PATH", &self.path)
            .env("NIMSIEVE", env!("CARGO_BIN_EXE_nimsieve"))
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A line as compared: trailing space trimmed, durations such as `(1.2 s)` made `(_ s)`, and
/// of a provenance (`made by nimsieve 0.1.0 (commit …), engine …, 2 threads, DATE: COMMAND`)
/// only the command.
fn normal(line: &str) -> String {
    let line = line.trim_end();
    if let Some(command) = line
        .strip_prefix("made by nimsieve ")
        .and_then(|made| made.split_once("Z: "))
        .map(|(_, command)| command)
    {
        return format!("made by nimsieve _: {command}");
    }
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(" s)") {
        let head = &rest[..at];
        let number = head.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        if number.len() < head.len() && number.ends_with('(') {
            out.push_str(number);
            out.push('_');
        } else {
            out.push_str(head);
        }
        out.push_str(" s)");
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

/// The `$ command` lines of a console block, each with the output lines shown after it.
fn console_commands(text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("$ ") {
            commands.push((command.to_string(), Vec::new()));
        } else if let Some((_, output)) = commands.last_mut() {
            output.push(normal(line));
        } else {
            return Err(format!("output before any '$ ' command: {line}"));
        }
    }
    Ok(commands)
}

/// The exit code a console command's comment names (`# exit code N`), else 0.
fn expected_code(command: &str) -> i32 {
    command
        .rsplit_once("# exit code ")
        .and_then(|(_, code)| code.trim().parse().ok())
        .unwrap_or(0)
}

/// Runs one block in `sandbox`; an error says what differed.
fn run_block(sandbox: &Sandbox, block: &Block) -> Result<usize, String> {
    if block.kind == Kind::Sh {
        let (code, output) = sandbox.run(&block.text);
        return match code {
            0 => Ok(block.text.lines().filter(|l| is_command(l)).count()),
            _ => Err(format!(
                "exit code {code}:\n{}\n--- output:\n{output}",
                block.text
            )),
        };
    }
    let commands = console_commands(&block.text)?;
    for (command, expected) in &commands {
        let (code, output) = sandbox.run(command);
        let want = expected_code(command);
        if code != want {
            return Err(format!(
                "$ {command}\nexit code {code}, not {want}; output:\n{output}"
            ));
        }
        let mut actual: Vec<String> = output.lines().map(normal).collect();
        let mut shown = expected.clone();
        actual.sort();
        shown.sort();
        if actual != shown {
            return Err(format!(
                "$ {command}\nprinted:\n{output}--- the docs show:\n{}",
                expected.join("\n")
            ));
        }
    }
    Ok(commands.len())
}

fn is_command(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && !line.starts_with('#')
}

/// What the blocks of one page came to.
#[derive(Default)]
struct Tally {
    commands: usize,
    blocks_run: usize,
    skipped: BTreeMap<&'static str, Vec<String>>,
    failures: Vec<String>,
}

/// Runs every block of `markdown` (named `name`) in one sandbox.
fn check_page(name: &str, markdown: &str, tally: &mut Tally) {
    let blocks = match blocks(markdown) {
        Ok(blocks) => blocks,
        Err(e) => return tally.failures.push(format!("{name}: {e}")),
    };
    let sandbox = Sandbox::new();
    for block in &blocks {
        if let Some(reason) = block.skip {
            tally
                .skipped
                .entry(reason)
                .or_default()
                .push(format!("{name}:{}", block.line));
            continue;
        }
        match run_block(&sandbox, block) {
            Ok(commands) => {
                tally.commands += commands;
                tally.blocks_run += 1;
            }
            Err(e) => tally.failures.push(format!("{name}:{}: {e}", block.line)),
        }
    }
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside fences).
fn anchors(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let base = anchor(line.trim_start_matches('#'));
            let count = seen.entry(base.clone()).or_default();
            found.push(match *count {
                0 => base,
                k => format!("{base}-{k}"),
            });
            *count += 1;
        }
    }
    found
}

/// Every `](target)` of a page that is not a web address: the file exists, the anchor too.
fn check_links(page: &Path, markdown: &str, failures: &mut Vec<String>) {
    let mut fenced = false;
    for (i, line) in markdown.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (at, _) in line.match_indices("](") {
            let rest = &line[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.starts_with("http") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() {
                page.to_path_buf()
            } else {
                page.parent().unwrap().join(file)
            };
            let place = format!("{}:{}", page.strip_prefix(repo()).unwrap().display(), i + 1);
            if !file.exists() {
                failures.push(format!("{place}: link to a missing file: {target}"));
            } else if !fragment.is_empty() {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&text).iter().any(|a| a == fragment) {
                    failures.push(format!("{place}: link to a missing anchor: {target}"));
                }
            }
        }
    }
}

/// The checker must fail where the docs are wrong: a failing command, a wrong output, a wrong
/// exit code, an unknown fence marker, a broken link.
fn self_check() {
    let cases = [
        "```sh\nnimsieve grundy no-such-game -n 10\n```\n",
        "```console\n$ nimsieve ppos sub:1,3,4 -n 10 -f bfile -o -\n0 0\n1 2\n```\n",
        "```console\n$ nimsieve grundy sub:1 -n 0\n```\n",
        "```sh fast\nnimsieve games\n```\n",
    ];
    for case in cases {
        let mut tally = Tally::default();
        check_page("self-check", case, &mut tally);
        assert!(
            !tally.failures.is_empty(),
            "the docs test passed a wrong block:\n{case}"
        );
    }
    let mut tally = Tally::default();
    check_page(
        "self-check",
        "```console\n$ nimsieve ppos sub:1,3,4 -n 10 -f bfile -o -\n0 0\n1 2\n2 7\n3 9\n$ nimsieve grundy sub:1 -n 0   # exit code 2\nnimsieve: error: anything\n```\n",
        &mut tally,
    );
    assert!(tally.failures.len() == 1 && tally.failures[0].contains("anything"));
    let mut failures = Vec::new();
    check_links(
        &repo().join("README.md"),
        "[x](docs/no-such-page.md) [y](#no-such-anchor)",
        &mut failures,
    );
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert_eq!(normal("all correct (1.2 s)  "), "all correct (_ s)");
}

fn main() {
    // `cargo test -- --list` (as IDEs and some runners ask) lists nothing to run here.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    self_check();
    let mut pages = vec![repo().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut tally = Tally::default();
    for page in &pages {
        let name = page.strip_prefix(repo()).unwrap().display().to_string();
        let text = std::fs::read_to_string(page).unwrap();
        check_page(&name, &text, &mut tally);
        check_links(page, &text, &mut tally.failures);
    }
    let skipped: usize = tally.skipped.values().map(Vec::len).sum();
    println!(
        "docs: {} pages, {} blocks run ({} commands), {} blocks skipped",
        pages.len(),
        tally.blocks_run,
        tally.commands,
        skipped
    );
    for (reason, places) in &tally.skipped {
        let why = SKIP_REASONS.iter().find(|(w, _)| w == reason).unwrap().1;
        println!(
            "  skipped {} '{reason}' blocks ({why}): {}",
            places.len(),
            places.join(", ")
        );
    }
    if !tally.failures.is_empty() {
        for failure in &tally.failures {
            eprintln!("FAILED {failure}\n");
        }
        eprintln!("docs: {} failures", tally.failures.len());
        std::process::exit(1);
    }
    println!("docs: ok");
}
