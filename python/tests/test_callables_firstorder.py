"""First-order nonlinear systems and relations (FirstOrderNonLinearDS, FirstOrderType1R/2R) and
Lagrangian M(q) as Python callables, checked against closed forms, the linear models and the
same models written with a plugin (bit for bit)."""

import math

import numpy as np
import pytest

import saltus as sk

# The diode bridge of samples/diode_bridge (Siconos tutorial): L, C, R.
L, C, R = 1e-2, 1e-6, 1e3
PLUGIN = "saltus_plugin_diode_bridge"


def euler_moreau(nsds, h, newton_tol=None):
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(nsds.t0, h), sk.EulerMoreauOSI(0.5), sk.LCP("Lemke", tol=1e-12))
    if newton_tol is not None:
        sim.setNewtonTolerance(newton_tol)
        sim.setNewtonMaxIteration(50)
    return sim


# ---------------------------------------------------------------------------------------------
# FirstOrderNonLinearDS alone: a capacitor discharging through an exponential (Shockley) diode
# ---------------------------------------------------------------------------------------------


def test_exponential_diode_against_closed_form():
    """u' = -a (e^u - 1) (C v' = -I_s (e^{v/V_T} - 1) with u = v/V_T): the exact solution is
    u(t) = -ln(1 - (1 - e^{-u0}) e^{-a t}); the θ = 1/2 scheme with its Newton loop on the
    Python f and ∇f converges at order 2."""
    a, u0, T = 2.0, 3.0, 1.0

    def run(h):
        ds = sk.FirstOrderNonLinearDS(
            [u0], lambda t, x: [-a * (math.exp(x[0]) - 1.0)], lambda t, x: [[-a * math.exp(x[0])]], name="diode"
        )
        nsds = sk.NonSmoothDynamicalSystem(0.0, T)
        nsds.insert_dynamical_system(ds)
        out = euler_moreau(nsds, h, newton_tol=1e-13).run()
        exact = -np.log(1.0 - (1.0 - math.exp(-u0)) * np.exp(-a * out["t"]))
        return np.max(np.abs(out["diode.x[0]"] - exact))

    e1, e2 = run(0.01), run(0.005)
    assert e1 < 1e-2  # the initial slope is -40: h = 0.01 is coarse
    assert 3.6 < e1 / e2 < 4.4, (e1, e2)


def test_time_dependent_a_against_closed_form():
    """FirstOrderLinearDS with a Python A(t): x' = -(1 + t) x, x = e^{-t - t²/2} (order 2)."""

    def run(h):
        ds = sk.FirstOrderLinearDS([1.0], [[0.0]], name="x")
        ds.setComputeAFunction(lambda t: [[-(1.0 + t)]])
        nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
        nsds.insert_dynamical_system(ds)
        out = euler_moreau(nsds, h).run()
        return np.max(np.abs(out["x.x[0]"] - np.exp(-out["t"] - out["t"] ** 2 / 2)))

    e1, e2 = run(0.01), run(0.005)
    assert e1 < 1e-4
    assert 3.6 < e1 / e2 < 4.4, (e1, e2)


def test_first_order_linear_r_with_a_moving_floor():
    """FirstOrderLinearR with Python callables of t: x' = -x + r, y = x + e(t) ≥ 0 ⊥ λ ≥ 0, r = B(t) λ,
    e(t) = -(0.2 + 0.5 sin 2t): the decaying state is held on the moving floor f(t) = 0.2 + 0.5 sin 2t.
    Euler–Moreau with θ = 1 keeps x_{k+1} ≥ f(t_{k+1}) at every step, equal where λ > 0; B(t) > 0 only
    scales λ; with constant callables it equals FirstOrderLinearTIR to rounding: the time-varying
    relation's problem is rebuilt at each step with the step's length t_{k+1} − t_k, the constant one's
    once, at the first step (as in Siconos), and the two lengths differ by the rounding of t_k."""
    floor = lambda t: 0.2 + 0.5 * math.sin(2.0 * t)  # noqa: E731

    def run(rel):
        ds = sk.FirstOrderLinearDS([1.0], [[-1.0]], name="x")
        nsds = sk.NonSmoothDynamicalSystem(0.0, 4.0)
        nsds.insert_dynamical_system(ds)
        nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(1), rel, name="floor"), ds)
        sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3), sk.EulerMoreauOSI(1.0), sk.LCP("Lemke", tol=1e-14))
        return sim.run()

    rel = sk.FirstOrderLinearR(lambda t: [[1.0]], lambda t: [[1.0 + 0.5 * math.cos(t)]])
    rel.setePtr(lambda t: [-floor(t)])
    out = run(rel)
    gap = out["x.x[0]"] - np.array([floor(t) for t in out["t"]])
    lam = out["floor.lambda[0]"]
    assert gap.min() > -1e-12
    on = lam > 1e-12
    assert on.sum() > 100 and np.abs(gap[on]).max() < 1e-12, (on.sum(), np.abs(gap[on]).max())
    # constant callables are the time-invariant relation
    const = sk.FirstOrderLinearR(lambda t: [[1.0]], lambda t: [[1.0]])
    const.setePtr(lambda t: [-0.3])
    tir = sk.FirstOrderLinearTIR([[1.0]], [[1.0]])
    tir.setePtr([-0.3])
    a, b = run(const), run(tir)
    assert np.array_equal(a["t"], b["t"])
    for c in ("x.x[0]", "floor.y[0]"):
        assert np.abs(a[c] - b[c]).max() <= 4e-16, c  # x ≤ 1: two ulps
    # λ ≈ (x_free − floor)/h: the ulps of the state over h
    assert np.abs(a["floor.lambda[0]"] - b["floor.lambda[0]"]).max() <= 1e-12


