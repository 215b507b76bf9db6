#!/usr/bin/env bash
# The test suite: the Rust tests; a sweep as a job array on a one-node Slurm cluster
# (tests/slurm.sh, with the binary the Rust tests built); then the Python package, built and
# installed into a virtual environment (target/python-venv) exactly as docs/python.md
# installs it, its type hints checked (mypy --strict), and its pytest suite (which
# compares it with the command-line binary the Rust tests built and runs the example notebook).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release
tests/slurm.sh
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
export PATH="$PWD/$venv/bin:$PATH"
pip install --quiet --disable-pip-version-check ./python
pip install --quiet --disable-pip-version-check -r python/tests/requirements.txt
(cd python && python -m mypy --strict nimsieve tests)
python -m pytest -q python/tests
