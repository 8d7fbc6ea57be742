"""The Siconos compatibility layer (`saltus.siconos`): the import hook, `python -m saltus.siconos`,
the kernel's Siconos semantics (live vectors, nextTime, default solvers) checked against closed
forms and Siconos 4.4 trajectories, and the numerics drivers checked against the complementarity
conditions they must satisfy."""

import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import saltus.siconos as compat
from saltus.siconos import SiconosFeatureNotSupported


@pytest.fixture()
def hook():
    compat.install()
    yield
    compat.uninstall()


# ---------------------------------------------------------------------------------------------
# the hook
# ---------------------------------------------------------------------------------------------


def test_hook_resolves_siconos_modules_to_saltus(hook):
    import siconos
    import siconos.kernel as sk
    import siconos.numerics as sn
    from siconos.mechanics.collision.tools import Contactor
    from siconos.mechanics.collision.bullet import SiconosBulletOptions

    import saltus.siconos.kernel as ck

    assert sk.LCP is ck.LCP and sk.__saltus_target__ == "saltus.siconos.kernel"
    assert siconos.version == "4.4.0"
    assert sn.SICONOS_LCP_LEMKE == 200 and sn.SICONOS_IPARAM_MAX_ITER == 0 and sn.SICONOS_DPARAM_TOL == 0
    assert Contactor("Box", collision_group=2).shape_name == "Box"
    assert SiconosBulletOptions().worldScale == 1.0


def test_missing_features_are_named(hook):
    import siconos.kernel as sk

    with pytest.raises(NotImplementedError, match="siconos.kernel.SchatzmanPaoliOSI"):
        sk.SchatzmanPaoliOSI
    with pytest.raises(NotImplementedError, match="siconos.mechanics.occ"):
        import siconos.mechanics.occ  # noqa: F401
    # an ImportError too, for scripts that probe optional modules
    with pytest.raises(ImportError):
        import siconos.mechanics.occ  # noqa: F401,F811
    with pytest.raises(NotImplementedError, match="siconos.io.vview"):
        import siconos.io.vview  # noqa: F401
    # private names stay AttributeErrors (copy, pickle, inspect probe them)
    assert not hasattr(sk, "_private_thing")


def test_uninstall_forgets_the_modules():
    compat.install()
    import siconos.kernel  # noqa: F401

    assert "siconos.kernel" in sys.modules
    compat.uninstall()
    assert not compat.installed()
    assert not any(n == "siconos" or n.startswith("siconos.") for n in sys.modules)


def test_install_refuses_when_the_real_siconos_is_imported():
    fake = types.ModuleType("siconos")
    sys.modules["siconos"] = fake
    try:
        with pytest.raises(RuntimeError, match="already imported"):
            compat.install()
    finally:
        del sys.modules["siconos"]
    assert not compat.installed()


def test_python_m_runs_a_script_as_python_would(tmp_path):
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "helper_mod.py").write_text("VALUE = 42\n")
    script = folder / "probe.py"
    script.write_text(textwrap.dedent("""
        import os, sys
        import siconos.kernel as sk
        import helper_mod          # from the script's folder
        print("argv", sys.argv[1:])
        print("name", __name__)
        print("cwd", os.getcwd())
        print("path0", sys.path[0])
        print("kernel", sk.__saltus_target__, helper_mod.VALUE)
    """))
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    out = subprocess.run(
        [sys.executable, "-m", "saltus.siconos", str(script), "a", "--b=1"],
        cwd=cwd, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    assert out == [
        "argv ['a', '--b=1']",
        "name __main__",
        f"cwd {cwd}",
        f"path0 {folder}",
        "kernel saltus.siconos.kernel 42",
    ]


def test_a_script_error_keeps_its_exit_status(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text("import siconos.kernel as sk\nsk.SchatzmanPaoliOSI()\n")
    p = subprocess.run([sys.executable, "-m", "saltus.siconos", str(script)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "SiconosFeatureNotSupported" in p.stderr and "SchatzmanPaoliOSI" in p.stderr


# ---------------------------------------------------------------------------------------------
# kernel: Siconos semantics
# ---------------------------------------------------------------------------------------------


def _bouncing_ball(sk, T=10.0, h=0.005):
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.diag([1, 1, 2 / 5 * 0.1 * 0.1]))
    ball.setFExtPtr([-9.81, 0, 0])
    inter = sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]))
    nsds = sk.NonSmoothDynamicalSystem(0, T)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, h), sk.MoreauJeanOSI(0.5), sk.LCP())
    return ball, inter, s


def _siconos_loop(ball, inter, s):
    # vectors taken before the simulation is initialised, as the Siconos tutorials do
    q, v, p, lam = ball.q(), ball.velocity(), ball.p(1), inter.lambda_(1)
    rows = [(0.0, q[0], v[0], p[0], lam[0])]
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append((s.nextTime(), q[0], v[0], p[0], lam[0]))
        s.nextStep()
    return np.array(rows)


def test_bouncing_ball_live_vectors_follow_the_state(hook):
    import siconos.kernel as sk

    ball, inter, s = _bouncing_ball(sk)
    data = _siconos_loop(ball, inter, s)
    assert data.shape == (2001, 5)
    t = data[:, 0]
    np.testing.assert_allclose(t, np.arange(2001) * 0.005, rtol=0, atol=1e-14)
    # θ = 1/2 integrates a constant force exactly: free fall until the first impact
    free = t < np.sqrt(2 / 9.81) - 0.005
    np.testing.assert_allclose(data[free, 1], 1 - 9.81 * t[free] ** 2 / 2, rtol=0, atol=1e-14)
    np.testing.assert_allclose(data[free, 2], -9.81 * t[free], rtol=0, atol=1e-13)
    # p(1) = Hᵀ λ(1) with H = [1 0 0]
    np.testing.assert_array_equal(data[:, 3], data[:, 4])
    # impulses at the impacts; a velocity-level law lets the ball sink at most h |v_impact|
    assert data[:, 4].max() > 0 and data[:, 1].min() > -0.005 * np.sqrt(2 * 9.81)


def test_bouncing_ball_matches_siconos(hook, reference_dir):
    import siconos.kernel as sk

    ref = np.loadtxt(reference_dir / "bouncing_ball_ts" / "bouncing_ball_ts.csv", delimiter=",", skiprows=1)
    data = _siconos_loop(*_bouncing_ball(sk))
    # columns t, q0, v0, p0, lambda of the Siconos 4.4 run
    np.testing.assert_allclose(data, ref[:, :5], rtol=0, atol=1e-12)


def test_event_driven_bouncing_ball_matches_siconos(hook, reference_dir):
    import siconos.kernel as sk

    mass = np.diag([1.0, 1.0, 3 / 5 * 0.1**2])
    ball = sk.LagrangianLinearTIDS([1.0, 0, 0], [0.0, 0, 0], mass)
    ball.setFExtPtr([-9.81, 0, 0])
    inter = sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1.0, 0, 0]]))
    nsds = sk.NonSmoothDynamicalSystem(0, 8.5)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    sim = sk.EventDriven(nsds, sk.TimeDiscretisation(0, 0.005))
    sim.insertIntegrator(sk.LsodarOSI())
    # Siconos's levels: the impact problem is SICONOS_OSNSP_ED_IMPACT (1), not 0
    sim.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_IMPACT)
    sim.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_SMOOTH_ACC)
    q, v = ball.q(), ball.velocity()
    rows = []
    while sim.hasNextEvent():
        sim.advanceToEvent()
        sim.processEvents()
        rows.append((sim.startingTime(), q[0], v[0]))
    ref = np.loadtxt(reference_dir / "bouncing_ball_ed" / "bouncing_ball_ed_trajectory.csv", delimiter=",", skiprows=1)
    ref = ref[ref[:, 7] != 1]  # Siconos's pre-impact rows come from its memories (not in Saltus)
    assert len(rows) == len(ref) == 1744
    np.testing.assert_allclose(np.array(rows), ref[:, :3], rtol=0, atol=1e-10)


def test_writes_into_live_vectors(hook):
    import siconos.kernel as sk

    ball, inter, s = _bouncing_ball(sk, T=0.1)
    ball.q()[0] = 2.0  # before the build: the initial condition (as in Siconos)
    s.computeOneStep()
    assert ball.q()[0] == pytest.approx(2.0 - 9.81 * 0.005**2 / 2, abs=1e-15)
    s.nextStep()
    ball.velocity()[0] = 3.0  # between steps: refused, never silently ignored
    with pytest.raises(NotImplementedError, match="between steps"):
        s.computeOneStep()


def test_default_solvers_and_their_options(hook):
    import siconos.kernel as sk
    import siconos.numerics as sn

    assert sk.LCP().numericsSolverOptions().solverId == sn.SICONOS_LCP_LEMKE
    assert sk.Relay().numericsSolverOptions().solverId == sn.SICONOS_RELAY_AVI_CAOFERRIS
    assert sk.MLCP().numericsSolverOptions().solverId == sn.SICONOS_MLCP_ENUM
    fc = sk.FrictionContact(3).numericsSolverOptions()
    assert fc.solverId == sn.SICONOS_FRICTION_3D_NSGS
    assert (fc.iparam[0], fc.dparam[0]) == (1000, 1e-4)  # Siconos 4.4's defaults
    assert sk.FrictionContact(2).numericsSolverOptions().solverId == sn.SICONOS_FRICTION_2D_NSGS
    with pytest.raises(NotImplementedError, match="SICONOS_LCP_LATIN"):
        sk.LCP(sn.SICONOS_LCP_LATIN)
    # the options reach the model: a changed tolerance is written into the solver element
    ball, inter, s = _bouncing_ball(sk, T=0.01)
    s.osnspb.numericsSolverOptions().dparam[sn.SICONOS_DPARAM_TOL] = 1e-9
    assert '<Lemke tol="1e-09" max_iter="10000"' in s.xml()


