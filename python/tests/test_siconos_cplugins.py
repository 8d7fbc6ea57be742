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
/* LagrangianDS: M(q) (FPtr7), FInt(t, q, v) and its Jacobians (FPtr6), FGyr(q, v) and its
   Jacobians (FPtr5), all column-major */
void mass(unsigned int n, double *q, double *M, unsigned int nz, double *z) {
  M[0] = 2.0 + 0.1 * cos(q[1]); M[1] = 0.05; M[2] = 0.05; M[3] = 1.0;
}
void fint(double t, unsigned int n, double *q, double *v, double *f, unsigned int nz, double *z) {
  f[0] = 4.0 * q[0] + 0.2 * v[0] + 0.3 * q[0] * q[0] * q[0];
  f[1] = 3.0 * q[1] + 0.1 * v[1] - sin(t);
}
void fintq(double t, unsigned int n, double *q, double *v, double *J, unsigned int nz, double *z) {
  J[0] = 4.0 + 0.9 * q[0] * q[0]; J[1] = 0.0; J[2] = 0.0; J[3] = 3.0;
}
void fintv(double t, unsigned int n, double *q, double *v, double *J, unsigned int nz, double *z) {
  J[0] = 0.2; J[1] = 0.0; J[2] = 0.0; J[3] = 0.1;
}
void fgyr(unsigned int n, double *q, double *v, double *f, unsigned int nz, double *z) {
  f[0] = 0.01 * v[1] * v[1]; f[1] = -0.01 * v[0] * v[1];
}
void fgyrv(unsigned int n, double *q, double *v, double *J, unsigned int nz, double *z) {
  J[0] = 0.0; J[1] = -0.01 * v[1]; J[2] = 0.02 * v[1]; J[3] = -0.01 * v[0];
}
/* LagrangianScleronomousR: y = h(q) (FPtr3, z the system's z) and its 1 x 2 Jacobian */
void h0(unsigned int nq, double *q, unsigned int ny, double *y, unsigned int nz, double *z) {
  y[0] = q[0] + 0.5 * q[1] * q[1] + z[0];
}
void G0(unsigned int nq, double *q, unsigned int ny, double *G, unsigned int nz, double *z) {
  G[0] = 1.0; G[1] = q[1];
}
/* LagrangianRheonomousR: y = h(q, t) (FPtr4), its Jacobian and dh/dt */
void hr(unsigned int nq, double *q, double t, unsigned int ny, double *y, unsigned int nz, double *z) {
  y[0] = q[0] + 0.6 + 0.1 * sin(t);
}
void Gr(unsigned int nq, double *q, double t, unsigned int ny, double *G, unsigned int nz, double *z) {
  G[0] = 1.0; G[1] = 0.0;
}
void hrdot(unsigned int nq, double *q, double t, unsigned int ny, double *y, unsigned int nz, double *z) {
  y[0] = 0.1 * cos(t);
}
/* LagrangianScleronomousR's third plugin: dG0/dt = [0, v1] (FPtr2) */
void dG0(unsigned int nq, double *q, unsigned int nv, double *v, double *out, unsigned int nz, double *z) {
  out[0] = 0.0; out[1] = v[1];
}
/* FirstOrderType1R (Type1Ptr): y = h(x, z), r = g(lambda, z) and the Jacobians, column-major */
void t1h(unsigned int nx, double *x, unsigned int ny, double *y, unsigned int nz, double *z) {
  y[0] = x[0] + 0.1 * x[1] * x[1] + z[0];
}
void t1C(unsigned int nx, double *x, unsigned int ny, double *C, unsigned int nz, double *z) {
  C[0] = 1.0; C[1] = 0.2 * x[1];
}
void t1g(unsigned int nl, double *l, unsigned int nr, double *r, unsigned int nz, double *z) {
  r[0] = l[0]; r[1] = 0.5 * l[0];
}
void t1B(unsigned int nl, double *l, unsigned int nr, double *B, unsigned int nz, double *z) {
  B[0] = 1.0; B[1] = 0.5;
}
/* FirstOrderType2R: y = h(x, lambda) (Type2PtrH), r = g(lambda) (Type2PtrG) */
void t2h(unsigned int nx, double *x, unsigned int nl, double *l, unsigned int ny, double *y) {
  y[0] = x[0] + 0.1 * x[1] * x[1] + 0.1 + 0.01 * l[0];
}
void t2g(unsigned int nl, double *l, unsigned int nr, double *r) {
  r[0] = l[0]; r[1] = 0.5 * l[0];
}
/* FirstOrderLinearR: C(t), B(t) (FOMatPtr1, column-major), e(t) (FOVecPtr) */
void lrC(double t, unsigned int rows, unsigned int cols, double *C, unsigned int nz, double *z) {
  C[0] = 1.0; C[1] = 0.1 * sin(t);
}
void lrB(double t, unsigned int rows, unsigned int cols, double *B, unsigned int nz, double *z) {
  B[0] = 1.0; B[1] = 0.5 + 0.1 * cos(t);
}
void lre(double t, unsigned int n, double *e, unsigned int nz, double *z) {
  e[0] = z[0] * sin(2.0 * t);
}
/* FirstOrderLinearDS: A(t) (rows, cols, column-major) */
void computeA(double t, unsigned int rows, unsigned int cols, double *A, unsigned int nz, double *z) {
  A[0] = 0.0; A[1] = -1.0 - 0.5 * sin(t);
  A[2] = 1.0; A[3] = -0.1 * z[0];
}
/* NewtonEulerDS (FExt_NE): f(t) with z the initial pose */
void neF(double t, double *f, unsigned int nz, double *z) {
  f[0] = cos(t); f[1] = 0.0; f[2] = -9.81 + z[2];
}
void neM(double t, double *m, unsigned int nz, double *z) {
  m[0] = 0.0; m[1] = 0.2; m[2] = 0.1 * sin(t);
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


def test_a_siconos_a_plugin_runs_as_the_python_function(sk):
    # FirstOrderLinearDS(x0, "lib:A", "lib:b") and setComputeAFunction(lib, fn): A(t) column-major
    def plugged():
        ds = sk.FirstOrderLinearDS([1.0, 0.0], "plugins:computeA", "plugins:computeB")
        ds.setzPtr([0.5])
        return _first_order(sk, ds)

    def python():
        ds = sk.FirstOrderLinearDS([1.0, 0.0], [[0.0, 1.0], [-1.0, -0.1]])
        ds.setComputeAFunction(lambda t: np.array([[0.0, 1.0], [-1.0 - 0.5 * np.sin(t), -0.1 * 0.5]]))
        ds.setComputebFunction(lambda t: np.array([np.sin(3.0 * t), 0.5]))
        return _first_order(sk, ds)

    a, b = plugged(), python()
    assert np.abs(a).max() > 0.5
    np.testing.assert_array_equal(a, b)


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


def _lagrangian(sk, plugins: bool, relation: str):
    """A nonlinear 2-dof LagrangianDS (M(q), FInt, FGyr) against an obstacle: Siconos C plugins or
    the same expressions as Python callables; the positions of every Moreau–Jean step."""
    if plugins:
        ds = sk.LagrangianDS([0.5, 0.3], [-1.0, 0.5], "plugins:mass")
        ds.setzPtr([0.6])  # read by h0
        ds.setComputeFIntFunction("plugins", "fint")
        ds.setComputeJacobianFIntqFunction("plugins", "fintq")
        ds.setComputeJacobianFIntqDotFunction("plugins", "fintv")
        ds.setComputeFGyrFunction("plugins", "fgyr")
        ds.setComputeJacobianFGyrqDotFunction("plugins", "fgyrv")  # ∂F_gyr/∂q not set: zero
        rel = (sk.LagrangianScleronomousR("plugins:h0", "plugins:G0") if relation == "scleronomous"
               else sk.LagrangianRheonomousR("plugins:hr", "plugins:Gr", "plugins:hrdot"))
    else:
        ds = sk.LagrangianDS([0.5, 0.3], [-1.0, 0.5])
        ds.setComputeMassFunction(lambda q: np.array([[2.0 + 0.1 * np.cos(q[1]), 0.05], [0.05, 1.0]]))
        ds.setComputeFIntFunction(
            lambda t, q, v: np.array([4.0 * q[0] + 0.2 * v[0] + 0.3 * q[0] * q[0] * q[0],
                                      3.0 * q[1] + 0.1 * v[1] - np.sin(t)]),
            lambda t, q, v: np.array([[4.0 + 0.9 * q[0] * q[0], 0.0], [0.0, 3.0]]),
            lambda t, q, v: np.array([[0.2, 0.0], [0.0, 0.1]]))
        ds.setComputeFGyrFunction(
            lambda t, q, v: np.array([0.01 * v[1] * v[1], -0.01 * v[0] * v[1]]),
            lambda t, q, v: np.zeros((2, 2)),
            lambda t, q, v: np.array([[0.0, 0.02 * v[1]], [-0.01 * v[1], -0.01 * v[0]]]))
        rel = (sk.LagrangianScleronomousR(lambda q: np.array([q[0] + 0.5 * q[1] * q[1] + 0.6]),
                                          lambda q: np.array([[1.0, q[1]]]))
               if relation == "scleronomous" else
               sk.LagrangianRheonomousR(lambda t, q: np.array([q[0] + 0.6 + 0.1 * np.sin(t)]),
                                        lambda t, q: np.array([[1.0, 0.0]]),
                                        lambda t, q: np.array([0.1 * np.cos(t)])))
    inter = sk.Interaction(sk.NewtonImpactNSL(0.5), rel)
    nsds = sk.NonSmoothDynamicalSystem(0, 3.0)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.005), sk.MoreauJeanOSI(0.5), sk.LCP())
    q, lam, rows = ds.q(), inter.lambda_(1), []
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append([s.nextTime(), q[0], q[1], lam[0]])
        s.nextStep()
    return np.array(rows)


