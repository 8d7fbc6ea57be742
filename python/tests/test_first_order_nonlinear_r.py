"""FirstOrderNonLinearR (y = h(t, x, λ), r = g(t, x, λ)) from Python: native callables, the
plugin of samples/varactor_diode, the Siconos compatibility class subclassed as the Siconos
tutorials do, and the Newton loop's relation residuals (setComputeResiduY/R), checked against
closed forms and the linear relation."""

import math

import numpy as np
import pytest

import saltus as sk

ALPHA = 0.01
B_FILIPPOV = 500 * np.array([[ALPHA, 1 - ALPHA], [-(1 - ALPHA), ALPHA]])


def relay_run(relation, x0=(3.0, 3.0), T=0.1, h=1e-3, theta=0.5, residu=False, tol=None):
    ds = sk.FirstOrderLinearTIDS(list(x0), np.zeros((2, 2)), name="p")
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.link(sk.Interaction(sk.RelayNSL(2), relation, name="i"), ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.EulerMoreauOSI(theta), sk.Relay())
    if residu:
        sim.setComputeResiduY(True)
        sim.setComputeResiduR(True)
    if tol is not None:
        sim.setNewtonTolerance(tol)
    return sim.run()


def test_linear_relation_written_as_nonlinear_gives_the_linear_trajectory():
    """Filippov's relay system x' = B λ, -x ∈ N_[-1,1](λ) (Siconos tutorial Filippov) with
    h = C x, g = B λ as a FirstOrderNonLinearR (constant Jacobians, K = 0, D = 0) against
    FirstOrderLinearTIR(C, B). The Newton form of the step (x_i − W⁻¹ R(x_i) + h W⁻¹ r) rounds
    differently from the linear one (W⁻¹ (x_k + ...)), so the two agree to rounding, not bits:
    here to 2 ulp of the state."""
    C = np.eye(2)
    lin = relay_run(sk.FirstOrderLinearTIR(C, B_FILIPPOV))
    nl = relay_run(
        sk.FirstOrderNonLinearR(
            lambda t, x, l: C @ x,
            lambda t, x, l: B_FILIPPOV @ l,
            jachx=C,
            jacglambda=B_FILIPPOV,
            jachlambda=np.zeros((2, 2)),
            jacgx=np.zeros((2, 2)),
        ),
        residu=True,
    )
    for key in ("p.x[0]", "p.x[1]"):
        scale = np.max(np.abs(lin[key]))
        assert np.max(np.abs(nl[key] - lin[key])) <= 4 * np.finfo(float).eps * scale, key
    # the relay: λ = -sign(x) away from the sliding line, in [-1, 1] on it
    assert np.all(np.abs(nl["i.lambda[0]"]) <= 1.0 + 1e-12)
    assert np.allclose(nl["i.lambda[0]"], lin["i.lambda[0]"], atol=1e-12)


# ---------------------------------------------------------------------------------------------
# A scalar relay with an input nonlinear in x and λ: reaching the origin in finite time
#   x' = r,  r = g(x, λ) = (1 + x²) λ + β λ³,  y = x,  -y ∈ N_[-1,1](λ)
# For x > 0, λ = -1: x' = -(c + x²), c = 1 + β, x(t) = √c tan(atan(x0/√c) - √c t) until the
# origin (t* = atan(x0/√c)/√c); then x = 0 and λ = 0.
# ---------------------------------------------------------------------------------------------

BETA, X0 = 2.0, 1.0


def cubic_relation():
    return sk.FirstOrderNonLinearR(
        lambda t, x, l: [x[0]],
        lambda t, x, l: [(1 + x[0] ** 2) * l[0] + BETA * l[0] ** 3],
        jachx=[[1.0]],
        jacglambda=lambda t, x, l: [[1 + x[0] ** 2 + 3 * BETA * l[0] ** 2]],
        jachlambda=[[0.0]],
        jacgx=lambda t, x, l: [[2 * x[0] * l[0]]],
    )