# ---------------------------------------------------------------------------------------------
# The diode bridge: FirstOrderNonLinearDS + FirstOrderType2R
# ---------------------------------------------------------------------------------------------


def tank_f(t, x):
    return [(-1.0 / C) * x[1], (1.0 / L) * x[0]]


def tank_jacobian(t, x):
    return [[0.0, -1.0 / C], [1.0 / L, 0.0]]


def bridge_h(x, lam):
    g = 1.0 / R
    return [g * lam[0] + g * lam[1] - lam[2], g * lam[0] + g * lam[1] - lam[3], -x[0] + lam[0], x[0] + lam[1]]


def bridge_jachx(x, lam):
    return [[0.0, 0.0], [0.0, 0.0], [-1.0, 0.0], [1.0, 0.0]]


def bridge_jachlambda(x, lam):
    g = 1.0 / R
    return [[g, g, -1.0, 0.0], [g, g, 0.0, -1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]


def bridge_g(lam):
    return [(1.0 / C) * (lam[3] - lam[2]), 0.0]


def bridge_jacglambda(lam):
    return [[0.0, 0.0, -1.0 / C, 1.0 / C], [0.0, 0.0, 0.0, 0.0]]


def bridge(circuit, relation, T=2e-3):
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(4), relation, name="bridge"), circuit)
    return euler_moreau(nsds, 1e-6)


def python_bridge():
    circuit = sk.FirstOrderNonLinearDS([10.0, 0.0], tank_f, tank_jacobian, name="circuit")
    rel = sk.FirstOrderType2R(bridge_h, bridge_g, bridge_jachx, bridge_jacglambda, jachlambda=bridge_jachlambda)
    return bridge(circuit, rel)


def test_diode_bridge_python_callables_equal_the_plugin_bitwise(plugin_dir):
    ours = python_bridge().run()
    circuit = sk.FirstOrderNonLinearDS([10.0, 0.0], name="circuit")
    circuit.setComputeFFunction(PLUGIN, "lc_tank_field", params=[L, C])
    circuit.setComputeJacobianfxFunction(PLUGIN, "lc_tank_jacobian")
    rel = sk.FirstOrderType2R.plugin(
        PLUGIN, params=[R, C], h="bridge_h", jachx="bridge_jacobian_h_x",
        jachlambda="bridge_jacobian_h_lambda", g="bridge_g", jacglambda="bridge_jacobian_g",
    )
    sim = bridge(circuit, rel)
    sim.plugin_dirs = [str(plugin_dir)]
    fast = sim.run()
    assert list(fast) == list(ours)
    for c in fast:
        assert np.array_equal(ours[c], fast[c]), c


def test_diode_bridge_nonlinear_form_matches_the_linear_model():
    """The same circuit as FirstOrderLinearTIDS + FirstOrderLinearTIR (the sample): same
    trajectory to round-off, and 0 <= y ⟂ λ >= 0 at every step."""
    ours = python_bridge().run()
    circuit = sk.FirstOrderLinearTIDS([10.0, 0.0], [[0.0, -1.0 / C], [1.0 / L, 0.0]], name="circuit")
    rel = sk.FirstOrderLinearTIR([[0, 0], [0, 0], [-1, 0], [1, 0]], [[0, 0, -1.0 / C, 1.0 / C], [0, 0, 0, 0]])
    rel.setDPtr(bridge_jachlambda(None, None))
    lin = bridge(circuit, rel).run()
    for i, scale in ((0, 10.0), (1, 0.1)):  # vC ≈ 10 V, iL ≈ 0.1 A
        c = f"circuit.x[{i}]"
        assert np.max(np.abs(ours[c] - lin[c])) < 1e-9 * scale, c
    assert np.max(np.abs(ours["circuit.x[0]"])) > 5  # the tank oscillates
    y = np.stack([ours[f"bridge.y[{i}]"] for i in range(4)])
    lam = np.stack([ours[f"bridge.lambda[{i}]"] for i in range(4)])
    assert y.min() > -1e-9 and lam.min() > -1e-9
    assert np.max(np.abs(y * lam)) < 1e-9
    assert np.max(lam) > 1e-3  # the diodes conduct


