"""``siconos.io.mechanics_hdf5`` on Saltus."""

from saltus.siconos._unsupported import module_getattr

__getattr__ = module_getattr(
    "siconos.io.mechanics_hdf5",
    {"MechanicsHdf5": "not provided yet by the compatibility layer (use saltus.mechanics.Scene)"},
)
