"""Rigid-body mechanics from Python: physics checks (impulses, impact time, settling), not
printed values."""

import math

import numpy as np
import pytest

import saltus
import saltus.mechanics as sm
from conftest import SAMPLES

G = 9.81


def ball_scene(z, r=0.1, m=1.0, e=0.0, mu=0.3, margin=0.02):
    scene = sm.Scene(gravity=(0, 0, -G), margin=margin)
    scene.add_Newton_impact_friction_nsl("contact", e=e, mu=mu)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    scene.add_object("ball", [sm.Sphere(r)], translation=(0, 0, z), mass=m, inertia=[0.4 * m * r * r] * 3)
    return scene


def test_resting_sphere_carries_m_g_h_per_step():
    m, r, h = 2.5, 0.1, 1e-3
    sim = ball_scene(r, r=r, m=m).simulation(h=h, theta=0.5)
    for _ in range(20):
        rep = sim.step()
    assert rep["active"] == 1 and rep["status"] == "converged"
    lam = rep["impulse"]
    assert lam.shape == (1, 3)
    # the normal impulse balances gravity over the step; no friction without tangential load
    assert lam[0, 0] == pytest.approx(m * G * h, rel=1e-6)
    assert np.abs(lam[0, 1:]).max() < 1e-9 * m * G * h
    s = sim.state("ball")
    assert s["position"][2] == pytest.approx(r, abs=1e-9)
    assert np.linalg.norm(s["velocity"]) < 1e-9
    assert s["orientation"] == pytest.approx([1, 0, 0, 0], abs=1e-12)


def box_scene(v0, mu=0.3, half=(0.1, 0.1, 0.05), margin=0.01):
    scene = sm.Scene(gravity=(0, 0, -G), margin=margin)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=mu)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    a, b, c = half
    inertia = [(b * b + c * c) / 3, (a * a + c * c) / 3, (a * a + b * b) / 3]  # m = 1
    scene.add_object("box", [sm.Box(*half)], translation=(0, 0, c), velocity=(v0, 0, 0, 0, 0, 0), mass=1.0,
                     inertia=inertia)
    return scene


@pytest.mark.parametrize("solver", ["gfc3d-nsgs", "gfc3d-nsgs-global"])
def test_global_formulation_box_slides_with_deceleration_mu_g(solver):
    """MoreauJeanGOSI + GlobalFrictionContact (``formulation="global"``): a box launched at v0
    slows down by μ g h per step (the Coulomb impulse μ m g h), as the local formulation."""
    v0, mu, h = 1.0, 0.3, 1e-3
    glob = box_scene(v0, mu).simulation(h=h, tol=1e-12, max_iter=10000, formulation="global", global_solver=solver)
    loc = box_scene(v0, mu).simulation(h=h, tol=1e-12, max_iter=10000)
    for k in range(1, 201):
        rep = glob.step()
        loc.step()
        assert rep["active"] == 4 and rep["status"] == "converged"
        v = glob.state("box")["velocity"]
        assert v[0] == pytest.approx(v0 - mu * G * h * k, abs=1e-9)
        np.testing.assert_allclose(v, loc.state("box")["velocity"], atol=1e-9)
    assert rep["impulse"][:, 0].sum() == pytest.approx(G * h, rel=1e-8)


def test_global_formulation_bad_options_raise():
    with pytest.raises(ValueError, match="formulation"):
        box_scene(1.0).simulation(h=1e-3, formulation="globl")
    with pytest.raises(saltus.ModelError, match="gfc3d-nsgs"):
        box_scene(1.0).simulation(h=1e-3, formulation="global", global_solver="nsgs")


