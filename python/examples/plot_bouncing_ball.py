#!/usr/bin/env python3
"""Plots the bouncing ball's height, velocity and impulses with matplotlib (no notebook, no
display: the Agg backend writes a PNG). Usage: python plot_bouncing_ball.py [OUT.png]"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import saltus as sk  # noqa: E402

ball = sk.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], np.diag([1.0, 1.0, 0.004]), name="ball")
ball.setFExtPtr([-9.81, 0.0, 0.0])
nsds = sk.NonSmoothDynamicalSystem(0.0, 10.0)
nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1.0, 0.0, 0.0]]), name="floor"), ball)
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 0.005), sk.MoreauJeanOSI(0.5), sk.LCP())
out = sim.run(record=["t", "ball.q[0]", "ball.v[0]", "floor.lambda[0]"])

fig, ax = plt.subplots(3, 1, sharex=True, figsize=(8, 7))
ax[0].plot(out["t"], out["ball.q[0]"])
ax[0].set_ylabel("height q [m]")
ax[1].plot(out["t"], out["ball.v[0]"], color="C1")
ax[1].set_ylabel("velocity v [m/s]")
ax[2].plot(out["t"], out["floor.lambda[0]"], color="C2")
ax[2].set_ylabel("impulse λ [N s]")
ax[2].set_xlabel("t [s]")
fig.suptitle("Bouncing ball (saltus, Moreau–Jean, h = 0.005)")
fig.tight_layout()
png = sys.argv[1] if len(sys.argv) > 1 else "bouncing_ball.png"
fig.savefig(png, dpi=100)
print(f"wrote {png}")