@pytest.mark.parametrize("relation", ["scleronomous", "rheonomous"])
def test_siconos_lagrangian_and_relation_plugins_run_as_the_python_functions(sk, relation):
    # LagrangianDS(q0, v0, "lib:mass"), setComputeFIntFunction / setComputeJacobianFIntq(Dot)Function,
    # setComputeFGyrFunction / ...FGyrqDotFunction, LagrangianScleronomousR("lib:h", "lib:G") and
    # LagrangianRheonomousR("lib:h", "lib:G", "lib:hdot") with Siconos's signatures
    a, b = _lagrangian(sk, True, relation), _lagrangian(sk, False, relation)
    assert a.shape == (600, 4) and a[:, 3].max() > 1e-3  # it hit the obstacle
    np.testing.assert_array_equal(a, b)


def _constrained(sk, ds, rel):
    """``ds`` under ``rel`` with a complementarity law, Euler–Moreau θ = 1/2 over [0, 8]: its
    states and the multiplier, step by step."""
    inter = sk.Interaction(sk.ComplementarityConditionNSL(1), rel)
    nsds = sk.NonSmoothDynamicalSystem(0, 8.0)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.EulerMoreauOSI(0.5), sk.LCP())
    x, lam, rows = ds.x(), inter.lambda_(0), []
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append([x[0], x[1], lam[0]])
        s.nextStep()
    return np.array(rows)