def test_dropped_sphere_hits_at_sqrt_2z0_over_g():
    r, z0, h = 0.1, 0.5, 1e-3
    sim = ball_scene(r + z0, r=r).simulation(h=h, theta=0.5)
    out = sim.run(0.5, record_every=1)
    t, z, vz = out["t"], out["ball.z"], out["ball.vz"]
    # the columns of `saltus run` (the static ground has none), per-step counters apart
    assert [k for k in out if k.startswith("ball.")][:4] == ["ball.x", "ball.y", "ball.z", "ball.qw"]
    assert not any(k.startswith("ground.") for k in out)
    assert len(out["steps"]["contacts"]) == len(t) - 1
    # free flight (θ = ½ integrates constant gravity exactly) before the impact
    t_hit = math.sqrt(2 * z0 / G)
    before = t < t_hit - h
    assert np.allclose(z[before], r + z0 - 0.5 * G * t[before] ** 2, atol=1e-9)
    # e = 0: the ball stops at the step containing the impact
    stopped = np.nonzero(np.abs(vz) < 1e-6 * G * t_hit)[0]
    stopped = stopped[stopped > 0]
    assert abs(t[stopped[0]] - t_hit) <= h
    # velocity-level impact: the penetration is at most one step of the impact velocity, then
    # the ball rests where it stopped
    v_hit = G * t_hit
    assert np.all(z[stopped[0]:] > r - v_hit * h)
    assert np.ptp(z[stopped[0]:]) < 1e-9
    assert out["steps"]["active"][-1] == 1 and np.all(out["steps"]["converged"])


def test_27_spheres_settle_in_the_box():
    sim = sm.spheres_in_a_box(27, seed=7)
    assert sim.n_bodies == 29 and sim.body_names()[-2:] == ["ground", "walls"]
    r, half_w = 0.01, 1.5 * 2.2 * 0.01
    out = sim.run(record_every=50)
    assert out["t"][-1] == pytest.approx(sim.t_end)
    names = sim.body_names()[:27]
    p = np.array([sm.body_array(out, b)[-1] for b in names])
    v = np.array([sm.body_array(out, b, "velocity")[-1] for b in names])
    # "no significant penetration": 5 % of a radius (measured: 1.8 % into the ground, 4.2 % between
    # spheres under two layers, seed 7)
    tol = 0.05 * r
    assert np.all(p[:, 2] >= r - tol)
    assert np.all(np.abs(p[:, :2]) <= half_w - r + tol)
    # settled vertically (spheres may still roll: no rolling resistance)
    # and the kinetic energy left is below 1 % of the energy of a drop of one radius
    m = sim.masses()[0]
    assert np.abs(v[:, 2]).max() < 5e-3
    assert sim.kinetic_energy() < 0.01 * 27 * m * 9.81 * r
    assert p[:, 2].max() < r + 3 * 2.2 * r
    q = np.array([sm.body_array(out, b, "orientation")[-1] for b in names])
    assert np.allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-12)
    # NSGS may stop at its 1000-sweep cap, but the FC3D residual stays small on every step
    assert out["steps"]["contacts"][-1] >= 27 and out["steps"]["residual"].max() < 1e-3
    # pairwise: no two spheres interpenetrate by more than tol
    d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2) + np.eye(27) * 1e9
    assert d.min() >= 2 * r - tol


def test_deterministic_scene():
    a = sm.spheres_in_a_box(8, seed=3).run(0.05)
    b = sm.spheres_in_a_box(8, seed=3).run(0.05)
    assert a.keys() == b.keys()
    assert all(np.array_equal(a[k], b[k]) for k in a if k != "steps")


def test_shapes_and_density():
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_Newton_impact_friction_nsl("c", e=0.0, mu=0.5)
    scene.add_primitive_shape("Ground", "Box", (4, 4, 0.2))
    scene.add_object("ground", [sm.Contactor("Ground", (0, 0, -0.1))])
    c = math.sqrt(0.5)
    scene.add_object("cyl", [sm.Cylinder(0.1, 0.2)], translation=(0, 0, 0.1), orientation=(c, c, 0, 0), density=1000)
    scene.add_object("cap", [sm.Capsule(0.1, 0.2)], translation=(1, 0, 0.1), orientation=(c, 0, 0, c), density=1000)
    pts = [[x, y, z] for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]
    scene.add_object("hull", [sm.ConvexHull(pts)], translation=(-1, 0, 0.1), density=1000)
    scene.add_object("box", [sm.Box(0.1, 0.1, 0.1)], translation=(0, 1, 0.1), density=1000)
    sim = scene.simulation(h=1e-3)
    m = sim.masses()
    assert m[0] == math.inf
    assert m[1] == pytest.approx(1000 * math.pi * 0.01 * 0.4, rel=1e-9)
    assert m[2] == pytest.approx(1000 * (math.pi * 0.01 * 0.4 + 4 / 3 * math.pi * 1e-3), rel=1e-9)
    assert m[3] == pytest.approx(8.0, rel=1e-9) and m[4] == pytest.approx(8.0, rel=1e-9)
    out = sim.run(0.2, record_every=10)
    # every body rests on the ground, lowest point at z = 0 (no sinking)
    for b in ["cyl", "cap", "hull", "box"]:
        assert out[f"{b}.z"][-1] == pytest.approx(0.1, abs=1e-4)
        assert np.abs(sm.body_array(out, b, "velocity")[-1]).max() < 1e-6


