"""The Siconos layer's ``add_height_map`` and contactors in several collision groups, against
closed forms: a ball sliding down a height-field slope accelerates at ``g (sin α − μ cos α)``,
one resting on a flat field carries ``m g h`` per step at its radius above it; a body whose
contactors sit in two groups gets, per contact, the law of its contactor's group."""

import numpy as np
import pytest

import saltus.siconos as compat

G = 9.80665  # Siconos's gravity


@pytest.fixture
def hook():
    compat.install()
    yield
    compat.uninstall()


def _plane(nx, ny, lx, ly, z0, a, b):
    x = -lx / 2 + np.arange(nx) * lx / (nx - 1)
    y = -ly / 2 + np.arange(ny) * ly / (ny - 1)
    return z0 + a * x[:, None] + b * y[None, :]


def _run(path, T, h, so=None):
    from siconos.io.mechanics_run import MechanicsHdf5Runner

    with MechanicsHdf5Runner(io_filename=path, mode="r+") as io:
        io.run(t0=0, T=T, h=h, theta=0.5, solver_options=so, output_frequency=1)


def _tight():
    import siconos.numerics as sn

    so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-12
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    return so


def test_ball_slides_down_a_height_map(hook, tmp_path, monkeypatch):
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    # slope ∂z/∂x = 0.5 (rows of the heights along x), ∂z/∂y = 0.2, not a square grid
    a, b, r, mu = 0.5, 0.2, 0.1, 0.1
    hm = _plane(9, 5, 8.0, 4.0, 1.0, a, b)
    n = np.array([-a, -b, 1.0]) / np.linalg.norm([-a, -b, 1.0])
    p0 = np.array([0.3, 0.1, 1.0 + a * 0.3 + b * 0.1])
    with MechanicsHdf5Runner(io_filename="s.hdf5") as io:
        io.add_height_map("T", hm, (8.0, 4.0))
        io.add_primitive_shape("Ball", "Sphere", (r,))
        io.add_Newton_impact_friction_nsl("contact", mu=mu, collision_group1=0, collision_group2=1)
        io.add_object("ball", [Contactor("Ball", collision_group=0)], translation=list(p0 + r * n), mass=1.0)
        io.add_object("ground", [Contactor("T", collision_group=1)], translation=[0, 0, 0])
    _run("s.hdf5", 0.4, 1e-3, _tight())
    with h5py.File(tmp_path / "s.hdf5", "r") as f:
        d = f["data"]
        dyn, vel = d["dynamic"][:], d["velocities"][:]
        assert d["ref"]["T"].attrs["type"] == "heightmap"
        np.testing.assert_array_equal(d["ref"]["T"][:], hm)
        np.testing.assert_array_equal(d["ref"]["T"].attrs["rect"], [8.0, 4.0])
    # sliding (μ < (2/7) tan α): the centre accelerates at g (sin α − μ cos α) down the slope
    tan_a = np.hypot(a, b)
    sin_a, cos_a = tan_a / np.sqrt(1 + tan_a**2), 1 / np.sqrt(1 + tan_a**2)
    down = np.array([-a * cos_a / tan_a, -b * cos_a / tan_a, -sin_a])
    t, v = vel[:, 0], vel[:, 2:5]
    np.testing.assert_allclose(v @ down, G * (sin_a - mu * cos_a) * t, rtol=1e-9, atol=1e-12)
    # on the surface all along: the centre at r from the plane
    x = dyn[:, 2:5]
    dist = (x[:, 2] - (1.0 + a * x[:, 0] + b * x[:, 1])) * n[2]
    np.testing.assert_allclose(dist, r, atol=1e-9)


def test_contactors_in_several_groups(hook, tmp_path, monkeypatch):
    """Siconos's MultipleContactorsAndNSlaws pattern: a body's two contactors in groups 0 and 1
    over a ground in group 1, laws (0, 1) μ = 0.1 and (1, 1) μ = 0.7; a contactor in group −1
    (Siconos: no law, never collides) is kept out. A flat height field at z = 0.3 carries the
    body's weight: Σ λ_N = m g h each step, the centre at r above it."""
    h5py = pytest.importorskip("h5py")
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    from siconos.mechanics.collision.tools import Contactor

    monkeypatch.chdir(tmp_path)
    r, m = 0.1, 2.0
    with MechanicsHdf5Runner(io_filename="g.hdf5") as io:
        io.add_height_map("Flat", np.full((3, 3), 0.3), (10.0, 10.0))
        io.add_primitive_shape("Ball", "Sphere", (r,))
        io.add_primitive_shape("Big", "Box", (1.0, 1.0, 1.0))
        io.add_Newton_impact_friction_nsl("c01", mu=0.1, collision_group1=0, collision_group2=1)
        io.add_Newton_impact_friction_nsl("c11", mu=0.7, collision_group1=1, collision_group2=1)
        io.add_object("pair", [Contactor("Ball", collision_group=0, relative_translation=[-0.5, 0, 0]),
                               Contactor("Ball", collision_group=1, relative_translation=[0.5, 0, 0]),
                               Contactor("Big", collision_group=-1, relative_translation=[0, 0, -0.3])],
                      translation=[0.2, 0.1, 0.3 + r], mass=m, inertia=[1.0, 1.0, 1.0])
        io.add_object("ground", [Contactor("Flat", collision_group=1)], translation=[0, 0, 0])
    _run("g.hdf5", 0.05, 1e-3, _tight())
    with h5py.File(tmp_path / "g.hdf5", "r") as f:
        dyn, cf = f["data"]["dynamic"][:], f["data"]["cf"][:]
    np.testing.assert_allclose(dyn[-1, 2:5], [0.2, 0.1, 0.3 + r], atol=1e-9)
    last = cf[cf[:, 0] == cf[:, 0].max()]
    # one contact per ball (the box, 0.2 below the field's surface, is in no law's group)
    assert sorted(last[:, 1]) == [0.1, 0.7]
    assert last[:, 20].sum() == pytest.approx(m * G * 1e-3, rel=1e-9)
