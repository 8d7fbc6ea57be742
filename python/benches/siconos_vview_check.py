"""Do Siconos's own tools open Saltus's HDF5 files? (issue 29)

    python siconos_vview_check.py [--tutorial mechanics/GeometricPrimitives/cube.py]
                                  [--siconos-python /usr/bin/python3] [--keep DIR]

Runs a ``MechanicsHdf5Runner`` tutorial twice in temporary copies of its folder: with
``python -m saltus.siconos`` (this interpreter, Saltus installed) and with the real Siconos 4.4
(``--siconos-python``, Debian's ``python3-siconos`` with ``python3-vtk9``). Each HDF5 file is then
exported by Siconos's VTK exporter (``siconos.io.vview``'s ``VView.export``, what
``siconos_vexport`` runs; ``siconos_vview`` draws the same pipeline on screen) into one
``.vtm`` multiblock per output step, and the bodies' geometry of both exports is compared: at the
first, a middle and the last frame, the largest distance between the centroids of the objects'
points, and whether the exporter read every frame. A failure of the exporter on Saltus's file
(a missing group, attribute or column of the ``mechanics_hdf5`` layout) ends the script with
its traceback.
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

EXPORT = """
import sys
from siconos.io.vview import VView, VExportOptions
from siconos.io.mechanics_hdf5 import MechanicsHdf5
opts = VExportOptions()
opts.parse()
with MechanicsHdf5(io_filename=opts.io_filename, mode='r') as io:
    v = VView(io, opts)
    v.initialize_vtk()
    v.export()
"""

LAST_TIME = """
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    d = f["data/dynamic"]
    print(d[:, 0].max() if d.shape[0] else "none", d.shape[0], "rows")
"""

COMPARE = """
import sys, glob, os
import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

def centroid(folder, stem, k):
    out = []
    for f in sorted(glob.glob(os.path.join(folder, f"{stem}-{k}", "*.vtu"))):
        r = vtk.vtkXMLUnstructuredGridReader()
        r.SetFileName(f)
        r.Update()
        p = r.GetOutput().GetPoints()
        if p is not None:
            out.append(vtk_to_numpy(p.GetData()).mean(axis=0))
    return np.array(out)

a_dir, b_dir, stem = sys.argv[1:4]
frames = [int(x) for x in sys.argv[4:]]
for k in frames:
    a, b = centroid(a_dir, stem, k), centroid(b_dir, stem, k)
    d = np.abs(a - b).max() if a.shape == b.shape and a.size else float("nan")
    print(f"frame {k}: {len(a)} / {len(b)} objects, largest centroid distance {d:.3g} m")
"""


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed in {cwd}:\n{p.stderr[-3000:]}")
    return p.stdout

BLOCKS = """
import sys, vtk
r = vtk.vtkXMLMultiBlockDataReader()
r.SetFileName(sys.argv[1])
r.Update()
it = r.GetOutput().NewIterator()
it.InitTraversal()
while not it.IsDoneWithTraversal():
    d = it.GetCurrentDataObject()
    print(f"block: {d.GetNumberOfPoints()} points, {d.GetNumberOfCells()} cells")
    it.GoToNextItem()
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent
    ap.add_argument("--tutorials", default=str(here.parents[2] / "shared" / "siconos-tutorials" / "examples"))
    ap.add_argument("--tutorial", default="mechanics/GeometricPrimitives/cube.py")
    ap.add_argument("--siconos-python", default="/usr/bin/python3")
    ap.add_argument("--keep", help="keep the two exports in DIR/saltus and DIR/siconos")
    ap.add_argument("--saltus-only", action="store_true",
                    help="export Saltus's file only (a tutorial Siconos cannot run here) and list the last "
                         "frame's blocks: points and cells each object is drawn with")
    a = ap.parse_args()
    src = Path(a.tutorials) / a.tutorial
    if not src.exists():
        sys.exit(f"{src} is absent")
    stem = src.stem
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(a.keep) if a.keep else Path(tmp)
        frames = {}
        sides = [("saltus", [sys.executable, "-m", "saltus.siconos"]), ("siconos", [a.siconos_python])]
        for who, py in sides[:1] if a.saltus_only else sides:
            work = root / who
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(src.parent, work, ignore=shutil.ignore_patterns("*.hdf5"))
            run(py + [src.name], work)
            (work / "_export.py").write_text(EXPORT)
            run([a.siconos_python, "_export.py", f"{stem}.hdf5"], work)
            frames[who] = len(list(work.glob(f"{stem}-*.vtm")))
            t_end = run([a.siconos_python, "-c", LAST_TIME, f"{stem}.hdf5"], work).strip()
            print(f"{who}: {stem}.hdf5 (last output t = {t_end}) exported by siconos.io.vview: {frames[who]} frames")
        n = min(frames.values())
        if n == 0:
            sys.exit("no frame exported")
        if a.saltus_only:
            print(run([a.siconos_python, "-c", BLOCKS, str(root / "saltus" / f"{stem}-{n}.vtm")], root))
            return
        print(run([a.siconos_python, "-c", COMPARE, str(root / "saltus"), str(root / "siconos"), stem,
                   "1", str(n // 2), str(n)], root))


if __name__ == "__main__":
    main()
