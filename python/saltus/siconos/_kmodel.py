"""``siconos.kernel`` model classes on Saltus: dynamical systems, relations, interactions and
the NSDS with Siconos 4.4's constructors and live accessors (see ``_live``)."""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from .. import model as _m
from .. import relations as _r
from .._xml import _siconos_plugin
from ._krelation import _CPluginOutput
from ._live import core_view, live
from ._unsupported import raise_unsupported

_PLUGIN_WHY = (
    "a Siconos C plugin is compiled against Siconos's own API; give a Python callable instead, "
    "or port the function to a Saltus plugin (plugins/abi) and use saltus directly"
)


def _no_plugin(what: str, f) -> None:
    if isinstance(f, str):
        raise_unsupported(f"{what} with a Siconos plugin ({f!r})", _PLUGIN_WHY)


# ---------------------------------------------------------------------------------------------
# dynamical systems
# ---------------------------------------------------------------------------------------------


class _LiveDS:
    """Live ``q``/``velocity``/``x``/``p``/``r`` of a compatibility-layer system, and its constant
    input (``b`` of a linear first-order system, ``F_ext`` of a Lagrangian one) rewritten between
    steps: the kernel holds the difference from the built model's value as its input term."""

    #: the attribute holding the constant input (``"_b"`` or ``"_fext"``)
    _input_attr = "_b"

    def setzPtr(self, z) -> None:
        """Siconos's parameter vector ``z`` of a system (read by its plugins, ``_cplugin``, and
        by the relations that take it)."""
        own = getattr(super(), "setzPtr", None)
        if own is not None:
            own(z)
        else:
            self.z = np.array(z, dtype=np.float64).ravel()

    def _attach(self, sim, core, index) -> None:
        super()._attach(sim, core, index)
        # the built model's input (the construction attaches to no simulation)
        self._input_base = None if core is None else self._input_value()

    def _input_value(self) -> Optional[np.ndarray]:
        """The constant input (zero when absent); ``None`` for a function of time."""
        v = getattr(self, self._input_attr, None)
        if v is None:
            return np.zeros(self._input_size())
        if callable(v) or not isinstance(v, np.ndarray):
            return None
        return np.array(v, dtype=np.float64)

    def _input_size(self) -> int:
        return self.x0.size

    def _set_input(self, what: str, value) -> None:
        """A new constant input after the build: the kernel holds ``value − base`` from the next
        step on (Siconos scripts that write ``b`` or ``F_ext`` between steps)."""
        base = getattr(self, "_input_base", None)
        if base is None:
            raise_unsupported(f"{what} between steps of a system whose input is a function of time")
        v = np.asarray(value, dtype=np.float64).ravel()
        if v.shape != base.shape:
            raise ValueError(f"{what}: {v.size} values for a system of dimension {base.size}")
        self._core.set_control_input(self._index, v - base)

    def _flush_inputs(self) -> None:
        """Pushes a live ``b()`` written since the last step."""
        lv = live(self)
        key = ("b", 0)
        a = lv.bufs.get(key)
        if a is not None and getattr(self, "_core", None) is not None and lv.last.get(key) != a.tobytes():
            self._set_input("writing b()", a)
            lv.last[key] = a.tobytes()

    def _state_key(self) -> str:
        return "x"

    def _live_state(self, what: str, init) -> np.ndarray:
        lv = live(self)
        key = (what, 0)
        fresh = key not in lv.bufs
        a = lv.get(key, init)
        if fresh:
            v = core_view(self, what)
            if v is not None:
                lv.set(key, np.asarray(v, dtype=np.float64))
        return a

    def _push_initial(self) -> None:
        """Before the build: writes into the live vectors set the initial condition (and b)."""
        lv = live(self)
        for (what, _), a in lv.bufs.items():
            attr = {"q": "q0", "v": "v0", "x": "x0", "b": "_b"}.get(what)
            if attr is not None:
                setattr(self, attr, a.copy())

    def _sync(self, sim) -> None:
        for key in list(live(self).bufs):
            self._sync_one(sim, key)

    def _sync_one(self, sim, key) -> None:
        lv = live(self)
        what, level = key
        if what in ("q", "v", "x"):
            lv.set(key, np.asarray(core_view(self, what), dtype=np.float64))
        elif what == "b":
            lv.set(key, np.asarray(self._b, dtype=np.float64))
        else:
            lv.set(key, sim._input(self, what, level))

    def dimension(self) -> int:
        return len(self._initial())

    def display(self) -> None:
        """Prints the system (Siconos prints its vectors)."""
        print(f"{type(self).__name__} {self.name or ''}: state {np.asarray(self._initial())}")

    def getN(self) -> int:
        return self.dimension()

    def n(self) -> int:
        return self.dimension()


