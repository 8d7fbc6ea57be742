"""Bad input raises SaltusError subclasses with located messages; nothing panics."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import saltus as sk

from conftest import SAMPLES


def ball_model(mass=None, h=0.005, T=1.0):
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.eye(3) if mass is None else mass, name="ball")
    ball.setFExtPtr([-9.81, 0, 0])
    nsds = sk.NonSmoothDynamicalSystem(0, T)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]), name="floor"), ball)
    return nsds, sk.TimeStepping(nsds, sk.TimeDiscretisation(0, h), sk.MoreauJeanOSI(0.5), sk.LCP())


def test_hierarchy():
    for e in (sk.ModelError, sk.SimulationError, sk.NumericsError, sk.OutputError):
        assert issubclass(e, sk.SaltusError) and issubclass(e, Exception)


def test_wrong_mass_shape_names_the_element():
    _, sim = ball_model(mass=np.eye(2))
    with pytest.raises(sk.ModelError) as e:
        sim.run()
    msg = str(e.value)
    assert "NSDS/LagrangianLinearTIDS[ball]/Mass" in msg and "2×2" in msg, msg


def test_relation_size_mismatch():
    ball = sk.LagrangianLinearTIDS([1, 0], [0, 0], np.eye(2), name="ball")
    nsds = sk.NonSmoothDynamicalSystem(0, 1)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]), name="floor"), ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.MoreauJeanOSI(0.5), sk.LCP())
    with pytest.raises(sk.ModelError, match=r"Interaction\[floor\]"):
        sim.has_next_event()


def test_bad_time_step():
    _, sim = ball_model(h=-1.0)
    with pytest.raises(sk.ModelError, match="h must be finite and > 0"):
        sim.run()


def test_osi_incompatible_with_system():
    ds = sk.FirstOrderLinearTIDS([1.0], [[-1.0]], name="x")
    nsds = sk.NonSmoothDynamicalSystem(0, 1)
    nsds.insert_dynamical_system(ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.1), sk.MoreauJeanOSI(0.5), sk.LCP())
    with pytest.raises(sk.ModelError):
        sim.run()


def test_non_finite_input_refused_in_python():
    with pytest.raises(ValueError, match="non-finite"):
        sk.LagrangianLinearTIDS([np.nan], [0.0], [[1.0]])


def test_missing_model_file(tmp_path):
    with pytest.raises(sk.ModelError, match="nope.xml: model file not found"):
        sk.load(tmp_path / "nope.xml")


def test_malformed_model_file_has_line_and_column(tmp_path):
    p = tmp_path / "bad.xml"
    p.write_text('<Model version="1.0">\n  <Time t0="0" T="x"/>\n</Model>\n')
    with pytest.raises(sk.ModelError) as e:
        sk.load(p)
    assert "bad.xml:2:" in str(e.value), str(e.value)


def test_unknown_record_column():
    _, sim = ball_model()
    with pytest.raises(KeyError, match="no column `ball.q\\[7\\]`"):
        sim.run(record=["t", "ball.q[7]"])


def test_python_force_exception_is_a_simulation_error():
    ball = sk.LagrangianLinearTIDS([1.0], [0.0], [[1.0]], name="ball")
    calls = []

    def force(t):
        calls.append(t)
        if t > 0.05:
            raise RuntimeError("boom at %g" % t)
        return [-9.81]

    ball.setFExtPtr(force)
    nsds = sk.NonSmoothDynamicalSystem(0, 1)
    nsds.insert_dynamical_system(ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.MoreauJeanOSI(0.5), sk.LCP())
    with pytest.raises(sk.SimulationError, match="boom") as e:
        sim.run()
    assert "RuntimeError" in str(e.value)
    # the state stayed at the last good step
    assert sim.t() <= 0.06 and np.isfinite(ball.q()).all()


def test_python_force_wrong_length():
    ball = sk.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(2), name="ball")
    ball.setFExtPtr(lambda t: [1.0])
    nsds = sk.NonSmoothDynamicalSystem(0, 1)
    nsds.insert_dynamical_system(ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.MoreauJeanOSI(0.5), sk.LCP())
    with pytest.raises(sk.ModelError, match="returned 1 values, expected 2"):
        sim.run()


def test_to_xml_refuses_python_callables():
    ball = sk.LagrangianLinearTIDS([1.0], [0.0], [[1.0]], name="ball")
    ball.setFExtPtr(lambda t: [0.0])
    nsds = sk.NonSmoothDynamicalSystem(0, 1)
    nsds.insert_dynamical_system(ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.01), sk.MoreauJeanOSI(0.5), sk.LCP())
    with pytest.raises(sk.SaltusError, match="plugin"):
        sk.to_xml(nsds, sim)


def test_output_refused(tmp_path):
    sim = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ts.xml")
    with pytest.raises(sk.OutputError):
        sim.run_to_file(tmp_path)  # a directory


def test_run_to_file_is_the_cli_path(tmp_path):
    sim = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ts.xml")
    s = sim.run_to_file(tmp_path / "ball.npy")
    assert s["steps"] == 2000
    a = np.load(tmp_path / "ball.npy")
    b = sk.load(SAMPLES / "bouncing_ball" / "bouncing_ball_ts.xml").run()
    assert np.array_equal(a["ball.q[0]"], b["ball.q[0]"])


def test_ctrl_c_stops_a_long_run():
    """SIGINT during run() stops it at a step boundary with KeyboardInterrupt; the simulation can
    go on afterwards from where it stopped."""
    import os
    import signal
    import threading
    import time

    _, sim = ball_model(h=1e-5, T=1e5)  # 10^10 steps: only a signal ends it
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        sim.run(record=["t"], every=1000)
    assert time.perf_counter() - t0 < 30
    k = sim.core.k
    assert k > 0 and sim.has_next_event()
    sim.compute_one_step()
    assert sim.core.k == k + 1


def test_problem_solvers_and_options_are_the_declared_ones():
    # the solver lists and docstrings come from the declarations in numerics (the model files'
    # own): the relay's Siconos default solver is listed, with Lemke's pivoting options
    assert "``AviCaoFerris``" in sk.Relay.__doc__ and "``tie_break``" in sk.Relay.__doc__
    assert "``Tfp``" in sk.FrictionContact.__doc__
    assert "``max_comp``" in sk.MLCP.__doc__
    with pytest.raises(ValueError, match=r"no solver 'Lemkee'; the solvers are Lemke, Pgs"):
        sk.LCP("Lemkee")
    with pytest.raises(ValueError, match=r"'omega' is not an option of Pgs; its options are tol, max_iter, warm_start"):
        sk.LCP("Pgs", omega=1.3)
    sk.LCP("Psor", omega=1.3, storage="dense")  # a problem attribute and a declared option
    p = sk.MLCP("Lemke")
    p.setMaxIterations(50)  # the pivot cap
    p.options["warm_start"] = True  # Lemke on the MLCP has no warm start: refused when written
    with pytest.raises(ValueError, match=r"'warm_start' is not an option of Lemke"):
        p._element(ET.Element("x"))
