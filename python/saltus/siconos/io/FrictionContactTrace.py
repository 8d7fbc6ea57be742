"""``siconos.io.FrictionContactTrace`` on Saltus: ``MechanicsHdf5Runner.run(friction_contact_trace_params=...)``
dumps the friction-contact problems of chosen steps to FCLib files (written with h5py), each
with the warm start it was solved from (``/guesses/1``) and its solution (``/solution``).

A step's problem is dumped when its solver took at least ``dump_itermax`` iterations and, with
``dump_probability`` p, when ``random.random() > 1 − p`` (Siconos's conditions; Siconos's local
trace tests the iterations of the previous solve, before solving, Saltus those of the dumped
problem itself). File names as Siconos's: ``FILE-iITERS-NC-K.hdf5`` (local problems, ``ITERS``
padded to the width of the solver's iteration cap) and ``FILE-ndof-N-nc-NC-K.hdf5`` (global,
``MoreauJeanGOSI``), ``K`` counting the dumps; a missing folder of ``FILE`` is created. Steps
solved with rolling friction or joints are other problems and are not dumped."""

from __future__ import annotations

import os
import random

import numpy as np

from saltus.siconos._unsupported import module_getattr


class FrictionContactTraceParams:
    """Siconos's trace parameters (``dump_itermax``, ``dump_probability``, ``fileName``, ...)."""

    def __init__(self, dump_itermax=10, dump_probability=None, fileName="filename", title="title",
                 description="description", mathInfo="mathInfo"):
        self._dump_itermax = dump_itermax
        self._dump_probability = dump_probability
        self._fileName = fileName
        self._title = title
        self._description = description
        self._mathInfo = mathInfo

    def display(self) -> None:
        print("title", self._title)


GlobalFrictionContactTraceParams = FrictionContactTraceParams


def _sparse(d):
    import scipy.sparse as sp

    return sp.coo_matrix((d["values"], (d["rows"], d["cols"])), shape=tuple(d["shape"])).tocsr()


class Tracer:
    """Dumps the captured problems of a running :class:`saltus.mechanics.MechanicsSimulation`."""

    def __init__(self, params: FrictionContactTraceParams, solver_max_iter: int):
        self.params, self.width, self.counter = params, len(str(int(solver_max_iter))), 0
        self.files = []

    def _due(self, iterations: int) -> bool:
        p = self.params
        if p._dump_itermax is not None and iterations < int(p._dump_itermax):
            return False
        return p._dump_probability is None or random.random() > 1.0 - float(p._dump_probability)

    def after_step(self, sim) -> None:
        from saltus.siconos import numerics as sn

        c = sim.captured()
        if c is None or not self._due(int(c["iterations"])):
            return
        p, nc = self.params, len(c["mu"])
        if c["kind"] == "local":
            W = _sparse(c["W"])
            problem = sn.FrictionContactProblem(int(c["dim"]), W, c["q"], c["mu"])
            name = f"{p._fileName}-i{int(c['iterations']):0{self.width}d}-{nc}-{self.counter}.hdf5"
            u0 = W @ c["r0"] + c["q"]
            guess, solution = dict(r=c["r0"], u=u0), dict(r=c["r"], u=c["u"])
        else:
            import scipy.sparse.linalg as spla

            M, H = _sparse(c["M"]), _sparse(c["H"])
            problem = sn.GlobalFrictionContactProblem(int(c["dim"]), M, H, c["q"], c["b"], c["mu"])
            name = f"{p._fileName}-ndof-{len(c['q'])}-nc-{nc}-{self.counter}.hdf5"
            v0 = np.atleast_1d(spla.spsolve(M.tocsc(), H @ c["r0"] + c["q"]))
            guess = dict(r=c["r0"], u=H.T @ v0 + c["b"], v=v0)
            solution = dict(r=c["r"], u=c["u"], v=c["v"])
        folder = os.path.dirname(name)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if c["kind"] == "local":
            sn.frictionContact_fclib_write(problem, p._title, p._description, p._mathInfo, name, -1)
        else:
            sn.globalFrictionContact_fclib_write(problem, p._title, p._description, p._mathInfo, name)
        sn.fclib_write_solutions(name, solution, [guess])
        self.counter += 1
        self.files.append(name)


__getattr__ = module_getattr("siconos.io.FrictionContactTrace")