def _lagrangian_init(self, q0, v0):
    if v0 is None:
        v0 = np.zeros_like(np.asarray(q0, dtype=float))
    return q0, v0


class _LagrangianLive(_LiveDS):
    def q(self) -> np.ndarray:
        """Positions (live: follows the simulation, as a Siconos vector view)."""
        return self._live_state("q", self.q0)

    def velocity(self) -> np.ndarray:
        """Velocities (live)."""
        return self._live_state("v", self.v0)

    def p(self, level: int = 1) -> np.ndarray:
        """The input of the interactions at ``level`` (``p(1)``: the Moreau–Jean impulse
        ``Σ Jᵀ λ(1)``), live."""
        lv = live(self)
        key = ("p", int(level))
        fresh = key not in lv.bufs
        a = lv.get(key, np.zeros(self.q0.size))
        sim = getattr(self, "_sim", None)
        if fresh and sim is not None:
            lv.set(key, sim._input(self, "p", int(level)))
        return a

    _input_attr = "_fext"

    def _input_size(self) -> int:
        return self.q0.size

    def setFExtPtr(self, f) -> None:
        _no_plugin("LagrangianDS.setFExtPtr", f)
        if getattr(self, "_core", None) is not None:
            if callable(f):
                raise_unsupported("LagrangianDS.setFExtPtr(a function) after the simulation was built")
            self._set_input("setFExtPtr", f)
        super().setFExtPtr(f)

    def setComputeFExtFunction(self, library, function=None, params=None) -> None:
        """``FExt(t)``: a Python callable, or a Siconos C plugin ``(library, function)`` with
        Siconos's signature (``_cplugin``)."""
        if callable(library):
            super().setFExtPtr(library)
            return
        from ._cplugin import vector_of_t

        super().setFExtPtr(vector_of_t(self, str(library), str(function), self._input_size()))


class LagrangianLinearTIDS(_LagrangianLive, _m.LagrangianLinearTIDS):
    """Siconos ``LagrangianLinearTIDS(q0, v0, M[, K, C])``."""

    def __init__(self, q0, v0, M, K=None, C=None):
        super().__init__(q0, v0, M, K, C)


class LagrangianLinearDiagonalDS(LagrangianLinearTIDS):
    """Siconos ``LagrangianLinearDiagonalDS(q0, v0, stiffness, damping[, mass])``: a linear
    Lagrangian system with diagonal matrices given by their diagonals (``M q̈ + C q̇ + K q = F``,
    ``K = diag(stiffness)``, ``C = diag(damping)``, ``M = diag(mass)``, default ``I``; modal
    models: ``stiffness = ω²``, ``damping = 2σ`` per mode), for ``MoreauJeanBilbaoOSI`` (or any
    Moreau–Jean integrator)."""

    def __init__(self, q0, v0, stiffness, damping=None, mass=None):
        n = np.asarray(q0, dtype=float).size
        diag = lambda d: np.diag(np.asarray(d, dtype=float).ravel())  # noqa: E731
        self._diagonals = (np.asarray(stiffness, dtype=float).ravel(),
                           None if damping is None else np.asarray(damping, dtype=float).ravel(),
                           np.ones(n) if mass is None else np.asarray(mass, dtype=float).ravel())
        super().__init__(q0, v0, diag(self._diagonals[2]), diag(stiffness),
                         None if damping is None else diag(damping))

    def stiffness(self) -> np.ndarray:
        """The diagonal of K."""
        return self._diagonals[0]

    def damping(self):
        """The diagonal of C (``None`` without damping)."""
        return self._diagonals[1]