def test_diode_bridge_matches_siconos(hook, reference_dir):
    import siconos.kernel as sk

    ds = sk.FirstOrderLinearDS([10.0, 0.0], [[0.0, -1e6], [100.0, 0.0]])
    C = [[0, 0], [0, 0], [-1, 0], [1, 0]]
    D = [[1e-3, 1e-3, -1, 0], [1e-3, 1e-3, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0]]
    B = [[0, 0, -1e6, 1e6], [0, 0, 0, 0]]
    rel = sk.FirstOrderLinearTIR(C, B)
    rel.setDPtr(D)
    inter = sk.Interaction(sk.ComplementarityConditionNSL(4), rel)
    nsds = sk.NonSmoothDynamicalSystem(0, 5e-3)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 1e-6), sk.EulerMoreauOSI(0.5), sk.LCP())
    x, y, lam = ds.x(), inter.y(0), inter.lambda_(0)
    rows = []
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append((s.nextTime(), x[0], x[1], *y, *lam))
        s.nextStep()
    ref = np.loadtxt(reference_dir / "diode_bridge" / "diode_bridge.csv", delimiter=",", skiprows=1)
    # reference columns: t, vC, iL, 5 derived, y0..y3, lambda0..lambda3
    want = ref[1:, [0, 1, 2, 8, 9, 10, 11, 12, 13, 14, 15]]
    assert len(rows) == len(want)
    np.testing.assert_allclose(np.array(rows), want, rtol=0, atol=1e-9)


# ---------------------------------------------------------------------------------------------
# numerics: problems, SolverOptions and drivers
# ---------------------------------------------------------------------------------------------


def test_lcp_driver_fills_the_arrays_and_the_options(hook):
    import scipy.sparse as sp
    import siconos.numerics as sn

    rng = np.random.default_rng(3)
    A = rng.normal(size=(6, 6))
    M = A @ A.T + 6 * np.eye(6)
    q = rng.normal(size=6)
    for matrix in (M, sp.csr_matrix(M)):
        for sid in (sn.SICONOS_LCP_LEMKE, sn.SICONOS_LCP_PGS, sn.SICONOS_LCP_NEWTON_FB_FBLSA):
            lcp = sn.LCP(matrix, q)
            so = sn.SolverOptions(sid)
            so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
            z, w = np.zeros(6), np.zeros(6)
            info = sn.linearComplementarity_driver(lcp, z, w, so)
            assert info == 0
            np.testing.assert_allclose(w, M @ z + q, atol=1e-10)
            assert z.min() >= -1e-12 and w.min() >= -1e-10 and abs(z @ w) < 1e-9
            err = sn.lcp_compute_error(lcp, z, w, 1e-12)
            assert err <= 1e-10 and so.dparam[sn.SICONOS_DPARAM_RESIDU] <= 1e-10
            assert so.iparam[sn.SICONOS_IPARAM_ITER_DONE] >= 0


def test_fc3d_driver_one_contact_closed_form(hook):
    import siconos.numerics as sn

    # u = r + q with q = (-1, 2, 0), mu = 0.5: sliding, r on the cone edge opposing the slip
    fc = sn.FrictionContactProblem(3, np.eye(3), np.array([-1.0, 2.0, 0.0]), np.array([0.5]))
    r, u = np.zeros(3), np.zeros(3)
    for solver in (sn.SICONOS_FRICTION_3D_NSGS, sn.SICONOS_FRICTION_3D_TFP):
        r, u = np.zeros(3), np.zeros(3)
        so = sn.SolverOptions(solver)
        so.dparam[0] = 1e-12
        assert sn.fc3d_driver(fc, r, u, so) == 0, solver
        np.testing.assert_allclose(r, [1.0, -0.5, 0.0], atol=1e-10)
        np.testing.assert_allclose(u, [0.0, 1.5, 0.0], atol=1e-10)
    info, err = sn.fc3d_compute_error(fc, r, u, 1e-10)
    assert info == 0 and err < 1e-10
    # a wrong answer has a large error
    assert sn.fc3d_compute_error(fc, np.array([1.0, 0, 0]), np.zeros(3), 1e-10)[1] > 0.1


def test_mlcp_and_unsupported_solvers(hook):
    import siconos.numerics as sn

    M = np.array([[2.0, 1.0], [1.0, 2.0]])
    mlcp = sn.MLCP(1, M, np.array([-1.0, 1.0]))
    z, w = np.zeros(2), np.zeros(2)
    assert sn.mlcp_driver(mlcp, z, w, sn.SolverOptions(sn.SICONOS_MLCP_ENUM)) == 0
    # equality row: w0 = 0 with z0 free; complementarity row: z1 = 0 <= w1
    assert abs(w[0]) < 1e-12 and z[1] == pytest.approx(0.0) and w[1] >= 0
    assert z[0] == pytest.approx(0.5)
    with pytest.raises(NotImplementedError, match="SICONOS_LCP_PATH"):
        sn.linearComplementarity_driver(sn.LCP(M, [1.0, 1.0]), z, w, sn.SolverOptions(sn.SICONOS_LCP_PATH))


# ---------------------------------------------------------------------------------------------
# MechanicsHdf5Runner
# ---------------------------------------------------------------------------------------------


def test_mechanics_runner_ball_falls_and_rests(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor
    import siconos.numerics as sn

    monkeypatch.chdir(tmp_path)
    # the two phases of the tutorials: write the scene, then run it from the file
    with MechanicsHdf5Runner(io_filename="ball.hdf5") as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Ground", "Box", (2, 2, 0.2))
        io.add_Newton_impact_friction_nsl("contact", mu=0.3)
        io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 1], mass=1.0)  # inertia from the sphere
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
    so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
    with MechanicsHdf5Runner(io_filename="ball.hdf5", mode="r+") as io:
        io.run(t0=0, T=1.0, h=1e-3, theta=0.5, solver_options=so, output_frequency=10)
    with h5py.File(tmp_path / "ball.hdf5", "r") as f:
        d = f["data"]
        dyn, static, cf = d["dynamic"][:], d["static"][:], d["cf"][:]
        assert d["velocities"].shape == (102, 8) and d["solv"].shape[1] == 4
        assert d["input"]["ball"].attrs["id"] == 1 and d["input"]["ground"].attrs["id"] == -1
    assert dyn.shape == (102, 9) and set(dyn[:, 1]) == {1.0}
    # the static objects as Siconos leaves them: rewritten at each output, the last one's time
    assert static.shape == (1, 9) and static[0, 1] == -1 and static[0, 4] == pytest.approx(-0.1)
    assert static[0, 0] == pytest.approx(1.0)
    t, z = dyn[:, 0], dyn[:, 4]
    # as Siconos: the initial state, the first step, then every output_frequency-th step
    np.testing.assert_allclose(t, np.r_[0.0, 0.001, np.arange(1, 101) * 0.01], atol=1e-12)
    # free fall (θ = 1/2 is exact for a constant force) until the ball reaches the margin
    fall = t < 0.38
    np.testing.assert_allclose(z[fall], 1 - 9.80665 * t[fall] ** 2 / 2, atol=1e-9)
    # at rest on the ground at the end (e = 0), at most the collision margin above it
    assert abs(z[-1] - 0.1) < 0.02
    # contacts: the law's mu, a vertical normal, a positive normal impulse
    assert len(cf) > 0 and np.all(cf[:, 1] == 0.3)
    np.testing.assert_allclose(np.abs(cf[-1, 8:11]), [0, 0, 1], atol=1e-9)
    assert cf[-1, 20] > 0


def test_mechanics_runner_moreau_jean_gosi(hook, tmp_path, monkeypatch):
    """run(osi=MoreauJeanGOSI): the global formulation (GlobalFrictionContact, Siconos's default
    solver GFC3D_NSGS or the one given); a box resting on the ground carries m g h per step and
    stays; with rolling friction, GLOBAL_ROLLING_FRICTION_3D_NSGS_WR: a rolling ball stops where its
    rolling resistance says."""
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor
    import siconos.kernel as sk
    import siconos.numerics as sn

    monkeypatch.chdir(tmp_path)
    for k, solver in enumerate((None, sn.SICONOS_GLOBAL_FRICTION_3D_NSGS_WR, sn.SICONOS_GLOBAL_FRICTION_3D_ADMM)):
        path = f"box{k}.hdf5"
        with MechanicsHdf5Runner(io_filename=path) as io:
            io.add_primitive_shape("Cube", "Box", (0.2, 0.2, 0.2))
            io.add_primitive_shape("Ground", "Box", (2, 2, 0.2))
            io.add_Newton_impact_friction_nsl("contact", mu=0.3)
            io.add_object("box", [Contactor("Cube")], translation=[0, 0, 0.1], mass=2.0)
            io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
        so = None
        if solver is not None:
            so = sk.solver_options_create(solver)
            so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
            so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 100000
        with MechanicsHdf5Runner(io_filename=path, mode="r+") as io:
            io.run(t0=0, T=0.1, h=1e-3, theta=0.5, osi=sk.MoreauJeanGOSI, solver_options=so, output_frequency=10)
        with h5py.File(tmp_path / path, "r") as f:
            dyn, cf = f["data"]["dynamic"][:], f["data"]["cf"][:]
        assert abs(dyn[-1, 4] - 0.1) < 1e-8, solver
        last = cf[cf[:, 0] == cf[:, 0].max()]
        assert last[:, 20].sum() == pytest.approx(2.0 * 9.80665 * 1e-3, rel=1e-6), solver
    # rolling friction: GlobalRollingFrictionContact, SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR
    # (Siconos's only global rolling solver); a ball rolling without slip at v0 stops after
    # D = v0² / (2 a), a = (5/7) g mu_r / R
    v0, radius, mu_r, g = 0.5, 0.1, 0.01, 9.80665
    with MechanicsHdf5Runner(io_filename="r.hdf5") as io:
        io.add_primitive_shape("Ball", "Sphere", [radius])
        io.add_primitive_shape("Ground", "Box", (2, 2, 0.2))
        io.add_Newton_impact_rolling_friction_nsl("contact", mu=0.3, mu_r=mu_r)
        io.add_object("ball", [Contactor("Ball")], translation=[0, 0, radius], velocity=[v0, 0, 0, 0, v0 / radius, 0],
                      mass=1.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
    with MechanicsHdf5Runner(io_filename="r.hdf5", mode="r+") as io:
        with pytest.raises(NotImplementedError, match="SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR"):
            io.run(T=0.01, osi=sk.MoreauJeanGOSI)
    so = sk.solver_options_create(sn.SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR)
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    with MechanicsHdf5Runner(io_filename="r.hdf5", mode="r+") as io:
        io.run(t0=0, T=1.0, h=1e-3, theta=0.5, osi=sk.MoreauJeanGOSI, solver_options=so, output_frequency=10)
    with h5py.File(tmp_path / "r.hdf5", "r") as f:
        dyn = f["data"]["dynamic"][:]
    a = 5.0 / 7.0 * g * mu_r / radius
    assert abs(dyn[-1, 2] - v0 * v0 / (2 * a)) <= v0 * 1e-3, dyn[-1]


def test_mechanics_runner_names_what_it_lacks(hook, tmp_path, monkeypatch):
    pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="x.hdf5") as io:
        with pytest.raises(NotImplementedError, match="add_mesh_from_file"):
            io.add_mesh_from_file("m", "m.ply")
        with pytest.raises(NotImplementedError, match="OpenCascade"):
            io.add_shape_data_from_file("m", "m.step")
        with pytest.raises(NotImplementedError, match="Capsule2d"):
            io.add_primitive_shape("c", "Capsule2d", (1,))
        io.add_primitive_shape("s", "Sphere", (1,))
        with pytest.raises(ValueError, match="mix 2D and 3D"):  # as Siconos
            io.add_primitive_shape("d", "Disk", (1,))
    with MechanicsHdf5Runner(io_filename="x.hdf5", mode="r+") as io:
        with pytest.raises(NotImplementedError, match="a SiconosBulletCollisionManager subclass"):
            io.run(T=0.01, interaction_manager=object())


