"""The lattices of issue 13's sphere pile and issue 31's cube pile, drawn as `saltus_mechanics::scenes` draws them
(splitmix64, seed 1), shared by the Python bench scripts of the other engines (`siconos_spheres/`, `siconos_cubes/`,
`peers/`)."""
import math

import numpy as np

MASK64 = (1 << 64) - 1


def splitmix64(state):
    """One splitmix64 draw: returns (new_state, uniform in [0, 1) with 53 bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return state, (z >> 11) / float(1 << 53)


def side_of(n):
    """The smallest `side` with `side³ ≥ n`."""
    side = 1
    while side ** 3 < n:
        side += 1
    return side


def sphere_lattice(n, r):
    """N sphere centres: spacing 2.2 r, x/y offsets uniform in ±0.05 r, bottom layer at 1.5 r; and the box's inner
    width."""
    side, s = side_of(n), 2.2 * r
    width, state, out = side * s, 1, []
    for k in range(side):
        for j in range(side):
            for i in range(side):
                if len(out) == n:
                    return out, width
                state, u = splitmix64(state)
                dx = (u - 0.5) * 0.1 * r
                state, u = splitmix64(state)
                dy = (u - 0.5) * 0.1 * r
                out.append((-width / 2 + (i + 0.5) * s + dx, -width / 2 + (j + 0.5) * s + dy, 1.5 * r + k * s))
    return out, width


def cube_lattice(n, a):
    """N cubes of half edge `a` as (centre, unit quaternion [w, x, y, z]): spacing 3.6 a (x fastest), bottom layer at
    1.8 a, uniformly random orientations (Shoemake); and the box's inner width."""
    side, s = side_of(n), 3.6 * a
    width, state, out = side * s, 1, []
    for idx in range(n):
        i, j, k = idx % side, (idx // side) % side, idx // (side * side)
        state, u1 = splitmix64(state)
        state, u2 = splitmix64(state)
        state, u3 = splitmix64(state)
        p, q = math.sqrt(1.0 - u1), math.sqrt(u1)
        quat = np.array([q * math.cos(2 * math.pi * u3), p * math.sin(2 * math.pi * u2),
                         p * math.cos(2 * math.pi * u2), q * math.sin(2 * math.pi * u3)])
        quat /= np.linalg.norm(quat)
        out.append(((-width / 2 + (i + 0.5) * s, -width / 2 + (j + 0.5) * s, 1.8 * a + k * s), list(quat)))
    return out, width
