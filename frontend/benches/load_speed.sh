#!/usr/bin/env bash
# Load speed of model files: times `saltus check` (parse, locate, convert, build the simulation) on generated
# columns of beads of 1000 and 4000 beads and one of about 10 MB, with hyperfine when installed
# (apt-get install hyperfine), else with one timed run each.
#   frontend/benches/load_speed.sh [target/release/saltus]
# Prints CSV: model,bytes,mean_s,stddev_s,cpu_s,runs (cpu_s: mean user + system time, which a loaded machine
# inflates less than the wall time). Models go to a temporary folder removed at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$(realpath "${1:-$root/target/release/saltus}")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
gen="$root/samples/column_of_beads/generate.py"
echo "model,bytes,mean_s,stddev_s,cpu_s,runs"
for n in 1000 4000 20000; do
  m="$tmp/beads_$n.xml"
  python3 "$gen" "$n" > "$m"
  bytes=$(stat -c %s "$m")
  if command -v hyperfine > /dev/null; then
    hyperfine -N --warmup 1 --min-runs 5 --export-json "$tmp/r.json" "$bin check $m" > /dev/null 2>&1
    python3 - "$tmp/r.json" "beads_$n" "$bytes" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"{sys.argv[2]},{sys.argv[3]},{r['mean']:.4f},{r['stddev']:.4f},{r['user'] + r['system']:.4f},{len(r['times'])}")
PY
  else
    s=$(date +%s.%N); "$bin" check "$m" > /dev/null; e=$(date +%s.%N)
    echo "beads_$n,$bytes,$(echo "$e - $s" | bc),,,1"
  fi
done