def test_bullet_r_subclass_changes_the_contact_normals(hook, tmp_path, monkeypatch):
    """modify_normals.py's pattern: a manager whose makeBulletR returns a BulletR subclass that
    changes relNc in updateContactPointsFromManifoldPoint. Tilting the ground's normal by α
    pushes a frictionless ball sideways and the written contact normals are the tilted ones; a
    subclass that keeps the normal gives the run without a manager, to the bit; every relation
    made is deleted by the end."""
    h5py = pytest.importorskip("h5py")
    import siconos.mechanics as Mechanics
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    alpha, made, deleted = 0.15, [], []

    class Tilted(Mechanics.collision.bullet.BulletR):
        def updateContactPointsFromManifoldPoint(self, manifold, point, flip, scaling, ds1, ds2):
            super().updateContactPointsFromManifoldPoint(manifold, point, flip, scaling, ds1, ds2)
            assert ds2 is None and ds1.q().shape == (7,) and ds1.velocity().shape == (6,)
            n = self.relNc()
            np.testing.assert_allclose(n, [0, 0, 1], atol=1e-12)  # the ground's, towards the ball
            self.setRelNc([np.sin(alpha) * n[2], 0.0, np.cos(alpha) * n[2]])

        def preDelete(self):
            deleted.append(self)

    class Kept(Mechanics.collision.bullet.BulletR):
        pass

    def manager(relation):
        class Manager(Mechanics.collision.bullet.SiconosBulletCollisionManager):
            def __init__(self, options):
                super().__init__(options)

            def makeBulletR(self, ds1, shape1, ds2, shape2, manifoldpoint, flip=False, y_correction_A=0,
                            y_correction_B=0, scaling=1):
                made.append(relation())
                return made[-1]

        return Manager

    def run(name, manager_class):
        with MechanicsHdf5Runner(io_filename=name) as io:
            io.add_primitive_shape("Ball", "Sphere", [0.1])
            io.add_primitive_shape("Ground", "Box", (2, 2, 0.2))
            io.add_Newton_impact_friction_nsl("contact", mu=0.0, e=0.0)
            io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 0.3], mass=1.0)
            io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
        with MechanicsHdf5Runner(io_filename=name, mode="r+") as io:
            io.run(t0=0, T=0.5, h=1e-3, theta=0.5, output_frequency=10, interaction_manager=manager_class)
        with h5py.File(tmp_path / name, "r") as f:
            return f["data"]["dynamic"][:], f["data"]["velocities"][:], f["data"]["cf"][:]

    dyn, vel, cf = run("tilted.hdf5", manager(Tilted))
    assert len(made) >= 1 and sorted(map(id, deleted)) == sorted(map(id, made))
    assert len(cf) > 0
    np.testing.assert_allclose(np.abs(cf[:, 8:11]), np.tile([np.sin(alpha), 0, np.cos(alpha)], (len(cf), 1)),
                               atol=1e-12)
    assert vel[-1, 2] > 0.1 and dyn[-1, 2] > 0.01  # pushed along +x
    plain = run("plain.hdf5", None)
    kept = run("kept.hdf5", manager(Kept))
    for a, b in zip(plain, kept):
        np.testing.assert_array_equal(a, b)
    assert abs(plain[1][-1, 2]) < 1e-12  # without the tilt the ball does not move sideways


def test_mechanics_runner_meshes_from_files(hook, tmp_path, monkeypatch):
    """add_mesh_from_file: a dynamic object collides with the hull of the mesh (the d20 die of
    samples/mesh_files rests on a face: its centre at the inradius), a static one with the mesh
    (the OBJ floor)."""
    import math
    import shutil

    pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    from conftest import SAMPLES

    monkeypatch.chdir(tmp_path)
    for f in ("d20.stl", "floor.obj"):
        shutil.copy(SAMPLES / "mesh_files" / f, tmp_path / f)
    with MechanicsHdf5Runner(io_filename="m.hdf5") as io:
        io.add_mesh_from_file("Die", "d20.stl", scale=0.05)
        io.add_shape_data_from_file("Floor", "floor.obj")
        io.add_Newton_impact_friction_nsl("contact", mu=0.5, e=0.0)
        io.add_object("die", [Contactor("Die")], translation=[0, 0, 0.2], velocity=[0, 0, 0, 3, -2, 1], mass=0.3)
        io.add_object("ground", [Contactor("Floor")], translation=[0, 0, 0])
    with MechanicsHdf5Runner(io_filename="m.hdf5", mode="r+") as io:
        io.run(T=1.5, h=1e-3, theta=0.5)
        dyn = io.dynamic_data()[:]
    phi = (1 + math.sqrt(5)) / 2
    r_in = 0.05 * phi * phi / (2 * math.sqrt(3)) * 2 / math.sqrt(1 + phi * phi)
    last = dyn[dyn[:, 0] == dyn[:, 0].max()]
    assert last.shape[0] == 1 and last[0, 4] == pytest.approx(r_in, abs=5e-5)
    # stored as Siconos stores meshes: the VTK PolyData text (what siconos_vview draws), the d20's
    # 12 vertices (on its circumsphere: radius 1 in the file, times the scale) and 20 triangles
    import h5py

    from saltus.siconos.io._vtp import polydata, read_polydata

    with h5py.File(tmp_path / "m.hdf5", "r") as f:
        d = f["data/ref/Die"]
        assert d.attrs["type"] == "vtp"
        v, t = read_polydata(d[0].decode(), "Die")
    assert v.shape == (12, 3) and t.shape == (20, 3)
    assert np.abs(np.linalg.norm(v, axis=1) - 0.05).max() < 1e-12
    # add_mesh_from_string: the same text given back (a static floor of two triangles)
    floor = polydata([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], [[0, 1, 2], [0, 2, 3]])
    with MechanicsHdf5Runner(io_filename="s.hdf5") as io:
        io.add_mesh_from_string("Floor", floor)
        io.add_primitive_shape("Ball", "Sphere", (0.1,))
        io.add_Newton_impact_friction_nsl("contact", mu=0.5, e=0.0)
        io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 0.3], mass=1.0)
        io.add_object("ground", [Contactor("Floor")], translation=[0, 0, 0])
        with pytest.raises(NotImplementedError, match="format 'appended'"):
            io.add_mesh_from_string("Bad", floor.replace('format="ascii"', 'format="appended"'))
    with MechanicsHdf5Runner(io_filename="s.hdf5", mode="r+") as io:
        io.run(T=0.5, h=1e-3, theta=0.5)
        dyn = io.dynamic_data()[:]
    # rests on the floor, sunk by at most one step of its impact speed √(2 g 0.2) (velocity-level impact)
    assert dyn[-1, 4] == pytest.approx(0.1, abs=1e-3 * math.sqrt(2 * 9.81 * 0.2))


def test_mechanics_runner_external_forces_and_boundary_conditions(hook, tmp_path, monkeypatch):
    """Siconos's set_external_forces (once per body, replacing gravity) and
    add_boundary_condition: a ball pushed by setFExtPtr falls with a = F/m exactly (θ = ½), one
    under no force at all stays, one with a HarmonicBC on vz follows its law."""
    pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="f.hdf5") as io:
        io.add_primitive_shape("Ball", "Sphere", (0.1,))
        io.add_Newton_impact_friction_nsl("contact", mu=0.3)
        io.add_object("pushed", [Contactor("Ball")], translation=[0, 0, 1], mass=2.0)
        io.add_object("idle", [Contactor("Ball")], translation=[5, 0, 1], mass=1.0)
        io.add_object("shaken", [Contactor("Ball")], translation=[10, 0, 1], mass=1.0)
        io.add_boundary_condition("vib", "shaken", indices=[2], bc_class="HarmonicBC", a=0.0, b=0.5,
                                  omega=10.0, phi=0.0)

    def forces(body):
        if body.number() == 1:
            body.setFExtPtr([0.0, 0.0, -3.0 * body.scalarMass()])

    with MechanicsHdf5Runner(io_filename="f.hdf5", mode="r+", set_external_forces=forces) as io:
        io.run(T=0.5, h=0.01, theta=0.5)
        dyn, vel = io.dynamic_data()[:], io.velocities_data()[:]
    last = dyn[dyn[:, 0] == dyn[:, 0].max()]
    z = {int(r[1]): r[4] for r in last}
    assert z[1] == pytest.approx(1 - 3.0 * 0.5**2 / 2, abs=1e-12)
    assert z[2] == 1.0
    v3 = vel[vel[:, 1] == 3]
    t = v3[:, 0]
    np.testing.assert_allclose(v3[t > 0, 4], 0.5 * np.cos(10.0 * t[t > 0]), atol=1e-12)


