"""The bouncing ball and the diode bridge built with the Siconos-style classes: the same
trajectories as Siconos 4.4 (../shared/reference) to 1e-9, and the same bits as the samples."""

import numpy as np
import pytest

import saltus as sk

from conftest import SAMPLES


def bouncing_ball(T=10.0, h=0.005, e=0.9):
    mass = np.eye(3)
    mass[2, 2] = 2.0 / 5.0 * 0.1**2
    ball = sk.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], mass, name="ball")
    ball.setFExtPtr([-9.81, 0.0, 0.0])
    inter = sk.Interaction(sk.NewtonImpactNSL(e), sk.LagrangianLinearTIR([[1.0, 0.0, 0.0]]), name="floor")
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ball)
    nsds.link(inter, ball)
    lcp = sk.LCP("Lemke", tol=1e-6, max_iter=10000)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5, gamma=0.5), lcp)
    return nsds, sim, ball, inter


def diode_bridge():
    L, C, R = 1e-2, 1e-6, 1e3
    A = [[0.0, -1.0 / C], [1.0 / L, 0.0]]
    Cm = [[0.0, 0.0], [0.0, 0.0], [-1.0, 0.0], [1.0, 0.0]]
    D = [[1 / R, 1 / R, -1.0, 0.0], [1 / R, 1 / R, 0.0, -1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    B = [[0.0, 0.0, -1.0 / C, 1.0 / C], [0.0, 0.0, 0.0, 0.0]]
    ds = sk.FirstOrderLinearTIDS([10.0, 0.0], A, name="circuit")
    rel = sk.FirstOrderLinearTIR(Cm, B)
    rel.setDPtr(D)
    inter = sk.Interaction(sk.ComplementarityConditionNSL(4), rel, name="bridge")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 5e-3)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-6), sk.EulerMoreauOSI(0.5), sk.LCP("Lemke", tol=1e-6, max_iter=10000))
    return nsds, sim


def read_ref(path):
    with open(path) as f:
        names = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return {n: data[:, i] for i, n in enumerate(names)}


def test_bouncing_ball_matches_siconos(reference_dir):
    ref = read_ref(reference_dir / "bouncing_ball_ts" / "bouncing_ball_ts.csv")
    _, sim, _, _ = bouncing_ball()
    out = sim.run(record=["t", "ball.q[0]", "ball.v[0]", "floor.lambda[0]"])
    assert len(out["t"]) == len(ref["t"]) == 2001
    for ours, theirs in (("t", "t"), ("ball.q[0]", "q0"), ("ball.v[0]", "v0"), ("floor.lambda[0]", "lambda")):
        err = np.max(np.abs(out[ours] - ref[theirs]))
        assert err <= 1e-9, f"{ours}: max |diff| = {err:.3e}"
    # the ball bounced (354 steps with an active contact in Siconos); the velocity-level scheme
    # lets it sink at most one step's travel, h max|v|
    assert np.count_nonzero(out["floor.lambda[0]"]) > 100
    assert out["ball.q[0]"].min() >= -0.005 * np.abs(out["ball.v[0]"]).max()


def test_bouncing_ball_step_loop_equals_fast_run(reference_dir):
    """The Siconos loop (has_next_event / compute_one_step / next_step) and run() agree bitwise."""
    _, sim, ball, inter = bouncing_ball(T=2.0)
    qs, lams = [ball.q()[0]], [0.0]
    while sim.hasNextEvent():
        sim.computeOneStep()
        qs.append(ball.q()[0])
        lams.append(inter.lambda_(1)[0])
        sim.nextStep()
    _, sim2, _, _ = bouncing_ball(T=2.0)
    out = sim2.run(record=["ball.q[0]", "floor.lambda[0]"])
    assert np.array_equal(np.array(qs), out["ball.q[0]"])
    assert np.array_equal(np.array(lams), out["floor.lambda[0]"])
    ref = read_ref(reference_dir / "bouncing_ball_ts" / "bouncing_ball_ts.csv")
    assert np.max(np.abs(np.array(qs) - ref["q0"][: len(qs)])) <= 1e-9


def test_bouncing_ball_bitwise_as_the_sample():
    _, sim, _, _ = bouncing_ball()
    ours = sim.run()
    sample = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ts.xml").run()
    assert list(ours) == list(sample)
    for c in ours:
        assert np.array_equal(ours[c], sample[c]), c


