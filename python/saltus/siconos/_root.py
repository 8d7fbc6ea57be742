"""``siconos`` (the root package) on Saltus: the version and build flags of Siconos 4.4 as
scripts read them."""

from ._unsupported import module_getattr

version = "4.4.0"
__version__ = version
__all__ = []

# build options of the Siconos package, as Saltus provides them
WITH_BULLET = False  # collision detection is Saltus's own (parry3d), not Bullet
WITH_OCE = False
WITH_HDF5 = True  # h5py
WITH_FCLIB = False
WITH_MUMPS = False
WITH_UMFPACK = False
WITH_SUPERLU = False
WITH_SERIALIZATION = False
WITH_OPENMP = False
WITH_PATHFERRIS = False
WITH_FORTRAN = False
WITH_QL0001 = False

__getattr__ = module_getattr("siconos")
