"""Run Siconos 4.4 scripts unchanged on Saltus.

``python -m saltus.siconos SCRIPT.py [ARGS]`` runs a Siconos script with ``import siconos...``
resolved to Saltus; from Python, :func:`install` does the same for the rest of the process
(``import siconos.kernel as sk`` then gives :mod:`saltus.siconos.kernel`). The hook is never
active unless installed: the real Siconos stays importable in every other process.

What Saltus has carries Siconos 4.4's names, signatures, defaults and semantics (state vectors
taken before the simulation is initialised follow it, ``nextTime()``, the default solvers);
what it lacks raises :class:`SiconosFeatureNotSupported` (a ``NotImplementedError``) naming the
Siconos feature, never a silent approximation.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Optional, Sequence

from ._hook import SiconosFeatureNotSupported, install, installed, uninstall
from ._unsupported import unsupported

__all__ = ["install", "uninstall", "installed", "run_script", "SiconosFeatureNotSupported", "unsupported"]


def run_script(path: str, args: Optional[Sequence[str]] = None) -> dict:
    """Runs the Siconos script ``path`` as ``python path args...`` would, with the hook
    installed: ``sys.argv`` is ``[path, *args]``, ``__name__ == "__main__"``, the script's
    folder first on ``sys.path``, the working directory unchanged. Returns the script's globals.
    ``sys.argv`` and ``sys.path`` are restored afterwards; the hook stays installed."""
    path = os.fspath(path)
    install()
    old_argv, old_path = sys.argv, list(sys.path)
    sys.argv = [path, *(args or [])]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        return runpy.run_path(path, run_name="__main__")
    finally:
        sys.argv = old_argv
        sys.path[:] = old_path
