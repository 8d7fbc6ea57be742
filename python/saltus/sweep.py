"""Parameter studies on a Dask cluster (``dask.distributed``).

Each task builds one simulation from its parameters (the ``build`` function, run on the
worker), runs it to the end in Rust with the GIL released, reduces the recorded columns to a
few numbers, and sends back one row; the rows are gathered into one table (a pandas
``DataFrame``, or a numpy structured array when pandas is absent).

Where it runs:

* nothing given: a ``LocalCluster`` of ``n_workers`` processes on this machine (one thread each:
  a task is one whole simulation);
* ``scheduler="tcp://host:8786"``: an existing cluster (``dask scheduler`` + ``dask worker``
  started by hand or over SSH with ``dask-ssh``/``distributed.SSHCluster``, on Kubernetes with
  ``dask-kubernetes``, or on a batch queue with ``dask-jobqueue``: ``SLURMCluster``,
  ``PBSCluster``, ...). The workers need ``saltus`` installed (``pip install ./python``) and,
  for plugin models, the plugin libraries at the same path;
* ``client=``: a ``distributed.Client`` you already hold (e.g. ``Client(SLURMCluster(...))``).

``build`` and ``reduce`` are pickled to the workers (cloudpickle): define them at module level
or as closures over picklable values.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

import numpy as np

__all__ = ["sweep", "grid", "final_values"]


def grid(**axes: Iterable[Any]) -> List[Dict[str, Any]]:
    """The cartesian product of the axes: ``grid(e=[0.5, 0.9], h=[1e-3, 5e-3])`` gives 4 dicts."""
    names = list(axes)
    return [dict(zip(names, values)) for values in itertools.product(*(list(axes[n]) for n in names))]


def final_values(result: Mapping[str, np.ndarray]) -> Dict[str, float]:
    """Default reduction: the last value of every recorded column, plus the number of rows."""
    out = {name: float(col[-1]) for name, col in result.items() if len(col)}
    out["rows"] = float(len(next(iter(result.values())))) if result else 0.0
    return out


def _task(build, params, record, reduce):
    sim = build(**params)
    result = sim.run(record=record)
    row = dict(params)
    row.update(reduce(result))
    return row


def sweep(
    build: Callable[..., Any],
    parameters: Union[Sequence[Mapping[str, Any]], Mapping[str, Iterable[Any]]],
    record: Optional[Sequence[str]] = None,
    reduce: Callable[[Mapping[str, np.ndarray]], Mapping[str, float]] = final_values,
    scheduler: Optional[str] = None,
    client: Any = None,
    n_workers: int = 2,
    as_pandas: bool = True,
):
    """Runs ``build(**p).run(record=record)`` for every parameter set ``p`` on a Dask cluster and
    returns one row per set: the parameters, then ``reduce(result)``.

    ``parameters``: a list of dicts, or a dict of axes (their cartesian product, see
    :func:`grid`). ``build(**p)`` returns a simulation (``saltus.TimeStepping``,
    ``saltus.load(...)``, ...). Rows come back in the order of ``parameters``.
    """
    from distributed import Client, LocalCluster

    sets = grid(**parameters) if isinstance(parameters, Mapping) else [dict(p) for p in parameters]
    if not sets:
        raise ValueError("sweep: no parameter set")
    rec = None if record is None else list(record)
    own_client = own_cluster = None
    if client is None:
        if scheduler is None:
            own_cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None)
            own_client = client = Client(own_cluster)
        else:
            own_client = client = Client(scheduler)
    try:
        futures = [client.submit(_task, build, p, rec, reduce, pure=False) for p in sets]
        rows = client.gather(futures)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
    return _table(rows, as_pandas)


def _table(rows: List[Dict[str, Any]], as_pandas: bool):
    if as_pandas:
        try:
            import pandas as pd

            return pd.DataFrame(rows)
        except ImportError:
            pass
    names = list(rows[0])
    dtype = [(n, np.float64) for n in names]
    return np.array([tuple(float(r[n]) for n in names) for r in rows], dtype=dtype)
