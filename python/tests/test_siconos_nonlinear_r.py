"""Siconos's FirstOrderNonLinearR on the compatibility layer, subclassed from Python the way the
Siconos tutorials (Zhuravlev, Filippov_NL) do, with Siconos's Newton options."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import saltus.siconos as compat
from saltus.siconos import SiconosFeatureNotSupported

KAPPA, GRAVITY = 0.5, 9.81


@pytest.fixture()
def hook():
    compat.install()
    yield
    compat.uninstall()


def zhuravlev_relation(sk, calls):
    """Zhuravlev's relay oscillator (the tutorial's MyR): y = x; r₁ = -κ λ₁ λ₂ x₂,
    r₂ = g λ₁ / (1 - κ λ₁ λ₂), with C given by setCPtr (so computeJachx is never called)."""

    class Zhuravlev(sk.FirstOrderNonLinearR):
        def __init__(self):
            sk.FirstOrderNonLinearR.__init__(self)
            self.setCPtr(np.eye(2))

        def computeh(self, time, x, l, z, y):
            calls["h"] += 1
            y[:] = self.C().dot(x)

        def computeg(self, time, x, l, z, R):
            calls["g"] += 1
            R[0] = -KAPPA * l[0] * l[1] * x[1]
            R[1] = GRAVITY * l[0] / (1 - KAPPA * l[0] * l[1])

        def computeJachx(self, time, x, l, z, C):
            calls["jachx"] += 1

        def computeJacglambda(self, time, x, l, z, B):
            calls["jacglambda"] += 1
            d = 1 - KAPPA * l[0] * l[1]
            B[0, 0], B[0, 1] = -KAPPA * l[1] * x[1], -KAPPA * l[0] * x[1]
            B[1, 0], B[1, 1] = GRAVITY / d**2, GRAVITY * KAPPA * l[0] ** 2 / d**2

        def computeJacgx(self, time, x, l, z, K):
            calls["jacgx"] += 1
            K[:] = 0.0
            K[0, 1] = -KAPPA * l[0] * l[1]

        def computeJachlambda(self, time, x, l, z, D):
            calls["jachlambda"] += 1
            D[:] = 0.0

    return Zhuravlev()


def zhuravlev_run(sk, steps, residu=True):
    calls = dict.fromkeys(["h", "g", "jachx", "jachlambda", "jacgx", "jacglambda"], 0)
    rel = zhuravlev_relation(sk, calls)
    A = np.zeros((2, 2))
    A[0, 1] = 1.0
    process = sk.FirstOrderLinearDS(np.array([1.0, 10.0]), A)
    inter = sk.Interaction(sk.RelayNSL(2), rel)
    nsds = sk.NonSmoothDynamicalSystem(0.0, steps * 1e-3)
    nsds.insertDynamicalSystem(process)
    nsds.link(inter, process)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3))
    s.insertIntegrator(sk.EulerMoreauOSI(1.0))
    s.insertNonSmoothProblem(sk.Relay())
    s.setComputeResiduY(residu)
    s.setComputeResiduR(residu)
    s.setNewtonMaxIteration(40)
    s.setNewtonTolerance(1e-12)
    rows, x, lam, r = [], process.x(), inter.lambda_(0), process.r()
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append([s.nextTime(), *x, *lam, *r])
        s.nextStep()
    return np.array(rows), calls


def test_zhuravlev_relation_subclassed_as_in_the_tutorial(hook):
    """x₁' = x₂ + r₁, x₂' = r₂ from x = (1, 10), θ = 1, h = 1e-3. While x > 0 the relay gives
    λ = (-1, -1): r₂ = -g/(1 - κ), so x₂ falls by h g/(1 - κ) a step. The step that brings x₂ to
    0 solves r₂ = -x₂ₖ/h, i.e. λ₂ = (g h/x₂ₖ - 1)/κ (closed form; Siconos 4.4 gives
    -0.5380029806327846 there). The relation's r is the system's r()."""
    import siconos.kernel as sk

    data, calls = zhuravlev_run(sk, 512)
    t, x1, x2, l1, l2, r1, r2 = data.T
    before = t < 0.5095
    k = int(np.argmax(~before))
    assert np.all(l1[before] == -1.0) and np.all(l2[before] == -1.0)
    np.testing.assert_allclose(x2[before], 10.0 - GRAVITY / (1 - KAPPA) * np.arange(1, k + 1) * 1e-3, rtol=0,
                               atol=1e-12)
    assert abs(x2[k]) < 1e-14 and l1[k] == -1.0
    closed = (GRAVITY * 1e-3 / x2[k - 1] - 1.0) / KAPPA
    assert abs(l2[k] - closed) < 1e-10
    assert abs(l2[k] - -0.5380029806327846) < 1e-10
    # then the relay switches: λ₂ = 1, x₂ = -h g/(1 + κ)
    assert l2[k + 1] == 1.0 and abs(x2[k + 1] + 1e-3 * GRAVITY / (1 + KAPPA)) < 1e-12
    # r() is g(x, λ) at the state
    np.testing.assert_allclose(r2, GRAVITY * l1 / (1 - KAPPA * l1 * l2), rtol=1e-12)
    np.testing.assert_allclose(r1, -KAPPA * l1 * l2 * x2, atol=1e-12)
    # C given: computeJachx never called (Siconos's computeJach); the others are
    assert calls["jachx"] == 0 and min(calls[s] for s in ("h", "g", "jachlambda", "jacgx", "jacglambda")) > 0


def test_without_the_residuals_the_sticking_step_keeps_a_linearized_lambda(hook):
    """Without setComputeResiduR the Newton loop stops once x no longer moves: on the step where
    x₂ reaches 0 the relay pins x₂ = 0 after one iteration and λ₂ is that of a linearization."""
    import siconos.kernel as sk

    data, _ = zhuravlev_run(sk, 511, residu=False)
    k = int(np.argmax(data[:, 0] > 0.5095))
    closed = (GRAVITY * 1e-3 / data[k - 1, 2] - 1.0) / KAPPA
    assert abs(data[k, 4] - closed) > 1e-6


def test_plugins_and_missing_methods_are_named(hook):
    import siconos.kernel as sk

    rel = sk.FirstOrderNonLinearR()
    with pytest.raises(SiconosFeatureNotSupported, match="computeh from a Siconos plugin"):
        rel.setComputehFunction("plugins", "h")
    assert rel.C() is None and rel.B() is None
    rel.setBPtr([[2.0]])
    assert rel.B().tolist() == [[2.0]]
    # a relation that does not override computeh fails the step, naming it
    process = sk.FirstOrderLinearDS(np.array([1.0]), np.zeros((1, 1)))
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1e-3)
    nsds.insertDynamicalSystem(process)
    nsds.link(sk.Interaction(sk.RelayNSL(1), rel), process)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3))
    s.insertIntegrator(sk.EulerMoreauOSI(1.0))
    s.insertNonSmoothProblem(sk.Relay())
    with pytest.raises(Exception, match="computeh"):
        s.computeOneStep()


def test_filippov_nl_tutorial_matches_its_siconos_reference(tmp_path):
    """control/Relay/Filippov_NL.py (a linear relay written as a FirstOrderNonLinearR subclass)
    runs unchanged; its data equals the Siconos reference shipped beside it (Filippov_NL_py.ref)."""
    from conftest import shared_dir

    src = shared_dir() / "siconos-tutorials" / "examples" / "control" / "Relay" / "Filippov_NL.py"
    if not src.exists():
        pytest.skip(f"Siconos tutorials absent ({src}); set SALTUS_SHARED")
    work = tmp_path / "Relay"
    shutil.copytree(src.parent, work)
    p = subprocess.run([sys.executable, "-m", "saltus.siconos", str(work / src.name)], cwd=work,
                       env={**os.environ, "MPLBACKEND": "Agg"}, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    ours, ref = np.loadtxt(work / "Filippov_NL_py.dat"), np.loadtxt(work / "Filippov_NL_py.ref")
    assert ours.shape == ref.shape == (101, 4)
    assert np.max(np.abs(ours - ref)) < 1e-13 * np.max(np.abs(ref))
