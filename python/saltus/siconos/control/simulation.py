"""``siconos.control.simulation`` on Saltus: ``ControlZOHSimulation``, ``ControlLsodarSimulation``
and ``ControlManager`` (controls on a user-built ``TimeStepping`` or ``EventDriven``) run by
Saltus's control toolbox (see :mod:`._zoh`)."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.control._zoh import ControlLsodarSimulation, ControlManager, ControlZOHSimulation  # noqa: F401

__getattr__ = module_getattr("siconos.control.simulation", {})
