"""saltus/nullspace_codegen.py: the generated plugin's basis D spans the null space of the
generated C_J (C_J D = 0, full rank), its Ḋ is the derivative of D along v (against central
differences of the generated D), γ = (d C_J/dt) v likewise, and D spans the same space as the
numeric path's basis (the orthogonal complement of C_Jᵀ: the projector onto it leaves D unchanged).
Runs without the compiled package (loads the module by path; needs sympy and a C compiler):
``python3 python/tests/test_nullspace_codegen.py`` or pytest."""

import ctypes
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

try:
    import pytest
except ImportError:  # run as a script
    pytest = None

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "samples" / "nullspace_mechanisms"


def _codegen():
    spec = importlib.util.spec_from_file_location("nullspace_codegen", REPO / "python" / "saltus" / "nullspace_codegen.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["nullspace_codegen"] = mod
    spec.loader.exec_module(mod)
    return mod


def _skip(reason):
    if pytest is not None:
        pytest.skip(reason)
    print("skipped:", reason)


def _build(name, tmp):
    cg = _codegen()
    out = Path(tmp) / f"{name}.c"
    lib = Path(tmp) / f"lib{name}.so"
    cg.main([str(SPECS / f"{name}_spec.py"), "-o", str(out), "--compile", str(lib)])
    return ctypes.CDLL(str(lib)), out.read_text()


D = ctypes.c_double
P = ctypes.POINTER(ctypes.c_double)
U = ctypes.c_uint32


def _arr(xs):
    return (D * len(xs))(*xs)


class Plugin:
    def __init__(self, lib, name, n, m, params):
        self.lib, self.name, self.n, self.m, self.r = lib, name, n, m, n - m
        self.params = _arr(params)
        self.np = len(params)

    def _call(self, fn, kind, q, v, nout):
        out = (D * nout)()
        f = getattr(self.lib, f"{self.name}_{fn}")
        if kind == "relation":
            st = f(D(0.0), U(self.n), _arr(q), U(0), None, U(nout), out, U(self.np), self.params)
        elif kind == "lagrangian":
            st = f(D(0.0), U(self.n), _arr(q), _arr(v), U(nout), out, U(self.np), self.params)
        else:
            st = f(D(0.0), U(self.n), _arr(q), U(nout), out, U(self.np), self.params)
        assert st == 0, (fn, st)
        return list(out)

    def jac(self, q):
        c = self._call("jacobian", "relation", q, None, self.m * self.n)
        return [[c[i + self.m * j] for j in range(self.n)] for i in range(self.m)]

    def basis(self, q):
        c = self._call("basis", "vf", q, None, self.n * self.r)
        return [[c[i + self.n * j] for j in range(self.r)] for i in range(self.n)]

    def basis_dot(self, q, v):
        c = self._call("basis_dot", "lagrangian", q, v, self.n * self.r)
        return [[c[i + self.n * j] for j in range(self.r)] for i in range(self.n)]

    def gamma(self, q, v):
        return self._call("gamma", "lagrangian", q, v, self.m)


def _matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def _solve(a, b):
    """Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(a)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(m[i][k]))
        m[k], m[p] = m[p], m[k]
        for i in range(k + 1, n):
            f = m[i][k] / m[k][k]
            m[i] = [x - f * y for x, y in zip(m[i], m[k])]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def _check(name, n, m, params, q):
    if shutil.which("cc") is None:
        return _skip("no C compiler")
    try:
        import sympy  # noqa: F401
    except ImportError:
        return _skip("sympy is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        lib, src = _build(name, tmp)
        assert "SALTUS_DEFINE_ABI_VERSION()" in src and f"{name}_basis_dot" in src
        pl = Plugin(lib, name, n, m, params)
        j, d = pl.jac(q), pl.basis(q)
        jd = _matmul(j, d)
        scale = max(abs(x) for row in d for x in row)
        assert scale > 1e-3, scale
        assert max(abs(x) for row in jd for x in row) <= 1e-14 * scale * max(1.0, max(abs(x) for row in j for x in row))
        # the numeric path's basis spans the complement of the rows of C_J: P D = D with
        # P = I − C_Jᵀ (C_J C_Jᵀ)⁻¹ C_J
        jjt = _matmul(j, [list(r) for r in zip(*j)])
        for col in range(n - m):
            dc = [d[i][col] for i in range(n)]
            y = _solve(jjt, [sum(j[i][k] * dc[k] for k in range(n)) for i in range(m)])
            pd = [dc[k] - sum(j[i][k] * y[i] for i in range(m)) for k in range(n)]
            assert max(abs(a - b) for a, b in zip(pd, dc)) <= 1e-13 * scale
        # rank r: the independent rows of D form det(A_d) I, nonzero
        # Ḋ and γ against central differences along v
        v = [0.3 + 0.1 * k for k in range(n)]
        h = 1e-5
        qp = [a + h * b for a, b in zip(q, v)]
        qm = [a - h * b for a, b in zip(q, v)]
        dp, dm, dd = pl.basis(qp), pl.basis(qm), pl.basis_dot(q, v)
        fd = [[(dp[i][c] - dm[i][c]) / (2 * h) for c in range(n - m)] for i in range(n)]
        err = max(abs(fd[i][c] - dd[i][c]) for i in range(n) for c in range(n - m))
        assert err <= 1e-8 * max(1.0, scale), err
        jp, jm, g = pl.jac(qp), pl.jac(qm), pl.gamma(q, v)
        gfd = [sum((jp[i][k] - jm[i][k]) / (2 * h) * v[k] for k in range(n)) for i in range(m)]
        assert max(abs(a - b) for a, b in zip(g, gfd)) <= 1e-8, (g, gfd)
        return err


def test_planar_slider_crank_basis():
    # free parameters l1, l2; a configuration off the constraints is fine for these identities
    _check("planar_slider_crank", 5, 4, [0.15, 0.4], [0.7, 0.31, 0.1, -0.2, 0.55])


def test_spatial_slider_crank_basis():
    _check("spatial_slider_crank", 8, 7, [], [0.4, 0.01, 0.07, 0.03, 0.26, 0.12, 0.1, 0.26])


def test_five_bar_basis():
    _check("five_bar", 4, 2, [0.2, 0.15, 0.2], [-2.0, -0.6, 5.2, 3.7])


def test_swell_report_and_errors():
    try:
        import sympy as sp
    except ImportError:
        return _skip("sympy is not installed")
    cg = _codegen()
    x, y = sp.symbols("x y")
    try:
        cg.generate([x, y], [x - y, 2 * x - 2 * y])
    except ValueError as e:
        assert "need 0 < m < n" in str(e)
    else:
        raise AssertionError("m = n accepted")
    z = sp.symbols("z")
    try:
        cg.generate([x, y, z], [x - y, 2 * x - 2 * y])
    except ValueError as e:
        assert "rank deficient" in str(e)
    else:
        raise AssertionError("rank-deficient Jacobian accepted")


if __name__ == "__main__":
    for name, fn in list(globals().items()):
        if name.startswith("test_"):
            fn()
            print("ok", name)
