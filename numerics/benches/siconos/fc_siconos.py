#!/usr/bin/python3
"""Siconos 4.4 friction-contact solvers over the collection, as CSV.

Usage: /usr/bin/python3 fc_siconos.py [--tol 1e-8] [--cap SECONDS] [--max-iter N] DIR_OR_FILE...

Prints `problem,type,n,solver,tolerance,status,iterations,error,seconds` on stdout, one line per
(file, solver). `type` is fc2d / fc3d / gfc3d. Each (file, solver) runs in its own subprocess with a
wall-clock cap (a Siconos solve cannot be interrupted from Python); a run over the cap is reported as
`timeout`. `seconds` is the median of 3 solves (1 solve when the first exceeds 2 s). `error` is
recomputed on the returned solution with the canonical measure (siconos-error-measures.md §2.1 / §2.4,
scale max(‖q‖, ‖r‖, ‖u‖)); for the global problems it is the
canonical error of the equivalent local problem W = Hᵀ M⁻¹ H, q_loc = Hᵀ M⁻¹ q + b at the returned r
(v recomputed as M⁻¹(H r + q), so it does not depend on the solver's own v). `status` is converged iff the solver
returned info = 0 and the recomputed error is <= tolerance.
"""
import json
import math
import os
import subprocess
import sys
import time

# Sequential BLAS/LAPACK, like our solvers: on a loaded machine OpenBLAS's spinning worker
# threads made Siconos up to 250x slower (NESpheres_30_1 PROX 0.52 s threaded, 0.002 s with one
# thread, 2026-11-25 at load 15). Set before numpy loads OpenBLAS; inherited by the subprocesses.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

FC3D = ["NSGS", "NSN_AC", "NSN_FB", "PROX", "VI_FPP", "VI_EG", "FPP", "EG", "ADMM"]
FC2D = ["NSGS", "LEMKE", "CPG", "ENUM"]
GFC3D = ["NSGS_WR", "NSN_AC", "NSN_AC_WR", "PROX_WR", "VI_FPP", "VI_EG", "ADMM", "ADMM_WR", "NSGS", "IPM"]


# ---------------------------------------------------------------- minimal .dat reader (COO)
class Tok:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def next(self):
        t = self.text
        n = len(t)
        while self.pos < n and t[self.pos].isspace():
            self.pos += 1
        s = self.pos
        while self.pos < n and not t[self.pos].isspace():
            self.pos += 1
        return t[s:self.pos]

    def line(self):
        e = self.text.find("\n", self.pos)
        e = len(self.text) if e < 0 else e
        s = self.text[self.pos:e]
        self.pos = e + 1
        return s


def read_matrix(tk):
    storage = int(tk.next())
    rows = int(tk.next())
    cols = int(tk.next())
    if storage == 0:
        r2, c2 = int(tk.next()), int(tk.next())
        v = np.array([float(tk.next()) for _ in range(r2 * c2)])
        a = v.reshape((c2, r2)).T
        ii, jj = np.nonzero(a)
        return (r2, c2, ii, jj, a[ii, jj])
    if storage == 1:
        nb = int(tk.next())
        nbr = int(tk.next())
        nbc = int(tk.next())
        re = [int(tk.next()) for _ in range(nbr)]
        ce = [int(tk.next()) for _ in range(nbc)]
        f1 = int(tk.next())
        f2 = int(tk.next())
        p = [int(tk.next()) for _ in range(f1)]
        j = [int(tk.next()) for _ in range(f2)]
        I, J, V = [], [], []
        for r in range(f1 - 1):
            r0 = re[r - 1] if r > 0 else 0
            h = re[r] - r0
            for k in range(p[r], p[r + 1]):
                tk.next()
                c0 = ce[j[k] - 1] if j[k] > 0 else 0
                w = ce[j[k]] - c0
                for jj in range(w):
                    for ii in range(h):
                        I.append(r0 + ii)
                        J.append(c0 + jj)
                        V.append(float(tk.next()))
        return (rows, cols, np.array(I, dtype=int), np.array(J, dtype=int), np.array(V))
    # sparse, line oriented
    tk.next()  # origin
    tk.line()
    tk.line()
    header = tk.line().split()
    I, J, V = [], [], []
    if header[0] == "triplet:":
        k = int(header[5])
        for _ in range(k):
            i = int(tk.next()); jj = int(tk.next()); tk.next(); v = float(tk.next())
            I.append(i); J.append(jj); V.append(v)
    else:
        for c in range(cols):
            tk.next(); tk.next(); tk.next(); tk.next()  # col j : locations
            p0 = int(tk.next()); tk.next(); p1 = int(tk.next())
            for _ in range(p1 - p0 + 1):
                i = int(tk.next()); tk.next(); v = float(tk.next())
                I.append(i); J.append(c); V.append(v)
    return (rows, cols, np.array(I, dtype=int), np.array(J, dtype=int), np.array(V))


