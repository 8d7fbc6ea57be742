"""MuJoCo and PyBullet, at their default settings, on issue 31's two scenes, for the side-by-side table of
`mechanics/benches/README.md` (with `benches/rapier_spheres`, `benches/siconos_{spheres,cubes}` and Saltus's
`spheres` bench).

Scenes (the lattices of `saltus_mechanics::scenes`, the same splitmix64 draws, seed 1):
* `spheres`: N spheres r = 0.01 m, density 2320 kg/m^3, cubic lattice of spacing 2.2 r, x/y offsets in ±0.05 r,
  bottom layer at z = 1.5 r; mu = 0.3, e = 0;
* `cubes`: N cubes of half edge a = 0.01 m, density 2320 kg/m^3, lattice spacing 3.6 a, bottom layer at 1.8 a,
  uniformly random orientations (Shoemake); mu = 0.5, e = 0;
a square box whose inner width is the lattice width (ground and four walls 0.1 width thick); h = 1e-3.

Usage (in an environment with `pip install mujoco pybullet numpy`):
    python peers.py {mujoco|mujoco-pgs|pybullet} {spheres|cubes} N T
Prints one CSV row: engine,scene,n,steps,seconds_per_step,mean_height,min_height,kinetic_energy
(seconds_per_step: wall time of the stepping loop only, one thread).
"""
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from scenes import cube_lattice, sphere_lattice  # noqa: E402

H = 1e-3
G = 9.81
DENSITY = 2320.0


def spheres(n, r=0.01):
    """[(centre, quaternion w x y z)], inner width, the shape's half size, mu."""
    centres, width = sphere_lattice(n, r)
    return [(c, (1.0, 0.0, 0.0, 0.0)) for c in centres], width, r, 0.3


def cubes(n, a=0.01):
    sites, width = cube_lattice(n, a)
    return [(c, tuple(q)) for c, q in sites], width, a, 0.5


def box_parts(sites, width, size):
    """Ground and walls as (half extents, centre)."""
    wall = 0.1 * width
    height = 2.0 * (sites[-1][0][2] + 2 * size)
    parts = [((width, width, wall / 2), (0.0, 0.0, -wall / 2))]
    for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        hx, hy = (wall / 2, width) if sx else (width, wall / 2)
        parts.append(((hx, hy, height / 2), (sx * (width + wall) / 2, sy * (width + wall) / 2, height / 2)))
    return parts


def run_mujoco(scene, sites, width, size, mu, steps, pgs):
    import mujoco

    f = lambda v: " ".join(repr(float(x)) for x in v)  # noqa: E731
    geom = f'type="sphere" size="{size!r}"' if scene == "spheres" else f'type="box" size="{f([size] * 3)}"'
    solver = ' solver="PGS"' if pgs else ""
    xml = [f'<mujoco><option timestep="{H!r}" gravity="0 0 {-G!r}"{solver}/><worldbody>']
    for half, c in box_parts(sites, width, size):
        xml.append(f'<geom type="box" size="{f(half)}" pos="{f(c)}" friction="{mu!r} 0.005 0.0001"/>')
    for i, (p, q) in enumerate(sites):
        xml.append(f'<body name="b{i}" pos="{f(p)}" quat="{f(q)}"><freejoint/>'
                   f'<geom {geom} density="{DENSITY!r}" friction="{mu!r} 0.005 0.0001"/></body>')
    xml.append("</worldbody></mujoco>")
    model = mujoco.MjModel.from_xml_string("".join(xml))
    data = mujoco.MjData(model)
    start = time.perf_counter()
    for _ in range(steps):
        mujoco.mj_step(model, data)
    secs = time.perf_counter() - start
    z = data.qpos.reshape(-1, 7)[:, 2]
    mujoco.mj_energyVel(model, data)
    return secs, z, float(data.energy[1])


def run_pybullet(scene, sites, width, size, mu, steps):
    import pybullet as p

    p.connect(p.DIRECT)
    p.setGravity(0, 0, -G)
    p.setTimeStep(H)
    for half, c in box_parts(sites, width, size):
        b = p.createMultiBody(0, p.createCollisionShape(p.GEOM_BOX, halfExtents=half), basePosition=c)
        p.changeDynamics(b, -1, lateralFriction=mu, restitution=0.0)
    if scene == "spheres":
        shape = p.createCollisionShape(p.GEOM_SPHERE, radius=size)
        mass = 4.0 / 3.0 * math.pi * size ** 3 * DENSITY
    else:
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=[size] * 3)
        mass = 8.0 * size ** 3 * DENSITY
    bodies = []
    for c, (w, x, y, z) in sites:
        b = p.createMultiBody(mass, shape, basePosition=c, baseOrientation=(x, y, z, w))
        p.changeDynamics(b, -1, lateralFriction=mu, restitution=0.0)
        bodies.append(b)
    start = time.perf_counter()
    for _ in range(steps):
        p.stepSimulation()
    secs = time.perf_counter() - start
    zs, ke = [], 0.0
    for b in bodies:
        zs.append(p.getBasePositionAndOrientation(b)[0][2])
        v, w = p.getBaseVelocity(b)
        inertia = p.getDynamicsInfo(b, -1)[2]
        ke += 0.5 * mass * float(np.dot(v, v)) + 0.5 * float(np.dot(inertia, np.square(w)))
    p.disconnect()
    return secs, np.array(zs), ke


def main():
    engine, scene = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else (125 if scene == "spheres" else 64)
    t_end = float(sys.argv[4]) if len(sys.argv) > 4 else (0.5 if scene == "spheres" else 1.0)
    sites, width, size, mu = (spheres if scene == "spheres" else cubes)(n)
    steps = int(round(t_end / H))
    if engine.startswith("mujoco"):
        secs, z, ke = run_mujoco(scene, sites, width, size, mu, steps, engine == "mujoco-pgs")
        import mujoco
        name = f"{engine}-{mujoco.__version__}"
    else:
        secs, z, ke = run_pybullet(scene, sites, width, size, mu, steps)
        name = "pybullet-3.2"
    print("engine,scene,n,steps,seconds_per_step,mean_height,min_height,kinetic_energy")
    print(f"{name},{scene},{n},{steps},{secs / steps:.6e},{float(np.mean(z)):.6e},{float(np.min(z)):.6e},{ke:.3e}")


if __name__ == "__main__":
    main()