# ---------------------------------------------------------------------------------------------
# FirstOrderType1R with parameters z: a state pushed against an obstacle
# ---------------------------------------------------------------------------------------------


def test_type1_obstacle_against_closed_form():
    """w = x - z0 with w' = -a w - c + r, 0 <= w ⟂ λ >= 0, r = λ (y = h(x, z) = x - z0,
    g(λ, z) = λ): w = (w0 + c/a) e^{-a t} - c/a until it reaches 0 at t* = ln(1 + a w0/c)/a,
    then w = 0 with λ = c."""
    a, c, z0, w0, T = 1.0, 2.0, 0.5, 1.0, 2.0
    ds = sk.FirstOrderNonLinearDS(
        [z0 + w0], lambda t, x: [-a * (x[0] - z0) - c], lambda t, x: [[-a]], name="x"
    )
    ds.setzPtr([z0])
    rel = sk.FirstOrderType1R(
        lambda x, z: [x[0] - z[0]], lambda lam, z: [lam[0]], lambda x, z: [[1.0]], lambda lam, z: [[1.0]]
    )
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(1), rel, name="stop"), ds)
    out = euler_moreau(nsds, 1e-3, newton_tol=1e-12).run()
    t, w, lam = out["t"], out["x.x[0]"] - z0, out["stop.lambda[0]"]
    t_star = math.log(1 + a * w0 / c) / a
    free = t < t_star - 0.01
    exact = (w0 + c / a) * np.exp(-a * t[free]) - c / a
    assert np.max(np.abs(w[free] - exact)) < 1e-5
    stuck = t > t_star + 0.01
    assert np.max(np.abs(w[stuck])) < 1e-9
    assert np.max(np.abs(lam[stuck] - c)) < 1e-6
    # the same model written with the linear classes: the same trajectory
    lin_ds = sk.FirstOrderLinearTIDS([z0 + w0], [[-a]], name="x")
    lin_ds.setbPtr([a * z0 - c])
    lin_rel = sk.FirstOrderLinearTIR([[1.0]], [[1.0]])
    lin_rel.setePtr([-z0])
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(1), lin_rel, name="stop"), lin_ds)
    lin = euler_moreau(nsds, 1e-3).run()
    assert np.max(np.abs(lin["x.x[0]"] - out["x.x[0]"])) < 1e-10
    assert np.max(np.abs(lin["stop.lambda[0]"] - lam)) < 1e-8


# ---------------------------------------------------------------------------------------------
# Lagrangian: M(q), F_gyr, F_int and a LagrangianScleronomousR contact, all Python
# ---------------------------------------------------------------------------------------------


def spring_pendulum(e):
    """A mass on a spring swinging in polar coordinates q = (r, φ): M(q) = diag(m, m r²),
    F_gyr = (-m r φ̇², 2 m r ṙ φ̇), F_int = (k (r - r0) - m g cos φ, m g r sin φ); a wall at
    x = r sin φ = d (h(q) = d - r sin φ >= 0) with restitution e. Returns the energy, the gap
    and the number of impacts."""
    m, k, r0, g, d = 1.0, 200.0, 1.0, 9.81, 0.3
    bob = sk.LagrangianDS([1.0, -0.8], [0.0, 0.0], lambda q: [[m, 0.0], [0.0, m * q[0] ** 2]], name="bob")
    bob.setComputeFGyrFunction(
        lambda t, q, v: [-m * q[0] * v[1] ** 2, 2 * m * q[0] * v[0] * v[1]],
        lambda t, q, v: [[-m * v[1] ** 2, 0.0], [2 * m * v[0] * v[1], 0.0]],
        lambda t, q, v: [[0.0, -2 * m * q[0] * v[1]], [2 * m * q[0] * v[1], 2 * m * q[0] * v[0]]],
    )
    bob.setComputeFIntFunction(
        lambda t, q, v: [k * (q[0] - r0) - m * g * math.cos(q[1]), m * g * q[0] * math.sin(q[1])],
        lambda t, q, v: [[k, m * g * math.sin(q[1])], [m * g * math.sin(q[1]), m * g * q[0] * math.cos(q[1])]],
        lambda t, q, v: [[0.0, 0.0], [0.0, 0.0]],
    )
    wall = sk.LagrangianScleronomousR(
        lambda q: [d - q[0] * math.sin(q[1])], lambda q: [[-math.sin(q[1]), -q[0] * math.cos(q[1])]]
    )
    nsds = sk.NonSmoothDynamicalSystem(0.0, 4.0)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(e), wall, name="wall"), bob)
    out = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 5e-4), sk.MoreauJeanOSI(0.5), sk.LCP()).run()
    r, phi, dr, dphi = out["bob.q[0]"], out["bob.q[1]"], out["bob.v[0]"], out["bob.v[1]"]
    energy = 0.5 * m * (dr**2 + (r * dphi) ** 2) + 0.5 * k * (r - r0) ** 2 - m * g * r * np.cos(phi)
    vx = dr * np.sin(phi) + r * np.cos(phi) * dphi  # the velocity towards the wall
    impacts = np.count_nonzero((vx[:-1] > 0.05) & (vx[1:] < -0.05))
    return energy, d - r * np.sin(phi), impacts