def test_convexhull_of_a_box_has_the_box_inertia(hook):
    import itertools

    from siconos.mechanics.collision.convexhull import ConvexHull

    pts = np.array(list(itertools.product([-1, 1], [-2, 2], [-0.5, 0.5])), dtype=float) + [1, 2, 3]
    ch = ConvexHull(pts)
    assert ch.volume() == pytest.approx(8.0)
    np.testing.assert_allclose(ch.centroid(), [1, 2, 3], atol=1e-12)
    inertia, volume = ch.inertia(ch.centroid())
    # a 2 × 4 × 1 box of unit density: m / 12 (b² + c²), ...
    np.testing.assert_allclose(inertia, np.diag([8 / 12 * 17, 8 / 12 * 5, 8 / 12 * 20]), atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Siconos tutorials run unchanged (the fast subset of the census; all: benches/siconos_census.py)
# ---------------------------------------------------------------------------------------------

FAST_TUTORIALS = [
    # (script, what shows it agrees with Siconos)
    ("mechanics/BouncingBall/BouncingBallTS.py", "no-warning"),  # compares itself with its .ref
    ("control/Relay/SimpleExampleRelay.py", "exit"),  # asserts its .ref to 1e-12
    ("electronics/CircuitRLCD/CircuitRLCD.py", "exit"),  # asserts its .ref
    ("control/RelayOscillator/RelayOscillator.py", "exit"),
    ("mechanics/GeometricPrimitives/capsule.py", "exit"),  # MechanicsHdf5Runner
    # the θ-γ scheme (EulerMoreauOSI(θ, γ) + setUseGammaForRelation): prints ‖dataPlot − .ref‖,
    # 1.33e-10 on Siconos 4.4 (every column agrees with Siconos's run to 2.2e-13)
    ("electronics/Circuit-ThetaGammaSchemes/DiodeBridge-ThetaGammaSchemes.py", "ref-error"),
]


@pytest.mark.parametrize("script,check", FAST_TUTORIALS, ids=[s for s, _ in FAST_TUTORIALS])
def test_siconos_tutorial_runs_unchanged(script, check, tmp_path):
    import shutil

    from conftest import shared_dir

    src = shared_dir() / "siconos-tutorials" / "examples" / script
    if not src.exists():
        pytest.skip(f"Siconos tutorials absent ({src}); set SALTUS_SHARED")
    work = tmp_path / src.parent.name
    shutil.copytree(src.parent, work, ignore=shutil.ignore_patterns("*.hdf5"))
    env = {**os.environ, "MPLBACKEND": "Agg"}
    p = subprocess.run([sys.executable, "-m", "saltus.siconos", str(work / src.name)],
                       cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    if check == "no-warning":
        assert "rather different from the reference" not in p.stdout
    if check == "ref-error":
        err = float(p.stdout.split("error =")[-1].split()[0])
        assert err < 1e-8, p.stdout[-500:]


def test_mechanics_runner_second_run_continues_the_file(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)

    def scene(path):
        with MechanicsHdf5Runner(io_filename=path) as io:
            io.add_primitive_shape("Ball", "Sphere", [0.1])
            io.add_primitive_shape("Ground", "Box", (2, 2, 0.2))
            io.add_Newton_impact_friction_nsl("contact", mu=0.3)
            io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 1], velocity=[1, 0, 0, 0, 0, 2], mass=1.0)
            io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])

    scene("one.hdf5")
    with MechanicsHdf5Runner(io_filename="one.hdf5", mode="r+") as io:
        io.run(t0=0, T=0.3, h=1e-3, theta=0.5, output_frequency=100)
    scene("two.hdf5")
    with MechanicsHdf5Runner(io_filename="two.hdf5", mode="r+") as io:
        io.run(t0=0, T=0.2, h=1e-3, theta=0.5, output_frequency=100)
    with MechanicsHdf5Runner(io_filename="two.hdf5", mode="r+") as io:
        io.run(t0=0.2, T=0.3, h=1e-3, theta=0.5, output_frequency=100)
    with h5py.File("one.hdf5", "r") as f1, h5py.File("two.hdf5", "r") as f2:
        a, b = f1["data"]["dynamic"][:], f2["data"]["dynamic"][:]
        va, vb = f1["data"]["velocities"][:], f2["data"]["velocities"][:]
    # rows at t = 0, 0.001 (the first step), 0.1, 0.2 (first run), 0.2 again (second run's start:
    # its first step is Siconos's step 201, not written), 0.3
    np.testing.assert_allclose(b[:, 0], [0, 0.001, 0.1, 0.2, 0.2, 0.3], atol=1e-12)
    # free flight (the ball lands after 0.3 s): the restart gives the same state as one run
    np.testing.assert_allclose(b[[0, 1, 2, 3, 5]], a, rtol=0, atol=1e-12)
    np.testing.assert_allclose(vb[[0, 1, 2, 3, 5]], va, rtol=0, atol=1e-12)


def test_fclib_files_read_and_solved(hook):
    pytest.importorskip("h5py")
    import siconos.numerics as sn
    from conftest import data_dir

    local = data_dir() / "numerics" / "fc3d" / "Capsules-i125-1213.hdf5"
    glob = data_dir() / "numerics" / "fc3d-global" / "Box_Stacks-i0122-82-5.hdf5"
    if not (local.exists() and glob.exists()):
        pytest.skip(f"FCLib test data absent ({local.parent}); set SALTUS_TEST_DATA")
    p = sn.frictionContact_fclib_read(str(local))
    assert p.dimension == 3 and p.M.shape == (858, 858) and p.numberOfContacts == 286
    so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    so.dparam[sn.SICONOS_DPARAM_TOL], so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 1e-8, 10000
    r, u = np.zeros(858), np.zeros(858)
    assert sn.fc3d_driver(p, r, u, so) == 0
    info, err = sn.fc3d_compute_error(p, r, u, 1e-8)  # recomputed here, from r alone
    assert info == 0 and err <= 1e-8 and err == pytest.approx(so.dparam[sn.SICONOS_DPARAM_RESIDU], rel=1e-6)

    g = sn.globalFrictionContact_fclib_read(str(glob))
    n, m = g.H.shape[1], g.M.shape[0]
    so = sn.SolverOptions(sn.SICONOS_GLOBAL_FRICTION_3D_NSGS_WR)
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-8
    r, u, v = np.zeros(n), np.zeros(n), np.zeros(m)
    assert sn.gfc3d_driver(g, r, u, v, so) == 0
    np.testing.assert_allclose(g.M @ v, g.H @ r + g.q, atol=1e-9)
    np.testing.assert_allclose(u, g.H.T @ v + g.b, atol=1e-12)
    rn, rt = r[0::3], np.hypot(r[1::3], r[2::3])
    assert np.all(rt <= g.mu * rn + 1e-8)  # reactions in their Coulomb cones


def test_mechanics_runner_births_and_deaths(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="tob.hdf5") as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_Newton_impact_friction_nsl("contact", mu=0.3)
        io.add_object("a", [Contactor("Ball")], translation=[0, 0, 10], mass=1.0, time_of_death=0.3)
        io.add_object("b", [Contactor("Ball")], translation=[5, 0, 10], mass=1.0, time_of_birth=0.1)
        io.add_object("c", [Contactor("Ball")], translation=[10, 0, 10], mass=1.0)
    with MechanicsHdf5Runner(io_filename="tob.hdf5", mode="r+") as io:
        io.run(t0=0, T=0.4, h=1e-3, theta=0.5, output_frequency=50)
    with h5py.File("tob.hdf5", "r") as f:
        dyn = f["data"]["dynamic"][:]
    g = 9.80665
    for t in np.round(np.arange(0, 0.401, 0.05), 10):
        rows = dyn[np.abs(dyn[:, 0] - t) < 1e-9]
        alive = sorted(int(i) for i in rows[:, 1])
        # as in Siconos, births and deaths act at the start of the step that ends at their time:
        # the output at that time is the first with, or without, the body
        expected = [i for i, born, dead in ((1, 0, 0.3), (2, 0.1, 9), (3, 0, 9))
                    if born <= t + 1e-12 and t < dead - 1e-12]
        assert alive == expected, t
        z = dict(zip(rows[:, 1].astype(int), rows[:, 4]))
        # free fall from each body's birth, exact for θ = 1/2, across the rebuilds of the scene
        assert z[3] == pytest.approx(10 - g * t * t / 2, abs=1e-9)
        if 2 in z:
            tb = 0.1 - 0.001  # it enters the step [0.099, 0.1]
            assert z[2] == pytest.approx(10 - g * (t - tb) ** 2 / 2, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Siconos >= 4.5's run options, frictionless laws, joint stops, control, small helpers
# ---------------------------------------------------------------------------------------------


def _ball_scene(path, MechanicsHdf5Runner, Contactor):
    with MechanicsHdf5Runner(io_filename=path) as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Ground", "Box", (2, 2, 0.2))
        io.add_Newton_impact_friction_nsl("contact", mu=0.3, e=0.5)
        io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 0.5], mass=1.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])


