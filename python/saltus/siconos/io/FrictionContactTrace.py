"""``siconos.io.FrictionContactTrace`` on Saltus: ``FrictionContactTraceParams`` is accepted as a
record, but a run with a trace (FCLib dumps of the friction-contact problems) is refused by
``MechanicsHdf5Runner.run`` (not written, never silently skipped)."""

from saltus.siconos._unsupported import module_getattr


class FrictionContactTraceParams:
    """Siconos's trace parameters (``dump_itermax``, ``dump_probability``, ``fileName``, ...)."""

    def __init__(self, dump_itermax=10, dump_probability=None, fileName="filename", title="title",
                 description="description", mathInfo="mathInfo"):
        self.dump_itermax = dump_itermax
        self.dump_probability = dump_probability
        self.fileName = fileName
        self.title = title
        self.description = description
        self.mathInfo = mathInfo


__getattr__ = module_getattr("siconos.io.FrictionContactTrace")
