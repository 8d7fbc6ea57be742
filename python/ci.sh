#!/usr/bin/env bash
# The Python package's tests: `bash python/ci.sh` (from anywhere).
# Creates a virtualenv (in $CARGO_TARGET_DIR/python-venv, else target/python-venv at the root),
# installs maturin and the test dependencies, builds the `saltus` CLI and the sample plugins
# (release; the tests compare against `saltus run`), builds the wheel with maturin (release,
# sharing the root's target directory) and installs it, then runs pytest on python/tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
venv="$CARGO_TARGET_DIR/python-venv"
py="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  if ! "$py" -m venv "$venv" 2>/dev/null; then
    # Debian's python3 needs python3-venv for `-m venv`
    if command -v apt-get >/dev/null 2>&1; then
      SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv python3-pip
    fi
    rm -rf "$venv"
    "$py" -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check maturin numpy scipy pytest dask distributed pandas matplotlib

(cd "$repo" && cargo build --release --workspace --locked)
rm -rf "$CARGO_TARGET_DIR/wheels"
(cd "$here" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin build --release --locked -q \
  --interpreter "$venv/bin/python" -o "$CARGO_TARGET_DIR/wheels")
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$CARGO_TARGET_DIR"/wheels/saltus-*.whl

cd "$here/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider .
