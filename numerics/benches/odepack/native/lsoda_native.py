#!/usr/bin/env python3
"""Runs the native ODEPACK LSODA driver (built by build.sh) and prints the same CSV as
lsoda_testset.py and `cargo run --example ivp_testset`:

    problem,method,rtol,atol,steps,rejected,nfev,njev,switches,digits,seconds

The driver prints raw lines (counters, best wall time, y(tf) to 17 digits, and the switch
count of its untimed 20001-output run); `digits` is computed here with lsoda_testset.py's own
`digits` and reference loader, so both LSODA CSVs use the same accuracy measure. LSODA does not
report rejected steps (column -1).

usage: python3 lsoda_native.py [--bin PATH] [--method NAME] [--rtol R] [--problem NAME] [--fd] [--banded] [--repeat K]
"""
import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from lsoda_testset import digits, load_refs, problems  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(os.environ.get("ODEPACK_NATIVE_DIR", os.path.join(ROOT, "target/odepack-native")), "lsoda_f77"))
    ap.add_argument("--method", default="lsoda-f77", help="name in the method column")
    ap.add_argument("--rtol", type=float)
    ap.add_argument("--problem")
    ap.add_argument("--fd", action="store_true")
    ap.add_argument("--banded", action="store_true", help="bruss1d with a banded Jacobian (jt = 5, ml = mu = 2)")
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    args = [a.bin, "--repeat", str(a.repeat)]
    if a.rtol:
        args += ["--rtol", repr(a.rtol)]
    if a.problem:
        args += ["--problem", a.problem]
    if a.fd:
        args += ["--fd"]
    if a.banded:
        args += ["--banded"]
    refs = load_refs()
    ratio = {name: r for name, _, _, _, r in problems()}
    print("problem,method,rtol,atol,steps,rejected,nfev,njev,switches,digits,seconds", flush=True)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    pending = None
    for line in proc.stdout:
        w = line.split()
        if w and w[0] == "RAW":
            name, rtol, atol, istate, nst, nfe, nje, secs, n = w[1], float(w[2]), float(w[3]), *map(int, w[4:8]), float(w[8]), int(w[9])
            y = np.array([float(x) for x in w[10:10 + n]])
            assert abs(atol - ratio[name] * rtol) <= 1e-12 * atol, (name, atol)
            dg = digits(y, refs[name], ratio[name]) if istate == 2 else float("nan")
            pending = (name, rtol, atol, nst, nfe, nje, dg, secs)
        elif w and w[0] == "SW":
            name, rtol, atol, nst, nfe, nje, dg, secs = pending
            assert w[1] == name
            print(f"{name},{a.method},{rtol:e},{atol:e},{nst},-1,{nfe},{nje},{int(w[2])},{dg:.2f},{secs:.6f}", flush=True)
        elif line.strip():
            sys.stderr.write(line)  # LSODA's own messages (xerrwv)
    if proc.wait() != 0:
        sys.exit(f"{a.bin} exited with {proc.returncode}")


if __name__ == "__main__":
    main()
