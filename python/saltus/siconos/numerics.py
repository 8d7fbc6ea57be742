"""``siconos.numerics`` on Saltus: Siconos 4.4's problem objects (``LCP(M, q)``,
``MLCP(n_eq, M, q)``, ``FrictionContactProblem(dim, M, q, mu)``,
``GlobalFrictionContactProblem``, ``RelayProblem``), ``SolverOptions(solver_id)`` with its
``iparam``/``dparam`` arrays, the ``SICONOS_*`` constants and the drivers
(``linearComplementarity_driver``, ``lcp_driver_DenseMatrix``, ``mlcp_driver``,
``relay_driver``, ``fc2d_driver``, ``fc3d_driver``, ``gfc3d_driver``), solved by the Saltus
solvers of :mod:`saltus.numerics`; ``NCP``, ``MCP`` and ``VI`` with Python callbacks and their
drivers (``ncp_driver``, ``mcp_driver``, ``variationalInequality_driver``, ...: see ``_cp``).

Driver contract (Siconos's): the solution is written into the caller's arrays (``z``/``w``,
``r``/``u``(/``v``)), the return value is the info code (0: converged, 1: not), and the solver
options receive the iterations done (``iparam[SICONOS_IPARAM_ITER_DONE]``) and the Siconos error
of the solution (``dparam[SICONOS_DPARAM_RESIDU]``). Matrices may be numpy arrays or
scipy.sparse matrices. Difference: Saltus solvers start from zero, not from the values in the
caller's arrays (no warm start through the driver).
"""

from __future__ import annotations

import numpy as np

from .. import numerics as _nm
from . import _cp, _solvers
from ._constants import INTS, STRS
from ._unsupported import module_getattr, raise_unsupported

globals().update(INTS)
globals().update(STRS)
# NCP, MCP, VI with Python callbacks and their drivers (``_cp``)
globals().update(_cp.NAMES)

_ITER_DONE = INTS["SICONOS_IPARAM_ITER_DONE"]
_RESIDU = INTS["SICONOS_DPARAM_RESIDU"]
_EPS = np.finfo(float).eps


# ---------------------------------------------------------------------------------------------
# solver options
# ---------------------------------------------------------------------------------------------


class SolverOptions:
    """Siconos ``SolverOptions(solverId)`` (or the older ``SolverOptions(problem, solverId)``):
    ``iparam`` (int32, 20 entries) and ``dparam`` (float64, 20 entries) hold Siconos 4.4's
    defaults for that solver; ``iparam[0]`` is the iteration cap, ``dparam[0]`` the tolerance."""

    def __init__(self, a, b=None):
        solver_id = a if b is None else b
        if not isinstance(solver_id, (int, np.integer)):
            raise TypeError(f"SolverOptions(solverId): expected an int id, got {type(solver_id).__name__}")
        self.solverId = int(solver_id)
        self.iparam = np.zeros(20, dtype=np.int32)
        self.dparam = np.zeros(20, dtype=np.float64)
        ip, dp = _solvers.defaults(self.solverId)
        for i, v in ip.items():
            self.iparam[i] = v
        for i, v in dp.items():
            self.dparam[i] = v
        self.internalSolvers = []
        self.filterOn = True

    @property
    def iSize(self) -> int:
        return self.iparam.size

    @property
    def dSize(self) -> int:
        return self.dparam.size

    @property
    def numberOfInternalSolvers(self) -> int:
        return len(self.internalSolvers)

    def __repr__(self) -> str:
        return f"SolverOptions({_solvers.NAME_OF.get(self.solverId, self.solverId)})"


def solver_options_create(solver_id: int) -> SolverOptions:
    return SolverOptions(solver_id)


def solver_options_get_internal_solver(options: SolverOptions, index: int) -> SolverOptions:
    """Siconos ``solver_options_get_internal_solver``: see ``siconos.kernel``'s."""
    from .kernel import solver_options_get_internal_solver as get

    return get(options, index)


def solver_options_update_internal(options: SolverOptions, index: int, solver_id: int) -> SolverOptions:
    """Siconos ``solver_options_update_internal``: see ``siconos.kernel``'s."""
    from .kernel import solver_options_update_internal as update

    return update(options, index, solver_id)


