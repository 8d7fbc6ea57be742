"""Census of the Siconos tutorials run unchanged on Saltus (issue 29).

    python siconos_census.py [--tutorials DIR] [--timeout S] [--only SUBSTRING] [--json OUT]
                             [--siconos-python /usr/bin/python3] [--markdown]

Every ``.py`` file of the Siconos tutorials is run as ``python -m saltus.siconos SCRIPT.py``
(through ``_census_runner.py``, the same call) in a temporary copy of its folder (its ``.ref``
files and meshes beside it, its outputs kept away from the tutorials), with a per-script time
limit, and classified:

* ``runs``: exit status 0;
* ``differs``: runs to the end, but the script's own comparison with its ``.ref`` file fails
  (an ``AssertionError``, or the tutorials' "rather different from the reference" warning);
* ``unsupported``: a ``SiconosFeatureNotSupported`` (NotImplementedError) naming the feature;
* ``fails``: any other error (the last line of the traceback is kept);
* ``timeout``: over the time limit.

Files that other files of their folder import and that have no ``__main__`` block are
``helper`` modules, not scripts. A script that runs on Saltus is then run by the real Siconos 4.4
(``--siconos-python``, Debian's ``python3-siconos``) the same way, and the results compared:
the numeric numpy arrays of the script's globals at the end (``dataPlot``, ...; same name and
shape on both sides; the largest, the recorded trajectory ``dataPlot`` in most tutorials) give
the largest difference relative to the array's largest magnitude;
for a mechanics run, the poses of ``data/dynamic`` at the last output time of the HDF5 file it
wrote: the largest position difference and the mean height of the bodies (the settled
aggregate for chaotic scenes); a script that compares itself with its ``.ref`` (an ``assert`` or
a raised error) passed that
comparison by exiting with status 0. The wall times give the speed ratio (Siconos / Saltus,
the whole script with numpy, scipy, matplotlib, h5py and ``siconos`` already imported: model
building, the run, and the script's own post-processing and plots).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "_census_runner.py"
DEFAULT_TUTORIALS = HERE.parents[2] / "shared" / "siconos-tutorials" / "examples"
if not DEFAULT_TUTORIALS.is_dir():
    DEFAULT_TUTORIALS = HERE.parents[3] / "shared" / "siconos-tutorials" / "examples"


def is_helper(path: Path) -> bool:
    """Imported by a sibling file and without a ``__main__`` block."""
    text = path.read_text(errors="replace")
    if "__main__" in text:
        return False
    mod = path.stem
    pat = re.compile(rf"^\s*(from\s+{re.escape(mod)}\s+import|import\s+{re.escape(mod)}\b)", re.M)
    return any(pat.search(p.read_text(errors="replace")) for p in path.parent.glob("*.py") if p != path)


def checks_ref(path: Path) -> bool:
    """Whether the script compares itself with a reference file and fails when it differs."""
    text = path.read_text(errors="replace")
    return ".ref" in text and ("assert" in text or "raise" in text or "exit(1)" in text)


def run_side(python: str, side: str, script: Path, timeout: float, dump: Path) -> dict:
    """Runs ``script`` in a temporary copy of its folder; returns status, message, seconds."""
    with tempfile.TemporaryDirectory(prefix="census-") as tmp:
        work = Path(tmp) / script.parent.name
        shutil.copytree(script.parent, work, symlinks=True,
                        ignore=shutil.ignore_patterns("*.hdf5", "*.h5", "__pycache__"))
        env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("DISPLAY", None)
        t0 = time.perf_counter()
        try:
            p = subprocess.run([python, str(RUNNER), side, str(work / script.name), str(dump)],
                               cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"status": "timeout", "message": f"over {timeout:g} s", "seconds": timeout}
        dt = time.perf_counter() - t0
        inner = Path(str(dump) + ".seconds")
        if inner.exists():  # the script's own time, without the interpreter's start and imports
            dt = float(inner.read_text())
    ref_warning = "rather different from the reference" in p.stdout
    if p.returncode == 0:
        if ref_warning:
            return {"status": "differs", "message": "its .ref comparison warns", "seconds": dt}
        return {"status": "runs", "message": "", "seconds": dt}
    lines = [ln for ln in p.stderr.strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else f"exit status {p.returncode}"
    if last.startswith("AssertionError") and checks_ref(script):
        return {"status": "differs", "message": "its .ref assertion fails", "seconds": dt}
    if "SiconosFeatureNotSupported" in last or last.startswith("NotImplementedError"):
        m = re.search(r"`([^`]+)`", last)
        return {"status": "unsupported", "message": m.group(1) if m else last, "seconds": dt}
    return {"status": "fails", "message": last[:200], "seconds": dt}


def compare(a_path: Path, b_path: Path):
    """The results both runs left (same name and shape): the final poses of a mechanics file,
    else ``dataPlot`` (the recorded trajectory of most tutorials), else the largest array other
    than a loaded reference; its largest difference relative to its largest magnitude (for poses:
    the largest position difference and the mean heights). ``(None, [])`` if none in common."""
    import numpy as np

    if not (a_path.exists() and b_path.exists()):
        return None, []
    a, b = np.load(a_path), np.load(b_path)
    common = [k for k in a.files if k in b.files and a[k].shape == b[k].shape and a[k].size > 0]
    if not common:
        return None, []
    # the mechanics file's final poses, else the tutorials' `dataPlot`, else the largest array
    # that is not a reference the script loaded (identical on both sides by construction)
    own = [n for n in common if "ref" not in n.lower()]
    h5 = [n for n in own if n.startswith("h5_")]
    if h5:
        k = max(h5, key=lambda n: a[n].size)
    elif "dataPlot" in own:
        k = "dataPlot"
    elif own:
        k = max(own, key=lambda n: (a[n].size, n))
    else:
        return None, []
    x, y = a[k].astype(float), b[k].astype(float)
    if k.startswith("h5_"):  # final poses of a mechanics run: positions, and the mean height
        x, y = x[:, 2:5], y[:, 2:5]
        return float(np.abs(x - y).max()), [k, float(x[:, 2].mean()), float(y[:, 2].mean())]
    scale = max(1e-300, float(np.nanmax(np.abs(y))))
    return float(np.nanmax(np.abs(x - y))) / scale, [k]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tutorials", type=Path, default=DEFAULT_TUTORIALS)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--only", default=None, help="run the scripts whose path contains this")
    ap.add_argument("--json", type=Path, default=None, help="write the records here")
    ap.add_argument("--siconos-python", default="/usr/bin/python3")
    ap.add_argument("--siconos-timeout", type=float, default=150.0, help="time limit of a Siconos run")
    ap.add_argument("--no-siconos", action="store_true", help="do not run the real Siconos")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = ap.parse_args(argv)

    scripts = sorted(args.tutorials.rglob("*.py"))
    if args.only:
        scripts = [s for s in scripts if args.only in str(s)]
    records = []
    with tempfile.TemporaryDirectory(prefix="census-dumps-") as dumps:
        for i, s in enumerate(scripts):
            rel = str(s.relative_to(args.tutorials))
            rec = {"script": rel}
            if is_helper(s):
                rec.update(status="helper", message="imported by its siblings", seconds=0.0)
                records.append(rec)
                print(f"[{i + 1}/{len(scripts)}] {rel}: helper", file=sys.stderr)
                continue
            da, db = Path(dumps) / f"{i}-saltus.npz", Path(dumps) / f"{i}-siconos.npz"
            rec.update(run_side(sys.executable, "saltus", s, args.timeout, da))
            rec["checks_ref"] = checks_ref(s)
            if rec["status"] in ("runs", "differs") and not args.no_siconos:
                sic = run_side(args.siconos_python, "siconos", s, args.siconos_timeout, db)
                rec["siconos"] = sic
                worst, names = compare(da, db)
                rec["max_rel_diff"], rec["compared"] = worst, names
                if sic["status"] in ("runs", "differs") and rec["seconds"] > 0:
                    rec["speed_ratio"] = sic["seconds"] / rec["seconds"]
            records.append(rec)
            print(f"[{i + 1}/{len(scripts)}] {rel}: {rec['status']} {rec['message']}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1))
    print_table(records, args.markdown)
    return 0


def agreement(r: dict) -> str:
    if r["status"] not in ("runs", "differs"):
        return ""
    sic = r.get("siconos")
    if sic is None:
        return "not compared"
    parts = []
    if sic["status"] == "differs":
        parts.append("Siconos differs from the .ref too")
    elif sic["status"] != "runs":
        return f"Siconos {sic['status']}: {sic['message'][:60]}"
    if r.get("checks_ref") and r["status"] == "runs":
        parts.append(".ref check passed")
    d = r.get("max_rel_diff")
    if d is not None:
        c = r["compared"]
        if c[0].startswith("h5_"):
            parts.append(f"final positions: max diff {d:.2g} m; mean height {c[1]:.4g} m (Siconos {c[2]:.4g})")
        else:
            parts.append(f"`{c[0]}`: max diff {d:.1e} (relative to its largest value)")
    return "; ".join(parts) or "nothing to compare"


def print_table(records, markdown: bool) -> None:
    counts = {}
    for r in records:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("| script | Saltus | agreement with Siconos 4.4 | speed (Siconos/Saltus) |")
    print("|---|---|---|---|")
    for r in records:
        st = r["status"] + (f": {r['message']}" if r["message"] else "")
        ratio = f"{r['speed_ratio']:.2f}" if "speed_ratio" in r else ""
        print(f"| {r['script']} | {st.replace('|', '/')} | {agreement(r).replace('|', '/')} | {ratio} |")
    print()
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    sys.exit(main())
