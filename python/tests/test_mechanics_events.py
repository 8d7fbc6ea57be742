"""User events on rigid bodies from Python (``MechanicsSimulation.add_event``): the kernel's
time-stepping monitor on a body's 13 numbers ``s = (x y z, qw qx qy qz, vx vy vz, wx wy wz)``.
Checked against closed forms: under gravity alone Moreau–Jean's velocity is exact at the steps
and linear between them, so the apex of a ball thrown up at ``v0`` is located at ``v0/g``."""

import math

import numpy as np
import pytest

import saltus.mechanics as sm

G = 9.81
VZ = [0] * 9 + [1, 0, 0, 0]  # g = vz
Z = [0, 0, 1] + [0] * 10  # g = z (+ b)


def thrown(v0, h=0.01, z0=1.0):
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.5)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    scene.add_object("ball", [sm.Sphere(0.1)], translation=(0, 0, z0), velocity=(0.5, 0, v0, 0, 0, 0),
                     mass=1.0, inertia=[0.004] * 3)
    return scene.simulation(h=h, theta=0.5)


def test_apex_found_by_step_and_by_run():
    sim = thrown(2.0)
    sim.add_event("apex", "ball", a=VZ, direction="falling")
    hits = []
    for _ in range(40):
        sim.step()
        hits += sim.user_events()
    assert len(hits) == 1 and hits[0]["events"] == ["apex"]
    assert hits[0]["t"] == pytest.approx(2.0 / G, abs=1e-12)
    # run(): the event row, at the located time, with the interpolated state
    sim = thrown(2.0)
    sim.add_event("apex", "ball", a=VZ, direction="falling")
    out = sim.run(t_end=0.4)
    rows = np.flatnonzero(out["event"] == 1)
    assert len(rows) == 1
    k = rows[0]
    assert out["t"][k] == pytest.approx(2.0 / G, abs=1e-12) and abs(out["ball.vz"][k]) < 1e-12
    assert out["ball.x"][k] == pytest.approx(0.5 * 2.0 / G, abs=1e-12)


def test_python_trigger_reset_and_stop():
    sim = thrown(0.0, h=1e-3)
    seen = []

    def low(t, s):
        seen.append(t)
        return s[2] - 0.5

    def spin(t, s):
        s = np.array(s)
        s[12] = 5.0  # wz := 5
        return s

    sim.add_event("low", "ball", function=low, direction="falling", action="reset", reset=spin)
    sim.add_event("lower", "ball", a=Z, b=-0.3, direction="falling", action="stop")
    out = sim.run(t_end=2.0)
    assert seen, "the Python trigger was called"
    ev = out["event"]
    assert list(ev[ev > 0]) == [1, 2]
    # the run stopped at the second event: z = 0.3 on the interpolant, t ≈ √(2·0.7/g)
    assert out["event"][-1] == 2 and out["ball.z"][-1] == pytest.approx(0.3, abs=1e-12)
    assert out["t"][-1] == pytest.approx(math.sqrt(2 * 0.7 / G), abs=G * 1e-6 / 8 + 1e-9)
    # after the reset the ball spins about z at 5 rad/s
    after = (out["event"] == 0) & (out["t"] > math.sqrt(2 * 0.5 / G) + 1e-3)
    assert np.all(out["ball.wz"][after] == 5.0)


def test_event_errors():
    sim = thrown(0.0)
    with pytest.raises(sm.ModelError, match="13 entries"):
        sim.add_event("e", "ball", a=[1, 0])
    with pytest.raises(sm.ModelError, match="not both"):
        sim.add_event("e", "ball", a=VZ, function=lambda t, s: 0.0)
    with pytest.raises(sm.ModelError, match="a reset acts on a dynamic body; `ground` is not"):
        sim.add_event("e", "ground", a=Z, action="reset", reset=lambda t, s: s)
    with pytest.raises(sm.ModelError, match="direction `up`"):
        sim.add_event("e", "ball", a=Z, direction="up")


def test_remove_body_between_steps():
    """Removing the lower of two stacked balls: the upper one falls freely from then on, and the
    next run writes the removed ball's ``alive`` column (0 after its removal)."""
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.5)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    for name, z in (("lower", 0.1), ("upper", 0.3)):
        scene.add_object(name, [sm.Sphere(0.1)], translation=(0, 0, z), mass=1.0, inertia=[0.004] * 3)
    h = 1e-3
    sim = scene.simulation(h=h, theta=0.5, tol=1e-12, max_iter=10000)
    sim.run(t_end=0.1)
    z0 = sim.state("upper")["position"][2]
    assert z0 == pytest.approx(0.3, abs=1e-6)
    sim.remove_body("lower")
    out = sim.run(t_end=0.2)
    t = out["t"] - out["t"][0]
    np.testing.assert_allclose(out["upper.z"], z0 - G * t**2 / 2, atol=1e-9)
    assert "lower.alive" in out and out["lower.alive"][-1] == 0


def test_add_object_between_steps():
    """A ball added at t = 0.1 above a resting one: the next run has its columns; it falls
    freely from its addition (z₀ − g (t − 0.1)²/2, exact for θ = ½) and ends stacked; a shape
    named in the scene is known to the simulation, a second body of the same name is refused."""
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.5)
    scene.add_primitive_shape("Ball", "Sphere", [0.1])
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    scene.add_object("lower", ["Ball"], translation=(0, 0, 0.1), mass=1.0, inertia=[0.004] * 3)
    h = 1e-3
    sim = scene.simulation(h=h, theta=0.5, tol=1e-12, max_iter=10000)
    out = sim.run(t_end=0.1)
    assert "upper.z" not in out
    i = sim.add_object("upper", ["Ball"], translation=(0, 0, 1.0), mass=1.0, inertia=[0.004] * 3)
    assert i == 2 and sim.body_names()[i] == "upper"
    with pytest.raises(sm.ModelError, match="exists"):
        sim.add_object("upper", ["Ball"], translation=(0, 0, 2.0), mass=1.0, inertia=[0.004] * 3)
    out = sim.run(t_end=0.4)
    t = out["t"] - 0.1
    fall = out["upper.z"] > 0.3 + 0.02  # above the lower ball's top and the margin
    assert fall.sum() > 300
    np.testing.assert_allclose(out["upper.z"][fall], 1.0 - G * t[fall] ** 2 / 2, atol=1e-12)
    out = sim.run(t_end=2.0)
    assert out["upper.z"][-1] == pytest.approx(0.3, abs=h * math.sqrt(2 * G * 0.7))
    assert out["lower.z"][-1] == pytest.approx(0.1, abs=1e-3)
