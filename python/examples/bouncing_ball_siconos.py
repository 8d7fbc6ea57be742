#!/usr/bin/python3
"""Bouncing ball, Moreau–Jean time stepping, with Siconos 4.4 (the tutorial BouncingBallTS;
`apt-get install python3-siconos`, run with /usr/bin/python3). Usage:
/usr/bin/python3 bouncing_ball_siconos.py [OUT.csv]"""
import sys

import numpy as np

import siconos.kernel as sk

t0, T, h = 0.0, 10.0, 0.005
r, m, g, e, theta = 0.1, 1.0, 9.81, 0.9, 0.5

mass = np.eye(3) * m
mass[2, 2] = 2.0 / 5.0 * r * r
ball = sk.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], mass)
ball.setFExtPtr([-m * g, 0.0, 0.0])

relation = sk.LagrangianLinearTIR([[1.0, 0.0, 0.0]])
inter = sk.Interaction(sk.NewtonImpactNSL(e), relation)

nsds = sk.NonSmoothDynamicalSystem(t0, T)
nsds.insertDynamicalSystem(ball)
nsds.link(inter, ball)

osi = sk.MoreauJeanOSI(theta)
td = sk.TimeDiscretisation(t0, h)
lcp = sk.LCP()
sim = sk.TimeStepping(nsds, td, osi, lcp)

rows = [[t0, ball.q()[0], ball.velocity()[0], 0.0]]
while sim.hasNextEvent():
    sim.computeOneStep()
    rows.append([sim.nextTime(), ball.q()[0], ball.velocity()[0], inter.lambda_(1)[0]])
    sim.nextStep()
data = np.array(rows)

out = sys.argv[1] if len(sys.argv) > 1 else "bouncing_ball_siconos.csv"
np.savetxt(out, data, delimiter=",", header="t,q0,v0,lambda", comments="", fmt="%.17g")
print(f"{len(data) - 1} steps, {np.count_nonzero(data[:, 3])} with an impulse; wrote {out}")
