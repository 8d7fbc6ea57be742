#!/usr/bin/env python3
"""Siconos 4.4 run of samples/slider_crank/slider_crank.xml (frictionless), for comparison.

    gcc -O2 -shared -fPIC -o SliderCrankSiconos.so slider_crank_siconos.c -lm
    LD_LIBRARY_PATH=. /usr/bin/python3 slider_crank_siconos.py OUT.csv [EVERY]

Writes t, q[0..2], v[0..2], lambda of the 4 corners every EVERY steps (default 100).
"""
import sys
import time
import numpy as np
import siconos.kernel as sk

P = "SliderCrankSiconos"
t0, T, h = 0.0, 0.2, 1e-5
ds = sk.LagrangianDS([0.0, 0.0, 0.0], [150.0, -75.0, 0.0], P + ":mass")
ds.setComputeFGyrFunction(P, "fgyr")
ds.setComputeJacobianFGyrqFunction(P, "fgyr_q")
ds.setComputeJacobianFGyrqDotFunction(P, "fgyr_v")
ds.setComputeFIntFunction(P, "fint")
ds.setComputeJacobianFIntqFunction(P, "fint_q")
ds.setComputeJacobianFIntqDotFunction(P, "fint_v")
nsds = sk.NonSmoothDynamicalSystem(t0, T)
nsds.insertDynamicalSystem(ds)
inters = []
for i in range(1, 5):
    rel = sk.LagrangianScleronomousR(P + ":g%d" % i, P + ":W%d" % i)
    inter = sk.Interaction(sk.NewtonImpactNSL(0.4), rel)
    nsds.link(inter, ds)
    inters.append(inter)
osi = sk.MoreauJeanOSI(0.5)
lcp = sk.LCP()  # Lemke
lcp.numericsSolverOptions().dparam[0] = 1e-10
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(t0, h), osi, lcp)
sim.setNewtonTolerance(1e-10)
sim.setNewtonMaxIteration(50)
every = int(sys.argv[2]) if len(sys.argv) > 2 else 100
rows = []
q, v = ds.q(), ds.velocity()

def row(t):
    return [t] + list(q) + list(v) + [inter.lambda_(1)[0] for inter in inters]

rows.append(row(t0))
k = 0
tic = time.perf_counter()
while sim.hasNextEvent():
    sim.computeOneStep()
    k += 1
    if k % every == 0:
        rows.append(row(sim.nextTime()))
    sim.nextStep()
print("steps", k, "loop seconds", time.perf_counter() - tic, file=sys.stderr)
head = "t,crank.q[0],crank.q[1],crank.q[2],crank.v[0],crank.v[1],crank.v[2]," + ",".join("corner%d.lambda[0]" % i for i in range(1, 5))
np.savetxt(sys.argv[1], np.array(rows), delimiter=",", header=head, comments="", fmt="%.17g")
