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
