"""``saltus.NewtonEulerDS``: a rigid body as a kernel system (q of 7 coordinates, v of 6), in an
interaction with a Lagrangian system. Built in Python, the model of ``samples/ball_on_plate``
gives the sample's columns bit for bit; the live views have the two sizes; the physics of the
run (energy, the ball's world angular momentum) is checked."""

import numpy as np
import pytest

import saltus as sk

from conftest import SAMPLES


def ball_on_plate():
    ball = sk.NewtonEulerDS([0, 0, 0.5, 1, 0, 0, 0], [0, 0, 0, 0.05, 8, 0.05], 0.5,
                            np.diag([0.001, 0.002, 0.003]), name="ball")
    ball.setFExtPtr([0, 0, -4.905, 0, 0, 0])
    plate = sk.LagrangianLinearTIDS([-0.0981], [0], [[2.0]], K=[[200.0]], name="plate")
    plate.setFExtPtr([-19.62])
    nsds = sk.NonSmoothDynamicalSystem(0, 3)
    rel = sk.LagrangianLinearTIR([[0, 0, 1, 0, 0, 0, 0, -1]], [-0.1])
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(1.0), rel, name="contact"), ball, plate)
    lcp = sk.LCP()
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.001), sk.MoreauJeanOSI(0.5), lcp)
    return ball, plate, sim


def test_python_model_equals_the_sample_file():
    _, _, sim = ball_on_plate()
    ours = sim.run()
    theirs = sk.load(str(SAMPLES / "ball_on_plate" / "ball_on_plate.xml")).run()
    assert list(ours) == list(theirs)
    assert sum(c.startswith("ball.q[") for c in ours) == 7 and sum(c.startswith("ball.v[") for c in ours) == 6
    for c in ours:
        np.testing.assert_array_equal(ours[c], theirs[c], err_msg=c)


def test_live_views_and_physics():
    ball, plate, sim = ball_on_plate()
    assert ball.dimension() == 6 and ball.q().shape == (7,) and ball.velocity().shape == (6,)
    inertia = np.array([0.001, 0.002, 0.003])

    def rot(q):
        w, x, y, z = q[3:7]
        return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])

    def energy():
        q, v, zp, vp = ball.q(), ball.velocity(), plate.q()[0], plate.velocity()[0]
        return 0.25 * v[:3] @ v[:3] + 0.5 * inertia @ v[3:] ** 2 + 0.5 * 9.81 * q[2] + vp * vp + 100 * zp * zp + 19.62 * zp

    e0 = energy()
    l0 = rot(ball.q()) @ (inertia * ball.velocity()[3:])
    while sim.hasNextEvent():
        sim.computeOneStep()
        sim.nextStep()
        assert ball.q().shape == (7,) and ball.velocity().shape == (6,)
        assert abs(energy() - e0) <= 1e-12 * e0
        np.testing.assert_allclose(rot(ball.q()) @ (inertia * ball.velocity()[3:]), l0, rtol=0, atol=1e-12)


def test_sizes_are_checked():
    with pytest.raises(ValueError, match="7 values and v0 6"):
        sk.NewtonEulerDS([0, 0, 0, 1, 0, 0], [0] * 6, 1.0, np.eye(3))


def test_event_driven_python_model_equals_the_sample_file():
    """The same model under ``saltus.EventDriven`` (LSODAR on ``q̇ = N(q) v``): the columns of
    ``samples/ball_on_plate/ball_on_plate_ed.xml`` bit for bit, and the total energy kept to the
    integrator's tolerance at every event."""
    ball, plate, ts = ball_on_plate()
    sim = sk.EventDriven(ts.nsds, sk.TimeDiscretisation(0, 0.001), sk.LsodarOSI(rtol=1e-12, atol=1e-14))
    ours = sim.run()
    theirs = sk.load(str(SAMPLES / "ball_on_plate" / "ball_on_plate_ed.xml")).run()
    assert list(ours) == list(theirs)
    for c in ours:
        np.testing.assert_array_equal(ours[c], theirs[c], err_msg=c)
    v = np.stack([ours[f"ball.v[{j}]"] for j in range(6)], axis=1)
    energy = (0.25 * (v[:, :3] ** 2).sum(axis=1) + 0.5 * (np.array([0.001, 0.002, 0.003]) * v[:, 3:] ** 2).sum(axis=1)
              + 0.5 * 9.81 * ours["ball.q[2]"] + ours["plate.v[0]"] ** 2 + 100 * ours["plate.q[0]"] ** 2
              + 19.62 * ours["plate.q[0]"])
    assert np.abs(energy - energy[0]).max() <= 1e-9 * abs(energy[0])
    assert (ours["kind"] == 2).sum() == 6, "six impacts"
