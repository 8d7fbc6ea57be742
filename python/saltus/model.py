"""Model building with the Siconos vocabulary: dynamical systems, relations, nonsmooth laws,
interactions and the NonSmoothDynamicalSystem.

These classes only hold data. A simulation turns them into a Saltus model file (the same XML
that ``saltus run`` reads, see ``saltus.to_xml``), which the compiled core builds with the
command-line tool's converter: a model built in Python behaves bit for bit as the same model
run by ``saltus run``.

User functions come in two kinds:

* **Python callables** (``ds.setFExtPtr(lambda t: ...)``, ``setComputeFIntFunction(f)``): easy
  and slow. Each call crosses into Python (about a microsecond), every step, from the Rust
  integrator. Good for trying a model out.
* **Plugin libraries** (``ds.setComputeFExtFunction("libmyforces.so", "fext")``): C-ABI shared
  libraries (see ``plugins/`` of the repository), called directly from Rust: as fast as the
  command-line tool. Use them for production runs and sweeps.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

HOST = ":host"

ArrayLike = Union[Sequence[float], np.ndarray, float]


def _num(x: float) -> str:
    """Shortest decimal that reads back to the same double (Python's repr)."""
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"non-finite value {v!r}")
    return repr(v)


def _vec(x: ArrayLike, what: str) -> np.ndarray:
    a = np.atleast_1d(np.asarray(x, dtype=np.float64))
    if a.ndim != 1:
        raise ValueError(f"{what} must be a vector, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{what} is empty")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{what} has non-finite values")
    return a


def _mat(x, what: str) -> np.ndarray:
    if hasattr(x, "toarray"):  # scipy.sparse
        x = x.toarray()
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 0:
        a = a.reshape(1, 1)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2:
        raise ValueError(f"{what} must be a matrix, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{what} has non-finite values")
    return a


def _vec_el(parent: ET.Element, tag: str, v: np.ndarray) -> ET.Element:
    e = ET.SubElement(parent, tag)
    e.text = " ".join(_num(x) for x in v)
    return e


def _mat_el(parent: ET.Element, tag: str, m: np.ndarray) -> ET.Element:
    e = ET.SubElement(parent, tag, rows=str(m.shape[0]), cols=str(m.shape[1]))
    e.text = " ".join(_num(x) for x in m.ravel(order="C"))
    return e


class _Plugin:
    """A function of a plugin library: ``library``, ``function`` (and Jacobian symbols)."""

    def __init__(self, library: str, function: str, params: Optional[Sequence[float]] = None, **symbols: str):
        self.library, self.function = str(library), str(function)
        self.params = None if params is None else [float(p) for p in params]
        self.symbols = {k: str(v) for k, v in symbols.items() if v is not None}

    def attrs(self) -> Dict[str, str]:
        a = {"library": self.library, "function": self.function, **self.symbols}
        if self.params is not None:
            a["params"] = " ".join(_num(p) for p in self.params)
        return a


class _Host:
    """Collects the Python callables of a model for the compiled core."""

    def __init__(self):
        self.time: Dict[str, Callable] = {}
        self.pair_vec: Dict[str, Callable] = {}
        self.pair_mat: Dict[str, Callable] = {}
        self.state_vec: Dict[str, Callable] = {}
        self.state_mat: Dict[str, Callable] = {}

    def as_dict(self):
        return {
            "time": self.time,
            "pair_vec": self.pair_vec,
            "pair_mat": self.pair_mat,
            "state_vec": self.state_vec,
            "state_mat": self.state_mat,
        }

    def names(self) -> List[str]:
        return sorted(list(self.time) + list(self.pair_vec) + list(self.state_vec))

    def empty(self) -> bool:
        return not (self.time or self.pair_vec or self.pair_mat or self.state_vec or self.state_mat)


# ---------------------------------------------------------------------------------------------
# Dynamical systems
# ---------------------------------------------------------------------------------------------


