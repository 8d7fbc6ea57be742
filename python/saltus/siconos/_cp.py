"""Siconos 4.4's ``NCP``, ``MCP`` and ``VI`` with Python callbacks, and their drivers, on
:func:`saltus.numerics.ncp` / ``mcp`` / ``box_vi`` / ``vi``.

Callbacks have Siconos's signatures and write into the array they are given:
``F(n, z, F_out)`` and ``nabla_F(n, z, nabla_out)`` (``nabla_out[i, j] = ∂F_i/∂z_j``). The
drivers start from the caller's ``z``/``x`` (Siconos's Newton solvers do), write the solution
into it and ``F`` at the solution into the second array, put the iterations in
``options.iparam[1]`` and the Siconos error in ``options.dparam[1]``, and return Siconos's info
(0 converged, 1 not). Solvers: ``SICONOS_NCP_NEWTON_FB_FBLSA``, ``SICONOS_MCP_NEWTON_FB_FBLSA``
→ Saltus ``newton-fb``; ``SICONOS_VI_BOX_QI`` → ``siconos-box-qi`` (Qi's box function with
Siconos 4.4's step rules: full Newton step when it divides the merit by 1/0.9, else an Armijo
search from 2 with σ = 0.9, its smallest step taken when none passes); ``*_NEWTON_MIN_FBLSA`` → ``newton-min``;
``SICONOS_VI_EG`` → ``extragradient``; ``SICONOS_VI_FPP`` → ``fixed-point``. Siconos's PATH ids
(``SICONOS_NCP_PATH``, ``SICONOS_NCP_PATHSEARCH``, ``SICONOS_VI_BOX_PATH``) are solved by
``newton-fb``: the same problem, tolerance and error measure, not PATH's path search (PATH is a
commercial code that Saltus does not ship; on problems where the Newton–FB line search stalls,
PATH may still succeed).
"""

from __future__ import annotations

import numpy as np

from .. import numerics as _nm
from ._constants import INTS
from ._unsupported import raise_unsupported

_ITER_DONE = INTS["SICONOS_IPARAM_ITER_DONE"]
_RESIDU = INTS["SICONOS_DPARAM_RESIDU"]

# Siconos id -> Saltus solver name, per family
_SOLVERS = {
    "ncp": {
        "SICONOS_NCP_NEWTON_FB_FBLSA": "newton-fb",
        "SICONOS_NCP_NEWTON_MIN_FBLSA": "newton-min",
        "SICONOS_NCP_PATHSEARCH": "newton-fb",
        "SICONOS_NCP_PATH": "newton-fb",
    },
    "mcp": {
        "SICONOS_MCP_NEWTON_FB_FBLSA": "newton-fb",
        "SICONOS_MCP_NEWTON_MIN_FBLSA": "newton-min",
    },
    "vi": {
        "SICONOS_VI_BOX_QI": "siconos-box-qi",
        "SICONOS_VI_BOX_PATH": "newton-fb",
        "SICONOS_VI_EG": "extragradient",
        "SICONOS_VI_FPP": "fixed-point",
    },
}


def _solver(family: str, solver_id: int) -> str:
    for name, saltus in _SOLVERS[family].items():
        if INTS[name] == int(solver_id):
            return saltus
    from ._solvers import NAME_OF

    name = NAME_OF.get(int(solver_id), f"solver id {solver_id}")
    raise_unsupported(f"{name} for a {family.upper()}", f"supported: {', '.join(_SOLVERS[family])}")


def _f(F, n):
    out = np.zeros(n)  # reused: Saltus copies the values before the next call

    def value(z):
        out.fill(0.0)
        F(n, z, out)
        return out

    return value


def _jac(nabla, n):
    if nabla is None:
        return None
    out = np.zeros((n, n))

    def jac(z):
        out.fill(0.0)
        nabla(n, z, out)
        return out

    return jac


def _c_functions(*args):
    raise_unsupported(
        "set_compute_F_and_nabla_F_as_C_functions",
        "Siconos C plugins are not loaded by Saltus: give Python callables",
    )


class NCP:
    """Siconos ``NCP(n, F, nabla_F)``: ``0 <= z ⟂ F(z) >= 0``."""

    set_compute_F_and_nabla_F_as_C_functions = _c_functions

    def __init__(self, n=None, compute_F=None, compute_nabla_F=None):
        self.n = None if n is None else int(n)
        self.compute_F = compute_F
        self.compute_nabla_F = compute_nabla_F


class MCP:
    """Siconos ``MCP(n1, n2, F, nabla_F)``: ``F_i(z) = 0`` for the first ``n1`` rows, ``0 <= z_i
    ⟂ F_i(z) >= 0`` for the ``n2`` others."""

    set_compute_F_and_nabla_F_as_C_functions = _c_functions

    def __init__(self, n1=None, n2=None, compute_Fmcp=None, compute_nabla_Fmcp=None):
        self.n1 = None if n1 is None else int(n1)
        self.n2 = None if n2 is None else int(n2)
        self.compute_Fmcp = compute_Fmcp
        self.compute_nabla_Fmcp = compute_nabla_Fmcp