def cubic_run(h, residu=True, T=1.0):
    ds = sk.FirstOrderLinearTIDS([X0], [[0.0]], name="x")
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.link(sk.Interaction(sk.RelayNSL(1), cubic_relation(), name="relay"), ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.EulerMoreauOSI(1.0), sk.Relay())
    sim.setNewtonTolerance(1e-13)
    sim.setNewtonMaxIteration(50)
    if residu:
        sim.setComputeResiduY(True)
        sim.setComputeResiduR(True)
    return sim.run()


def test_relay_with_nonlinear_input_against_closed_form():
    c = 1.0 + BETA
    t_star = math.atan(X0 / math.sqrt(c)) / math.sqrt(c)

    def error(h):
        out = cubic_run(h)
        t, x = out["t"], out["x.x[0]"]
        before = t < t_star - 2 * h
        exact = math.sqrt(c) * np.tan(math.atan(X0 / math.sqrt(c)) - math.sqrt(c) * t[before])
        # after the origin is reached: at rest (to round-off), with λ = 0 (g(0, λ) = 0 needs λ = 0)
        after = t > t_star + 2 * h
        assert np.all(np.abs(out["x.x[0]"][after]) < 1e-15)
        assert np.all(np.abs(out["relay.lambda[0]"][after]) < 1e-13)
        assert np.all(out["relay.lambda[0]"][before][1:] == -1.0)  # (λ at t = 0 is not computed)
        return np.max(np.abs(x[before] - exact))

    e1, e2 = error(1e-3), error(5e-4)
    assert e1 < 2e-3
    assert 1.8 < e1 / e2 < 2.2, (e1, e2)  # implicit Euler: order 1


def reaching_step(out):
    """The step that lands on the origin: x_k > 0, x_{k+1} = 0, and the λ of that step."""
    x, lam = out["x.x[0]"], out["relay.lambda[0]"]
    k = int(np.argmax(np.abs(x) < 1e-15))
    assert k > 0 and x[k - 1] > 1e-6
    return x[k - 1], lam[k]


def test_residu_r_makes_the_reaching_step_solve_the_nonlinear_input():
    """On the step that reaches the origin, 0 = x_k + h g(0, λ) gives λ + β λ³ = -x_k/h. The state
    is pinned at 0 after the first Newton iteration, so the increment test alone stops with the
    λ of a linearization; the input residual (setComputeResiduR) iterates until g(x, λ) holds."""
    h = 1e-3
    xk, lam = reaching_step(cubic_run(h, residu=True))
    assert abs(lam + BETA * lam**3 + xk / h) < 1e-12
    xk0, lam0 = reaching_step(cubic_run(h, residu=False))
    assert xk0 == xk
    # what the residual test is for: here λ = -0.6914 instead of the root -0.6857
    assert abs(lam0 + BETA * lam0**3 + xk0 / h) > 1e-3


# ---------------------------------------------------------------------------------------------
# The varactor of samples/varactor_diode: Python callables equal the plugin bit for bit
# ---------------------------------------------------------------------------------------------

VARACTOR = [1e3, 1e-6, 0.5, 1.0, 2.5, 3.0005e-3]


def varactor(relation):
    ds = sk.FirstOrderLinearTIDS([3.0], [[0.0]], name="varactor")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 5e-3)
    nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(1), relation, name="diode"), ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-5), sk.EulerMoreauOSI(1.0), sk.LCP("Lemke"))
    sim.setNewtonTolerance(1e-12)
    sim.setNewtonMaxIteration(20)
    return sim


def test_varactor_python_callables_equal_the_plugin_bitwise(plugin_dir):
    R, C0, alpha, E0, E1, ts = VARACTOR

    def cap(v):
        return C0 * (1.0 + alpha * v)

    python = sk.FirstOrderNonLinearR(
        lambda t, x, l: [R * l[0] + (E0 if t < ts else E1) - x[0]],
        lambda t, x, l: [-l[0] / cap(x[0])],
        jachx=lambda t, x, l: [[-1.0]],
        jacglambda=lambda t, x, l: [[-1.0 / cap(x[0])]],
        jachlambda=lambda t, x, l: [[R]],
        jacgx=lambda t, x, l: [[l[0] * C0 * alpha / cap(x[0]) ** 2]],
    )
    plugin = sk.FirstOrderNonLinearR.plugin(
        "saltus_plugin_varactor", params=VARACTOR, h="varactor_h", jachx="varactor_jacobian_h_x",
        jachlambda="varactor_jacobian_h_lambda", g="varactor_g", jacgx="varactor_jacobian_g_x",
        jacglambda="varactor_jacobian_g_lambda",
    )
    ours = varactor(python).run()
    sim = varactor(plugin)
    sim.plugin_dirs = [str(plugin_dir)]
    theirs = sim.run()
    for key in ("varactor.x[0]", "diode.lambda[0]", "diode.y[0]"):
        assert np.array_equal(ours[key], theirs[key]), key
    # the diode conducts, then blocks after the source step: v stays at its value
    v = ours["varactor.x[0]"]
    assert v[0] == 3.0 and 1.0 < v[-1] < 2.5
    assert np.all(ours["diode.lambda[0]"][ours["t"] > ts + 2e-5] == 0.0)


