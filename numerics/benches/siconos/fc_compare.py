#!/usr/bin/env python3
"""Side-by-side summary of fc_siconos.py and fc_collection CSVs.

Usage: python3 fc_compare.py siconos.csv saltus.csv
Per family: each solver's number of converged files; the best single solver of each side (most
files converged, ties broken by total time); the files both best solvers converge on and the
total time of each over those files; then the files where Saltus's best solver is slower than
the fastest converged Siconos solver on that file (with that solver and the fastest Saltus one).
"""
import csv
import sys
from collections import defaultdict


def load(path):
    rows = [r for r in csv.DictReader(open(path)) if r.get("status")]
    by = defaultdict(dict)  # (type, solver) -> {problem: seconds}
    files = defaultdict(set)
    for r in rows:
        files[r["type"]].add(r["problem"])
        if r["status"] == "converged":
            by[(r["type"], r["solver"])][r["problem"]] = float(r["seconds"])
    return by, files


def best(by, fam):
    cands = [(len(v), -sum(v.values()), s) for (f, s), v in by.items() if f == fam]
    if not cands:
        return None
    cands.sort(reverse=True)
    return cands[0][2]


sic, sf = load(sys.argv[1])
sal, af = load(sys.argv[2])
for fam in ["fc2d", "fc3d", "gfc3d"]:
    print(f"== {fam}: files Siconos {len(sf[fam])}, Saltus {len(af[fam])}")
    for name, by in [("siconos", sic), ("saltus", sal)]:
        counts = sorted(((len(v), s) for (f, s), v in by.items() if f == fam), reverse=True)
        print(f"  {name}: " + ", ".join(f"{s}={c}" for c, s in counts))
        vb = set()
        for (f, s), v in by.items():
            if f == fam:
                vb |= set(v)
        print(f"  {name}: any solver converges on {len(vb)} files")
    bs, ba = best(sic, fam), best(sal, fam)
    if bs and ba:
        common = set(sic[(fam, bs)]) & set(sal[(fam, ba)])
        ts = sum(sic[(fam, bs)][p] for p in common)
        ta = sum(sal[(fam, ba)][p] for p in common)
        print(f"  best: siconos {bs} ({len(sic[(fam, bs)])} files), saltus {ba} ({len(sal[(fam, ba)])} files)")
        print(f"  common {len(common)} files: siconos {ts:.4f} s, saltus {ta:.4f} s, ratio {ta / ts if ts else float('nan'):.3f}")
        only_s = set(sic[(fam, bs)]) - set(sal[(fam, ba)])
        if only_s:
            print(f"  solved by siconos best only: {sorted(only_s)}")
        for p in sorted(sal[(fam, ba)]):
            fastest = lambda by: min(((v[p], s) for (f, s), v in by.items() if f == fam and p in v), default=None)
            fs, fa = fastest(sic), fastest(sal)
            t = sal[(fam, ba)][p]
            if fs and t > fs[0]:
                print(f"  slower than siconos's fastest: {p}: {ba} {t:.6f} s, siconos {fs[1]} {fs[0]:.6f} s, "
                      f"saltus fastest {fa[1]} {fa[0]:.6f} s")
