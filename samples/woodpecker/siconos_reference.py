#!/usr/bin/env python3
"""Reference for the woodpecker sample from Siconos 4.4 (python3-siconos): the same model as
woodpecker.xml (LagrangianLinearTIDS, three LagrangianLinearTIR + NewtonImpactFrictionNSL,
MoreauJeanOSI theta = 0.5, FrictionContact(2) with the default NSGS solver, tol 1e-12),
h = 2e-5, T = 0.5. Writes every EVERY-th step (t, q, v) to siconos_reference.csv beside this file.

Usage: /usr/bin/python3 samples/woodpecker/siconos_reference.py
"""
import os
import numpy as np
import siconos.kernel as sk

EVERY = 100
m_M, J_M, m_S, J_S = 3e-4, 5e-9, 4.5e-3, 7e-7            # sleeve, bird
l_M, l_G, l_S, h_S = 0.01, 0.015, 0.0201, 0.02
h_M, r_M, r_O, c_phi, g = 0.0058, 0.0031, 0.0025, 0.0056, 9.81
mu, e_beak, e_sleeve = 0.3, 0.5, 0.0
t0, T, h = 0.0, 0.5, 2e-5
q0, v0 = [0.0, -0.1034, -0.2216], [0.0, 0.0, 20.0]

mass = np.array([[m_S + m_M, m_S * l_M, m_S * l_G],
                 [m_S * l_M, J_M + m_S * l_M ** 2, m_S * l_M * l_G],
                 [m_S * l_G, m_S * l_M * l_G, J_S + m_S * l_G ** 2]])
stiffness = c_phi * np.array([[0.0, 0.0, 0.0], [0.0, 1.0, -1.0], [0.0, -1.0, 1.0]])
toy = sk.LagrangianLinearTIDS(q0, v0, mass, stiffness, np.zeros((3, 3)))
toy.setFExtPtr(-g * mass[:, 0])          # the weights: -g (m_S + m_M, m_S l_M, m_S l_G)

nsds = sk.NonSmoothDynamicalSystem(t0, T)
nsds.insertDynamicalSystem(toy)
contacts = [  # (H: normal row, tangential row; b; e_n)
    ([[0.0, 0.0, -h_S], [1.0, l_M, l_G - l_S]], [l_M + l_G - l_S - r_O, 0.0], e_beak),
    ([[0.0, h_M, 0.0], [1.0, r_M, 0.0]], [r_M - r_O, 0.0], e_sleeve),
    ([[0.0, -h_M, 0.0], [1.0, r_M, 0.0]], [r_M - r_O, 0.0], e_sleeve),
]
for H, b, e in contacts:
    law = sk.NewtonImpactFrictionNSL(e, 0.0, mu, 2)
    nsds.link(sk.Interaction(law, sk.LagrangianLinearTIR(np.array(H), np.array(b))), toy)

osnsp = sk.FrictionContact(2)
osnsp.numericsSolverOptions().dparam[0] = 1e-12
osnsp.numericsSolverOptions().iparam[0] = 1000
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(t0, h), sk.MoreauJeanOSI(0.5), osnsp)

rows = [[t0, *toy.q(), *toy.velocity()]]
k = 0
while sim.hasNextEvent():
    sim.computeOneStep()
    k += 1
    if k % EVERY == 0:
        rows.append([sim.nextTime(), *toy.q(), *toy.velocity()])
    sim.nextStep()
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "siconos_reference.csv")
np.savetxt(out, np.array(rows), delimiter=",", fmt="%.17g",
           header="t,toy.q[0],toy.q[1],toy.q[2],toy.v[0],toy.v[1],toy.v[2]", comments="")
print(f"{k} steps, {len(rows)} rows written to {out}")
