#!/usr/bin/env python3
"""Side-by-side table of `ivp_testset` (ours) and `lsoda_testset.py` (ODEPACK LSODA) CSVs.

usage: python3 compare.py lsoda.csv ours.csv [ours_fine.csv]

For every (problem, rtol) of lsoda.csv: both nfev, digits and seconds, and the verdict
"nfev <= LSODA's at >= LSODA's digits". If ours_fine.csv (our runs on a finer rtol grid) is
given, our nfev at exactly LSODA's digits is also estimated by log-linear interpolation of
nfev against digits (a work-precision comparison that does not depend on how each code maps
rtol to accuracy); a grid run with both more digits and fewer nfev than LSODA also counts.
"""
import csv
import math
import sys
from collections import defaultdict


def load(path):
    rows = {}
    for r in csv.DictReader(open(path)):
        rows[(r["problem"], float(r["rtol"]))] = r
    return rows


def interp(points, d):
    """log10(nfev) at digits d from (digits, nfev) points sorted by digits."""
    pts = sorted((float(p["digits"]), int(p["nfev"])) for p in points if p["digits"] not in ("nan", "NaN"))
    for (d0, n0), (d1, n1) in zip(pts, pts[1:]):
        if d0 <= d <= d1 and d1 > d0:
            w = (d - d0) / (d1 - d0)
            return 10 ** ((1 - w) * math.log10(n0) + w * math.log10(n1))
    return None


def main():
    lsoda = load(sys.argv[1])
    ours = load(sys.argv[2])
    fine = defaultdict(list)
    if len(sys.argv) > 3:
        for (p, _), r in load(sys.argv[3]).items():
            fine[p].append(r)
    print("| problem | rtol | LSODA nfev | ours nfev | LSODA digits | ours digits | ours nfev @ LSODA digits | LSODA s | ours s | time ratio | nfev<= at >=digits |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    wins = defaultdict(int)
    wins_wp = defaultdict(int)
    for (p, rtol), l in lsoda.items():
        o = ours.get((p, rtol))
        if o is None:
            continue
        ln, on = int(l["nfev"]), int(o["nfev"])
        ld, od = float(l["digits"]), float(o["digits"])
        ls, os_ = float(l["seconds"]), float(o["seconds"])
        ok = on <= ln and od >= ld
        at = interp(fine[p], ld) if fine[p] else None
        # a run of ours on the grid that dominates LSODA's point also counts
        dominated = any(float(r["digits"]) >= ld and int(r["nfev"]) <= ln for r in fine[p])
        ok_wp = (at is not None and at <= ln) or dominated
        wins[rtol] += ok
        wins_wp[rtol] += ok_wp or ok
        at_s = f"{at:.0f}" if at is not None else "-"
        print(f"| {p} | {rtol:.0e} | {ln} | {on} | {ld:.2f} | {od:.2f} | {at_s} | {ls:.4f} | {os_:.4f} | {os_ / ls:.2f} | "
              f"{'yes' if ok else 'no'}{' (wp: yes)' if (not ok and ok_wp) else ''} |")
    for r in sorted(wins):
        print(f"\nrtol {r:.0e}: fewer-or-equal nfev at >= digits on {wins[r]}/10 problems; "
              f"counting the work-precision estimate: {wins_wp[r]}/10")


if __name__ == "__main__":
    main()
