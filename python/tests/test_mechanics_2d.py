"""2D rigid bodies (Siconos ``RigidBody2dDS``: ``Disk``, ``Box2d``, ``ConvexHull2d``) from the
Python scene API and through the Siconos compatibility layer, against closed forms: a disk
dropped on a line (impact time, rebound e² H), a disk rolling down an incline (a = 2/3 g sin α),
the polygon mass properties of ``ConvexHull2d``."""

import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import saltus.mechanics as sm

G = 9.81


def test_disk_bounces_to_e2_h_and_rests():
    r, y0, h, e = 0.5, 3.0, 1e-4, 0.5
    scene = sm.Scene(gravity=(0, -G), margin=0.01)
    assert scene.dimension == 2
    scene.add_Newton_impact_friction_nsl("contact", e=e, mu=0.3)
    scene.add_object("ground", [sm.Box2d(10, 0.5)], translation=(0, -0.5))
    scene.add_object("disk", [sm.Disk(r)], translation=(0, y0), mass=1.0, inertia=0.5 * r * r)
    out = scene.simulation(h=h, theta=0.5, tol=1e-12).run(1.5)
    assert {"disk.x", "disk.y", "disk.theta", "disk.vx", "disk.vy", "disk.omega"} <= set(out)
    t, y, vy = out["t"], out["disk.y"], out["disk.vy"]
    t_star = math.sqrt(2 * (y0 - r) / G)
    k = int(np.argmax(vy > 0))  # the first step leaving the ground
    assert abs(t[k] - t_star) <= 2 * h
    apex = y[k:].max() - r
    assert apex == pytest.approx(e * e * (y0 - r), abs=2 * G * t_star * h)
    assert np.all(out["disk.x"] == 0) and np.all(out["disk.theta"] == 0)


def test_disk_rolls_down_an_incline():
    r, m, alpha = 0.25, 1.5, math.radians(30)
    scene = sm.Scene(gravity=(G * math.sin(alpha), -G * math.cos(alpha)), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.8)
    scene.add_object("ground", [sm.Box2d(50, 0.5)], translation=(0, -0.5))
    scene.add_object("disk", [sm.Disk(r)], translation=(0, r), mass=m, inertia=0.5 * m * r * r)
    out = scene.simulation(h=1e-3, theta=0.5, tol=1e-13).run(1.0)
    a = 2.0 / 3.0 * G * math.sin(alpha)
    assert out["disk.x"][-1] == pytest.approx(0.5 * a, abs=1e-9)
    assert out["disk.omega"][-1] == pytest.approx(-a / r, rel=1e-8)


def test_mixing_2d_and_3d_shapes_is_an_error():
    scene = sm.Scene(gravity=(0, -G), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.3)
    scene.add_object("disk", [sm.Disk(0.5)], translation=(0, 1), mass=1.0, inertia=0.125)
    with pytest.raises(Exception, match="2D or 3D"):
        scene.add_object("ball", [sm.Sphere(0.5)], translation=(0, 3, 0), density=1.0)


def test_convexhull2d_mass_properties():
    from saltus.siconos.mechanics.collision.convexhull import ConvexHull2d

    tri = ConvexHull2d([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]])
    assert np.allclose(tri.centroid(), [2 / 3, 2 / 3])
    # right isosceles triangle of legs a: polar moment about the centroid a⁴/18
    inertia, area = tri.inertia(tri.centroid())
    assert area == pytest.approx(2.0) and inertia == pytest.approx(16 / 18)
    sq = ConvexHull2d([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]])
    i, a = sq.inertia(sq.centroid())
    assert a == pytest.approx(1.0) and i == pytest.approx(1 / 6)


def test_siconos_2d_script_runs_and_bounces(tmp_path):
    """A Siconos 2D script (Disk on a Box2d, FRICTION_2D_NSGS) runs unchanged; the output is in
    Siconos's 2D layout (3D poses: z = 0, rotation about z) and the disk bounces to e² H."""
    script = tmp_path / "disk2d.py"
    script.write_text(textwrap.dedent("""
        from siconos.mechanics.collision.tools import Contactor
        from siconos.io.mechanics_run import MechanicsHdf5Runner
        from siconos.mechanics.collision.bullet import SiconosBulletOptions
        import siconos.numerics as sn
        import siconos.kernel as sk
        with MechanicsHdf5Runner() as io:
            io.add_primitive_shape('Disk', 'Disk', (0.5,))
            io.add_primitive_shape('Ground', 'Box2d', (20, 1))
            io.add_Newton_impact_friction_nsl('contact', mu=0.3, e=0.5)
            io.add_object('disk', [Contactor('Disk')], translation=[0, 3.], velocity=[0, 0, 0], mass=1., inertia=0.125)
            io.add_object('ground', [Contactor('Ground')], translation=[0, -.5])
        options = sk.solver_options_create(sn.SICONOS_FRICTION_2D_NSGS)
        options.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1000
        options.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
        with MechanicsHdf5Runner(mode='r+') as io:
            io.run(t0=0, T=1.5, h=1e-4, theta=0.5, solver_options=options, output_frequency=1)
    """))
    res = subprocess.run([sys.executable, "-m", "saltus.siconos", str(script)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    import h5py
    with h5py.File(tmp_path / "disk2d.hdf5", "r") as f:
        assert int(f.attrs["dimension"]) == 2
        d = f["data"]["dynamic"][:]
        v = f["data"]["velocities"][:]
    assert d.shape[1] == 9 and np.all(d[:, 4] == 0) and np.all(d[:, 6:8] == 0)
    assert v.shape[1] == 8
    g = 9.80665  # Siconos's runner's gravity
    apex = d[d[:, 0] > math.sqrt(2 * 2.5 / g) + 0.01, 3].max() - 0.5
    assert apex == pytest.approx(0.25 * 2.5, abs=5e-3)


def test_contactor_orientation_kinds():
    """A 2D contactor's angle is told apart from a quaternion and from Siconos's ragged
    axis-angle pair ``[(x, y, z), angle]`` (tippe_top.py, walker.py)."""
    from saltus.siconos.io.mechanics_run import _is_angle

    assert _is_angle(0.3) and _is_angle([0.3]) and _is_angle(np.array([0.3]))
    assert not _is_angle([1.0, 0.0, 0.0, 0.0])
    assert not _is_angle([(0.0, 0.0, 1.0), 0.5])
