"""Python callables as forces (checked against closed forms), plugins, and saltus.ode."""

import math

import numpy as np
import pytest

import saltus as sk


def test_python_fext_matches_constant_force_bitwise():
    def model(fext):
        ball = sk.LagrangianLinearTIDS([1.0], [0.0], [[1.0]], name="ball")
        ball.setFExtPtr(fext)
        nsds = sk.NonSmoothDynamicalSystem(0, 2)
        nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.5), sk.LagrangianLinearTIR([[1.0]]), name="floor"), ball)
        return sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.MoreauJeanOSI(0.5), sk.LCP())

    a = model([-9.81]).run()
    b = model(lambda t: np.array([-9.81])).run()
    for c in a:
        assert np.array_equal(a[c], b[c]), c


def test_time_dependent_force_against_closed_form():
    # q'' = cos(t), q(0) = 0, v(0) = 0 → q = 1 − cos t; Moreau–Jean θ = 1/2 is 2nd order
    def run(h):
        ds = sk.LagrangianLinearTIDS([0.0], [0.0], [[1.0]], name="m")
        ds.setFExtPtr(lambda t: [math.cos(t)])
        nsds = sk.NonSmoothDynamicalSystem(0, 1)
        nsds.insert_dynamical_system(ds)
        out = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, h), sk.MoreauJeanOSI(0.5), sk.LCP()).run()
        return abs(out["m.q[0]"][-1] - (1 - math.cos(1.0)))

    e1, e2 = run(0.01), run(0.005)
    assert e1 < 1e-4
    assert 3.0 < e1 / e2 < 5.0  # second order


def test_python_fint_spring_energy():
    # LagrangianDS with F_int(q) = k q (a spring): harmonic oscillator, period 2π/√k
    k = 4.0
    ds = sk.LagrangianDS([1.0], [0.0], [[1.0]], name="osc")
    ds.setComputeFIntFunction(
        lambda t, q, v: k * q, lambda t, q, v: np.array([[k]]), lambda t, q, v: np.array([[0.0]])
    )
    nsds = sk.NonSmoothDynamicalSystem(0, math.pi)  # one period of √k = 2 is π
    nsds.insert_dynamical_system(ds)
    out = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 1e-3), sk.MoreauJeanOSI(0.5), sk.LCP()).run()
    q, v = out["osc.q[0]"], out["osc.v[0]"]
    energy = 0.5 * v**2 + 0.5 * k * q**2
    assert np.max(np.abs(energy - 2.0)) < 1e-3  # θ = 1/2 conserves the energy of a linear spring
    assert abs(q[-1] - 1.0) < 1e-3


def test_plugin_force_model(plugin_dir):
    """The plugin version of the bouncing ball (fast path) equals the constant-force one."""
    from conftest import SAMPLES

    a = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ts_plugin.xml", plugin_dirs=[plugin_dir]).run()
    b = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ts.xml").run()
    assert np.max(np.abs(a["ball.q[0]"] - b["ball.q[0]"])) < 1e-12


def test_ode_free_fall_root():
    # y = (z, v): z' = v, v' = −g; root z = 0 falling at t = √(2/g)
    g = 9.81
    out = sk.ode.integrate(
        lambda t, y: [y[1], -g], [1.0, 0.0], np.linspace(0, 1, 11), roots=lambda t, y: [y[0]], directions=[-1],
        rtol=1e-10, atol=1e-12,
    )
    assert out["status"] == "root" and out["events"] == [[0]]
    assert abs(out["t_events"][0] - math.sqrt(2 / g)) < 1e-8
    assert abs(out["y"][-1, 0]) < 1e-8
    # non-terminal: the output times are all reached
    out = sk.ode.integrate(lambda t, y: [-y[0]], [1.0], [0.0, 0.5, 1.0], rtol=1e-10, atol=1e-14)
    assert out["status"] == "done" and np.allclose(out["y"][:, 0], np.exp(-np.array([0.0, 0.5, 1.0])), rtol=1e-8)


def test_ode_errors():
    with pytest.raises(sk.NumericsError, match="unknown method"):
        sk.ode.integrate(lambda t, y: y, [1.0], [0, 1], method="rk4")
    with pytest.raises(sk.NumericsError, match="raised"):
        sk.ode.integrate(lambda t, y: 1 / 0, [1.0], [0, 1])


def pendulum(relation):
    bob = sk.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(2), name="bob")
    bob.setFExtPtr([0.0, -9.81])
    nsds = sk.NonSmoothDynamicalSystem(0.0, 5.0)
    nsds.link(sk.Interaction(sk.EqualityConditionNSL(1), relation, name="rod"), bob)
    return sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3), sk.MoreauJeanOSI(0.5), sk.Equality())


