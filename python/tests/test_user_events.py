"""User events (`<Events>`) in a `compute_one_step` loop: found at the times `saltus run`
writes them, with their resets applied, and a `stop` event ends the loop."""

import subprocess
from pathlib import Path

import numpy as np
import pytest

import saltus

from conftest import SAMPLES


def cli_events(saltus_bin: Path, model: Path, plugin_dir: Path, tmp_path: Path):
    """(t, event number) of the event rows and the last row of `saltus run` on `model`."""
    out = tmp_path / f"{model.stem}.csv"
    subprocess.run(
        [str(saltus_bin), "run", str(model), "-o", str(out), "--quiet", "--plugin-dir", str(plugin_dir)],
        check=True,
        capture_output=True,
    )
    lines = out.read_text().splitlines()
    head = lines[0].split(",")
    rows = np.array([[float(x) for x in ln.split(",")] for ln in lines[1:]])
    ev = head.index("event")
    kind = head.index("kind") if "kind" in head else None
    # event driven: one row kind = 3 per event (kind = 4: the state after a reset)
    sel = rows[:, ev] > 0
    if kind is not None:
        sel &= rows[:, kind] == 3
    return [(r[0], int(r[ev])) for r in rows[sel]], head, rows[-1]


def step_loop(model: Path, plugin_dir: Path):
    sim = saltus.load(model, plugin_dirs=[plugin_dir])
    hits = []
    while sim.has_next_event():
        sim.compute_one_step()
        hits.extend(sim.user_events())
    return sim, hits


@pytest.mark.parametrize("name", ["ball_events_ts.xml", "ball_events_ed.xml"])
def test_step_loop_finds_the_events_of_saltus_run(name, saltus_bin, plugin_dir, tmp_path):
    model = SAMPLES / "ball_events" / name
    expected, head, last = cli_events(saltus_bin, model, plugin_dir, tmp_path)
    sim, hits = step_loop(model, plugin_dir)
    names = ["apex", "kick"]
    got = [(h["t"], names.index(e) + 1) for h in hits for e in h["events"]]
    assert len(expected) >= 4, expected  # the run has apexes and kicks to compare
    assert got == expected
    assert all(h["t_low"] <= h["t"] for h in hits)
    assert [h["reset"] for h in hits] == ["kick" in h["events"] for h in hits]
    # the kicks' resets were applied in the loop as in the CLI run: same final state
    q = sim.core.state(0)
    assert q[0] == last[head.index("ball.q[0]")]
    assert not any(h["stop"] for h in hits)


def test_stop_event_ends_the_step_loop(saltus_bin, plugin_dir, tmp_path):
    text = (SAMPLES / "ball_events" / "ball_events_ts.xml").read_text()
    stop = text.replace('<Event name="apex" ds="ball" direction="falling">',
                        '<Event name="apex" ds="ball" direction="falling" action="stop">')
    assert stop != text
    model = tmp_path / "ball_stop.xml"
    model.write_text(stop)
    expected, _, _ = cli_events(saltus_bin, model, plugin_dir, tmp_path)
    sim, hits = step_loop(model, plugin_dir)
    assert hits and hits[-1]["stop"] and hits[-1]["events"] == ["apex"]
    assert (hits[-1]["t"], 1) == expected[-1]
    # the loop ended at the step holding the apex, long before T = 2
    assert sim.core.t < 2.0 and sim.core.t - hits[-1]["t"] <= 1e-3 + 1e-12
    assert not sim.has_next_event()


def test_events_of_a_mechanics_file(tmp_path):
    """``saltus.load`` of a ``<Mechanics>`` model with ``<Events>`` (the rigid-sphere juggled ball,
    its reset replaced by a stop): the ``event`` column and the run ending at the located time."""
    text = (SAMPLES / "ball_events" / "ball_events_3d.xml").read_text()
    start, end = text.index("<Events>"), text.index("</Events>") + len("</Events>")
    z = "0 0 1 " + "0 " * 9 + "0"
    events = (f'<Events><Event name="low" ds="ball" direction="falling" action="stop">'
              f'<Linear a="{z}" b="-0.5"/></Event></Events>')
    model = tmp_path / "m.xml"
    model.write_text(text[:start] + events + text[end:])
    out = saltus.load(model).run()
    assert out["event"][-1] == 1 and (out["event"][:-1] == 0).all()
    assert out["ball.z"][-1] == pytest.approx(0.5, abs=1e-12)
    assert out["t"][-1] == pytest.approx((2 * 0.5 / 9.81) ** 0.5, abs=9.81 * 1e-6 / 8 + 1e-12)