def _type1(sk, plugins: bool, setters: bool = False):
    """An oscillator kept above y = h(x, z) ≥ 0 by a FirstOrderType1R (complementarity, Euler–Moreau):
    its states."""
    ds = sk.FirstOrderLinearDS([1.0, 0.0], [[0.0, 1.0], [-1.0, -0.1]])
    ds.setzPtr([0.1])
    if plugins and setters:
        rel = sk.FirstOrderType1R("plugins:t1h", "plugins:t1g")
        rel.setComputeJachxFunction("plugins", "t1C")
        rel.setComputeJacglambdaFunction("plugins", "t1B")
    elif plugins:
        rel = sk.FirstOrderType1R("plugins:t1h", "plugins:t1g", "plugins:t1C", "plugins:t1B")
    else:
        rel = sk.FirstOrderType1R(lambda x, z: np.array([x[0] + 0.1 * x[1] * x[1] + 0.1]),
                                  lambda lam, z: np.array([lam[0], 0.5 * lam[0]]),
                                  lambda x, z: np.array([[1.0, 0.2 * x[1]]]),
                                  lambda lam, z: np.array([[1.0], [0.5]]))
    return _constrained(sk, ds, rel)


def test_siconos_first_order_type1_plugins_run_as_the_python_functions(sk):
    a, b, c = _type1(sk, True), _type1(sk, False), _type1(sk, True, setters=True)
    assert a[:, 2].max() > 1e-3  # the constraint acted
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(c, b)


def _type2(sk, plugins: bool):
    ds = sk.FirstOrderLinearDS([1.0, 0.0], [[0.0, 1.0], [-1.0, -0.1]])
    jachx = lambda x, lam: np.array([[1.0, 0.2 * x[1]]])  # noqa: E731
    jachlambda = lambda x, lam: np.array([[0.01]])  # noqa: E731
    jacglambda = lambda lam: np.array([[1.0], [0.5]])  # noqa: E731
    if plugins:
        rel = sk.FirstOrderType2R("plugins:t2h", "plugins:t2g", jachx, jacglambda, jachlambda)
    else:
        rel = sk.FirstOrderType2R(lambda x, lam: np.array([x[0] + 0.1 * x[1] * x[1] + 0.1 + 0.01 * lam[0]]),
                                  lambda lam: np.array([lam[0], 0.5 * lam[0]]), jachx, jacglambda, jachlambda)
    return _constrained(sk, ds, rel)


