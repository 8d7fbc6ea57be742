"""saltus.sweep on a LocalCluster of 2 workers: each row is the same as a local run, and the
rebound speed follows the restitution law v⁺ = e √(2 g z0)."""

import math

import numpy as np
import pytest

import saltus as sk

pytest.importorskip("distributed")

import sweep_models  # noqa: E402


def test_sweep_local_cluster_two_workers():
    table = sk.sweep(
        sweep_models.ball,
        {"e": [0.0, 0.5, 0.9], "h": [1e-3, 2e-3]},
        record=["ball.q[0]", "ball.v[0]"],
        reduce=sweep_models.first_rebound_speed,
        n_workers=2,
    )
    assert list(table.columns) == ["e", "h", "v_up", "q_end"]
    assert len(table) == 6
    assert list(table["e"]) == [0.0, 0.0, 0.5, 0.5, 0.9, 0.9]  # the order of the parameter sets
    for _, row in table.iterrows():
        local = sweep_models.first_rebound_speed(sweep_models.ball(row["e"], row["h"]).run(record=["ball.q[0]", "ball.v[0]"]))
        assert row["v_up"] == local["v_up"] and row["q_end"] == local["q_end"]  # bitwise: same Rust run
        expected = row["e"] * math.sqrt(2 * 9.81 * 1.0)
        assert abs(row["v_up"] - expected) <= 9.81 * row["h"] * 2 + 1e-12, row


def test_grid_and_numpy_table():
    g = sk.grid(a=[1, 2], b=[3])
    assert g == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]
    from saltus.sweep import _table

    t = _table([{"a": 1.0, "x": 2.0}], as_pandas=False)
    assert t.dtype.names == ("a", "x") and t["x"][0] == 2.0
