"""NCP / MCP / VI with Python callables (`saltus.numerics.ncp`, `mcp`, `box_vi`, `vi`) checked
against known solutions, and their Siconos 4.4 names in `saltus.siconos.numerics` (`NCP`, `MCP`,
`VI`, the drivers, `SolverOptions` iparam/dparam), compared with the real Siconos 4.4 where it is
installed."""

import json
import subprocess
import textwrap

import numpy as np
import pytest

import saltus
from saltus import numerics as nm
from saltus.siconos import SiconosFeatureNotSupported
from saltus.siconos import numerics as sn

from conftest import REPO

S6 = np.sqrt(6.0) / 2.0


def kojima_shindo(x):
    a, b, c, d = x
    return np.array([
        3 * a * a + 2 * a * b + 2 * b * b + c + 3 * d - 6,
        2 * a * a + a + b * b + 10 * c + 2 * d - 2,
        3 * a * a + a * b + 2 * b * b + 2 * c + 9 * d - 9,
        a * a + 3 * b * b + 2 * c + 3 * d - 3,
    ])


def kojima_shindo_jac(x):
    a, b = x[0], x[1]
    return np.array([
        [6 * a + 2 * b, 2 * a + 4 * b, 1, 3],
        [4 * a + 1, 2 * b, 10, 2],
        [6 * a + b, a + 4 * b, 2, 9],
        [2 * a, 6 * b, 2, 3],
    ], dtype=float)


def josephy(x):
    a, b, c, d = x
    return np.array([
        3 * a * a + 2 * a * b + 2 * b * b + c + 3 * d - 6,
        2 * a * a + a + b * b + 3 * c + 2 * d - 2,
        3 * a * a + a * b + 2 * b * b + 2 * c + 3 * d - 1,
        a * a + 3 * b * b + 2 * c + 3 * d - 3,
    ])


def ncp_error(F, z):
    return float(np.linalg.norm(np.minimum(z, F(z))))


@pytest.mark.parametrize("solver", ["newton-fb", "newton-min"])
def test_kojima_shindo_and_josephy(solver):
    sols = [np.array([S6, 0, 0, 0.5]), np.array([1.0, 0, 3, 0])]
    for s in sols:
        assert ncp_error(kojima_shindo, s) < 1e-14
    sol, rep = nm.ncp(kojima_shindo, np.ones(4), jacobian=kojima_shindo_jac, solver=solver, tol=1e-12)
    assert rep.converged and rep.error <= 1e-12, rep
    assert min(np.linalg.norm(sol.z - s) for s in sols) < 1e-10
    assert np.allclose(sol.w, kojima_shindo(sol.z), atol=1e-14)
    assert abs(rep.error - ncp_error(kojima_shindo, sol.z)) < 1e-15
    # Josephy, without a Jacobian (forward differences)
    sol, rep = nm.ncp(josephy, np.ones(4), solver=solver, tol=1e-12)
    assert rep.converged and np.linalg.norm(sol.z - sols[0]) < 1e-8, (sol, rep)


def test_mcp_kkt_of_a_qp():
    # min ½(x1² + 2 x2²) − 2 x1 s.t. x1 + x2 = 1, x ≥ 0: x = (1, 0), μ = −1 (see the Rust test)
    F = lambda z: np.array([z[1] + z[2] - 1, z[1] - 2 - z[0], 2 * z[2] - z[0]])
    sol, rep = nm.mcp(F, 1, np.zeros(3), solver="newton-fb", tol=1e-12)
    assert rep.converged and np.allclose(sol.z, [-1, 1, 0], atol=1e-10), (sol, rep)


@pytest.mark.parametrize("solver", ["newton-fb", "newton-min", "newton-qi", "extragradient", "fixed-point"])
def test_box_vi(solver):
    F = lambda x: np.array([2 * x[0] + x[1] - 5, x[0] + 2 * x[1] + 2])
    sol, rep = nm.box_vi(F, [-1, -1], [1, 1], x0=[0.3, 0.7], solver=solver, tol=1e-12, max_iter=100_000)
    assert rep.converged and np.allclose(sol.z, [1, -1], atol=1e-10), (sol, rep)


