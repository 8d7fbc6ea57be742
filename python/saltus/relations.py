"""Relations and nonsmooth laws with the Siconos vocabulary (data only; see ``saltus.model``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Sequence

import numpy as np

from ._xml import HOST, ArrayLike, _Funcs, _Host, _mat, _mat_el, _num, _Plugin, _siconos_plugin, _vec, _vec_el


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
    def __init__(self, h, jacobian_q, dot_h=None, params=None, dot_jacobian_q=None):
        self.plugin = isinstance(h, str)
        if self.plugin:
            # Siconos plugin strings "library:function", all from one library
            given = {"h": h, "jacobian_q": jacobian_q, "dot_h": dot_h, "dot_jacobian_q": dot_jacobian_q}
            specs = {k: _siconos_plugin(f, self._kind) for k, f in given.items() if f is not None}
            if len({lib for lib, _ in specs.values()}) != 1:
                raise ValueError(f"{self._kind}: the plugin functions must come from one library")
            self.library = specs["h"][0]
            self.h, self.jacobian_q = specs["h"][1], specs["jacobian_q"][1]
            self.dot_h = specs["dot_h"][1] if "dot_h" in specs else None
            self.dot_jacobian_q = specs["dot_jacobian_q"][1] if "dot_jacobian_q" in specs else None
            self.params = None if params is None else [float(p) for p in params]
            return
        funcs = (h, jacobian_q) + tuple(f for f in (dot_h, dot_jacobian_q) if f is not None)
        if not all(callable(f) for f in funcs):
            raise TypeError(f"{self._kind}: give Python callables (or use {self._kind}.plugin(library, ...))")
        self.h, self.jacobian_q, self.dot_h, self.dot_jacobian_q = h, jacobian_q, dot_h, dot_jacobian_q
        self.library = None
        self.params = params

    @classmethod
    def plugin(
        cls,
        library: str,
        h: str,
        jacobian_q: str,
        dot_h: Optional[str] = None,
        params=None,
        dot_jacobian_q: Optional[str] = None,
    ):
        """The relation from plugin symbols (fast): ``library``, ``h``, ``jacobian_q`` (``dot_h``,
        ``dot_jacobian_q``)."""
        self = cls.__new__(cls)
        self.plugin, self.library = True, str(library)
        self.h, self.jacobian_q, self.dot_h = str(h), str(jacobian_q), None if dot_h is None else str(dot_h)
        self.dot_jacobian_q = None if dot_jacobian_q is None else str(dot_jacobian_q)
        self.params = None if params is None else [float(p) for p in params]
        return self

    def _wrap(self, f):
        return f

    def _element(self, parent, host, name):
        if self.plugin:
            attrs = {"library": self.library, "h": self.h, "jacobian_q": self.jacobian_q}
            if self.dot_h is not None:
                attrs["dot_h"] = self.dot_h
            if self.dot_jacobian_q is not None:
                attrs["dot_jacobian_q"] = self.dot_jacobian_q
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
        if self.dot_jacobian_q is not None:
            f = self.dot_jacobian_q
            host.pair_mat[key + ".dot_jacobian_q"] = lambda t, q, v: f(q, v)
            attrs["dot_jacobian_q"] = key + ".dot_jacobian_q"
        return ET.SubElement(parent, self._kind, attrs)


class LagrangianScleronomousR(_LagrangianNonLinearR):
    """``y = h(q)``, ``p = ∇h(q)ᵀ λ``: ``h(q) -> array`` and ``jacobian_q(q) -> matrix`` as
    Python callables (slow), or ``LagrangianScleronomousR.plugin(library, h, jacobian_q)``.
    ``dot_jacobian_q(q, v) -> matrix`` (optional; Siconos's third plugin ``pluginDotJacobianhq``,
    a callable or ``"library:function"``, a ``LagrangianFn`` of ``(t, q, v)``) is the
    time derivative of the Jacobian, ``J̇ = Σ_k ∂∇h/∂q_k v_k``: event driven, ``J̇ v`` at
    acceleration level comes from it (else a forward difference, ``√ε`` relative); in
    ``NullSpace`` it gives ``γ = J̇ v`` (else central differences)."""

    _kind = "LagrangianScleronomousR"

    def __init__(self, h, jacobian_q, dot_jacobian_q=None, params=None):
        # Siconos's order: LagrangianScleronomousR(pluginh, pluginJacobianhq, pluginDotJacobianhq)
        if dot_jacobian_q is not None and not (callable(dot_jacobian_q) or isinstance(dot_jacobian_q, str)):
            raise TypeError(
                f"{self._kind}: the third argument is dot_jacobian_q (a callable or a plugin), got "
                f"{type(dot_jacobian_q).__name__}; pass params=... by keyword"
            )
        super().__init__(h, jacobian_q, None, params, dot_jacobian_q)

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


class LagrangianCompliantLinearTIR(Relation):
    """``y = C q + e + D λ``, ``p = Cᵀ λ`` (Siconos ``LagrangianCompliantLinearTIR(C, D[, e])``): a
    linear contact with the compliance ``D`` (symmetric positive semi-definite)."""

    _kind = "LagrangianCompliantLinearTIR"

    def __init__(self, C, D, e: Optional[ArrayLike] = None):
        self.C = _mat(C, "C")
        self.D = _mat(D, "D")
        self.e = None if e is None else _vec(e, "e")

    def _element(self, parent, host, name):
        el = ET.SubElement(parent, self._kind)
        _mat_el(el, "C", self.C)
        _mat_el(el, "D", self.D)
        if self.e is not None:
            _vec_el(el, "e", self.e)
        return el


class LagrangianCompliantR(Relation):
    """``y = h(t, q, λ)``, ``p = ∇_q hᵀ λ`` (Siconos ``LagrangianCompliantR``), from plugin
    symbols: ``LagrangianCompliantR("lib:h", "lib:jacobian_q", "lib:jacobian_lambda")`` or
    ``LagrangianCompliantR.plugin(library, h, jacobian_q, jacobian_lambda, params=...)``."""

    _kind = "LagrangianCompliantR"

    def __init__(self, h: str, jacobian_q: str, jacobian_lambda: str, params=None):
        specs = [_siconos_plugin(f, self._kind) for f in (h, jacobian_q, jacobian_lambda)]
        if len({lib for lib, _ in specs}) != 1:
            raise ValueError(f"{self._kind}: the plugin functions must come from one library")
        self.library = specs[0][0]
        self.h, self.jacobian_q, self.jacobian_lambda = (sym for _, sym in specs)
        self.params = None if params is None else [float(p) for p in params]

    @classmethod
    def plugin(cls, library: str, h: str, jacobian_q: str, jacobian_lambda: str, params=None):
        """The relation from the symbols ``h``, ``jacobian_q``, ``jacobian_lambda`` of ``library``."""
        return cls(f"{library}:{h}", f"{library}:{jacobian_q}", f"{library}:{jacobian_lambda}", params)

    def _element(self, parent, host, name):
        attrs = {
            "library": self.library,
            "h": self.h,
            "jacobian_q": self.jacobian_q,
            "jacobian_lambda": self.jacobian_lambda,
        }
        if self.params is not None:
            attrs["params"] = " ".join(_num(p) for p in self.params)
        return ET.SubElement(parent, self._kind, attrs)


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


class FirstOrderLinearR(FirstOrderLinearTIR):
    """``y = C(t) x + D(t) λ + F z + e(t)``, ``r = B(t) λ`` (Siconos ``FirstOrderLinearR``): each of
    ``C``, ``B`` (constructor), ``D`` (``setDPtr``) and ``e`` (``setePtr``) a constant or a Python
    callable of ``t`` returning the matrix (vector) — slow: one Python call per evaluation; the
    shapes are read from a first call at ``t = 0``."""

    _kind = "FirstOrderLinearR"

    def __init__(self, C, B):
        self.C, self.B, self.D, self.F, self.e = self._value(C, "C"), self._value(B, "B"), None, None, None

    @staticmethod
    def _value(a, what: str, vector: bool = False):
        if callable(a):
            return a
        return _vec(a, what) if vector else _mat(a, what)

    def setDPtr(self, D) -> None:
        """Feed-through ``D`` (a matrix or a callable ``D(t)``)."""
        self.D = self._value(D, "D")

    def setePtr(self, e) -> None:
        """``e`` (a vector or a callable ``e(t)``)."""
        self.e = self._value(e, "e", vector=True)

    setEPtr = setePtr

    def _element(self, parent, host, name):
        el = ET.SubElement(parent, self._kind)
        for tag, v in (("C", self.C), ("D", self.D), ("F", self.F), ("e", self.e), ("B", self.B)):
            if v is None:
                continue
            if not callable(v):
                (_vec_el if tag == "e" else _mat_el)(el, tag, v)
                continue
            key = f"{name}.{tag}"
            first = np.asarray(v(0.0), dtype=float)
            if tag == "e":
                host.time[key] = v
                ET.SubElement(el, tag, size=str(first.size), library=HOST, function=key)
            else:
                host.time_mat[key] = v
                rows, cols = np.atleast_2d(first).shape
                ET.SubElement(el, tag, rows=str(rows), cols=str(cols), library=HOST, function=key)
        return el


class _FirstOrderNonLinearR(Relation):
    """User functions of a nonlinear first-order relation: Python callables or plugin symbols."""

    # Siconos name -> model-file attribute, and the kernel's argument kind
    _slots: Dict[str, str] = {}

    def __init__(self, **funcs):
        self._fns = _Funcs(self._kind, self._slots)
        for slot, f in funcs.items():
            self._fns.set(slot, f)

    @classmethod
    def plugin(cls, library: str, params: Optional[Sequence[float]] = None, **symbols: str):
        """The relation from symbols of one plugin library (fast), e.g.
        ``FirstOrderType2R.plugin("libmy.so", h="h", jachx="C", jachlambda="D", g="g",
        jacglambda="B", params=[...])``."""
        self = cls.__new__(cls)
        _FirstOrderNonLinearR.__init__(self)
        for slot, sym in symbols.items():
            if slot not in cls._slots:
                raise TypeError(f"{cls._kind}.plugin: unknown function {slot!r} (known: {', '.join(cls._slots)})")
            self._fns.set(slot, library, sym, params)
        return self

    def _set(self, slot, f, function, params):
        self._fns.set(slot, f, function, params)

    def _tables(self, host: _Host):
        raise NotImplementedError

    def _wrap(self, slot: str, f):
        raise NotImplementedError

    def _element(self, parent, host, name):
        attrs = self._fns.attrs(self._tables(host).__getitem__, f"{name}.{self._kind}", self._wrap)
        return ET.SubElement(parent, self._kind, attrs)


class FirstOrderType1R(_FirstOrderNonLinearR):
    """``y = h(x, z)``, ``r = g(λ, z)`` (Siconos ``FirstOrderType1R(h, g, jachx, jacglambda)``).

    The functions, with Siconos's arguments: ``h(x, z) -> array`` (size m), ``jachx(x, z)`` (m×n),
    ``g(λ, z) -> array`` (size n), ``jacglambda(λ, z)`` (n×m), where ``x`` and ``z`` are those of
    the linked systems (concatenated for two). Python callables (slow: a Python call per
    evaluation, several per Newton iteration), Siconos plugin strings ``"library:function"``,
    ``setComputehFunction(library, function)``-style setters, or
    ``FirstOrderType1R.plugin(library, h=..., jachx=..., g=..., jacglambda=...)`` (fast; the
    symbols are ``RelationFn`` of one library: ``h(t, x, z)``, ``g(t, λ, z)``)."""

    _kind = "FirstOrderType1R"
    _slots = {"h": "h", "jachx": "jacobian_h", "g": "g", "jacglambda": "jacobian_g"}

    def __init__(self, h, g, jachx=None, jacglambda=None):
        super().__init__(h=h, g=g, jachx=jachx, jacglambda=jacglambda)

    def setComputehFunction(self, h, function: Optional[str] = None, params=None) -> None:
        """``h(x, z)``."""
        self._set("h", h, function, params)

    def setComputeJachxFunction(self, jachx, function: Optional[str] = None, params=None) -> None:
        """``C = ∇ₓh(x, z)`` (m×n)."""
        self._set("jachx", jachx, function, params)

    def setComputegFunction(self, g, function: Optional[str] = None, params=None) -> None:
        """``g(λ, z)``."""
        self._set("g", g, function, params)

    def setComputeJacglambdaFunction(self, jacglambda, function: Optional[str] = None, params=None) -> None:
        """``B = ∇_λ g(λ, z)`` (n×m)."""
        self._set("jacglambda", jacglambda, function, params)

    def _tables(self, host):
        return {"h": host.pair_vec, "jachx": host.pair_mat, "g": host.pair_vec, "jacglambda": host.pair_mat}

    def _wrap(self, slot, f):
        return lambda t, a, b: f(a, b)


class FirstOrderType2R(_FirstOrderNonLinearR):
    """``y = h(x, λ)``, ``r = g(λ)`` (Siconos ``FirstOrderType2R(h, g, jachx, jacglambda)``,
    with ``jachlambda`` given to the constructor or by ``setComputeJachlambdaFunction``).

    The functions, with Siconos's arguments: ``h(x, λ) -> array`` (size m), ``jachx(x, λ)``
    (m×n), ``jachlambda(x, λ)`` (m×m), ``g(λ) -> array`` (size n), ``jacglambda(λ)`` (n×m). Python
    callables (slow), Siconos plugin strings ``"library:function"``, the setters, or
    ``FirstOrderType2R.plugin(library, h=..., jachx=..., jachlambda=..., g=..., jacglambda=...)``
    (fast; ``RelationFn`` symbols: ``h(t, x, λ)``, ``g(t, λ)`` with an empty second argument)."""

    _kind = "FirstOrderType2R"
    _slots = {
        "h": "h",
        "jachx": "jacobian_h_x",
        "jachlambda": "jacobian_h_lambda",
        "g": "g",
        "jacglambda": "jacobian_g",
    }

    def __init__(self, h, g, jachx=None, jacglambda=None, jachlambda=None):
        super().__init__(h=h, g=g, jachx=jachx, jacglambda=jacglambda, jachlambda=jachlambda)

    def setComputehFunction(self, h, function: Optional[str] = None, params=None) -> None:
        """``h(x, λ)``."""
        self._set("h", h, function, params)

    def setComputeJachxFunction(self, jachx, function: Optional[str] = None, params=None) -> None:
        """``C = ∇ₓh(x, λ)`` (m×n)."""
        self._set("jachx", jachx, function, params)

    def setComputeJachlambdaFunction(self, jachlambda, function: Optional[str] = None, params=None) -> None:
        """``D = ∇_λ h(x, λ)`` (m×m)."""
        self._set("jachlambda", jachlambda, function, params)

    def setComputegFunction(self, g, function: Optional[str] = None, params=None) -> None:
        """``g(λ)``."""
        self._set("g", g, function, params)

    def setComputeJacglambdaFunction(self, jacglambda, function: Optional[str] = None, params=None) -> None:
        """``B = ∇_λ g(λ)`` (n×m)."""
        self._set("jacglambda", jacglambda, function, params)

    def _tables(self, host):
        return {
            "h": host.pair_vec,
            "jachx": host.pair_mat,
            "jachlambda": host.pair_mat,
            "g": host.state_vec,
            "jacglambda": host.state_mat,
        }

    def _wrap(self, slot, f):
        if slot in ("g", "jacglambda"):
            return lambda t, lam: f(lam)
        return lambda t, x, lam: f(x, lam)


def _constant_jacobian(a, what: str):
    """A constant Jacobian (a matrix) as the callable ``(t, x, λ) -> a``; callables and plugin
    names pass through."""
    if a is None or callable(a) or isinstance(a, str):
        return a
    m = _mat(a, what)
    return lambda t, x, lam: m


class FirstOrderNonLinearR(_FirstOrderNonLinearR):
    """``y = h(t, x, λ)``, ``r = g(t, x, λ)`` (Siconos ``FirstOrderNonLinearR``): the most general
    first-order relation, the input depending on the state too.

    The functions, all of ``(t, x, λ)`` (``x`` that of the linked systems, concatenated for two):
    ``h -> array`` (size m), ``jachx`` = ``C = ∇ₓh`` (m×n), ``jachlambda`` = ``D = ∇_λ h`` (m×m),
    ``g -> array`` (size n), ``jacgx`` = ``K = ∇ₓg`` (n×n), ``jacglambda`` = ``B = ∇_λ g``
    (n×m). The Euler–Moreau Newton loop linearizes both maps at each iterate; ``K`` enters the
    iteration matrix ``W = M − hθ∇f − hK``. Python callables (slow), constant matrices for the
    Jacobians, or ``FirstOrderNonLinearR.plugin(library, h=..., jachx=..., jachlambda=..., g=...,
    jacgx=..., jacglambda=..., params=[...])`` (fast; ``RelationFn`` symbols ``(t, x, λ)``)."""

    _kind = "FirstOrderNonLinearR"
    _slots = {
        "h": "h",
        "jachx": "jacobian_h_x",
        "jachlambda": "jacobian_h_lambda",
        "g": "g",
        "jacgx": "jacobian_g_x",
        "jacglambda": "jacobian_g_lambda",
    }

    def __init__(self, h, g, jachx=None, jacglambda=None, jachlambda=None, jacgx=None):
        jac = {"jachx": jachx, "jacglambda": jacglambda, "jachlambda": jachlambda, "jacgx": jacgx}
        super().__init__(h=h, g=g, **{k: _constant_jacobian(v, f"{self._kind}.{k}") for k, v in jac.items()})

    def setComputehFunction(self, h, function: Optional[str] = None, params=None) -> None:
        """``h(t, x, λ)``."""
        self._set("h", h, function, params)

    def setComputeJachxFunction(self, jachx, function: Optional[str] = None, params=None) -> None:
        """``C = ∇ₓh(t, x, λ)`` (m×n)."""
        self._set("jachx", _constant_jacobian(jachx, "C"), function, params)

    def setComputeJachlambdaFunction(self, jachlambda, function: Optional[str] = None, params=None) -> None:
        """``D = ∇_λ h(t, x, λ)`` (m×m)."""
        self._set("jachlambda", _constant_jacobian(jachlambda, "D"), function, params)

    def setComputegFunction(self, g, function: Optional[str] = None, params=None) -> None:
        """``g(t, x, λ)``."""
        self._set("g", g, function, params)

    def setComputeJacgxFunction(self, jacgx, function: Optional[str] = None, params=None) -> None:
        """``K = ∇ₓg(t, x, λ)`` (n×n)."""
        self._set("jacgx", _constant_jacobian(jacgx, "K"), function, params)

    def setComputeJacglambdaFunction(self, jacglambda, function: Optional[str] = None, params=None) -> None:
        """``B = ∇_λ g(t, x, λ)`` (n×m)."""
        self._set("jacglambda", _constant_jacobian(jacglambda, "B"), function, params)

    def _tables(self, host):
        return {s: (host.pair_vec if s in ("h", "g") else host.pair_mat) for s in self._slots}

    def _wrap(self, slot, f):
        return f

    def _input_of(self, t: float, x: np.ndarray, lam: np.ndarray) -> np.ndarray:
        """``r = g(t, x, λ)`` (the input this relation gives its systems), from its Python ``g``."""
        g = self._fns.funcs.get("g")
        if not callable(g):
            raise TypeError(f"{self._kind}: g is a plugin symbol, not callable from Python")
        return np.asarray(g(t, x, lam), dtype=np.float64).ravel()


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


class NormalConeNSL(NonSmoothLaw):
    """``-y ∈ N_P(λ)`` with the polyhedron ``P = {λ : H λ >= K}`` (Siconos ``NormalConeNSL(size, H, K)``:
    λ lies in ``P``); ``H`` has ``size`` columns, ``K`` one entry per row of ``H``. Needs the ``AVI`` problem."""

    _kind = "NormalConeNSL"

    def __init__(self, size: int, H: ArrayLike, K: ArrayLike):
        self.size = int(size)
        self.H = _mat(H, "H")
        self.K = _vec(K, "K")

    def _element(self, parent):
        el = ET.SubElement(parent, self._kind, {"size": str(self.size)})
        _mat_el(el, "H", self.H)
        _vec_el(el, "K", self.K)
        return el