class VI:
    """Siconos ``VI(n, F)``: find ``x`` in ``K`` with ``⟨F(x), y − x⟩ >= 0`` for all ``y`` in
    ``K``; ``K`` the box of :meth:`set_box_constraints` (Saltus has no other Python-side set for
    this class: the general sets are in :func:`saltus.numerics.vi`)."""

    set_compute_F_and_nabla_F_as_C_functions = _c_functions

    def __init__(self, size=None, F=None):
        self.size = None if size is None else int(size)
        self.F = F
        self.compute_nabla_F = None
        self.lb = None
        self.ub = None

    def set_compute_nabla_F(self, compute_nabla_F) -> None:
        self.compute_nabla_F = compute_nabla_F

    def set_box_constraints(self, box_lower_bound, box_upper_bound) -> None:
        self.lb = np.array(box_lower_bound, dtype=np.float64).ravel()
        self.ub = np.array(box_upper_bound, dtype=np.float64).ravel()


def _tol_iter(options):
    tol = float(options.dparam[INTS["SICONOS_DPARAM_TOL"]])
    it = int(options.iparam[INTS["SICONOS_IPARAM_MAX_ITER"]])
    return (tol if tol > 0 else None), (it if it > 0 else None)


def _finish(options, sol, rep, z, w) -> int:
    for name, arr in (("z", z), ("w", w)):
        if arr is None:
            continue
        if not isinstance(arr, np.ndarray) or arr.size != sol[name].size or not arr.flags.writeable:
            raise ValueError(f"the `{name}` array must be a writeable float64 array of size {sol[name].size}")
        arr[...] = sol[name].reshape(arr.shape)
    options.iparam[_ITER_DONE] = int(rep["iterations"])
    options.dparam[_RESIDU] = float(rep["error"])
    return 0 if rep["converged"] else 1


def _need(problem, *attrs):
    for a in attrs:
        if getattr(problem, a, None) is None:
            raise ValueError(f"{type(problem).__name__}: `{a}` is not set")


def ncp_driver(problem: NCP, z, F, options) -> int:
    """Siconos ``ncp_driver``: solves the NCP from ``z``; fills ``z`` and ``F = F(z)``."""
    _need(problem, "n", "compute_F")
    name = _solver("ncp", options.solverId)
    tol, it = _tol_iter(options)
    n = problem.n
    sol, rep = _nm.ncp(_f(problem.compute_F, n), z, jacobian=_jac(problem.compute_nabla_F, n), solver=name,
                       tol=tol, max_iter=it)
    return _finish(options, sol, rep, z, F)


def _with_id(driver, family, name):
    """``driver`` with ``options`` seen under the solver id ``name``: Siconos's per-solver
    functions run their own method whatever ``options.solverId`` says."""

    def solve(problem, z, F, options):
        return driver(problem, z, F, _Retarget(options, INTS[name]))

    solve.__name__ = driver.__name__
    return solve


class _Retarget:
    """The caller's options under another solver id (the ``iparam``/``dparam`` arrays are the
    caller's, so the results land there)."""

    def __init__(self, options, solver_id):
        self.solverId = solver_id
        self.iparam, self.dparam = options.iparam, options.dparam


def ncp_newton_FBLSA(problem, z, F, options) -> int:
    """Siconos ``ncp_newton_FBLSA``: semismooth Newton on the Fischer–Burmeister function."""
    return _with_id(ncp_driver, "ncp", "SICONOS_NCP_NEWTON_FB_FBLSA")(problem, z, F, options)


def ncp_newton_minFBLSA(problem, z, F, options) -> int:
    """Siconos ``ncp_newton_minFBLSA``: Newton on the min map, FB merit line search."""
    return _with_id(ncp_driver, "ncp", "SICONOS_NCP_NEWTON_MIN_FBLSA")(problem, z, F, options)


def ncp_path(problem, z, F, options) -> int:
    """Siconos ``ncp_path``: solved by Saltus's Newton–FB (see the module docs)."""
    return _with_id(ncp_driver, "ncp", "SICONOS_NCP_PATH")(problem, z, F, options)


def ncp_pathsearch(problem, z, F, options) -> int:
    """Siconos ``ncp_pathsearch``: solved by Saltus's Newton–FB (see the module docs)."""
    return _with_id(ncp_driver, "ncp", "SICONOS_NCP_PATHSEARCH")(problem, z, F, options)


def ncp_compute_error(n, z, F, tol, err=None) -> float:
    """Siconos's NCP error ``‖min(z, F)‖`` (Siconos ``lcp_compute_error_only``)."""
    z, F = np.asarray(z, dtype=np.float64)[: int(n)], np.asarray(F, dtype=np.float64)[: int(n)]
    return float(np.linalg.norm(np.minimum(z, F)))


