#!/usr/bin/python3
"""Siconos 4.4 run of model_twisting.xml (run with /usr/bin/python3): the double integrator
x1' = x2, x2' = G u1 + G beta u2 under ExplicitTwisting (u = (sgn(-x1), sgn(-x2))), G = 2,
beta = 0.5, x(0) = (1, 0), plant step h = 1e-3, controller period hc = 1e-2, T = 8.
Writes siconos_twisting.csv: t, x[0], x[1], u[0], u[1]."""
import os
import numpy as np
from siconos.kernel import FirstOrderLinearTIDS
from siconos.control.simulation import ControlZOHSimulation
from siconos.control.sensor import LinearSensor
from siconos.control.controller import ExplicitTwisting

T0, T, H, HC, G, BETA = 0.0, 8.0, 1e-3, 1e-2, 2.0, 0.5
ds = FirstOrderLinearTIDS(np.array([1.0, 0.0]), np.array([[0.0, 1.0], [0.0, 0.0]]))
sim = ControlZOHSimulation(T0, T, H)
sim.setSaveOnlyMainSimulation(True)
sim.silent(True)
sim.addDynamicalSystem(ds)
sensor = LinearSensor(ds, np.eye(2), np.zeros((2, 2)))
sim.addSensor(sensor, HC)
act = ExplicitTwisting(sensor, G, BETA)
# CommonSMC::initialize needs a sliding surface (unused by the explicit twisting law)
act.setCsurface(np.array([[1.0, 0.0], [0.0, 1.0]]))
sim.addActuator(act, HC)
sim.initialize()
sim.run()
d = np.array(sim.data())
print(sim.dataLegend(), d.shape, d[-1])
here = os.path.dirname(os.path.abspath(__file__))
np.savetxt(os.path.join(here, "siconos_twisting.csv"), d, delimiter=",", header="t,x[0],x[1],u[0],u[1]",
           comments="", fmt="%.17g")