def test_spring_pendulum_with_a_wall_conserves_energy():
    """With e = 1 the impacts keep the energy, and Moreau–Jean θ = 1/2 nearly so between them;
    with e = 1/2 every impact loses 3/4 of the normal kinetic energy."""
    energy, gap, impacts = spring_pendulum(1.0)
    assert impacts >= 3, impacts
    assert gap.min() > -1e-3
    assert np.max(np.abs(energy - energy[0])) < 3e-3 * abs(energy[0])
    energy, _, impacts = spring_pendulum(0.5)
    assert impacts >= 1
    assert energy[-1] < energy[0] - 0.1 * abs(energy[0])


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


def test_exception_in_f_is_a_simulation_error_with_its_cause():
    def f(t, x):
        if t > 0.05:
            raise ZeroDivisionError(f"bad f at t = {t}")
        return [-x[0]]

    ds = sk.FirstOrderNonLinearDS([1.0], f, lambda t, x: [[-1.0]], name="decay")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insert_dynamical_system(ds)
    sim = euler_moreau(nsds, 0.01)
    with pytest.raises(sk.SimulationError) as e:
        sim.run()
    msg = str(e.value)
    assert "decay.f" in msg and "ZeroDivisionError" in msg and "bad f" in msg
    assert "at t = 0.06" in msg  # the first step whose f raised
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    assert 0.05 <= sim.t() <= 0.07 and np.isfinite(ds.x()).all()


def test_exception_in_relation_at_t0_is_a_model_error():
    def h(x, lam):
        raise ValueError("no diode here")

    circuit = sk.FirstOrderNonLinearDS([10.0, 0.0], tank_f, tank_jacobian, name="circuit")
    rel = sk.FirstOrderType2R(h, bridge_g, bridge_jachx, bridge_jacglambda, jachlambda=bridge_jachlambda)
    sim = bridge(circuit, rel)
    with pytest.raises(sk.ModelError) as e:
        sim.run()
    msg = str(e.value)
    assert "Interaction[bridge]" in msg and "FirstOrderType2R" in msg and "no diode here" in msg
    assert "at t0 = 0" in msg
    assert isinstance(e.value.__cause__, ValueError)


def test_wrong_shapes_and_mixed_functions_are_refused():
    ds = sk.FirstOrderNonLinearDS([1.0, 2.0], lambda t, x: [0.0], lambda t, x: np.zeros((2, 2)), name="x")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insert_dynamical_system(ds)
    with pytest.raises(sk.ModelError, match="returned 1 values, expected 2"):
        euler_moreau(nsds, 0.1).run()
    ds = sk.FirstOrderNonLinearDS([1.0], lambda t, x: [0.0], "lib:jac", name="x")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insert_dynamical_system(ds)
    with pytest.raises(ValueError, match="not a mix"):
        euler_moreau(nsds, 0.1).run()
    with pytest.raises(ValueError, match="jachlambda not given"):
        rel = sk.FirstOrderType2R(bridge_h, bridge_g, bridge_jachx, bridge_jacglambda)
        sim = bridge(sk.FirstOrderNonLinearDS([1.0, 0.0], tank_f, tank_jacobian, name="c"), rel)
        sim.run()
    with pytest.raises(ValueError, match="library:function"):
        sk.FirstOrderType1R("h_without_library", "g")