def mcp_driver(problem: MCP, z, w, options) -> int:
    """Siconos ``mcp_driver``: solves the MCP from ``z``; fills ``z`` and ``w = F(z)``."""
    _need(problem, "n1", "n2", "compute_Fmcp")
    name = _solver("mcp", options.solverId)
    tol, it = _tol_iter(options)
    n = problem.n1 + problem.n2
    sol, rep = _nm.mcp(_f(problem.compute_Fmcp, n), problem.n1, z, jacobian=_jac(problem.compute_nabla_Fmcp, n),
                       solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, z, w)


def mcp_newton_FB_FBLSA(problem, z, w, options) -> int:
    """Siconos ``mcp_newton_FB_FBLSA``."""
    return _with_id(mcp_driver, "mcp", "SICONOS_MCP_NEWTON_FB_FBLSA")(problem, z, w, options)


def mcp_newton_min_FBLSA(problem, z, w, options) -> int:
    """Siconos ``mcp_newton_min_FBLSA``."""
    return _with_id(mcp_driver, "mcp", "SICONOS_MCP_NEWTON_MIN_FBLSA")(problem, z, w, options)


def mcp_compute_error(problem: MCP, z, w) -> float:
    """Siconos ``mcp_compute_error``: ``‖F_e(z)‖ + ‖min(z_c, F_c(z))‖``, writing ``w = F(z)``."""
    n1, n = problem.n1, problem.n1 + problem.n2
    fz = _f(problem.compute_Fmcp, n)(np.array(z, dtype=np.float64)).copy()
    if isinstance(w, np.ndarray) and w.flags.writeable:
        w[...] = fz
    z = np.asarray(z, dtype=np.float64)
    return float(np.linalg.norm(np.minimum(z[n1:], fz[n1:])) + np.linalg.norm(fz[:n1]))


def variationalInequality_driver(problem: VI, x, w, options) -> int:
    """Siconos ``variationalInequality_driver``: solves the box VI from ``x``; fills ``x`` and
    ``w = F(x)``."""
    _need(problem, "size", "F")
    name = _solver("vi", options.solverId)
    if problem.lb is None:
        raise_unsupported("VI without set_box_constraints", "give the box, or use saltus.numerics.vi with a projection")
    tol, it = _tol_iter(options)
    n = problem.size
    sol, rep = _nm.box_vi(_f(problem.F, n), problem.lb, problem.ub, x, jacobian=_jac(problem.compute_nabla_F, n),
                          solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, x, w)


def variationalInequality_box_newton_QiLSA(problem, x, F, options) -> int:
    """Siconos ``variationalInequality_box_newton_QiLSA``: semismooth Newton on the box
    Fischer–Burmeister function with a line search."""
    return _with_id(variationalInequality_driver, "vi", "SICONOS_VI_BOX_QI")(problem, x, F, options)


def variationalInequality_ExtraGradient(problem, x, w, options) -> int:
    """Siconos ``variationalInequality_ExtraGradient`` (box VIs)."""
    return _with_id(variationalInequality_driver, "vi", "SICONOS_VI_EG")(problem, x, w, options)


def variationalInequality_FixedPointProjection(problem, x, w, options) -> int:
    """Siconos ``variationalInequality_FixedPointProjection`` (box VIs)."""
    return _with_id(variationalInequality_driver, "vi", "SICONOS_VI_FPP")(problem, x, w, options)


def vi_box_path(problem, z, F, options) -> int:
    """Siconos ``vi_box_path``: solved by Saltus's Newton–FB (see the module docs)."""
    return _with_id(variationalInequality_driver, "vi", "SICONOS_VI_BOX_PATH")(problem, z, F, options)


NAMES = {
    "NCP": NCP,
    "MCP": MCP,
    # the name of Siconos < 4.4 (same constructor and callbacks), used by the tutorials
    "MixedComplementarityProblem2": MCP,
    "VI": VI,
    "ncp_driver": ncp_driver,
    "ncp_newton_FBLSA": ncp_newton_FBLSA,
    "ncp_newton_minFBLSA": ncp_newton_minFBLSA,
    "ncp_path": ncp_path,
    "ncp_pathsearch": ncp_pathsearch,
    "ncp_compute_error": ncp_compute_error,
    "mcp_driver": mcp_driver,
    "mcp_newton_FB_FBLSA": mcp_newton_FB_FBLSA,
    "mcp_newton_min_FBLSA": mcp_newton_min_FBLSA,
    # the names of Siconos < 4.4
    "mcp_newton_FBLSA": mcp_newton_FB_FBLSA,
    "mcp_newton_minFBLSA": mcp_newton_min_FBLSA,
    "mcp_compute_error": mcp_compute_error,
    "variationalInequality_driver": variationalInequality_driver,
    "variationalInequality_box_newton_QiLSA": variationalInequality_box_newton_QiLSA,
    "variationalInequality_ExtraGradient": variationalInequality_ExtraGradient,
    "variationalInequality_FixedPointProjection": variationalInequality_FixedPointProjection,
    "vi_box_path": vi_box_path,
}
