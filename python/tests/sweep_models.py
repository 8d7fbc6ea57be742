"""Models for the sweep test (a module, so the workers import the build function by name)."""

import numpy as np

import saltus as sk


def ball(e, h, T=3.0):
    """The bouncing ball with restitution ``e`` and step ``h``."""
    b = sk.LagrangianLinearTIDS([1.0], [0.0], [[1.0]], name="ball")
    b.setFExtPtr([-9.81])
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(e), sk.LagrangianLinearTIR([[1.0]]), name="floor"), b)
    return sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), sk.LCP())


def first_rebound_speed(out):
    """Largest upward velocity after the first impact, and the final height."""
    v = out["ball.v[0]"]
    return {"v_up": float(np.max(v)), "q_end": float(out["ball.q[0]"][-1])}
