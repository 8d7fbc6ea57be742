"""``siconos.io.mechanics_hdf5`` on Saltus: ``MechanicsHdf5``, the scene file without the run
(the scene-writing half of :class:`siconos.io.mechanics_run.MechanicsHdf5Runner`)."""

from saltus.siconos._unsupported import module_getattr, raise_unsupported
from saltus.siconos.io.mechanics_run import MechanicsHdf5Runner as _Runner
from saltus.siconos.mechanics.collision.tools import quaternion_get  # noqa: F401 (Siconos exports it)


class MechanicsHdf5(_Runner):
    """Siconos ``MechanicsHdf5(io_filename=None, mode='w', ...)``: writes and reads the scene."""

    def __init__(self, io_filename=None, mode="w", io_filename_backup=None, use_compression=False,
                 output_domains=False, verbose=True):
        super().__init__(io_filename=io_filename, mode=mode, use_compression=use_compression,
                         output_domains=output_domains, verbose=verbose)

    def run(self, *a, **k):
        raise_unsupported("MechanicsHdf5.run", "use MechanicsHdf5Runner")


__getattr__ = module_getattr("siconos.io.mechanics_hdf5")
