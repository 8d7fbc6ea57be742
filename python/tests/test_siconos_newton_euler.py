"""Siconos's ``NewtonEulerDS`` in a kernel script (``FastSpinningObjects.py``'s unstable rotation)
on Saltus: a torque about x in the world frame, then a kick about y, under ``TimeStepping`` with
``MoreauJeanOSI(0.5)``. Checked against closed forms: under the constant torque the angular
velocity grows linearly and the body turns by 2 t² (the θ = ½ scheme is exact there); after the
kick, free of torque, the world angular momentum and the kinetic energy stay constant; the live
``q()`` and ``twist()`` follow every step; what Saltus lacks is named."""

import math

import numpy as np
import pytest

import saltus.siconos as compat

H = 1e-3


@pytest.fixture
def sk():
    compat.install()
    import siconos.kernel as sk

    yield sk
    compat.uninstall()


def _unstable_rotation(sk):
    td = 2.0 - H

    class UnstableRotation(sk.NewtonEulerDS):
        def __init__(self, x, v):
            super().__init__(x, v, 1.0, np.diag([5.0, 10.0, 1.0]))
            self.setMExtPtr(sk.SiconosVector(3))
            self.setIsMextExpressedInInertialFrame(True)

        def computeMExt(self, time, mExt=None):
            m = self._mExt if mExt is None else mExt
            m[0] = m[1] = m[2] = 0.0
            if 0 <= time < td:
                m[0] = 20.0
            elif td <= time <= td + H:
                m[1] = 1.0 / (5.0 * H)

    return UnstableRotation([0, 0, 0, 1.0, 0, 0, 0], [0, 0, 0, 0, 0, 0]), td


def test_an_unstable_rotation_keeps_its_angular_momentum_and_energy_after_the_kick(sk):
    ds, td = _unstable_rotation(sk)
    nsds = sk.NonSmoothDynamicalSystem(0.0, 4.0)
    nsds.insertDynamicalSystem(ds)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, H), sk.MoreauJeanOSI(0.5), sk.LCP())
    q, v = ds.q(), ds.twist()
    inertia = ds.inertia()
    rows = []
    while s.hasNextEvent():
        s.computeOneStep()
        t = s.nextTime()
        am = sk.SiconosVector(inertia @ v[3:6])
        sk.changeFrameBodyToAbs(q, am)
        rv = sk.SiconosVector(3)
        sk.rotationVectorFromQuaternion(q[3], q[4], q[5], q[6], rv)
        rows.append([t, *q, *v, *np.asarray(am), *np.asarray(rv)])
        s.nextStep()
    r = np.array(rows)
    assert r.shape[0] == 4000 and r[-1, 0] == pytest.approx(4.0, abs=1e-12)
    before = r[:, 0] < td - 1e-9
    t = r[before, 0]
    # ω_x = 20 t / 5 and the angle 2 t² (q = (cos t², sin t², 0, 0)), exact for θ = ½
    np.testing.assert_allclose(r[before, 11], 4 * t, atol=1e-9)
    np.testing.assert_allclose(r[before, 4], np.cos(t * t), atol=1e-9)
    np.testing.assert_allclose(r[before, 5], np.sin(t * t), atol=1e-9)
    # the rotation vector of the rotation by 2 t² about x (2 asin of the vector part: in [−π, π])
    np.testing.assert_allclose(r[before, 17], 2 * np.arcsin(np.sin(t * t)), atol=1e-6)
    after = r[:, 0] > td + 2 * H + 1e-9
    am = r[after, 14:17]
    omega = r[after, 11:14]
    energy = 0.5 * (omega * omega * np.diag(inertia)).sum(axis=1)
    # free of torque: the world angular momentum and the energy stay (the scheme's midpoint
    # rotation conserves both); the body tumbles (the flip of the intermediate axis x)
    assert np.abs(am - am[0]).max() < 1e-9 * np.linalg.norm(am[0])
    assert np.abs(energy - energy[0]).max() < 1e-9 * energy[0]
    assert omega[:, 0].min() < -7 and omega[:, 0].max() > 7
    # the momentum the torques gave: 20 (td − h/2) about x, the kick's four half-steps 0.4 about y
    assert am[0, 0] == pytest.approx(20 * (td - H / 2), abs=2e-3)
    assert am[0, 1] == pytest.approx(0.4, abs=2e-3)


def test_what_saltus_lacks_for_newton_euler_systems_is_named(sk):
    class Top(sk.NewtonEulerDS):
        def computeMInt(self, time, q, v, mInt=None):
            pass

    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insertDynamicalSystem(Top([0, 0, 0, 1, 0, 0, 0], [0] * 6, 1.0, np.eye(3)))
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, H), sk.MoreauJeanOSI(0.5), sk.LCP())
    with pytest.raises(NotImplementedError, match="computeMInt"):
        s.computeOneStep()
    with pytest.raises(NotImplementedError, match="NewtonEulerR"):
        sk.NewtonEulerR()
    # the in-place functions write into a SiconosVector (a list would lose the result)
    q = sk.SiconosVector(7)
    sk.quaternionFromRotationVector(sk.SiconosVector([math.pi / 2, 0, 0]), q)
    np.testing.assert_allclose(np.asarray(q)[3:], [math.cos(math.pi / 4), math.sin(math.pi / 4), 0, 0], atol=1e-15)
    with pytest.raises(TypeError):
        sk.changeFrameBodyToAbs(q, [1.0, 0.0, 0.0])
