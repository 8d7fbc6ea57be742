"""Nonsmooth problems and their solvers (``saltus-numerics``), from numpy arrays and
scipy.sparse matrices, or from Siconos ``.dat`` files.

Every function returns ``(solution, report)``: ``solution`` a :class:`Solution` (``z``, ``w``
for LCP/MLCP/Relay; ``x`` for QP; ``r``, ``u`` (and ``v``) for friction contact) and ``report`` a
:class:`Report` (``status``, ``converged``, ``iterations``, ``error``: the Siconos error measure
of the returned solution, ``seconds``). Non-convergence is a status, never an exception; bad
data raises ``NumericsError``. Solver names are those of ``saltus solvers``.

:func:`ncp`, :func:`mcp`, :func:`box_vi` and :func:`vi` take Python callables (``F(z)`` returning
an array, optionally ``jacobian(z)`` returning the ``n × n`` array ``∂F_i/∂z_j``, forward
differences otherwise): one Python call per evaluation, so they suit small problems, not hot
loops. Their solution holds ``z`` and ``w = F(z)``. A callable that raises, returns the wrong
shape or NaN/inf makes the call raise ``NumericsError`` (naming the function and the iteration;
the Python exception is its ``__cause__``). Solvers: ``newton-fb`` (semismooth Newton on the
Fischer–Burmeister function, Siconos ``*_NEWTON_FB_FBLSA``), ``newton-qi`` (Qi's box function
with a projected search, ``VI_BOX_QI``, the default of :func:`box_vi`), ``newton-min``
(``*_NEWTON_MIN_FBLSA``), ``extragradient`` (``VI_EG``), ``fixed-point`` (``VI_FPP``); defaults
``tol`` 1e-10 and 1000 iterations for the Newton methods, 1e-3 and 20 000 for the projection
methods (Siconos's).
"""

from __future__ import annotations

import os
from typing import Dict, Optional, Sequence

import numpy as np

from . import _saltus

__all__ = [
    "Solution",
    "Report",
    "lcp",
    "mlcp",
    "relay",
    "qp",
    "fc2d",
    "fc3d",
    "gfc3d",
    "ncp",
    "mcp",
    "box_vi",
    "vi",
    "read",
    "Problem",
]

Problem = _saltus.Problem


class Solution(dict):
    """Solution vectors by name, also readable as attributes (``sol.z``)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Report(dict):
    """``status``, ``converged``, ``iterations``, ``error``, ``seconds`` (dict and attributes)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _dense(m) -> np.ndarray:
    if hasattr(m, "toarray"):
        m = m.toarray()
    return np.ascontiguousarray(np.asarray(m, dtype=np.float64))


def _vec(v) -> np.ndarray:
    return np.ascontiguousarray(np.atleast_1d(np.asarray(v, dtype=np.float64)).ravel())


def _coo(m):
    """(shape, rows, cols, values) of a scipy.sparse or dense matrix."""
    if hasattr(m, "tocoo"):
        c = m.tocoo()
        return (int(c.shape[0]), int(c.shape[1])), c.row.astype(np.int64).tolist(), c.col.astype(np.int64).tolist(), c.data.astype(np.float64).tolist()
    a = _dense(m)
    r, c = np.nonzero(a)
    return a.shape, r.tolist(), c.tolist(), a[r, c].tolist()


def _wrap(out):
    v, r = out
    return Solution(v), Report(r)


def lcp(M, q, solver: str = "lemke", tol: float = 1e-8, max_iter: int = 1000):
    """``w = M z + q``, ``0 <= z ⟂ w >= 0``. Solvers: lemke, pgs, psor, newton-fb, newton-min,
    enum, qp, ... (``saltus solvers --type lcp``)."""
    return _wrap(_saltus.lcp_problem(_dense(M), _vec(q)).solve(solver, tol, max_iter))


def mlcp(M, q, n_eq: int, solver: str = "enum", tol: float = 1e-8, max_iter: int = 1000):
    """``w = M z + q``; ``w = 0`` on the first ``n_eq`` rows, ``0 <= z ⟂ w >= 0`` on the others."""
    return _wrap(_saltus.mlcp_problem(_dense(M), _vec(q), int(n_eq)).solve(solver, tol, max_iter))