class DynamicalSystem:
    """Base class of the dynamical systems. ``name`` names the CSV columns (``NAME.q[0]``);
    systems without one are called ``ds0``, ``ds1``, ... in insertion order."""

    _kind = "DynamicalSystem"

    def __init__(self, name: Optional[str] = None):
        self.name = name
        self._sim = None
        self._core = None  # the compiled simulation, once built
        self._index: Optional[int] = None

    def setName(self, name: str) -> None:
        """Sets the name used in column names and in the model file."""
        self.name = str(name)

    set_name = setName

    def _attached(self):
        return self._core

    def dimension(self) -> int:
        """Number of degrees of freedom (Lagrangian) or states (first order)."""
        return len(self._initial())

    def _initial(self) -> np.ndarray:
        raise NotImplementedError

    def _element(self, parent: ET.Element, host: _Host) -> ET.Element:
        raise NotImplementedError


def _time_function(el: ET.Element, tag: str, value, host: _Host, key: str) -> None:
    """A vector that is a constant, a Python callable f(t) or a plugin."""
    if value is None:
        return
    if isinstance(value, _Plugin):
        ET.SubElement(el, tag, value.attrs())
    elif callable(value):
        host.time[key] = value
        ET.SubElement(el, tag, library=HOST, function=key)
    else:
        _vec_el(el, tag, value)


class _Lagrangian(DynamicalSystem):
    def __init__(self, q0: ArrayLike, v0: ArrayLike, name: Optional[str] = None):
        super().__init__(name)
        self.q0 = _vec(q0, "q0")
        self.v0 = _vec(v0, "v0")
        if self.v0.shape != self.q0.shape:
            raise ValueError(f"v0 has {self.v0.size} values, q0 has {self.q0.size}")
        self._fext = None

    def _initial(self):
        return self.q0

    def setFExtPtr(self, f) -> None:
        """External forces F_ext: a constant vector, or a Python callable ``f(t) -> array``
        (slow: one Python call per evaluation)."""
        self._fext = f if callable(f) else _vec(f, "FExt")

    set_fext = setFExtPtr

    def setComputeFExtFunction(self, library: str, function: str, params: Optional[Sequence[float]] = None) -> None:
        """F_ext(t) from a plugin library (fast): the symbol ``function`` of ``library``."""
        self._fext = _Plugin(library, function, params)

    def q(self) -> np.ndarray:
        """Positions (the current ones once a simulation is built, else q0)."""
        core = self._core
        return self.q0.copy() if core is None else core.state(self._index)

    def velocity(self) -> np.ndarray:
        """Velocities (the current ones once a simulation is built, else v0)."""
        core = self._core
        return self.v0.copy() if core is None else core.velocity(self._index)


class LagrangianLinearTIDS(_Lagrangian):
    """``M v̇ + C v + K q = F_ext(t) + p``: constant mass, stiffness and damping
    (Siconos ``LagrangianLinearTIDS(q0, v0, M)``; ``setKPtr``, ``setCPtr``, ``setFExtPtr``)."""

    _kind = "LagrangianLinearTIDS"

    def __init__(self, q0: ArrayLike, v0: ArrayLike, M, K=None, C=None, name: Optional[str] = None):
        super().__init__(q0, v0, name)
        self.M = _mat(M, "Mass")
        self.K = None if K is None else _mat(K, "K")
        self.C = None if C is None else _mat(C, "C")

    def setKPtr(self, K) -> None:
        """Stiffness matrix K."""
        self.K = _mat(K, "K")

    def setCPtr(self, C) -> None:
        """Damping matrix C."""
        self.C = _mat(C, "C")

    def _element(self, parent, host):
        el = ET.SubElement(parent, self._kind, name=self.name)
        _vec_el(el, "q0", self.q0)
        _vec_el(el, "v0", self.v0)
        _mat_el(el, "Mass", self.M)
        if self.K is not None:
            _mat_el(el, "K", self.K)
        if self.C is not None:
            _mat_el(el, "C", self.C)
        _time_function(el, "FExt", self._fext, host, f"{self.name}.FExt")
        return el


