#!/usr/bin/env bash
# Differential evolution on the GPU machine (issue 13), one device call, under ~6 minutes:
# the compute driver's bit-identity tests (large cases on), timing cells (D, NP) = (10, 50),
# (10, 1000), (100, 50), (100, 1000) on shifted sphere at 10^4 D evaluations for compute
# (auto, and each kernel alone) and fragment, the dispatch floor (cell 4:4: almost no
# arithmetic a generation), profiles naming the kernels, the evosax peer in the same call,
# Qin et al. Tables 1-3 compute vs fragment (3 runs a cell), and summary.txt with the ratios.
# Run from the repository root with carry [".gl", "build", ".peers"]:
#   . .gl/env.sh && scripts/device/de.sh
# Everything lands under $OUT (or ./out): CSV with the renderer string, Markdown, logs.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
glevo=${GLEVO:-./build/glevo}
cells=${DE_CELLS:-4:4,10:50,10:1000,100:50,100:1000}  # DE_CELLS, DE_RUNS: dry runs elsewhere
runs=${DE_RUNS:-7}
step() { echo "== $* ($(date +%T))" | tee -a "$out/steps.txt" >&2; }

step info
"$glevo" info --json > "$out/info.json" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1

step "tests: compute and fragment against the CPU engine on this driver (large cases on)"
for t in test_de_compute test_de_engine test_de_stream; do
  GLEVO_TEST_LARGE=1 timeout 120 ./build/$t > "$out/$t.txt" 2>&1
  echo "$t exit $?" | tee -a "$out/tests.txt"
done

step "cells: compute (auto) and fragment, $runs runs a cell"
timeout 90 "$glevo" bench de --cells $cells --runs $runs --backend compute,fragment --quiet \
  --out "$out/cells" > /dev/null 2> "$out/cells.err"
step "cells: compute, one dispatch a generation"
timeout 60 "$glevo" bench de --cells $cells --runs $runs --backend compute --kernel generation \
  --quiet --out "$out/cells_generation" > /dev/null 2> "$out/cells_generation.err"
step "cells: compute, resident kernel (the cells that fit one work-group)"
timeout 60 "$glevo" bench de --cells ${DE_RESIDENT_CELLS:-4:4,10:50,10:100,50:50,50:100,100:50} --runs $runs \
  --backend compute --kernel resident --quiet --out "$out/cells_resident" > /dev/null \
  2> "$out/cells_resident.err"

step "profiles: which kernel runs, and its GPU time"
for args in "--backend compute --dim 100 --pop 50" \
            "--backend compute --kernel generation --dim 100 --pop 50" \
            "--backend compute --dim 100 --pop 1000" \
            "--backend compute --dim 10 --pop 1000 --strategy best1bin" \
            "--backend fragment --dim 100 --pop 50"; do
  echo "## glevo de $args --profile" >> "$out/profiles.txt"
  # shellcheck disable=SC2086
  timeout 30 "$glevo" de $args --profile --quiet >> "$out/profiles.txt" 2>&1
done

step "evosax peer (whole run in one jax.lax.scan)"
timeout 150 python3 .peers/de_evosax.py data/cec2005/sphere_func_data.txt \
  > "$out/evosax.jsonl" 2> "$out/evosax.err"

step "Tables 1-3, compute vs fragment, 3 runs a cell"
timeout 150 "$glevo" bench de --runs ${DE_TABLE_RUNS:-3} ${DE_TABLE_ARGS:-} --backend compute,fragment --quiet --out "$out/tables" \
  > /dev/null 2> "$out/tables.err"

step summary
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, json, os, sys
out = sys.argv[1]
def rows(path):
    try:
        with open(path) as f: return list(csv.DictReader(f))
    except OSError: return []
cells = rows(os.path.join(out, "cells/de_cells.csv"))
gen = rows(os.path.join(out, "cells_generation/de_cells.csv"))
res = rows(os.path.join(out, "cells_resident/de_cells.csv"))
peer = {}
try:
    for line in open(os.path.join(out, "evosax.jsonl")):
        d = json.loads(line); peer[(d["D"], d["NP"])] = d
except (OSError, ValueError): pass
if cells: print("renderer:", cells[0]["renderer"])
def find(rs, d, np, backend):
    for r in rs:
        if int(r["dim"]) == d and int(r["pop"]) == np and r["backend"] == backend: return r
floor = {name: find(rs, 4, 4, "compute") for name, rs in (("auto", cells), ("generation", gen), ("resident", res))}
ff = find(cells, 4, 4, "fragment")
for name, r in floor.items():
    if r: print(f"dispatch floor (cell 4:4), compute {name:10s}: {float(r['us_per_generation']):7.2f} us a generation ({r['engine']})")
if ff: print(f"dispatch floor (cell 4:4), fragment          : {float(ff['us_per_generation']):7.2f} us a generation")
print("\n(D, NP)    compute engine        s (median)  us/gen | generation-kernel us/gen | fragment s  us/gen | evosax s  us/gen | evosax/compute (goal >= 5) | fragment/compute")
for d, np in ((10, 50), (10, 1000), (100, 50), (100, 1000)):
    c, f, g, p = find(cells, d, np, "compute"), find(cells, d, np, "fragment"), find(gen, d, np, "compute"), peer.get((d, np))
    if not c: print(f"({d}, {np}): no compute row"); continue
    cs = float(c["seconds_median"])
    line = f"({d:3d}, {np:4d})  {c['engine']:20s} {cs:10.4f} {float(c['us_per_generation']):7.2f}"
    line += f" | {float(g['us_per_generation']):7.2f}" if g else " |     -  "
    line += f" | {float(f['seconds_median']):9.4f} {float(f['us_per_generation']):7.2f}" if f else " |  -"
    line += f" | {p['seconds']:7.4f} {p['us_per_gen']:7.1f}" if p else " |  -"
    line += f" | {p['seconds'] / cs:6.1f}x" if p else " |  -"
    line += f" | {float(f['seconds_median']) / cs:6.1f}x" if f else ""
    print(line)
tables = rows(os.path.join(out, "tables/de.csv"))
slower = []
n = 0
for r in tables:
    if r["source"] != "compute": continue
    f = next((x for x in tables if x["source"] == "fragment" and x["dim"] == r["dim"] and x["problem"] == r["problem"] and x["pop"] == r["pop"]), None)
    if not f: continue
    n += 1
    ratio = float(f["seconds_mean"]) / float(r["seconds_mean"])
    if ratio <= 1.0: slower.append(f"D {r['dim']} {r['problem']} NP {r['pop']}: fragment/compute {ratio:.2f}")
print(f"\nTables 1-3: {n} cells compared, compute slower or equal in {len(slower)}")
for s in slower: print("  ", s)
PY
step done