def relay(M, q, lb, ub, solver: str = "lemke", tol: float = 1e-8, max_iter: int = 1000):
    """``w = M z + q``, ``-w ∈ N_[lb, ub](z)``."""
    return _wrap(_saltus.relay_problem(_dense(M), _vec(q), _vec(lb), _vec(ub)).solve(solver, tol, max_iter))


def qp(Q, p, A=None, b=None, Aeq=None, beq=None, tol: float = 1e-8, max_iter: int = 1000):
    """Dense convex QP ``min ½ xᵀQx + pᵀx`` s.t. ``A x >= b``, ``Aeq x = beq`` (dual active
    set). The solution holds ``x`` and the multipliers ``lambda``, ``mu``; the report adds
    ``outcome`` (optimal, infeasible, unbounded, notconverged)."""
    Q = _dense(Q)
    n = Q.shape[0] if Q.ndim == 2 else 0
    A = np.zeros((0, n)) if A is None else _dense(A)
    b = np.zeros(0) if b is None else _vec(b)
    Aeq = np.zeros((0, n)) if Aeq is None else _dense(Aeq)
    beq = np.zeros(0) if beq is None else _vec(beq)
    return _wrap(_saltus.qp_solve(Q, _vec(p), A, b, Aeq, beq, tol, max_iter))


def _fc(dim, W, q, mu, solver, tol, max_iter):
    q, mu = _vec(q), _vec(mu)
    if hasattr(W, "tocoo"):
        shape, r, c, v = _coo(W)
        if shape[0] != shape[1]:
            raise _saltus.NumericsError(f"W must be square, got {shape[0]}×{shape[1]}")
        p = _saltus.fc_problem_sparse(dim, shape[0], r, c, v, q, mu)
    else:
        p = _saltus.fc_problem(dim, _dense(W), q, mu)
    return _wrap(p.solve(solver, tol, max_iter))


def fc2d(W, q, mu, solver: str = "nsgs", tol: float = 1e-8, max_iter: int = 1000):
    """2D friction contact ``u = W r + q`` with Coulomb cones of coefficients ``mu``
    (``W`` dense or scipy.sparse)."""
    return _fc(2, W, q, mu, solver, tol, max_iter)


def fc3d(W, q, mu, solver: str = "nsgs-ac", tol: float = 1e-8, max_iter: int = 1000):
    """3D friction contact ``u = W r + q`` (``W`` dense, or scipy.sparse stored as 3×3 blocks)."""
    return _fc(3, W, q, mu, solver, tol, max_iter)


def gfc3d(M, H, q, b, mu, solver: str = "gfc3d-nsgs", tol: float = 1e-8, max_iter: int = 1000):
    """Global 3D friction contact ``M v = H r + q``, ``u = Hᵀ v + b`` (``M``, ``H`` dense or
    scipy.sparse); the solution holds ``r``, ``u`` and ``v``."""
    ms, mr, mc, mv = _coo(M)
    hs, hr, hc, hv = _coo(H)
    p = _saltus.gfc_problem(3, ms, mr, mc, mv, hs, hr, hc, hv, _vec(q), _vec(b), _vec(mu))
    return _wrap(p.solve(solver, tol, max_iter))


def read(path: str, kind: Optional[str] = None, plugin_dirs: Sequence[str] = ()) -> Problem:
    """Reads a Siconos problem file; the family comes from the folder or file name unless
    ``kind`` (lcp, mlcp, relay, qp, fc2d, fc3d, gfc3d). ``problem.solve(solver, tol, max_iter)``
    returns ``(solution, report)`` dicts; ``problem.solvers()`` lists the solver names.

    An ``.xml`` file is a problem file (root ``<Problem>``: an NCP, MCP or VI whose ``F`` comes from
    a plugin, searched beside the file, then in ``plugin_dirs``; ``docs/model-format.md``), read and
    solved as ``saltus solve FILE.xml`` does: ``problem.solve(solver)`` starts from its ``<z0>``
    (``<x0>``) and returns ``({"z": z, "w": F(z)}, report)``; ``problem.kind`` is ``ncp``, ``mcp`` or
    ``vi``."""
    path = os.fspath(path)
    if path.endswith(".xml"):
        return _saltus.read_problem_file(path, [os.fspath(d) for d in plugin_dirs])
    return _saltus.read(path, kind)


