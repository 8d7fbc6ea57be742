#!/usr/bin/env python3
"""Runs each example with saltus (this interpreter) and its Siconos twin (/usr/bin/python3 with
python3-siconos) and prints the largest difference per column. Usage:
python compare_with_siconos.py [--siconos-python /usr/bin/python3]"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siconos-python", default="/usr/bin/python3")
    args = ap.parse_args()
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case in ("bouncing_ball", "diode_bridge"):
            ours, theirs = os.path.join(tmp, case + "_saltus.csv"), os.path.join(tmp, case + "_siconos.csv")
            subprocess.run([sys.executable, os.path.join(HERE, case + ".py"), ours], check=True)
            subprocess.run([args.siconos_python, os.path.join(HERE, case + "_siconos.py"), theirs], check=True)
            a, b = np.loadtxt(ours, delimiter=",", skiprows=1), np.loadtxt(theirs, delimiter=",", skiprows=1)
            names = open(ours).readline().strip().split(",")
            assert a.shape == b.shape, (case, a.shape, b.shape)
            diff = np.abs(a - b).max(axis=0)
            worst = max(worst, float(diff.max()))
            print(case + ": max |saltus - siconos| per column: " + ", ".join(f"{n} {d:.2e}" for n, d in zip(names, diff)))
    print(f"largest difference {worst:.2e}")
    return 0 if worst <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
