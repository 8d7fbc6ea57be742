#!/usr/bin/env bash
# Side-by-side per-step timings, Siconos 4.4 vs saltus-kernel, in one run on this machine.
# Usage: kernel/benches/compare_siconos.sh [RUNS]   (from the workspace root)
# Siconos: the reference scripts of /work/shared/reference (median of RUNS runs, model
# construction + loop + recording) and benches/siconos_beads.py; Rust: `cargo bench --bench step`.
# Siconos takes ~12 min for the 1000-bead stack: add it with SICONOS_STACK_N="10 100 1000".
set -euo pipefail
RUNS=${1:-5}
REF=${SALTUS_REFERENCE:-/work/shared/reference}
OUT=$(mktemp -d)
HERE=$(cd "$(dirname "$0")" && pwd)
echo "case,n,siconos_us_per_step"
for c in bouncing_ball_ts diode_bridge; do
  /usr/bin/python3 "$REF/$c/$c.py" "$OUT/$c" --runs "$RUNS" > /dev/null 2>&1
  /usr/bin/python3 - "$OUT/$c/timing.json" "$c" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]},-,{t['median_total_s'] / t['steps'] * 1e6:.4f}")
PY
done
/usr/bin/python3 "$HERE/siconos_beads.py" ${SICONOS_STACK_N:-10 100} --runs 1 --gap 0.0 2>/dev/null | grep -v '^\[kernel\]' | tail -n +2 | awk -F, '{print $1","$2","$6}'
/usr/bin/python3 "$HERE/siconos_beads.py" ${SICONOS_STACK_N:-10 100} --runs 1 --gap 0.01 2>/dev/null | grep -v '^\[kernel\]' | tail -n +2 | awk -F, '{print $1","$2","$6}'
echo
cargo bench -q -p saltus-kernel --bench step 2>/dev/null
rm -rf "$OUT"