def _tol_iter(options: SolverOptions):
    tol = float(options.dparam[INTS["SICONOS_DPARAM_TOL"]])
    it = int(options.iparam[INTS["SICONOS_IPARAM_MAX_ITER"]])
    return (tol if tol > 0 else 1e-8), (it if it > 0 else 1000)


def _finish(options: SolverOptions, sol, rep, outs) -> int:
    for name, arr in outs:
        if arr is None:
            continue
        if arr.shape != sol[name].shape or not arr.flags.writeable:
            raise ValueError(f"the `{name}` array must be a writeable float64 array of size {sol[name].size}")
        arr[...] = sol[name]
    options.iparam[_ITER_DONE] = int(rep["iterations"])
    options.dparam[_RESIDU] = float(rep["error"])
    return 0 if rep["converged"] else 1


# ---------------------------------------------------------------------------------------------
# problems
# ---------------------------------------------------------------------------------------------


def _vec(v) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(v, dtype=np.float64).ravel())


class LCP:
    """Siconos ``LCP(M, q)``: ``w = M z + q``, ``0 <= z ⟂ w >= 0``."""

    def __init__(self, M=None, q=None):
        self.M = M
        self.q = None if q is None else _vec(q)

    @property
    def size(self) -> int:
        return 0 if self.q is None else self.q.size


LinearComplementarityProblem = LCP


class MLCP:
    """Siconos ``MLCP(n, M, q)``: the first ``n`` rows are equalities (``w = 0``, ``z``
    free), the others complementarity conditions."""

    def __init__(self, n=None, M=None, q=None):
        self.n = None if n is None else int(n)
        self.M = M
        self.q = None if q is None else _vec(q)

    @property
    def m(self) -> int:
        return 0 if self.q is None else self.q.size - (self.n or 0)


MixedLinearComplementarityProblem = MLCP


class RelayProblem:
    """Siconos ``RelayProblem``: ``w = M z + q``, ``-w ∈ N_[lb, ub](z)`` (attributes ``M``,
    ``q``, ``lb``, ``ub``)."""

    def __init__(self, M=None, q=None, lb=None, ub=None):
        self.M, self.q = M, None if q is None else _vec(q)
        self.lb = None if lb is None else _vec(lb)
        self.ub = None if ub is None else _vec(ub)

    @property
    def size(self) -> int:
        return 0 if self.q is None else self.q.size


class FrictionContactProblem:
    """Siconos ``FrictionContactProblem(dim, M, q, mu)``: ``u = M r + q`` with Coulomb cones of
    coefficients ``mu`` (one per contact)."""

    def __init__(self, dimension=None, M=None, q=None, mu=None):
        self.dimension = None if dimension is None else int(dimension)
        self.M = M
        self.q = None if q is None else _vec(q)
        self.mu = None if mu is None else _vec(mu)

    @property
    def numberOfContacts(self) -> int:
        return 0 if self.mu is None else self.mu.size


class GlobalFrictionContactProblem:
    """Siconos ``GlobalFrictionContactProblem``: ``M v = H r + q``, ``u = Hᵀ v + b``, Coulomb
    cones ``mu``; set ``dimension``, ``M``, ``H``, ``q``, ``b``, ``mu`` (or give them in that
    order to the constructor)."""

    def __init__(self, dimension=None, M=None, H=None, q=None, b=None, mu=None):
        self.dimension = None if dimension is None else int(dimension)
        self.M, self.H = M, H
        self.q = None if q is None else _vec(q)
        self.b = None if b is None else _vec(b)
        self.mu = None if mu is None else _vec(mu)

    @property
    def numberOfContacts(self) -> int:
        return 0 if self.mu is None else self.mu.size


# ---------------------------------------------------------------------------------------------
# drivers
# ---------------------------------------------------------------------------------------------


def linearComplementarity_driver(problem: LCP, z, w, options: SolverOptions) -> int:
    """Solves the LCP with ``options.solverId``; fills ``z``, ``w``; returns the info code."""
    _, name, _ = _solvers.lookup(options.solverId, "lcp")
    tol, it = _tol_iter(options)
    sol, rep = _nm.lcp(problem.M, problem.q, solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, (("z", z), ("w", w)))


lcp_driver_DenseMatrix = linearComplementarity_driver