def test_round_box_from_python_is_the_model_file(tmp_path):
    """A primitive added by its registration alone (``RoundBox``): the constructor made from the
    declaration, the model file's element and the exact density mass
    ``8abc + 8r(ab + bc + ca) + 2πr²(a + b + c) + 4πr³/3`` (inner half extents) agree, and the
    same drop run from Python and from the file gives the same bits under the same columns."""
    half, r, rho = (0.1, 0.08, 0.05), 0.01, 500.0
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.5)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    scene.add_object("box", [sm.RoundBox(*half, border_radius=r)], translation=(0, 0, 0.2),
                     orientation=(math.cos(0.2), math.sin(0.2), 0, 0), density=rho)
    sim = scene.simulation(h=1e-3, theta=0.5, tol=1e-12, max_iter=10_000)
    a, b, c = (x - r for x in half)
    vol = 8 * a * b * c + 8 * r * (a * b + b * c + c * a) + 2 * math.pi * r * r * (a + b + c) + 4 * math.pi * r**3 / 3
    assert sim.masses()[1] == pytest.approx(rho * vol, rel=1e-12)
    out = sim.run(t_end=0.5)
    out.pop("steps")
    model = tmp_path / "round_box.xml"
    model.write_text(f"""<Model version="1.0"><Time t0="0" T="0.5"/>
<Mechanics gravity="0 0 {-G}" margin="0.01">
  <HalfSpace name="floor" normal="0 0 1"/>
  <RoundBox name="die" half_extents="0.1 0.08 0.05" border_radius="0.01"/>
  <NewtonImpactFrictionNSL en="0" mu="0.5"/>
  <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
  <RigidBody name="box" density="500" translation="0 0 0.2" orientation="{math.cos(0.2)!r} {math.sin(0.2)!r} 0 0">
    <Contactor shape="die"/></RigidBody>
</Mechanics>
<Simulation><TimeDiscretisation h="0.001"/><OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
<OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-12" max_iter="10000"/></FrictionContact></OneStepNSProblem>
</Simulation></Model>""")
    ref = saltus.load(model).run()
    assert list(out) == list(ref)
    for k in ref:
        assert np.array_equal(out[k], ref[k]), k
    # tilted by 0.4 rad it lands on an edge, falls flat and rests on a face at its outer half
    # height, less what Moreau–Jean (γ = ½) lets it sink at the impact (≤ 1.5 h |v_impact|)
    sink = 1.5 * 1e-3 * math.sqrt(2 * G * 0.2)
    assert np.abs(sm.body_array(out, "box", "velocity")[-200:]).max() < 1e-9
    assert half[2] - sink <= out["box.z"][-1] <= half[2]
    assert 2 * math.acos(min(1.0, abs(out["box.qw"][-1]))) < 2 * sink / half[1]


