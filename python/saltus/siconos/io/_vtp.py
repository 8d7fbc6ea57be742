"""Triangle meshes as VTK XML PolyData text, the form Siconos stores them in a ``mechanics_hdf5``
file (``data/ref/<name>``: one string, attribute ``type = 'vtp'``) and ``siconos_vview`` draws.

Written in ASCII with exact decimals (the same text as the Rust writer,
``saltus_mechanics::io_hdf5::vtk_polydata``); read back from ASCII data arrays (what VTK's
writer produces with ``SetDataModeToAscii``, and what Saltus writes). Binary or appended VTK
data (VTK's default file mode) is refused by name: Saltus reads meshes from STL and OBJ files.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Tuple

import numpy as np

from saltus.siconos._unsupported import raise_unsupported


def polydata(vertices, triangles) -> str:
    """The VTK XML PolyData text of a triangle mesh (``vertices`` n × 3, ``triangles`` m × 3)."""
    v = np.asarray(vertices, dtype=float).reshape(-1, 3)
    t = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    out = [
        '<?xml version="1.0"?>',
        '<VTKFile type="PolyData" version="0.1" byte_order="LittleEndian">',
        "  <PolyData>",
        f'    <Piece NumberOfPoints="{len(v)}" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" '
        f'NumberOfPolys="{len(t)}">',
        "      <Points>",
        '        <DataArray type="Float64" NumberOfComponents="3" format="ascii">',
    ]
    out += [f"          {_num(a)} {_num(b)} {_num(c)}" for a, b, c in v]
    out += ["        </DataArray>", "      </Points>", "      <Polys>",
            '        <DataArray type="Int64" Name="connectivity" format="ascii">']
    out += [f"          {a} {b} {c}" for a, b, c in t]
    out += ["        </DataArray>", '        <DataArray type="Int64" Name="offsets" format="ascii">']
    out += [f"          {3 * (k + 1)}" for k in range(len(t))]
    out += ["        </DataArray>", "      </Polys>", "    </Piece>", "  </PolyData>", "</VTKFile>", ""]
    return "\n".join(out)


def _num(x: float) -> str:
    """Shortest round-trip decimal, integers without ``.0`` (as Rust's ``Display``)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e16 else repr(x)


def read_polydata(text: str, what: str) -> Tuple[np.ndarray, np.ndarray]:
    """``(vertices n × 3, triangles m × 3)`` of a VTK XML PolyData text whose polygons are
    triangles (``what`` names the shape in errors)."""
    try:
        root = ET.fromstring(text.strip())
    except ET.ParseError as e:
        raise ValueError(f"{what}: not VTK XML PolyData ({e})") from None
    piece = root.find("PolyData/Piece")
    if root.tag != "VTKFile" or piece is None:
        raise ValueError(f"{what}: not VTK XML PolyData (no VTKFile/PolyData/Piece)")

    def array(path: str, name=None) -> np.ndarray:
        for a in piece.findall(path):
            if name is None or a.get("Name") == name:
                if a.get("format", "ascii") != "ascii":
                    raise_unsupported(f"{what}: VTK data in format '{a.get('format')}'",
                                      "ASCII VTK PolyData, or meshes from STL and OBJ files")
                return np.array((a.text or "").split(), dtype=float)
        raise ValueError(f"{what}: VTK PolyData without {path} {name or ''}".rstrip())

    points = array("Points/DataArray").reshape(-1, 3)
    conn = array("Polys/DataArray", "connectivity").astype(np.int64)
    offsets = array("Polys/DataArray", "offsets").astype(np.int64)
    if np.any(np.diff(np.concatenate(([0], offsets))) != 3):
        raise_unsupported(f"{what}: VTK polygons that are not triangles", "triangle meshes")
    return points, conn.reshape(-1, 3)
