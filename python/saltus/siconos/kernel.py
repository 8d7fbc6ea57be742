"""``siconos.kernel`` on Saltus: the camelCase classes of Siconos 4.4 that the Saltus kernel
has, with Siconos's constructors, defaults and step protocol; every other public name raises
``SiconosFeatureNotSupported`` naming it.

Semantics kept from Siconos: vectors taken before the simulation is built (``q = ball.q()``,
``inter.lambda_(1)``) follow the state; ``computeOneStep()`` computes the state at
``nextTime()``, ``nextStep()`` moves on; the default solvers (``LCP``: Lemke, ``Relay``: AVI
Cao–Ferris, ``MLCP``: enumeration, ``FrictionContact``: NSGS) with Siconos's tolerances and
iteration caps, changed through ``numericsSolverOptions().iparam/dparam``.
"""

from __future__ import annotations

import numpy as np

from .. import relations as _r
from ._constants import KERNEL_INTS
from ._kmodel import (
    FirstOrderLinearDS,
    FirstOrderLinearR,
    FirstOrderLinearTIDS,
    FirstOrderNonLinearDS,
    Interaction,
    LagrangianDS,
    LagrangianLinearDiagonalDS,
    LagrangianLinearTIDS,
    NonSmoothDynamicalSystem,
)
from . import _krelation as _krel
from ._krelation import FirstOrderNonLinearR
from ._newton_euler import (
    NewtonEuler1DR,
    NewtonEulerDS,
    NewtonEulerR,
    changeFrameAbsToBody,
    changeFrameBodyToAbs,
    quaternionFromRotationVector,
    rotateAbsToBody,
    rotationVectorFromQuaternion,
)
from ._ksim import (
    AVI,
    LCP,
    MLCP,
    Equality,
    EulerMoreauOSI,
    EventDriven,
    FrictionContact,
    GlobalFrictionContact,
    LsodarOSI,
    MoreauJeanBilbaoOSI,
    MoreauJeanGOSI,
    MoreauJeanOSI,
    Relay,
    TimeDiscretisation,
    TimeStepping,
    TimeSteppingDirectProjection,
    ZeroOrderHoldOSI,
)
from ._unsupported import module_getattr, raise_unsupported

globals().update(KERNEL_INTS)

# matrix storages of the one-step problems (setMStorageType)
DENSE, SPARSE = 1, 4
# Siconos >= 4.5's assembly types of the Delassus operator (run_options['osns_assembly_type']):
# how Siconos stores W, not what it solves; Saltus assembles its own way, so they are labels only
REDUCED_BLOCK, REDUCED_DIRECT, GLOBAL, GLOBAL_REDUCED = 0, 1, 2, 3


class _Display:
    def display(self) -> None:
        """Prints the object (Siconos prints its data)."""
        print(f"{type(self).__name__}: {vars(self)}")


# relations and laws: Saltus's have Siconos's constructors already (subclassed for display())
for _cls in (_r.LagrangianLinearTIR, _krel.LagrangianScleronomousR, _krel.LagrangianRheonomousR,
             _r.LagrangianCompliantLinearTIR, _r.FirstOrderLinearTIR, _krel.FirstOrderType1R, _krel.FirstOrderType2R,
             _r.NewtonImpactNSL, _r.NewtonImpactFrictionNSL, _r.RelayNSL, _r.NormalConeNSL,
             _r.ComplementarityConditionNSL, _r.EqualityConditionNSL, _r.MixedComplementarityConditionNSL):
    globals()[_cls.__name__] = type(_cls.__name__, (_Display, _cls), {"__module__": __name__, "__doc__": _cls.__doc__})
del _cls


# ---------------------------------------------------------------------------------------------
# SiconosVector / SimpleMatrix and the ascii matrix files of Siconos (.ref)
# ---------------------------------------------------------------------------------------------


def _read_matrix_file(path: str) -> np.ndarray:
    """Siconos's ascii matrix format: a ``rows cols`` line, then the rows."""
    with open(path, "r", encoding="utf-8") as f:
        head = f.readline().split()
        data = np.loadtxt(f, ndmin=2)
    rows, cols = int(head[0]), int(head[1])
    return data.reshape(rows, cols)


class SimpleMatrix:
    """Siconos ``SimpleMatrix``: ``SimpleMatrix(rows, cols)``, ``SimpleMatrix(array)`` or
    ``SimpleMatrix("file")`` (Siconos's ascii format); ``getMatrix`` gives the numpy array."""

    def __init__(self, a, cols=None, *rest):
        if isinstance(a, str):
            self._a = _read_matrix_file(a)
        elif cols is not None:
            self._a = np.zeros((int(a), int(cols)))
        else:
            self._a = np.array(a, dtype=np.float64, ndmin=2)

    def size(self, i: int) -> int:
        return self._a.shape[i]

    def getValue(self, i: int, j: int) -> float:
        return float(self._a[i, j])

    def setValue(self, i: int, j: int, v: float) -> None:
        self._a[i, j] = v

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def display(self) -> None:
        print(self._a)

    def __str__(self) -> str:
        """Siconos's output operator: ``[r,c]((a,b),(c,d))``, six significant digits."""
        rows = ",".join("(" + ",".join("%g" % v for v in row) + ")" for row in self._a)
        return f"[{self._a.shape[0]},{self._a.shape[1]}]({rows})"