def mv(m, x, trans=False):
    rows, cols, I, J, V = m
    if trans:
        return np.bincount(J, weights=V * x[I], minlength=cols)
    return np.bincount(I, weights=V * x[J], minlength=rows)


def read_local(path):
    tk = Tok(open(path).read())
    d = int(tk.next()); nc = int(tk.next())
    m = read_matrix(tk)
    q = np.array([float(tk.next()) for _ in range(m[1])])
    mu = np.array([float(tk.next()) for _ in range(nc)])
    return d, nc, m, q, mu


def read_global(path):
    tk = Tok(open(path).read())
    d = int(tk.next()); nc = int(tk.next())
    M = read_matrix(tk)
    H = read_matrix(tk)
    q = np.array([float(tk.next()) for _ in range(M[1])])
    b = np.array([float(tk.next()) for _ in range(H[1])])
    mu = np.array([float(tk.next()) for _ in range(nc)])
    return d, nc, M, H, q, b, mu


# ---------------------------------------------------------------- canonical error
def proj_cone(x, mu):
    xn, xt = x[0], x[1:]
    t = np.linalg.norm(xt)
    if mu * t <= -xn:
        return np.zeros_like(x)
    if t <= mu * xn:
        return x.copy()
    pn = (mu * t + xn) / (mu * mu + 1.0)
    return np.concatenate(([pn], mu * pn * xt / t))


def natural_map(d, mu, r, u):
    s = 0.0
    for a in range(len(mu)):
        ra = r[d * a:d * a + d]
        ua = u[d * a:d * a + d].copy()
        ua[0] += mu[a] * np.linalg.norm(ua[1:])
        e = ra - proj_cone(ra - ua, mu[a])
        s += float(e @ e)
    return math.sqrt(s)


def local_error(d, m, q, mu, r):
    u = mv(m, r) + q
    scale = max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))
    e = natural_map(d, mu, r, u)
    return e / scale if scale > 2.220446049250313e-16 else e


def global_error(d, M, H, q, b, mu, r):
    """Canonical error of the equivalent local problem: v = M⁻¹(H r + q), u = Hᵀ v + b,
    scale max(‖Hᵀ M⁻¹ q + b‖, ‖r‖, ‖u‖)."""
    Md = np.zeros((M[0], M[1]))
    np.add.at(Md, (M[2], M[3]), M[4])
    v = np.linalg.solve(Md, mv(H, r) + q)
    u = mv(H, v, trans=True) + b
    qloc = mv(H, np.linalg.solve(Md, q), trans=True) + b
    scale = max(np.linalg.norm(qloc), np.linalg.norm(r), np.linalg.norm(u))
    e = natural_map(d, mu, r, u)
    return e / scale if scale > 2.220446049250313e-16 else e


