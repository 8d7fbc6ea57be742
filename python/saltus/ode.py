"""The ODE integrator of ``saltus-numerics`` (LSODA-class: Adams/BDF with stiffness switching,
dense output, directional root finding) on Python right-hand sides.

The right-hand side and the root functions are Python callables, called from Rust at every
evaluation: convenient, and as slow as any Python ODE right-hand side.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

from . import _saltus

__all__ = ["integrate"]


def integrate(
    f: Callable[[float, np.ndarray], Sequence[float]],
    y0: Sequence[float],
    t_eval: Sequence[float],
    roots: Optional[Callable[[float, np.ndarray], Sequence[float]]] = None,
    n_roots: int = 0,
    directions: Optional[Sequence[int]] = None,
    rtol: float = 1e-6,
    atol: float = 1e-12,
    method: str = "lsoda",
    terminal: bool = True,
):
    """Integrates ``y' = f(t, y)`` from ``t_eval[0]`` through the times ``t_eval``.

    ``roots(t, y)`` returns ``n_roots`` values whose sign changes are located to round-off
    (``directions[i]``: +1 rising only, -1 falling only, 0 both). With ``terminal`` the
    integration stops at the first root (its state is the last row). ``method``: lsoda, adams,
    bdf, dopri5.

    Returns a dict: ``t`` (times reached), ``y`` (one row per time), ``t_events``, ``events``
    (indices of the roots found at each event time), ``status`` ("done" or "root"), ``steps``,
    ``rhs_evals``.
    """
    if roots is not None and n_roots == 0:
        g0 = np.atleast_1d(np.asarray(roots(float(t_eval[0]), np.asarray(y0, dtype=float)), dtype=float))
        n_roots = int(g0.size)
    return _saltus.integrate(
        f,
        [float(v) for v in y0],
        [float(t) for t in t_eval],
        roots,
        int(n_roots),
        None if directions is None else [int(d) for d in directions],
        float(rtol),
        float(atol),
        method,
        bool(terminal),
    )
