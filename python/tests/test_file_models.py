"""`saltus.load` of `<Mechanics>` and `<Control>` model files (the CSV equality with `saltus run` is in
test_samples.py): the physics of a run from Python, repeated runs, record/every, located errors."""

import numpy as np
import pytest

import saltus

from conftest import SAMPLES


def test_sliding_box_stops_where_coulomb_friction_says():
    # v0 = 1 m/s, mu = 0.3: the box slides d = v0^2 / (2 mu g) and stops at t = v0 / (mu g)
    sim = saltus.load(SAMPLES / "sliding_box" / "sliding_box.xml")
    assert isinstance(sim, saltus.FileRunSimulation) and sim.kind == "mechanics"
    out = sim.run()
    assert list(out) == sim.columns() and len(out["t"]) == sim.steps + 1
    mu, g = 0.3, 9.81
    d = 1.0 / (2 * mu * g)
    assert abs(out["box.x"][-1] - d) < 5e-3 * d
    stop = out["t"][np.argmax(np.abs(out["box.vx"]) < 1e-6)]
    assert abs(stop - 1.0 / (mu * g)) < 2e-3
    # a second run starts again at t0 and gives the same bits; record/every keep what they say
    again = sim.run(record=["t", "box.x"], every=100)
    assert list(again) == ["t", "box.x"]
    assert np.array_equal(again["box.x"], out["box.x"][::100])
    assert sim.summary()["steps"] == sim.steps


def test_control_model_runs_twice_identically():
    sim = saltus.load(SAMPLES / "smc_double_integrator" / "model.xml")
    assert sim.kind == "control"
    a, b = sim.run(), sim.run()
    assert list(a) == sim.columns()
    assert all(np.array_equal(a[c], b[c]) for c in a)
    assert a["t"][0] == sim.t0 and a["t"][-1] == pytest.approx(sim.t_end)


def test_unknown_column_and_bad_model_raise(tmp_path):
    sim = saltus.load(SAMPLES / "sliding_box" / "sliding_box.xml")
    with pytest.raises(KeyError, match="no column `nope`"):
        sim.run(record=["nope"])
    bad = tmp_path / "bad.xml"
    bad.write_text((SAMPLES / "sliding_box" / "sliding_box.xml").read_text().replace('shape="brick"', 'shape="nope"'))
    with pytest.raises(saltus.ModelError, match="bad.xml"):
        saltus.load(bad)


def test_strict_raises_at_the_first_unconverged_step(tmp_path):
    # one NSGS sweep cannot reach tol 1e-16: every contact step is unconverged, strict stops at the first
    m = tmp_path / "strict.xml"
    text = (SAMPLES / "sliding_box" / "sliding_box.xml").read_text()
    m.write_text(text.replace('tol="1e-12" max_iter="10000"', 'tol="1e-16" max_iter="1"'))
    sim = saltus.load(m)
    sim.run()
    s = sim.summary()
    assert s["not_converged"] == s["nonsmooth_steps"] > 0
    with pytest.raises(saltus.SimulationError, match=r"strict: the friction-contact problem did not converge at t = 0\.001"):
        sim.run(strict=True)
