"""Siconos ``ZeroOrderHoldOSI`` with a relation (``Bd = Ψ B``: the input ``B λ_{k+1}`` held over the
step): a Siconos script stepping a mass pushed by ``b = −1`` against Coulomb friction ``F = ½`` (a
``RelayNSL`` on the velocity, ``Relay`` one-step problem). The held friction is the exact input, so
every step is on the parabola ``x = 1 − t²/4``, ``v = −t/2``. (Siconos 4.4 itself stops on this
script with a segmentation fault; its ``EulerMoreauOSI(0.5)``, exact here too, gives the same
trajectory within 1.4e-12.)"""

import numpy as np
import pytest

import saltus.siconos as compat


@pytest.fixture()
def hook():
    compat.install()
    yield
    compat.uninstall()


def test_zero_order_hold_with_a_relay_slides_on_the_exact_parabola(hook):
    import siconos.kernel as sk

    t0, T, h = 0.0, 2.0, 1e-2
    mass = sk.FirstOrderLinearTIDS([1.0, 0.0], np.array([[0.0, 1.0], [0.0, 0.0]]))
    mass.setbPtr(np.array([0.0, -1.0]))
    rel = sk.FirstOrderLinearTIR(np.array([[0.0, 1.0]]), np.array([[0.0], [1.0]]))
    inter = sk.Interaction(sk.RelayNSL(1, -0.5, 0.5), rel)
    nsds = sk.NonSmoothDynamicalSystem(t0, T)
    nsds.insertDynamicalSystem(mass)
    nsds.link(inter, mass)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(t0, h), sk.ZeroOrderHoldOSI(), sk.Relay())
    steps = 0
    while s.hasNextEvent():
        s.computeOneStep()
        t = s.nextTime()
        x, v = mass.x()[0], mass.x()[1]
        assert abs(v + 0.5 * t) < 1e-13 and abs(x - (1.0 - 0.25 * t * t)) < 1e-13, (t, x, v)
        assert abs(inter.lambda_(0)[0] - 0.5) < 1e-13
        steps += 1
        s.nextStep()
    assert steps == 200
