#!/usr/bin/env python3
"""Back-to-back wall-time comparison of native ODEPACK LSODA and our ivp_testset --method lsoda.

usage: python3 run_timing.py OUTDIR [--rounds R] [--repeat K] [--rtols 1e-4,1e-6,1e-8]

Needs build.sh's binaries (lsoda_f77, lsoda_f77_nosave) and
`cargo build --release -p saltus-numerics --example ivp_testset`.

1. Counters and digits: lsoda_native.py (both Fortran builds) and ivp_testset, once per rtol.
2. Timing: for each round, rtol and problem, the three programs are run one right after the
   other (order rotating), each reporting the best of K (default 5) runs of its integration.
   On this 2-core VM a process lands in a "fast" or a "slow" state (about 1.7x apart, the same
   for every program, changing over minutes, not tied to a CPU), so a single block of runs can
   be off by almost 2x; running the three programs within a few milliseconds of each other
   and repeating R rounds (default 7) removes that.
3. OUTDIR/{native,nosave,ours}.csv: the CSVs of step 1 with `seconds` replaced by the minimum
   over the rounds of the best-of-K times (best of K*R: the "fast" state, for compare.py);
   OUTDIR/paired_ratios.csv: per problem and rtol the median over rounds of the paired ratio
   ours/native and ours/nosave (the headline time ratio) and the max/min spread of each
   program's times over the rounds; OUTDIR/times.csv: every best-of-K time; OUTDIR/load.txt:
   uptime and the CPU busy share (from /proc/stat, this script included) after each round.
"""
import argparse
import csv
import io
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))
NATIVE = os.environ.get("ODEPACK_NATIVE_DIR", os.path.join(ROOT, "target/odepack-native"))
OURS = os.environ.get("OURS_BIN", os.path.join(ROOT, "target/release/examples/ivp_testset"))
PROGS = {
    "native": ["python3", os.path.join(HERE, "lsoda_native.py"), "--bin", os.path.join(NATIVE, "lsoda_f77")],
    "nosave": ["python3", os.path.join(HERE, "lsoda_native.py"), "--bin", os.path.join(NATIVE, "lsoda_f77_nosave"),
               "--method", "lsoda-f77-nosave"],
    "ours": [OURS, "--method", "lsoda"],
}
RAW = {"native": os.path.join(NATIVE, "lsoda_f77"), "nosave": os.path.join(NATIVE, "lsoda_f77_nosave")}


def cpu():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    return sum(v), v[3] + v[4]


def load_line(tag, c0=None):
    up = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    s = f"{tag}: {up}"
    if c0:
        t, i = cpu()
        s += f"   cpu busy since start: {100 * ((t - c0[0]) - (i - c0[1])) / max(t - c0[0], 1):.0f}% of 2 cores (this script included)"
    return s


def seconds(prog, problem, rtol, repeat):
    if prog == "ours":
        out = subprocess.run([OURS, "--method", "lsoda", "--problem", problem, "--rtol", rtol, "--repeat", str(repeat)],
                             capture_output=True, text=True, check=True).stdout
        return float(list(csv.DictReader(io.StringIO(out)))[0]["seconds"])
    out = subprocess.run([RAW[prog], "--problem", problem, "--rtol", rtol, "--repeat", str(repeat), "--no-switches"],
                         capture_output=True, text=True, check=True).stdout
    return float(next(line for line in out.splitlines() if line.startswith("RAW")).split()[8])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rtols", default="1e-4,1e-6,1e-8")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    os.environ["OPENBLAS_NUM_THREADS"] = "1"  # inherited by the programs
    rtols = a.rtols.split(",")

    rows = {}
    for prog, cmd in PROGS.items():
        rows[prog] = []
        for r in rtols:
            out = subprocess.run(cmd + ["--rtol", r], capture_output=True, text=True, check=True).stdout
            rows[prog] += list(csv.DictReader(io.StringIO(out)))
    problems = [r["problem"] for r in rows["ours"] if float(r["rtol"]) == float(rtols[0])]

    log = [load_line("before")]
    c0 = cpu()
    t0 = time.time()
    times = {}
    order = list(PROGS)
    for rnd in range(a.rounds):
        for r in rtols:
            for i, p in enumerate(problems):
                k = (rnd + i) % 3
                for prog in order[k:] + order[:k]:
                    times.setdefault((prog, p, float(r)), []).append(seconds(prog, p, r, a.repeat))
        log.append(load_line(f"after round {rnd + 1}", c0))
    log.append(f"{a.rounds} rounds in {time.time() - t0:.0f} s")
    open(os.path.join(a.outdir, "load.txt"), "w").write("\n".join(log) + "\n")

    with open(os.path.join(a.outdir, "times.csv"), "w") as f:
        f.write("program,problem,rtol,round,seconds\n")
        for (prog, p, r), v in times.items():
            f.writelines(f"{prog},{p},{r:g},{i + 1},{x:.6f}\n" for i, x in enumerate(v))
    for prog in PROGS:
        with open(os.path.join(a.outdir, f"{prog}.csv"), "w") as f:
            w = csv.DictWriter(f, list(rows[prog][0].keys()), lineterminator="\n")
            w.writeheader()
            for row in rows[prog]:
                row = dict(row)
                row["seconds"] = f"{min(times[(prog, row['problem'], float(row['rtol']))]):.6f}"
                w.writerow(row)
    with open(os.path.join(a.outdir, "paired_ratios.csv"), "w") as f:
        f.write("problem,rtol,ours_over_native,ours_over_nosave,native_spread,ours_spread\n")
        for r in rtols:
            for p in problems:
                o, n, s = (times[(x, p, float(r))] for x in ("ours", "native", "nosave"))
                f.write(f"{p},{r},{statistics.median(x / y for x, y in zip(o, n)):.3f},"
                        f"{statistics.median(x / y for x, y in zip(o, s)):.3f},"
                        f"{max(n) / min(n):.2f},{max(o) / min(o):.2f}\n")
    print("\n".join(log))


if __name__ == "__main__":
    sys.exit(main())
