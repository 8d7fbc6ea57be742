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

import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._xml import HOST, ArrayLike, _Funcs, _Host, _mat, _mat_el, _num, _Plugin, _siconos_plugin, _vec  # noqa: F401
from ._xml import _vec_el
from .relations import *  # noqa: F401,F403 (the relations and laws, re-exported)
from .relations import NonSmoothLaw, Relation


# ---------------------------------------------------------------------------------------------
# Dynamical systems
# ---------------------------------------------------------------------------------------------


class DynamicalSystem:
    """Base class of the dynamical systems. ``name`` names the CSV columns (``NAME.q[0]``);
    systems without one are called ``ds0``, ``ds1``, ... in insertion order."""

    _kind = "DynamicalSystem"

    def __init__(self, name: Optional[str] = None):
        self.name = name
        self._attach(None, None, None)

    def _attach(self, sim, core, index: Optional[int]) -> None:
        """Binds the system to a built simulation (forgets the views of an earlier one)."""
        self._sim, self._core, self._index = sim, core, index
        self._views: Dict[str, Optional[np.ndarray]] = {}

    def _view(self, what: str, initial: np.ndarray) -> Optional[np.ndarray]:
        """The live view ``what`` (``"q"`` or ``"v"``) of the built simulation, else a copy of
        ``initial``."""
        core = self._core
        if core is None:
            return initial.copy()
        v = self._views[what] = core.view(what, self._index)
        return v

    def setName(self, name: str) -> None:
        """Sets the name used in column names and in the model file."""
        self.name = str(name)

    set_name = setName

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
        """Positions: once a simulation is built, a read-only view of the current ones, updated
        in place after every step (as Siconos returns a view; ``.copy()`` keeps a value); before,
        a copy of q0."""
        try:
            return self._views["q"]
        except KeyError:
            return self._view("q", self.q0)

    def velocity(self) -> np.ndarray:
        """Velocities: a read-only view of the current ones once a simulation is built (see
        ``q``), else a copy of v0."""
        try:
            return self._views["v"]
        except KeyError:
            return self._view("v", self.v0)


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


class NewtonEulerDS(_Lagrangian):
    """A rigid body (Siconos ``NewtonEulerDS(q0, twist, mass, inertia)``): ``q0 = (x, y, z, qw, qx,
    qy, qz)``, ``v0 = (v, Ω)`` with ``v`` in the world frame and ``Ω`` in the body frame, so ``q``
    has 7 values and ``velocity()`` 6. ``setFExtPtr`` takes 6 values: the force (world frame),
    then the torque (body frame). ``MoreauJeanOSI`` integrates it in the rigid-body family's
    momentum form (the code of ``saltus.mechanics`` bodies); a relation gives ``h(q)`` and its
    Jacobian over the 7 coordinates, the kernel forms ``∇_q h N(q)`` over the 6 velocities."""

    _kind = "NewtonEulerDS"

    def __init__(self, q0: ArrayLike, v0: ArrayLike, mass: float, inertia, name: Optional[str] = None):
        DynamicalSystem.__init__(self, name)
        self.q0 = _vec(q0, "q0")
        self.v0 = _vec(v0, "v0")
        if (self.q0.size, self.v0.size) != (7, 6):
            raise ValueError(f"NewtonEulerDS: q0 has 7 values and v0 6, got {self.q0.size} and {self.v0.size}")
        self.mass = float(mass)
        self.inertia = _mat(inertia, "Inertia")
        self._fext = None

    def dimension(self) -> int:
        """Degrees of freedom: 6 (the velocity's size; ``q`` has 7 coordinates)."""
        return 6

    def _element(self, parent, host):
        el = ET.SubElement(parent, self._kind, name=self.name, mass=_num(self.mass))
        _vec_el(el, "q0", self.q0)
        _vec_el(el, "v0", self.v0)
        _mat_el(el, "Inertia", self.inertia)
        _time_function(el, "FExt", self._fext, host, f"{self.name}.FExt")
        return el