def mlcp_driver(problem: MLCP, z, w, options: SolverOptions) -> int:
    """Solves the MLCP (``n`` equalities first); fills ``z``, ``w``; returns the info code."""
    _, name, _ = _solvers.lookup(options.solverId, "mlcp")
    tol, it = _tol_iter(options)
    sol, rep = _nm.mlcp(problem.M, problem.q, problem.n or 0, solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, (("z", z), ("w", w)))


def relay_driver(problem: RelayProblem, z, w, options: SolverOptions) -> int:
    """Solves the relay problem; fills ``z``, ``w``; returns the info code."""
    _, name, _ = _solvers.lookup(options.solverId, "relay")
    tol, it = _tol_iter(options)
    sol, rep = _nm.relay(problem.M, problem.q, problem.lb, problem.ub, solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, (("z", z), ("w", w)))


def _fc_driver(dim: int, problem: FrictionContactProblem, r, u, options: SolverOptions) -> int:
    if problem.dimension not in (None, dim):
        raise ValueError(f"fc{dim}d_driver: the problem has dimension {problem.dimension}")
    _, name, _ = _solvers.lookup(options.solverId, f"fc{dim}d")
    tol, it = _tol_iter(options)
    fn = _nm.fc2d if dim == 2 else _nm.fc3d
    sol, rep = fn(problem.M, problem.q, problem.mu, solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, (("r", r), ("u", u)))


def fc3d_driver(problem: FrictionContactProblem, reaction, velocity, options: SolverOptions) -> int:
    """Solves the 3D friction-contact problem; fills ``reaction``, ``velocity``."""
    return _fc_driver(3, problem, reaction, velocity, options)


def fc2d_driver(problem: FrictionContactProblem, reaction, velocity, options: SolverOptions) -> int:
    """Solves the 2D friction-contact problem; fills ``reaction``, ``velocity``."""
    return _fc_driver(2, problem, reaction, velocity, options)


def gfc3d_driver(problem: GlobalFrictionContactProblem, reaction, velocity, globalVelocity, options) -> int:
    """Solves the global 3D friction-contact problem; fills ``reaction``, ``velocity`` and
    ``globalVelocity``."""
    _, name, _ = _solvers.lookup(options.solverId, "gfc3d")
    tol, it = _tol_iter(options)
    p = problem
    sol, rep = _nm.gfc3d(p.M, p.H, p.q, p.b, p.mu, solver=name, tol=tol, max_iter=it)
    return _finish(options, sol, rep, (("r", reaction), ("u", velocity), ("v", globalVelocity)))


# ---------------------------------------------------------------------------------------------
# Siconos's error measures (docs: shared/specs/siconos-error-measures.md)
# ---------------------------------------------------------------------------------------------


def _mul(M, z) -> np.ndarray:
    return np.asarray(M @ z, dtype=np.float64).ravel()


def lcp_compute_error(problem: LCP, z, w, tolerance: float) -> float:
    """``‖min(z, Mz + q)‖ / ‖q‖`` (``‖q‖ > ε``), writing ``w = M z + q``."""
    z = np.asarray(z, dtype=np.float64)
    wv = _mul(problem.M, z) + problem.q
    if isinstance(w, np.ndarray) and w.flags.writeable:
        w[...] = wv
    e = float(np.linalg.norm(np.minimum(z, wv)))
    nq = float(np.linalg.norm(problem.q))
    return e / nq if nq > _EPS else e


def _cone(x: np.ndarray, mu: float) -> np.ndarray:
    xn, xt = x[0], x[1:]
    t = float(np.linalg.norm(xt))
    if mu * t <= -xn:
        return np.zeros_like(x)
    if t <= mu * xn:
        return x
    pn = (mu * t + xn) / (mu * mu + 1.0)
    return np.concatenate([[pn], mu * pn * xt / t])


def _fc_error(dim: int, problem, r, u) -> float:
    r = np.asarray(r, dtype=np.float64)
    uv = _mul(problem.M, r) + problem.q
    if isinstance(u, np.ndarray) and u.flags.writeable:
        u[...] = uv
    tot = 0.0
    for a, mu in enumerate(problem.mu):
        s = slice(dim * a, dim * (a + 1))
        ua = uv[s].copy()
        ua[0] += mu * np.linalg.norm(ua[1:])
        e = r[s] - _cone(r[s] - ua, float(mu))
        tot += float(e @ e)
    scale = max(float(np.linalg.norm(problem.q)), float(np.linalg.norm(r)), float(np.linalg.norm(uv)))
    e = np.sqrt(tot)
    return e / scale if scale > _EPS else e


