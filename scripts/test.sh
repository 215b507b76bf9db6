#!/usr/bin/env bash
# The test suite: the Rust tests, with the Python libraries their NumPy and pandas checks need
# from a virtual environment (target/python-venv); a sweep as a job array on a one-node Slurm
# cluster (tests/slurm.sh, with the binary the Rust tests built); then the Python package,
# built and installed into the same environment exactly as docs/python.md installs it, its type
# hints checked (mypy --strict), and its pytest suite (which compares it with the command-line
# binary the Rust tests built and runs the example notebook).
#
# A check that cannot run here (R missing, no Slurm cluster, a Python library that could not be
# installed) is skipped with one line in the summary at the end; with CI set it fails instead,
# except the kernels compiled for an instruction set this processor lacks (lines `processor:`),
# which no installation can give it: those are listed as skipped under CI too.
set -euo pipefail
cd "$(dirname "$0")/.."
skipped=$(mktemp)
trap 'rm -f "$skipped"' EXIT
export NIMSIEVE_SKIPPED="$skipped"

venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
export PATH="$PWD/$venv/bin:$PATH"
pip_install() { pip install --quiet --disable-pip-version-check "$@"; }
# NumPy, pandas and openpyxl for tests/it/formats.rs, tests/it/xlsx.rs and tests/it/wythoff.rs; a failed
# install leaves those checks to report themselves skipped (or to fail under CI).
pip_install numpy pandas openpyxl || echo "scripts/test.sh: could not install numpy, pandas and openpyxl" >&2

# Both tiers: the fast tests plain `cargo test` runs, and those marked slow (#[ignore]).
cargo test --release -- --include-ignored

slurm_log=$(mktemp)
tests/slurm.sh | tee "$slurm_log"
grep '^tests/slurm.sh: SKIPPED: ' "$slurm_log" | sed 's/^tests\/slurm.sh: SKIPPED: /slurm.sh: /' >>"$skipped" || true
rm -f "$slurm_log"

pip_install ./python
pip_install -r python/tests/requirements.txt
(cd python && python -m mypy --strict nimsieve tests)
python -m pytest -q python/tests

echo
if [ -s "$skipped" ]; then
  sort -u -o "$skipped" "$skipped"
  echo "scripts/test.sh: every other check passed; $(wc -l <"$skipped") skipped:"
  sed 's/^/  skipped: /' "$skipped"
  if [ -n "${CI:-}" ] && grep -qv '^processor: ' "$skipped"; then
    echo "scripts/test.sh: with CI set no check may be skipped but those a processor lacks" >&2
    exit 1
  fi
else
  echo "scripts/test.sh: every check ran and passed"
fi