class LagrangianDS(_LagrangianLive, _m.LagrangianDS):
    """Siconos ``LagrangianDS(q0, v0[, M])``: ``M`` a matrix, or a Siconos C plugin
    ``"library:function"`` (``M(q)``); a Python callable mass with ``setComputeMassFunction``.
    Siconos C plugins (``_cplugin``: Siconos's signatures, through ``ctypes``) for the mass,
    ``FInt`` and ``FGyr`` and their Jacobians, each set by its own ``setCompute...Function(library,
    function)`` as in Siconos (a Jacobian not set is zero, as Siconos leaves it)."""

    def __init__(self, q0, v0=None, M=None):
        q0, v0 = _lagrangian_init(self, q0, v0)
        n = len(np.ravel(q0))
        plugin = M if isinstance(M, str) else None
        super().__init__(q0, v0, np.eye(n) if M is None or plugin is not None else M)
        self._c_forces = {}
        if plugin is not None:
            self.setComputeMassFunction(*_siconos_plugin(plugin, "LagrangianDS(q0, v0, M)"))

    def setComputeMassFunction(self, M, function=None, params=None) -> None:
        if isinstance(M, str):
            from ._cplugin import library_function, mass_of_q

            library, function = library_function(M, function, "Mass")
            super().setComputeMassFunction(mass_of_q(self, library, function, self.q0.size))
            return
        super().setComputeMassFunction(M, function, params)

    def _c_force(self, which: str, part: str, library, function) -> None:
        """Records a C plugin of ``which`` (``FInt``, ``FGyr``) for ``part`` (the force, or a
        Jacobian ``q``/``v``) and installs the three callables, zero for a Jacobian not given."""
        from ._cplugin import force_of_tqv, library_function

        library, function = library_function(library, function, which)
        n, time = self.q0.size, which == "FInt"
        parts = self._c_forces.setdefault(which, {})
        parts[part] = force_of_tqv(self, library, function, n, part != "f", time)
        zero = lambda t, q, v: np.zeros((n, n))  # noqa: E731
        if "f" in parts:
            self._set_force(which, parts["f"], parts.get("q", zero), parts.get("v", zero))

    def setComputeFIntFunction(self, f, jacobian_q=None, jacobian_v=None, function=None, params=None) -> None:
        if isinstance(f, str) and jacobian_v is None and (jacobian_q is None or isinstance(jacobian_q, str)):
            # Siconos's setComputeFIntFunction(pluginPath, functionName), or ("library:function")
            self._c_force("FInt", "f", f, function if jacobian_q is None else jacobian_q)
            return
        _no_plugin("LagrangianDS.setComputeFIntFunction", f)
        super().setComputeFIntFunction(f, jacobian_q, jacobian_v, function, params)

    def setComputeJacobianFIntqFunction(self, library, function=None) -> None:
        """``∂F_int/∂q`` from a Siconos C plugin (``FPtr6``, column-major)."""
        self._c_force("FInt", "q", library, function)

    def setComputeJacobianFIntqDotFunction(self, library, function=None) -> None:
        """``∂F_int/∂v`` from a Siconos C plugin (``FPtr6``, column-major)."""
        self._c_force("FInt", "v", library, function)

    def setComputeFGyrFunction(self, f, jacobian_q=None, jacobian_v=None, function=None, params=None) -> None:
        if isinstance(f, str) and jacobian_v is None and (jacobian_q is None or isinstance(jacobian_q, str)):
            # Siconos's setComputeFGyrFunction(pluginPath, functionName), or ("library:function")
            self._c_force("FGyr", "f", f, function if jacobian_q is None else jacobian_q)
            return
        _no_plugin("LagrangianDS.setComputeFGyrFunction", f)
        super().setComputeFGyrFunction(f, jacobian_q, jacobian_v, function, params)

    def setComputeJacobianFGyrqFunction(self, library, function=None) -> None:
        """``∂F_gyr/∂q`` from a Siconos C plugin (``FPtr5``, column-major)."""
        self._c_force("FGyr", "q", library, function)

    def setComputeJacobianFGyrqDotFunction(self, library, function=None) -> None:
        """``∂F_gyr/∂v`` from a Siconos C plugin (``FPtr5``, column-major)."""
        self._c_force("FGyr", "v", library, function)


