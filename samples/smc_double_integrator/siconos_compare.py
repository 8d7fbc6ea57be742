#!/usr/bin/python3
"""Siconos 4.4 run of the same setup as model.xml (run with /usr/bin/python3, which has
python3-siconos): double integrator x1' = x2, x2' = u, sliding surface s = x1 + x2,
sensor = full state, alpha = 2, plant step h = 1e-3, controller period hc = 1e-2, T = 3.

Writes siconos_implicit.csv (LinearSMC) and siconos_explicit.csv (ExplicitLinearSMC), and
siconos_implicit_sat.csv, siconos_explicit_sat.csv with the saturation matrix D = 0.05, with the
columns t, x[0], x[1], u[0]: x at t_k and the input held on [t_k, t_k+1), as
ControlZOHSimulation's data matrix holds them."""
import os
import numpy as np
from siconos.kernel import FirstOrderLinearTIDS
from siconos.control.simulation import ControlZOHSimulation
from siconos.control.sensor import LinearSensor
from siconos.control.controller import LinearSMC, ExplicitLinearSMC

T0, T, H, HC, ALPHA = 0.0, 3.0, 1e-3, 1e-2, 2.0
A = np.array([[0.0, 1.0], [0.0, 0.0]])
X0 = np.array([1.0, 0.0])
B = np.array([[0.0], [1.0]])
CS = np.array([[1.0, 1.0]])


def run(controller_class, saturation=None):
    ds = FirstOrderLinearTIDS(X0, A)
    sim = ControlZOHSimulation(T0, T, H)
    sim.setSaveOnlyMainSimulation(True)
    sim.silent(True)
    sim.addDynamicalSystem(ds)
    sensor = LinearSensor(ds, np.eye(2), np.zeros((2, 2)))
    sim.addSensor(sensor, HC)
    act = controller_class(sensor)
    act.setCsurface(CS)
    act.setB(B)
    act.setAlpha(ALPHA)
    if saturation is not None:
        act.setSaturationMatrix(np.array([[saturation]]))
    sim.addActuator(act, HC)
    sim.initialize()
    sim.run()
    return np.array(sim.data())


here = os.path.dirname(os.path.abspath(__file__))
# the last two: with the saturation matrix D = 0.05 (boundary layer |sigma| <= D)
for name, cls, sat in (("implicit", LinearSMC, None), ("explicit", ExplicitLinearSMC, None),
                       ("implicit_sat", LinearSMC, 0.05), ("explicit_sat", ExplicitLinearSMC, 0.05)):
    d = run(cls, sat)
    np.savetxt(os.path.join(here, f"siconos_{name}.csv"), d, delimiter=",", header="t,x[0],x[1],u[0]",
               comments="", fmt="%.17g")
    print(name, d.shape, "final", d[-1])
