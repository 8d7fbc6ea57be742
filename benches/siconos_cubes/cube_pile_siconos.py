#!/usr/bin/python3
"""Siconos 4.4 (mechanics + Bullet) on issue 31's cube pile, for side-by-side comparison with
`mechanics/examples/solver_probe.rs` (PROBE_SCENE=cubes) and `saltus run samples/cube_pile/cube_pile_64.xml`.

Scene (`saltus_mechanics::scenes::cube_pile(N, 1)`): N cubes of half edge a = 0.01 m, density 2320 kg/m^3, on a
cubic lattice of spacing 3.6 a (k = ceil(cbrt N) per row, x fastest), bottom layer at z = 1.8 a, each with a uniformly
random orientation drawn (Shoemake) from splitmix64 seeded with 1 -- the same numbers as the Saltus scene builder; a
square box whose inner width is the lattice width; mu = 0.5, e = 0; Moreau-Jean theta = 0.50001, h = 1e-3, NSGS
tol 1e-6, at most 1000 iterations.

Run with Debian's python3-siconos:
    /usr/bin/python3 cube_pile_siconos.py N T [OUT_DIR]
Prints one CSV row, as benches/siconos_spheres does.
"""
import os
import sys
import tempfile
import time

import numpy as np
import siconos.numerics as sn
from siconos.io.mechanics_run import MechanicsHdf5Runner
from siconos.mechanics.collision.bullet import SiconosBulletOptions
from siconos.mechanics.collision.tools import Contactor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from scenes import cube_lattice  # noqa: E402

A = 0.01
DENSITY = 2320.0
MU = 0.5
H = 1e-3


def lattice(n):
    return cube_lattice(n, A)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    t_end = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    out_dir = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="cubes-")
    sites, width = lattice(n)
    wall = 0.1 * width
    height = 2.0 * (sites[-1][0][2] + 2 * A)
    steps = int(round(t_end / H))
    fname = os.path.join(out_dir, "cubes-{}.hdf5".format(n))
    options = SiconosBulletOptions()
    # Bullet's default margins are larger than the bodies: scale the world (as benches/siconos_spheres). Unlike the
    # spheres, box-box contacts need a real inside margin (0.1 a, as the Siconos masonry/rock examples) and a
    # breaking threshold of the size of Saltus's contact margin (0.3 a, in Bullet's scaled units): with the spheres'
    # 1e-4 r margins and 0.02 r threshold the cubes sank through the ground (centres at z = 0 at T = 1 s).
    options.worldScale = 100.0
    options.contactBreakingThreshold = 0.3 * A * options.worldScale
    options.perturbationIterations = 0
    options.minimumPointsPerturbationThreshold = 0
    margin = 0.1 * A
    mass = 8.0 * A ** 3 * DENSITY
    inertia = 2.0 / 3.0 * mass * A * A
    with MechanicsHdf5Runner(mode="w", io_filename=fname, verbose=False) as io:
        io.add_primitive_shape("Ground", "Box", (2 * width, 2 * width, wall), insideMargin=margin, outsideMargin=0.0)
        io.add_primitive_shape("WallX", "Box", (wall, 2 * width, height), insideMargin=margin, outsideMargin=0.0)
        io.add_primitive_shape("WallY", "Box", (2 * width, wall, height), insideMargin=margin, outsideMargin=0.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -wall / 2])
        for name, shape, c in (
            ("wx+", "WallX", [(width + wall) / 2, 0, height / 2]),
            ("wx-", "WallX", [-(width + wall) / 2, 0, height / 2]),
            ("wy+", "WallY", [0, (width + wall) / 2, height / 2]),
            ("wy-", "WallY", [0, -(width + wall) / 2, height / 2]),
        ):
            io.add_object(name, [Contactor(shape)], translation=c)
        io.add_Newton_impact_friction_nsl("contact", mu=MU, e=0.0)
        io.add_primitive_shape("Cube", "Box", (2 * A, 2 * A, 2 * A), insideMargin=margin, outsideMargin=0.0)
        for i, (p, q) in enumerate(sites):
            io.add_object("c{}".format(i), [Contactor("Cube")], translation=list(p), orientation=q,
                          velocity=[0, 0, 0, 0, 0, 0], mass=mass, inertia=[inertia] * 3)

    contacts = []
    iterations = []
    residuals = []

    def set_solver(runner):
        so = runner._simulation.oneStepNSProblem(0).numericsSolverOptions()
        if so.iparam[sn.SICONOS_IPARAM_MAX_ITER] != 1000:
            assert so.solverId == sn.SICONOS_FRICTION_3D_NSGS
            so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1000
            so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-6

    def count(runner):
        osnspb = runner._simulation.oneStepNSProblem(0)
        contacts.append(osnspb.getSizeOutput() // 3)
        so = osnspb.numericsSolverOptions()
        if contacts[-1] > 0:
            iterations.append(so.iparam[sn.SICONOS_IPARAM_ITER_DONE])
            residuals.append(so.dparam[sn.SICONOS_DPARAM_RESIDU])
    with MechanicsHdf5Runner(mode="r+", io_filename=fname, verbose=False) as io:
        start = time.perf_counter()
        io.run(t0=0, T=t_end, h=H, theta=0.50001, Newton_max_iter=1, bullet_options=options,
               output_frequency=steps, verbose=False, verbose_progress=False, start_run_iteration_hook=set_solver,
               end_run_iteration_hook=count)
        secs = time.perf_counter() - start
    import h5py

    with h5py.File(fname, "r") as f:
        dyn = f["data"]["dynamic"][:]
        vel = f["data"]["velocities"][:]
    last = dyn[dyn[:, 0] == dyn[:, 0].max()]
    lastv = vel[vel[:, 0] == vel[:, 0].max()]
    mean_z = float(np.mean(last[:, 4]))
    min_z = float(np.min(last[:, 4]))
    v = lastv[:, 2:5]
    w = lastv[:, 5:8]
    ke = float(0.5 * mass * np.sum(v * v) + 0.5 * inertia * np.sum(w * w))
    iters = np.array(iterations if iterations else [0])
    not_converged = int(np.sum(np.array(residuals if residuals else [0.0]) > 1e-6))
    print("engine,n,steps,seconds_per_step,mean_contacts,mean_height,kinetic_energy,mean_iterations,max_iterations,"
          "not_converged_steps,max_residual,min_height")
    print("siconos-4.4,{},{},{:.6e},{:.1f},{:.6e},{:.3e},{:.1f},{},{},{:.3e},{:.6e}".format(
        n, steps, secs / steps, float(np.mean(contacts)), mean_z, ke, float(iters.mean()), int(iters.max()),
        not_converged, float(max(residuals) if residuals else 0.0), min_z))


if __name__ == "__main__":
    main()
