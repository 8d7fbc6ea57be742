#!/usr/bin/env python3
"""Compares two CSVs `problem,type,n,solver,tolerance,status,iterations,error,seconds`
(ours from `--example lcp_collection`, Siconos's from lcp_relay_siconos.py).

A run counts as solved when status == converged and error <= tolerance (1e-8).
Prints (a) files some Siconos solver solves and none of ours does, and (b) per family the total
over files solved by both of (our fastest solver's seconds) vs (Siconos's fastest solver's
seconds), with the per-file breakdown.

usage: python3 compare.py OURS.csv SICONOS.csv
"""
import csv
import sys


def load(path):
    best = {}
    fam = {}
    with open(path) as f:
        for row in csv.reader(l for l in f if l.count(",") == 8 and not l.startswith("problem,")):
            prob, kind, _n, solver, tol, status, _it, err, secs = row
            fam[prob] = kind
            try:
                ok = status == "converged" and float(err) <= float(tol)
                t = float(secs)
            except ValueError:
                continue
            if ok and (prob not in best or t < best[prob][0]):
                best[prob] = (t, solver)
    return best, fam


def main():
    ours, fam_o = load(sys.argv[1])
    sico, fam_s = load(sys.argv[2])
    fam = {**fam_s, **fam_o}
    missing = sorted(p for p in sico if p not in ours)
    print(f"(a) files solved by some Siconos solver: {len(sico)}; solved by one of ours: "
          f"{sum(1 for p in sico if p in ours)}; missing: {missing or 'none'}")
    extra = sorted(p for p in ours if p not in sico)
    print(f"    files solved by ours only: {extra or 'none'}")
    for kind in sorted(set(fam.values())):
        both = sorted(p for p in ours if p in sico and fam.get(p) == kind)
        to = sum(ours[p][0] for p in both)
        ts = sum(sico[p][0] for p in both)
        print(f"(b) {kind}: {len(both)} files, ours {to * 1e6:.1f} us vs Siconos {ts * 1e6:.1f} us, "
              f"ratio {to / ts if ts else float('nan'):.3f}")
        for p in both:
            print(f"      {p:36s} ours {ours[p][0] * 1e6:10.2f} us ({ours[p][1]:10s})  "
                  f"siconos {sico[p][0] * 1e6:10.2f} us ({sico[p][1]})")


if __name__ == "__main__":
    main()
