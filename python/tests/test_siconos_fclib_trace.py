"""``MechanicsHdf5Runner.run(friction_contact_trace_params=...)``: the FCLib files of a sliding box
(local and global formulations), checked against the problem's equations, Coulomb's law and the
weight the contacts carry, read back by ``frictionContact_fclib_read`` and by ``saltus solve``."""

import glob
import re
import subprocess

import numpy as np
import pytest

import saltus.siconos as compat

G, H, MASS, MU = 9.80665, 1e-3, 1.0, 0.3


@pytest.fixture
def hook():
    compat.install()
    yield
    compat.uninstall()


def _run(path, trace, **kw):
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor
    import siconos.numerics as sn

    with MechanicsHdf5Runner(io_filename=path) as io:
        io.add_primitive_shape("Cube", "Box", [0.2, 0.2, 0.2])
        io.add_primitive_shape("Ground", "Box", [4, 4, 0.2])
        io.add_Newton_impact_friction_nsl("contact", mu=MU)
        # resting on the ground, launched along x: it slides, μ m g decelerating it
        io.add_object("cube", [Contactor("Cube")], translation=[0, 0, 0.1], velocity=[1, 0, 0, 0, 0, 0], mass=MASS)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
    so = kw.pop("solver_options")
    with MechanicsHdf5Runner(io_filename=path, mode="r+") as io:
        io.run(t0=0, T=0.02, h=H, theta=0.5, solver_options=so, friction_contact_trace_params=trace, **kw)
    return sn


def _cone_residual(r, u, mu):
    """‖r − proj_K(r − (u + μ‖u_t‖ e_n))‖ per contact (zero exactly at a Coulomb solution)."""
    out = 0.0
    for k in range(len(mu)):
        rk, uk = r[3 * k:3 * k + 3], u[3 * k:3 * k + 3].copy()
        uk[0] += mu[k] * np.hypot(uk[1], uk[2])
        z = rk - uk
        zn, zt = z[0], np.hypot(z[1], z[2])
        if zt <= mu[k] * zn:
            p = z
        elif mu[k] * zt <= -zn:
            p = np.zeros(3)
        else:
            a = (mu[k] * zt + zn) / (1 + mu[k] ** 2)
            p = np.array([a, mu[k] * a * z[1] / zt, mu[k] * a * z[2] / zt])
        out = max(out, np.linalg.norm(rk - p))
    return out


def _weight_and_slip(r, mu):
    rn, rt = r[0::3], np.hypot(r[1::3], r[2::3])
    return rn.sum(), rt.sum()


def test_local_trace_dumps_each_solved_problem(hook, tmp_path, monkeypatch):
    pytest.importorskip("h5py")
    from siconos.io.FrictionContactTrace import FrictionContactTraceParams
    import siconos.numerics as sn

    monkeypatch.chdir(tmp_path)
    so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1000
    trace = FrictionContactTraceParams(dump_itermax=0, fileName="dumps/cube", title="cube", description="d")
    _run("l.hdf5", trace, solver_options=so)
    files = sorted(glob.glob("dumps/cube-i*.hdf5"), key=lambda f: int(f.rsplit("-", 1)[1][:-5]))
    assert len(files) == 20  # every step: the cube is on the ground throughout
    for k, f in enumerate(files):
        m = re.fullmatch(r"dumps/cube-i(\d{4})-(\d+)-(\d+)\.hdf5", f)
        assert m and int(m.group(3)) == k, f
        p = sn.frictionContact_fclib_read(f)
        assert p.numberOfContacts == int(m.group(2)) >= 3
        import h5py

        with h5py.File(f, "r") as h5:
            r, u = h5["solution/r"][()], h5["solution/u"][()]
            r0, u0 = h5["guesses/1/r"][()], h5["guesses/1/u"][()]
            assert h5["fclib_local/info/title"][()].decode() == "cube"
        np.testing.assert_allclose(p.M @ r + p.q, u, atol=1e-12)
        np.testing.assert_allclose(p.M @ r0 + p.q, u0, atol=1e-12)
        assert _cone_residual(r, u, p.mu) < 1e-9
        rn, rt = _weight_and_slip(r, p.mu)
        assert rn == pytest.approx(MASS * G * H, rel=1e-6)  # the contacts carry the weight
        assert rt == pytest.approx(MU * rn, rel=1e-6)  # sliding: on the cone's edge


def test_global_trace_and_itermax(hook, tmp_path, monkeypatch, saltus_bin):
    pytest.importorskip("h5py")
    import h5py
    from siconos.io.FrictionContactTrace import FrictionContactTraceParams
    import siconos.kernel as sk
    import siconos.numerics as sn

    monkeypatch.chdir(tmp_path)
    so = sn.SolverOptions(sn.SICONOS_GLOBAL_FRICTION_3D_NSGS_WR)
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
    _run("g.hdf5", FrictionContactTraceParams(dump_itermax=0, fileName="g/cube"), solver_options=so,
         osi=sk.MoreauJeanGOSI)
    files = glob.glob("g/cube-ndof-*-nc-*-*.hdf5")
    assert len(files) == 20
    for f in files:
        p = sn.globalFrictionContact_fclib_read(f)
        with h5py.File(f, "r") as h5:
            r, u, v = (h5["solution"][k][()] for k in "ruv")
        np.testing.assert_allclose(p.M @ v, p.H @ r + p.q, atol=1e-12)
        np.testing.assert_allclose(p.H.T @ v + p.b, u, atol=1e-12)
        rn, rt = _weight_and_slip(r, p.mu)
        assert rn == pytest.approx(MASS * G * H, rel=1e-6)
        assert rt == pytest.approx(MU * rn, rel=1e-6)
    # a cap no step reaches: nothing dumped
    so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    _run("n.hdf5", FrictionContactTraceParams(dump_itermax=10**6, fileName="none/cube"), solver_options=so)
    assert glob.glob("none/*") == []
    # `saltus solve` reads a dump back (a build with the hdf5 feature) and solves it again
    out = subprocess.run([str(saltus_bin), "solve", "--type", "gfc3d", "--solver", "gfc3d-nsgs", "--tol", "1e-8", files[0]],
                         capture_output=True, text=True)
    if "hdf5" in out.stderr and out.returncode != 0:
        pytest.skip(f"saltus without the hdf5 feature: {out.stderr.strip()}")
    assert out.returncode == 0, out.stderr
    assert ",converged," in out.stdout, out.stdout
