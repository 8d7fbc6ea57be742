"""A box stack written with Siconos's ``MechanicsHdf5Runner`` API, to time the same scene on
Siconos 4.4 and on Saltus (issue 29's per-step ratio on a box stack):

    /usr/bin/python3 siconos_box_stack.py [N_BOXES] [STEPS]              # Siconos 4.4 (Bullet)
    python -m saltus.siconos siconos_box_stack.py [N_BOXES] [STEPS]      # Saltus, unchanged

Prints ``boxes,steps,seconds,us_per_step,final_top_z`` (CSV): the wall time of ``io.run`` only
(the scene written before the clock), and the height of the top box at the end (a settled stack
of unit cubes on a 0.1 m slab stands with the top centre at ``N - 0.5 + 0.1``, give or take the
contact margin). The same stack as the Siconos tutorial ``GeometricPrimitives/box_stacks.py``
(which needs Siconos ≥ 4.5's ``MechanicsHdf5Runner_run_options``): unit cubes, μ = 0.3, e = 0,
h = 1e-3, θ = 0.50001, NSGS with tolerance 1e-6 and at most 1000 iterations.
"""

import os
import sys
import tempfile
import time

import siconos.kernel as sk
import siconos.numerics as sn
from siconos.io.mechanics_run import MechanicsHdf5Runner
from siconos.mechanics.collision.tools import Contactor


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    h = 1e-3
    path = os.path.join(tempfile.mkdtemp(prefix="box-stack-"), "stack.hdf5")
    with MechanicsHdf5Runner(io_filename=path, verbose=False) as io:
        io.add_primitive_shape("Cube", "Box", (1, 1, 1))
        io.add_primitive_shape("Ground", "Box", (20, 20, 0.1))
        io.add_Newton_impact_friction_nsl("contact", mu=0.3, e=0.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, 0.05])
        for i in range(n):
            # a small gap between the boxes: they land on each other during the first steps
            io.add_object(f"box{i}", [Contactor("Cube")], translation=[0, 0, 0.1 + 0.5 + i * 1.01], mass=1.0)
    so = sk.solver_options_create(sn.SICONOS_FRICTION_3D_NSGS)
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1000
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-6
    with MechanicsHdf5Runner(io_filename=path, mode="r+", verbose=False) as io:
        t0 = time.perf_counter()
        io.run(t0=0, T=steps * h, h=h, theta=0.50001, Newton_max_iter=1, solver_options=so,
               output_frequency=steps, verbose=False, verbose_progress=False)
        dt = time.perf_counter() - t0
    import h5py

    with h5py.File(path, "r") as f:
        dyn = f["data"]["dynamic"][:]
    last = dyn[dyn[:, 0] == dyn[:, 0].max()]
    top = float(last[:, 4].max())
    print("boxes,steps,seconds,us_per_step,final_top_z")
    print(f"{n},{steps},{dt:.4f},{dt / steps * 1e6:.1f},{top:.5f}")


if __name__ == "__main__":
    main()
