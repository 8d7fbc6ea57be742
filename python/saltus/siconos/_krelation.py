"""Siconos 4.4's ``FirstOrderNonLinearR`` on Saltus: a relation that scripts subclass in
Python, overriding ``computeh``, ``computeg`` and the four Jacobians with Siconos's arguments
``(time, x, lambda_, z, out)`` (the method writes its result into ``out``)."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

from .. import relations as _r
from .._xml import _mat, _siconos_plugin
from ._unsupported import raise_unsupported

_PLUGIN_WHY = (
    "a Siconos C plugin is compiled against Siconos's own API; override the compute method in a "
    "Python subclass (as the Siconos tutorials do), or give a Python callable f(t, x, lambda)"
)

# slot -> (Siconos method, constant matrix that replaces it, shape of its output from (m, n))
_SLOTS: Dict[str, Tuple[str, Optional[str], object]] = {
    "h": ("computeh", None, lambda m, n: (m,)),
    "g": ("computeg", None, lambda m, n: (n,)),
    "jachx": ("computeJachx", "C", lambda m, n: (m, n)),
    "jachlambda": ("computeJachlambda", "D", lambda m, n: (m, m)),
    "jacgx": ("computeJacgx", "K", lambda m, n: (n, n)),
    "jacglambda": ("computeJacglambda", "B", lambda m, n: (n, m)),
}


class FirstOrderNonLinearR(_r.FirstOrderNonLinearR):
    """Siconos ``FirstOrderNonLinearR()``: ``y = h(t, x, λ)``, ``r = g(t, x, λ)``.

    Subclass it and override ``computeh(time, x, lambda_, z, y)``, ``computeg(time, x,
    lambda_, z, r)``, ``computeJachx(..., C)``, ``computeJachlambda(..., D)``,
    ``computeJacgx(..., K)``, ``computeJacglambda(..., B)``: each writes into its last argument
    (a numpy array kept from call to call, as Siconos's matrices are). A constant Jacobian set
    by ``setCPtr``, ``setDPtr`` or ``setBPtr`` is used as it is and its compute method is never
    called (Siconos's ``computeJach``/``computeJacg``). ``z`` is a zero vector of size 1 (Saltus's
    relation functions do not read the systems' ``z``)."""

    def __init__(self):
        _r._FirstOrderNonLinearR.__init__(self)
        self._const: Dict[str, np.ndarray] = {}
        self._out: Dict[str, np.ndarray] = {}
        self._given: Dict[str, object] = {}

    # -- the matrices of Siconos's FirstOrderR ------------------------------------------------

    def _set_matrix(self, key: str, m) -> None:
        self._const[key] = _mat(m, f"FirstOrderNonLinearR.set{key}Ptr").copy()

    def setCPtr(self, C) -> None:
        """Constant ``C = ∇ₓh`` (``computeJachx`` is then not called)."""
        self._set_matrix("C", C)

    def setDPtr(self, D) -> None:
        """Constant ``D = ∇_λ h`` (``computeJachlambda`` is then not called)."""
        self._set_matrix("D", D)

    def setBPtr(self, B) -> None:
        """Constant ``B = ∇_λ g`` (``computeJacglambda`` is then not called)."""
        self._set_matrix("B", B)

    def setFPtr(self, F) -> None:
        """``F`` (kept for ``F()``; as in Siconos, this relation does not use it)."""
        self._set_matrix("F", F)

    def C(self) -> Optional[np.ndarray]:
        return self._const.get("C")

    def D(self) -> Optional[np.ndarray]:
        return self._const.get("D")

    def B(self) -> Optional[np.ndarray]:
        return self._const.get("B")

    def F(self) -> Optional[np.ndarray]:
        return self._const.get("F")

    def K(self) -> Optional[np.ndarray]:
        return self._const.get("K")

    def isLinear(self) -> bool:
        return False

    def display(self) -> None:
        print(f"FirstOrderNonLinearR ({type(self).__name__}): constant {sorted(self._const) or 'none'}")

    # -- the functions: Siconos's defaults raise, as they do without a plugin -----------------

    def _missing(self, method: str):
        raise RuntimeError(
            f"FirstOrderNonLinearR.{method}: no function given; derive this class and implement {method} "
            "(or set the constant matrix)"
        )

    def computeh(self, time, x, lambda_, z, y) -> None:
        self._missing("computeh")

    def computeg(self, time, x, lambda_, z, r) -> None:
        self._missing("computeg")

    def computeJachx(self, time, x, lambda_, z, C) -> None:
        self._missing("computeJachx")

    def computeJachlambda(self, time, x, lambda_, z, D) -> None:
        self._missing("computeJachlambda")

    def computeJacgx(self, time, x, lambda_, z, K) -> None:
        self._missing("computeJacgx")

    def computeJacglambda(self, time, x, lambda_, z, B) -> None:
        self._missing("computeJacglambda")

    def _setter(self, slot: str, f, function) -> None:
        if callable(f) and function is None:
            self._given[slot] = f
            return
        raise_unsupported(f"FirstOrderNonLinearR.{_SLOTS[slot][0]} from a Siconos plugin ({f!r}, {function!r})",
                          _PLUGIN_WHY)

    def setComputehFunction(self, f, function=None, params=None) -> None:
        self._setter("h", f, function)

    def setComputegFunction(self, f, function=None, params=None) -> None:
        self._setter("g", f, function)

    def setComputeJachxFunction(self, f, function=None, params=None) -> None:
        self._setter("jachx", f, function)

    def setComputeJachlambdaFunction(self, f, function=None, params=None) -> None:
        self._setter("jachlambda", f, function)

    def setComputeJacgxFunction(self, f, function=None, params=None) -> None:
        self._setter("jacgx", f, function)

    def setComputeJacglambdaFunction(self, f, function=None, params=None) -> None:
        self._setter("jacglambda", f, function)

    # -- the kernel's callables ---------------------------------------------------------------

    def _callable(self, slot: str):
        """The kernel's ``f(t, x, λ)`` for ``slot``: a constant matrix, a callable given to a
        setter, or the (overridden) Siconos method writing into a kept array."""
        method, const, shape_of = _SLOTS[slot]
        if const is not None and const in self._const:
            m = self._const[const]
            return lambda t, x, lam: m
        if slot in self._given:
            return self._given[slot]
        compute = getattr(self, method)
        z = np.zeros(1)

        def f(t, x, lam):
            shape = shape_of(lam.size, x.size)
            out = self._out.get(slot)
            if out is None or out.shape != shape:
                out = self._out[slot] = np.zeros(shape)
            compute(t, x, lam, z, out)
            return out

        f.__name__ = method
        return f

    def _element(self, parent, host, name):
        for slot in _SLOTS:
            self._fns.funcs[slot] = self._callable(slot)
        return super()._element(parent, host, name)

    def _input_of(self, t: float, x: np.ndarray, lam: np.ndarray) -> np.ndarray:
        """``r = g(t, x, λ)`` for ``ds.r()``."""
        return np.array(self._callable("g")(t, x, lam), dtype=np.float64).ravel()


class _CPluginOutput:
    """The interaction's size for a relation whose ``h`` is a Siconos C plugin: set when the
    relation enters an ``Interaction`` (Siconos gives the plugin ``sizeY`` from there too)."""

    _rows: Optional[int] = None
    _inter = None

    def _c_rows(self) -> int:
        if self._rows is None:
            raise RuntimeError(f"{type(self).__name__} with Siconos C plugins: put it in an Interaction first")
        return self._rows

    def _c_nx(self) -> int:
        """The size of the linked first-order systems' state (``x``, concatenated)."""
        systems = [] if self._inter is None else list(self._inter.ds)
        if not systems:
            raise RuntimeError(f"{type(self).__name__} with Siconos C plugins: link its Interaction to its systems first")
        return sum(int(np.asarray(ds.x0).size) for ds in systems)

    def _c_z(self) -> np.ndarray:
        from ._cplugin import _z

        systems = [] if self._inter is None else list(self._inter.ds)
        return np.concatenate([_z(ds) for ds in systems]) if systems else np.zeros(1)


class LagrangianScleronomousR(_CPluginOutput, _r.LagrangianScleronomousR):
    """Siconos ``LagrangianScleronomousR(h, jacobian_q[, dot_jacobian_q])``: Python callables, or
    Siconos C plugins ``"library:function"`` with Siconos's signature (``FPtr3``: ``h(nq, q, ny, y,
    nz, z)``, the Jacobian ``ny × nq`` column-major; the third, ``J̇(q, v)``, ``FPtr2``: ``(nq, q, nv,
    v, out, nz, z)``; ``_cplugin``)."""

    def __init__(self, h, jacobian_q, dot_jacobian_q=None, params=None):
        if not isinstance(h, str):
            super().__init__(h, jacobian_q, dot_jacobian_q, params)
            return
        from ._cplugin import dot_jacobian, output_of_q

        fh = output_of_q(*_siconos_plugin(h, "h"), self._c_rows, self._c_z, False, False)
        fj = output_of_q(*_siconos_plugin(jacobian_q, "jacobian_q"), self._c_rows, self._c_z, True, False)
        fd = None
        if dot_jacobian_q is not None:
            fd = dot_jacobian(*_siconos_plugin(dot_jacobian_q, "dot_jacobian_q"), self._c_rows, self._c_z)
        super().__init__(lambda q: fh(0.0, q), lambda q: fj(0.0, q), fd, params)


class FirstOrderType1R(_CPluginOutput, _r.FirstOrderType1R):
    """Siconos ``FirstOrderType1R(h, g[, jachx, jacglambda])``: ``y = h(x, z)``, ``r = g(λ, z)``,
    Python callables ``(x, z)``/``(λ, z)``, or Siconos C plugins ``"library:function"`` (``Type1Ptr``:
    ``h(nx, x, ny, y, nz, z)``, ``g(nλ, λ, nr, r, nz, z)``, the Jacobians ``ny × nx`` and ``nr × nλ``
    column-major; ``_cplugin``), also through ``setComputehFunction(library, function)`` and the
    other setters."""

    # slot -> the output's rows: the interaction's size (h, ∇ₓh) or the systems' (g, ∇_λ g)
    _c_slots = {"h": ("_c_rows", False), "jachx": ("_c_rows", True), "g": ("_c_nx", False),
                "jacglambda": ("_c_nx", True)}

    def __init__(self, h, g, jachx=None, jacglambda=None):
        super().__init__(self._c("h", h), self._c("g", g), self._c("jachx", jachx), self._c("jacglambda", jacglambda))

    def _c(self, slot: str, f, function=None):
        """``f`` as given, or the ctypes function of a Siconos plugin (``"library:function"`` or
        ``(library, function)``)."""
        if not isinstance(f, str):
            return f
        from ._cplugin import library_function, type1

        library, fn = library_function(f, function, slot)
        rows, matrix = self._c_slots[slot]
        return type1(library, fn, getattr(self, rows), self._c_z, matrix)

    def setComputehFunction(self, h, function=None, params=None) -> None:
        self._set("h", self._c("h", h, function), None, params)

    def setComputeJachxFunction(self, jachx, function=None, params=None) -> None:
        self._set("jachx", self._c("jachx", jachx, function), None, params)

    def setComputegFunction(self, g, function=None, params=None) -> None:
        self._set("g", self._c("g", g, function), None, params)

    def setComputeJacglambdaFunction(self, jacglambda, function=None, params=None) -> None:
        self._set("jacglambda", self._c("jacglambda", jacglambda, function), None, params)


class FirstOrderType2R(_CPluginOutput, _r.FirstOrderType2R):
    """Siconos ``FirstOrderType2R(h, g[, jachx, jacglambda, jachlambda])``: ``y = h(x, λ)``, ``r =
    g(λ)``; ``h`` and ``g`` Python callables or Siconos C plugins ``"library:function"``
    (``Type2PtrH``: ``h(nx, x, nλ, λ, ny, y)``; ``Type2PtrG``: ``g(nλ, λ, nr, r)``; ``_cplugin``). The
    Jacobians are Python callables: Siconos 4.4 has no plugin for them (its ``computeJachx``,
    ``computeJachlambda`` and ``computeJacglambda`` must be overloaded)."""

    def __init__(self, h, g, jachx=None, jacglambda=None, jachlambda=None):
        for name, f in (("jachx", jachx), ("jacglambda", jacglambda), ("jachlambda", jachlambda)):
            if isinstance(f, str):
                raise_unsupported(f"FirstOrderType2R's {name} from a Siconos C plugin",
                                  "Siconos 4.4 requires these Jacobians overloaded; give a Python callable")
        super().__init__(self._c("h", h), self._c("g", g), jachx, jacglambda, jachlambda)

    def _c(self, slot: str, f, function=None):
        if not isinstance(f, str):
            return f
        from ._cplugin import library_function, type2_g, type2_h

        library, fn = library_function(f, function, slot)
        return type2_h(library, fn, self._c_rows) if slot == "h" else type2_g(library, fn, self._c_nx)

    def setComputehFunction(self, h, function=None, params=None) -> None:
        self._set("h", self._c("h", h, function), None, params)

    def setComputegFunction(self, g, function=None, params=None) -> None:
        self._set("g", self._c("g", g, function), None, params)


class LagrangianRheonomousR(_CPluginOutput, _r.LagrangianRheonomousR):
    """Siconos ``LagrangianRheonomousR(h, jacobian_q, dot_h)``: Python callables ``(t, q)``, or
    Siconos C plugins ``"library:function"`` (``FPtr4``: ``h(nq, q, t, ny, y, nz, z)``, the same
    for the ``ny × nq`` Jacobian, column-major, and for ``∂h/∂t``; ``_cplugin``)."""

    def __init__(self, h, jacobian_q, dot_h=None, params=None):
        if not isinstance(h, str):
            super().__init__(h, jacobian_q, dot_h, params)
            return
        from ._cplugin import output_of_q

        if dot_h is None:
            raise TypeError("LagrangianRheonomousR needs dot_h")
        fh = output_of_q(*_siconos_plugin(h, "h"), self._c_rows, self._c_z, False, True)
        fj = output_of_q(*_siconos_plugin(jacobian_q, "jacobian_q"), self._c_rows, self._c_z, True, True)
        fd = output_of_q(*_siconos_plugin(dot_h, "dot_h"), self._c_rows, self._c_z, False, True)
        super().__init__(fh, fj, fd, params)