class _FirstOrderLive(_LiveDS):
    def x(self) -> np.ndarray:
        """State (live)."""
        return self._live_state("x", self.x0)

    def r(self) -> np.ndarray:
        """The input of the interactions (``Σ B λ`` for linear relations), live."""
        lv = live(self)
        key = ("r", 0)
        fresh = key not in lv.bufs
        a = lv.get(key, np.zeros(self.x0.size))
        sim = getattr(self, "_sim", None)
        if fresh and sim is not None:
            lv.set(key, sim._input(self, "r", 0))
        return a


class _ConstantB:
    def setbPtr(self, b) -> None:
        _no_plugin("FirstOrderLinearDS.setbPtr", b)
        if getattr(self, "_core", None) is not None:
            if callable(b):
                raise_unsupported("setbPtr(a function) after the simulation was built")
            self._set_input("setbPtr", b)
            lv = live(self)
            if ("b", 0) in lv.bufs:
                lv.set(("b", 0), np.asarray(b, dtype=np.float64).ravel())
        super().setbPtr(b)

    def b(self) -> np.ndarray:
        """The constant vector ``b`` (live: writes before the build set it; writes between
        steps hold the new ``b`` from the next step on)."""
        if callable(self._b):
            raise_unsupported("FirstOrderLinearDS.b() of a time-dependent b(t)")
        lv = live(self)
        key = ("b", 0)
        if key not in lv.bufs:
            lv.get(key, np.zeros(self.x0.size) if self._b is None else self._b)
            if self._b is None:
                self._b = np.zeros(self.x0.size)
            if getattr(self, "_core", None) is not None:
                lv.set(key, np.asarray(self._b, dtype=np.float64))
        return lv.bufs[key]


class FirstOrderLinearTIDS(_ConstantB, _FirstOrderLive, _m.FirstOrderLinearTIDS):
    """Siconos ``FirstOrderLinearTIDS(x0, A[, b])``."""

    def __init__(self, x0, A, b=None):
        super().__init__(x0, A)
        if b is not None:
            self.setbPtr(b)

    def setb(self, b) -> None:
        self.setbPtr(b)


class FirstOrderLinearDS(_ConstantB, _FirstOrderLive, _m.FirstOrderLinearDS):
    """Siconos ``FirstOrderLinearDS(x0, A[, b])``; ``b`` and ``A`` may also be Python callables
    ``b(t)`` (``setComputebFunction``), ``A(t)``, or Siconos C plugins: ``FirstOrderLinearDS(x0,
    "lib:A"[, "lib:b"])``, ``setComputeAFunction(lib, fn)``, ``setComputebFunction(lib, fn)``."""

    def __init__(self, x0, A=None, b=None):
        if A is None:
            raise_unsupported("FirstOrderLinearDS(x0) without A", "give the matrix A or its plugin")
        n = int(np.asarray(x0, dtype=float).size)
        super().__init__(x0, np.zeros((n, n)) if isinstance(A, str) else A)
        if isinstance(A, str):
            self.setComputeAFunction(*_siconos_plugin(A, "FirstOrderLinearDS(x0, A)"))
        if isinstance(b, str):
            self.setComputebFunction(*_siconos_plugin(b, "FirstOrderLinearDS(x0, A, b)"))
        elif b is not None:
            self.setbPtr(b)

    def setb(self, b) -> None:
        self.setbPtr(b)

    def setComputebFunction(self, library, function=None, params=None) -> None:
        """``b(t)``: a Python callable, or a Siconos C plugin ``(library, function)`` with
        Siconos's signature (``_cplugin``)."""
        if callable(library):
            super().setbPtr(library)
            return
        from ._cplugin import vector_of_t

        super().setbPtr(vector_of_t(self, str(library), str(function), self.x0.size))

    def setComputeAFunction(self, A, function=None, params=None):
        """``A(t)``: a Python callable, or a Siconos C plugin ``(library, function)`` (``_cplugin``)."""
        if isinstance(A, str):
            from ._cplugin import library_function, matrix_of_t

            n = self.x0.size
            return super().setComputeAFunction(matrix_of_t(self, *library_function(A, function, "A"), n, n))
        return super().setComputeAFunction(A, function, params)