def fc3d_compute_error(problem: FrictionContactProblem, reaction, velocity, tolerance, options=None, norm=None):
    """Siconos's FC3D error (De Saxcé natural map) → ``[info, error]`` (info 0 if ``error <=
    tolerance``), writing ``velocity = M r + q``."""
    e = _fc_error(3, problem, reaction, velocity)
    return [0 if e <= tolerance else 1, e]


def fc2d_compute_error(problem: FrictionContactProblem, reaction, velocity, tolerance, options=None, norm=None):
    """Siconos's FC2D error → ``[info, error]``."""
    e = _fc_error(2, problem, reaction, velocity)
    return [0 if e <= tolerance else 1, e]


def solver_options_id_to_name(solver_id: int) -> str:
    """Siconos's name of a solver id (``"FC3D_NSGS"`` for ``SICONOS_FRICTION_3D_NSGS``)."""
    name = _solvers.NAME_OF.get(int(solver_id))
    return STRS[name + "_STR"] if name is not None else "UNKNOWN"


# ---------------------------------------------------------------------------------------------
# FCLib files (HDF5, read with h5py)
# ---------------------------------------------------------------------------------------------


def _fclib_sparse(g):
    """A sparse matrix group of FCLib: ``m``, ``n``, ``nz`` (>= 0: triplets with rows ``i`` and
    columns ``p``; -1: compressed columns; -2: compressed rows), ``p``, ``i``, ``x``."""
    import scipy.sparse as sp

    m, n, nz = (int(np.ravel(g[k][()])[0]) for k in ("m", "n", "nz"))
    p = np.ravel(g["p"][()]).astype(np.int64)
    i = np.ravel(g["i"][()]).astype(np.int64)
    x = np.ravel(g["x"][()]).astype(np.float64)
    if nz >= 0:
        return sp.coo_matrix((x[:nz], (i[:nz], p[:nz])), shape=(m, n)).tocsr()
    if nz == -1:
        end = int(p[n])
        return sp.csc_matrix((x[:end], i[:end], p[: n + 1]), shape=(m, n)).tocsr()
    if nz == -2:
        end = int(p[m])
        return sp.csr_matrix((x[:end], i[:end], p[: m + 1]), shape=(m, n))
    raise ValueError(f"FCLib sparse matrix: unknown storage code nz = {nz}")


def _h5(path):
    try:
        import h5py
    except ImportError as e:
        raise_unsupported("FCLib files without h5py", f"pip install h5py ({e})")
    return h5py.File(path, "r")


def frictionContact_fclib_read(path) -> FrictionContactProblem:
    """The local friction-contact problem of an FCLib file (``/fclib_local``: ``spacedim``,
    ``W``, ``vectors/q``, ``vectors/mu``), ``M`` as a scipy.sparse CSR matrix."""
    with _h5(path) as f:
        g = f["fclib_local"]
        dim = int(np.ravel(g["spacedim"][()])[0])
        W = _fclib_sparse(g["W"])
        q, mu = g["vectors"]["q"][()], g["vectors"]["mu"][()]
    return FrictionContactProblem(dim, W, q, mu)


def globalFrictionContact_fclib_read(path) -> GlobalFrictionContactProblem:
    """The global problem of an FCLib file (``/fclib_global``: ``M``, ``H``, ``vectors/f``
    (``q``), ``vectors/w`` (``b``), ``vectors/mu``)."""
    with _h5(path) as f:
        g = f["fclib_global"]
        dim = int(np.ravel(g["spacedim"][()])[0])
        M, H = _fclib_sparse(g["M"]), _fclib_sparse(g["H"])
        v = g["vectors"]
        q, b, mu = v["f"][()], v["w"][()], v["mu"][()]
    return GlobalFrictionContactProblem(dim, M, H, q, b, mu)


def _fclib_put(g, name: str, data) -> None:
    g.create_dataset(name, data=data)


