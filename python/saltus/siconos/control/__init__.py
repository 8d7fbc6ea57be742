"""``siconos.control``: a package of the Siconos compatibility layer (see ``saltus.siconos``)."""

from saltus.siconos._unsupported import module_getattr

__getattr__ = module_getattr("siconos.control")