def test_vi_on_a_ball_and_a_user_projection():
    a = np.array([3.0, -4.0, 12.0])
    for solver in ("extragradient", "fixed-point"):
        sol, rep = nm.vi(lambda x: x - a, np.zeros(3), center=np.zeros(3), radius=1.0, solver=solver, tol=1e-12)
        assert rep.converged and np.allclose(sol.z, a / 13, atol=1e-10), (solver, sol, rep)

    def proj(x):  # the ball of radius 2
        return x * min(1.0, 2.0 / np.linalg.norm(x)) if np.linalg.norm(x) > 0 else x

    sol, rep = nm.vi(lambda x: x - np.array([6.0, 8.0]), np.zeros(2), projection=proj, tol=1e-12)
    assert rep.converged and np.allclose(sol.z, [1.2, 1.6], atol=1e-10)
    with pytest.raises(saltus.NumericsError, match="box"):
        nm.vi(lambda x: x - a, np.zeros(3), center=np.zeros(3), radius=1.0, solver="newton-fb")


def test_no_solution_is_a_status():
    sol, rep = nm.ncp(lambda z: np.array([-1.0 - z[0] ** 2]), [0.5], max_iter=100)
    assert not rep.converged and rep.status in ("failed", "max_iterations") and rep.error > 0.5


def test_failing_callables_raise_numerics_error():
    def boom(z):
        raise ZeroDivisionError("the user's model")

    with pytest.raises(saltus.NumericsError, match="F failed at iteration 0") as e:
        nm.ncp(boom, np.ones(2))
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    with pytest.raises(saltus.NumericsError, match="non-finite"):
        nm.ncp(lambda z: np.array([np.nan, 1.0]), np.ones(2))
    with pytest.raises(saltus.NumericsError, match="returned 3 values, expected 2"):
        nm.ncp(lambda z: np.ones(3), np.ones(2))
    with pytest.raises(saltus.NumericsError, match="jacobian"):
        nm.ncp(lambda z: z - 1, np.zeros(2), jacobian=lambda z: np.eye(3))
    with pytest.raises(saltus.NumericsError, match="unknown solver"):
        nm.ncp(lambda z: z, np.zeros(2), solver="path")


# ---------------------------------------------------------------------------------------------
# Siconos 4.4 names (saltus.siconos.numerics)
# ---------------------------------------------------------------------------------------------


def ks_F(n, z, F):
    F[:] = kojima_shindo(z)


def ks_nabla(n, z, nabla):
    nabla[:, :] = kojima_shindo_jac(z)


def test_siconos_ncp_and_solver_options():
    ncp = sn.NCP(4, ks_F, ks_nabla)
    for sid in (sn.SICONOS_NCP_NEWTON_FB_FBLSA, sn.SICONOS_NCP_NEWTON_MIN_FBLSA, sn.SICONOS_NCP_PATH):
        so = sn.SolverOptions(sid)
        assert so.dparam[0] in (1e-10, 1e-12) and so.iparam[0] > 0
        z, F = np.array([1.0, 0.0, 2.0, 0.0]), np.zeros(4)  # warm start near (1, 0, 3, 0)
        assert sn.ncp_driver(ncp, z, F, so) == 0
        assert np.allclose(z, [1, 0, 3, 0], atol=1e-10) and np.allclose(F, kojima_shindo(z))
        assert so.iparam[1] >= 1 and so.dparam[1] <= so.dparam[0]
        assert sn.ncp_compute_error(4, z, F, 1e-10) == pytest.approx(so.dparam[1], abs=1e-15)
    so = sn.SolverOptions(sn.SICONOS_NCP_NEWTON_FB_FBLSA)
    so.iparam[0] = 1
    z = np.ones(4)
    assert sn.ncp_newton_FBLSA(ncp, z, np.zeros(4), so) == 1  # one iteration: not converged
    assert so.iparam[1] == 1


def test_siconos_mcp_and_vi():
    def F(n, z, out):
        out[:] = [z[1] + z[2] - 1, z[1] - 2 - z[0], 2 * z[2] - z[0]]

    def J(n, z, out):
        out[:, :] = [[0, 1, 1], [-1, 1, 0], [-1, 0, 2]]

    mcp = sn.MCP(1, 2, F, J)
    for fn in (sn.mcp_newton_FB_FBLSA, sn.mcp_newton_min_FBLSA, sn.mcp_newton_FBLSA, sn.mcp_driver):
        z, w = np.zeros(3), np.zeros(3)
        assert fn(mcp, z, w, sn.SolverOptions(sn.SICONOS_MCP_NEWTON_FB_FBLSA)) == 0
        assert np.allclose(z, [-1, 1, 0], atol=1e-10)
    assert sn.mcp_compute_error(mcp, np.array([-1.0, 1, 0]), np.zeros(3)) == 0.0

    def G(n, x, out):
        out[0] = 2 * x[0] + x[1] - 5
        out[1] = x[0] + 2 * x[1] + 2

    vi = sn.VI(2, G)
    vi.set_box_constraints(np.array([-1.0, -1.0]), np.array([1.0, 1.0]))
    for sid, fn in ((sn.SICONOS_VI_BOX_QI, sn.variationalInequality_box_newton_QiLSA),
                    (sn.SICONOS_VI_EG, sn.variationalInequality_driver),
                    (sn.SICONOS_VI_FPP, sn.variationalInequality_FixedPointProjection)):
        so = sn.SolverOptions(vi, sid)  # the older (problem, id) form the tutorials use
        so.dparam[0] = 1e-12
        x, w = np.zeros(2), np.zeros(2)
        assert fn(vi, x, w, so) == 0, sid
        assert np.allclose(x, [1, -1], atol=1e-10) and so.dparam[1] <= 1e-12


