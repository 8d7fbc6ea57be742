"""Runs one Siconos tutorial for ``siconos_census.py`` and keeps its numeric results.

    python _census_runner.py saltus|siconos SCRIPT.py DUMP.npz

``saltus``: as ``python -m saltus.siconos SCRIPT.py`` (the hook installed, the script's folder
first on ``sys.path``, ``__name__ == "__main__"``); ``siconos``: as ``python SCRIPT.py`` with
the real Siconos. Afterwards, also when the script raised, its numeric numpy arrays (globals, up
to 10⁷ entries each) are saved to ``DUMP.npz`` for the comparison of the two runs (``numpy.empty``
allocates zeros on both sides, so rows a script never writes compare equal), and the
script's wall time (numpy, scipy, matplotlib, h5py and the ``siconos`` modules imported before
the clock starts) to ``DUMP.npz.seconds``.
"""

import os
import sys
import time


def main() -> None:
    side, script, dump = sys.argv[1], sys.argv[2], sys.argv[3]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    sys.argv = [script]
    if side == "saltus":
        import saltus.siconos as compat

        compat.install()  # what `python -m saltus.siconos` does before running the script
    # the heavy libraries both sides share are loaded before the clock starts
    for mod in ("numpy", "scipy.linalg", "matplotlib.pyplot", "h5py", "siconos.kernel", "siconos.numerics"):
        try:
            __import__(mod)
        except Exception:  # noqa: BLE001 (a missing library is the script's business)
            pass
    # uninitialised memory would make the two runs' arrays differ where the script never wrote
    # (`dataPlot = empty((N + 1, m))` filled up to row N - 1): allocate zeros on both sides
    import numpy as np

    np.empty = np.zeros
    # run as `runpy.run_path(script, run_name="__main__")`, keeping the globals when it raises
    g = {"__name__": "__main__", "__file__": script, "__builtins__": __builtins__}
    with open(script, "rb") as f:
        code = compile(f.read(), script, "exec")
    t0 = time.perf_counter()
    try:
        exec(code, g)
    finally:
        with open(dump + ".seconds", "w") as f:
            f.write(repr(time.perf_counter() - t0))
        save(g, dump)


def save(g, dump) -> None:
    import numpy as np

    arrays = {}
    for k, v in g.items():
        if k.startswith("_") or not isinstance(v, np.ndarray):
            continue
        if v.dtype.kind in "fi" and 0 < v.size <= 10_000_000:
            arrays[k] = v
    arrays.update(final_positions())
    np.savez(dump, **arrays)


def final_positions() -> dict:
    """``h5_<file>``: the rows ``t, id, x, y, z, qw, qx, qy, qz`` of ``data/dynamic`` at the last
    output time of every mechanics HDF5 file the script left in the working directory, sorted
    by object id."""
    import glob

    import numpy as np

    out = {}
    try:
        import h5py
    except ImportError:
        return out
    for path in sorted(glob.glob("*.hdf5")):
        try:
            with h5py.File(path, "r") as f:
                d = f["data"]["dynamic"][:]
        except (KeyError, OSError):
            continue
        if d.size == 0:
            continue
        last = d[d[:, 0] == d[:, 0].max()]
        out["h5_" + os.path.splitext(path)[0]] = last[np.argsort(last[:, 1])].astype(float)
    return out


if __name__ == "__main__":
    main()