class FirstOrderNonLinearDS(_FirstOrderLive, _m.FirstOrderNonLinearDS):
    """Siconos ``FirstOrderNonLinearDS(x0[, f, jacobianfx])`` with Python callables."""

    def __init__(self, x0, f=None, jacobianfx=None):
        _no_plugin("FirstOrderNonLinearDS(x0, f, jacobianfx)", f)
        super().__init__(x0, f, jacobianfx)

    def setComputeFFunction(self, f, function=None, params=None):
        """``f(t, x)``: a Python callable, or a Siconos C plugin ``(library, function)``."""
        if isinstance(f, str):
            from ._cplugin import field_of_tx

            f = field_of_tx(self, f, str(function), self.x0.size, matrix=False)
        super().setComputeFFunction(f, None, params)

    def setComputeJacobianfxFunction(self, jacobianfx, function=None, params=None):
        """``∇ₓf(t, x)``: a Python callable, or a Siconos C plugin ``(library, function)``."""
        if isinstance(jacobianfx, str):
            from ._cplugin import field_of_tx

            jacobianfx = field_of_tx(self, jacobianfx, str(function), self.x0.size, matrix=True)
        super().setComputeJacobianfxFunction(jacobianfx, None, params)


# ---------------------------------------------------------------------------------------------
# relations
# ---------------------------------------------------------------------------------------------


class FirstOrderLinearR(_CPluginOutput, _r.FirstOrderLinearR):
    """Siconos ``FirstOrderLinearR(C, B)``: ``y = C(t) x + D(t) λ + F z + e(t)``, ``r = B(t) λ`` with
    constant matrices, Python callables of ``t``, or Siconos C plugins ``"library:function"``
    (``FOMatPtr1``: ``M(t, rows, cols, M, nz, z)``, column-major; ``e``: ``FOVecPtr``), also through
    ``setComputeCFunction(library, function)``, ``setComputeDFunction``, ``setComputeBFunction``,
    ``setComputeeFunction``; ``z`` the linked systems' (``_cplugin``). With constant matrices only,
    it is written as the ``FirstOrderLinearTIR`` it is."""

    def __init__(self, C=None, B=None):
        if C is None or B is None:
            raise_unsupported("FirstOrderLinearR() without C and B", "give C and B (matrices, callables or plugins)")
        super().__init__(self._c("C", C), self._c("B", B))

    def _c(self, which: str, f, function=None):
        if not isinstance(f, str):
            return f
        from ._cplugin import library_function, matrix_of_t_sized, vector_of_t_sized

        library, fn = library_function(f, function, which)
        if which == "e":
            return vector_of_t_sized(library, fn, self._c_rows, self._c_z)
        shape = {"C": lambda: (self._c_rows(), self._c_nx()), "D": lambda: (self._c_rows(), self._c_rows()),
                 "B": lambda: (self._c_nx(), self._c_rows())}[which]
        return matrix_of_t_sized(library, fn, shape, self._c_z)

    def setComputeCFunction(self, library, function=None) -> None:
        self.C = self._c("C", library, function)

    def setComputeDFunction(self, library, function=None) -> None:
        self.D = self._c("D", library, function)

    def setComputeBFunction(self, library, function=None) -> None:
        self.B = self._c("B", library, function)

    def setComputeeFunction(self, library, function=None) -> None:
        self.e = self._c("e", library, function)

    setComputeEFunction = setComputeeFunction

    def _element(self, parent, host, name):
        if not any(callable(v) for v in (self.C, self.D, self.e, self.B)):
            tir = _r.FirstOrderLinearTIR(self.C, self.B)
            tir.D, tir.F, tir.e = self.D, self.F, self.e
            return tir._element(parent, host, name)
        return super()._element(parent, host, name)

    def display(self) -> None:
        print(f"FirstOrderLinearR: C {self.C}, B {self.B}")


def _relation_size(rel) -> Optional[int]:
    for attr in ("H", "C"):
        m = getattr(rel, attr, None)
        if isinstance(m, np.ndarray) and m.ndim == 2:
            return m.shape[0]
    return None


