"""Spatial slider–crank for saltus/nullspace_codegen.py: the constraints of
kernel/examples/nullspace/models.rs (`spatial_slider_crank`), crank radius a, rod length L and the
slider line offset (e_y, e_z) fixed."""

import sympy as sp

phi, ax, ay, az, bx, by, bz, s = sp.symbols("phi ax ay az bx by bz s")
a, L, ey, ez = sp.symbols("a L e_y e_z")
coords = [phi, ax, ay, az, bx, by, bz, s]
constraints = [
    ax,
    ay - a * sp.cos(phi),
    az - a * sp.sin(phi),
    bx - s,
    by - ey,
    bz - ez,
    ((bx - ax) ** 2 + (by - ay) ** 2 + (bz - az) ** 2 - L**2) / (2 * L),
]
params = {a: 0.08, L: 0.3, ey: 0.12, ez: 0.1}
independent = [phi]
nominal = [0.3, 0.0, 0.076, 0.024, 0.25, 0.12, 0.1, 0.25]
name = "spatial_slider_crank"
