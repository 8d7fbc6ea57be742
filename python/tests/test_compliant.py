"""The compliant relations built in Python give the bits of their model-file samples."""

import numpy as np

import saltus as sk
from conftest import SAMPLES


def _ball_on_floor(relation, h, newton_tol=None, plugin_dirs=None):
    ball = sk.LagrangianLinearTIDS([0.2], [0.0], [[1.0]], name="ball")
    ball.setFExtPtr([-9.81])
    T = 1.0 if newton_tol is None else 0.5
    nsds = sk.NonSmoothDynamicalSystem(0, T)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.0), relation, name="floor"), ball)
    sim = sk.TimeStepping(
        nsds,
        sk.TimeDiscretisation(0, h),
        sk.MoreauJeanOSI(1.0, gamma=0.5),
        sk.LCP("Lemke", tol=1e-12, max_iter=10000),
        plugin_dirs=plugin_dirs,
    )
    if newton_tol is not None:
        sim.setNewtonTolerance(newton_tol)
        sim.setNewtonMaxIteration(30)
    return sim


def _same(a, b):
    assert set(a) == set(b)
    for c in a:
        assert np.array_equal(a[c], b[c]), c


def test_compliant_linear_relation_is_the_sample():
    rel = sk.LagrangianCompliantLinearTIR([[1.0]], [[1e-4]], e=[-0.1])
    ours = _ball_on_floor(rel, 1e-4).run()
    _same(ours, sk.load(SAMPLES / "compliant_contact" / "compliant_contact.xml").run())
    # the ball did reach the floor and penetrate it (the physics is checked by the sample's own tests)
    assert ours["ball.q[0]"].min() < 0.1


def test_compliant_plugin_relation_is_the_sample(plugin_dir):
    rel = sk.LagrangianCompliantR.plugin(
        "saltus_plugin_hertz", "hertz_h", "hertz_jacobian_q", "hertz_jacobian_lambda", params=[-0.1, 1e-4, 1e-2]
    )
    ours = _ball_on_floor(rel, 1e-5, newton_tol=1e-12, plugin_dirs=[plugin_dir]).run(every=10)
    xml = sk.load(SAMPLES / "compliant_hertz" / "compliant_hertz.xml", plugin_dirs=[plugin_dir]).run()
    _same(ours, xml)
    # the same relation from Siconos-style plugin strings
    rel2 = sk.LagrangianCompliantR(
        "saltus_plugin_hertz:hertz_h", "saltus_plugin_hertz:hertz_jacobian_q", "saltus_plugin_hertz:hertz_jacobian_lambda"
    )
    assert (rel2.library, rel2.h, rel2.jacobian_lambda) == ("saltus_plugin_hertz", "hertz_h", "hertz_jacobian_lambda")
