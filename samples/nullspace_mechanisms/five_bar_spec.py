"""Planar five-bar for saltus/nullspace_codegen.py: the loop closure of
kernel/examples/nullspace/models.rs (`five_bar`), base d and bar lengths l1, l2 kept free
(params = d l1 l2)."""

import sympy as sp

t1, p1, t2, p2 = sp.symbols("theta1 psi1 theta2 psi2")
d, l1, l2 = sp.symbols("d l1 l2")
coords = [t1, p1, t2, p2]
constraints = [
    l1 * sp.cos(t1) + l2 * sp.cos(p1) - d - l1 * sp.cos(t2) - l2 * sp.cos(p2),
    l1 * sp.sin(t1) + l2 * sp.sin(p1) - l1 * sp.sin(t2) - l2 * sp.sin(p2),
]
params = {d: 0.2, l1: 0.15, l2: 0.2}
free = [d, l1, l2]
independent = [t1, t2]
nominal = [-2.1, -0.5, 5.25, 3.6]
name = "five_bar"

# the model itself: uniform bars, m1 proximal, m2 distal, gravity along −y (the masses fixed)
m1, m2, g = 0.3, 0.2, 9.81
velocities = list(sp.symbols("dtheta1 dpsi1 dtheta2 dpsi2"))
mass = sp.zeros(4, 4)
forces = []
for leg, (t, p) in enumerate([(t1, p1), (t2, p2)]):
    wt, wp = velocities[2 * leg], velocities[2 * leg + 1]
    k = m2 * l1 * l2 / 2
    mass[2 * leg, 2 * leg] = m1 * l1**2 / 3 + m2 * l1**2
    mass[2 * leg + 1, 2 * leg + 1] = m2 * l2**2 / 3
    mass[2 * leg, 2 * leg + 1] = mass[2 * leg + 1, 2 * leg] = k * sp.cos(t - p)
    forces += [
        -k * sp.sin(t - p) * wp**2 - g * sp.cos(t) * (m1 * l1 / 2 + m2 * l1),
        k * sp.sin(t - p) * wt**2 - g * m2 * l2 / 2 * sp.cos(p),
    ]