@pytest.mark.parametrize(
    "build, words",
    [
        (lambda s: s.add_object("b", [sm.Sphere(-0.1)], mass=1, inertia=[1, 1, 1]), ["radius", "b"]),
        (lambda s: s.add_object("b", [sm.Sphere(0.1)], mass=0.0, inertia=[1, 1, 1]), ["mass", "b"]),
        (lambda s: s.add_object("b", [sm.Sphere(0.1)], mass=1.0, inertia=[1, -1, 1]), ["inertia"]),
        (lambda s: s.add_object("b", [sm.Sphere(0.1)], density=-1.0), ["density"]),
        (lambda s: s.add_Newton_impact_friction_nsl("c", e=1.5), ["restitution"]),
        (lambda s: s.add_object("g", [sm.Plane()], mass=1.0, inertia=[1, 1, 1]), ["static"]),
        (lambda s: s.simulation(h=-1.0), ["step"]),
        (lambda s: s.simulation(h=1e-3, theta=0.2), ["theta"]),
    ],
)
def test_bad_input_raises_model_error(build, words):
    scene = sm.Scene()
    with pytest.raises(saltus.ModelError) as e:
        build(scene)
    assert isinstance(e.value, saltus.SaltusError)
    for w in words:
        assert w in str(e.value)


def _double_pendulum_scene():
    """samples/double_pendulum_3d built with the Siconos-style scene API."""
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    rod = sm.Capsule(0.02, 0.5)
    scene.add_object(
        "rod1",
        [rod],
        translation=(0.4, 0, -0.3),
        orientation=(0.7071067811865476, -0.42426406871192845, 0, -0.565685424949238),
        mass=1.0,
        inertia=[0.08343333333333333, 0.0002, 0.08343333333333333],
    )
    scene.add_object(
        "rod2",
        [rod],
        translation=(0.8, 0.3, -1),
        orientation=(0.8944271909999159, -0.4472135954999579, 0, 0),
        mass=0.5,
        inertia=[0.041716666666666666, 0.0001, 0.041716666666666666],
    )
    scene.add_joint("hinge", "rod1", points=[[0, 0, 0]], axes=[[0, 1, 0]], joint_class="PivotJointR")
    scene.add_joint("ball", "rod2", "rod1", points=[[0.8, 0, -0.6]], joint_class="KneeJointR")
    return scene


def test_double_pendulum_joints_from_python_are_the_sample(tmp_path):
    xml = (SAMPLES / "double_pendulum_3d" / "double_pendulum_3d.xml").read_text()
    assert 'T="10"' in xml
    m = tmp_path / "dp.xml"
    m.write_text(xml.replace('T="10"', 'T="1"'))
    ref = saltus.load(m).run()
    sim = _double_pendulum_scene().simulation(h=1e-3, theta=0.5, tol=1e-12, max_iter=10_000, projection_tol=1e-12)
    out = sim.run(t_end=1.0)
    # one naming: the scene built in Python and the model file give the same columns, bit for bit
    # (both runs go through the runtime's driver; times are the exact decimal t0 + k h)
    steps = out.pop("steps")
    assert list(out) == list(ref) and len(steps["t"]) == len(out["t"]) - 1
    for name in ref:
        assert np.array_equal(out[name], ref[name]), name
    # the hinge keeps rod1's pivot end at the origin (rod1's axis is its local y, half length 0.5)
    assert ref["hinge.violation"].max() < 1e-10 and ref["ball.violation"].max() < 1e-10
    # and it moved: the ball joint swung out of the hinge plane
    assert np.abs(out["rod2.y"] - 0.3).max() > 1e-2