def _fclib_put_sparse(g, A, csr: bool) -> None:
    """``A`` as an FCLib sparse group: compressed rows (``nz = -2``) or triplets (``nz`` >= 0,
    ``i`` rows, ``p`` columns)."""
    import scipy.sparse as sp

    if csr:
        A = sp.csr_matrix(A)
        A.eliminate_zeros()
        p, i, x, nz = A.indptr, A.indices, A.data, -2
    else:
        A = sp.coo_matrix(A)
        p, i, x, nz = A.col, A.row, A.data, A.nnz
    m, n = A.shape
    for k, v in (("m", m), ("n", n), ("nz", nz), ("nzmax", len(x))):
        _fclib_put(g, k, np.array([v], dtype=np.int32))
    _fclib_put(g, "p", np.asarray(p, dtype=np.int32))
    _fclib_put(g, "i", np.asarray(i, dtype=np.int32))
    _fclib_put(g, "x", np.asarray(x, dtype=np.float64))


def _fclib_file(path):
    try:
        import h5py
    except ImportError as e:
        raise_unsupported("FCLib files without h5py", f"pip install h5py ({e})")
    return h5py.File(path, "w")


def _fclib_info(g, title: str, description: str, math_info: str) -> None:
    info = g.create_group("info")
    for k, v in (("title", title), ("description", description), ("math_info", math_info)):
        info.create_dataset(k, data=str(v))


def frictionContact_fclib_write(problem, title, description, mathInfo, path, ndof: int = -1) -> int:
    """Writes a local friction-contact problem as an FCLib file (``/fclib_local``: ``W`` in
    compressed rows, ``vectors/q``, ``vectors/mu``, ``info``), replacing it; returns 1 as Siconos.
    ``ndof`` (the number of degrees of freedom, for the file's statistics) is recorded in
    ``info`` as Siconos's attribute ``numberOfDegreeOfFreedom`` when given."""
    with _fclib_file(path) as f:
        g = f.create_group("fclib_local")
        _fclib_put(g, "spacedim", np.array([int(problem.dimension)], dtype=np.int32))
        _fclib_put_sparse(g.create_group("W"), problem.M, csr=True)
        v = g.create_group("vectors")
        _fclib_put(v, "q", np.asarray(problem.q, dtype=np.float64))
        _fclib_put(v, "mu", np.asarray(problem.mu, dtype=np.float64))
        _fclib_info(g, title, description, mathInfo)
        if ndof is not None and int(ndof) >= 0:
            g["info"].attrs["numberOfDegreeOfFreedom"] = int(ndof)
    return 1


def globalFrictionContact_fclib_write(problem, title, description, mathInfo, path) -> int:
    """Writes a global problem as an FCLib file (``/fclib_global``: ``M``, ``H`` as triplets,
    ``vectors/f`` = ``q``, ``vectors/w`` = ``b``, ``vectors/mu``, ``info``), replacing it."""
    with _fclib_file(path) as f:
        g = f.create_group("fclib_global")
        _fclib_put(g, "spacedim", np.array([int(problem.dimension)], dtype=np.int32))
        _fclib_put_sparse(g.create_group("M"), problem.M, csr=False)
        _fclib_put_sparse(g.create_group("H"), problem.H, csr=False)
        v = g.create_group("vectors")
        for k, x in (("f", problem.q), ("w", problem.b), ("mu", problem.mu)):
            _fclib_put(v, k, np.asarray(x, dtype=np.float64))
        _fclib_info(g, title, description, mathInfo)
    return 1


def fclib_write_solutions(path, solution=None, guesses=()) -> None:
    """Adds ``/solution`` and ``/guesses`` (dicts with ``r``, ``u`` and, global, ``v``) to an
    FCLib file (FCLib's ``fclib_write_solution`` and ``fclib_write_guesses``)."""
    import h5py

    def put(g, s):
        for k in ("r", "u", "v"):
            if s.get(k) is not None:
                g.create_dataset(k, data=np.asarray(s[k], dtype=np.float64))

    with h5py.File(path, "a") as f:
        if solution is not None:
            put(f.create_group("solution"), solution)
        if guesses:
            g = f.create_group("guesses")
            g.create_dataset("number_of_guesses", data=np.array([len(guesses)], dtype=np.int32))
            for k, s in enumerate(guesses):
                put(g.create_group(str(k + 1)), s)


def numerics_set_verbose(level: int) -> None:
    """Accepted (Saltus's solvers print nothing)."""


setNumericsVerbose = numerics_set_verbose

__getattr__ = module_getattr(
    "siconos.numerics",
    {
        "NumericsMatrix": "give numpy arrays or scipy.sparse matrices",
    },
)