def test_run_options_dict_is_the_run_keywords(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    import siconos.kernel as sk
    from siconos.io.mechanics_run import MechanicsHdf5Runner, MechanicsHdf5Runner_run_options
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    opts = MechanicsHdf5Runner_run_options()
    # Siconos >= 4.5's defaults
    assert opts["T"] == 10 and opts["h"] == 5e-4 and opts["theta"] == 0.50001 and opts["gravity_scale"] == 1.0
    assert opts["osi"] is sk.MoreauJeanOSI and opts["output_contact_index_set"] == 1
    opts.update(T=0.5, h=1e-3, output_frequency=10, osns_assembly_type=sk.REDUCED_DIRECT, Newton_tolerance=1e-8,
                skip_reset_lambdas=True, constraint_activation_threshold=1e-5)
    opts["constraints_activation_threshold"] = 0.1  # misspelt: ignored, as Siconos ignores it
    dyn = {}
    for name, run in (("dict", lambda io: io.run(opts)),
                      ("kw", lambda io: io.run(T=0.5, h=1e-3, output_frequency=10, constraint_activation_threshold=1e-5))):
        _ball_scene(f"{name}.hdf5", MechanicsHdf5Runner, Contactor)
        with MechanicsHdf5Runner(io_filename=f"{name}.hdf5", mode="r+") as io:
            run(io)
        with h5py.File(f"{name}.hdf5", "r") as f:
            dyn[name] = f["data/dynamic"][:]
    assert dyn["dict"].shape == (52, 9)  # t = 0, the first step, then every 10th
    np.testing.assert_array_equal(dyn["dict"], dyn["kw"])
    # a key with an effect Saltus lacks is named
    _ball_scene("x.hdf5", MechanicsHdf5Runner, Contactor)
    bad = MechanicsHdf5Runner_run_options()
    bad.update(T=0.01, output_backup=True)
    with MechanicsHdf5Runner(io_filename="x.hdf5", mode="r+") as io:
        with pytest.raises(NotImplementedError, match="output_backup"):
            io.run(bad)
    # Siconos >= 4.5's velocity-level activation runs (the rock_protection_wall tutorial's setting)
    ok = MechanicsHdf5Runner_run_options()
    ok.update(T=0.05, h=1e-3, activate_with_negative_relative_velocity=True,
              constraint_activation_threshold_velocity=1e-5)
    with MechanicsHdf5Runner(io_filename="x.hdf5", mode="r+") as io:
        io.run(ok)


def test_output_contact_index_set_zero_writes_every_detected_contact(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    n = {}
    for k in (0, 1):
        _ball_scene(f"i{k}.hdf5", MechanicsHdf5Runner, Contactor)
        with MechanicsHdf5Runner(io_filename=f"i{k}.hdf5", mode="r+") as io:
            # the ball bounces (e = 0.5): within the margin but separating, detected, not active
            io.run(T=0.6, h=1e-3, output_contact_index_set=k)
        with h5py.File(f"i{k}.hdf5", "r") as f:
            n[k] = f["data/cf"].shape[0]
    assert n[0] > n[1] > 0


def test_frictionless_contacts_and_joint_stop_laws(hook, tmp_path, monkeypatch):
    """``add_Newton_impact_nsl`` between two groups: frictionless contacts (a block sliding on
    the ground keeps its horizontal velocity, exactly); with the default groups (-1) the law is
    only for joint stops, not contacts (the ball of group 1 falls through the ground)."""
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="nf.hdf5") as io:
        io.add_primitive_shape("Block", "Box", (0.2, 0.2, 0.2))
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Ground", "Box", (20, 20, 0.2))
        io.add_Newton_impact_nsl("slide", e=0.0, collision_group1=0, collision_group2=0)
        io.add_Newton_impact_nsl("stop", e=0.5)  # groups -1: joint stops only
        io.add_object("block", [Contactor("Block")], translation=[0, 0, 0.1], velocity=[2, 1, 0, 0, 0, 0], mass=1.0)
        io.add_object("ball", [Contactor("Ball", collision_group=1)], translation=[3, 0, 0.5], mass=1.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
    with MechanicsHdf5Runner(io_filename="nf.hdf5", mode="r+") as io:
        io.run(T=1.0, h=1e-3, theta=0.5)
    with h5py.File("nf.hdf5", "r") as f:
        dyn, vel, cf = f["data/dynamic"][:], f["data/velocities"][:], f["data/cf"][:]
    last = dyn[np.abs(dyn[:, 0] - 1.0) < 1e-9]
    block, ball = last[last[:, 1] == 1][0], last[last[:, 1] == 2][0]
    np.testing.assert_allclose(block[2:4], [2.0, 1.0], atol=1e-9)  # x = v t, no friction
    assert abs(block[4] - 0.1) < 0.02
    v = vel[(np.abs(vel[:, 0] - 1.0) < 1e-9) & (vel[:, 1] == 1)][0]
    np.testing.assert_allclose(v[2:4], [2.0, 1.0], atol=1e-9)
    assert ball[4] == pytest.approx(0.5 - 9.80665 / 2, abs=1e-9)  # free fall through the ground
    assert len(cf) > 0 and np.all(cf[:, 1] == 0.0)  # mu = 0 in data/cf
    np.testing.assert_allclose(cf[:, 12:14], 0.0, atol=1e-12)  # no tangential reaction


def _tutorial(script, tmp_path, timeout=300):
    import shutil

    from conftest import shared_dir

    src = shared_dir() / "siconos-tutorials" / "examples" / script
    if not src.exists():
        pytest.skip(f"Siconos tutorials absent ({src}); set SALTUS_SHARED")
    work = tmp_path / src.parent.name
    shutil.copytree(src.parent, work, ignore=shutil.ignore_patterns("*.hdf5"))
    env = {**os.environ, "MPLBACKEND": "Agg"}
    p = subprocess.run([sys.executable, "-m", "saltus.siconos", str(work / src.name)],
                       cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-2000:]
    return work


def _final_poses(path):
    h5py = pytest.importorskip("h5py")
    with h5py.File(path, "r") as f:
        d = f["data/dynamic"][:]
        names = {int(o.attrs["id"]): n for n, o in f["data/input"].items()}
    t = d[:, 0].max()
    return t, {names[int(r[1])]: r[2:5] for r in d[np.abs(d[:, 0] - t) < 1e-9]}


def test_joint_stops_tutorial_matches_siconos(tmp_path):
    """``JointsTestsWithContactDetection/Joint_stops.py``: two cubes on prismatic joints with
    stops at ±2 (e = 0.8), the lower one thrown up at 20 m/s across its slider, the cubes
    colliding with each other (``allow_self_collide``). Siconos 4.4 (``/usr/bin/python3
    Joint_stops.py`` in a copy of the folder, 2026-11-27) ends with both at rest: cube1 on its
    lower stop at (-1, 3.58057, 1.09057), cube2 on cube1 at (-1, 3.58057, 2.09057), energy
    3.12 J from t = 4 s. (Siconos's slider axis (0, 0.707, 0.707) is not normalised: its stop
    sits 7 mm off Saltus's, which measures along the unit axis.)"""
    work = _tutorial("mechanics/JointsTestsWithContactDetection/Joint_stops.py", tmp_path)
    t, pos = _final_poses(work / "Joint_stops.hdf5")
    assert t == pytest.approx(10.0)
    np.testing.assert_allclose(pos["cube1"], [-1, 3.58057, 1.09057], atol=0.01)
    np.testing.assert_allclose(pos["cube2"], [-1, 3.58057, 2.09057], atol=0.01)


def test_box_stacks_run_options_tutorial_matches_siconos(tmp_path):
    """``GeometricPrimitives/box_stacks.py`` (Siconos >= 4.5's ``run_options``), 75 boxes, 1 s.
    Siconos 4.4 ran it with ``run_options`` turned into its ``run()`` keywords (those 4.4 has;
    ``Newton_tolerance`` and ``osns_assembly_type`` dropped), 2026-11-27: mean height of the
    boxes 1.56129 m at the end; Saltus 1.56175 m, the largest position difference 0.014 m."""
    work = _tutorial("mechanics/GeometricPrimitives/box_stacks.py", tmp_path)
    t, pos = _final_poses(work / "box_stacks.hdf5")
    assert t == pytest.approx(1.0) and len(pos) == 75
    assert np.mean([p[2] for p in pos.values()]) == pytest.approx(1.56129, abs=0.005)


def test_jointed_bodies_collide_when_allowed_from_xml(tmp_path):
    """``<Joint allow_self_collide="true">``: the top box of a vertical slider falls onto the
    lower (fixed) one and rests on it, 1 m above (to the margin); without it, it falls through
    to the stop, 1.5 m down."""
    import saltus

    def run(flag):
        attr = ' allow_self_collide="true"' if flag else ""
        xml = f"""<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="1.5"/>
  <Mechanics gravity="0 0 -9.81" margin="0.02">
    <Box name="cube" half_extents="0.5 0.5 0.5"/>
    <NewtonImpactFrictionNSL en="0" mu="0.5"/>
    <RigidBody name="low" mass="1" inertia="0.1667 0.1667 0.1667"><Contactor shape="cube"/></RigidBody>
    <RigidBody name="top" mass="1" inertia="0.1667 0.1667 0.1667" translation="0 0 1.5"><Contactor shape="cube"/></RigidBody>
    <Joint name="fix" type="FixedJointR" body1="low"/>
    <Joint name="slide" type="PrismaticJointR" body1="top" body2="low" axis="0 0 1"{attr}>
      <JointStopR lower="-1.5"/>
    </Joint>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><GenericMechanical><GaussSeidel tol="1e-10"/></GenericMechanical></OneStepNSProblem>
  </Simulation>
</Model>
"""
        p = tmp_path / f"m{int(flag)}.xml"
        p.write_text(xml)
        out = saltus.load(str(p)).run()
        return out["top.z"][-1] - out["low.z"][-1]

    assert run(True) == pytest.approx(1.0, abs=0.02)
    assert run(False) == pytest.approx(0.0, abs=0.01)  # on the stop (no projection: mm drift)


def test_control_zoh_simulation_matches_siconos(hook):
    """``ControlZOHSimulation`` with ``ExplicitLinearSMC`` (the setup of
    ``samples/smc_double_integrator``, Siconos 4.4's data in ``siconos_explicit.csv``) and
    with ``PID`` + ``LuenbergerObserver`` (``samples/dc_motor_pid_observer/siconos.csv``):
    ``data()`` equals Siconos's to rounding."""
    from siconos.control.controller import PID, ExplicitLinearSMC
    from siconos.control.observer import LuenbergerObserver
    from siconos.control.sensor import LinearSensor
    from siconos.control.simulation import ControlZOHSimulation
    from siconos.kernel import FirstOrderLinearTIDS

    from conftest import REPO

    ds = FirstOrderLinearTIDS([1.0, 0.0], [[0.0, 1.0], [0.0, 0.0]])
    sim = ControlZOHSimulation(0.0, 3.0, 1e-3)
    sim.setSaveOnlyMainSimulation(True)
    sim.addDynamicalSystem(ds)
    sens = LinearSensor(ds, np.eye(2), np.zeros((2, 2)))
    sim.addSensor(sens, 1e-2)
    act = ExplicitLinearSMC(sens)
    act.setCsurface([[1.0, 1.0]])
    act.setB([[0.0], [1.0]])
    act.setAlpha(2.0)
    sim.addActuator(act, 1e-2)
    sim.initialize()
    sim.run()
    ref = np.loadtxt(REPO / "samples/smc_double_integrator/siconos_explicit.csv", delimiter=",", skiprows=1)
    d = sim.data()
    assert d.shape == ref.shape
    np.testing.assert_allclose(d, ref, rtol=0, atol=1e-12)

    A = np.array([[-10.0, 1.0], [-0.02, -2.0]])
    ds = FirstOrderLinearTIDS([0.0, 0.0], A)
    sim = ControlZOHSimulation(0.0, 2.0, 1e-3)
    sim.addDynamicalSystem(ds)
    sens = LinearSensor(ds, [[1.0, 0.0]], np.zeros((1, 2)))
    sim.addSensor(sens, 1e-2)
    pid = PID(sens, [[0.0], [2.0]])
    pid.setK([100.0, 200.0, 1.0])
    pid.setRef(1.0)
    sim.addActuator(pid, 1e-2)
    sim.addObserver(LuenbergerObserver(sens, [0.5, -1.0], [[1.0, 0.0]], [[-38.0], [-503.98]]), 1e-2)
    sim.initialize()
    pid.setDeltaT(1e-2)
    sim.run()
    ref = np.loadtxt(REPO / "samples/dc_motor_pid_observer/siconos.csv", delimiter=",", skiprows=1)
    d = sim.data()
    assert d.shape == ref.shape
    np.testing.assert_allclose(d, ref, rtol=0, atol=1e-9 * np.abs(ref).max())


PID_K = [0.25, 0.125, 2.0]


def _pid_loop(osi, T, h):
    """The ``PID.py`` tutorial's loop: a PID (velocity form, ``PID_K``) on the double integrator
    ``x = (10, 10)`` stepped by ``osi``, written Siconos's way (``eventsManager().nextEvent() == 1``);
    rows ``t_{k+1}, x1, x2``, and the control manager."""
    import siconos.kernel as sk
    from siconos.control.controller import PID
    from siconos.control.sensor import LinearSensor
    from siconos.control.simulation import ControlManager

    t0 = 0.0
    ds = sk.FirstOrderLinearTIDS([10.0, 10.0], [[0.0, 1.0], [0.0, 0.0]])
    process = sk.NonSmoothDynamicalSystem(t0, T)
    process.insertDynamicalSystem(ds)
    s = sk.TimeStepping(process, sk.TimeDiscretisation(t0, h), 0)
    s.insertIntegrator(osi)
    control = ControlManager(s)
    sens = LinearSensor(ds, [[1.0, 0.0]])
    control.addSensorPtr(sens, sk.TimeDiscretisation(t0, h))
    act = PID(sens)
    act.setB([[0.0], [1.0]])
    control.addActuatorPtr(act, sk.TimeDiscretisation(t0, h))
    control.initialize(process)
    act.setRef(0.0)
    act.setK(PID_K)
    act.setDeltaT(h)
    rows = []
    while s.hasNextEvent():
        if s.eventsManager().nextEvent() == 1:
            s.computeOneStep()
            rows.append([s.nextTime(), ds.x()[0], ds.x()[1]])
        s.nextStep()
    return np.array(rows), control, ds


def _pid_recurrence(step, n, h):
    """The PID's velocity form ``u_k = u_{k−1} + (Kp + Kd/Δt + Ki Δt) e_k − (Kp + 2 Kd/Δt) e_{k−1} +
    (Kd/Δt) e_{k−2}``, ``e = r − x1``, with the plant step ``x ← step(x, u)``: rows ``t_{k+1}, x1, x2``."""
    K = PID_K
    x, u, e, want = np.array([10.0, 10.0]), 0.0, [0.0, 0.0, 0.0], []
    for k in range(n):
        e = [0.0 - x[0], e[0], e[1]]
        u += (K[0] + K[2] / h + K[1] * h) * e[0] + (-K[0] - 2 * K[2] / h) * e[1] + K[2] / h * e[2]
        x = step(x, u)
        want.append([(k + 1) * h, x[0], x[1]])
    return np.array(want)


def test_control_manager_drives_a_user_time_stepping(hook):
    """``ControlManager(TimeStepping)`` as in the ``PID.py`` tutorial, the plant stepped by
    ``EulerMoreauOSI(0.5)``: against the recurrence written here, the θ-scheme with the input held."""
    import siconos.kernel as sk

    T, h, theta = 20.0, 0.05, 0.5
    got, control, ds = _pid_loop(sk.EulerMoreauOSI(theta), T, h)
    A = np.array([[0.0, 1.0], [0.0, 0.0]])
    W = np.eye(2) - h * theta * A
    want = _pid_recurrence(lambda x, u: np.linalg.solve(W, x + h * (1 - theta) * A @ x + h * np.array([0.0, u])),
                           int(round(T / h)), h)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-10 * np.abs(want).max())
    # the loop closes: the position's swings shrink towards the reference 0
    assert np.abs(got[-100:, 1]).max() < np.abs(got[:100, 1]).max() / 3
    with pytest.raises(NotImplementedError, match="addSensor"):
        control.addSensor(0, sk.TimeDiscretisation(0.0, h), ds)


def test_control_manager_on_a_zero_order_hold_time_stepping(hook):
    """The same PID loop with ``ZeroOrderHoldOSI()`` (as in Siconos's ``PID.cpp``): the plant steps
    exactly, ``x_{k+1} = Φ x_k + Ψ (0, u_k)`` with ``Φ = [[1, h], [0, 1]]``, ``Ψ = [[h, h²/2], [0, h]]``
    for the double integrator."""
    import siconos.kernel as sk

    T, h = 5.0, 0.05
    got, _, _ = _pid_loop(sk.ZeroOrderHoldOSI(), T, h)
    phi, psi = np.array([[1.0, h], [0.0, 1.0]]), np.array([[h, h * h / 2], [0.0, h]])
    want = _pid_recurrence(lambda x, u: phi @ x + psi @ np.array([0.0, u]), int(round(T / h)), h)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * np.abs(want).max())


