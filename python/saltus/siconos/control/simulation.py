"""``siconos.control.simulation`` on Saltus: ``ControlZOHSimulation`` run by Saltus's control
toolbox (see :mod:`._zoh`); ``ControlLsodarSimulation`` and ``ControlManager`` (controls on a
user-built ``TimeStepping``) raise ``SiconosFeatureNotSupported``."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.control._zoh import ControlZOHSimulation  # noqa: F401

__getattr__ = module_getattr(
    "siconos.control.simulation",
    {"ControlManager": "controls on a user-built TimeStepping; use ControlZOHSimulation"},
)
