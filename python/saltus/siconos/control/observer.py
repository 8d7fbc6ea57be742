"""``siconos.control.observer`` on Saltus: ``LuenbergerObserver`` (see :mod:`._zoh`)."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.control._zoh import LuenbergerObserver  # noqa: F401

__getattr__ = module_getattr("siconos.control.observer")
