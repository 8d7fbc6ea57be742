"""Siconos 4.4 run of samples/varactor_diode: a varactor C(v) = C0 (1 + alpha v) discharging through
an ideal diode and R into a source E(t) (E0, then E1 from ts), as a FirstOrderNonLinearR subclass;
Euler-Moreau theta = 1, LCP (Lemke), h = 1e-5, T = 5e-3. Writes t, v, y, lambda as CSV."""
import sys
import numpy as np
import siconos.kernel as sk

R, C0, ALPHA, E0, E1, TS = 1e3, 1e-6, 0.5, 1.0, 2.5, 3.0005e-3
V0, H, T = 3.0, 1e-5, 5e-3


def cap(v):
    return C0 * (1.0 + ALPHA * v)


def source(t):
    return E0 if t < TS else E1


class Varactor(sk.FirstOrderNonLinearR):
    def __init__(self):
        sk.FirstOrderNonLinearR.__init__(self)
        # the Jacobians C, D, B are held by the relation (K by the interaction work vectors)
        self.setCPtr(np.array([[-1.0]]))
        self.setDPtr(np.array([[R]]))
        self.setBPtr(np.array([[-1.0 / cap(V0)]]))

    def computeh(self, time, x, l, z, y):
        y[0] = R * l[0] + source(time) - x[0]

    def computeg(self, time, x, l, z, r):
        r[0] = -l[0] / cap(x[0])

    def computeJachx(self, time, x, l, z, c):
        c[0, 0] = -1.0

    def computeJachlambda(self, time, x, l, z, d):
        d[0, 0] = R

    def computeJacgx(self, time, x, l, z, k):
        k[0, 0] = l[0] * C0 * ALPHA / cap(x[0]) ** 2

    def computeJacglambda(self, time, x, l, z, b):
        b[0, 0] = -1.0 / cap(x[0])


ds = sk.FirstOrderLinearTIDS([V0], np.zeros((1, 1)))
relation = Varactor()  # kept alive: Siconos calls back into it
inter = sk.Interaction(sk.ComplementarityConditionNSL(1), relation)
model = sk.NonSmoothDynamicalSystem(0.0, T)
model.insertDynamicalSystem(ds)
model.link(inter, ds)
osi = sk.EulerMoreauOSI(1.0)
td = sk.TimeDiscretisation(0.0, H)
lcp = sk.LCP()
sim = sk.TimeStepping(model, td, osi, lcp)
sim.setNewtonTolerance(1e-12)
sim.setNewtonMaxIteration(20)
# the DS is linear: without these Siconos judges the Newton loop converged after one iteration
sim.setComputeResiduY(True)
sim.setComputeResiduR(True)
rows = [(0.0, V0, 0.0, 0.0)]
while sim.hasNextEvent():
    sim.computeOneStep()
    rows.append((sim.nextTime(), ds.x()[0], inter.y(0)[0], inter.lambda_(0)[0]))
    sim.nextStep()
out = sys.argv[1] if len(sys.argv) > 1 else "varactor_diode_siconos.csv"
np.savetxt(out, np.array(rows), delimiter=",", header="t,v,y,lambda", comments="", fmt="%.17g")
