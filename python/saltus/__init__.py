"""Saltus from Python: nonsmooth dynamics (impacts, contact, friction, diodes) with the
vocabulary of Siconos, runs recorded into numpy, the numerics solvers, and parameter sweeps on
Dask.

Quick start (the bouncing ball)::

    import numpy as np, saltus as sk
    ball = sk.LagrangianLinearTIDS([1, 0, 0], [0, 0, 0], np.diag([1, 1, 0.004]), name="ball")
    ball.setFExtPtr([-9.81, 0, 0])
    nsds = sk.NonSmoothDynamicalSystem(0, 10)
    nsds.insert_dynamical_system(ball)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR([[1, 0, 0]]), name="floor"), ball)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0, 0.005), sk.MoreauJeanOSI(0.5), sk.LCP())
    out = sim.run()            # {"t": ..., "ball.q[0]": ..., "floor.lambda[0]": ...}

``saltus.load("model.xml")`` runs the model files of ``saltus run``; ``saltus.to_xml(nsds, sim)``
writes one. Errors are ``SaltusError`` subclasses (``ModelError``, ``SimulationError``,
``NumericsError``, ``OutputError``).
"""

from . import _saltus
from ._saltus import ModelError, NumericsError, OutputError, SaltusError, SimulationError
from .model import (
    ComplementarityConditionNSL,
    DynamicalSystem,
    EqualityConditionNSL,
    FirstOrderLinearDS,
    FirstOrderLinearTIDS,
    FirstOrderLinearR,
    FirstOrderLinearTIR,
    FirstOrderNonLinearDS,
    FirstOrderNonLinearR,
    FirstOrderType1R,
    FirstOrderType2R,
    Interaction,
    LagrangianCompliantLinearTIR,
    LagrangianCompliantR,
    LagrangianDS,
    LagrangianLinearTIDS,
    NewtonEulerDS,
    LagrangianLinearTIR,
    LagrangianRheonomousR,
    LagrangianScleronomousR,
    MixedComplementarityConditionNSL,
    NewtonImpactFrictionNSL,
    NewtonImpactNSL,
    NonSmoothDynamicalSystem,
    NonSmoothLaw,
    NormalConeNSL,
    Relation,
    RelayNSL,
)
from .simulation import (
    AVI,
    LCP,
    MLCP,
    Equality,
    EulerMoreauOSI,
    EventDriven,
    FileRunSimulation,
    FrictionContact,
    GenericMechanical,
    GlobalFrictionContact,
    LsodarOSI,
    ModelSimulation,
    MoreauJeanGOSI,
    MoreauJeanOSI,
    NullSpace,
    NullSpaceBasis,
    OneStepIntegrator,
    OneStepNSProblem,
    Relay,
    SemiExplicitEuler,
    MoreauJeanBilbaoOSI,
    ZeroOrderHoldOSI,
    Simulation,
    TimeDiscretisation,
    TimeStepping,
    TimeSteppingDirectProjection,
    load,
    to_xml,
)
from . import mechanics, numerics, ode, sweep as _sweep_module

sweep = _sweep_module.sweep
grid = _sweep_module.grid

__version__ = _saltus.__version__


def write_csv(path, result, columns=None) -> None:
    """Writes ``result`` (a dict of 1-D arrays from ``run``) as ``saltus run`` writes its CSV:
    same header and number format (shortest round-trip decimals, ``0`` for ±0)."""
    import os

    cols = list(result) if columns is None else list(columns)
    _saltus.write_csv(os.fspath(path), cols, {c: result[c] for c in cols})


__all__ = [
    "SaltusError", "ModelError", "SimulationError", "NumericsError", "OutputError",
    "DynamicalSystem", "LagrangianLinearTIDS", "NewtonEulerDS", "LagrangianDS", "FirstOrderLinearTIDS", "FirstOrderLinearDS",
    "FirstOrderNonLinearDS", "FirstOrderType1R", "FirstOrderType2R", "FirstOrderNonLinearR",
    "Relation", "LagrangianLinearTIR", "LagrangianCompliantLinearTIR", "LagrangianCompliantR", "LagrangianScleronomousR", "LagrangianRheonomousR", "FirstOrderLinearTIR", "FirstOrderLinearR",
    "NonSmoothLaw", "NewtonImpactNSL", "NewtonImpactFrictionNSL", "RelayNSL", "NormalConeNSL", "ComplementarityConditionNSL",
    "EqualityConditionNSL", "MixedComplementarityConditionNSL",
    "Interaction", "NonSmoothDynamicalSystem",
    "OneStepIntegrator", "MoreauJeanOSI", "MoreauJeanGOSI", "EulerMoreauOSI", "SemiExplicitEuler", "MoreauJeanBilbaoOSI", "ZeroOrderHoldOSI", "LsodarOSI",
    "OneStepNSProblem", "LCP", "MLCP", "Relay", "AVI", "Equality", "FrictionContact", "GlobalFrictionContact", "GenericMechanical",
    "TimeDiscretisation", "Simulation", "TimeStepping", "TimeSteppingDirectProjection", "EventDriven",
    "NullSpace", "NullSpaceBasis",
    "ModelSimulation", "FileRunSimulation", "load", "to_xml", "write_csv", "mechanics", "numerics", "ode", "sweep", "grid",
]
