"""Naming what Saltus does not support: every Siconos name that the compatibility layer does
not provide raises :class:`SiconosFeatureNotSupported` (a ``NotImplementedError``) saying which
Siconos feature it is, at the point of use."""

from __future__ import annotations

from typing import Callable

from ._hook import SiconosFeatureNotSupported


def unsupported(feature: str, why: str = "") -> Callable:
    """A stand-in for the Siconos callable ``feature``: calling it raises
    :class:`SiconosFeatureNotSupported` naming ``feature`` (and ``why``)."""

    def stub(*args, **kwargs):
        raise SiconosFeatureNotSupported(_message(feature, why), name=feature)

    stub.__name__ = feature.rsplit(".", 1)[-1]
    stub.__qualname__ = stub.__name__
    stub.__doc__ = f"Not supported by Saltus: {feature}. {why}".strip()
    return stub


def _message(feature: str, why: str = "") -> str:
    msg = f"Siconos feature `{feature}` is not supported by Saltus"
    return f"{msg}: {why}" if why else msg


def raise_unsupported(feature: str, why: str = ""):
    """Raises :class:`SiconosFeatureNotSupported` for ``feature``."""
    raise SiconosFeatureNotSupported(_message(feature, why), name=feature)


def module_getattr(module: str, notes=None) -> Callable[[str], object]:
    """A module-level ``__getattr__`` for the Siconos module ``module``: a missing public name
    raises :class:`SiconosFeatureNotSupported` naming ``module.name`` (``notes`` may say why for
    some names); private and dunder names raise ``AttributeError`` as usual."""
    notes = dict(notes or {})

    def __getattr__(name: str):
        if name.startswith("_"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        raise SiconosFeatureNotSupported(_message(f"{module}.{name}", notes.get(name, "")), name=f"{module}.{name}")

    return __getattr__
