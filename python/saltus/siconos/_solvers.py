"""Siconos solver ids -> Saltus solvers, by problem family: the numerics driver name
(``saltus solvers``) and the kernel's model-file element. Ids absent here raise
``SiconosFeatureNotSupported`` naming the Siconos solver."""

from __future__ import annotations

from typing import Dict, Tuple

from ._constants import INTS, SOLVER_DEFAULTS, STRS
from ._unsupported import raise_unsupported

# Siconos name -> (family, driver solver name, kernel model-file element or None)
_TABLE: Dict[str, Tuple[str, str, object]] = {
    "SICONOS_LCP_LEMKE": ("lcp", "lemke", "Lemke"),
    "SICONOS_LCP_PGS": ("lcp", "pgs", "Pgs"),
    "SICONOS_LCP_PSOR": ("lcp", "psor", "Psor"),
    "SICONOS_LCP_NEWTONMIN": ("lcp", "newton-min", "NewtonMin"),
    "SICONOS_LCP_NEWTON_FB_FBLSA": ("lcp", "newton-fb", "NewtonFB"),
    "SICONOS_LCP_ENUM": ("lcp", "enum", "Enum"),
    "SICONOS_LCP_QP": ("lcp", "qp", "Qp"),
    "SICONOS_MLCP_ENUM": ("mlcp", "enum", "Enum"),
    "SICONOS_MLCP_PGS": ("mlcp", "pgs", "Pgs"),
    "SICONOS_MLCP_FB": ("mlcp", "newton-fb", "NewtonFB"),
    "SICONOS_MLCP_LCP_LEMKE": ("mlcp", "lemke", "Lemke"),
    "SICONOS_RELAY_PGS": ("relay", "pgs", "Pgs"),
    "SICONOS_RELAY_LEMKE": ("relay", "lemke", "Lemke"),
    "SICONOS_RELAY_AVI_CAOFERRIS": ("relay", "avi-caoferris", "AviCaoFerris"),
    "SICONOS_AVI_CAOFERRIS": ("avi", "avi-caoferris", "CaoFerris"),
    "SICONOS_FRICTION_2D_NSGS": ("fc2d", "nsgs", "Nsgs2d"),
    "SICONOS_FRICTION_2D_LEMKE": ("fc2d", "lemke", "Lemke2d"),
    "SICONOS_FRICTION_3D_NSGS": ("fc3d", "nsgs-ac", "NsgsAc"),
    "SICONOS_FRICTION_3D_PROX": ("fc3d", "prox", "Prox"),
    "SICONOS_FRICTION_3D_NSN_AC": ("fc3d", "newton-ac", "NewtonAc"),
    "SICONOS_FRICTION_3D_VI_FPP": ("fc3d", "vi-fp", "ViFp"),
    "SICONOS_FRICTION_3D_VI_EG": ("fc3d", "vi-eg", "ViEg"),
    "SICONOS_FRICTION_3D_ADMM": ("fc3d", "admm", "Admm"),
    "SICONOS_FRICTION_3D_TFP": ("fc3d", "tfp", "Tfp"),
    "SICONOS_GLOBAL_FRICTION_3D_NSGS_WR": ("gfc3d", "gfc3d-nsgs", "NsgsWr"),
    "SICONOS_GLOBAL_FRICTION_3D_NSN_AC_WR": ("gfc3d", "gfc3d-newton", None),
    "SICONOS_GLOBAL_FRICTION_3D_PROX_WR": ("gfc3d", "gfc3d-prox", None),
    "SICONOS_GLOBAL_FRICTION_3D_NSGS": ("gfc3d", "gfc3d-nsgs-global", "Nsgs"),
    "SICONOS_GLOBAL_FRICTION_3D_ADMM_WR": ("gfc3d", "gfc3d-admm-wr", None),
    # Siconos's ADMM on the global form: Saltus solves the same problem by ADMM on its condensed
    # form (GFC3D_ADMM_WR): same solution to the tolerance, other iterates
    "SICONOS_GLOBAL_FRICTION_3D_ADMM": ("gfc3d", "gfc3d-admm-wr", None),
}

BY_ID: Dict[int, Tuple[str, str, str, object]] = {INTS[k]: (k,) + v for k, v in _TABLE.items()}
NAME_OF: Dict[int, str] = {}
for _k, _v in INTS.items():
    if _k + "_STR" in STRS:
        NAME_OF.setdefault(_v, _k)

FAMILY_DEFAULT = {
    "lcp": INTS["SICONOS_LCP_LEMKE"],
    "mlcp": INTS["SICONOS_MLCP_ENUM"],
    "relay": INTS["SICONOS_RELAY_AVI_CAOFERRIS"],
    "avi": INTS["SICONOS_AVI_CAOFERRIS"],
    "fc2d": INTS["SICONOS_FRICTION_2D_NSGS"],
    "fc3d": INTS["SICONOS_FRICTION_3D_NSGS"],
    "gfc3d": INTS["SICONOS_GLOBAL_FRICTION_3D_NSGS"],
}


def lookup(solver_id: int, family: str) -> Tuple[str, str, object]:
    """``(siconos name, driver name, kernel element)`` of ``solver_id`` for ``family``."""
    entry = BY_ID.get(int(solver_id))
    if entry is None:
        name = NAME_OF.get(int(solver_id), f"solver id {solver_id}")
        raise_unsupported(name, f"no Saltus solver for it (supported {family} solvers: {supported(family)})")
    name, fam, driver, element = entry
    if fam != family:
        raise_unsupported(f"{name} for a {family} problem", f"{name} solves {fam} problems")
    return name, driver, element


def supported(family: str) -> str:
    return ", ".join(k for k, v in _TABLE.items() if v[0] == family)


def defaults(solver_id: int) -> Tuple[Dict[int, int], Dict[int, float]]:
    """Siconos 4.4's default ``(iparam, dparam)`` entries of ``SolverOptions(solver_id)``."""
    return SOLVER_DEFAULTS.get(int(solver_id), ({0: 1000}, {0: 1e-6}))
