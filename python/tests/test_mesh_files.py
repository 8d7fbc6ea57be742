"""Shapes from mesh files (STL, OBJ): ``saltus.mechanics.read_mesh``, ``Mesh`` on static bodies,
the convex hull of a mesh on dynamic ones, and the Siconos ``add_mesh_from_file``. Checked on
closed forms of the regular icosahedron of ``samples/mesh_files/d20.stl`` (circumradius 1)."""

import math

import numpy as np
import pytest

import saltus.mechanics as sm
from conftest import SAMPLES

PHI = (1 + math.sqrt(5)) / 2
EDGE = 2 / math.sqrt(1 + PHI * PHI)  # of the icosahedron of circumradius 1
R_IN = PHI * PHI / (2 * math.sqrt(3)) * EDGE  # its inradius


def volume(v, t):
    """Σ a·(b × c)/6 over the outward triangles."""
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def test_the_d20_stl_is_a_closed_icosahedron():
    v, t = sm.read_mesh(SAMPLES / "mesh_files" / "d20.stl", scale=2.0)
    assert v.shape == (12, 3) and t.shape == (20, 3)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 2.0, rtol=1e-14)
    assert volume(v, t) == pytest.approx(8 * 5 / 12 * (3 + math.sqrt(5)) * EDGE**3, rel=1e-13)
    f, tf = sm.read_mesh(SAMPLES / "mesh_files" / "floor.obj")
    assert f.shape == (4, 3) and tf.tolist() == [[0, 1, 2], [0, 2, 3]]


def test_read_mesh_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nf 1 2 3\n")
    with pytest.raises(sm.ModelError, match=r"bad.obj:2: vertex `2` is not among the 1 vertices"):
        sm.read_mesh(bad)
    with pytest.raises(sm.ModelError, match="unknown mesh format"):
        sm.read_mesh(tmp_path / "x.ply")


def test_a_die_from_the_stl_rests_on_a_face_of_the_obj_floor():
    v, _ = sm.read_mesh(SAMPLES / "mesh_files" / "d20.stl", scale=0.05)
    fv, ft = sm.read_mesh(SAMPLES / "mesh_files" / "floor.obj")
    scene = sm.Scene(gravity=(0, 0, -9.81), margin=0.005)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.5)
    scene.add_mesh_shape("floor", fv, ft)
    scene.add_object("ground", ["floor"])
    scene.add_object("die", [sm.ConvexHull(v)], translation=(0, 0, 0.2), velocity=(0, 0, 0, 3, -2, 1), density=1000)
    out = scene.simulation(h=1e-3, theta=0.5).run(t_end=1.5, record_every=100)
    assert out["die.z"][-1] == pytest.approx(0.05 * R_IN, abs=5e-5)
    assert abs(out["die.vz"][-1]) < 1e-9 and abs(out["die.wx"][-1]) < 1e-9
    # a triangle mesh on a dynamic body is refused by name
    with pytest.raises(sm.ModelError, match="triangle mesh"):
        s2 = sm.Scene()
        s2.add_object("die", [sm.Mesh(fv, ft)], mass=1.0, inertia=[1, 1, 1])
