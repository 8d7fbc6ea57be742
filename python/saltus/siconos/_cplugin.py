"""Siconos C plugins in scripts (``setComputeFExtFunction("BallPlugin", "ballFExt")``,
``setComputebFunction("plugins", "computeB")``, ``setComputeFFunction("PluginF", "computeF")``):
the function of a shared library compiled with Siconos's plugin signatures, called through
``ctypes`` as the Python callable the compatibility layer already takes (one call per
evaluation, as a Python function).

The library is found as Siconos's ``SSLH`` does: ``NAME``, then ``NAME.so`` (and ``libNAME.so``),
in the current directory, then in the directory of the running script. The signatures are
Siconos's (``SiconosPlugin`` types); ``z`` is the system's parameter vector (``setzPtr``, by
default one zero):

* ``FExt(t, n, fExt, nz, z)``, ``b(t, n, b, nz, z)``: write the vector of size ``n``;
* ``f(t, n, x, f, nz, z)``: write ``f(t, x)``; ``jacobianfx(t, n, x, J, nz, z)``: write the
  ``n × n`` Jacobian column-major;
* ``LagrangianDS``: ``mass(n, q, M, nz, z)`` (``FPtr7``), ``FInt(t, n, q, v, out, nz, z)`` and its
  Jacobians ``∂/∂q``, ``∂/∂v`` (``FPtr6``), ``FGyr(n, q, v, out, nz, z)`` and its Jacobians (``FPtr5``),
  matrices column-major; a Jacobian not given is zero, as in Siconos;
* relations: ``LagrangianScleronomousR("lib:h", "lib:G")`` with ``h(nq, q, ny, y, nz, z)`` and ``G``
  the same writing the ``ny × nq`` Jacobian (``FPtr3``); ``LagrangianRheonomousR`` with the time
  after ``q``: ``h(nq, q, t, ny, y, nz, z)`` (``FPtr4``) for ``h``, ``∇h`` and ``∂h/∂t``; ``z`` is
  the linked systems' ``z``, concatenated, as Siconos passes it; ``FirstOrderType1R("lib:h",
  "lib:g"[, "lib:jachx", "lib:jacglambda"])`` with ``h(nx, x, ny, y, nz, z)``, ``g(nλ, λ, nr, r, nz, z)``
  and the Jacobians ``ny × nx``, ``nr × nλ`` (``Type1Ptr``).
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Callable, List

import numpy as np

from .._xml import _siconos_plugin

_D = ctypes.POINTER(ctypes.c_double)
_U = ctypes.c_uint


def _candidates(library: str) -> List[str]:
    names = [library]
    if not library.endswith(".so"):
        base = os.path.basename(library)
        names += [library + ".so", os.path.join(os.path.dirname(library), "lib" + base + ".so")]
    dirs = [os.getcwd()]
    script = os.path.dirname(os.path.abspath(sys.argv[0])) if sys.argv and sys.argv[0] else ""
    if script and script not in dirs:
        dirs.append(script)
    return [n if os.path.isabs(n) else os.path.join(d, n) for d in dirs for n in names]


def symbol(library: str, function: str):
    """The C function ``function`` of the plugin library ``library`` (Siconos's lookup);
    ``FileNotFoundError`` naming the paths tried, or ``AttributeError`` naming the symbol."""
    tried = _candidates(library)
    for path in tried:
        if os.path.isfile(path):
            lib = ctypes.CDLL(path)
            try:
                return getattr(lib, function)
            except AttributeError:
                raise AttributeError(f"Siconos plugin {path}: no function `{function}`") from None
    raise FileNotFoundError(f"Siconos plugin library `{library}` not found (tried {', '.join(tried)})")


def library_function(library, function, what: str):
    """``(library, function)`` from Siconos's two arguments, or from its ``"library:function"``
    string when ``function`` is ``None``."""
    if function is not None:
        return str(library), str(function)
    return _siconos_plugin(str(library), what)


def _z(ds) -> np.ndarray:
    z = getattr(ds, "z", None)
    return np.ascontiguousarray(np.zeros(1) if z is None else np.asarray(z, dtype=np.float64).ravel())


def _ptr(a: np.ndarray):
    return a.ctypes.data_as(_D)


def vector_of_t(ds, library: str, function: str, size: int) -> Callable[[float], np.ndarray]:
    """``v(t)`` from a plugin ``void f(double t, unsigned n, double *v, unsigned nz, double *z)``
    (Siconos's ``FExt`` and ``b`` plugins)."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [ctypes.c_double, _U, _D, _U, _D]

    def call(t: float) -> np.ndarray:
        out, z = np.zeros(size), _z(ds)
        fn(float(t), size, _ptr(out), z.size, _ptr(z))
        return out

    return call


def field_of_tx(ds, library: str, function: str, size: int, matrix: bool) -> Callable:
    """``f(t, x)`` (``matrix``: the ``n × n`` Jacobian, written column-major) from a plugin
    ``void f(double t, unsigned n, double *x, double *out, unsigned nz, double *z)``."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [ctypes.c_double, _U, _D, _D, _U, _D]

    def call(t: float, x) -> np.ndarray:
        xx = np.ascontiguousarray(np.asarray(x, dtype=np.float64).ravel())
        out, z = np.zeros(size * size if matrix else size), _z(ds)
        fn(float(t), size, _ptr(xx), _ptr(out), z.size, _ptr(z))
        return out.reshape(size, size, order="F") if matrix else out

    return call


def _vec(a) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a, dtype=np.float64).ravel())


def mass_of_q(ds, library: str, function: str, size: int) -> Callable:
    """``M(q)`` (``size × size``, written column-major) from a plugin
    ``void mass(unsigned n, double *q, double *M, unsigned nz, double *z)`` (Siconos ``FPtr7``)."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [_U, _D, _D, _U, _D]

    def call(q) -> np.ndarray:
        qq, out, z = _vec(q), np.zeros(size * size), _z(ds)
        fn(size, _ptr(qq), _ptr(out), z.size, _ptr(z))
        return out.reshape(size, size, order="F")

    return call


def force_of_tqv(ds, library: str, function: str, size: int, matrix: bool, time: bool) -> Callable:
    """``F(t, q, v)`` (``matrix``: its ``size × size`` Jacobian, column-major) from a plugin
    ``void f(double t, unsigned n, double *q, double *v, double *out, unsigned nz, double *z)``
    (Siconos ``FPtr6``: ``FInt`` and its Jacobians), or without ``t`` (``time=False``: ``FPtr5``,
    ``FGyr`` and its Jacobians)."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = ([ctypes.c_double] if time else []) + [_U, _D, _D, _D, _U, _D]

    def call(t: float, q, v) -> np.ndarray:
        qq, vv = _vec(q), _vec(v)
        out, z = np.zeros(size * size if matrix else size), _z(ds)
        args = (size, _ptr(qq), _ptr(vv), _ptr(out), z.size, _ptr(z))
        fn(float(t), *args) if time else fn(*args)
        return out.reshape(size, size, order="F") if matrix else out

    return call


def output_of_q(library: str, function: str, rows: Callable[[], int], zs: Callable[[], np.ndarray], matrix: bool,
                time: bool) -> Callable:
    """A relation's ``h(q)`` (``matrix``: its ``rows × n`` Jacobian, column-major) from a plugin
    ``void h(unsigned nq, double *q, unsigned ny, double *y, unsigned nz, double *z)`` (Siconos
    ``FPtr3``, ``LagrangianScleronomousR``), or with the time after ``q`` (``time=True``: ``FPtr4``,
    ``LagrangianRheonomousR``'s ``h``, ``∇h`` and ``ḣ``). ``rows()`` is the interaction's size, known
    once the relation is in an ``Interaction``; ``zs()`` the ``z`` of its systems, concatenated."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [_U, _D] + ([ctypes.c_double] if time else []) + [_U, _D, _U, _D]

    def call(t: float, q) -> np.ndarray:
        qq, ny, z = _vec(q), rows(), zs()
        out = np.zeros(ny * qq.size if matrix else ny)
        head = (qq.size, _ptr(qq)) + ((float(t),) if time else ())
        fn(*head, ny, _ptr(out), z.size, _ptr(z))
        return out.reshape(ny, qq.size, order="F") if matrix else out

    return call


def type1(library: str, function: str, rows: Callable[[], int], zs: Callable[[], np.ndarray], matrix: bool) -> Callable:
    """A ``FirstOrderType1R`` function ``f(a, z)`` (``a`` = ``x`` for ``h`` and ``∇ₓh``, ``λ`` for
    ``g`` and ``∇_λ g``) from a plugin ``void f(unsigned na, double *a, unsigned rows, double *out,
    unsigned nz, double *z)`` (Siconos ``Type1Ptr``); ``matrix``: the ``rows × na`` Jacobian,
    column-major; ``z`` is ``zs()``, the linked systems' ``z`` (``setzPtr``), as Siconos passes it."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [_U, _D, _U, _D, _U, _D]

    def call(a, _z_kernel) -> np.ndarray:
        aa, zz, m = _vec(a), zs(), rows()
        out = np.zeros(m * aa.size if matrix else m)
        fn(aa.size, _ptr(aa), m, _ptr(out), zz.size, _ptr(zz))
        return out.reshape(m, aa.size, order="F") if matrix else out

    return call


def dot_jacobian(library: str, function: str, rows: Callable[[], int], zs: Callable[[], np.ndarray]) -> Callable:
    """``LagrangianScleronomousR``'s third plugin, the time derivative of the ``rows × nq``
    Jacobian, ``void f(unsigned nq, double *q, unsigned nv, double *v, double *out, unsigned nz,
    double *z)`` (Siconos ``FPtr2``), column-major."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [_U, _D, _U, _D, _D, _U, _D]

    def call(q, v) -> np.ndarray:
        qq, vv, z, m = _vec(q), _vec(v), zs(), rows()
        out = np.zeros(m * qq.size)
        fn(qq.size, _ptr(qq), vv.size, _ptr(vv), _ptr(out), z.size, _ptr(z))
        return out.reshape(m, qq.size, order="F")

    return call


def newton_euler_ext(ds, library: str, function: str) -> Callable[[float], np.ndarray]:
    """A ``NewtonEulerDS`` force or moment ``f(t)`` (3 values) from a plugin
    ``void f(double t, double *f, unsigned nz, double *z)`` (Siconos ``FExt_NE``), where ``z`` is the
    system's initial pose ``q0`` (7 values), as Siconos 4.4 passes it."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [ctypes.c_double, _D, _U, _D]
    z = _vec(ds._q0)

    def call(t: float) -> np.ndarray:
        out = np.zeros(3)
        fn(float(t), _ptr(out), z.size, _ptr(z))
        return out

    return call


def matrix_of_t(ds, library: str, function: str, rows: int, cols: int) -> Callable[[float], np.ndarray]:
    """``A(t)`` from a plugin ``void A(double t, unsigned rows, unsigned cols, double *A, unsigned
    nz, double *z)`` (Siconos ``computeAfct``/``MatrixFunctionOfTime``), written column-major."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [ctypes.c_double, _U, _U, _D, _U, _D]

    def call(t: float) -> np.ndarray:
        out, z = np.zeros(rows * cols), _z(ds)
        fn(float(t), rows, cols, _ptr(out), z.size, _ptr(z))
        return out.reshape(rows, cols, order="F")

    return call


def type2_h(library: str, function: str, rows: Callable[[], int]) -> Callable:
    """``FirstOrderType2R``'s ``h(x, λ)`` from a plugin ``void h(unsigned nx, double *x, unsigned
    nλ, double *λ, unsigned ny, double *y)`` (Siconos ``Type2PtrH``, no ``z``)."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [_U, _D, _U, _D, _U, _D]

    def call(x, lam) -> np.ndarray:
        xx, ll, m = _vec(x), _vec(lam), rows()
        out = np.zeros(m)
        fn(xx.size, _ptr(xx), ll.size, _ptr(ll), m, _ptr(out))
        return out

    return call


def type2_g(library: str, function: str, rows: Callable[[], int]) -> Callable:
    """``FirstOrderType2R``'s ``g(λ)`` from a plugin ``void g(unsigned nλ, double *λ, unsigned nr,
    double *r)`` (Siconos ``Type2PtrG``)."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [_U, _D, _U, _D]

    def call(lam) -> np.ndarray:
        ll, m = _vec(lam), rows()
        out = np.zeros(m)
        fn(ll.size, _ptr(ll), m, _ptr(out))
        return out

    return call


def matrix_of_t_sized(library: str, function: str, shape: Callable[[], tuple], zs: Callable[[], np.ndarray]) -> Callable:
    """A relation's matrix ``M(t)`` of the given ``shape()`` from a plugin ``void f(double t,
    unsigned rows, unsigned cols, double *M, unsigned nz, double *z)`` (Siconos ``FOMatPtr1``:
    ``FirstOrderLinearR``'s ``C``, ``D``, ``B``), column-major; ``z`` the linked systems'."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [ctypes.c_double, _U, _U, _D, _U, _D]

    def call(t: float) -> np.ndarray:
        rows, cols = shape()
        out, z = np.zeros(rows * cols), zs()
        fn(float(t), rows, cols, _ptr(out), z.size, _ptr(z))
        return out.reshape(rows, cols, order="F")

    return call


def vector_of_t_sized(library: str, function: str, size: Callable[[], int], zs: Callable[[], np.ndarray]) -> Callable:
    """A relation's vector ``e(t)`` from a plugin ``void f(double t, unsigned n, double *e, unsigned
    nz, double *z)`` (Siconos ``FOVecPtr``); ``z`` the linked systems'."""
    fn = symbol(library, function)
    fn.restype = None
    fn.argtypes = [ctypes.c_double, _U, _D, _U, _D]

    def call(t: float) -> np.ndarray:
        n, z = size(), zs()
        out = np.zeros(n)
        fn(float(t), n, _ptr(out), z.size, _ptr(z))
        return out

    return call