@pytest.mark.parametrize(
    "kw, words",
    [
        (dict(joint_class="HingeJointR"), ["joint `j`", "joint_class must be one of", "PivotJointR"]),
        (dict(joint_class="FixedJointR", points=[[0, 0, 0]]), ["FixedJointR takes no point"]),
        (dict(object2="nobody"), ["no body named `nobody`"]),
        (dict(absolute=False), ["absolute=True"]),
        (dict(axes=[[0, 0, 0]]), ["joint `j`", "axis"]),
        (dict(points=[[0, 1]]), ["points is a list of 3-vectors"]),
    ],
)
def test_bad_joint_raises_model_error(kw, words):
    scene = _double_pendulum_scene()
    with pytest.raises(saltus.ModelError) as e:
        scene.add_joint("j", "rod1", **kw)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_joint_coupler_from_python_is_the_sample(tmp_path):
    """``Scene.add_joint_coupler`` (Siconos ``CouplerJointR``): the gear pair and the screw of
    ``samples/gear_and_screw`` built in Python give the sample's columns bit for bit, and follow
    the closed forms: ``θ₁ = τ t²/(2 (I₁ + r² I₂))`` with ``θ₂ = −2 θ₁``, ``s = −a t²/2`` with
    ``θ = 5 s``, ``a = g/(1 + 25 · 0.02)``."""
    xml = (SAMPLES / "gear_and_screw" / "gear_and_screw.xml").read_text()
    m = tmp_path / "gs.xml"
    m.write_text(xml.replace('T="2"', 'T="0.5"'))
    ref = saltus.load(m).run()
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_primitive_shape("ball", "Sphere", [0.2])
    scene.add_object("wheel1", ["ball"], translation=(0, 0, 1), mass=1.0, inertia=[0.1, 0.1, 0.1])
    scene.add_object("wheel2", ["ball"], translation=(1, 0, 1), mass=1.0, inertia=[0.05, 0.05, 0.05])
    scene.add_object("nut", ["ball"], translation=(3, 0, 1), mass=1.0, inertia=[0.05, 0.05, 0.02])
    scene.set_external_force("wheel1", torque=(0, 0.5, 0))
    a1 = scene.add_joint("axle1", "wheel1", points=[[0, 0, 1]], axes=[[0, 1, 0]])
    a2 = scene.add_joint("axle2", "wheel2", points=[[1, 0, 1]], axes=[[0, 1, 0]])
    sc = scene.add_joint("screw", "nut", points=[[3, 0, 0]], axes=[[0, 0, 1]], joint_class="CylindricalJointR")
    assert scene.add_joint_coupler(a1, 0, a2, 0, -2.0) == 0
    assert scene.add_joint_coupler(sc, 0, sc, 1, 5.0) == 1
    with pytest.raises(saltus.ModelError, match="with itself"):
        scene.add_joint_coupler(a1, 0, a1, 0, 2.0)
    with pytest.raises(saltus.ModelError, match="no coordinate 1"):
        scene.add_joint_coupler(a1, 1, a2, 0, 2.0)
    out = scene.simulation(h=1e-3, theta=0.5, tol=1e-12, max_iter=1000, projection_tol=1e-12).run(t_end=0.5)
    out.pop("steps")
    assert list(out) == list(ref)
    for name in ref:
        assert np.array_equal(out[name], ref[name]), name
    t = out["t"]
    np.testing.assert_allclose(out["axle2.coupler[0].s1"], 0.5 * t**2 / (2 * 0.3), atol=1e-9)
    np.testing.assert_allclose(out["axle2.coupler[0].s2"], -2 * out["axle2.coupler[0].s1"], atol=1e-9)
    a = G / (1 + 25 * 0.02)
    np.testing.assert_allclose(out["screw.coupler[0].s1"], -0.5 * a * t**2, atol=1e-9)
    np.testing.assert_allclose(out["screw.coupler[0].s2"], 5 * out["screw.coupler[0].s1"], atol=1e-9)


def cubes_dropped(margin=0.02):
    """A 20 cm cube at rest on the ground and one dropped onto it from 0.2 m (issue 27)."""
    scene = sm.Scene(gravity=(0, 0, -G), margin=margin)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.5)
    scene.add_primitive_shape("cube", "Box", (0.2, 0.2, 0.2))
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    inertia = [1.0 * 0.04 / 6] * 3
    scene.add_object("base", ["cube"], translation=(0, 0, 0.1), mass=1.0, inertia=inertia)
    scene.add_object("top", ["cube"], translation=(0.02, -0.01, 0.5), mass=1.0, inertia=inertia)
    return scene


