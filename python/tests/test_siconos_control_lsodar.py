"""``siconos.control``'s ``ControlLsodarSimulation``: the pieces of a ``ControlZOHSimulation`` on the
event-driven engine (LSODAR), each actuator's ``B u`` held from its instant on. A linear plant under
a held input is integrated exactly by the zero-order hold, so the two simulations of the same script
must agree to LSODAR's tolerance at every row, with the same ``data()`` layout (the row of ``t0``
included). Measured against Siconos 4.4's ``ControlLsodarSimulation`` on these scripts (2026-11-29):
the SMC run within 2.6e-13, the PID run within 1.9e-10 in ω (of 1.23) and 1.8e-8 in u (of 1100)."""

import numpy as np
import pytest

import saltus.siconos as compat


@pytest.fixture()
def hook():
    compat.install()
    yield
    compat.uninstall()


def _smc(cls):
    """The implicit SMC on the double integrator (σ = x1 + x2, B = (0, 2)): plant step 1 ms, the
    controller every 10 ms."""
    from siconos.control.controller import LinearSMC
    from siconos.control.sensor import LinearSensor
    from siconos.kernel import FirstOrderLinearTIDS

    ds = FirstOrderLinearTIDS([1.0, -1.0], [[0.0, 1.0], [0.0, 0.0]])
    sim = cls(0.0, 1.0, 1e-3)
    sim.setSaveOnlyMainSimulation(True)
    sim.addDynamicalSystem(ds)
    sens = LinearSensor(ds, np.eye(2))
    sim.addSensor(sens, 1e-2)
    act = LinearSMC(sens)
    act.setCsurface([[1.0, 1.0]])
    act.setB([[0.0], [2.0]])
    sim.addActuator(act, 1e-2)
    sim.initialize()
    sim.run()
    return sim


def _pid(cls, only_main):
    """A PID on the speed of a DC motor acting at every plant step (so the row of ``t0`` carries
    the input set at ``t0``, not the one of the first event) and a Luenberger observer every 5."""
    from siconos.control.controller import PID
    from siconos.control.observer import LuenbergerObserver
    from siconos.control.sensor import LinearSensor
    from siconos.kernel import FirstOrderLinearTIDS

    J, b, K, R, L = 0.01, 0.1, 0.01, 1.0, 0.5
    h = 1e-3
    ds = FirstOrderLinearTIDS([0.0, 0.0], [[-b / J, K / J], [-K / L, -R / L]])
    sim = cls(0.0, 2.0, h)
    sim.setSaveOnlyMainSimulation(only_main)
    sim.addDynamicalSystem(ds)
    sens = LinearSensor(ds, [[1.0, 0.0]])
    sim.addSensor(sens, h)
    act = PID(sens)
    act.setB([[0.0], [1.0 / L]])
    act.setK([100.0, 200.0, 1.0])
    act.setRef(1.0)
    act.setDeltaT(h)
    sim.addActuator(act, h)
    sim.addObserver(LuenbergerObserver(sens, [0.0, 0.5], [[1.0, 0.0]], [[10.0], [0.0]]), 5 * h)
    sim.initialize()
    sim.run()
    return sim


def _agree(lsodar, zoh, rtol):
    a, z = lsodar.data(), zoh.data()
    assert a.shape == z.shape
    assert lsodar.dataLegend() == zoh.dataLegend()
    assert np.array_equal(a[:, 0], z[:, 0]), "one row per plant step from t0"
    assert np.array_equal(a[0], z[0]), "the row of t0: x0 and the inputs set at t0"
    for j in range(1, a.shape[1]):
        scale = np.abs(z[:, j]).max()
        err = np.abs(a[:, j] - z[:, j]).max()
        assert err <= rtol * scale, f"column {j}: {err:e} of {scale:e}"


def test_control_lsodar_simulation_follows_the_exact_zero_order_hold(hook):
    from siconos.control.simulation import ControlLsodarSimulation, ControlZOHSimulation

    lsodar, zoh = _smc(ControlLsodarSimulation), _smc(ControlZOHSimulation)
    assert lsodar.data().shape == (1001, 4)
    _agree(lsodar, zoh, 1e-9)
    # the sliding surface is reached and held: σ ≈ 0 at the end, |u| ≤ α = 1
    d = lsodar.data()
    assert abs(d[-1, 1] + d[-1, 2]) < 1e-3 and np.all(np.abs(d[:, 3]) <= 1.0 + 1e-12)

    lsodar, zoh = _pid(ControlLsodarSimulation, True), _pid(ControlZOHSimulation, True)
    assert lsodar.data().shape == (2001, 4), "setSaveOnlyMainSimulation(True): t, x, u"
    _agree(lsodar, zoh, 1e-9)
    assert abs(lsodar.data()[-1, 1] - 1.0) < 1e-3, "the PID drives ω to its reference"
    lsodar, zoh = _pid(ControlLsodarSimulation, False), _pid(ControlZOHSimulation, False)
    assert lsodar.data().shape == (2001, 6), "the observer's estimate follows"
    _agree(lsodar, zoh, 1e-9)
