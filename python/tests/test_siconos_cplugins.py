"""Siconos C plugins in scripts: ``setComputeFExtFunction("BallPlugin", "ballFExt")``,
``FirstOrderLinearDS.setComputebFunction("plugins", "computeB")`` and
``FirstOrderNonLinearDS.setComputeFFunction``/``setComputeJacobianfxFunction`` with libraries
compiled here with Siconos's plugin signatures: the runs equal, bit for bit, the same runs with
the Python callables computing the same expressions; a missing library or symbol is named."""

import os
import shutil
import subprocess

import numpy as np
import pytest

import saltus.siconos as compat

SOURCE = r"""
#include <math.h>
void ballFExt(double time, unsigned int n, double *fExt, unsigned int nz, double *z) {
  for (unsigned int i = 0; i < n; i++) fExt[i] = 0.0;
  fExt[0] = -9.81 * (1.0 + 0.1 * time);
}
void computeB(double time, unsigned int n, double *b, unsigned int nz, double *z) {
  b[0] = sin(3.0 * time);
  b[1] = z[0];
}
void computeF(double time, unsigned int n, double *x, double *f, unsigned int nz, double *z) {
  f[0] = x[1];
  f[1] = -x[0] - 0.1 * x[1] + cos(time);
}
void computeJ(double time, unsigned int n, double *x, double *J, unsigned int nz, double *z) {
  J[0] = 0.0; J[1] = -1.0;   /* column 0 */
  J[2] = 1.0; J[3] = -0.1;   /* column 1 */
}
"""


@pytest.fixture
def sk(tmp_path, monkeypatch):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the plugins")
    (tmp_path / "plugins.c").write_text(SOURCE)
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(tmp_path / "plugins.so"), str(tmp_path / "plugins.c"), "-lm"],
                   check=True)
    shutil.copy(tmp_path / "plugins.so", tmp_path / "BallPlugin.so")
    monkeypatch.chdir(tmp_path)
    compat.install()
    import siconos.kernel as sk

    yield sk
    compat.uninstall()


def _ball(sk, fext):
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.diag([1, 1, 2 / 5 * 0.1 * 0.1]))
    fext(ball)
    inter = sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]))
    nsds = sk.NonSmoothDynamicalSystem(0, 3.0)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.005), sk.MoreauJeanOSI(0.5), sk.LCP())
    q, rows = ball.q(), []
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append((s.nextTime(), q[0]))
        s.nextStep()
    return np.array(rows)


def test_a_siconos_fext_plugin_runs_as_the_python_function(sk):
    a = _ball(sk, lambda b: b.setComputeFExtFunction("BallPlugin", "ballFExt"))
    b = _ball(sk, lambda b: b.setComputeFExtFunction(lambda t: np.array([-9.81 * (1.0 + 0.1 * t), 0, 0])))
    assert a.shape == (600, 2) and a[:, 1].min() < 0.2  # it fell and bounced
    np.testing.assert_array_equal(a, b)


def _first_order(sk, ds):
    """``ds`` stepped alone by the Euler–Moreau θ = 1/2 scheme over [0, 2]: its states."""
    nsds = sk.NonSmoothDynamicalSystem(0, 2.0)
    nsds.insertDynamicalSystem(ds)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.EulerMoreauOSI(0.5), sk.LCP())
    x, rows = ds.x(), []
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append(x.copy())
        s.nextStep()
    return np.array(rows)


def _linear(sk, b_of):
    ds = sk.FirstOrderLinearDS([1.0, 0.0], [[0.0, 1.0], [-1.0, -0.1]])
    ds.setzPtr([0.5])
    b_of(ds)
    return _first_order(sk, ds)


def test_a_siconos_b_plugin_reads_z_and_runs_as_the_python_function(sk):
    a = _linear(sk, lambda d: d.setComputebFunction("plugins", "computeB"))
    b = _linear(sk, lambda d: d.setComputebFunction(lambda t: np.array([np.sin(3.0 * t), 0.5])))
    np.testing.assert_array_equal(a, b)


def _nonlinear(sk, set_fns):
    ds = sk.FirstOrderNonLinearDS([1.0, 0.0])
    set_fns(ds)
    return _first_order(sk, ds)


def test_siconos_f_and_jacobian_plugins_run_as_the_python_functions(sk):
    def plugins(d):
        d.setComputeFFunction("plugins", "computeF")
        d.setComputeJacobianfxFunction("plugins", "computeJ")

    def python(d):
        d.setComputeFFunction(lambda t, x: np.array([x[1], -x[0] - 0.1 * x[1] + np.cos(t)]))
        d.setComputeJacobianfxFunction(lambda t, x: np.array([[0.0, 1.0], [-1.0, -0.1]]))

    a, b = _nonlinear(sk, plugins), _nonlinear(sk, python)
    assert np.abs(a).max() > 0.5
    np.testing.assert_array_equal(a, b)


def test_a_missing_plugin_library_or_symbol_is_named(sk):
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.eye(3))
    with pytest.raises(FileNotFoundError, match="NoSuchPlugin"):
        ball.setComputeFExtFunction("NoSuchPlugin", "f")
    with pytest.raises(AttributeError, match="no function `nope`"):
        ball.setComputeFExtFunction("BallPlugin", "nope")
    assert os.path.isfile("BallPlugin.so")
