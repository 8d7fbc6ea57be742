#!/usr/bin/python3
"""Siconos 4.4 run of the same setup as model.xml (run with /usr/bin/python3, which has
python3-siconos): DC motor x = (omega, i),
    J omega' = -b omega + K i,   L i' = -K omega - R i + V,
speed sensor y = omega, discrete PID on V (reference 1 rad/s), Luenberger observer estimating
the unmeasured current i; plant step h = 1e-3, controller and observer period hc = 1e-2, T = 2.

Writes siconos.csv: t, x[0], x[1], u[0], xhat[0], xhat[1] (x at t_k, the input held on
[t_k, t_k+1), the estimate at t_k), as ControlZOHSimulation's data matrix holds them."""
import os
import numpy as np
from siconos.kernel import FirstOrderLinearTIDS
from siconos.control.simulation import ControlZOHSimulation
from siconos.control.sensor import LinearSensor
from siconos.control.controller import PID
from siconos.control.observer import LuenbergerObserver

J, BF, K, R, L = 0.01, 0.1, 0.01, 1.0, 0.5
A = np.array([[-BF / J, K / J], [-K / L, -R / L]])
B = np.array([[0.0], [1.0 / L]])
C = np.array([[1.0, 0.0]])
LOBS = np.array([[-38.0], [-503.98]])  # A + L C has eigenvalues -20 and -30
X0 = np.array([0.0, 0.0])
XHAT0 = np.array([0.5, -1.0])
T0, T, H, HC = 0.0, 2.0, 1e-3, 1e-2
KPID = [100.0, 200.0, 1.0]

ds = FirstOrderLinearTIDS(X0, A)
sim = ControlZOHSimulation(T0, T, H)
sim.setSaveOnlyMainSimulation(False)
sim.silent(True)
sim.addDynamicalSystem(ds)
sensor = LinearSensor(ds, C, np.zeros((1, 2)))
sim.addSensor(sensor, HC)
pid = PID(sensor, B)
pid.setK(np.array(KPID))
pid.setRef(1.0)
sim.addActuator(pid, HC)
obs = LuenbergerObserver(sensor, XHAT0, C, LOBS)
sim.addObserver(obs, HC)
sim.initialize()
# PID::initialize sets Delta t to the plant step h; the controller period is meant here
pid.setDeltaT(HC)
sim.run()
d = np.array(sim.data())
print(sim.dataLegend())
here = os.path.dirname(os.path.abspath(__file__))
# with setSaveOnlyMainSimulation(False) the columns are t, x, u, then the observer's x_hat, u, e
d = d[:, [0, 1, 2, 3, 4, 5]]
np.savetxt(os.path.join(here, "siconos.csv"), d, delimiter=",",
           header="t,x[0],x[1],u[0],xhat[0],xhat[1]", comments="", fmt="%.17g")
print(d.shape, "final", d[-1])