class LagrangianDS(_Lagrangian):
    """``M v̇ + F_gyr(q, v) + F_int(t, q, v) = F_ext(t) + p`` with a constant mass and user
    forces (Siconos ``LagrangianDS``). Forces with their Jacobians are Python callables
    ``f(t, q, v)`` (slow) or plugin symbols (fast)."""

    _kind = "LagrangianDS"

    def __init__(self, q0: ArrayLike, v0: ArrayLike, M, name: Optional[str] = None):
        super().__init__(q0, v0, name)
        self.M = _mat(M, "Mass")
        self._forces: Dict[str, Tuple] = {}

    def _set_force(self, which: str, f, jacobian_q, jacobian_v, params=None) -> None:
        if isinstance(f, str):
            # plugin: f is the library, jacobian_* are symbols; the function symbol comes first
            raise TypeError("use setComputeFIntFunction(library, function, jacobian_q, jacobian_v) with strings")
        if not (callable(f) and callable(jacobian_q) and callable(jacobian_v)):
            raise TypeError(f"{which}: give three callables f(t, q, v), dF/dq(t, q, v), dF/dv(t, q, v)")
        self._forces[which] = ("py", f, jacobian_q, jacobian_v)

    def setComputeFIntFunction(self, f, jacobian_q=None, jacobian_v=None, function=None, params=None) -> None:
        """Internal forces F_int(t, q, v). Either three Python callables
        ``(f, jacobian_q, jacobian_v)`` each ``(t, q, v) -> array`` (slow), or a plugin:
        ``setComputeFIntFunction(library, jacobian_q=SYM, jacobian_v=SYM, function=SYM)``."""
        if isinstance(f, str):
            self._forces["FInt"] = ("plugin", _Plugin(f, function, params, jacobian_q=jacobian_q, jacobian_v=jacobian_v))
        else:
            self._set_force("FInt", f, jacobian_q, jacobian_v)

    def setComputeFGyrFunction(self, f, jacobian_q=None, jacobian_v=None, function=None, params=None) -> None:
        """Gyroscopic forces F_gyr(q, v), as :meth:`setComputeFIntFunction`."""
        if isinstance(f, str):
            self._forces["FGyr"] = ("plugin", _Plugin(f, function, params, jacobian_q=jacobian_q, jacobian_v=jacobian_v))
        else:
            self._set_force("FGyr", f, jacobian_q, jacobian_v)

    def _element(self, parent, host):
        el = ET.SubElement(parent, self._kind, name=self.name)
        _vec_el(el, "q0", self.q0)
        _vec_el(el, "v0", self.v0)
        _mat_el(el, "Mass", self.M)
        for which in ("FInt", "FGyr"):
            spec = self._forces.get(which)
            if spec is None:
                continue
            if spec[0] == "plugin":
                ET.SubElement(el, which, spec[1].attrs())
            else:
                key = f"{self.name}.{which}"
                host.pair_vec[key] = spec[1]
                host.pair_mat[key + ".jacobian_q"] = spec[2]
                host.pair_mat[key + ".jacobian_v"] = spec[3]
                ET.SubElement(
                    el, which, library=HOST, function=key, jacobian_q=key + ".jacobian_q", jacobian_v=key + ".jacobian_v"
                )
        _time_function(el, "FExt", self._fext, host, f"{self.name}.FExt")
        return el


class _FirstOrder(DynamicalSystem):
    def __init__(self, x0: ArrayLike, A, name: Optional[str] = None):
        super().__init__(name)
        self.x0 = _vec(x0, "x0")
        self.A = _mat(A, "A")
        self.M = None
        self._b = None

    def _initial(self):
        return self.x0

    def setMPtr(self, M) -> None:
        """Mass matrix M of ``M ẋ = A x + b + r``."""
        self.M = _mat(M, "Mass")

    def x(self) -> np.ndarray:
        """State (the current one once a simulation is built, else x0)."""
        core = self._attached()
        return self.x0.copy() if core is None else core.state(self._index)

    def _element(self, parent, host):
        el = ET.SubElement(parent, self._kind, name=self.name)
        _vec_el(el, "x0", self.x0)
        if self.M is not None:
            _mat_el(el, "Mass", self.M)
        _mat_el(el, "A", self.A)
        _time_function(el, "b", self._b, host, f"{self.name}.b")
        return el


class FirstOrderLinearTIDS(_FirstOrder):
    """``M ẋ = A x + b + r`` with constant ``A``, ``b`` (Siconos ``FirstOrderLinearTIDS(x0, A)``)."""

    _kind = "FirstOrderLinearTIDS"

    def setbPtr(self, b) -> None:
        """Constant vector b."""
        self._b = _vec(b, "b")