def test_diode_bridge_matches_siconos(reference_dir):
    ref = read_ref(reference_dir / "diode_bridge" / "diode_bridge.csv")
    _, sim = diode_bridge()
    out = sim.run()
    assert len(out["t"]) == len(ref["t"]) == 5001
    pairs = [("circuit.x[0]", "vC"), ("circuit.x[1]", "iL")]
    pairs += [(f"bridge.y[{i}]", f"y{i}") for i in range(4)] + [(f"bridge.lambda[{i}]", f"lambda{i}") for i in range(4)]
    for ours, theirs in pairs:
        err = np.max(np.abs(out[ours] - ref[theirs]))
        assert err <= 1e-9, f"{ours}: max |diff| = {err:.3e}"
    # complementarity 0 <= y ⟂ λ >= 0 on every row
    y = np.stack([out[f"bridge.y[{i}]"] for i in range(4)])
    lam = np.stack([out[f"bridge.lambda[{i}]"] for i in range(4)])
    assert y.min() > -1e-9 and lam.min() > -1e-9
    assert np.max(np.abs(y * lam)) < 1e-9


def test_diode_bridge_bitwise_as_the_sample():
    _, sim = diode_bridge()
    ours = sim.run()
    sample = sk.load(SAMPLES / "diode_bridge" / "diode_bridge.xml").run()
    for c in sample:
        assert np.array_equal(ours[c], sample[c]), c


def test_to_xml_round_trip(tmp_path):
    nsds, sim, _, _ = bouncing_ball(T=1.0)
    path = tmp_path / "ball.xml"
    text = sk.to_xml(nsds, sim, path)
    assert "<LagrangianLinearTIDS" in text and path.read_text() == text
    a = sim.run()
    b = sk.load(path).run()
    for c in a:
        assert np.array_equal(a[c], b[c]), c


def test_event_driven_ball_matches_siconos(reference_dir):
    ref = read_ref(reference_dir / "bouncing_ball_ed" / "bouncing_ball_ed_trajectory.csv")
    mass = np.diag([1.0, 1.0, 0.006])
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], mass, name="ball")
    ball.setFExtPtr([-9.81, 0, 0])
    nsds = sk.NonSmoothDynamicalSystem(0, 8.5)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]), name="floor"), ball)
    sim = sk.EventDriven(
        nsds,
        sk.TimeDiscretisation(0, 0.005),
        sk.LsodarOSI(rtol=1e-12, atol=1e-14),
        impact=sk.LCP("Lemke", tol=1e-6),
        acceleration=sk.LCP("Lemke", tol=1e-6),
        event_tol=1e-10,
    )
    out = sim.run()
    sample = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ed.xml").run()
    for c in sample:
        assert np.array_equal(out[c], sample[c]), c
    assert "kind" in out
    assert len(out["t"]) == len(ref["t"])
    for ours, theirs in (("t", "t"), ("ball.q[0]", "q0"), ("ball.v[0]", "v0"), ("kind", "kind")):
        err = np.max(np.abs(out[ours] - ref[theirs]))
        assert err <= 1e-9, f"{ours}: max |diff| = {err:.3e}"


def test_state_accessors_are_live_read_only_views():
    """ds.q(), ds.velocity(), inter.lambda_(1), ds.x(): before the build a copy of the initial
    values; after it one read-only array per vector, updated in place after every step and run,
    equal bit for bit to the rows of run()."""
    _, full_sim, _, _ = bouncing_ball(T=1.0)
    full = full_sim.run()
    _, sim, ball, inter = bouncing_ball(T=1.0)
    q0 = ball.q()
    q0[0] = 5.0  # a copy before the build: q0 itself is untouched
    assert ball.q()[0] == 1.0 and inter.lambda_(1) is None
    assert sim.has_next_event()  # builds the simulation
    q, v, lam = ball.q(), ball.velocity(), inter.lambda_(1)
    assert q is ball.q() and v is ball.velocity() and lam is inter.lambda_(1) and q is sim.q("ball")
    assert sim.lambda_("floor") is lam and inter.lambda_(0) is sim.lambda_("floor", 0)
    with pytest.raises(ValueError):
        q[0] = 2.0
    for k in range(1, 61):
        sim.compute_one_step()
        assert (q[0], v[0], lam[0]) == (full["ball.q[0]"][k], full["ball.v[0]"][k], full["floor.lambda[0]"][k])
    kept = q.copy()
    sim.run()
    assert q[0] == full["ball.q[0]"][-1] and v[0] == full["ball.v[0]"][-1] and kept[0] == full["ball.q[0]"][60]
    _, dsim = diode_bridge()
    circuit, bridge = dsim.nsds.systems[0], dsim.nsds.interactions[0]
    out = dsim.run(record=["circuit.x[0]", "bridge.lambda[3]"])
    x, lam = circuit.x(), bridge.lambda_(0)
    assert x[0] == out["circuit.x[0]"][-1] and lam[3] == out["bridge.lambda[3]"][-1]
    assert dsim.velocity("circuit") is None


def test_run_continues_from_the_current_step():
    """A few Python steps, then run(): the rows continue the same trajectory, bit for bit."""
    _, full_sim, _, _ = bouncing_ball(T=2.0)
    full = full_sim.run()
    _, sim, ball, _ = bouncing_ball(T=2.0)
    for _ in range(37):
        sim.compute_one_step()
    assert sim.t() == full["t"][37] and ball.q()[0] == full["ball.q[0]"][37]
    rest = sim.run()
    assert not sim.has_next_event()
    for c in full:
        assert np.array_equal(rest[c], full[c][37:]), c


def test_event_driven_step_loop_reaches_the_same_final_state():
    def build():
        ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.diag([1.0, 1.0, 0.006]), name="ball")
        ball.setFExtPtr([-9.81, 0, 0])
        nsds = sk.NonSmoothDynamicalSystem(0, 2.0)
        nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]), name="floor"), ball)
        return sk.EventDriven(nsds, sk.TimeDiscretisation(0, 0.005), sk.LsodarOSI(rtol=1e-12, atol=1e-14)), ball

    sim, ball = build()
    events = 0
    while sim.hasNextEvent():
        sim.advanceToEvent()
        sim.processEvents()
        events += 1
    out = build()[0].run()
    assert sim.t() == out["t"][-1] == 2.0
    assert ball.q()[0] == out["ball.q[0]"][-1] and ball.velocity()[0] == out["ball.v[0]"][-1]
    # one TD event per h, plus the impacts (a kind-2 row each)
    impacts = int(np.count_nonzero(out["kind"] == 2))
    assert impacts >= 2 and events == 400 + impacts - int(np.count_nonzero((out["kind"] == 2) & np.isin(out["t"], out["t"][out["kind"] == 0])))


def test_sliding_block_with_coulomb_friction():
    """A block launched at 1 m/s on a floor with μ = 0.3 stops after v²/(2 μ g), at t = v/(μ g)."""
    mu, g, v0 = 0.3, 9.81, 1.0
    block = sk.LagrangianLinearTIDS([0.0, 0.0], [v0, 0.0], np.eye(2), name="block")  # q = (x, z)
    block.setFExtPtr([0.0, -g])
    contact = sk.Interaction(
        sk.NewtonImpactFrictionNSL(0.0, 0.0, mu, 2), sk.LagrangianLinearTIR([[0.0, 1.0], [1.0, 0.0]]), name="floor"
    )  # y = (gap z, tangential x)
    nsds = sk.NonSmoothDynamicalSystem(0.0, 0.6)
    nsds.link(contact, block)
    h = 1e-3
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), sk.FrictionContact(2, "Nsgs2d", tol=1e-12))
    out = sim.run()
    d = v0**2 / (2 * mu * g)
    assert abs(out["block.q[0]"][-1] - d) < 2 * h * v0, out["block.q[0]"][-1]
    assert abs(out["block.v[0]"][-1]) < 1e-12
    t_stop = out["t"][np.argmax(np.abs(out["block.v[0]"]) < 1e-12)]
    assert abs(t_stop - v0 / (mu * g)) <= 2 * h
    assert np.max(np.abs(out["block.q[1]"])) < 1e-9  # stays on the floor


def test_implicit_twisting_normal_cone_bitwise_as_the_sample():
    """NormalConeNSL + AVI built with the Siconos-style classes (the setup of Siconos's testAVI)
    runs as the sample file, bit for bit, and λ stays in the parallelogram P."""
    h, G, beta = 0.1, 10.0, 0.3
    ds = sk.FirstOrderLinearTIDS([10.0, 10.0], [[0.0, 1.0], [0.0, 0.0]], name="plant")
    rel = sk.FirstOrderLinearTIR(np.eye(2), [[0.0, 0.0], [G, G * beta]])
    H = [[1.0, 0.0], [-h / 2, 1.0], [-1.0, 0.0], [h / 2, -1.0]]
    inter = sk.Interaction(sk.NormalConeNSL(2, H, [-1.0] * 4), rel, name="twisting")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 20.0)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.EulerMoreauOSI(0.5), sk.AVI("CaoFerris", tol=1e-12))
    ours = sim.run()
    sample = sk.load(SAMPLES / "implicit_twisting" / "implicit_twisting.xml").run()
    for c in sample:
        assert np.array_equal(ours[c], sample[c]), c
    lam = np.stack([ours["twisting.lambda[0]"], ours["twisting.lambda[1]"]])
    assert (np.array(H) @ lam + 1.0).min() > -1e-12



