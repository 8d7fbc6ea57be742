#!/usr/bin/env python3
"""ODEPACK LSODA (scipy.integrate.odeint, the Fortran code) on the problems of
integrator-test-problems.md, printing the same CSV as `cargo run --example ivp_testset`:

    problem,method,rtol,atol,steps,rejected,nfev,njev,switches,digits,seconds

nfev is LSODA's NFE, which includes the RHS calls of finite-difference Jacobians; problems with
an analytic Jacobian pass it as Dfun (as the Rust example does by default), the others use
LSODA's internal dense finite differences. LSODA does not report rejected steps (column -1).
switches is counted from `mused` at 20001 interpolated output times (a second run; output times
do not change LSODA's steps), so switches closer together than the output spacing are missed.
seconds is the best of --repeat runs with only [0, tf] requested (Python RHS callbacks included).

usage: python3 lsoda_testset.py [--rtol R] [--problem NAME] [--fd] [--repeat K]
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
from scipy.integrate import odeint

SPEC = os.environ.get("SALTUS_SPECS", os.path.join(os.path.dirname(__file__), "../../../../shared/specs"))


def load_refs():
    for cand in [os.path.join(SPEC, "integrator-reference-values.json")]:
        if os.path.exists(cand):
            d = json.load(open(cand))["problems"]
            return {k: np.array([float(x) for x in v["y"]]) for k, v in d.items()}
    sys.exit("integrator-reference-values.json not found (set SALTUS_SPECS)")


def vdp(mu):
    def f(y, t):
        return [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]]

    def j(y, t):
        return [[0.0, 1.0], [-2 * mu * y[0] * y[1] - 1, mu * (1 - y[0] ** 2)]]

    return f, j


def robertson():
    def f(y, t):
        a = -0.04 * y[0] + 1e4 * y[1] * y[2]
        c = 3e7 * y[1] ** 2
        return [a, -a - c, c]

    def j(y, t):
        return [[-0.04, 1e4 * y[2], 1e4 * y[1]],
                [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                [0.0, 6e7 * y[1], 0.0]]

    return f, j


def hires():
    def f(y, t):
        d7 = 280 * y[5] * y[7] - 1.81 * y[6]
        return [-1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
                1.71 * y[0] - 8.75 * y[1],
                -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
                8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
                -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6],
                -280 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
                d7, -d7]

    def j(y, t):
        J = np.zeros((8, 8))
        J[0, 0:3] = [-1.71, 0.43, 8.32]
        J[1, 0:2] = [1.71, -8.75]
        J[2, 2:5] = [-10.03, 0.43, 0.035]
        J[3, 1:4] = [8.32, 1.71, -1.12]
        J[4, 4:7] = [-1.745, 0.43, 0.43]
        J[5, 3:8] = [0.69, 1.71, -280 * y[7] - 0.43, 0.69, -280 * y[5]]
        J[6, 5:8] = [280 * y[7], -1.81, 280 * y[5]]
        J[7, 5:8] = [-280 * y[7], 1.81, -280 * y[5]]
        return J

    return f, j


def pleiades():
    m = np.arange(1, 8, dtype=float)

    def f(y, t):
        x, yy = y[0:7], y[7:14]
        dx = x[None, :] - x[:, None]
        dy = yy[None, :] - yy[:, None]
        r2 = dx * dx + dy * dy
        np.fill_diagonal(r2, 1.0)
        r3 = r2 * np.sqrt(r2)
        w = m[None, :] / r3
        np.fill_diagonal(w, 0.0)
        return np.concatenate([y[14:28], (w * dx).sum(1), (w * dy).sum(1)])

    return f, None


def arenstorf():
    mu = 0.012277471
    mup = 1 - mu

    def f(y, t):
        d1 = ((y[0] + mu) ** 2 + y[1] ** 2) ** 1.5
        d2 = ((y[0] - mup) ** 2 + y[1] ** 2) ** 1.5
        return [y[2], y[3],
                y[0] + 2 * y[3] - mup * (y[0] + mu) / d1 - mu * (y[0] - mup) / d2,
                y[1] - 2 * y[2] - mup * y[1] / d1 - mu * y[1] / d2]

    return f, None


def brusselator():
    def f(y, t):
        u, v = y
        return [1 + u * u * v - 4 * u, 3 * u - u * u * v]

    def j(y, t):
        u, v = y
        return [[2 * u * v - 4, u * u], [3 - 2 * u * v, -u * u]]

    return f, j


def bruss1d(N=100):
    c = (N + 1) ** 2 / 50.0

    def f(y, t):
        u, v = y[0::2], y[1::2]
        up = np.concatenate([[1.0], u, [1.0]])
        vp = np.concatenate([[3.0], v, [3.0]])
        out = np.empty_like(y)
        uuv = u * u * v
        out[0::2] = 1 + uuv - 4 * u + c * (up[:-2] - 2 * u + up[2:])
        out[1::2] = 3 * u - uuv + c * (vp[:-2] - 2 * v + vp[2:])
        return out

    return f, None


def orego():
    s, w, q = 77.27, 0.161, 8.375e-6

    def f(y, t):
        return [s * (y[1] - y[0] * y[1] + y[0] - q * y[0] ** 2),
                (-y[1] - y[0] * y[1] + y[2]) / s,
                w * (y[0] - y[2])]

    def j(y, t):
        return [[s * (-y[1] + 1 - 2 * q * y[0]), s * (1 - y[0]), 0.0],
                [-y[1] / s, (-1 - y[0]) / s, 1 / s],
                [w, 0.0, -w]]

    return f, j


def pendulum():
    g = 9.81

    def f(y, t):
        x, yy, vx, vy = y
        lam = (vx * vx + vy * vy - g * yy) / (x * x + yy * yy)
        return [vx, vy, -lam * x, -lam * yy - g]

    return f, None


def problems():
    N = 100
    xs = np.arange(1, N + 1) / (N + 1)
    b0 = np.empty(2 * N)
    b0[0::2] = 1 + np.sin(2 * np.pi * xs)
    b0[1::2] = 3.0
    return [
        ("vdp1", vdp(1.0), [2.0, 0.0], 20.0, 1.0),
        ("vdp1000", vdp(1000.0), [2.0, 0.0], 3000.0, 1.0),
        ("robertson", robertson(), [1.0, 0.0, 0.0], 1e11, 1e-10),
        ("hires", hires(), [1, 0, 0, 0, 0, 0, 0, 0.0057], 321.8122, 1e-4),
        ("pleiades", pleiades(), [3, 3, -1, -3, 2, -2, 2, 3, -3, 2, 0, 0, -4, 4,
                                  0, 0, 0, 0, 0, 1.75, -1.5, 0, 0, 0, -1.25, 1, 0, 0], 3.0, 1.0),
        ("arenstorf", arenstorf(), [0.994, 0.0, 0.0, -2.00158510637908252240537862224],
         17.0652165601579625588917206249, 1.0),
        ("brusselator", brusselator(), [1.5, 3.0], 20.0, 1.0),
        ("bruss1d", bruss1d(N), b0, 10.0, 1.0),
        ("orego", orego(), [1.0, 2.0, 3.0], 360.0, 1e-6),
        ("pendulum", pendulum(), [1.0, 0.0, 0.0, 0.0], 100.0, 1.0),
    ]


def digits(y, ref, floor):
    e = np.max(np.abs(y - ref) / np.maximum(np.abs(ref), floor))
    return -math.log10(max(e, 1e-300)) if np.isfinite(e) else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtol", type=float)
    ap.add_argument("--problem")
    ap.add_argument("--fd", action="store_true", help="finite-difference Jacobians everywhere")
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    refs = load_refs()
    rtols = [a.rtol] if a.rtol else [1e-4, 1e-6, 1e-8]
    print("problem,method,rtol,atol,steps,rejected,nfev,njev,switches,digits,seconds")
    for rtol in rtols:
        for name, (f, jac), y0, tf, ratio in problems():
            if a.problem and a.problem != name:
                continue
            if a.fd:
                jac = None
            atol = ratio * rtol
            y0 = np.array(y0, dtype=float)
            best = float("inf")
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                ys, info = odeint(f, y0, [0.0, tf], Dfun=jac, rtol=rtol, atol=atol, full_output=True,
                                  mxstep=10**7)
                best = min(best, time.perf_counter() - t0)
            ok = info["message"].startswith("Integration successful")
            dg = digits(ys[-1], refs[name], ratio) if ok else float("nan")
            _, info2 = odeint(f, y0, np.linspace(0.0, tf, 20001), Dfun=jac, rtol=rtol, atol=atol,
                              full_output=True, mxstep=10**7)
            mused = np.asarray(info2["mused"])
            sw = int(np.count_nonzero(np.diff(mused))) + (1 if mused[0] == 2 else 0)
            print(f"{name},lsoda-fortran,{rtol:e},{atol:e},{int(info['nst'][-1])},-1,{int(info['nfe'][-1])},"
                  f"{int(info['nje'][-1])},{sw},{dg:.2f},{best:.6f}", flush=True)


if __name__ == "__main__":
    main()