class FirstOrderLinearDS(_FirstOrder):
    """``M ẋ = A x + b(t) + r``; ``b`` constant, a Python callable ``b(t)`` (slow) or a plugin."""

    _kind = "FirstOrderLinearDS"

    def setbPtr(self, b) -> None:
        """b: a constant vector or a Python callable ``b(t) -> array``."""
        self._b = b if callable(b) else _vec(b, "b")

    def setComputebFunction(self, library: str, function: str, params: Optional[Sequence[float]] = None) -> None:
        """b(t) from a plugin library."""
        self._b = _Plugin(library, function, params)


# ---------------------------------------------------------------------------------------------
# Relations and nonsmooth laws
# ---------------------------------------------------------------------------------------------


class Relation:
    """Base class of the relations."""

    _kind = "Relation"


class LagrangianLinearTIR(Relation):
    """``y = H q + b``, ``p = Hᵀ λ`` (Siconos ``LagrangianLinearTIR(H[, b])``)."""

    _kind = "LagrangianLinearTIR"

    def __init__(self, H, b: Optional[ArrayLike] = None):
        self.H = _mat(H, "H")
        self.b = None if b is None else _vec(b, "b")

    def _element(self, parent, host, name):
        el = ET.SubElement(parent, self._kind)
        _mat_el(el, "H", self.H)
        if self.b is not None:
            _vec_el(el, "b", self.b)
        return el


class _LagrangianNonLinearR(Relation):
    def __init__(self, h, jacobian_q, dot_h=None, params=None):
        self.plugin = isinstance(h, str)
        if self.plugin:
            # plugin: h is the library, the symbols are given by keyword
            raise TypeError("use the .plugin(library, h=SYM, jacobian_q=SYM) constructor for a plugin relation")
        funcs = (h, jacobian_q) + (() if dot_h is None else (dot_h,))
        if not all(callable(f) for f in funcs):
            raise TypeError(f"{self._kind}: give Python callables (or use {self._kind}.plugin(library, ...))")
        self.h, self.jacobian_q, self.dot_h = h, jacobian_q, dot_h
        self.library = None
        self.params = params

    @classmethod
    def plugin(cls, library: str, h: str, jacobian_q: str, dot_h: Optional[str] = None, params=None):
        """The relation from plugin symbols (fast): ``library``, ``h``, ``jacobian_q`` (``dot_h``)."""
        self = cls.__new__(cls)
        self.plugin, self.library = True, str(library)
        self.h, self.jacobian_q, self.dot_h = str(h), str(jacobian_q), None if dot_h is None else str(dot_h)
        self.params = None if params is None else [float(p) for p in params]
        return self

    def _wrap(self, f):
        return f

    def _element(self, parent, host, name):
        if self.plugin:
            attrs = {"library": self.library, "h": self.h, "jacobian_q": self.jacobian_q}
            if self.dot_h is not None:
                attrs["dot_h"] = self.dot_h
            if self.params is not None:
                attrs["params"] = " ".join(_num(p) for p in self.params)
            return ET.SubElement(parent, self._kind, attrs)
        key = f"{name}.h"
        host.state_vec[key] = self._wrap(self.h)
        host.state_mat[key + ".jacobian_q"] = self._wrap(self.jacobian_q)
        attrs = {"library": HOST, "h": key, "jacobian_q": key + ".jacobian_q"}
        if self.dot_h is not None:
            host.state_vec[key + ".dot"] = self._wrap(self.dot_h)
            attrs["dot_h"] = key + ".dot"
        return ET.SubElement(parent, self._kind, attrs)


class LagrangianScleronomousR(_LagrangianNonLinearR):
    """``y = h(q)``, ``p = ∇h(q)ᵀ λ``: ``h(q) -> array`` and ``jacobian_q(q) -> matrix`` as
    Python callables (slow), or ``LagrangianScleronomousR.plugin(library, h, jacobian_q)``."""

    _kind = "LagrangianScleronomousR"

    def __init__(self, h, jacobian_q, params=None):
        super().__init__(h, jacobian_q, None, params)

    def _wrap(self, f):
        return lambda t, q: f(q)


class LagrangianRheonomousR(_LagrangianNonLinearR):
    """``y = h(t, q)`` with ``jacobian_q(t, q)`` and ``dot_h(t, q) = ∂h/∂t`` (Python callables or
    ``LagrangianRheonomousR.plugin(library, h, jacobian_q, dot_h)``)."""

    _kind = "LagrangianRheonomousR"

    def __init__(self, h, jacobian_q, dot_h, params=None):
        if dot_h is None:
            raise TypeError("LagrangianRheonomousR needs dot_h(t, q)")
        super().__init__(h, jacobian_q, dot_h, params)