def _nsl_size(nsl) -> int:
    if isinstance(nsl, _r.NewtonImpactFrictionNSL):
        return nsl.dim
    if isinstance(nsl, _r.MixedComplementarityConditionNSL):
        return nsl.n_eq + nsl.n_comp
    return int(getattr(nsl, "size", 1))


class Interaction(_m.Interaction):
    """Siconos ``Interaction(nslaw, relation)``; ``y(level)`` and ``lambda_(level)`` are live."""

    def __init__(self, nsl, relation, *legacy):
        if legacy:
            raise_unsupported("Interaction(size, nslaw, relation, ...) (the Siconos 3 constructor)")
        super().__init__(nsl, relation)
        if hasattr(relation, "_c_rows"):  # Siconos C plugins write ny values (the law's size), read z
            relation._rows, relation._inter = _nsl_size(nsl), self

    def dimension(self) -> int:
        n = _relation_size(self.relation)
        return _nsl_size(self.nsl) if n is None else n

    getSizeOfY = dimension

    def display(self) -> None:
        """Prints the interaction."""
        print(f"Interaction {self.name or ''}: {type(self.relation).__name__}, {type(self.nsl).__name__}")

    def nonSmoothLaw(self):
        return self.nsl

    def _live_vec(self, what: str, level: int) -> np.ndarray:
        lv = live(self)
        key = (what, int(level))
        fresh = key not in lv.bufs
        a = lv.get(key, np.zeros(self.dimension()))
        if fresh and getattr(self, "_core", None) is not None:
            self._pull(key)
        return a

    def _pull(self, key) -> None:
        v = core_view(self, key[0], key[1])
        if v is None:
            raise_unsupported(
                f"Interaction.{'lambda_' if key[0] == 'lambda' else key[0]}({key[1]})",
                "the Saltus kernel does not compute this level for this simulation",
            )
        live(self).set(key, np.asarray(v, dtype=np.float64))

    def y(self, level: int = 0) -> np.ndarray:
        """Output ``y`` at ``level`` (live)."""
        return self._live_vec("y", level)

    def lambda_(self, level: int = 1) -> np.ndarray:
        """Multiplier ``λ`` at ``level`` (live)."""
        return self._live_vec("lambda", level)

    def _sync(self) -> None:
        for key in list(live(self).bufs):
            self._pull(key)


class _CallableList(list):
    """A list that Siconos scripts may also call (``nsds.interactions()``)."""

    def __call__(self):
        return list(self)


class _CallableFloat(float):
    """A float that Siconos scripts may also call (``nsds.t0()``)."""

    def __call__(self) -> float:
        return float(self)


class NonSmoothDynamicalSystem(_m.NonSmoothDynamicalSystem):
    """Siconos ``NonSmoothDynamicalSystem(t0, T)``; ``t0``/``T`` read as attributes (Saltus) or
    called (Siconos ``t0()``, ``finalT()``)."""

    @property
    def t0(self) -> float:
        return _CallableFloat(self.__dict__["_t0"])

    @t0.setter
    def t0(self, v) -> None:
        self.__dict__["_t0"] = float(v)

    @property
    def T(self) -> float:
        return _CallableFloat(self.__dict__["_T"])

    @T.setter
    def T(self, v) -> None:
        self.__dict__["_T"] = float(v)

    def __init__(self, t0: float = 0.0, T: float = 0.0):
        super().__init__(t0, T)
        self.systems = _CallableList()
        self.interactions = _CallableList()

    def setTitle(self, title: str) -> None:
        self.title = str(title)

    def display(self) -> None:
        """Prints the model."""
        print(f"NonSmoothDynamicalSystem [{self.t0}, {self.T}]: {len(self.systems)} systems, "
              f"{len(self.interactions)} interactions")

    def setT(self, T: float) -> None:
        self.T = float(T)

    def finalT(self) -> float:
        return self.T

    def getNumberOfDS(self) -> int:
        return len(self.systems)

    def getNumberOfInteractions(self) -> int:
        return len(self.interactions)

    def dynamicalSystems(self) -> List:
        return list(self.systems)

    def topology(self):
        """Siconos's ``Topology`` as far as the number of index sets (a model of rigid bodies:
        the contacts are in ``simulation.indexSet(1)``); anything else is named unsupported."""
        from ._newton_euler import Topology

        return Topology(self)
