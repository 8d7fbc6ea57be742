"""The import hook of the Siconos compatibility layer: a meta-path finder that resolves
``siconos`` and its submodules (``siconos.kernel``, ``siconos.numerics``,
``siconos.mechanics.collision.tools``, ...) to the modules of ``saltus.siconos``.

It is active only between :func:`install` and :func:`uninstall` (``saltus.siconos.install()``
or ``python -m saltus.siconos SCRIPT.py``), in the process that installed it: the real Siconos
stays importable everywhere else.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from typing import Optional

_PREFIX = "siconos"
_TARGET = "saltus.siconos"


class SiconosFeatureNotSupported(ImportError, NotImplementedError):
    """A Siconos module or name that Saltus does not provide. A ``NotImplementedError`` (the
    contract of the compatibility layer: never a silent no-op) and an ``ImportError`` (so that
    scripts probing optional modules with ``try: import ... except ImportError`` still work)."""


def _target_name(fullname: str) -> str:
    """``siconos.x.y`` -> ``saltus.siconos.x.y`` (``siconos`` -> ``saltus.siconos._root``)."""
    if fullname == _PREFIX:
        return _TARGET + "._root"
    return _TARGET + fullname[len(_PREFIX):]


def _exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


class _Loader(importlib.abc.Loader):
    """Creates ``siconos.x`` as a fresh module holding the names of ``saltus.siconos.x`` (the
    same objects: classes and functions are shared, so isinstance checks hold)."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return types.ModuleType(spec.name)

    def exec_module(self, module):
        src = importlib.import_module(self.target)
        for k, v in vars(src).items():
            if not k.startswith("__") or k in ("__all__", "__doc__", "__getattr__", "__version__"):
                setattr(module, k, v)
        module.__saltus_target__ = self.target


class SiconosFinder(importlib.abc.MetaPathFinder):
    """Finds ``siconos`` and ``siconos.*`` in ``saltus.siconos``; a Siconos module without a
    Saltus counterpart raises :class:`SiconosFeatureNotSupported` naming it."""

    def find_spec(self, fullname: str, path=None, target=None) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname != _PREFIX and not fullname.startswith(_PREFIX + "."):
            return None
        tname = _target_name(fullname)
        if not _exists(tname):
            raise SiconosFeatureNotSupported(
                f"Siconos module `{fullname}` is not supported by Saltus's Siconos compatibility layer "
                "(see python/README.md, 'Running Siconos scripts')",
                name=fullname,
            )
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(tname), is_package=True)
        spec.submodule_search_locations = []
        return spec


_finder: Optional[SiconosFinder] = None


def install() -> None:
    """Makes ``import siconos...`` resolve to Saltus in this process. Raises ``RuntimeError``
    if the real Siconos is already imported here (the two cannot share ``sys.modules``)."""
    global _finder
    if _finder is not None:
        return
    mod = sys.modules.get(_PREFIX)
    if mod is not None and not hasattr(mod, "__saltus_target__"):
        raise RuntimeError(
            f"the real Siconos is already imported in this process ({getattr(mod, '__file__', '?')}): "
            "call saltus.siconos.install() before any `import siconos`"
        )
    _finder = SiconosFinder()
    sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    """Removes the hook and forgets the ``siconos`` modules it created."""
    global _finder
    if _finder is None:
        return
    try:
        sys.meta_path.remove(_finder)
    except ValueError:
        pass
    _finder = None
    for name in [n for n in sys.modules if n == _PREFIX or n.startswith(_PREFIX + ".")]:
        if hasattr(sys.modules[name], "__saltus_target__"):
            del sys.modules[name]


def installed() -> bool:
    """Whether the hook is active in this process."""
    return _finder is not None
