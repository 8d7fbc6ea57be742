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
            self.io._nsds.InteractionsVector()

    with pytest.raises(NotImplementedError, match="NonSmoothDynamicalSystem.InteractionsVector"):
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


def test_a_controller_picks_the_bodies_a_vertical_line_crosses(hook, tmp_path, monkeypatch):
    """The ``Queries/line-picking.py`` tutorial's controller: ``_interman.lineIntersectionQuery``
    from (0, 0, 10) to (0, 0, -10) before each step, ``_nsds.name(q.body)``,
    ``io.current_time()``. A ball is met exactly when its centre is within its radius of the
    line (at the poses the step starts from), where the segment enters it; the ground (static:
    ``body`` None) always, at its top face; a ball thrown at 5 m/s ends rolling at 5/7 of it,
    so it crosses the line in 2r / (25/7) s."""
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    r, h = 0.5, 0.005
    with MechanicsHdf5Runner(io_filename="p.hdf5") as io:
        io.add_primitive_shape("Sphere", "Sphere", (r,))
        io.add_primitive_shape("Ground", "Box", (50, 10, 0.1))
        io.add_Newton_impact_friction_nsl("contact", mu=0.5, e=0.1)
        for i, x in enumerate((8.0, 12.0)):
            io.add_object(f"sphere{i}", [Contactor("Sphere")], translation=[x, 0, 2], velocity=[-5, 0, 0, 0, 0, 0],
                          mass=1)
        io.add_object("ground", [Contactor("Ground")], translation=[0, 0, -0.1])

    class LinePicker:
        def initialize(self, io):
            self.io, self.rows = io, []
            # before the first step: each ball where it was put, the ground far below
            (a,) = io._interman.inSphereQuery([8, 0, 3], 0.6)
            assert io._nsds.name(a.body) == "sphere0" and a.distance == pytest.approx(0.5, abs=1e-12)
            (b,) = io._interman.inBoxQuery([12, 0, 2], [1, 1, 1], closestOnly=True)
            assert io._nsds.name(b.body) == "sphere1" and b.distance == 0.0
            assert io.current_time() == 0.0

        def step(self):
            query = self.io._interman.lineIntersectionQuery([0, 0, 10], [0, 0, -10], False)
            self.rows.append((self.io.current_time(),
                              [(None if q.body is None else self.io._nsds.name(q.body), q.distance,
                                np.asarray(q.point)) for q in query]))

    picker = LinePicker()
    with MechanicsHdf5Runner(io_filename="p.hdf5", mode="r+") as io:
        io.run(t0=0, T=4, h=h, theta=0.5, controller=picker, output_frequency=1)
    with h5py.File("p.hdf5", "r") as f:
        dyn = f["data"]["dynamic"][:]
        ids = {f"sphere{i}": int(f["data"]["input"][f"sphere{i}"].attrs["id"]) for i in range(2)}
    assert [t for t, _ in picker.rows] == pytest.approx(h * np.arange(1, 801), abs=1e-12)
    crossing = {name: 0 for name in ids}
    for t, hits in picker.rows:
        *balls, ground = hits
        assert ground[0] is None and ground[1] == pytest.approx(10.05, abs=1e-12)  # top of the ground at -0.05
        picked = {name: (d, p) for name, d, p in balls}
        for name, n in ids.items():
            # the poses the step starts from: the rows written at t - h
            x, y, z = dyn[(dyn[:, 1] == n) & (np.abs(dyn[:, 0] - (t - h)) < 1e-9)][0, 2:5]
            rho2 = x * x + y * y
            if abs(rho2 - r * r) < 1e-9:
                continue
            assert (name in picked) == (rho2 < r * r), (t, name, x, y)
            if name in picked:
                crossing[name] += 1
                d, p = picked[name]
                assert d == pytest.approx(10 - (z + math.sqrt(r * r - rho2)), abs=1e-9)
                np.testing.assert_allclose(p, [0, 0, 10 - d], atol=1e-12)
        # nearest first
        assert [d for _, d, _ in hits] == sorted(d for _, d, _ in hits)
    for name, k in crossing.items():
        assert k * h == pytest.approx(2 * r / (5 / 7 * 5), abs=1.5 * h), name


def test_a_hook_removes_a_static_body_its_ball_touches(hook, tmp_path, monkeypatch):
    """The ``spheres_remove_contactor.py`` tutorial's hook: among the contact points
    (``io._io.contactPoints``), a contact with a static object (its body named twice) is read
    through ``io._nsds.interaction(id).relation()`` and ``cast_BulletR`` (``bodyShapeRecordA.ds``,
    ``bodyShapeRecordB.staticBody.number``), and ``io._interman.removeStaticBody`` takes the plate
    away: from the next step the ball falls through where it was, freely, and ``data/static`` no
    longer lists the plate."""
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.bullet import cast_BulletR
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    with MechanicsHdf5Runner(io_filename="r.hdf5") as io:
        io.add_primitive_shape("Ball", "Sphere", [0.1])
        io.add_primitive_shape("Plate", "Box", [1, 1, 0.1])
        io.add_Newton_impact_friction_nsl("contact", mu=0.3)
        io.add_object("ball", [Contactor("Ball")], translation=[0, 0, 0.5], mass=1.0)
        plate_id = int(io.add_object("plate", [Contactor("Plate")], translation=[0, 0, 0]).attrs["id"])

    class Remover:
        def initialize(self, io):
            self.io, self.removed_at = io, None

        def call(self, step):
            cps = self.io._io.contactPoints(self.io._nsds, 1)
            for cp in [] if cps is None else cps:
                if int(cp[23]) == int(cp[24]) and self.removed_at is None:
                    rel = cast_BulletR(self.io._nsds.interaction(int(cp[22])).relation())
                    assert rel.bodyShapeRecordA.ds.number() == int(cp[23])
                    static = rel.bodyShapeRecordB.staticBody
                    assert static.number == plate_id and rel.bodyShapeRecordB.ds is None
                    self.io._interman.removeStaticBody(static)
                    self.io._static.pop("plate")
                    self.removed_at = (step, self.io._simulation.nextTime())

    remover = Remover()
    with MechanicsHdf5Runner(io_filename="r.hdf5", mode="r+") as io:
        io.run(t0=0, T=1.0, h=H, theta=0.5, end_run_iteration_hook=remover, output_frequency=1)
    step, t_rm = remover.removed_at
    with h5py.File("r.hdf5", "r") as f:
        dyn, static = f["data"]["dynamic"][:], f["data"]["static"][:]
    assert plate_id not in set(static[:, 1].astype(int))
    # after the removal the ball falls freely from its state then (θ = 1/2: exact parabola)
    z, t = dyn[:, 4], dyn[:, 0]
    k = int(np.argmin(np.abs(t - t_rm)))
    v_rm = (z[k + 1] - z[k]) / H + G * H / 2  # the velocity at t_rm from the next step's advance
    later = t > t_rm + 1e-9
    np.testing.assert_allclose(z[later], z[k] + v_rm * (t[later] - t_rm) - G * (t[later] - t_rm) ** 2 / 2, atol=1e-9)
    assert z[-1] < -1.0  # through where the plate was
