"""Type stubs of the compiled core ``saltus._saltus`` (use the ``saltus`` package)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, PathLike]
_F64 = npt.NDArray[np.float64]

__version__: str

class SaltusError(Exception): ...
class ModelError(SaltusError): ...
class SimulationError(SaltusError): ...
class NumericsError(SaltusError): ...
class OutputError(SaltusError): ...

class CoreSimulation:
    """A built model and its simulation."""

    @staticmethod
    def load(path: _Path, plugin_dirs: Optional[Sequence[_Path]] = None) -> CoreSimulation: ...
    @staticmethod
    def from_xml(
        text: str,
        file: _Path,
        plugin_dirs: Optional[Sequence[_Path]] = None,
        host: Optional[Dict[str, Dict[str, Callable[..., object]]]] = None,
        hide_positions: bool = False,
    ) -> CoreSimulation:
        """``host``: Python callables by kind, ``{"time": {name: f(t)}, "time_mat": {name: A(t)},
        "pair_vec": {name: f(t, a, b)}, "pair_mat": {name: J(t, a, b)}, "state_vec": {name: f(t, x)},
        "state_mat": {name: J(t, x)}}``, found by the model's ``library=":host" function=name``."""
        ...
    @property
    def t0(self) -> float: ...
    @property
    def t_end(self) -> float: ...
    @property
    def h(self) -> float: ...
    @property
    def steps(self) -> int: ...
    @property
    def every(self) -> Optional[int]: ...
    @property
    def event_driven(self) -> bool: ...
    @property
    def k(self) -> int: ...
    @property
    def t(self) -> float: ...
    def describe(self) -> str: ...
    def columns(self) -> List[str]: ...
    def ds_names(self) -> List[str]: ...
    def interaction_names(self) -> List[str]: ...
    def has_next_event(self) -> bool: ...
    def compute_one_step(self) -> None: ...
    def user_events(self) -> list[dict[str, Any]]: ...
    def state(self, ds: int) -> _F64: ...
    def velocity(self, ds: int) -> Optional[_F64]: ...
    def y(self, inter: int, level: int) -> Optional[_F64]: ...
    def lambda_(self, inter: int, level: int) -> Optional[_F64]: ...
    def view(self, what: str, index: int, level: int = 0) -> Optional[_F64]: ...
    def run(
        self,
        record: Optional[Sequence[str]] = None,
        every: Optional[int] = None,
        strict: bool = False,
        interruptible: bool = False,
    ) -> Dict[str, _F64]: ...
    def run_to_file(self, out: _Path, every: Optional[int] = None, strict: bool = False) -> Dict[str, float]: ...
    def summary(self) -> Optional[Dict[str, float]]: ...

class CoreModelRun:
    """A ``<Mechanics>``, ``<Control>`` or ``<NullSpace>`` model file and its simulation (from
    ``load_model``; ``from_xml`` for a ``<NullSpace>`` model built from Python)."""

    @staticmethod
    def from_xml(
        text: str, file: _Path, plugin_dirs: Optional[Sequence[_Path]] = None, host: Optional[Dict[str, Any]] = None
    ) -> "CoreModelRun": ...
    @property
    def kind(self) -> str:
        """``"mechanics"``, ``"control"`` or ``"nullspace"``."""
        ...
    @property
    def t0(self) -> float: ...
    @property
    def t_end(self) -> float: ...
    @property
    def h(self) -> float: ...
    @property
    def steps(self) -> int: ...
    @property
    def every(self) -> Optional[int]: ...
    def columns(self) -> List[str]: ...
    def run(
        self,
        record: Optional[Sequence[str]] = None,
        every: Optional[int] = None,
        strict: bool = False,
        interruptible: bool = False,
    ) -> Dict[str, _F64]:
        """From t0 to T on every call, the GIL released; the columns of the CSV of ``saltus run``."""
        ...
    def summary(self) -> Optional[Dict[str, float]]: ...

def load_model(path: _Path, plugin_dirs: Optional[Sequence[_Path]] = None) -> Union[CoreSimulation, CoreModelRun]:
    """A ``CoreSimulation`` for a kernel model (``<NSDS>``), a ``CoreModelRun`` for ``<Mechanics>``/``<Control>``."""
    ...

def write_csv(path: _Path, columns: Sequence[str], data: Dict[str, _F64]) -> None: ...
def check_xml(text: str, file: Optional[_Path] = None) -> None: ...

class Problem:
    """A nonsmooth problem (lcp, mlcp, relay, qp, fc2d, fc3d, gfc3d)."""

    @property
    def kind(self) -> str: ...
    @property
    def size(self) -> int: ...
    def solvers(self) -> List[str]: ...
    def solve(self, solver: str, tol: float = 1e-8, max_iter: int = 1000) -> Tuple[Dict[str, _F64], Dict[str, object]]: ...

