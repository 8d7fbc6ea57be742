#!/usr/bin/env bash
# The Python package's tests: `bash python/ci.sh` (from anywhere; `.ci/run` calls it last).
# Creates a virtualenv (in $CARGO_TARGET_DIR/python-venv, else target/python-venv at the root),
# installs maturin and the test dependencies, then
#  1. the `saltus` CLI and the sample plugins the tests compare against: those `cargo test` of
#     `.ci/run` built (the same cargo command with --no-run: nothing is rebuilt after it; run
#     alone, it builds them). `cargo test` leaves target/debug/saltus built with the test
#     profile (opt-level 2). Debug, test and release builds give the same bits on every sample
#     (no fast-math; checked on the 17 samples);
#  2. the wheel, built once with maturin in release (as `pip install ./python` builds it), and
#     installed; SALTUS_PY_PROFILE=ci builds it in the `ci` profile of python/Cargo.toml instead
#     (opt-level 1, no debug info);
#  3. pytest on python/tests.
#
# Measured on the shared 2-core machine (loaded: wall times vary; CPU = user+sys of
# /usr/bin/time), for this script after `.ci/run`:
#   before: `cargo build --release --workspace` (the CLI and plugins again) 545 s CPU
#           + release wheel 440 s CPU (it reused part of that build) + pytest 44 s wall
#           = ~990 s CPU;
#   after:  the cargo command is a no-op (the test-profile CLI of .ci/run's `cargo test`)
#           + release wheel from scratch 481 s CPU + pytest 14 s wall (85 tests) = ~490 s CPU.
#   The `ci` wheel profile took 564 s CPU from scratch (pytest 36 s wall, at a higher load):
#   no gain over release, so the default stays release.
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
"$venv/bin/python" -m pip install -q --disable-pip-version-check maturin numpy scipy pytest dask distributed pandas matplotlib h5py sympy

(cd "$repo" && cargo test --workspace --all-features --locked --no-run)   # exactly .ci/run's
# the sample plugins (cdylib, in target/debug) that `cargo test --no-run` does not link;
# the frontend tests built them already (then this is a no-op)
plugins=$(cd "$repo" && grep -l 'cdylib' plugins/*/Cargo.toml | grep -v template | xargs awk -F'"' '/^name = /{print "-p " $2; nextfile}')
(cd "$repo" && cargo build --locked $plugins)
export SALTUS_BIN="$CARGO_TARGET_DIR/debug/saltus"
profile="${SALTUS_PY_PROFILE:-release}"
rm -rf "$CARGO_TARGET_DIR/wheels"
(cd "$here" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin build --profile "$profile" --locked -q \
  --interpreter "$venv/bin/python" -o "$CARGO_TARGET_DIR/wheels")
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$CARGO_TARGET_DIR"/wheels/saltus-*.whl

cd "$here/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider .
