"""Siconos's kernel-level rigid bodies (``RigidBodyDS``, ``SiconosBox``, ``SiconosPlane``,
``SiconosContactor(Set)``, ``SiconosBulletCollisionManager``, the ``BulletBouncingBox`` tutorials)
on Saltus's mechanics engine, against closed forms: free fall, Newton's law at the flat
landing of a box, the weight carried at rest (``interactions(indexSet(1))``), a box inserted
between steps falling from rest from then on, and the manager's queries."""

import numpy as np
import pytest

import saltus.siconos as compat

G, H = 9.81, 0.005


@pytest.fixture
def sc():
    compat.install()
    import siconos.kernel as sk
    from siconos.mechanics import collision
    from siconos.mechanics.collision import bullet

    yield sk, collision, bullet
    compat.uninstall()


def _box(collision, z):
    body = collision.RigidBodyDS([0, 0, z, 1.0, 0, 0, 0], [0, 0, 0, 0, 0, 0], 1.0)
    body.contactors().push_back(collision.SiconosContactor(collision.SiconosBox(1.0, 1.0, 1.0)))
    body.setFExtPtr([0, 0, -body.scalarMass() * G])
    return body


def _simulation(sk, collision, bullet, body, T, e=0.8):
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(body)
    osnspb = sk.FrictionContact(3)
    osnspb.numericsSolverOptions().iparam[0] = 10000
    osnspb.numericsSolverOptions().dparam[0] = 1e-12
    manager = bullet.SiconosBulletCollisionManager()
    manager.insertNonSmoothLaw(sk.NewtonImpactFrictionNSL(e, 0.0, 0.0, 3), 0, 0)
    ground = collision.SiconosContactorSet()
    ground.append(collision.SiconosContactor(collision.SiconosPlane()))
    manager.addStaticBody(ground, [0, 0, -0.5, 1, 0, 0, 0])
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, H))
    s.insertInteractionManager(manager)
    s.insertIntegrator(sk.MoreauJeanOSI(0.5))
    s.insertNonSmoothProblem(osnspb)
    return nsds, s, manager


def test_a_box_falls_lands_flat_by_newtons_law_and_rests_on_its_four_corners(sc):
    sk, collision, bullet = sc
    body = _box(collision, 10.0)
    nsds, s, manager = _simulation(sk, collision, bullet, body, 20.0)
    q, v = body.q(), body.velocity()
    rows, bounced = [], None
    while s.hasNextEvent():
        v0 = v[2]
        s.computeOneStep()
        t = s.nextTime()
        index1 = sk.interactions(s.indexSet(1))
        if bounced is None and index1:
            bounced = (t, v0, v[2], index1)
        rows.append((t, q[2], v[2], sum(np.linalg.norm(i.lambda_(1)) for i in index1), len(index1)))
        s.nextStep()
    r = np.array(rows)
    assert r.shape[0] == 4000 and nsds.topology().numberOfIndexSet() == 2
    # free fall before the landing: z = 10 - g t²/2 at the steps (θ = 1/2 is exact)
    falling = r[:, 0] < bounced[0] - 1e-9
    np.testing.assert_allclose(r[falling, 1], 10 - G * r[falling, 0] ** 2 / 2, atol=1e-9)
    # the landing step: four corner contacts, each closing at u⁻ and leaving at u⁺ = -e u⁻
    t, v_before, v_after, contacts = bounced
    assert len(contacts) == 4 and v_before < -13
    for c in contacts:
        assert c.y(1)[0] == pytest.approx(-0.8 * v_before, rel=1e-9)
    assert v_after == pytest.approx(-0.8 * v_before, rel=1e-9)
    # at rest: four contacts carry the weight's impulse m g h
    assert r[-1, 4] == 4 and r[-1, 3] == pytest.approx(G * H, rel=1e-9)
    assert abs(r[-1, 2]) < 1e-9 and abs(r[-1, 1]) < 0.02  # within the contact margin of the plane
    assert manager.statistics().new_interactions_created == 4
    # the manager's queries: the vertical line meets the box's top face, then the plane (static)
    hits = manager.lineIntersectionQuery([0, 0, 5], [0, 0, -5])
    assert [h.body is body for h in hits] == [True, False] and hits[1].body is None
    assert hits[0].distance == pytest.approx(5 - (q[2] + 0.5), abs=1e-12)


def test_a_box_inserted_between_steps_falls_from_rest_from_then_on(sc):
    sk, collision, bullet = sc
    body = _box(collision, 10.0)
    nsds, s, _ = _simulation(sk, collision, bullet, body, 1.0)
    second, k, t_in, zs = None, 0, None, []
    while s.hasNextEvent():
        if k == 100:
            second = _box(collision, 3.0)
            nsds.insertDynamicalSystem(second)
            t_in = s.nextTime() - H  # it joins the step that starts now
        s.computeOneStep()
        if second is not None:
            zs.append((s.nextTime(), second.q()[2]))
        k += 1
        s.nextStep()
    z = np.array(zs)
    np.testing.assert_allclose(z[:, 1], 3 - G * (z[:, 0] - t_in) ** 2 / 2, atol=1e-9)


def test_what_the_kernel_rigid_bodies_lack_is_named(sc):
    sk, collision, bullet = sc
    body = _box(collision, 1.0)
    nsds, s, _ = _simulation(sk, collision, bullet, body, 1.0)
    s.insertNonSmoothProblem(sk.LCP())
    with pytest.raises(NotImplementedError, match="rigid bodies with LCP"):
        s.computeOneStep()