def test_control_manager_on_an_event_driven_run(hook):
    """``ControlManager(EventDriven)``: a PID pushes a mass (m = 2) towards x = 1 through a wall at
    x = 0.5 (``NewtonImpactNSL(0)``); the controller acts at the time-discretisation events, the
    integrator restarting where the input changes. The impact is located, the mass then rests on
    the wall exactly, and the integral action winds up at ``Ki (1 − 0.5)`` per second."""
    import siconos.kernel as sk
    from siconos.control.controller import PID
    from siconos.control.sensor import LinearSensor
    from siconos.control.simulation import ControlManager

    h, ki = 1e-3, 5.0
    mass = sk.LagrangianLinearTIDS([0.0], [0.0], [[2.0]])
    wall = sk.Interaction(sk.NewtonImpactNSL(0.0), sk.LagrangianLinearTIR([[-1.0]], [0.5]))
    nsds = sk.NonSmoothDynamicalSystem(0.0, 2.0)
    nsds.insertDynamicalSystem(mass)
    nsds.link(wall, mass)
    sim = sk.EventDriven(nsds, sk.TimeDiscretisation(0.0, h))
    sim.insertIntegrator(sk.LsodarOSI())
    control = ControlManager(sim)
    sens = LinearSensor(mass, [[1.0, 0.0]])
    control.addSensorPtr(sens, sk.TimeDiscretisation(0.0, 10 * h))
    act = PID(sens)
    act.setB([[0.0], [1.0]])
    control.addActuatorPtr(act, sk.TimeDiscretisation(0.0, 10 * h))
    control.initialize(nsds)
    act.setRef(1.0)
    act.setK([10.0, ki, 2.0])
    act.setDeltaT(10 * h)
    q, rows = mass.q(), []
    while sim.hasNextEvent():
        sim.advanceToEvent()
        sim.processEvents()
        rows.append((sim.startingTime(), q[0]))
    rows = np.array(rows)
    assert abs(rows[-1, 0] - 2.0) < 1e-12
    at_rest = rows[rows[:, 0] > 0.3, 1]
    assert len(at_rest) > 1000 and np.all(np.abs(at_rest - 0.5) < 1e-12)
    assert rows[:, 1].max() <= 0.5 + 1e-12