def solve(problem: Problem, solver: str, tol: float = 1e-8, max_iter: int = 1000):
    """Solves a problem from :func:`read` → ``(Solution, Report)`` (a problem file: from its
    starting point, ``Solution(z=..., w=F(z))``)."""
    return _wrap(problem.solve(solver, tol, max_iter))


def _cp(kind, F, z0, jacobian, solver, tol, max_iter, plugin=None, **kw):
    if plugin is not None:
        kw.update(library=plugin.get("library"), params=[float(v) for v in plugin.get("params", ())],
                  plugin_dirs=[os.fspath(d) for d in plugin.get("plugin_dirs", ())])
    z, w, rep = _saltus.cp_solve(kind, F, _vec(z0).tolist(), jacobian=jacobian, solver=solver, tol=tol,
                                 max_iter=max_iter, **kw)
    return Solution(z=z, w=w), Report(rep)


def ncp(F, z0, jacobian=None, solver: str = "newton-fb", tol: Optional[float] = None,
        max_iter: Optional[int] = None, plugin: Optional[dict] = None):
    """``0 <= z ⟂ F(z) >= 0`` from ``z0``. Error: ``‖min(z, F(z))‖`` (Siconos ``ncp_compute_error``).

    ``plugin={"library": NAME, "params": [...], "plugin_dirs": [...]}``: ``F`` and ``jacobian`` are
    then the names of C functions of that plugin library with Saltus's vector-field signature
    (``docs/plugins.md``), called with ``t = 0`` (the Jacobian column-major): no Python call per
    evaluation. The same keyword works for :func:`mcp`, :func:`box_vi` and :func:`vi`."""
    return _cp("ncp", F, z0, jacobian, solver, tol, max_iter, plugin)


def mcp(F, n1: int, z0, jacobian=None, solver: str = "newton-fb", tol: Optional[float] = None,
        max_iter: Optional[int] = None, plugin: Optional[dict] = None):
    """Siconos's MCP: ``F_i(z) = 0`` for the first ``n1`` rows (``z_i`` free), ``0 <= z_i ⟂ F_i(z)
    >= 0`` for the others. Error: ``‖F_e‖ + ‖min(z_c, F_c)‖`` (Siconos ``mcp_compute_error``)."""
    return _cp("mcp", F, z0, jacobian, solver, tol, max_iter, plugin, n1=int(n1))


def box_vi(F, lb, ub, x0=None, jacobian=None, solver: str = "newton-qi", tol: Optional[float] = None,
           max_iter: Optional[int] = None, plugin: Optional[dict] = None):
    """The VI on the box ``K = [lb, ub]`` (``±inf`` allowed), i.e. the box MCP ``lb <= x <= ub ⟂
    F(x)``: ``x = P_K(x − F(x))``. Error ``‖x − P_K(x − F(x))‖`` (Siconos's box VI error)."""
    lb, ub = _vec(lb), _vec(ub)
    x0 = np.clip(np.zeros_like(lb), lb, ub) if x0 is None else x0
    return _cp("box_vi", F, x0, jacobian, solver, tol, max_iter, plugin, lb=lb.tolist(), ub=ub.tolist())


def vi(F, x0, projection=None, center=None, radius=None, solver: str = "extragradient",
       tol: Optional[float] = None, max_iter: Optional[int] = None, plugin: Optional[dict] = None):
    """The VI ``⟨F(x), y − x⟩ >= 0`` for all ``y`` in a closed convex ``K`` given by
    ``projection(x)`` (the Euclidean projection onto K, a Python callable) or the ball of
    ``center`` and ``radius``; solved by ``extragradient`` or ``fixed-point`` (Newton methods
    need a box: :func:`box_vi`). Error ``‖x − P_K(x − F(x))‖ / ‖F(0)‖`` (Siconos's VI error)."""
    kw = {"projection": projection}
    if center is not None or radius is not None:
        kw = {"center": _vec(center).tolist(), "radius": float(radius)}
    return _cp("vi", F, x0, None, solver, tol, max_iter, plugin, **kw)
