"""Runs a Siconos tutorial that solves a VI/MCP/NCP with Python callbacks on Saltus and on
Siconos 4.4 and compares the arrays it leaves (default: ``control/Zhuravlev/ZhuravlevIvanovVI.py``,
its trajectory ``sol`` and multipliers ``signs``).

    python siconos_vi_compare.py [--script PATH] [--siconos-python /usr/bin/python3] [--arrays sol,signs]

The script is run unchanged on Saltus (``_census_runner.py saltus``, i.e. ``python -m
saltus.siconos``). Siconos 4.4 refuses ``SolverOptions(problem, solverId)`` (its constructor takes
the id only), which the tutorial uses; so both sides also run a copy in which that call is
written ``SolverOptions(solverId)`` (the only change), and the comparison is between those two
runs (and between Saltus's two runs, which must be identical).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "_census_runner.py"
TUTORIALS = HERE.parents[2] / "shared" / "siconos-tutorials" / "examples"
if not TUTORIALS.is_dir():
    TUTORIALS = HERE.parents[3] / "shared" / "siconos-tutorials" / "examples"
DEFAULT = TUTORIALS / "control" / "Zhuravlev" / "ZhuravlevIvanovVI.py"


def run(python: str, side: str, script: Path, dump: Path) -> float:
    p = subprocess.run([python, str(RUNNER), side, str(script), str(dump)], cwd=script.parent,
                       env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"{side} failed on {script.name}:\n{p.stderr[-2000:]}")
    return float(Path(str(dump) + ".seconds").read_text())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--script", type=Path, default=DEFAULT)
    ap.add_argument("--siconos-python", default="/usr/bin/python3")
    ap.add_argument("--arrays", default="sol,signs")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vi-compare-") as tmp:
        work = Path(tmp) / "w"
        shutil.copytree(args.script.parent, work, ignore=shutil.ignore_patterns("__pycache__"))
        orig = work / args.script.name
        text = orig.read_text()
        fixed = re.sub(r"SolverOptions\(\s*\w+\s*,\s*", "SolverOptions(", text)
        variant = work / ("v44_" + args.script.name)
        variant.write_text(fixed)
        d = Path(tmp)
        t_unchanged = run(sys.executable, "saltus", orig, d / "saltus_unchanged.npz")
        t_saltus = run(sys.executable, "saltus", variant, d / "saltus.npz")
        t_siconos = run(args.siconos_python, "siconos", variant, d / "siconos.npz")
        a, b, u = (np.load(d / f) for f in ("saltus.npz", "siconos.npz", "saltus_unchanged.npz"))
        print(f"{args.script.name}: Saltus {t_saltus:.2f} s (unchanged script {t_unchanged:.2f} s), "
              f"Siconos 4.4 {t_siconos:.2f} s, ratio {t_siconos / t_saltus:.1f}")
        for k in args.arrays.split(","):
            x, y = a[k], b[k]
            assert np.array_equal(x, u[k]), f"{k}: the unchanged script and the 4.4 form differ on Saltus"
            diff = np.abs(x - y)
            scale = max(1e-300, float(np.abs(y).max()))
            rows = np.nonzero(diff.max(axis=1) > 1e-9 * scale)[0] if diff.ndim == 2 else np.nonzero(diff > 1e-9 * scale)[0]
            first = int(rows[0]) if rows.size else None
            anyrow = np.nonzero(diff.reshape(diff.shape[0], -1).max(axis=1) > 0)[0]
            exact = int(anyrow[0]) if anyrow.size else diff.shape[0]
            print(f"  {k} {x.shape}: max |Saltus − Siconos| = {diff.max():.3e} "
                  f"({diff.max() / scale:.1e} of max |{k}| = {scale:.4g}); rows differing by > 1e-9 of it: "
                  f"{rows.size}" + (f" (first {first})" if first is not None else "")
                  + f"; identical to the last bit up to row {exact}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
