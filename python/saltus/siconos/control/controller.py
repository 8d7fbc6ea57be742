"""``siconos.control.controller`` on Saltus: ``LinearSMC``, ``ExplicitLinearSMC``, ``PID`` and
``ExplicitTwisting`` for a ``ControlZOHSimulation`` (see :mod:`._zoh`); the other controllers
raise ``SiconosFeatureNotSupported``."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.control._zoh import PID, ExplicitLinearSMC, ExplicitTwisting, LinearSMC, LinearSMCOT2  # noqa: F401

__getattr__ = module_getattr("siconos.control.controller")