def test_missing_jacobian_is_named():
    rel = sk.FirstOrderNonLinearR(lambda t, x, l: x, lambda t, x, l: l, jachx=[[1.0]], jacglambda=[[1.0]])
    ds = sk.FirstOrderLinearTIDS([1.0], [[0.0]], name="x")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 0.01)
    nsds.link(sk.Interaction(sk.RelayNSL(1), rel), ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3), sk.EulerMoreauOSI(1.0), sk.Relay())
    with pytest.raises(ValueError, match="jachlambda, jacgx not given"):
        sim.run()


def test_residuals_on_type2r_and_type1r_keep_their_solutions():
    """The residual tests cover FirstOrderType2R and Type1R too: the diode bridge (Type2R, as in
    test_callables_firstorder) with both on gives the trajectory of the linear model (the bridge's
    h and g are affine: the linearizations are exact, so the residuals are round-off and the
    solution is unchanged); Type1R with z: an obstacle reached in finite time, then λ = c."""
    from test_callables_firstorder import (bridge_g, bridge_h, bridge_jacglambda, bridge_jachlambda, bridge_jachx,
                                           tank_f, tank_jacobian)

    def bridge(residu):
        circuit = sk.FirstOrderNonLinearDS([10.0, 0.0], tank_f, tank_jacobian, name="circuit")
        rel = sk.FirstOrderType2R(bridge_h, bridge_g, bridge_jachx, bridge_jacglambda, jachlambda=bridge_jachlambda)
        nsds = sk.NonSmoothDynamicalSystem(0.0, 5e-4)
        nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(4), rel, name="bridge"), circuit)
        sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-6), sk.EulerMoreauOSI(0.5), sk.LCP("Lemke", tol=1e-12))
        sim.setNewtonTolerance(1e-10)
        if residu:
            sim.setComputeResiduY(True)
            sim.setComputeResiduR(True)
        return sim.run()

    plain, checked = bridge(False), bridge(True)
    for i, scale in ((0, 10.0), (1, 0.1)):
        c = f"circuit.x[{i}]"
        assert np.max(np.abs(plain[c] - checked[c])) < 1e-9 * scale, c

    a, c, z0, w0 = 1.0, 2.0, 0.5, 1.0
    ds = sk.FirstOrderNonLinearDS([z0 + w0], lambda t, x: [-a * (x[0] - z0) - c], lambda t, x: [[-a]], name="x")
    ds.setzPtr([z0])
    rel = sk.FirstOrderType1R(
        lambda x, z: [x[0] - z[0]], lambda lam, z: [lam[0]], lambda x, z: [[1.0]], lambda lam, z: [[1.0]]
    )
    nsds = sk.NonSmoothDynamicalSystem(0.0, 2.0)
    nsds.link(sk.Interaction(sk.ComplementarityConditionNSL(1), rel, name="stop"), ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3), sk.EulerMoreauOSI(0.5), sk.LCP("Lemke", tol=1e-12))
    sim.setNewtonTolerance(1e-12)
    sim.setComputeResiduY(True)
    sim.setComputeResiduR(True)
    out = sim.run()
    stuck = out["t"] > math.log(1 + a * w0 / c) / a + 0.01
    assert np.max(np.abs(out["x.x[0]"][stuck] - z0)) < 1e-12
    assert np.max(np.abs(out["stop.lambda[0]"][stuck] - c)) < 1e-9
