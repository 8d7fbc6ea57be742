"""``siconos.control.sensor`` on Saltus: ``LinearSensor`` (see :mod:`._zoh`)."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.control._zoh import LinearSensor  # noqa: F401

__getattr__ = module_getattr("siconos.control.sensor")
