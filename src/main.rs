//! The `nimsieve` command: a thin shell over the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
