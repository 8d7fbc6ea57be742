#!/usr/bin/python3
"""Side-by-side benchmark: every Siconos 4.4 MLCP solver on every MLCP problem file.

Usage: /usr/bin/python3 mlcp_siconos.py DIR_OR_FILE... [--tol 1e-8] [--timeout 60]

Prints CSV `problem,type,n,solver,tolerance,status,iterations,error,seconds`:
* `n` is the total size n+m of the MLCP;
* `seconds` is the median wall time of 3 solves from z = 0 (init + solve + reset of the driver);
* `error` is recomputed with Siconos's own `mlcp_compute_error` on the returned z;
* `status` is `converged` iff the driver returned info = 0, the solution is finite and the error
  is <= tol; `failed` otherwise; `crashed`/`timeout` when the child process died or ran too long.

Each (file, solver) pair runs in a child process, because some Siconos solvers abort or loop on
problems they do not support.

Comparison mode: `mlcp_siconos.py --compare OURS.csv SICONOS.csv` reads the CSV of
`cargo run --release -p saltus-numerics --example mlcp_collection -- DIR` and of this script and
prints, per file, the fastest converged solver on each side and the time ratio, then checks the
two targets: every file some Siconos solver solves is solved by one of ours, and our fastest
time is at most half of Siconos's fastest on every such file.
"""
import math
import os
import subprocess
import sys

SOLVERS = ["ENUM", "DIRECT_ENUM", "PGS", "PGS_SBM", "RPGS", "PSOR", "RPSOR", "PATH", "PATH_ENUM",
           "DIRECT_PATH", "DIRECT_PATH_ENUM", "FB", "DIRECT_FB", "SIMPLEX", "DIRECT_SIMPLEX",
           "LCP_LEMKE"]


def child(path, solver, tol):
    import time
    import numpy as np
    import siconos.numerics as sn
    p = sn.MLCP()
    sn.mixedLinearComplementarity_newFromFilename(p, path)
    size = p.n + p.m
    times, info, z, it = [], 1, np.zeros(size), 0
    for _ in range(3):
        so = sn.SolverOptions(getattr(sn, "SICONOS_MLCP_" + solver))
        so.dparam[sn.SICONOS_DPARAM_TOL] = tol
        z = np.zeros(size)
        w = np.zeros(size)
        t0 = time.perf_counter()
        sn.mlcp_driver_init(p, so)
        info = sn.mlcp_driver(p, z, w, so)
        sn.mlcp_driver_reset(p, so)
        times.append(time.perf_counter() - t0)
        it = so.iparam[sn.SICONOS_IPARAM_ITER_DONE]
    finite = bool(np.all(np.isfinite(z)))
    err = sn.mlcp_compute_error(p, z, w, tol) if finite else float("nan")
    status = "converged" if (info == 0 and finite and err <= tol) else "failed"
    times.sort()
    print(f"{size},{status},{it},{err:.6e},{times[1]:.9f}")


def compare(ours_path, sic_path):
    import csv

    def best(path):
        out = {}
        with open(path) as fh:
            for row in csv.DictReader(fh):
                if row["status"] != "converged":
                    continue
                t = float(row["seconds"])
                cur = out.get(row["problem"])
                if cur is None or t < cur[1]:
                    out[row["problem"]] = (row["solver"], t)
        return out

    ours, sic = best(ours_path), best(sic_path)
    ok_solve, ok_time = True, True
    print("problem,siconos_solver,siconos_seconds,our_solver,our_seconds,ratio")
    for prob in sorted(set(ours) | set(sic)):
        s = sic.get(prob)
        o = ours.get(prob)
        ratio = (o[1] / s[1]) if (o and s and s[1] > 0) else float("nan")
        print(f"{prob},{s[0] if s else '-'},{s[1] if s else float('nan'):.9f},"
              f"{o[0] if o else '-'},{o[1] if o else float('nan'):.9f},{ratio:.3f}")
        if s and not o:
            ok_solve = False
        if s and o and not ratio <= 0.5:
            ok_time = False
    print(f"# every file Siconos solves is solved by ours: {ok_solve}")
    print(f"# our fastest <= half of Siconos's fastest on every such file: {ok_time}")


def main():
    args = sys.argv[1:]
    if args and args[0] == "--compare":
        compare(args[1], args[2])
        return
    if args and args[0] == "--child":
        child(args[1], args[2], float(args[3]))
        return
    tol, timeout, paths = 1e-8, 60.0, []
    i = 0
    while i < len(args):
        if args[i] == "--tol":
            tol = float(args[i + 1]); i += 2
        elif args[i] == "--timeout":
            timeout = float(args[i + 1]); i += 2
        else:
            paths.append(args[i]); i += 1
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".dat"))
        else:
            files.append(p)
    print("problem,type,n,solver,tolerance,status,iterations,error,seconds", flush=True)
    for f in files:
        name = os.path.basename(f)
        for s in SOLVERS:
            try:
                r = subprocess.run([sys.executable, __file__, "--child", f, s, str(tol)],
                                   capture_output=True, text=True, timeout=timeout)
                line = r.stdout.strip().splitlines()[-1] if r.returncode == 0 and r.stdout.strip() else None
                if line is None:
                    print(f"{name},mlcp,,{s},{tol:g},crashed,,,", flush=True)
                else:
                    print(f"{name},mlcp,{line.split(',')[0]},{s},{tol:g},{','.join(line.split(',')[1:])}", flush=True)
            except subprocess.TimeoutExpired:
                print(f"{name},mlcp,,{s},{tol:g},timeout,,,{timeout}", flush=True)


if __name__ == "__main__":
    main()