@pytest.mark.parametrize("project", [False, True])
def test_projection_onto_the_contacts(project):
    """With h = 0.02 s the dropped cube sinks by 1.6 cm into the one below (Moreau–Jean's
    activation); ``projection_tol`` (Siconos ``TimeSteppingDirectProjection``) puts every gap back
    to >= -1e-10 after each step and the stack rests at its geometric heights 0.1 and 0.3 m."""
    sim = cubes_dropped().simulation(h=0.02, theta=0.5, tol=1e-10, max_iter=10_000,
                                     projection_tol=1e-10 if project else None)
    deepest = np.inf
    for _ in range(50):
        rep = sim.step()
        if len(rep["gap"]):
            deepest = min(deepest, rep["gap"].min())
        if project:
            assert rep["projection_converged"] and rep["projection_violation"] <= 1e-10
        else:
            assert "projection_converged" not in rep
    top = sim.state("top")["position"][2]
    if project:
        assert deepest >= -1e-10
        assert top == pytest.approx(0.3, abs=1e-9)
        assert sim.state("base")["position"][2] == pytest.approx(0.1, abs=1e-10)
    else:
        assert deepest < -1e-2 and top < 0.3 - 1e-2


def test_sliding_box_scene_from_python_is_the_sample():
    """One model, two faces (issue 28), a contact scene: ``samples/sliding_box`` built with
    ``Scene`` gives the model file's columns bit for bit, and the box stops after
    ``v₀²/(2 μ g)`` (Coulomb friction, the box neither lifts nor tips)."""
    ref = saltus.load(SAMPLES / "sliding_box" / "sliding_box.xml").run()
    scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
    scene.add_primitive_shape("floor", "Plane", [0, 0, 1])
    scene.add_primitive_shape("brick", "Box", [0.2, 0.2, 0.1])
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.3)
    scene.add_object("ground", ["floor"])
    scene.add_object("box", ["brick"], translation=(0, 0, 0.05), velocity=(1, 0, 0, 0, 0, 0), density=500)
    out = scene.simulation(h=1e-3, theta=0.5, tol=1e-12, max_iter=10_000).run(t_end=0.6)
    out.pop("steps")
    assert list(out) == list(ref)
    for c in ref:
        assert np.array_equal(out[c], ref[c]), c
    assert abs(ref["box.x"][-1] - 1.0 / (2 * 0.3 * G)) < 2e-3
    assert np.abs(ref["box.z"] - 0.05).max() < 1e-3 and np.abs(ref["box.qw"] - 1).max() < 1e-9


def test_global_formulation_with_rolling_friction_follows_the_local_one():
    """``formulation="global"`` with a rolling law (Siconos ``GlobalRollingFrictionContact``,
    ``GLOBAL_ROLLING_FRICTION_3D_NSGS_WR``): a ball launched rolling decelerates at
    ``(5/7) g μ_r / R`` as in the local formulation, every step equal to its numbers to 1e-12."""
    def run(formulation):
        scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
        scene.add_primitive_shape("floor", "Plane", [0, 0, 1])
        scene.add_primitive_shape("ball", "Sphere", [0.1])
        scene.add_Newton_impact_rolling_friction_nsl("contact", e=0.0, mu=0.5, mu_r=0.01)
        scene.add_object("ground", ["floor"])
        scene.add_object("ball", ["ball"], translation=(0, 0, 0.1), velocity=(1, 0, 0, 0, 10, 0), mass=1.0,
                         inertia=[0.004] * 3)
        return scene.simulation(h=1e-3, theta=0.5, tol=1e-13, max_iter=10_000, formulation=formulation).run(t_end=1.0)

    loc, glo = run("local"), run("global")
    a = 5.0 / 7.0 * G * 0.01 / 0.1
    assert np.allclose(glo["ball.vx"], 1.0 - a * glo["t"], atol=1e-9)
    for c in ("ball.x", "ball.vx", "ball.wy"):
        assert np.allclose(glo[c], loc[c], rtol=0, atol=1e-12), c
    with pytest.raises(saltus.SimulationError, match="GLOBAL_ROLLING_FRICTION_3D_NSGS_WR"):
        scene = sm.Scene(gravity=(0, 0, -G), margin=0.01)
        scene.add_Newton_impact_rolling_friction_nsl("contact", e=0.0, mu=0.5, mu_r=0.01)
        scene.add_primitive_shape("ball", "Sphere", [0.1])
        scene.add_object("ball", ["ball"], mass=1.0, inertia=[0.004] * 3)
        scene.simulation(h=1e-3, formulation="global", global_solver="gfc3d-nsgs-global")
