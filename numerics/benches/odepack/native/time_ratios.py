#!/usr/bin/env python3
"""Wall-time ratio ours / native LSODA per (problem, rtol), for one or more LSODA CSVs.

usage: python3 time_ratios.py ours.csv lsoda_a.csv [lsoda_b.csv ...]

Prints a markdown table (our seconds, each LSODA's seconds, ratio ours/LSODA) and, per rtol
and LSODA CSV, how many problems are within 1.5x (ratio <= 1.5).
"""
import csv
import sys
from collections import defaultdict


def load(path):
    return {(r["problem"], float(r["rtol"])): r for r in csv.DictReader(open(path))}


def main():
    ours = load(sys.argv[1])
    others = [(load(p), next(iter(load(p).values()))["method"]) for p in sys.argv[2:]]
    head = "| problem | rtol | ours s |" + "".join(f" {m} s | ours/{m} |" for _, m in others)
    print(head)
    print("|---" * (3 + 2 * len(others)) + "|")
    within = defaultdict(int)
    total = defaultdict(int)
    for key in others[0][0]:
        if key not in ours:
            continue
        os_ = float(ours[key]["seconds"])
        cells = []
        for i, (rows, _) in enumerate(others):
            ls = float(rows[key]["seconds"])
            ratio = os_ / ls
            within[(i, key[1])] += ratio <= 1.5
            total[(i, key[1])] += 1
            cells.append(f" {ls:.6f} | {ratio:.2f} |")
        print(f"| {key[0]} | {key[1]:.0e} | {os_:.6f} |" + "".join(cells))
    print()
    for (i, rtol), n in sorted(within.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        print(f"vs {others[i][1]}, rtol {rtol:.0e}: within 1.5x on {n}/{total[(i, rtol)]} problems")


if __name__ == "__main__":
    main()