class SiconosVector:
    """Siconos ``SiconosVector(n)`` or ``SiconosVector(values)``."""

    def __init__(self, a, value=None):
        if np.isscalar(a):
            self._a = np.full(int(a), 0.0 if value is None else float(value))
        else:
            self._a = np.array(a, dtype=np.float64).ravel()

    def size(self) -> int:
        return self._a.size

    def zero(self) -> None:
        """Sets every entry to 0."""
        self._a[:] = 0.0

    def norm2(self) -> float:
        """The Euclidean norm."""
        return float(np.linalg.norm(self._a))

    def display(self) -> None:
        print(self)

    def getValue(self, i: int) -> float:
        return float(self._a[i])

    def setValue(self, i: int, v: float) -> None:
        self._a[i] = v

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def __len__(self) -> int:
        return self._a.size

    def __getitem__(self, i):
        return self._a[i]

    def __setitem__(self, i, v) -> None:
        self._a[i] = v

    def __iter__(self):
        return iter(self._a.tolist())

    def __str__(self) -> str:
        """Siconos's output operator: ``[n](v0,v1,...)``, six significant digits."""
        return f"[{self._a.size}](" + ",".join("%g" % v for v in self._a) + ")"


class BlockVector:
    """Siconos ``BlockVector(v1, v2)``: the vectors side by side (``blocks``), e.g. the poses of
    a joint's two bodies for ``computehDoF``."""

    def __init__(self, *vectors):
        self.blocks = [np.asarray(v, dtype=np.float64).ravel() for v in vectors]

    def size(self) -> int:
        return sum(b.size for b in self.blocks)

    def getValue(self, i: int) -> float:
        return float(np.concatenate(self.blocks)[i])

    def __array__(self, dtype=None, copy=None):
        a = np.concatenate(self.blocks) if self.blocks else np.zeros(0)
        return a if dtype is None else a.astype(dtype)


def interactions(index_set) -> list:
    """Siconos ``interactions(indexSet)``: the interactions of an index set (a model of rigid
    bodies: its contacts of the last step)."""
    return index_set.interactions()


def cast_NewtonEulerDS(ds):
    """Siconos ``cast_NewtonEulerDS``: the body handle of a running ``MechanicsHdf5Runner``
    controller (``io._nsds.topology().getDynamicalSystem(name)``) as it is."""
    return ds


def solver_options_create(solver_id: int):
    """Siconos ``solver_options_create(solverId)`` (also in ``siconos.kernel``): a
    ``SolverOptions`` with Siconos 4.4's defaults."""
    from .numerics import SolverOptions

    return SolverOptions(solver_id)


def solver_options_id_to_name(solver_id: int) -> str:
    """Siconos's name of a solver id (also in ``siconos.kernel``)."""
    from .numerics import solver_options_id_to_name as name

    return name(solver_id)


class MoreauJeanDirectProjectionOSI:
    """Siconos ``MoreauJeanDirectProjectionOSI``: accepted as ``MechanicsHdf5Runner.run(osi=...)``
    with ``time_stepping=TimeSteppingDirectProjection`` (Saltus's mechanics then projects the
    bodies onto their joints after each Moreau–Jean step); not a kernel integrator here."""

    def __init__(self, *args, **kwargs):
        raise_unsupported("siconos.kernel.MoreauJeanDirectProjectionOSI in a kernel simulation",
                          "only as MechanicsHdf5Runner.run(osi=...) with TimeSteppingDirectProjection")


def solver_options_update_internal(options, index: int, solver_id: int):
    """Siconos ``solver_options_update_internal(options, i, solverId)`` (also in
    ``siconos.numerics``): the ``i``-th internal solver of ``options`` becomes a fresh
    ``SolverOptions(solverId)`` (returned, to tune its ``iparam``/``dparam``). Saltus's solvers
    keep their own local solvers (NSGS: Saltus's one-contact solver, to the same tolerance);
    only the choice is recorded."""
    from .numerics import SolverOptions

    internal = SolverOptions(solver_id)
    index = int(index)
    if index < 0:
        raise IndexError(f"solver_options_update_internal: index {index} < 0")
    while len(options.internalSolvers) <= index:
        options.internalSolvers.append(None)
    options.internalSolvers[index] = internal
    return internal


# Siconos 4.4's default internal (one-contact) solver of the NSGS solvers that have one
_DEFAULT_INTERNAL = {500: 565}  # FRICTION_3D_NSGS -> FRICTION_3D_ONECONTACT_NSN_GP_HYBRID


def solver_options_get_internal_solver(options, index: int):
    """Siconos ``solver_options_get_internal_solver(options, i)`` (also in ``siconos.numerics``):
    the ``i``-th internal solver of ``options`` (Siconos 4.4's default one for NSGS, created on
    first use), to tune its ``iparam``/``dparam``. As with
    :func:`solver_options_update_internal`, Saltus's NSGS keeps its own one-contact solver (in 2D
    the exact solution): its parameters are recorded, not used."""
    index = int(index)
    if 0 <= index < len(options.internalSolvers) and options.internalSolvers[index] is not None:
        return options.internalSolvers[index]
    if index != 0 or options.solverId not in _DEFAULT_INTERNAL:
        raise IndexError(f"solver_options_get_internal_solver: solver {options.solverId} has no internal "
                         f"solver {index}")
    return solver_options_update_internal(options, 0, _DEFAULT_INTERNAL[options.solverId])


def getMatrix(m) -> np.ndarray:
    """The numpy array of a ``SimpleMatrix`` (or of anything array-like)."""
    return np.asarray(m, dtype=np.float64)


def getVector(v) -> np.ndarray:
    """The numpy array of a ``SiconosVector``."""
    return np.asarray(v, dtype=np.float64).ravel()


__getattr__ = module_getattr(
    "siconos.kernel",
    {
        "SchatzmanPaoliOSI": "not in the Saltus kernel",
        "D1MinusLinearOSI": "not in the Saltus kernel",
        "GenericMechanical": "not in the Saltus kernel",
    },
)

__all__ = [n for n in list(globals()) if not n.startswith("_") and n not in ("annotations", "np")]
