"""``siconos.control.observer`` on Saltus: not provided yet. Saltus's control toolbox (the ``control`` crate,
``<Control>`` model files run by ``saltus.load``) has no Python classes with Siconos's names;
every name of this module raises ``SiconosFeatureNotSupported``."""

from saltus.siconos._unsupported import module_getattr

__getattr__ = module_getattr("siconos.control.observer")
