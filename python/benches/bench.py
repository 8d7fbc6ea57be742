#!/usr/bin/env python3
"""Benchmarks of the Python package (prints CSV: case,steps_or_tasks,seconds,per_unit_us,ratio).

* the bouncing ball (h = 0.005, T = 100: 20 000 steps, or --T 10: the tutorial's 2000) driven
  from Python, per step (best of --repeats runs, model built outside the clock on both sides):
  `run()` (no Python call per step) and a `compute_one_step()` loop reading q and λ each step,
  against the Siconos 4.4 tutorial loop (`siconos_ball_loop.py` under /usr/bin/python3);
* `saltus.sweep` throughput on a LocalCluster of 1 and of 2 workers (cluster started before the
  clock, 16 tasks of 200 000 steps each).

Usage: python bench.py [--siconos-python /usr/bin/python3] [--no-sweep]
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

import saltus as sk

HERE = os.path.dirname(os.path.abspath(__file__))
T, H = 100.0, 0.005  # T is set by --T


def ball(T=T, h=H, e=0.9):
    b = sk.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], np.diag([1.0, 1.0, 0.004]), name="ball")
    b.setFExtPtr([-9.81, 0.0, 0.0])
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    inter = sk.Interaction(sk.NewtonImpactNSL(e), sk.LagrangianLinearTIR([[1.0, 0.0, 0.0]]), name="floor")
    nsds.link(inter, b)
    return sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), sk.LCP()), b, inter


def best(f, repeats=5):
    return min(f() for _ in range(repeats))


def fast_run():
    sim, _, _ = ball(T=T)
    sim.core  # build outside the clock, as the Siconos side builds before its loop
    tic = time.perf_counter()
    sim.run(record=["t", "ball.q[0]", "floor.lambda[0]"])
    return time.perf_counter() - tic


def step_loop():
    sim, b, inter = ball(T=T)
    sim.core
    n = int(round(T / H))
    out = np.empty((n + 1, 2))
    k = 0
    tic = time.perf_counter()
    while sim.has_next_event():
        sim.compute_one_step()
        k += 1
        out[k] = (b.q()[0], inter.lambda_(1)[0])
        sim.next_step()
    return time.perf_counter() - tic


def step_loop_copies():
    """The loop as main ran it before the views: a Python frame per call, and a new numpy
    array per state read (`core.state`, `core.lambda_` return copies)."""
    sim, b, inter = ball(T=T)
    core = sim.core
    n = int(round(T / H))
    out = np.empty((n + 1, 2))
    k = 0

    def has_next_event():
        return core.has_next_event()

    def compute_one_step():
        core.compute_one_step()

    def q():
        return core.state(b._index)

    def lambda_(level):
        return core.lambda_(inter._index, level)

    tic = time.perf_counter()
    while has_next_event():
        compute_one_step()
        k += 1
        out[k] = (q()[0], lambda_(1)[0])
        sim.next_step()
    return time.perf_counter() - tic


def sweep_task(e, h):
    sim, _, _ = ball(T=1000.0, h=h, e=e)
    return sim


def sweep_throughput(n_workers, tasks=16):
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None) as cl, Client(cl) as c:
        params = [{"e": 0.5 + 0.4 * i / tasks, "h": 0.005} for i in range(tasks)]
        sk.sweep(sweep_task, params[:n_workers], record=["ball.q[0]"], client=c)  # warm the workers
        tic = time.perf_counter()
        sk.sweep(sweep_task, params, record=["ball.q[0]"], client=c)
        return time.perf_counter() - tic


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siconos-python", default="/usr/bin/python3")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--T", type=float, default=100.0, help="final time of the ball (h = 0.005)")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    global T
    T = args.T
    steps = int(round(T / H))
    print("case,units,seconds,per_unit_us,ratio_vs_siconos")
    sic = None
    try:
        r = subprocess.run(
            [args.siconos_python, os.path.join(HERE, "siconos_ball_loop.py"), str(T), str(args.repeats)],
            check=True, capture_output=True, text=True,
        )
        _, n, s = r.stdout.strip().splitlines()[-1].split(",")
        sic = float(s) / int(n)
        print(f"siconos_loop,{n},{float(s):.6f},{sic * 1e6:.3f},1")
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"# Siconos side not run: {e}", file=sys.stderr)
    for name, f in (("saltus_run", fast_run), ("saltus_step_loop", step_loop), ("saltus_step_loop_copies", step_loop_copies)):
        s = best(f, args.repeats)
        per = s / steps
        ratio = "" if sic is None else f"{sic / per:.1f}"
        print(f"{name},{steps},{s:.6f},{per * 1e6:.3f},{ratio}")
    if not args.no_sweep:
        t1 = sweep_throughput(1)
        t2 = sweep_throughput(2)
        print(f"sweep_1_worker,16,{t1:.3f},{t1 / 16 * 1e6:.0f},")
        print(f"sweep_2_workers,16,{t2:.3f},{t2 / 16 * 1e6:.0f},")
        print(f"# sweep speed-up 2 vs 1 worker: {t1 / t2:.2f}x", file=sys.stderr)


if __name__ == "__main__":
    main()