def test_python_relation_equals_the_plugin_sample(plugin_dir):
    """The rigid rod h(q) = (x² + y² − l²)/(2l) as Python callables: the same bits as the
    cartesian_pendulum sample, whose rod is a plugin; and the rod length stays near 1."""
    from conftest import SAMPLES

    l = 1.0
    rod = sk.LagrangianScleronomousR(
        lambda q: [(q[0] * q[0] + q[1] * q[1] - l * l) / (2.0 * l)], lambda q: [[q[0] / l, q[1] / l]]
    )
    ours = pendulum(rod).run()
    sample = sk.load(SAMPLES / "cartesian_pendulum" / "cartesian_pendulum.xml", plugin_dirs=[plugin_dir]).run()
    for c in sample:
        assert np.array_equal(ours[c], sample[c]), c
    length = np.hypot(ours["bob.q[0]"], ours["bob.q[1]"])
    assert np.max(np.abs(length - 1.0)) < 1e-2
    plug = sk.LagrangianScleronomousR.plugin("saltus_plugin_pendulum", "rod_h", "rod_jacobian", params=[1.0])
    sim = pendulum(plug)
    sim.plugin_dirs = [str(plugin_dir)]
    fast = sim.run()
    for c in sample:
        assert np.array_equal(fast[c], sample[c]), c
    # Siconos plugin strings "library:function"
    siconos = sk.LagrangianScleronomousR(
        "saltus_plugin_pendulum:rod_h", "saltus_plugin_pendulum:rod_jacobian", params=[1.0]
    )
    sim = pendulum(siconos)
    sim.plugin_dirs = [str(plugin_dir)]
    fast = sim.run()
    for c in sample:
        assert np.array_equal(fast[c], sample[c]), c


def test_semi_explicit_euler_is_the_symplectic_euler_recurrence():
    """``SemiExplicitEuler`` on a linear spring is exactly u ← u − h k q, q ← q + h u: the
    recurrence, done in numpy, agrees to rounding, and its modified energy
    ½u² + ½k q² − ½h k q u stays constant (no drift, the symplectic invariant)."""
    k, h, n = 4.0, 1e-2, 2000
    ds = sk.LagrangianLinearTIDS([1.0], [0.0], [[1.0]], K=[[k]], name="osc")
    nsds = sk.NonSmoothDynamicalSystem(0, n * h)
    nsds.insert_dynamical_system(ds)
    out = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, h), sk.SemiExplicitEuler(), sk.LCP()).run()
    q, u = 1.0, 0.0
    qs, us = [q], [u]
    for _ in range(n):
        u = u - h * k * q
        q = q + h * u
        qs.append(q)
        us.append(u)
    assert len(out["osc.q[0]"]) == n + 1
    assert np.max(np.abs(out["osc.q[0]"] - np.array(qs))) < 1e-12
    assert np.max(np.abs(out["osc.v[0]"] - np.array(us))) < 1e-12
    qq, uu = out["osc.q[0]"], out["osc.v[0]"]
    # for u_{k+1} = u_k − h k q_k, q_{k+1} = q_k + h u_{k+1} the invariant pairs u_k with q_k
    modified = 0.5 * uu**2 + 0.5 * k * qq**2 - 0.5 * h * k * qq * uu
    assert np.max(np.abs(modified - modified[0])) < 1e-12


def test_associate_gives_one_ball_its_own_integrator():
    """``simulation.associate(osi, ds)`` (Siconos): the two bouncing balls with ball b on the
    semi-explicit Euler and a on Moreau–Jean θ = ½ give the bits of the model file that says
    the same with ``<SemiExplicitEuler systems="b"/>``; each ball follows its own recurrence."""
    from conftest import SAMPLES

    h = 1e-3
    a = sk.LagrangianLinearTIDS([1.0], [0.0], [[1.0]], name="a")
    a.setFExtPtr([-9.81])
    b = sk.LagrangianLinearTIDS([2.0], [-1.0], [[0.5]], name="b")
    b.setFExtPtr([-4.905])
    nsds = sk.NonSmoothDynamicalSystem(0, 5.0)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1.0]], b=[-0.1]), name="ground"), a)
    between = sk.LagrangianLinearTIR([[-1.0, 1.0]], b=[-0.2])
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.7), between, name="contact"), a, b)
    lemke = sk.LCP("Lemke", tol=1e-10, max_iter=1000)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, h), sk.MoreauJeanOSI(0.5), lemke)
    sim.associate(sk.SemiExplicitEuler(), b)
    ours = sim.run()
    sample = sk.load(SAMPLES / "two_bouncing_balls" / "two_bouncing_balls_mixed.xml").run()
    for c in sample:
        assert np.array_equal(ours[c], sample[c]), c
    za, va, zb, vb = (ours[c] for c in ("a.q[0]", "a.v[0]", "b.q[0]", "b.v[0]"))
    assert np.max(np.abs(za[1:] - za[:-1] - 0.5 * h * (va[1:] + va[:-1]))) < 1e-12
    assert np.max(np.abs(zb[1:] - zb[:-1] - h * vb[1:])) < 1e-12
    with pytest.raises(TypeError):
        sim.associate(sk.LsodarOSI(), b)
