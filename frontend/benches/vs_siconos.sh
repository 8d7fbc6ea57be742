#!/usr/bin/env bash
# Issue 16's whole-process table: `saltus run MODEL -o OUT.{csv,npy} -q` as a whole process
# (hyperfine, -N, 3 warm-ups, >= 20 runs) against Siconos 4.4 running the same model in process
# (Python API, after import: siconos_xml.py, median of RUNS runs), model by model, back to back.
#   frontend/benches/vs_siconos.sh target/release/saltus [RUNS]      (from the workspace root)
# Prints CSV: model,steps,siconos_s,siconos_min_s,csv_mean_s,csv_min_s,npy_mean_s,npy_min_s,ratio_csv,
# ratio_npy,ratio_min_csv,ratio_min_npy,check (ratio = Siconos median / saltus mean; ratio_min = the
# best run of each, the robust figure on a loaded machine; check = largest difference of the final state between
# Siconos and the saltus CSV (siconos_xml.py), or Siconos's final state (control cases)). Needs hyperfine and /usr/bin/python3 with python3-siconos.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$(realpath "$1")"
runs="${2:-5}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# saltus model file : how Siconos runs the same model (xml: siconos_xml.py reads the same file;
# control: siconos_control.py CASE; ref: the ../shared/reference script of that name)
models=(
  bouncing_ball/bouncing_ball_ts.xml:xml
  bouncing_ball/bouncing_ball_ed.xml:ref:bouncing_ball_ed
  two_bouncing_balls/two_bouncing_balls.xml:xml
  two_bouncing_balls/two_bouncing_balls_gosi.xml:xml
  column_of_beads/column_of_beads.xml:xml
  tied_sliders/tied_sliders.xml:xml
  woodpecker/woodpecker.xml:xml
  diode_bridge/diode_bridge.xml:xml
  diode_bridge_capacitor/diode_bridge_capacitor.xml:xml
  rlcd/rlcd.xml:xml
  relay_oscillator/relay_oscillator.xml:xml
  smc_double_integrator/model.xml:control:smc_implicit
  smc_double_integrator/model_explicit.xml:control:smc_explicit
  smc_double_integrator/model_twisting.xml:control:smc_twisting
  dc_motor_pid_observer/model.xml:control:dc_motor
)
ref="${SALTUS_REFERENCE:-$root/../shared/reference}"
echo "model,steps,siconos_s,siconos_min_s,csv_mean_s,csv_min_s,npy_mean_s,npy_min_s,ratio_csv,ratio_npy,ratio_min_csv,ratio_min_npy,check"
for entry in "${models[@]}"; do
  IFS=: read -r model kind arg <<< "$entry"
  ours="$root/samples/$model"
  for f in csv npy; do
    hyperfine -N --warmup 3 --min-runs 20 --export-json "$tmp/$f.json" \
      "$bin run $ours -o $tmp/out.$f -q" > /dev/null 2>&1
  done
  "$bin" run "$ours" -o "$tmp/check.csv" -q
  case "$kind" in
    xml) sic="$(/usr/bin/python3 "$root/frontend/benches/siconos_xml.py" "$ours" --runs "$runs" --check "$tmp/check.csv")" ;;
    control) sic="$(/usr/bin/python3 "$root/frontend/benches/siconos_control.py" "$arg" --runs "$runs" | tr ' ' ';')" ;;
    ref)
      /usr/bin/python3 "$ref/$arg/$arg.py" "$tmp/ref" --runs "$runs" > /dev/null
      sic="$(/usr/bin/python3 - "$tmp/ref/timing.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
print(f"ref,{t.get('steps', t.get('events_processed'))},{t['median_total_s']},{t['min_total_s']},{t['runs']}")
PY
)" ;;
  esac
  /usr/bin/python3 - "$tmp" "$model" "$sic" <<'PY'
import json, sys
tmp, name, sic = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
r = {f: json.load(open(f"{tmp}/{f}.json"))["results"][0] for f in ("csv", "npy")}
steps, s, s_min = sic[1], float(sic[2]), float(sic[3])
check = sic[5] if len(sic) > 5 else ""
if ";" in check:  # control: Siconos's final x against the last row of the saltus CSV
    import numpy as np
    head = open(f"{tmp}/check.csv").readline().strip().split(",")
    last = np.loadtxt(f"{tmp}/check.csv", delimiter=",", skiprows=1)[-1]
    cols = [i for i, c in enumerate(head) if c.endswith(".x[0]") or c.endswith(".x[1]")][:2]
    check = f"{np.max(np.abs(last[cols] - np.array([float(v) for v in check.split(';')]))):.3e}"
print(f"{name},{steps},{s:.5f},{s_min:.5f},{r['csv']['mean']:.5f},{r['csv']['min']:.5f},{r['npy']['mean']:.5f},"
      f"{r['npy']['min']:.5f},{s / r['csv']['mean']:.1f},{s / r['npy']['mean']:.1f},"
      f"{s_min / r['csv']['min']:.1f},{s_min / r['npy']['min']:.1f},{check}")
PY
done
