"""``siconos.mechanics``: a package of the Siconos compatibility layer (see ``saltus.siconos``).

Its subpackages ``joints`` and ``collision`` are reachable as attributes without their own
import, as in a Siconos script that imported ``siconos.io.mechanics_run`` (which imports them):
``import siconos.mechanics as Mechanics; Mechanics.joints.cast_NewtonEulerJointR(...)``."""

import importlib

from saltus.siconos._unsupported import module_getattr

_missing = module_getattr("siconos.mechanics")


def __getattr__(name: str):
    if name in ("joints", "collision"):
        return importlib.import_module(f"{__name__}.{name}")
    return _missing(name)
