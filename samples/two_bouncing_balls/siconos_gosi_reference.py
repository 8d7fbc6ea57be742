"""Reference trajectory of two_bouncing_balls_gosi.xml computed by Siconos 4.4.

The scene of the Siconos tutorial TwoBouncingBallTS-MoreauJeanGOSI, rebuilt with Debian's
python3-siconos (4.4.0): two LagrangianLinearTIDS balls with 3 coordinates each (height,
tangential position, rotation angle), LagrangianLinearTIR contacts with
NewtonImpactFrictionNSL(en = et = 0.95, mu = 0.6, 3D), MoreauJeanGOSI(theta = 0.5) and a
GlobalFrictionContact(3) problem solved by GFC3D_NSGS_WR with tolerance 1e-13.

Run with the system interpreter that has Siconos:

    /usr/bin/python3 siconos_gosi_reference.py

It writes two_bouncing_balls_gosi_siconos.csv: t, then q and v of ball1 and ball2 after each
step (the initial state first), in the column names of `saltus run`.
"""

import csv

import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn

T0, T_END, H, THETA = 0.0, 3.0, 1e-3, 0.5
RADIUS, GRAVITY = 0.1, 9.81
E_N = E_T = 0.95
MU = 0.6


def ball(mass, height):
    """A ball at rest at `height`, coordinates (x, y, angle), weight along -x."""
    inertia = np.diag([mass, mass, 0.4 * mass * RADIUS**2])
    ds = sk.LagrangianLinearTIDS([height, 0.0, 0.0], [0.0, 0.0, 0.0], inertia)
    ds.setFExtPtr([-mass * GRAVITY, 0.0, 0.0])
    return ds


def main():
    ball1 = ball(1.0, 0.1)
    ball2 = ball(2.0, 0.1 + 2 * RADIUS + 0.001)
    law = sk.NewtonImpactFrictionNSL(E_N, E_T, MU, 3)
    floor = sk.Interaction(law, sk.LagrangianLinearTIR(np.eye(3)))
    between = sk.Interaction(
        law, sk.LagrangianLinearTIR(np.hstack([-np.eye(3), np.eye(3)]), [-2 * RADIUS, 0.0, 0.0])
    )
    nsds = sk.NonSmoothDynamicalSystem(T0, T_END)
    nsds.insertDynamicalSystem(ball1)
    nsds.insertDynamicalSystem(ball2)
    nsds.link(floor, ball1)
    nsds.link(between, ball1, ball2)

    osnspb = sk.GlobalFrictionContact(3, sn.SICONOS_GLOBAL_FRICTION_3D_NSGS_WR)
    osnspb.numericsSolverOptions().dparam[sn.SICONOS_DPARAM_TOL] = 1e-13
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(T0, H), sk.MoreauJeanGOSI(THETA), osnspb)

    names = ["t"]
    for b in ("ball1", "ball2"):
        names += [f"{b}.q[{i}]" for i in range(3)] + [f"{b}.v[{i}]" for i in range(3)]

    def state(t):
        return [t] + [x for d in (ball1, ball2) for x in list(d.q()) + list(d.velocity())]

    rows = [state(T0)]
    while sim.hasNextEvent():
        sim.computeOneStep()
        rows.append(state(sim.nextTime()))
        sim.nextStep()

    with open("two_bouncing_balls_gosi_siconos.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for r in rows:
            w.writerow([repr(float(x)) if x != 0 else "0" for x in r])
    print(f"{len(rows)} rows written to two_bouncing_balls_gosi_siconos.csv")


if __name__ == "__main__":
    main()