def test_siconos_unsupported_names():
    vi = sn.VI(2, lambda n, x, F: None)
    vi.set_box_constraints(np.zeros(2), np.ones(2))
    for sid in (sn.SICONOS_VI_BOX_AVI_LSA, sn.SICONOS_VI_HP, sn.SICONOS_LCP_LEMKE):
        with pytest.raises(SiconosFeatureNotSupported):
            sn.variationalInequality_driver(vi, np.zeros(2), np.zeros(2), sn.SolverOptions(sid))
    with pytest.raises(SiconosFeatureNotSupported, match="set_compute_F_and_nabla_F_as_C_functions"):
        sn.VI(2).set_compute_F_and_nabla_F_as_C_functions("lib.so", "F", "nablaF")
    with pytest.raises(SiconosFeatureNotSupported):
        sn.mcp_driver(sn.MCP(1, 1, lambda *a: None, None), np.zeros(2), np.zeros(2), sn.SolverOptions(sn.SICONOS_MCP_OLD_FB))
    free = sn.VI(2, lambda n, x, F: None)
    with pytest.raises(SiconosFeatureNotSupported, match="set_box_constraints"):
        sn.variationalInequality_driver(free, np.zeros(2), np.zeros(2), sn.SolverOptions(sn.SICONOS_VI_EG))


SICONOS_SCRIPT = textwrap.dedent("""
    import json, numpy as np, siconos.numerics as sn
    def F(n, z, out):
        a, b, c, d = z
        out[:] = [3*a*a + 2*a*b + 2*b*b + c + 3*d - 6, 2*a*a + a + b*b + 3*c + 2*d - 2,
                  3*a*a + a*b + 2*b*b + 2*c + 3*d - 1, a*a + 3*b*b + 2*c + 3*d - 3]
    def J(n, z, out):
        a, b = z[0], z[1]
        out[:, :] = [[6*a + 2*b, 2*a + 4*b, 1, 3], [4*a + 1, 2*b, 3, 2], [6*a + b, a + 4*b, 2, 3], [2*a, 6*b, 2, 3]]
    res = {}
    for name in ("SICONOS_NCP_NEWTON_FB_FBLSA", "SICONOS_NCP_NEWTON_MIN_FBLSA"):
        so = sn.SolverOptions(getattr(sn, name)); z = np.ones(4); w = np.zeros(4)
        info = sn.ncp_driver(sn.NCP(4, F, J), z, w, so)
        res[name] = [info, z.tolist(), float(so.dparam[1])]
    def G(n, x, out):
        out[0] = 2*x[0] + x[1] - 5; out[1] = x[0] + 2*x[1] + 2
    def GJ(n, x, out):
        out[:, :] = [[2, 1], [1, 2]]
    vi = sn.VI(2, G); vi.set_compute_nabla_F(GJ); vi.set_box_constraints(np.array([-1., -1.]), np.array([1., 1.]))
    so = sn.SolverOptions(sn.SICONOS_VI_BOX_QI); x = np.array([0.3, 0.7]); w = np.zeros(2)
    info = sn.variationalInequality_box_newton_QiLSA(vi, x, w, so)
    res["SICONOS_VI_BOX_QI"] = [info, x.tolist(), float(so.dparam[1])]
    print(json.dumps(res))
""")


