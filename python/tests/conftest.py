"""Paths shared by the tests: the repository, ../shared beside it, the `saltus` binary."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"


def target_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))


def shared_dir() -> Path:
    return Path(os.environ.get("SALTUS_SHARED", REPO.parent / "shared"))


def data_dir() -> Path:
    """Siconos solver test data: $SALTUS_TEST_DATA, else ../shared/data (as the Rust tests)."""
    return Path(os.environ.get("SALTUS_TEST_DATA", shared_dir() / "data"))


@pytest.fixture(scope="session")
def saltus_bin() -> Path:
    """The `saltus` command-line tool: $SALTUS_BIN (ci.sh sets it), else target/debug/saltus
    (as `cargo build` or `cargo test` left it; built here if missing), else the release one.
    Every profile gives the same bits (no fast-math, no FMA contraction); the tests compare bits."""
    exe = os.environ.get("SALTUS_BIN")
    if exe:
        return Path(exe)
    for profile in ("debug", "release"):
        exe = target_dir() / profile / "saltus"
        if exe.exists():
            return exe
    exe = target_dir() / "debug" / "saltus"
    subprocess.run(
        ["cargo", "build", "--workspace", "--locked"],
        cwd=REPO, check=True, env={**os.environ},
    )
    assert exe.exists(), f"{exe} was not built"
    return exe


@pytest.fixture(scope="session")
def plugin_dir(saltus_bin) -> Path:
    """Where the sample plugin libraries are (beside the saltus binary)."""
    return saltus_bin.parent


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    d = shared_dir() / "reference"
    if not d.is_dir():
        pytest.skip(f"Siconos references absent ({d}); set SALTUS_SHARED")
    return d