class LagrangianDS(_Lagrangian):
    """``M(q) v̇ + F_gyr(q, v) + F_int(t, q, v) = F_ext(t) + p`` (Siconos ``LagrangianDS``).
    ``M``: a constant matrix, a Python callable ``M(q) -> matrix`` (slow) or a Siconos plugin
    string ``"library:function"`` (fast; also ``setComputeMassFunction``). Forces with their
    Jacobians are Python callables ``f(t, q, v)`` (slow) or plugin symbols (fast)."""

    _kind = "LagrangianDS"

    def __init__(self, q0: ArrayLike, v0: ArrayLike, M, name: Optional[str] = None):
        super().__init__(q0, v0, name)
        self.M = None
        self._mass = None  # a callable M(q) or a _Plugin
        if callable(M) or isinstance(M, str):
            self.setComputeMassFunction(M)
        else:
            self.M = _mat(M, "Mass")
        self._forces: Dict[str, Tuple] = {}

    def setComputeMassFunction(self, M, function: Optional[str] = None, params=None) -> None:
        """The mass matrix as a function of the positions: a Python callable ``M(q) -> n×n
        matrix`` (slow: one Python call per evaluation), or a plugin (fast):
        ``setComputeMassFunction(library, function)`` or ``("library:function")``, a
        ``VectorFieldFn`` called with ``(t, q)`` writing ``M`` column-major. ``M(q)`` must be
        symmetric positive definite (checked at ``q0``)."""
        if callable(M):
            if function is not None:
                raise TypeError("setComputeMassFunction: a Python callable, or (library, function), not both")
            self._mass = M
        elif isinstance(M, str):
            library, function = (M, function) if function is not None else _siconos_plugin(M, "Mass")
            self._mass = _Plugin(library, function, params)
        else:
            raise TypeError(f"setComputeMassFunction: expected a callable or a plugin, got {type(M).__name__}")
        self.M = None

    def setMassPtr(self, M) -> None:
        """A constant mass matrix."""
        self.M, self._mass = _mat(M, "Mass"), None

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
        if self.M is not None:
            _mat_el(el, "Mass", self.M)
        elif isinstance(self._mass, _Plugin):
            ET.SubElement(el, "Mass", self._mass.attrs())
        else:
            key = f"{self.name}.Mass"
            mass = self._mass
            host.state_mat[key] = lambda t, q: mass(q)
            ET.SubElement(el, "Mass", library=HOST, function=key)
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
        """State: once a simulation is built, a read-only view of the current one, updated in
        place after every step (``.copy()`` keeps a value); before, a copy of x0."""
        try:
            return self._views["x"]
        except KeyError:
            return self._view("x", self.x0)

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
    _A_fn = None  # A(t): a callable or a _Plugin, else the constant A

    def setbPtr(self, b) -> None:
        """b: a constant vector or a Python callable ``b(t) -> array``."""
        self._b = b if callable(b) else _vec(b, "b")

    def setComputebFunction(self, library: str, function: str, params: Optional[Sequence[float]] = None) -> None:
        """b(t) from a plugin library."""
        self._b = _Plugin(library, function, params)

    def setComputeAFunction(self, A, function: Optional[str] = None, params: Optional[Sequence[float]] = None):
        """``A(t)``: a Python callable ``A(t) -> n×n matrix`` (slow), or a plugin (fast):
        ``setComputeAFunction(library, function)`` or ``("library:function")``, a ``TimeFn``
        writing ``A`` column-major. The constant ``A`` given to the constructor is replaced."""
        if callable(A):
            self._A_fn = A
        else:
            library, function = (A, function) if function is not None else _siconos_plugin(A, "A")
            self._A_fn = _Plugin(library, function, params)

    def _element(self, parent, host):
        el = super()._element(parent, host)
        fn = self._A_fn
        if fn is not None:
            a = el.find("A")
            a.text = None
            a.attrib.clear()
            n = self.x0.size
            a.attrib.update(rows=str(n), cols=str(n))
            if isinstance(fn, _Plugin):
                a.attrib.update(fn.attrs())
            else:
                key = f"{self.name}.A"
                host.time_mat[key] = fn
                a.attrib.update(library=HOST, function=key)
        return el


