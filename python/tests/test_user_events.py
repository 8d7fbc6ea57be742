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
