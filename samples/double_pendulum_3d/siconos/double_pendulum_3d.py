"""The double_pendulum_3d sample in Siconos 4.4 (Debian python3-siconos), written for the
comparison in frontend/tests/sample_joints.rs.

Two NewtonEulerDS rods, a PivotJointR (rod 1 - world: point 0 0 0, axis y) and a KneeJointR
(rod 2 - rod 1 at 0.8 0 -0.6), both given in the world frame at the initial poses
(absoluteRef = True), EqualityConditionNSL interactions; MoreauJeanDirectProjectionOSI with
theta = 1/2, TimeSteppingDirectProjection (positions projected back onto the joints after
every step), GenericMechanical one-step problem. Same bodies, initial state, h and T as
../double_pendulum_3d.xml.

Run:  /usr/bin/python3 double_pendulum_3d.py H T OUT.csv
      (a row every 0.01 s; the committed files: H = 5e-4 and 2.5e-4, T = 1)
Columns: t, then per rod x y z qw qx qy qz vx vy vz wx wy wz (w in the body frame), then the
energy 1/2 m|v|^2 + 1/2 w.I w + m g z.

Siconos's projection stalls near 1e-10 on these joints (its "max criteria equality" stays at
1e-11..2e-10 after 20 iterations), so its tolerance is 1e-9 here; the trajectory differences
studied in the test are 1e3 times larger.
"""
import sys

import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn
from siconos.mechanics import joints

H = float(sys.argv[1])
T = float(sys.argv[2])
OUT = sys.argv[3]
EVERY = max(1, round(0.01 / H))
G = 9.81

# name, mass, diagonal inertia (body frame), centre, quaternion w x y z (rods along local y)
RODS = [
    ("rod1", 1.0, [0.08343333333333333, 0.0002, 0.08343333333333333], [0.4, 0.0, -0.3],
     [0.7071067811865476, -0.42426406871192845, 0.0, -0.565685424949238]),
    ("rod2", 0.5, [0.041716666666666666, 0.0001, 0.041716666666666666], [0.8, 0.3, -1.0],
     [0.8944271909999159, -0.4472135954999579, 0.0, 0.0]),
]


def make_rod(mass, inertia, centre, quat):
    q = np.array(centre + quat, dtype=float)
    q[3:] /= np.linalg.norm(q[3:])
    ds = sk.NewtonEulerDS(q, np.zeros(6), mass, np.diag(inertia))
    ds.setFExtPtr(np.array([0.0, 0.0, -mass * G]))
    return ds


bodies = [make_rod(m, i, c, q) for (_, m, i, c, q) in RODS]
nsds = sk.NonSmoothDynamicalSystem(0.0, T)
for ds in bodies:
    nsds.insertDynamicalSystem(ds)

hinge = joints.PivotJointR(np.zeros(3), np.array([0.0, 1.0, 0.0]), True, bodies[0])
ball = joints.KneeJointR(np.array([0.8, 0.0, -0.6]), True, bodies[1], bodies[0])
for rel, pair in [(hinge, [bodies[0]]), (ball, [bodies[1], bodies[0]])]:
    inter = sk.Interaction(sk.EqualityConditionNSL(rel.numberOfConstraints()), rel)
    nsds.link(inter, *pair)

osi = sk.MoreauJeanDirectProjectionOSI(0.5)
td = sk.TimeDiscretisation(0.0, H)
osnspb = sk.GenericMechanical()
proj = sk.MLCPProjectOnConstraints(sn.SICONOS_MLCP_ENUM, 1.0)
sim = sk.TimeSteppingDirectProjection(nsds, td, osi, osnspb, proj)
sim.setProjectionMaxIteration(20)
sim.setConstraintTolUnilateral(1e-9)
sim.setConstraintTol(1e-9)


def row(t):
    r = [t]
    e = 0.0
    for (_, m, inertia, _, _), ds in zip(RODS, bodies):
        q = np.array(ds.q())
        tw = np.array(ds.twist())
        r += list(q) + list(tw)
        e += 0.5 * m * tw[:3] @ tw[:3] + 0.5 * np.dot(inertia, tw[3:] ** 2) + m * G * q[2]
    return r + [e]


cols = ["t"]
for name, *_ in RODS:
    cols += [f"{name}.{c}" for c in ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"]]
cols.append("energy")
rows = [row(0.0)]
k = 0
while sim.hasNextEvent():
    sim.computeOneStep()
    k += 1
    if k % EVERY == 0:
        rows.append(row(k * H))
    sim.nextStep()
with open(OUT, "w") as f:
    f.write(",".join(cols) + "\n")
    for r in rows:
        f.write(",".join(repr(float(x)) for x in r) + "\n")
e = np.array([r[-1] for r in rows])
print(f"{k} steps, h = {H}; energy {e[0]:.12g} -> {e[-1]:.12g}, max |E - E0| = {np.abs(e - e[0]).max():.3e}")