def test_euler_angles_and_internal_solver_options(hook):
    import siconos.kernel as sk
    import siconos.numerics as sn
    from siconos.io.mechanics_run import phiv, psiv, thetav

    a = np.linspace(-1.2, 1.2, 7)
    c, s = np.cos(a / 2), np.sin(a / 2)
    z = np.zeros_like(a)
    # rotations by a about x, y, z give (phi, theta, psi) = (a, 0, 0), (0, a, 0), (0, 0, a)
    np.testing.assert_allclose(phiv(c, s, z, z), a, atol=1e-14)
    np.testing.assert_allclose(thetav(c, z, s, z), a, atol=1e-14)
    np.testing.assert_allclose(psiv(c, z, z, s), a, atol=1e-14)
    o = sk.solver_options_create(sn.SICONOS_GENERIC_MECHANICAL_NSGS)
    inner = sk.solver_options_update_internal(o, 1, sn.SICONOS_FRICTION_3D_ONECONTACT_NSN)
    assert o.numberOfInternalSolvers == 2 and o.internalSolvers[1] is inner
    assert inner.solverId == sn.SICONOS_FRICTION_3D_ONECONTACT_NSN


def test_coupler_tutorials_match_siconos(tmp_path):
    """``JointsTests/gear_ratio.py`` (``CouplerJointR`` joints with ``references``: a short bar
    turning at twice the angle of a long one about a fixed bar; a bar turning 3 rad per metre that
    a slider drops) and ``cylindrical_screw_joint.py`` (``add_joint(..., coupled=[(0, 1, 5.0)])``:
    a bar screwing down a vertical axis onto the ground). Siconos 4.4 (``/usr/bin/python3`` in a
    copy of the folder, 2026-11-28): the slider's bar5 at z = 0.8926, 0.5548, 0.8815 m at
    t = 0.2, 0.4, 0.6 s (it bounces on the ground, e = 0.9); the screw's bar at rest on the ground
    at T = 3 s, z = 0.50038, turned by 5 × (z − 1). The gear pair starts from rest with
    ``θ̈₂ = (τ₂ − 2 τ₃)/(I₂ + 4 I₃) = 10.133 rad/s²`` (gravity torques and inertias about the
    pivot); Siconos 4.4 departs from it: its velocities break the coupling (ω₃/ω₂ = +1.27 at
    t = 1 ms instead of −2) and only its position projection restores θ₃ = −2 θ₂."""
    work = _tutorial("mechanics/JointsTests/gear_ratio.py", tmp_path)
    t, pos = _final_poses(work / "gear_ratio.hdf5")
    assert t == pytest.approx(1.0)
    h5py = pytest.importorskip("h5py")
    with h5py.File(work / "gear_ratio.hdf5", "r") as f:
        d = f["data/dynamic"][:]
        ids = {n: int(o.attrs["id"]) for n, o in f["data/input"].items()}

    def angle_y(name):  # unwrapped rotation about +y of each output row
        rows = d[d[:, 1] == ids[name]]
        return np.unwrap(2 * np.arctan2(rows[:, 7], rows[:, 5])), rows

    a2, _ = angle_y("bar2")
    a3, _ = angle_y("bar3")
    a6, _ = angle_y("bar6")
    _, r5 = angle_y("bar5")
    for tt, z in ((0.2, 0.8926), (0.4, 0.5548), (0.6, 0.8815)):
        assert r5[np.abs(r5[:, 0] - tt) < 1e-9][0, 4] == pytest.approx(z, abs=0.01)
    with h5py.File(work / "gear_ratio.hdf5", "r") as f:
        v = f["data/velocities"][:]
    w2 = v[(np.abs(v[:, 0] - 0.01) < 1e-9) & (v[:, 1] == ids["bar2"])][0, 6]
    w3 = v[(np.abs(v[:, 0] - 0.01) < 1e-9) & (v[:, 1] == ids["bar3"])][0, 6]
    g, c = 9.80665, np.cos(np.pi / 4)
    i2 = (0.04 + 1) / 12 + (0.4 * c) ** 2 + (0.3 * c + 0.1) ** 2  # box about its centre + parallel axes
    i3 = (0.04 + 0.25) / 12 + (0.15 * c) ** 2 + (0.05 * c + 0.1) ** 2
    acc = (g * 0.4 * c + 2 * g * 0.15 * c) / (i2 + 4 * i3)
    assert acc == pytest.approx(10.1328, abs=1e-4)
    assert w2 == pytest.approx(acc * 0.01, rel=5e-3) and w3 == pytest.approx(-2 * w2, rel=1e-9)
    a2, a3 = a2 - a2[0], a3 - a3[0]  # both joints' coordinates, zero at assembly
    # θ(jnt3) = 2 θ(jnt2): jnt2 measures bar2 against bar1, jnt3 bar1 against bar3 (both about y)
    np.testing.assert_allclose(-a3, 2 * a2, atol=1e-6)
    assert np.abs(a2).max() > 0.3
    # θ(jnt7) = 3 s(jnt6): bar6's turn against bar5's drop (bar4 fixed, bar5 never turns)
    np.testing.assert_allclose(-a6, 3 * (1.0 - r5[:, 4]), atol=1e-6)
    work = _tutorial("mechanics/JointsTests/cylindrical_screw_joint.py", tmp_path / "screw")
    t, pos = _final_poses(work / "cylindrical_screw_joint.hdf5")
    assert t == pytest.approx(3.0)
    assert pos["bar"][2] == pytest.approx(0.50038, abs=0.005)
    with h5py.File(work / "cylindrical_screw_joint.hdf5", "r") as f:
        d = f["data/dynamic"][:]
    th = np.unwrap(2 * np.arctan2(d[:, 8], d[:, 5]))
    np.testing.assert_allclose(th, 5 * (d[:, 4] - 1.0), atol=1e-6)


def _spring_scene(io_filename, Contactor, MechanicsHdf5Runner):
    with MechanicsHdf5Runner(io_filename=io_filename) as io:
        io.add_primitive_shape("Bar", "Box", (1, 0.1, 0.1))
        io.add_object("bar", [Contactor("Bar")], [0, 0, 0], mass=1.0, inertia=[0.01, 0.5, 0.5])
        io.add_joint("joint1", "bar", None, [[0, 0, 0]], [[0, 1, 0]], "PivotJointR", absolute=True)


def test_controller_spring_damper_is_a_damped_oscillator(hook, tmp_path, monkeypatch):
    """``run(controller=...)`` as the JointsTests spring–dampers use it: a bar on a hinge to the
    world (I = 0.5 about the axis, no gravity), a controller reading the hinge angle with
    ``computehDoF``/``normalDoF``/``projectVectorDoF`` and applying the world-frame torque
    ``−(k (θ* − θ) + c ω)·n`` each step. ``x = θ − θ*`` is then the damped oscillator
    ``I ẍ + c ẋ + k x = 0``, ``x(0) = −θ*``, ``ẋ(0) = 0``: frequency ``ω_d = √(k/I − (c/2I)²)``,
    decay ``exp(−c t / 2I)``. The torque is held over each step (explicit), so the error is
    first order in h: halving h halves it."""
    h5py = pytest.importorskip("h5py")
    import siconos.kernel as Kernel
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.kernel import BlockVector, SiconosVector
    from siconos.mechanics.collision.tools import Contactor
    from siconos.mechanics.joints import cast_PivotJointR

    I, k, c, target = 0.5, 50.0, 1.0, np.pi / 4
    monkeypatch.chdir(tmp_path)

    class Ctrl:
        def initialize(self, io):
            topo = io._nsds.topology()
            self.ds = Kernel.cast_NewtonEulerDS(topo.getDynamicalSystem("bar"))
            self.joint = cast_PivotJointR(topo.getInteraction("joint1").relation())
            self.ds.setIsMextExpressedInInertialFrame(True)
            self.angles = []

        def step(self):
            bv = BlockVector(self.ds.q())
            angle = SiconosVector(1)
            self.joint.computehDoF(0, bv, angle, 0)
            self.angles.append(angle.getValue(0))
            spring = np.array(self.joint.normalDoF(bv, 0)) * (target - angle.getValue(0)) * k
            damping = self.joint.projectVectorDoF(self.ds.angularVelocity(True), bv, 0) * c
            self.ds.setMExtPtr(-(spring + damping))

    errors, thetas = {}, {}
    for h in (1e-3, 5e-4):
        name = f"sd{h}.hdf5"
        _spring_scene(name, Contactor, MechanicsHdf5Runner)
        ctrl = Ctrl()
        with MechanicsHdf5Runner(io_filename=name, mode="r+", set_external_forces=lambda body: None) as io:
            io.run(T=3.0, h=h, theta=0.5, controller=ctrl)
        with h5py.File(name, "r") as f:
            d = f["data/dynamic"][:]
        t = d[:, 0]
        # Siconos's hinge angle (the world relative to the bar) = minus the bar's turn about y
        theta = -np.unwrap(2 * np.arctan2(d[:, 7], d[:, 5]))
        np.testing.assert_allclose(ctrl.angles[:5], theta[:5], atol=1e-12)  # computehDoF reads the poses
        w0, zeta = np.sqrt(k / I), c / (2 * np.sqrt(k * I))
        wd = w0 * np.sqrt(1 - zeta**2)
        x = -target * np.exp(-zeta * w0 * t) * (np.cos(wd * t) + zeta * w0 / wd * np.sin(wd * t))
        errors[h] = np.abs(theta - target - x).max()
        thetas[h] = (t, theta - target, x)
    assert errors[1e-3] < 1.5e-2 * target, errors
    assert 1.8 < errors[1e-3] / errors[5e-4] < 2.2, errors  # first order in h
    # Richardson: 2 x(h/2) − x(h) leaves an O(h²) error, far below either run's
    (t, xc, x), (tf, xf, _) = thetas[1e-3], thetas[5e-4]
    assert np.allclose(tf[::2], t)
    assert np.abs(2 * xf[::2] - xc - x).max() < 0.05 * errors[5e-4], errors