def test_siconos_first_order_type2_plugins_run_as_the_python_functions(sk):
    a, b = _type2(sk, True), _type2(sk, False)
    assert a[:, 2].max() > 1e-3
    np.testing.assert_array_equal(a, b)
    with pytest.raises(NotImplementedError, match="jachx"):
        sk.FirstOrderType2R("plugins:t2h", "plugins:t2g", "plugins:t1C", "plugins:t1B")


def _linear_r(sk, plugins: bool):
    """An oscillator kept above y = C(t) x + e(t) ≥ 0 by a FirstOrderLinearR with r = B(t) λ."""
    ds = sk.FirstOrderLinearDS([1.0, 0.0], [[0.0, 1.0], [-1.0, -0.1]])
    ds.setzPtr([0.3])
    if plugins:
        rel = sk.FirstOrderLinearR("plugins:lrC", "plugins:lrB")
        rel.setComputeeFunction("plugins", "lre")
    else:
        rel = sk.FirstOrderLinearR(lambda t: np.array([[1.0, 0.1 * np.sin(t)]]),
                                   lambda t: np.array([[1.0], [0.5 + 0.1 * np.cos(t)]]))
        rel.setePtr(lambda t: np.array([0.3 * np.sin(2.0 * t)]))
    return _constrained(sk, ds, rel)


def test_siconos_first_order_linear_r_plugins_run_as_the_python_functions(sk):
    # FirstOrderLinearR("lib:C", "lib:B") and setComputeeFunction: C(t), B(t), e(t) with the system's z
    a, b = _linear_r(sk, True), _linear_r(sk, False)
    assert a[:, 2].max() > 1e-3
    np.testing.assert_array_equal(a, b)


def test_the_third_scleronomous_plugin_is_the_jacobians_rate(sk):
    rel = sk.LagrangianScleronomousR("plugins:h0", "plugins:G0", "plugins:dG0")
    sk.Interaction(sk.NewtonImpactNSL(0.5), rel)
    np.testing.assert_array_equal(rel.dot_jacobian_q(np.array([0.5, 0.3]), np.array([-1.0, 0.7])), [[0.0, 0.7]])


def _newton_euler(sk, plugins: bool):
    if plugins:
        body = sk.NewtonEulerDS([0, 0, 0.5, 1, 0, 0, 0], [0, 0, 0, 1.0, 0, 0], 2.0, np.diag([1.0, 2.0, 3.0]))
        body.setComputeFExtFunction("plugins", "neF")
        body.setComputeMExtFunction("plugins", "neM")
    else:
        class Body(sk.NewtonEulerDS):
            def computeFExt(self, time, fExt=None):
                self.setFExtPtr(np.array([np.cos(time), 0.0, -9.81 + 0.5]))

            def computeMExt(self, time, mExt=None):
                self.setMExtPtr(np.array([0.0, 0.2, 0.1 * np.sin(time)]))

        body = Body([0, 0, 0.5, 1, 0, 0, 0], [0, 0, 0, 1.0, 0, 0], 2.0, np.diag([1.0, 2.0, 3.0]))
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insertDynamicalSystem(body)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3), sk.MoreauJeanOSI(0.5), sk.LCP())
    q, rows = body.q(), []
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append(np.array(q, dtype=float).copy())
        s.nextStep()
    return np.array(rows)


def test_siconos_newton_euler_force_and_moment_plugins_run_as_overridden_methods(sk):
    # NewtonEulerDS.setComputeFExtFunction / setComputeMExtFunction (FExt_NE, z = the initial pose)
    a, b = _newton_euler(sk, True), _newton_euler(sk, False)
    assert a.shape == (1000, 7) and abs(a[-1, 0]) > 0.1  # pushed along x
    np.testing.assert_array_equal(a, b)


def test_a_missing_plugin_library_or_symbol_is_named(sk):
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.eye(3))
    with pytest.raises(FileNotFoundError, match="NoSuchPlugin"):
        ball.setComputeFExtFunction("NoSuchPlugin", "f")
    with pytest.raises(AttributeError, match="no function `nope`"):
        ball.setComputeFExtFunction("BallPlugin", "nope")
    assert os.path.isfile("BallPlugin.so")
