"""``siconos.mechanics.collision``: a package of the Siconos compatibility layer (see ``saltus.siconos``)."""

from saltus.siconos._unsupported import module_getattr

# Siconos's mechanics_run imports the Bullet module, so scripts reach
# ``siconos.mechanics.collision.bullet.SiconosBulletOptions`` as an attribute after
# ``import siconos`` (n_cubes_directproj.py); here it is the options record
from . import bullet  # noqa: F401,E402

from ._bodies import (  # noqa: E402,F401
    RigidBodyDS,
    SiconosBox,
    SiconosCapsule,
    SiconosContactor,
    SiconosContactorSet,
    SiconosCylinder,
    SiconosPlane,
    SiconosSphere,
)

__getattr__ = module_getattr("siconos.mechanics.collision")