class FirstOrderLinearTIR(Relation):
    """``y = C x + D λ + F z + e``, ``r = B λ`` (Siconos ``FirstOrderLinearTIR(C, B)``;
    ``setDPtr``, ``setFPtr``, ``setePtr``)."""

    _kind = "FirstOrderLinearTIR"

    def __init__(self, C, B):
        self.C = _mat(C, "C")
        self.B = _mat(B, "B")
        self.D = None
        self.F = None
        self.e = None

    def setDPtr(self, D) -> None:
        """Feed-through matrix D."""
        self.D = _mat(D, "D")

    def setFPtr(self, F) -> None:
        """Matrix F (of the parameters z)."""
        self.F = _mat(F, "F")

    def setePtr(self, e) -> None:
        """Constant vector e."""
        self.e = _vec(e, "e")

    setEPtr = setePtr

    def _element(self, parent, host, name):
        el = ET.SubElement(parent, self._kind)
        _mat_el(el, "C", self.C)
        if self.D is not None:
            _mat_el(el, "D", self.D)
        if self.F is not None:
            _mat_el(el, "F", self.F)
        if self.e is not None:
            _vec_el(el, "e", self.e)
        _mat_el(el, "B", self.B)
        return el


class NonSmoothLaw:
    """Base class of the nonsmooth laws."""

    _kind = "NonSmoothLaw"

    def _element(self, parent):
        return ET.SubElement(parent, self._kind, self._attrs())

    def _attrs(self) -> Dict[str, str]:
        return {}


class NewtonImpactNSL(NonSmoothLaw):
    """Unilateral contact with Newton's impact law, restitution ``e``
    (``ẏ⁺ = -e ẏ⁻`` at impacts)."""

    _kind = "NewtonImpactNSL"

    def __init__(self, e: float, size: int = 1):
        self.e = float(e)

    def _attrs(self):
        return {"e": _num(self.e)}


class NewtonImpactFrictionNSL(NonSmoothLaw):
    """Contact with Coulomb friction ``mu`` and normal/tangential restitutions ``en``, ``et``;
    ``dim`` 2 or 3 (Siconos ``NewtonImpactFrictionNSL(en, et, mu, dim)``)."""

    _kind = "NewtonImpactFrictionNSL"

    def __init__(self, en: float, et: float, mu: float, dim: int):
        self.en, self.et, self.mu, self.dim = float(en), float(et), float(mu), int(dim)

    def _attrs(self):
        return {"en": _num(self.en), "et": _num(self.et), "mu": _num(self.mu), "dim": str(self.dim)}


class ComplementarityConditionNSL(NonSmoothLaw):
    """``0 <= y ⟂ λ >= 0`` of size ``size``."""

    _kind = "ComplementarityConditionNSL"

    def __init__(self, size: int):
        self.size = int(size)

    def _attrs(self):
        return {"size": str(self.size)}


class EqualityConditionNSL(ComplementarityConditionNSL):
    """``y = 0`` (bilateral constraint) of size ``size``."""

    _kind = "EqualityConditionNSL"


class MixedComplementarityConditionNSL(NonSmoothLaw):
    """``n_eq`` equalities then ``n_comp`` complementarity conditions."""

    _kind = "MixedComplementarityConditionNSL"

    def __init__(self, n_eq: int, n_comp: int):
        self.n_eq, self.n_comp = int(n_eq), int(n_comp)

    def _attrs(self):
        return {"n_eq": str(self.n_eq), "n_comp": str(self.n_comp)}


class RelayNSL(NonSmoothLaw):
    """Relay ``-y ∈ N_[lb, ub](λ)`` of size ``size`` (Siconos ``RelayNSL(size, lb=-1, ub=1)``);
    ``lb``/``ub`` scalars or vectors."""

    _kind = "RelayNSL"

    def __init__(self, size: int, lb: ArrayLike = -1.0, ub: ArrayLike = 1.0):
        self.size = int(size)
        self.lb = np.broadcast_to(_vec(lb, "lb"), (self.size,)).copy()
        self.ub = np.broadcast_to(_vec(ub, "ub"), (self.size,)).copy()

    def _element(self, parent):
        el = ET.SubElement(parent, self._kind)
        _vec_el(el, "lb", self.lb)
        _vec_el(el, "ub", self.ub)
        return el


