"""The Siconos granular tutorial `spheres_in_a_box` with Saltus: n spheres fall into a box and
settle. Prints the time per step and the final heights; `--plot` writes the heights over time to spheres_in_a_box.png."""

import argparse
import time

import numpy as np

import saltus.mechanics as sm

ap = argparse.ArgumentParser()
ap.add_argument("-n", type=int, default=27)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--plot", action="store_true")
args = ap.parse_args()

sim = sm.spheres_in_a_box(args.n, args.seed)
t0 = time.perf_counter()
out = sim.run(record_every=10)
wall = time.perf_counter() - t0
per = out["steps"]
steps = len(per["t"])
print(f"{args.n} spheres, {steps} steps in {wall:.2f} s ({1e6 * wall / steps:.0f} µs/step)")
print(f"contacts at the end: {per['contacts'][-1]}, NSGS converged on {np.mean(per['converged']):.1%} of steps")
z = np.stack([out[f"{b}.z"] for b in sim.body_names()[: args.n]], axis=1)
print(f"final heights / r: min {z[-1].min() / 0.01:.3f}, max {z[-1].max() / 0.01:.3f}")
if args.plot:
    import matplotlib.pyplot as plt

    plt.plot(out["t"], z)
    plt.xlabel("t (s)")
    plt.ylabel("z (m)")
    plt.savefig("spheres_in_a_box.png")
    print("wrote spheres_in_a_box.png")
