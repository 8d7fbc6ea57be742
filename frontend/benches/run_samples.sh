#!/usr/bin/env bash
# Whole-process timing of `saltus run` on samples (hyperfine), for one or more saltus binaries.
#   frontend/benches/run_samples.sh target/release/saltus [OTHER_SALTUS ...]
# Prints one CSV row per (binary, sample, output format): binary,sample,format,mean_s,stddev_s,min_s,runs
# Outputs go to a temporary folder that is removed at the end. Needs hyperfine (apt-get install hyperfine).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
samples=(bouncing_ball/bouncing_ball_ts.xml diode_bridge/diode_bridge.xml woodpecker/woodpecker.xml column_of_beads/column_of_beads.xml)
echo "binary,sample,format,mean_s,stddev_s,min_s,runs"
for bin in "$@"; do
  bin="$(realpath "$bin")"
  for s in "${samples[@]}"; do
    formats=(csv)
    # .npy only exists in builds that have it
    if "$bin" run --help | grep -q 'OUT.npy'; then formats+=(npy); fi
    for f in "${formats[@]}"; do
      hyperfine -N --warmup 3 --min-runs 20 --export-json "$tmp/r.json" \
        "$bin run $root/samples/$s -o $tmp/out.$f -q" > /dev/null 2>&1
      python3 - "$tmp/r.json" "$bin" "$s" "$f" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"{sys.argv[2]},{sys.argv[3]},{sys.argv[4]},{r['mean']:.5f},{r['stddev']:.5f},{r['min']:.5f},{len(r['times'])}")
PY
    done
  done
done