# ---------------------------------------------------------------------------------------------
# Interactions and the NSDS
# ---------------------------------------------------------------------------------------------


class Interaction:
    """A nonsmooth law and a relation between one or two systems (Siconos
    ``Interaction(nslaw, relation)``, then ``nsds.link(inter, ds1[, ds2])``)."""

    def __init__(self, nsl: NonSmoothLaw, relation: Relation, name: Optional[str] = None):
        if not isinstance(nsl, NonSmoothLaw):
            raise TypeError(f"Interaction(nsl, relation): nsl must be a nonsmooth law, got {type(nsl).__name__}")
        if not isinstance(relation, Relation):
            raise TypeError(f"Interaction(nsl, relation): relation must be a relation, got {type(relation).__name__}")
        self.nsl, self.relation, self.name = nsl, relation, name
        self.ds: List[DynamicalSystem] = []
        self._sim = None
        self._core = None  # the compiled simulation, once built
        self._index: Optional[int] = None

    def setName(self, name: str) -> None:
        self.name = str(name)

    def y(self, level: int = 0) -> Optional[np.ndarray]:
        """Output y at ``level`` (0: the gap for a Lagrangian relation; 1: its velocity)."""
        core = self._core
        return None if core is None else core.y(self._index, level)

    def lambda_(self, level: int = 1) -> Optional[np.ndarray]:
        """Multiplier λ at ``level`` (Moreau–Jean: the impulse at level 1)."""
        core = self._core
        return None if core is None else core.lambda_(self._index, level)

    def _element(self, parent, host):
        el = ET.SubElement(parent, "Interaction", name=self.name, ds=" ".join(d.name for d in self.ds))
        rel = ET.SubElement(el, "Relation")
        self.relation._element(rel, host, self.name)
        law = ET.SubElement(el, "NonSmoothLaw")
        self.nsl._element(law)
        return el


class NonSmoothDynamicalSystem:
    """The model: systems and interactions over ``[t0, T]`` (Siconos
    ``NonSmoothDynamicalSystem(t0, T)``)."""

    def __init__(self, t0: float, T: float, title: Optional[str] = None):
        self.t0, self.T, self.title = float(t0), float(T), title
        self.systems: List[DynamicalSystem] = []
        self.interactions: List[Interaction] = []

    def insertDynamicalSystem(self, ds: DynamicalSystem) -> None:
        """Adds a system (named ``ds<i>`` if it has no name)."""
        if not isinstance(ds, DynamicalSystem):
            raise TypeError(f"insert_dynamical_system: expected a dynamical system, got {type(ds).__name__}")
        if any(d is ds for d in self.systems):
            raise ValueError("this dynamical system is already in the model")
        if ds.name is None:
            ds.name = f"ds{len(self.systems)}"
        self.systems.append(ds)

    insert_dynamical_system = insertDynamicalSystem

    def link(self, inter: Interaction, ds1: DynamicalSystem, ds2: Optional[DynamicalSystem] = None) -> None:
        """Links ``inter`` to one or two systems (inserted here if they are not yet)."""
        for d in (ds1, ds2):
            if d is not None and not any(x is d for x in self.systems):
                self.insertDynamicalSystem(d)
        inter.ds = [ds1] if ds2 is None else [ds1, ds2]
        if inter.name is None:
            inter.name = f"inter{len(self.interactions)}"
        self.interactions.append(inter)

    def dynamicalSystem(self, name: str) -> DynamicalSystem:
        """The system called ``name``."""
        for d in self.systems:
            if d.name == name:
                return d
        raise KeyError(f"no dynamical system `{name}` (known: {', '.join(d.name for d in self.systems)})")

    def _element(self, root: ET.Element, host: _Host) -> None:
        ET.SubElement(root, "Time", t0=_num(self.t0), T=_num(self.T))
        nsds = ET.SubElement(root, "NSDS")
        for d in self.systems:
            d._element(nsds, host)
        for i in self.interactions:
            i._element(nsds, host)
