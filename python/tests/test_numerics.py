"""saltus.numerics: complementarity checked on the returned solutions; Siconos .dat files."""

import numpy as np
import pytest
import scipy.sparse as sp

import saltus as sk
from saltus import numerics as nm

from conftest import data_dir


def test_lcp_all_solvers():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((6, 6))
    M = A @ A.T + 6 * np.eye(6)
    q = rng.standard_normal(6)
    for solver in ("lemke", "pgs", "enum", "newton-fb"):
        sol, rep = nm.lcp(M, q, solver=solver, tol=1e-10, max_iter=10000)
        z, w = sol.z, sol.w
        assert rep.converged, (solver, rep)
        assert z.min() >= -1e-10 and w.min() >= -1e-8
        assert np.allclose(w, M @ z + q, atol=1e-8)
        assert abs(z @ w) < 1e-8


def test_lcp_sparse_input_and_report():
    M = sp.csr_matrix(np.array([[2.0, 1.0], [1.0, 2.0]]))
    sol, rep = nm.lcp(M, [-5.0, -6.0])
    assert np.allclose(sol["z"], [4 / 3, 7 / 3]) and rep["status"] == "converged"
    assert set(rep) >= {"status", "iterations", "error", "converged", "seconds"}


def test_mlcp_and_relay():
    sol, rep = nm.mlcp([[2.0, 1.0], [1.0, 2.0]], [-1.0, -2.0], n_eq=1)
    assert rep.converged and np.allclose(sol.z, [0.0, 1.0])
    # relay: w = z - 2 with z in [-1, 1]: z = 1, w = -1 (−w in the normal cone at the upper bound)
    sol, rep = nm.relay([[1.0]], [-2.0], [-1.0], [1.0])
    assert rep.converged and abs(sol.z[0] - 1.0) < 1e-10


def test_qp_kkt():
    # min ½‖x‖² − 3x₁ − x₂ s.t. x₁ + x₂ <= 1 → x = (1.5, −0.5)
    sol, rep = nm.qp(np.eye(2), [-3.0, -1.0], A=[[-1.0, -1.0]], b=[-1.0])
    assert rep.converged and rep.outcome == "optimal"
    assert np.allclose(sol.x, [1.5, -0.5]) and np.allclose(sol["lambda"], [1.5])


def test_fc3d_dense_and_sparse_agree():
    rng = np.random.default_rng(3)
    n = 4
    A = rng.standard_normal((3 * n, 3 * n))
    W = A @ A.T + 3 * n * np.eye(3 * n)
    q = rng.standard_normal(3 * n)
    q[0::3] = -np.abs(q[0::3]) - 0.5
    mu = np.full(n, 0.3)
    s1, r1 = nm.fc3d(W, q, mu, tol=1e-10, max_iter=2000)
    s2, r2 = nm.fc3d(sp.csr_matrix(W), q, mu, tol=1e-10, max_iter=2000)
    assert r1.converged and r2.converged
    assert np.allclose(s1.r, s2.r, atol=1e-8)
    r, u = s1.r, s1.u
    assert np.allclose(u, W @ r + q, atol=1e-8)
    for a in range(n):
        rn, rt = r[3 * a], np.hypot(r[3 * a + 1], r[3 * a + 2])
        assert rn >= -1e-10 and rt <= mu[a] * rn + 1e-8  # inside the Coulomb cone


def test_bad_data_raises():
    with pytest.raises(sk.NumericsError):
        nm.lcp(np.eye(2), [1.0, 2.0, 3.0])
    with pytest.raises(sk.NumericsError, match="no lcp solver `nope`"):
        nm.lcp(np.eye(2), [1.0, 2.0], solver="nope")
    with pytest.raises(sk.NumericsError):
        nm.lcp([[1.0, np.inf], [0.0, 1.0]], [1.0, 2.0])
    with pytest.raises(sk.NumericsError):
        nm.read("/nonexistent/lcp/x.dat")


DATA = data_dir()


@pytest.mark.skipif(not DATA.is_dir(), reason=f"Siconos test data absent ({DATA}); set SALTUS_TEST_DATA")
@pytest.mark.parametrize(
    "family,solver",
    [("lcp", "lemke"), ("mlcp", "enum"), ("relay", "lemke"), ("fc3d", "nsgs-ac"), ("fc2d", "nsgs")],
)
def test_shared_dat_files(family, solver):
    files = [p for p in DATA.rglob("*.dat") if p.parent.name.lower() == family]
    files.sort(key=lambda p: (p.stat().st_size, p.name))  # the smallest problems
    if not files:
        pytest.skip(f"no {family} files under {DATA}")
    solved = 0
    for f in files[:8]:
        try:
            p = nm.read(f, family)
        except sk.NumericsError:
            continue  # a file of another family in the same folder
        assert p.kind == family and p.size > 0
        sol, rep = nm.solve(p, solver, tol=1e-8, max_iter=5000)
        assert np.isfinite(rep.error)
        assert all(np.all(np.isfinite(v)) for v in sol.values())
        if rep.converged:
            assert rep.error <= 1e-8
            solved += 1
    assert solved > 0, f"no {family} problem solved among {files[:8]}"
