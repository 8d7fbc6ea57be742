#!/usr/bin/env bash
# Issue 31's table in one go, one thread per engine, on one machine: the 125-sphere pile (T = 0.5 s) and the
# 64-cube pile (T = 1 s) by Saltus's `spheres` bench (plain NSGS, and NSGS + patch fallback: every step to 1e-6),
# rapier3d-f64 (spheres), MuJoCo (Newton, PGS) and PyBullet at their defaults, and Siconos 4.4.
# Usage, from the repository root:
#   cargo bench -p saltus-mechanics --features parallel --bench spheres --no-run
#   cargo build --release --manifest-path benches/rapier_spheres/Cargo.toml
#   bash benches/side_by_side.sh PYTHON_WITH_MUJOCO_AND_PYBULLET
# Every engine prints its own CSV header and row; /usr/bin/time's user+sys CPU seconds follow each.
set -u
py=${1:-python3}
bench=$(ls -t target/release/deps/spheres-* | grep -v '\.d$' | head -1)
export RAYON_NUM_THREADS=1
t() { /usr/bin/time -f "cpu_s %U %S" "$@"; }
for fb in none patch; do SALTUS_BENCH_FALLBACK=$fb SALTUS_BENCH_N=125 t "$bench" --bench 2>&1 | tail -3; done
for fb in none patch; do SALTUS_BENCH_SCENE=cubes SALTUS_BENCH_FALLBACK=$fb t "$bench" --bench 2>&1 | tail -3; done
t benches/rapier_spheres/target/release/rapier-spheres 125 0.5 2>&1
for e in mujoco mujoco-pgs pybullet; do
  t "$py" benches/peers/peers.py "$e" spheres 125 0.5 2>&1 | grep -v "build time"
  t "$py" benches/peers/peers.py "$e" cubes 64 1 2>&1 | grep -v "build time"
done
t /usr/bin/python3 benches/siconos_spheres/spheres_in_a_box_siconos.py 125 0.5 2>&1 | tail -3
t /usr/bin/python3 benches/siconos_cubes/cube_pile_siconos.py 64 1 2>&1 | tail -3
