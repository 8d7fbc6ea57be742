"""Siconos's state vectors by reference: ``q = ball.q()`` taken before the simulation exists
keeps following the state, as a Siconos ``SiconosVector`` view does.

Every accessor of the compatibility layer (``q``, ``velocity``, ``x``, ``p``, ``r``, ``y``,
``lambda_``) returns one persistent, writeable numpy array per system (or interaction) and
level. The simulation copies the kernel's state into these arrays after every step
(:func:`sync`). Writes into them before the simulation is built set the initial condition;
writes between steps raise ``SiconosFeatureNotSupported`` at the next step (Saltus changes the
state only through the simulation), never a silently ignored write.
"""

from __future__ import annotations

from typing import Dict, Optional

import numpy as np

from ._unsupported import raise_unsupported


#: bumped whenever a live vector is created (the simulations rebuild their copy plans)
VERSION = [0]


class LiveVectors:
    """The persistent arrays of one system or interaction, keyed ``(what, level)``, and the
    bytes they held after the last synchronisation (to detect writes)."""

    def __init__(self) -> None:
        self.bufs: Dict[tuple, np.ndarray] = {}
        self.last: Dict[tuple, bytes] = {}

    def get(self, key: tuple, init) -> np.ndarray:
        a = self.bufs.get(key)
        if a is None:
            a = self.bufs[key] = np.array(init, dtype=np.float64).ravel()
            VERSION[0] += 1
        return a

    def set(self, key: tuple, value: np.ndarray) -> None:
        a = self.bufs[key]
        if a.shape != value.shape:
            # the kernel's size differs from the one guessed before the build
            raise_unsupported(
                f"{key[0]}({key[1]})",
                f"the vector taken before initialisation has {a.size} entries, the kernel's has {value.size}",
            )
        a[...] = value
        self.last[key] = a.tobytes()

    def check_unchanged(self, owner: str) -> None:
        """Raises if the user wrote into a vector since the last :meth:`set`."""
        for key, a in self.bufs.items():
            old = self.last.get(key)
            if old is not None and a.tobytes() != old:
                raise_unsupported(
                    f"writing {owner}.{key[0]}() between steps",
                    "Saltus changes the state only through the simulation; build a new simulation "
                    "with the new initial state instead",
                )


def live(obj) -> LiveVectors:
    lv = obj.__dict__.get("_live_vectors")
    if lv is None:
        lv = obj.__dict__["_live_vectors"] = LiveVectors()
    return lv


def core_view(obj, what: str, level: int = 0) -> Optional[np.ndarray]:
    core = getattr(obj, "_core", None)
    if core is None:
        return None
    if what in ("q", "x", "v"):
        return core.view(what, obj._index)
    return core.view(what, obj._index, level)
