#!/usr/bin/python3
"""Siconos 4.4 side of the benchmark (run with /usr/bin/python3): the tutorial bouncing ball's
Python loop, per step. Prints `siconos_loop,<steps>,<best seconds>`."""
import sys
import time

import numpy as np
import siconos.kernel as sk

T = float(sys.argv[1]) if len(sys.argv) > 1 else 100.0
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def once():
    mass = np.diag([1.0, 1.0, 0.004])
    ball = sk.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], mass)
    ball.setFExtPtr([-9.81, 0.0, 0.0])
    inter = sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1.0, 0.0, 0.0]]))
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 0.005), sk.MoreauJeanOSI(0.5), sk.LCP())
    n = int(round(T / 0.005))
    out = np.empty((n + 1, 2))
    k = 0
    tic = time.perf_counter()
    while sim.hasNextEvent():
        sim.computeOneStep()
        k += 1
        out[k] = (ball.q()[0], inter.lambda_(1)[0])
        sim.nextStep()
    return time.perf_counter() - tic, k


best, steps = min(once() for _ in range(repeats))
print(f"siconos_loop,{steps},{best:.6f}")
