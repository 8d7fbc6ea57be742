"""``siconos.mechanics.collision.convexhull`` on Saltus: ``ConvexHull(points)`` with the volume,
centroid and inertia of the solid hull (unit density), computed with ``scipy.spatial``
(Siconos uses pyhull) by splitting the hull into tetrahedra from an interior point."""

import numpy as np

from saltus.siconos._unsupported import module_getattr, unsupported


class ConvexHull:
    """Siconos ``ConvexHull(coordinates)`` (at least 4 points, 3D)."""

    def __init__(self, coordinates):
        from scipy.spatial import ConvexHull as _Hull

        pts = np.asarray(coordinates, dtype=float)
        if pts.ndim != 2 or pts.shape[0] < 4 or pts.shape[1] != 3:
            raise RuntimeError("You must provide at least 4 coordinates!")
        self._coordinates = pts
        self.hull = _Hull(pts)
        inner = pts[self.hull.vertices].mean(axis=0)
        # tetrahedra (inner point, facet triangle): signed volumes are positive for a convex hull
        tri = pts[self.hull.simplices]  # (f, 3, 3)
        e = tri - inner
        self._vols = np.abs(np.einsum("ij,ij->i", e[:, 0], np.cross(e[:, 1], e[:, 2]))) / 6.0
        self._tets = np.concatenate([np.broadcast_to(inner, (len(tri), 1, 3)), tri], axis=1)  # (f, 4, 3)

    def volume(self) -> float:
        """Volume of the hull."""
        return float(self._vols.sum())

    volume_divergence_theorem = volume

    def centroid(self) -> np.ndarray:
        """Centre of volume."""
        c = self._tets.mean(axis=1)
        return (self._vols[:, None] * c).sum(axis=0) / self._vols.sum()

    def barycenter(self) -> np.ndarray:
        """Mean of the given points."""
        return self._coordinates.mean(axis=0)

    def inertia(self, G):
        """``(I, volume)``: the inertia matrix about the point ``G`` (global axes, unit
        density), ``I = tr(C) 1 - C`` with ``C = ∫ (x - G)(x - G)ᵀ dV``."""
        v = self._tets - np.asarray(G, dtype=float)  # (f, 4, 3)
        s = v.sum(axis=1)
        # ∫ over a tetrahedron of x xᵀ = V/20 (Σ vᵢ vᵢᵀ + (Σ vᵢ)(Σ vᵢ)ᵀ)
        C = (self._vols[:, None, None] / 20.0
             * (np.einsum("fki,fkj->fij", v, v) + np.einsum("fi,fj->fij", s, s))).sum(axis=0)
        return np.trace(C) * np.eye(3) - C, self.volume()


ConvexHull2d = unsupported("siconos.mechanics.collision.convexhull.ConvexHull2d", "2D scenes")

class ConvexHull2d:
    """Siconos ``ConvexHull2d(coordinates)`` (at least 3 points, 2D): the polygon as Siconos's
    prism of unit thickness, so ``area()`` is its volume and ``inertia(G)`` returns
    ``(I_zz, area)`` with ``I_zz = ∫ |r − G|² dA`` at unit density (shoelace formulas on the
    hull's vertices; Siconos extrudes the polygon and cuts it in tetrahedra)."""

    def __init__(self, coordinates):
        pts = np.asarray(coordinates, dtype=float)
        if len(pts) < 3:
            raise RuntimeError("You must provide at least 3 coordinates!")
        from saltus.siconos.io.mechanics_run import _polygon

        self._coordinates = pts
        self._area, self._c, self._jc = _polygon(pts)

    def centroid(self) -> np.ndarray:
        """Centre of area."""
        return self._c.copy()

    def barycenter(self) -> np.ndarray:
        """Mean of the given points."""
        return self._coordinates.mean(axis=0)

    def area(self) -> float:
        """Area of the hull."""
        return self._area

    def inertia(self, G):
        """``(∫ |r − G|² dA, area)`` (unit density, about the point ``G``)."""
        d = np.asarray(G, dtype=float)[:2] - self._c
        return self._jc + self._area * float(d @ d), self._area


__getattr__ = module_getattr("siconos.mechanics.collision.convexhull")
