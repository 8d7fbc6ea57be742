"""Rolling friction (Siconos ``NewtonImpactRollingFrictionNSL``) from the Python scene API and
through the Siconos compatibility layer, against the closed form of a ball stopped by its
rolling resistance: deceleration a = 5/7 g mu_r / r, stop at D = v0^2 / (2 a)."""

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import saltus.mechanics as sm

G = 9.81


def rolling_ball(mu_r, r=0.1, m=1.0, v0=1.0):
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_Newton_impact_rolling_friction_nsl("contact", e=0.0, mu=0.5, mu_r=mu_r)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    scene.add_object("ball", [sm.Sphere(r)], translation=(0, 0, r), velocity=(v0, 0, 0, 0, v0 / r, 0),
                     mass=m, inertia=[0.4 * m * r * r] * 3)
    return scene.simulation(h=1e-3, theta=0.5, tol=1e-13, max_iter=1000)


def test_ball_stops_at_the_rolling_resistance_distance():
    r, v0, mu_r, h = 0.1, 1.0, 0.01, 1e-3
    a = 5.0 / 7.0 * G * mu_r / r
    sim = rolling_ball(mu_r, r=r, v0=v0)
    for k in range(1, 1601):
        rep = sim.step()
        assert rep["status"] == "converged"
        v = sim.state("ball")["velocity"]
        assert v[0] == pytest.approx(max(v0 - a * h * k, 0.0), abs=1e-9)
    s = sim.state("ball")
    d = v0 * v0 / (2 * a)
    assert abs(s["position"][0] - d) <= v0 * h
    assert np.linalg.norm(s["velocity"]) < 1e-9


def test_without_rolling_resistance_the_ball_keeps_rolling():
    sim = rolling_ball(0.0)
    for _ in range(500):
        sim.step()
    assert sim.state("ball")["velocity"][0] == pytest.approx(1.0, abs=1e-12)


def test_negative_rolling_coefficient_is_an_error():
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    with pytest.raises(Exception, match="rolling friction coefficient"):
        scene.add_Newton_impact_rolling_friction_nsl("c", e=0.0, mu=0.5, mu_r=-1.0)


def test_siconos_script_with_rolling_friction(tmp_path):
    """A MechanicsHdf5Runner script with add_Newton_impact_rolling_friction_nsl runs unchanged
    (python -m saltus.siconos) and its ball stops where the closed form says."""
    script = tmp_path / "roll.py"
    script.write_text(textwrap.dedent("""
        from siconos.mechanics.collision.tools import Contactor
        from siconos.io.mechanics_run import MechanicsHdf5Runner
        import siconos.numerics as sn
        import siconos.kernel as sk
        with MechanicsHdf5Runner() as io:
            io.add_primitive_shape('Ball', 'Sphere', (0.1,))
            io.add_primitive_shape('Ground', 'Box', (10, 10, 0.5))
            io.add_Newton_impact_rolling_friction_nsl('contact', e=0.0, mu=0.5, mu_r=0.01)
            io.add_object('ball', [Contactor('Ball')], translation=[0, 0, 0.1], velocity=[1, 0, 0, 0, 10, 0], mass=1)
            io.add_object('ground', [Contactor('Ground')], translation=[0, 0, -0.25])
        options = sk.solver_options_create(sn.SICONOS_ROLLING_FRICTION_3D_NSGS)
        options.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1000
        options.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
        with MechanicsHdf5Runner(mode='r+') as io:
            io.run(t0=0, T=2, h=1e-3, theta=0.5, gravity_scale=1, solver_options=options,
                   constraint_activation_threshold=1e-8)
    """))
    res = subprocess.run([sys.executable, "-m", "saltus.siconos", str(script)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    import h5py
    with h5py.File(tmp_path / "roll.hdf5", "r") as f:
        d = f["data"]["dynamic"][:]
    a = 5.0 / 7.0 * 9.80665 * 0.01 / 0.1
    x_end = d[-1, 2]
    assert abs(x_end - 1.0 / (2 * a)) <= 1e-3, x_end
