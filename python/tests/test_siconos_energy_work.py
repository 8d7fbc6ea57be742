"""``MechanicsHdf5Runner.run(output_energy_work=True, output_contact_work=True)`` (Siconos >= 4.5's
``energy_work`` and ``cf_work`` tables) on Saltus, against the balance of the Moreau–Jean step:
at θ = 1/2 the kinetic energy changes by the work of the forces plus the contact impulses',
row by row; the tables agree with each other and with the ``cf`` rows (relative velocities);
Newton's law at the bounces."""

import numpy as np
import pytest

import saltus.siconos as compat


@pytest.fixture
def siconos():
    compat.install()
    yield
    compat.uninstall()


def test_energy_work_tables_balance_the_kinetic_energy(siconos, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner, MechanicsHdf5Runner_run_options
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    e = 0.5
    with MechanicsHdf5Runner(io_filename="w.hdf5") as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Cube", "Box", [0.2, 0.2, 0.2])
        io.add_primitive_shape("Ground", "Box", [4, 4, 0.2])
        io.add_Newton_impact_friction_nsl("contact", mu=0.3, e=e)
        io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 0.5], mass=1.0)
        io.add_object("slider", [Contactor("Ball")], translation=[1, 0, 0.101], velocity=[2, 0, 0, 0, 0, 0], mass=1.0)
        io.add_object("cube", [Contactor("Cube")], translation=[-1, 0, 0.6], orientation=[(1, 1, 0), 0.4],
                      velocity=[0, 0, 0, 1, -2, 3], mass=2.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
    opts = MechanicsHdf5Runner_run_options()
    opts.update(T=1.0, h=1e-3, theta=0.5, output_frequency=1, output_energy_work=True)
    with MechanicsHdf5Runner(io_filename="w.hdf5", mode="r+") as io:
        io.run(opts)
    with h5py.File("w.hdf5", "r") as f:
        ew, cw, cf = (f["data"][n][:] for n in ("energy_work", "cf_work", "cf"))
        assert "kinetic energy" in f["data"]["energy_work"].attrs["info"]
    # one row per step; the kinetic energy changes by W_f + W_N + W_T over each step
    np.testing.assert_allclose(ew[:, 0], 1e-3 * np.arange(1, 1001), atol=1e-12)
    dk = np.diff(ew[:, 1])
    work = (ew[:, 2] + ew[:, 3] + ew[:, 4])[1:]
    assert np.max(np.abs(dk - work)) < 1e-10 * max(1.0, ew[:, 1].max())
    # the energy table's contact works are the sums of cf_work's, step by step
    for col_e, col_c in ((3, 2), (4, 3), (5, 4), (6, 5)):
        sums = np.array([cw[np.abs(cw[:, 0] - t) < 1e-12, col_c].sum() for t in ew[:, 0]])
        np.testing.assert_allclose(ew[:, col_e], sums, atol=1e-12)
    neg = np.array([np.minimum(cw[np.abs(cw[:, 0] - t) < 1e-12, 2], 0).sum() for t in ew[:, 0]])
    np.testing.assert_allclose(ew[:, 7], neg, atol=1e-12)
    # bounces, sliding and sticking happen, and the statuses are Siconos's codes
    assert ew[:, 3].min() < -1e-3 and ew[:, 4].min() < -1e-4
    assert set(np.unique(cw[:, 6])) <= {-3, -1, 0, 1, 2} and {1, 2} <= set(np.unique(cw[:, 6]))
    # cf's relative velocity at the step's end (columns 17-19): at the ball's first bounce,
    # u⁺_N = -e u⁻_N, and its normal work is then ½ (u⁻ + u⁺) p_N with u⁻ = -u⁺/e
    first = cf[cf[:, 20] > 0.5][0]  # the first impulse above 0.5 N s: the ball's impact
    un_plus, pn = first[17], first[20]
    wn = cw[(np.abs(cw[:, 0] - first[0]) < 1e-12) & (cw[:, 1] == first[23]), 2][0]
    assert wn == pytest.approx(0.5 * (-un_plus / e + un_plus) * pn, rel=1e-9)


def _cube_scene(law, path):
    from siconos.io.mechanics_run import MechanicsHdf5Runner, MechanicsHdf5Runner_run_options
    from siconos.mechanics.collision.tools import Contactor

    with MechanicsHdf5Runner(io_filename=path) as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Cube", "Box", [0.2, 0.2, 0.2])
        io.add_primitive_shape("Ground", "Box", [4, 4, 0.2])
        getattr(io, law)("contact", mu=0.4, e=0.5)
        io.add_object("slider", [Contactor("Ball")], translation=[1, 0, 0.101], velocity=[2, 0, 0, 0, 0, 0], mass=1.0)
        io.add_object("cube", [Contactor("Cube")], translation=[-1, 0, 0.6], orientation=[(1, 1, 0), 0.4],
                      velocity=[1, 0, 0, 1, -2, 3], mass=2.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])
    opts = MechanicsHdf5Runner_run_options()
    opts.update(T=1.0, h=2e-3, theta=0.5, output_frequency=1, output_energy_work=True,
                solver_options=None)
    with MechanicsHdf5Runner(io_filename=path, mode="r+") as io:
        io.run(opts)


def test_fremond_law_friction_never_works_positively(siconos, tmp_path, monkeypatch):
    # add_Fremond_impact_friction_nsl (Siconos FremondImpactFrictionNSL, absent from Siconos 4.4):
    # Coulomb's law on the θ-velocity, so each contact's tangential θ-work (cf_work column 5) is ≤ 0,
    # where Newton's law, in the same scene, gives positive values at some steps
    h5py = pytest.importorskip("h5py")
    monkeypatch.chdir(tmp_path)
    worst = {}
    for law in ("add_Fremond_impact_friction_nsl", "add_Newton_impact_friction_nsl"):
        _cube_scene(law, f"{law}.hdf5")
        with h5py.File(f"{law}.hdf5", "r") as f:
            cw, ew = f["data"]["cf_work"][:], f["data"]["energy_work"][:]
            kind = f["data"]["nslaws"]["contact"].attrs["type"]
        assert kind == ("FremondImpactFrictionNSL" if "Fremond" in law else "NewtonImpactFrictionNSL")
        assert np.max(np.abs(np.diff(ew[:, 1]) - (ew[:, 2] + ew[:, 3] + ew[:, 4])[1:])) < 1e-9
        worst[law] = (cw[:, 5].max(), (cw[:, 5] < -1e-6).sum())
    fremond, newton = worst["add_Fremond_impact_friction_nsl"], worst["add_Newton_impact_friction_nsl"]
    assert fremond[0] <= 1e-9 and fremond[1] >= 10, worst
    assert newton[0] > 1e-4, worst