def lcp_problem(m: _F64, q: _F64) -> Problem: ...
def mlcp_problem(m: _F64, q: _F64, n_eq: int) -> Problem: ...
def relay_problem(m: _F64, q: _F64, lb: _F64, ub: _F64) -> Problem: ...
def fc_problem(dim: int, w: _F64, q: _F64, mu: _F64) -> Problem: ...
def fc_problem_sparse(
    dim: int, n: int, rows: Sequence[int], cols: Sequence[int], vals: Sequence[float], q: _F64, mu: _F64
) -> Problem: ...
def gfc_problem(
    dim: int,
    m_shape: Tuple[int, int],
    m_rows: Sequence[int],
    m_cols: Sequence[int],
    m_vals: Sequence[float],
    h_shape: Tuple[int, int],
    h_rows: Sequence[int],
    h_cols: Sequence[int],
    h_vals: Sequence[float],
    q: _F64,
    b: _F64,
    mu: _F64,
) -> Problem: ...
def qp_solve(
    q: _F64, p: _F64, a: _F64, b: _F64, aeq: _F64, beq: _F64, tol: float = 1e-8, max_iter: int = 1000
) -> Tuple[Dict[str, _F64], Dict[str, object]]: ...
def read(path: _Path, kind: Optional[str] = None) -> Problem: ...
def integrate(
    f: Callable[[float, _F64], Sequence[float]],
    y0: Sequence[float],
    t_eval: Sequence[float],
    roots: Optional[Callable[[float, _F64], Sequence[float]]] = None,
    n_roots: int = 0,
    directions: Optional[Sequence[int]] = None,
    rtol: float = 1e-6,
    atol: float = 1e-12,
    method: str = "lsoda",
    terminal: bool = True,
) -> Dict[str, object]: ...
def cp_solve(
    kind: str,
    f: Union[Callable[[_F64], Sequence[float]], str],
    z0: Sequence[float],
    jacobian: Optional[Union[Callable[[_F64], _F64], str]] = None,
    n1: int = 0,
    lb: Optional[Sequence[float]] = None,
    ub: Optional[Sequence[float]] = None,
    projection: Optional[Callable[[_F64], Sequence[float]]] = None,
    center: Optional[Sequence[float]] = None,
    radius: Optional[float] = None,
    solver: str = "newton-fb",
    tol: Optional[float] = None,
    max_iter: Optional[int] = None,
    library: Optional[str] = None,
    params: Optional[Sequence[float]] = None,
    plugin_dirs: Optional[Sequence[str]] = None,
) -> Tuple[_F64, _F64, Dict[str, object]]: ...

class CoreMechanicsModel:
    """A rigid-body scene being built (use ``saltus.mechanics.Scene``)."""

    def __init__(self, gravity: Sequence[float], margin: float) -> None: ...
    def set_law(self, g1: int, g2: int, e: float, mu: float) -> None: ...
    def add_body(
        self,
        name: str,
        kind: str,
        shapes: Sequence[Tuple[str, Sequence[float], Sequence[float]]],
        position: Sequence[float],
        orientation: Sequence[float],
        velocity: Sequence[float],
        angular_velocity: Sequence[float],
        group: int = 0,
        mass: Optional[float] = None,
        inertia: Optional[Sequence[float]] = None,
        density: Optional[float] = None,
        birth: Optional[float] = None,
        death: Optional[float] = None,
    ) -> int: ...
    def add_joint(
        self,
        name: str,
        body1: str,
        body2: Optional[str] = None,
        joint_class: str = "PivotJointR",
        point: Optional[List[float]] = None,
        axis: Optional[List[float]] = None,
        allow_self_collide: bool = False,
    ) -> int: ...
    def add_joint_stop(
        self, joint: int, dof: int, lower: Optional[float] = None, upper: Optional[float] = None, e: float = 0.0
    ) -> int: ...
    def n_bodies(self) -> int: ...
    def set_external_force(self, name: str, force: Sequence[float], torque: Sequence[float]) -> None: ...
    def set_force_function(
        self,
        name: str,
        function: Optional[Any] = None,
        library: Optional[str] = None,
        symbol: Optional[str] = None,
        params: Sequence[float] = (),
        plugin_dirs: Sequence[str] = (),
    ) -> None: ...
    def set_boundary_condition(
        self,
        name: str,
        indices: Sequence[int],
        bc_class: str = "FixedBC",
        v: Optional[Sequence[float]] = None,
        a: Optional[Sequence[float]] = None,
        b: Optional[Sequence[float]] = None,
        omega: Optional[Sequence[float]] = None,
        phi: Optional[Sequence[float]] = None,
        function: Optional[Any] = None,
    ) -> None: ...
    def simulation(
        self,
        h: float,
        t0: float = 0.0,
        theta: float = 0.5,
        tol: float = 1e-6,
        max_iter: int = 1000,
        projection_tol: Optional[float] = None,
        activation_threshold: Optional[float] = None,
        global_solver: Optional[str] = None,
    ) -> CoreMechanicsSimulation: ...

class CoreMechanicsSimulation:
    """A running rigid-body simulation (use ``saltus.mechanics.MechanicsSimulation``)."""

    @property
    def t(self) -> float: ...
    @property
    def h(self) -> float: ...
    @property
    def n_bodies(self) -> int: ...
    def body_names(self) -> List[str]: ...
    def masses(self) -> _F64: ...
    def kinetic_energy(self) -> float: ...
    def set_external_force(self, i: int, force: Sequence[float], torque: Sequence[float]) -> None: ...
    def state(self, i: int) -> Dict[str, _F64]: ...
    def step(self) -> Dict[str, Any]: ...
    def run(self, t_end: float, record_every: int = 1) -> Dict[str, Any]: ...

def spheres_in_a_box(n: int, seed: int) -> Tuple[CoreMechanicsSimulation, float]: ...
def read_mesh(path: str, scale: float = ...) -> Tuple[np.ndarray, np.ndarray]: ...
