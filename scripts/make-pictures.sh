#!/usr/bin/env bash
# Regenerates every picture the README and the guides show, with glevo itself and fixed seeds:
#   scripts/make-pictures.sh [OUT_DIR]     (default docs/images; needs ./build, see quickstart)
# Population snapshots and the contact sheet come from `glevo cga`, the window pictures from
# glevo-demo under Xvfb (--frames N --screenshot), the benchmark charts are redrawn from the
# CSV tables recorded on the H100 under docs/results/. On the same packages (Debian 12, Mesa
# llvmpipe, cairo 1.16, fonts-dejavu-core) the output is the same on every run: the test
# tests/viz/test_pictures.c regenerates them and compares them with the committed ones.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/images}
build=${GLEVO_BUILD:-build}
glevo=$build/glevo
demo=$build/glevo-demo
results=docs/results/h100-2026-11-23
h100="NVIDIA H100 80GB HBM3/PCIe/SSE2"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The main job's picture (the quickstart's command) and a contact sheet of a Rastrigin run.
"$glevo" cga --problem camel --grid 64x64 --generations 200 --seed 1 --quiet \
    --snapshot-final "$out/camel-population.png" >/dev/null
"$glevo" cga --problem rastrigin --dim 3 --grid 64x40 --generations 40 --seed 1 --quiet \
    --snapshot "$work/snaps" --every 10 --sheet "$out/sheet.png" --sheet-columns 2 >/dev/null

# Benchmark charts from the recorded tables (the numbers of the README's performance page).
"$glevo" bench dsmga --redraw "$results/dsmga/dsmga_all.csv" --out "$work" --name dsmga \
    --caption "$h100, 2026-11-23; populations from the sweeps" >/dev/null
"$glevo" bench gp --redraw "$results/gp/gp.csv" --out "$work" \
    --caption "$h100, 2026-11-23 (GPU strategies 13:20 UTC, CPU interpreter 12:56 UTC)" >/dev/null
for f in dsmga_speedup gp_regression gp_classification; do
    cp "$work/$f.png" "$out/${f//_/-}.png"
done
# GP evaluation beside EvoGP on its own random trees, both timed with the programs on the GPU
# (issue 24; docs/results/h100-2026-11-25-gp-small, derived from call3/ by the recipe in
# docs/performance-history.md, "GP evaluation on small data").
small=docs/results/h100-2026-11-25-gp-small
"$glevo" bench gp --redraw "$small/gp_resident.csv" --evogp "$small/evogp.csv" --out "$work/small" \
    --caption "$h100, 2026-11-25: one set of device calls; EvoGP's four tree sets, programs resident" \
    >/dev/null
cp "$work/small/gp_scaling_evogp-trees.png" "$out/scaling-gp-evogp.png"

# Scaling pictures, one per family: fragment vs compute vs CPU vs the peer, from the series
# scripts/scaling-data.py assembled out of the recorded runs (docs/results/scaling/).
scaling() { # FAMILY TITLE X_LABEL Y_LABEL CAPTION
    [ -f "docs/results/scaling/$1.csv" ] || return 0
    "$glevo" bench plot --data "docs/results/scaling/$1.csv" --out "$out/scaling-$1.png" \
        --title "$2" --x-label "$3" --y-label "$4" --caption "$5" >/dev/null
}
scaling cga "Cellular GA (camel), 1000 generations" "individuals" "seconds for 1000 generations" \
    "$h100, 2026-11-23: fragment and CPU in the first calls, compute in the later ones"
scaling de "DE/rand/1/bin, shifted sphere, 10^4 D evaluations (solid D=100, dashed D=10)" \
    "population NP" "seconds a run" \
    "$h100, 2026-11-23: compute, fragment and evosax in one set of calls; CPU from the first"
scaling gp "GP evaluation: 10 000 programs of size 50, regression, exact math" "fitness cases" \
    "GPop/s" "$h100, 2026-11-23: compute and EvoGP in one set of calls; fragment and CPU from the first"
scaling dsmga "DSMGA-II model building, folded trap (BuildDSM solid, lossy FindClique dashed)" \
    "problem size ell (bits)" "ms a generation" "$h100, 2026-11-23"
scaling islands "MPI islands on one machine: speedup at equal total population" "islands (MPI ranks)" \
    "speedup over 1 island" "$h100 (one GPU shared by the ranks) and its 16 cores, 2026-11-23"

# The islands' speed-up on several GPUs, from scripts/device/islands-multigpu.sh's tables (so far
# its run on the one GPU lent: G = 1, the baseline a multi-GPU run is drawn beside).
multigpu=docs/results/h100-2026-11-23-compute/islands-multigpu-g1
"$glevo" bench islands --redraw "$multigpu/islands_multigpu.csv,$multigpu/islands_multigpu_de.csv,$multigpu/islands_gp.csv" \
    --out "$work/islands" --caption "$h100, 2026-11-23: islands-multigpu.sh with G = 1" >/dev/null
cp "$work/islands/islands_speedup.png" "$out/islands-multigpu.png"

# Window pictures: glevo-demo on an X server (Xvfb when none is given).
shot() { # NAME ARGS...: an 800x450 window after the given frames
    local name=$1
    shift
    if [ -n "${DISPLAY:-}" ]; then
        "$demo" --size 800x450 "$@" --screenshot "$name" >/dev/null
    else
        xvfb-run -a -s "-screen 0 1280x720x24" "$demo" --size 800x450 "$@" --screenshot "$name" >/dev/null
    fi
}
shot "$out/demo.png" --grid 160x100 --frames 35
shot "$out/demo-de.png" --de --frames 12
shot "$out/demo-gp.png" --gp --frames 40
for v in population fitness selected crossed; do
    shot "$work/pass-$v.png" --problem sphere --grid 24x16 --frames 2 --view "$v" --size 480x300
done
"$demo" --sheet "$out/passes.png" --columns 2 "$work/pass-fitness.png" "$work/pass-selected.png" \
    "$work/pass-crossed.png" "$work/pass-population.png"
echo "make-pictures: wrote $(ls "$out" | wc -l) pictures to $out" >&2
