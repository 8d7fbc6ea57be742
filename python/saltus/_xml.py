"""Helpers shared by the model classes: number formatting, checked arrays, model-file elements,
plugin references and the table of Python callables (``library=":host"``)."""


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
        self.time_mat: Dict[str, Callable] = {}
        self.pair_vec: Dict[str, Callable] = {}
        self.pair_mat: Dict[str, Callable] = {}
        self.state_vec: Dict[str, Callable] = {}
        self.state_mat: Dict[str, Callable] = {}

    def as_dict(self):
        return {
            "time": self.time,
            "time_mat": self.time_mat,
            "pair_vec": self.pair_vec,
            "pair_mat": self.pair_mat,
            "state_vec": self.state_vec,
            "state_mat": self.state_mat,
        }

    def names(self) -> List[str]:
        return sorted(
            list(self.time) + list(self.time_mat) + list(self.pair_vec) + list(self.pair_mat) + list(self.state_vec)
            + list(self.state_mat)
        )

    def empty(self) -> bool:
        return not (
            self.time or self.time_mat or self.pair_vec or self.pair_mat or self.state_vec or self.state_mat
        )


def _siconos_plugin(spec: str, what: str) -> Tuple[str, str]:
    """``"library:function"`` (the Siconos plugin string) as ``(library, function)``."""
    library, sep, function = str(spec).rpartition(":")
    if not sep or not library or not function:
        raise ValueError(f"{what}: a plugin is named \"library:function\" (Siconos style), got {spec!r}")
    return library, function


class _Funcs:
    """The user functions of one model element: each a Python callable or a plugin symbol, all
    plugin symbols from one library (the model file has one ``library`` attribute per element).
    ``slots`` maps the Siconos names (``f``, ``jacobianfx``, ...) to the model-file attributes."""

    def __init__(self, owner: str, slots: Dict[str, str]):
        self.owner, self.slots = owner, slots
        self.funcs: Dict[str, object] = {}
        self.library: Optional[str] = None
        self.params: Optional[List[float]] = None

    def set(self, slot: str, f, function: Optional[str] = None, params: Optional[Sequence[float]] = None) -> None:
        """``f`` a callable; or a library with ``function``; or a Siconos ``"library:function"``."""
        if f is None:
            return
        if callable(f):
            if function is not None:
                raise TypeError(f"{self.owner}.{slot}: give a Python callable or (library, function), not both")
            self.funcs[slot] = f
            return
        if not isinstance(f, str):
            raise TypeError(f"{self.owner}.{slot}: expected a Python callable or a plugin, got {type(f).__name__}")
        library, function = (f, function) if function is not None else _siconos_plugin(f, f"{self.owner}.{slot}")
        if self.library is not None and self.library != library:
            raise ValueError(
                f"{self.owner}: all its plugin functions must come from one library "
                f"({self.library!r}, then {library!r} for {slot})"
            )
        self.library = library
        self.funcs[slot] = str(function)
        if params is not None:
            self.params = [float(p) for p in params]

    def attrs(self, host_table: Callable[[str], Dict[str, Callable]], key: str, wrap) -> Dict[str, str]:
        """The element's attributes; the callables go into ``host_table(slot)`` as ``key.slot``
        (wrapped by ``wrap(slot, f)`` to the kernel's argument order)."""
        missing = [s for s in self.slots if s not in self.funcs]
        if missing:
            raise ValueError(f"{self.owner}: {', '.join(missing)} not given (the Newton loop needs every Jacobian)")
        kinds = {callable(f) for f in self.funcs.values()}
        if len(kinds) > 1:
            raise ValueError(
                f"{self.owner}: its functions are all Python callables or all plugin symbols, not a mix "
                "(put the Python ones in the plugin, or write the plugin ones in Python)"
            )
        if kinds == {True}:
            attrs = {"library": HOST}
            for slot, attr in self.slots.items():
                name = f"{key}.{slot}"
                host_table(slot)[name] = wrap(slot, self.funcs[slot])
                attrs[attr] = name
            return attrs
        attrs = {"library": str(self.library)}
        for slot, attr in self.slots.items():
            attrs[attr] = str(self.funcs[slot])
        if self.params is not None:
            attrs["params"] = " ".join(_num(p) for p in self.params)
        return attrs

    def python(self) -> bool:
        return any(callable(f) for f in self.funcs.values())
