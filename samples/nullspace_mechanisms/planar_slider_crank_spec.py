"""Planar slider–crank for saltus/nullspace_codegen.py: the constraints of
kernel/examples/nullspace/models.rs (`planar_slider_crank`), lengths l1, l2 free or fixed."""

import sympy as sp

phi1, x2, y2, phi2, x3 = sp.symbols("phi1 x2 y2 phi2 x3")
l1, l2 = sp.symbols("l1 l2")
coords = [phi1, x2, y2, phi2, x3]
constraints = [
    x2 - l2 / 2 * sp.cos(phi2) - l1 * sp.cos(phi1),
    y2 - l2 / 2 * sp.sin(phi2) - l1 * sp.sin(phi1),
    x2 + l2 / 2 * sp.cos(phi2) - x3,
    y2 + l2 / 2 * sp.sin(phi2),
]
params = {l1: 0.15, l2: 0.4}
free = [l1, l2]
independent = [phi1]
nominal = [0.3, 0.3, 0.05, -0.1, 0.5]
name = "planar_slider_crank"

# the model itself (masses, gravity), so that the generated plugin also serves <Mass> and <FInt>
m1, m2, m3, g = 0.5, 1.0, 0.8, 9.81
velocities = list(sp.symbols("dphi1 dx2 dy2 dphi2 dx3"))
mass = sp.diag(m1 * l1**2 / 3, m2, m2, m2 * l2**2 / 12, m3)
forces = [-m1 * g * l1 / 2 * sp.cos(phi1), 0, -m2 * g, 0, 0]
