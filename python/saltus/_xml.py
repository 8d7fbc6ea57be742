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
