//! `nimsieve completions SHELL` and `nimsieve man`: generated from the command line's
//! definitions, so they name every subcommand and option.

use crate::support::command;

use command::{nimsieve, stdout_of};

const SUBCOMMANDS: &[&str] = &[
    "grundy",
    "ppos",
    "eval",
    "misere",
    "stats",
    "sweep",
    "sweep-merge",
    "plot",
    "verify",
    "compare",
    "games",
    "completions",
    "man",
];

#[test]
fn completions_name_every_subcommand_in_each_shell() {
    let dir = tempfile::tempdir().unwrap();
    let bash = stdout_of(dir.path(), &["completions", "bash"]);
    assert!(bash.contains("complete -F _nimsieve"), "{bash}");
    let zsh = stdout_of(dir.path(), &["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef nimsieve"));
    let fish = stdout_of(dir.path(), &["completions", "fish"]);
    assert!(fish.contains("complete -c nimsieve"));
    for script in [&bash, &zsh, &fish] {
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "no {sub} in:\n{script}");
        }
        assert!(script.contains("until-period") && script.contains("checkpoint-every"));
    }
    // The bash script is valid bash.
    let checked = std::process::Command::new("bash")
        .args(["-n", "-c", &bash])
        .status()
        .unwrap();
    assert!(checked.success());
}

#[test]
fn an_unknown_shell_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(dir.path())
        .args(["completions", "tcsh"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("possible values: bash, zsh, fish"), "{err}");
}

#[test]
fn the_man_page_has_a_section_for_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let page = stdout_of(dir.path(), &["man"]);
    assert!(page.contains(".TH nimsieve 1"), "{page}");
    for sub in SUBCOMMANDS {
        let heading = format!(".SH \"NIMSIEVE {}\"", sub.to_uppercase());
        assert!(page.contains(&heading), "no {heading}");
    }
    assert!(page.contains("until\\-period"));
    // The synopsis names every subcommand; the exit codes and the other documents are said.
    let lines: Vec<&str> = page.lines().collect();
    let synopses: Vec<&str> = (lines.windows(2))
        .filter(|w| w[0] == ".br")
        .map(|w| w[1])
        .collect();
    for sub in SUBCOMMANDS {
        let command = format!("nimsieve {}", sub.replace('-', "\\-"));
        let named = |line: &&str| line.split(' ').take(2).collect::<Vec<_>>().join(" ") == command;
        assert!(
            synopses.iter().any(named),
            "no synopsis of {sub}: {synopses:?}"
        );
    }
    assert!(page.contains(".SH \"EXIT STATUS\"") && page.contains("\n130\n"));
    assert!(page.contains(".SH \"SEE ALSO\"") && page.contains("docs/commands.md"));
    // -o writes the same page to a file.
    stdout_of(dir.path(), &["man", "-o", "nimsieve.1"]);
    let written = std::fs::read_to_string(dir.path().join("nimsieve.1")).unwrap();
    assert_eq!(written, page);
}