def test_events_of_a_null_space_file(saltus_bin, plugin_dir, tmp_path):
    """``saltus.load(...).run()`` of a ``<NullSpace>`` model with ``<Events>`` (the pendulum struck
    back at the bottom by a paddle): the event rows of ``saltus run``, the first strike at the
    quarter period √(l/g) K(sin 45°) of the release from the horizontal."""
    model = SAMPLES / "cartesian_pendulum" / "cartesian_pendulum_paddle_nullspace.xml"
    expected, head, last = cli_events(saltus_bin, model, plugin_dir, tmp_path)
    data = saltus.load(model, plugin_dirs=[plugin_dir]).run()
    t, ev = np.asarray(data["t"]), np.asarray(data["event"])
    got = [(a, int(b)) for a, b in zip(t[ev > 0], ev[ev > 0])]
    assert got == expected
    assert [e for _, e in got] == [1, 2] * 4 + [1]
    a, b = 1.0, np.sqrt(0.5)
    for _ in range(30):
        a, b = (a + b) / 2, np.sqrt(a * b)
    quarter = np.sqrt(1 / 9.81) * np.pi / (2 * a)
    assert abs(got[0][0] - quarter) <= 1e-8
    assert np.asarray(data["bob.q[0]"])[-1] == last[head.index("bob.q[0]")]


def paddle_pendulum(e=0.8, **events):
    """The pendulum of ``cartesian_pendulum_paddle_nullspace.xml`` built in Python: Python
    callables for the rod, ``add_event`` for the paddle (a Python reset) and the apex."""
    ds = saltus.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(2), name="bob")
    ds.setFExtPtr([0.0, -9.81])
    rel = saltus.LagrangianScleronomousR(
        lambda q: [(q[0] ** 2 + q[1] ** 2 - 1.0) / 2.0], lambda q: [[q[0], q[1]]]
    )
    nsds = saltus.NonSmoothDynamicalSystem(0.0, 5.0)
    nsds.insert_dynamical_system(ds)
    nsds.link(saltus.Interaction(saltus.EqualityConditionNSL(1), rel, name="rod"), ds)
    sim = saltus.NullSpace(nsds, saltus.TimeDiscretisation(0.0, 0.01), rtol=1e-11, atol=1e-13)
    sim.add_event("paddle", ds, a=[1, 0, 0, 0], direction="falling", action="reset",
                  reset=lambda t, s: [s[0], s[1], -e * s[2], -e * s[3]])
    sim.add_event("apex", "bob", function=lambda t, s: s[2], direction="falling", **events)
    return sim


def test_add_event_on_a_python_null_space_model(saltus_bin, plugin_dir, tmp_path):
    """``NullSpace.add_event`` with a Python reset and trigger gives the event rows of the sample
    file (its plugin reset, linear triggers) bit for bit: the same arithmetic through the host."""
    model = SAMPLES / "cartesian_pendulum" / "cartesian_pendulum_paddle_nullspace.xml"
    expected, head, last = cli_events(saltus_bin, model, plugin_dir, tmp_path)
    sim = paddle_pendulum()
    assert '<Event name="paddle" ds="bob" direction="falling" action="reset">' in sim.xml()
    out = sim.run()
    t, ev = np.asarray(out["t"]), np.asarray(out["event"])
    assert [(a, int(b)) for a, b in zip(t[ev > 0], ev[ev > 0])] == expected
    for c in ("bob.q[0]", "bob.q[1]", "bob.v[0]", "bob.v[1]"):
        assert out[c][-1] == last[head.index(c)], c
    # a stop at the first apex: the run ends there, after one strike
    stop = paddle_pendulum(action="stop").run()
    assert list(np.asarray(stop["event"])[np.asarray(stop["event"]) > 0]) == [1, 2]
    assert stop["t"][-1] == expected[1][0]


def test_add_event_on_a_python_time_stepping_model():
    """``TimeStepping.add_event``: the apex of a ball thrown up at 3 m/s is at ``t = 3/g`` (the
    step's linear interpolant of ``v`` is exact under a constant force); a stop there ends the
    step loop; bad arguments are named."""
    def thrown(h=1e-3):
        b = saltus.LagrangianLinearTIDS([1.0], [3.0], [[1.0]], name="ball")
        b.setFExtPtr([-9.81])
        nsds = saltus.NonSmoothDynamicalSystem(0.0, 1.0)
        nsds.link(saltus.Interaction(saltus.NewtonImpactNSL(0.9), saltus.LagrangianLinearTIR([[1.0]]), name="floor"), b)
        return saltus.TimeStepping(nsds, saltus.TimeDiscretisation(0.0, h), saltus.MoreauJeanOSI(0.5), saltus.LCP()), b

    sim, ball = thrown()
    sim.add_event("apex", ball, a=[0, 1], direction="falling", action="stop")
    hits = []
    while sim.has_next_event():
        sim.compute_one_step()
        hits.extend(sim.user_events())
    assert len(hits) == 1 and hits[0]["events"] == ["apex"] and hits[0]["stop"]
    assert abs(hits[0]["t"] - 3.0 / 9.81) <= 1e-12
    sim, ball = thrown()
    with pytest.raises(ValueError, match="one of them"):
        sim.add_event("x", ball)
    with pytest.raises(ValueError, match="action='reset'"):
        sim.add_event("x", ball, a=[1, 0], action="reset")
    sim.add_event("x", "nobody", a=[1, 0])
    with pytest.raises(Exception, match="no dynamical system 'nobody'"):
        sim.run()
