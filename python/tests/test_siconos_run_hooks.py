"""``MechanicsHdf5Runner.run``'s iteration hooks on Saltus: when they are called, what they see
(positions, contact points, times) and the removal of bodies between steps, checked against free
fall in closed form."""

import math

import numpy as np
import pytest

import saltus.siconos as compat

G = 9.80665
H = 1e-2


@pytest.fixture
def hook():
    compat.install()
    yield
    compat.uninstall()


def _scene(path):
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    with MechanicsHdf5Runner(io_filename=path) as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Ground", "Box", [2, 2, 0.2])
        io.add_Newton_impact_friction_nsl("contact", mu=0.3)
        io.add_object("rest", [Contactor("Ball")], translation=[0, 0, 0.1], mass=1.0)
        io.add_object("low", [Contactor("Ball")], translation=[5, 0, 1], mass=1.0)
        io.add_object("high", [Contactor("Ball")], translation=[10, 0, 3], mass=1.0)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])


def _run(path, **kw):
    from siconos.io.mechanics_run import MechanicsHdf5Runner

    with MechanicsHdf5Runner(io_filename=path, mode="r+") as io:
        io.run(t0=0, T=1.2, h=H, theta=0.5, **kw)
        return io


class DeathHook:
    """The tutorials' hook (chute_con_rocas.py): removes the objects below z = -2."""

    def __init__(self):
        self.steps, self.removed, self.contacts = [], [], []

    def initialize(self, io):
        self._io = io

    def call(self, step):
        self.steps.append(step)
        cps = self._io._io.contactPoints(self._io._nsds, 1)
        self.contacts.append(None if cps is None else cps.copy())
        positions = self._io._io.positions(self._io._nsds)
        for i in np.nonzero(positions[:, 3] < -2)[0]:
            ds = self._io._nsds.dynamicalSystem(int(positions[i, 0]))
            self._io._interman.removeBody(ds)
            self._io._nsds.removeDynamicalSystem(ds)
            self.removed.append((step, ds.number(), self._io._simulation.nextTime()))


def test_end_hook_removes_bodies_at_the_step_free_fall_predicts(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    monkeypatch.chdir(tmp_path)
    _scene("h.hdf5")
    dh = DeathHook()
    _run("h.hdf5", end_run_iteration_hook=dh)
    assert dh.steps == list(range(1, 121))
    with h5py.File("h.hdf5", "r") as f:
        dyn = f["data"]["dynamic"][:]
        ids = {n: int(f["data"]["input"][n].attrs["id"]) for n in ("rest", "low", "high")}
    # z = z0 - g t²/2 (exact for θ = 1/2) passes -2 in the step ending at ceil(√(2(z0+2)/g)/h) h
    k_low, k_high = (math.ceil(math.sqrt(2 * (z0 + 2) / G) / H - 1e-9) for z0 in (1, 3))
    assert [(s, n) for s, n, _ in dh.removed] == [(k_low, ids["low"]), (k_high, ids["high"])]
    for s, _, t in dh.removed:
        assert t == pytest.approx(s * H, abs=1e-12)
    for name, k in (("low", k_low), ("high", k_high)):
        rows = dyn[dyn[:, 1] == ids[name]]
        # written up to the step of its removal, not after
        assert rows[:, 0].max() == pytest.approx(k * H, abs=1e-12)
        z0 = {"low": 1, "high": 3}[name]
        np.testing.assert_allclose(rows[:, 4], z0 - G * rows[:, 0] ** 2 / 2, atol=1e-9)
    rest = dyn[dyn[:, 1] == ids["rest"]]
    assert rest[:, 0].max() == pytest.approx(1.2, abs=1e-12)
    assert abs(rest[-1, 4] - 0.1) < 0.01  # resting on the ground all along
    # the contact points of the resting ball: Siconos's 25 columns, its id among the pair
    assert dh.contacts[-1] is not None and dh.contacts[-1].shape[1] == 25
    assert ids["rest"] in set(dh.contacts[-1][:, 22:24].ravel().astype(int))


def test_start_hook_returning_false_ends_the_run(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    monkeypatch.chdir(tmp_path)
    _scene("s.hdf5")

    class Stop:
        def call(self, step):
            return step < 50

    _run("s.hdf5", start_run_iteration_hook=Stop())
    with h5py.File("s.hdf5", "r") as f:
        t = f["data"]["dynamic"][:, 0]
    assert t.max() == pytest.approx(49 * H, abs=1e-12)


def test_siconos_4_4_hooks_are_called_with_the_runner(hook, tmp_path, monkeypatch):
    pytest.importorskip("h5py")
    monkeypatch.chdir(tmp_path)
    _scene("c.hdf5")
    times = []
    _run("c.hdf5", end_run_iteration_hook=lambda io: times.append(io._simulation.nextTime()))
    np.testing.assert_allclose(times, H * np.arange(1, 121), atol=1e-12)


def test_what_a_hook_cannot_do_is_refused_by_name(hook, tmp_path, monkeypatch):
    pytest.importorskip("h5py")
    monkeypatch.chdir(tmp_path)
    _scene("u.hdf5")

    class Interactions:
        def initialize(self, io):
            self.io = io

        def call(self, step):
            self.io._nsds.interaction(0)

    with pytest.raises(NotImplementedError, match="NonSmoothDynamicalSystem.interaction"):
        _run("u.hdf5", end_run_iteration_hook=Interactions())

    class CollisionOnly(Interactions):
        def call(self, step):
            self.io._interman.removeBody(self.io._nsds.dynamicalSystemsVector()[0])

    _scene("v.hdf5")
    with pytest.raises(NotImplementedError, match="removeBody without"):
        _run("v.hdf5", end_run_iteration_hook=CollisionOnly())


@pytest.mark.parametrize("bound, sliding", [(4.0, True), (12.0, False)])
def test_joint_friction_of_a_relay_law(hook, tmp_path, monkeypatch, bound, sliding):
    """``add_relay_nsl`` + ``add_joint(friction=...)`` (Siconos ``JointFrictionR``, the step's
    impulse in ``[lb, ub]``): a 1 kg slider on a vertical prismatic joint slides down at
    g − T/m under a friction force T < m g (z₀ − (g − T) t²/2, exact for θ = ½), and stays under
    T > m g."""
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="f.hdf5") as io:
        io.add_primitive_shape("B", "Box", (0.2, 0.2, 0.2))
        io.add_relay_nsl("fr", lb=-bound * H, ub=bound * H)
        io.add_object("slider", [Contactor("B")], translation=[0, 0, 1], mass=1.0)
        io.add_joint("j", "slider", None, None, [[0, 0, 1]], "PrismaticJointR", friction="fr")
    with MechanicsHdf5Runner(io_filename="f.hdf5", mode="r+") as io:
        io.run(t0=0, T=0.3, h=H, theta=0.5)
    with h5py.File("f.hdf5", "r") as f:
        dyn = f["data"]["dynamic"][:]
    t, z = dyn[:, 0], dyn[:, 4]
    expected = 1 - (G - bound) * t**2 / 2 if sliding else np.ones_like(t)
    np.testing.assert_allclose(z, expected, atol=1e-9)
    np.testing.assert_allclose(dyn[:, 2:4], 0, atol=1e-12)  # held on the axis