def test_controller_joint_h_and_jacobian(hook, tmp_path, monkeypatch):
    """``cast_NewtonEulerJointR(...).computeh`` and ``computeJachqDoF`` in a controller
    (``pivot_stop.py``, ``cylindrical_stops.py``): ``h(q)`` vanishes on the run's poses (the
    joint holds to the projection's tolerance) and grows when a body is moved off the joint; the
    row ``∂s/∂q`` of the hinge angle equals central differences of ``computehDoF`` in each of
    the 14 pose coordinates (the quaternion renormalized, as the angle sees it)."""
    pytest.importorskip("h5py")
    import siconos.mechanics as Mechanics
    import siconos.kernel as sk
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="p.hdf5") as io:
        io.add_primitive_shape("Bar", "Box", (1, 0.1, 0.1))
        io.add_primitive_shape("Post", "Cylinder", (0.05, 1))
        io.add_object("bar", [Contactor("Bar")], translation=[0.45, 0.45, 3], mass=10, velocity=[0, 0, 0, 0, 10, 0])
        io.add_object("post", [Contactor("Post")], translation=[0, 0, 3], mass=1, velocity=[0, 0, 0, 0, 0, 0.5])
        io.add_joint("joint1", "bar", "post", [[-0.45, 0, 0]], [[0, 1, 0]], "PivotJointR", absolute=False)

    class Ctrl:
        def initialize(self, io):
            topo = io._nsds.topology()
            self.inter = topo.getInteraction("joint1")
            self.joint = Mechanics.joints.cast_NewtonEulerJointR(self.inter.relation())
            self.bar, self.post = topo.getDynamicalSystem("bar"), topo.getDynamicalSystem("post")
            self.h_max, self.checked = 0.0, 0

        def step(self):
            q0 = sk.BlockVector(self.bar.q(), self.post.q())
            y = sk.SiconosVector(5)
            self.joint.computeh(0, q0, y)
            self.h_max = max(self.h_max, np.abs(np.asarray(y)).max())
            if self.checked < 3:
                jac = sk.SimpleMatrix(1, 14)
                self.joint.computeJachqDoF(0, self.inter, q0, jac, 0)
                q = np.concatenate([np.asarray(self.bar.q()), np.asarray(self.post.q())])

                def angle(x):
                    s = sk.SiconosVector(1)
                    self.joint.computehDoF(0, sk.BlockVector(sk.SiconosVector(x[:7]), sk.SiconosVector(x[7:])), s)
                    return s.getValue(0)

                eps = 1e-6
                fd = [(angle(q + eps * e) - angle(q - eps * e)) / (2 * eps) for e in np.eye(14)]
                np.testing.assert_allclose(np.asarray(jac)[0], fd, atol=1e-8)
                # off the joint: h grows with the displacement
                moved = q.copy()
                moved[0] += 0.01
                y2 = sk.SiconosVector(5)
                self.joint.computeh(0, sk.BlockVector(sk.SiconosVector(moved[:7]), sk.SiconosVector(moved[7:])), y2)
                assert np.abs(np.asarray(y2)).max() == pytest.approx(0.01, rel=1e-6)
                self.checked += 1

    ctrl = Ctrl()
    with MechanicsHdf5Runner(io_filename="p.hdf5", mode="r+", set_external_forces=lambda body: None) as io:
        io.run(T=0.2, h=1e-3, theta=0.5, controller=ctrl, projection_tolerance=1e-10, projection_itermax=10,
               time_stepping=sk.TimeSteppingDirectProjection, osi=sk.MoreauJeanDirectProjectionOSI)
    assert ctrl.checked == 3 and ctrl.h_max < 1e-9, ctrl.h_max


def test_inputs_written_between_steps_are_held(hook):
    """A script that writes ``b`` (live ``b()`` or ``setb``) or calls ``setFExtPtr`` between steps
    (``train_tslcp.py``, Python controllers): the new value acts from the next step on (the kernel
    holds the difference from the built model's value). Against the closed form: θ = ½ integrates
    a double integrator under a piecewise-constant input exactly."""
    import siconos.kernel as sk

    h = 0.05

    def exact(x0, v0, a, t):
        return x0 + v0 * t + 0.5 * a * t * t, v0 + a * t

    # first order: x1' = x2, x2' = b[1], b changed through the live vector, then setb
    A = np.array([[0.0, 1.0], [0.0, 0.0]])
    ds = sk.FirstOrderLinearTIDS([1.0, -0.5], A, [0.0, 0.3])
    nsds = sk.NonSmoothDynamicalSystem(0.0, 10.0)
    nsds.insertDynamicalSystem(ds)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), 0)
    s.insertIntegrator(sk.EulerMoreauOSI(0.5))
    x0, v0 = 1.0, -0.5
    for a, write in ((0.3, None), (-1.1, "live"), (2.0, "setb")):
        if write == "live":
            ds.b()[1] = a
        elif write == "setb":
            ds.setb([0.0, a])
        for k in range(1, 11):
            s.computeOneStep()
            s.nextStep()
            np.testing.assert_allclose(ds.x(), exact(x0, v0, a, k * h), rtol=0, atol=1e-12)
        x0, v0 = ds.x()
    # Lagrangian: M v' = F_ext, F_ext replaced by setFExtPtr
    m = 2.0
    ball = sk.LagrangianLinearTIDS([0.0], [1.0], [[m]])
    ball.setFExtPtr([0.4 * m])
    nsds = sk.NonSmoothDynamicalSystem(0.0, 10.0)
    nsds.insertDynamicalSystem(ball)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), 0)
    s.insertIntegrator(sk.MoreauJeanOSI(0.5))
    q0, v0 = 0.0, 1.0
    for a in (0.4, -3.0):
        ball.setFExtPtr([a * m])
        for k in range(1, 11):
            s.computeOneStep()
            s.nextStep()
            np.testing.assert_allclose([ball.q()[0], ball.velocity()[0]], exact(q0, v0, a, k * h), rtol=0, atol=1e-12)
        q0, v0 = ball.q()[0], ball.velocity()[0]
    with pytest.raises(NotImplementedError, match="after the simulation was built"):
        ball.setFExtPtr(lambda t: [0.0])


def test_control_family_same_bits_three_ways(hook):
    """One model, three faces (issue 28): the explicit SMC of ``samples/smc_double_integrator``
    through ``saltus.load(...).run()`` (the CLI's runner, same CSV bytes by ``test_samples``)
    and through the Siconos classes (``ControlZOHSimulation`` + ``ExplicitLinearSMC``) gives the
    same numbers bit for bit: the state and the control at every plant step."""
    from siconos.control.controller import ExplicitLinearSMC
    from siconos.control.sensor import LinearSensor
    from siconos.control.simulation import ControlZOHSimulation
    from siconos.kernel import FirstOrderLinearTIDS

    import saltus
    from conftest import REPO

    ref = saltus.load(REPO / "samples/smc_double_integrator/model_explicit.xml").run()
    ds = FirstOrderLinearTIDS([1.0, 0.0], [[0.0, 1.0], [0.0, 0.0]])
    sim = ControlZOHSimulation(0.0, 3.0, 1e-3)
    sim.setSaveOnlyMainSimulation(True)
    sim.addDynamicalSystem(ds)
    sens = LinearSensor(ds, np.eye(2), np.zeros((2, 2)))
    sim.addSensor(sens, 1e-2)
    act = ExplicitLinearSMC(sens)
    act.setCsurface([[1.0, 1.0]])
    act.setB([[0.0], [1.0]])
    act.setAlpha(2.0)
    sim.addActuator(act, 1e-2)
    sim.initialize()
    sim.run()
    d = sim.data()
    assert d.shape[0] == len(ref["t"])
    for j, c in enumerate(["t", "plant.x[0]", "plant.x[1]"]):
        assert np.array_equal(d[:, j], ref[c]), c
    # the control held over each plant step (Siconos writes u after the state)
    assert np.array_equal(d[:, 3], ref["smc.u[0]"])


def test_lagrangian_linear_diagonal_ds_with_moreau_jean_bilbao(hook):
    """Siconos ``LagrangianLinearDiagonalDS(q0, v0, stiffness, damping)`` integrated by
    ``MoreauJeanBilbaoOSI`` (the Music tutorial's string, here three free modes with ω h up to 2):
    every mode equals the exact damped oscillation at every step (the scheme's velocity is the
    backward difference, so the run starts from it); ``simulation.associate`` puts a second
    system on ``MoreauJeanOSI`` in the same run."""
    import siconos.kernel as sk

    h, n = 0.05, 200
    omega2, sigma = np.array([1600.0, 100.0, 4.0]), np.array([3.0, 0.0, 0.5])
    q0, vtrue = np.array([1.0, -0.5, 0.2]), np.array([0.0, 2.0, -1.0])

    def exact(t):
        w = np.sqrt(omega2 - sigma**2)
        return np.exp(-sigma * t) * (q0 * np.cos(w * t) + (vtrue + sigma * q0) / w * np.sin(w * t))

    string = sk.LagrangianLinearDiagonalDS(q0, (q0 - exact(-h)) / h, omega2, 2 * sigma)
    body = sk.LagrangianLinearTIDS([0.0], [1.0], [[1.0]])
    nsds = sk.NonSmoothDynamicalSystem(0, n * h)
    nsds.insertDynamicalSystem(string)
    nsds.insertDynamicalSystem(body)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, h), sk.MoreauJeanBilbaoOSI(), sk.LCP())
    sim.associate(sk.MoreauJeanOSI(0.5), body)
    q = string.q()
    k = 0
    while sim.hasNextEvent() and k < n:
        sim.computeOneStep()
        sim.nextStep()
        k += 1
        np.testing.assert_allclose(q, exact(k * h), rtol=0, atol=1e-11)
    assert k == n and body.q()[0] == pytest.approx(n * h, abs=1e-12)
    assert list(string.stiffness()) == list(omega2)