# ---------------------------------------------------------------- one run (child process)
def child(path, kind, solver, tol, max_iter):
    import siconos.numerics as sn
    if kind == "gfc3d":
        prob = sn.globalFrictionContact_new_from_filename(path)
        d, nc, M, H, q, b, mu = read_global(path)
        opts = sn.SolverOptions(getattr(sn, "SICONOS_GLOBAL_FRICTION_3D_" + solver))
        n = H[1]
    else:
        d, nc, m, q, mu = read_local(path)
        n = len(q)
        if kind == "fc2d" and open(path).read(200).split()[2] == "2":
            # Siconos's 2D driver cannot use CSC storage: rebuild the problem densely.
            if n > 5000:
                return {"status": "unsupported", "iterations": 0, "error": float("nan"), "seconds": float("nan")}
            W = np.zeros((n, n))
            np.add.at(W, (m[2], m[3]), m[4])
            prob = sn.FrictionContactProblem(2, W, q, mu)
        else:
            prob = sn.frictionContact_new_from_filename(path)
        opts = sn.SolverOptions(getattr(sn, ("SICONOS_FRICTION_2D_" if kind == "fc2d" else "SICONOS_FRICTION_3D_") + solver))
    opts.dparam[0] = tol
    opts.iparam[0] = max_iter
    times = []
    for rep in range(3):
        r = np.zeros(n)
        u = np.zeros(n)
        t0 = time.perf_counter()
        if kind == "gfc3d":
            v = np.zeros(M[0])
            info = sn.gfc3d_driver(prob, r, u, v, opts)
        elif kind == "fc2d":
            info = sn.fc2d_driver(prob, r, u, opts)
        else:
            info = sn.fc3d_driver(prob, r, u, opts)
        times.append(time.perf_counter() - t0)
        if times[0] > 2.0:
            break
    if not (np.all(np.isfinite(r)) and np.all(np.isfinite(u))):
        err = float("nan")
    elif kind == "gfc3d":
        err = global_error(d, M, H, q, b, mu, r)
    else:
        err = local_error(d, m, q, mu, r)
    ok = info == 0 and err <= tol
    return {"status": "converged" if ok else ("failed" if info == 0 else "not_converged"),
            "iterations": int(opts.iparam[1]), "error": err, "seconds": float(np.median(times))}


def kind_of(path):
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if parent == "fc2d":
        return "fc2d"
    if parent == "fc3d-global":
        return "gfc3d"
    if parent == "fc3d":
        return "fc3d"
    return None


def main():
    args = sys.argv[1:]
    if args and args[0] == "--child":
        _, path, kind, solver, tol, max_iter = args
        print(json.dumps(child(path, kind, solver, float(tol), int(max_iter))))
        return
    tol, cap, max_iter, paths = 1e-8, 60.0, 10000, []
    i = 0
    while i < len(args):
        if args[i] == "--tol":
            tol = float(args[i + 1]); i += 2
        elif args[i] == "--cap":
            cap = float(args[i + 1]); i += 2
        elif args[i] == "--max-iter":
            max_iter = int(args[i + 1]); i += 2
        else:
            paths.append(args[i]); i += 1
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, f) for f in sorted(os.listdir(p)) if f.endswith(".dat") and f != "ACinputs.dat"]
        else:
            files.append(p)
    print("problem,type,n,solver,tolerance,status,iterations,error,seconds", flush=True)
    for f in files:
        kind = kind_of(f)
        if kind is None:
            continue
        tk = Tok(open(f).read(4096))
        tk.next(); tk.next(); tk.next()
        n = int(tk.next())
        solvers = {"fc2d": FC2D, "fc3d": FC3D, "gfc3d": GFC3D}[kind]
        for s in solvers:
            if s == "ENUM" and n > 20:
                continue
            try:
                out = subprocess.run([sys.executable, __file__, "--child", f, kind, s, str(tol), str(max_iter)],
                                     capture_output=True, text=True, timeout=cap)
                lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
                res = json.loads(lines[-1]) if lines else {"status": "crashed", "iterations": 0, "error": float("nan"), "seconds": float("nan")}
            except subprocess.TimeoutExpired:
                res = {"status": "timeout", "iterations": 0, "error": float("nan"), "seconds": cap}
            print(f"{os.path.basename(f)},{kind},{n},{s},{tol:g},{res['status']},{res['iterations']},{res['error']:.3e},{res['seconds']:.6f}", flush=True)


if __name__ == "__main__":
    main()
