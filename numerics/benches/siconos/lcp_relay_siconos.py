#!/usr/bin/python3
"""Runs every Siconos 4.4 LCP / relay solver on every problem file of the given directories and
prints CSV `problem,type,n,solver,tolerance,status,iterations,error,seconds`.

* tolerance 1e-8 (dparam[0]), max iterations 10000 (iparam[0]);
* seconds = median of 3 solves from z = 0, timed around the driver call from Python (so it
  includes the binding's call overhead, about a microsecond: SWIG for LCP, ctypes for relay,
  whose problem type the Python module does not expose);
* error = the canonical residual recomputed on the returned z (siconos-error-measures.md):
  LCP ||min(z, w)|| / ||q|| (unscaled if ||q|| <= DBL_EPSILON), relay ||z - P(z - w)|| / (||q|| + 1);
* status = converged when info == 0 and z is finite (as in a Siconos benchmark table).

Each file runs in a child process so that a solver crash (segfault) is recorded as `crashed`
and the remaining solvers still run.

usage: /usr/bin/python3 lcp_relay_siconos.py DIR...   (a DIR whose name contains `relay` holds
relay problems, any other holds LCPs)
"""
import ctypes
import os
import subprocess
import sys
import time

TOL = 1e-8
MAX_ITER = 10000
DBL_EPSILON = 2.220446049250313e-16

LCP_SOLVERS = ["LEMKE", "PGS", "PSOR", "RPGS", "NEWTONMIN", "NEWTON_FB_FBLSA", "NEWTON_MIN_FBLSA",
               "ENUM", "PIVOT", "PIVOT_LUMOD", "PATHSEARCH", "QP", "NSQP", "CPG", "LATIN", "LATIN_W",
               "AVI_CAOFERRIS", "CONVEXQP_PG", "BARD", "MURTY", "PATH", "NSGS_SBM"]
RELAY_SOLVERS = ["PGS", "LEMKE", "ENUM", "AVI_CAOFERRIS", "PATH"]


def lcp_error(M, q, z):
    import numpy as np
    w = M @ z + q
    e = np.linalg.norm(z - np.maximum(0.0, z - w))
    nq = np.linalg.norm(q)
    return e / nq if nq > DBL_EPSILON else e


def relay_error(M, q, lb, ub, z):
    import numpy as np
    w = M @ z + q
    return np.linalg.norm(z - np.clip(z - w, lb, ub)) / (np.linalg.norm(q) + 1.0)


class RelayProblem(ctypes.Structure):
    _fields_ = [("size", ctypes.c_int), ("M", ctypes.c_void_p), ("q", ctypes.POINTER(ctypes.c_double)),
                ("lb", ctypes.POINTER(ctypes.c_double)), ("ub", ctypes.POINTER(ctypes.c_double))]


def dense_from_file(path):
    """M, q, lb, ub of a dense relay file (siconos-dat-formats.md §7), for the error only."""
    import numpy as np
    tok = open(path).read().split()
    n = int(tok[0])
    assert tok[1] == "0", "relay files are dense"
    rows, cols = int(tok[4]), int(tok[5])
    vals = [float(t) for t in tok[6:6 + rows * cols]]
    M = np.array(vals).reshape((cols, rows)).T
    k = 6 + rows * cols
    rest = [float(t) for t in tok[k:k + 3 * cols]]
    return n, M, np.array(rest[:cols]), np.array(rest[cols:2 * cols]), np.array(rest[2 * cols:])


def run_file(path, kind, start):
    """Child: runs solvers[start:] on one file, one CSV row each (flushed)."""
    import numpy as np
    import siconos.numerics as sn
    name = os.path.splitext(os.path.basename(path))[0]
    solvers = RELAY_SOLVERS if kind == "relay" else LCP_SOLVERS
    if kind == "lcp":
        prob = sn.newLCP()
        sn.linearComplementarity_newFromFilename(prob, path)
        n = prob.size
        # dense M as a numpy array; SBM-stored M: error through Siconos's own lcp_compute_error
        M = np.array(prob.M) if isinstance(prob.M, np.ndarray) else None
        q = np.array(prob.q)
    else:
        lib = ctypes.CDLL("libsiconos_numerics.so.7")
        lib.relay_new_from_filename.restype = ctypes.POINTER(RelayProblem)
        lib.relay_new_from_filename.argtypes = [ctypes.c_char_p]
        lib.relay_driver.restype = ctypes.c_int
        lib.relay_driver.argtypes = [ctypes.POINTER(RelayProblem), ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        prob = lib.relay_new_from_filename(path.encode())
        n, M, q, lb, ub = dense_from_file(path)
    for k in range(start, len(solvers)):
        sname = solvers[k]
        print(f"#start {k}", flush=True)
        sid = getattr(sn, ("SICONOS_RELAY_" if kind == "relay" else "SICONOS_LCP_") + sname)
        times, info, z = [], None, None
        for _ in range(3):
            opts = sn.SolverOptions(sid)
            opts.iparam[0] = MAX_ITER
            opts.dparam[0] = TOL
            z = np.zeros(n)
            w = np.zeros(n)
            if kind == "lcp":
                t = time.perf_counter()
                info = sn.linearComplementarity_driver(prob, z, w, opts)
                times.append(time.perf_counter() - t)
            else:
                # pointers taken outside the timed region: only the C call is timed
                zp, wp, op = z.ctypes.data, w.ctypes.data, int(opts.this)
                t = time.perf_counter()
                info = lib.relay_driver(prob, zp, wp, op)
                times.append(time.perf_counter() - t)
        iters = int(opts.iparam[1])
        finite = bool(np.all(np.isfinite(z)))
        if M is None:
            r = sn.lcp_compute_error(prob, z, w, TOL) if finite else float("nan")
            err = float(r[1] if isinstance(r, (tuple, list)) else r)
        elif finite:
            err = lcp_error(M, q, z) if kind == "lcp" else relay_error(M, q, lb, ub, z)
        else:
            err = float("nan")
        status = "converged" if info == 0 and finite else "failed"
        times.sort()
        print(f"{name},{kind},{n},{sname.lower()},{TOL:e},{status},{iters},{err:e},{times[1]:e}", flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        run_file(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    print("problem,type,n,solver,tolerance,status,iterations,error,seconds", flush=True)
    for d in sys.argv[1:]:
        kind = "relay" if "relay" in os.path.basename(os.path.normpath(d)) else "lcp"
        solvers = RELAY_SOLVERS if kind == "relay" else LCP_SOLVERS
        for f in sorted(os.listdir(d)):
            if not f.endswith(".dat"):
                continue
            path = os.path.join(d, f)
            name = os.path.splitext(f)[0]
            start = 0
            while start < len(solvers):
                try:
                    p = subprocess.run([sys.executable, __file__, "--child", path, kind, str(start)],
                                       capture_output=True, text=True, timeout=300)
                    out, crashed = p.stdout, p.returncode != 0
                except subprocess.TimeoutExpired as e:
                    out, crashed = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), True
                last = start
                for line in out.splitlines():
                    if line.startswith("#start "):
                        last = int(line.split()[1])
                    elif line.startswith(name + ","):
                        print(line, flush=True)
                        last += 1
                    # anything else is Siconos chatter on stdout (warnings), dropped
                if not crashed:
                    break
                print(f"{name},{kind},,{solvers[last].lower()},{TOL:e},crashed,0,nan,nan", flush=True)
                start = last + 1


if __name__ == "__main__":
    main()
