"""``siconos.control.simulation`` on Saltus: ``ControlZOHSimulation`` and ``ControlManager``
(controls on a user-built ``TimeStepping``) run by Saltus's control toolbox (see :mod:`._zoh`);
``ControlLsodarSimulation`` raises ``SiconosFeatureNotSupported``."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.control._zoh import ControlManager, ControlZOHSimulation  # noqa: F401

__getattr__ = module_getattr("siconos.control.simulation", {})
