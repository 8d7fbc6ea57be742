#!/usr/bin/env python3
"""Diode bridge (LC tank feeding a resistor through 4 ideal diodes), Euler–Moreau, with saltus:
a line-by-line port of diode_bridge_siconos.py. Usage: python diode_bridge.py [OUT.csv]"""
import sys

import numpy as np

import saltus as sk  # Siconos: import siconos.kernel as sk

t0, T, h = 0.0, 5.0e-3, 1.0e-6
L, C, R = 1.0e-2, 1.0e-6, 1.0e3
theta = 0.5

A = [[0.0, -1.0 / C], [1.0 / L, 0.0]]
Cm = [[0.0, 0.0], [0.0, 0.0], [-1.0, 0.0], [1.0, 0.0]]
D = [[1.0 / R, 1.0 / R, -1.0, 0.0], [1.0 / R, 1.0 / R, 0.0, -1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
B = [[0.0, 0.0, -1.0 / C, 1.0 / C], [0.0, 0.0, 0.0, 0.0]]

circuit = sk.FirstOrderLinearTIDS([10.0, 0.0], A, name="circuit")  # Siconos: FirstOrderLinearDS
rel = sk.FirstOrderLinearTIR(Cm, B)
rel.setDPtr(D)
bridge = sk.Interaction(sk.ComplementarityConditionNSL(4), rel, name="bridge")

nsds = sk.NonSmoothDynamicalSystem(t0, T)
nsds.insertDynamicalSystem(circuit)
nsds.link(bridge, circuit)

sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(t0, h), sk.EulerMoreauOSI(theta), sk.LCP())

rows = [[t0, *circuit.x(), 0.0, 0.0, 0.0, 0.0]]
while sim.hasNextEvent():
    sim.computeOneStep()
    rows.append([sim.t(), *circuit.x(), *bridge.lambda_(0)])
    sim.nextStep()
data = np.array(rows)

out = sys.argv[1] if len(sys.argv) > 1 else "diode_bridge_saltus.csv"
np.savetxt(out, data, delimiter=",", header="t,vC,iL,lambda0,lambda1,lambda2,lambda3", comments="", fmt="%.17g")
print(f"{len(data) - 1} steps; capacitor voltage at T: {data[-1, 1]:.6g} V; wrote {out}")
