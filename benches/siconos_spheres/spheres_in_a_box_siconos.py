#!/usr/bin/python3
"""Siconos 4.4 (mechanics + Bullet) on the issue-13 granular scene, for side-by-side comparison with
`mechanics/benches/spheres.rs` and `benches/rapier_spheres`.

Scene (the Siconos tutorial GranularMaterial/spheres_in_a_box made deterministic): N spheres r = 0.01 m, density
2320 kg/m^3, cubic lattice of spacing 2.2 r, bottom layer at z = 1.5 r, x/y offsets from splitmix64 (the same
numbers as the Saltus scene builder), a square box whose inner width is the lattice width; mu = 0.3, e = 0;
Moreau-Jean theta = 0.50001, h = 1e-3, NSGS tol 1e-6, at most 1000 iterations.

Run with Debian's python3-siconos (apt-get install python3-siconos python3-scipy python3-h5py):
    /usr/bin/python3 spheres_in_a_box_siconos.py N T [OUT_DIR]
Prints one CSV row: engine,n,steps,seconds_per_step,mean_contacts,mean_height,kinetic_energy, NSGS iterations
(mean and max over steps with contacts) and the number of steps whose residual stayed above the tolerance
(seconds_per_step: the whole io.run loop divided by the steps, output written only at the last step).
"""
import math
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
from scenes import sphere_lattice  # noqa: E402

R = 0.01
DENSITY = 2320.0
MU = 0.3
H = 1e-3


def lattice(n):
    return sphere_lattice(n, R)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 125
    t_end = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
    out_dir = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="siab-")
    sites, width = lattice(n)
    wall = 0.1 * width
    height = 2.0 * (sites[-1][2] + R)
    steps = int(round(t_end / H))
    fname = os.path.join(out_dir, "siab-{}.hdf5".format(n))
    options = SiconosBulletOptions()
    # Bullet's default margins (0.04) are larger than the spheres: scale the world as the Siconos tutorial does.
    options.worldScale = 100.0
    options.contactBreakingThreshold = 0.02 * R
    options.perturbationIterations = 0
    options.minimumPointsPerturbationThreshold = 0
    margin = 1e-4 * R
    with MechanicsHdf5Runner(mode="w", io_filename=fname, verbose=False) as io:
        io.add_primitive_shape("Ground", "Box", (2 * width, 2 * width, wall), insideMargin=margin, outsideMargin=margin)
        io.add_primitive_shape("WallX", "Box", (wall, 2 * width, height), insideMargin=margin, outsideMargin=margin)
        io.add_primitive_shape("WallY", "Box", (2 * width, wall, height), insideMargin=margin, outsideMargin=margin)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -wall / 2])
        for name, shape, c in (
            ("wx+", "WallX", [(width + wall) / 2, 0, height / 2]),
            ("wx-", "WallX", [-(width + wall) / 2, 0, height / 2]),
            ("wy+", "WallY", [0, (width + wall) / 2, height / 2]),
            ("wy-", "WallY", [0, -(width + wall) / 2, height / 2]),
        ):
            io.add_object(name, [Contactor(shape)], translation=c)
        io.add_Newton_impact_friction_nsl("contact", mu=MU, e=0.0)
        io.add_primitive_shape("Ball", "Sphere", (R,), insideMargin=margin, outsideMargin=margin)
        mass = 4.0 / 3.0 * math.pi * R ** 3 * DENSITY
        inertia = 0.4 * mass * R * R
        for i, p in enumerate(sites):
            io.add_object("s{}".format(i), [Contactor("Ball")], translation=list(p), velocity=[0, 0, 0, 0, 0, 0],
                          mass=mass, inertia=[inertia] * 3)

    contacts = []

    def set_solver(runner):
        # Debian's 4.4 wrappers refuse a numerics SolverOptions in FrictionContact(dim, options): the runner builds
        # FrictionContact(3) (NSGS by default) and its options are set here, before the first solve.
        so = runner._simulation.oneStepNSProblem(0).numericsSolverOptions()
        if so.iparam[sn.SICONOS_IPARAM_MAX_ITER] != 1000:
            assert so.solverId == sn.SICONOS_FRICTION_3D_NSGS
            so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1000
            so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-6

    iterations = []
    residuals = []

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
    v = lastv[:, 2:5]
    w = lastv[:, 5:8]
    ke = float(0.5 * mass * np.sum(v * v) + 0.5 * inertia * np.sum(w * w))
    iters = np.array(iterations if iterations else [0])
    not_converged = int(np.sum(np.array(residuals if residuals else [0.0]) > 1e-6))
    print("engine,n,steps,seconds_per_step,mean_contacts,mean_height,kinetic_energy,mean_iterations,max_iterations,"
          "not_converged_steps")
    print("siconos-4.4,{},{},{:.6e},{:.1f},{:.6e},{:.3e},{:.1f},{},{}".format(
        n, steps, secs / steps, float(np.mean(contacts)), mean_z, ke, float(iters.mean()), int(iters.max()),
        not_converged))


if __name__ == "__main__":
    main()