class FirstOrderNonLinearDS(DynamicalSystem):
    """``M ẋ = f(t, x) + r`` (Siconos ``FirstOrderNonLinearDS(x0, f, jacobianfx)``).

    ``f(t, x) -> array`` and its Jacobian ``jacobianfx(t, x) -> n×n matrix`` are Python
    callables (slow: one Python call per evaluation, several per Newton iteration) or plugins
    (fast): Siconos strings ``"library:function"``, or ``setComputeFFunction(library,
    function)`` and ``setComputeJacobianfxFunction(library, function)`` (``VectorFieldFn``
    symbols of one library). ``M`` (``setMPtr``) is constant, the identity by default; ``z``
    (``setzPtr``) is read by the relations (``h(x, z)`` of ``FirstOrderType1R``). The
    integrator is ``EulerMoreauOSI`` with its Newton loop (``setNewtonTolerance``)."""

    _kind = "FirstOrderNonLinearDS"

    def __init__(self, x0: ArrayLike, f=None, jacobianfx=None, name: Optional[str] = None):
        super().__init__(name)
        self.x0 = _vec(x0, "x0")
        self.M = None
        self.z = None
        self._fns = _Funcs("FirstOrderNonLinearDS", {"f": "function", "jacobianfx": "jacobian"})
        self._fns.set("f", f)
        self._fns.set("jacobianfx", jacobianfx)

    def _initial(self):
        return self.x0

    def setComputeFFunction(self, f, function: Optional[str] = None, params: Optional[Sequence[float]] = None):
        """``f(t, x)``: a Python callable, ``(library, function)`` or ``"library:function"``;
        ``params`` are passed to the plugin."""
        self._fns.set("f", f, function, params)

    def setComputeJacobianfxFunction(self, jacobianfx, function: Optional[str] = None, params=None):
        """``∇ₓf(t, x)`` (n×n): a Python callable, ``(library, function)`` or ``"library:function"``."""
        self._fns.set("jacobianfx", jacobianfx, function, params)

    def setMPtr(self, M) -> None:
        """Constant mass matrix ``M`` of ``M ẋ = f(t, x) + r`` (symmetric positive semidefinite)."""
        self.M = _mat(M, "Mass")

    def setzPtr(self, z: ArrayLike) -> None:
        """Parameters ``z`` (read by ``h(x, z)``, ``g(λ, z)`` of ``FirstOrderType1R``)."""
        self.z = _vec(z, "z")

    def x(self) -> np.ndarray:
        """State: once a simulation is built, a read-only view of the current one, updated in
        place after every step (``.copy()`` keeps a value); before, a copy of x0."""
        try:
            return self._views["x"]
        except KeyError:
            return self._view("x", self.x0)

    def _element(self, parent, host):
        el = ET.SubElement(parent, self._kind, name=self.name)
        _vec_el(el, "x0", self.x0)
        if self.M is not None:
            _mat_el(el, "Mass", self.M)
        tables = {"f": host.state_vec, "jacobianfx": host.state_mat}
        attrs = self._fns.attrs(tables.__getitem__, self.name, lambda slot, f: f)
        ET.SubElement(el, "F", attrs)
        if self.z is not None:
            _vec_el(el, "z", self.z)
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
        self._attach(None, None, None)

    def _attach(self, sim, core, index: Optional[int]) -> None:
        """Binds the interaction to a built simulation (forgets the views of an earlier one)."""
        self._sim, self._core, self._index = sim, core, index
        self._y: Dict[int, Optional[np.ndarray]] = {}
        self._lambda: Dict[int, Optional[np.ndarray]] = {}

    def _view(self, what: str, cache: Dict[int, Optional[np.ndarray]], level: int) -> Optional[np.ndarray]:
        core = self._core
        if core is None:
            return None
        v = cache[level] = core.view(what, self._index, level)
        return v

    def setName(self, name: str) -> None:
        self.name = str(name)

    def y(self, level: int = 0) -> Optional[np.ndarray]:
        """Output y at ``level`` (0: the gap for a Lagrangian relation; 1: its velocity): a
        read-only view updated in place after every step (``.copy()`` keeps a value); ``None``
        before the simulation is built or where the kernel does not compute that level."""
        try:
            return self._y[level]
        except KeyError:
            return self._view("y", self._y, level)

    def lambda_(self, level: int = 1) -> Optional[np.ndarray]:
        """Multiplier λ at ``level`` (Moreau–Jean: the impulse at level 1): a read-only view
        updated in place after every step, as ``y``."""
        try:
            return self._lambda[level]
        except KeyError:
            return self._view("lambda", self._lambda, level)

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