def two_balls_gosi(k, gosi, gfc):
    """Siconos's TwoBouncingBallTS-MoreauJeanGOSI (samples/two_bouncing_balls/two_bouncing_balls_gosi.xml)
    with the classes of ``k`` (``saltus`` or ``siconos.kernel``), the integrator and problem given."""
    R, g = 0.1, 9.81
    balls = []
    for name, m, x in (("ball1", 1.0, 0.1), ("ball2", 2.0, 0.301)):
        named = {"name": name} if k is sk else {}  # Siconos's constructors take no name
        b = k.LagrangianLinearTIDS([x, 0, 0], [0, 0, 0], np.diag([m, m, 0.4 * m * R * R]), **named)
        b.setFExtPtr([-m * g, 0, 0])
        balls.append(b)
    nsds = k.NonSmoothDynamicalSystem(0, 3)
    law = k.NewtonImpactFrictionNSL(0.95, 0.95, 0.6, 3)
    floor, pair = ({"name": "floor"}, {"name": "balls"}) if k is sk else ({}, {})
    nsds.link(k.Interaction(law, k.LagrangianLinearTIR(np.eye(3)), **floor), balls[0])
    H = np.hstack([-np.eye(3), np.eye(3)])
    nsds.link(k.Interaction(law, k.LagrangianLinearTIR(H, [-2 * R, 0, 0]), **pair), balls[0], balls[1])
    return k.TimeStepping(nsds, k.TimeDiscretisation(0, 1e-3), gosi, gfc), balls


def test_moreau_jean_gosi_from_python_is_the_sample():
    """MoreauJeanGOSI + GlobalFrictionContact built with the Python classes give the global
    sample's columns bit for bit, and the same final state through siconos.kernel's classes
    stepped as a Siconos script does; both balls fall (ball1 0.1 m onto the floor, ball2 1 mm above it),
    bounce and end resting, ball2 on ball1."""
    sample = sk.load(SAMPLES / "two_bouncing_balls" / "two_bouncing_balls_gosi.xml").run()
    sim, _ = two_balls_gosi(sk, sk.MoreauJeanGOSI(0.5), sk.GlobalFrictionContact(3, "NsgsWr", tol=1e-13, max_iter=1000))
    ours = sim.run()
    assert list(ours) == list(sample)
    for c in ours:
        assert np.array_equal(ours[c], sample[c]), c
    import saltus.siconos as compat

    compat.install()
    try:
        import siconos.kernel as K
        import siconos.numerics as N

        gfc = K.GlobalFrictionContact(3, N.SICONOS_GLOBAL_FRICTION_3D_NSGS_WR)
        gfc.numericsSolverOptions().dparam[N.SICONOS_DPARAM_TOL] = 1e-13
        gfc.numericsSolverOptions().iparam[N.SICONOS_IPARAM_MAX_ITER] = 1000
        sim, balls = two_balls_gosi(K, K.MoreauJeanGOSI(0.5), gfc)
        while sim.hasNextEvent():
            sim.computeOneStep()
            sim.nextStep()
        for name, b in zip(("ball1", "ball2"), balls):
            q = np.asarray(b.q())
            want = [sample[f"{name}.q[{i}]"][-1] for i in range(3)]
            assert np.array_equal(q, want), (name, q, want)
        with pytest.raises(NotImplementedError, match="SICONOS_GLOBAL_FRICTION_3D_NSGS_WR or"):
            K.GlobalFrictionContact(3, N.SICONOS_GLOBAL_FRICTION_3D_PROX_WR)
    finally:
        compat.uninstall()
    gap = sample["ball2.q[0]"] - sample["ball1.q[0]"] - 0.2
    assert gap[0] == pytest.approx(1e-3) and abs(gap[-1]) < 1e-4, gap[-1]
    assert abs(sample["ball1.q[0]"][-1]) < 1e-4  # ball1 (its gap to the floor is q[0]) rests on the floor
    assert np.max(sample["ball1.q[0]"]) <= 0.1 + 1e-12  # and never rises above its start (en < 1)


def test_generic_mechanical_from_python_solves_the_ball_as_the_lcp():
    """GenericMechanical (one complementarity block per impact row, exact one-row solves in the
    Gauss–Seidel) on the bouncing ball: the LCP's trajectory to round-off."""
    _, lcp_sim, _, _ = bouncing_ball(T=3.0)
    nsds, _, _, _ = bouncing_ball(T=3.0)
    gmp = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 0.005), sk.MoreauJeanOSI(0.5, gamma=0.5),
                          sk.GenericMechanical("GaussSeidel", tol=1e-12, max_iter=100))
    a, b = lcp_sim.run(), gmp.run()
    assert list(a) == list(b)
    assert np.max(np.abs(a["ball.q[0]"] - b["ball.q[0]"])) < 1e-12
    assert np.max(a["floor.lambda[0]"]) > 0.1 and np.max(np.abs(a["floor.lambda[0]"] - b["floor.lambda[0]"])) < 1e-12
    with pytest.raises(ValueError, match="no solver 'Lemke'; the solvers are GaussSeidel"):
        sk.GenericMechanical("Lemke")