def test_agrees_with_siconos_44():
    try:
        out = subprocess.run(["/usr/bin/python3", "-c", SICONOS_SCRIPT], capture_output=True, text=True, timeout=120)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        pytest.skip("Siconos 4.4 (/usr/bin/python3 with python3-siconos) not available")
    if out.returncode != 0:
        pytest.skip(f"Siconos 4.4 not usable here: {out.stderr.strip().splitlines()[-1:]}")
    ref = json.loads(out.stdout.strip().splitlines()[-1])

    def F(n, z, out):
        out[:] = josephy(z)

    for name in ("SICONOS_NCP_NEWTON_FB_FBLSA", "SICONOS_NCP_NEWTON_MIN_FBLSA"):
        so = sn.SolverOptions(getattr(sn, name))
        z, w = np.ones(4), np.zeros(4)
        info = sn.ncp_driver(sn.NCP(4, F, None), z, w, so)
        assert info == ref[name][0] == 0
        assert np.allclose(z, ref[name][1], atol=1e-9) and np.allclose(z, [S6, 0, 0, 0.5], atol=1e-9)
        assert so.dparam[1] <= 1e-10 and ref[name][2] <= 1e-10

    def G(n, x, out):
        out[0] = 2 * x[0] + x[1] - 5
        out[1] = x[0] + 2 * x[1] + 2

    vi = sn.VI(2, G)
    vi.set_box_constraints(np.array([-1.0, -1.0]), np.array([1.0, 1.0]))
    so = sn.SolverOptions(sn.SICONOS_VI_BOX_QI)
    x, w = np.array([0.3, 0.7]), np.zeros(2)
    assert sn.variationalInequality_box_newton_QiLSA(vi, x, w, so) == ref["SICONOS_VI_BOX_QI"][0] == 0
    assert np.allclose(x, [1, -1], atol=1e-10)
    assert np.allclose(x, ref["SICONOS_VI_BOX_QI"][1], atol=1e-10)


def test_plugin_functions(plugin_dir):
    # the testing plugin's vector field `decay`: f(t, x) = −a x, params = [a]; with a = −2,
    # F(z) = 2 z, whose NCP solution is z = 0 (and the MCP's with one equation too)
    plug = {"library": "saltus_plugin_testing", "params": [-2.0], "plugin_dirs": [plugin_dir]}
    sol, rep = nm.ncp("decay", [1.0, 2.0, 0.5], plugin=plug, tol=1e-14)
    assert rep.converged and np.allclose(sol.z, 0, atol=1e-14) and np.allclose(sol.w, 2 * sol.z)
    # no Jacobian function: forward differences; a box VI with F = 2x > 0 at the lower bounds
    sol, rep = nm.box_vi("decay", [1.0, 1.0], [3.0, 4.0], plugin=plug)
    assert rep.converged and np.allclose(sol.z, [1, 1])
    # an unknown symbol or library is a NumericsError
    with pytest.raises(saltus.NumericsError, match="no_such_function"):
        nm.ncp("no_such_function", [1.0], plugin=plug)
    with pytest.raises(saltus.NumericsError):
        nm.ncp("decay", [1.0], plugin={"library": "no_such_library"})


def test_problem_file_same_as_saltus_solve(plugin_dir, saltus_bin, tmp_path):
    # samples/cable_on_obstacle: the NCP of a cable on the floor, F from plugins/complementarity;
    # Python's read() of the XML problem file and `saltus solve` give the same bits
    sample = REPO / "samples/cable_on_obstacle/problems/cable.xml"
    p = nm.read(sample, plugin_dirs=[plugin_dir])
    assert (p.kind, p.size, p.title) == ("ncp", 49, "Cable on the floor")
    assert "newton-fb" in p.solvers()
    sol, rep = nm.solve(p, "newton-fb", tol=1e-12, max_iter=1000)
    assert rep.converged and rep.error <= 1e-12
    assert np.abs(np.minimum(sol.z, sol.w)).max() <= 1e-12
    subprocess.run([str(saltus_bin), "solve", "--solver", "newton-fb", "--tol", "1e-12", "--max-iter", "1000",
                    "--plugin-dir", str(plugin_dir), "--solutions", str(tmp_path), str(sample)],
                   check=True, capture_output=True)
    rows = {l.split()[0]: [float(v) for v in l.split()[1:]]
            for l in (tmp_path / "cable.xml.txt").read_text().splitlines()}
    assert rows["z"] == sol.z.tolist() and rows["w"] == sol.w.tolist()
    # a bad file is a NumericsError with its position
    bad = tmp_path / "bad.xml"
    bad.write_text('<Problem version="1.0"><NCP><F library="x" function="f"/></NCP></Problem>')
    with pytest.raises(saltus.NumericsError, match=r"bad.xml:1:24: NCP: <NCP> needs a <z0>"):
        nm.read(bad)
