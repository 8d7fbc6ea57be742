"""User forces and prescribed velocities on rigid bodies from Python (``saltus.mechanics``):
checked against the closed forms of the Moreau–Jean θ-scheme, and the Python callable against
the plugin of ``plugins/driven_body`` (same numbers, bit for bit)."""

import math

import numpy as np
import pytest

import saltus
import saltus.mechanics as sm

H = 1e-3


def _scene(gravity=(0.0, 0.0, 0.0)):
    scene = sm.Scene(gravity=gravity, margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.3)
    return scene


def _ball(scene, name="b", m=2.0, r=0.1, **kw):
    scene.add_object(name, [sm.Sphere(r)], mass=m, inertia=[0.4 * m * r * r] * 3, **kw)


def test_constant_force_is_the_discrete_parabola():
    scene = _scene()
    _ball(scene, velocity=(0.3, 0, 0, 0, 0, 0))
    f = np.array([1.0, -2.0, 0.5])
    scene.set_external_force("b", f, (0, 0, 0))
    sim = scene.simulation(h=H, theta=0.5)
    out = sim.run(0.5)
    t = out["t"][-1]
    x = sm.body_array(out, "b")[-1]
    assert np.allclose(x, np.array([0.3, 0, 0]) * t + f / 2.0 * t * t / 2, rtol=0, atol=1e-13)
    assert np.allclose(sm.body_array(out, "b", "velocity")[-1], [0.3, 0, 0] + f * t / 2.0, atol=1e-13)


def test_python_spring_matches_the_plugin(plugin_dir):
    """The same spring-damper from a Python callable and from the plugin: identical trajectories;
    the bob settles at 1 - m g / k."""
    k, c, cr = 50.0, 2.0, 5e-4

    def spring(t, x):
        f = -k * (x[0:3] - np.array([0.0, 0.0, 1.0])) - c * x[7:10]
        return np.concatenate([f, -cr * x[10:13]])

    runs = []
    for how in ("python", "plugin"):
        scene = _scene(gravity=(0, 0, -9.81))
        _ball(scene, "bob", m=0.5, r=0.05, translation=(0.1, 0, 0.8), velocity=(0, 0, 0, 0, 0, 5))
        if how == "python":
            scene.add_external_function("bob", spring)
        else:
            scene.add_external_function("bob", library="saltus_plugin_driven_body", symbol="spring_damper",
                                        params=[k, c, 0, 0, 1, cr], plugin_dirs=[str(plugin_dir)])
        runs.append(scene.simulation(h=H).run(4.0, record_every=100))
    for col in ("bob.x", "bob.z", "bob.vz", "bob.wz"):
        assert np.array_equal(runs[0][col], runs[1][col]), col
    assert abs(runs[0]["bob.z"][-1] - (1 - 0.5 * 9.81 / k)) < 1e-4
    assert abs(runs[0]["bob.wz"][-1] - 5 * (1 - H * cr / (0.4 * 0.5 * 0.05**2)) ** 4000) < 1e-12


def test_harmonic_bc_and_a_prescribed_function():
    scene = _scene(gravity=(0, 0, -9.81))
    _ball(scene, "shaker")
    _ball(scene, "lift", translation=(2, 0, 0))
    scene.add_boundary_condition("vib", "shaker", indices=[2], bc_class="HarmonicBC", a=0.1, b=0.5, omega=20.0, phi=0.3)
    scene.add_boundary_condition("up", "lift", indices=[0, 2], function=lambda t: [0.0, 2.0 * t])
    sim = scene.simulation(h=H)
    for _ in range(300):
        sim.step()
        t = sim.t
        assert sim.state("shaker")["velocity"][2] == 0.1 + 0.5 * math.cos(20.0 * t + 0.3)
        assert sim.state("lift")["velocity"][2] == 2.0 * t
        assert sim.state("lift")["velocity"][0] == 0.0


def test_force_written_between_steps():
    """A controller writing the force each step (Siconos setFExtPtr in a loop): piecewise
    constant, integrated exactly in velocity."""
    scene = _scene()
    _ball(scene, m=1.0)
    sim = scene.simulation(h=H)
    v = 0.0
    for k in range(200):
        f = math.sin(0.05 * k)
        sim.set_external_force("b", (f, 0, 0))
        sim.step()
        v += H * f
        assert abs(sim.state("b")["velocity"][0] - v) <= 1e-15 * (k + 1)


def test_errors():
    scene = _scene()
    _ball(scene)
    scene.add_object("ground", [sm.Plane()])
    with pytest.raises(saltus.ModelError, match="bc_class"):
        scene.add_boundary_condition("x", "b", indices=[0], bc_class="Nope")
    with pytest.raises(saltus.ModelError, match="only dynamic"):
        scene.add_boundary_condition("x", "ground", indices=[0])
    with pytest.raises(saltus.ModelError, match="twist component"):
        scene.add_boundary_condition("x", "b", indices=[7])
    with pytest.raises(saltus.ModelError, match="library and a symbol"):
        scene.add_external_function("b")

    def broken(t, x):
        raise ValueError("no force today")

    scene.add_external_function("b", broken)
    sim = scene.simulation(h=H)
    with pytest.raises(saltus.SimulationError, match="no force today"):
        sim.step()
